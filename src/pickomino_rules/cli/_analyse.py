"""`pickomino analyse`: every dice decision of a saved game valued by the turn solver."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from rich.table import Table

from pickomino_rules.cli._common import (
    new_console,
)
from pickomino_rules.records import load_record

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import Console

    from pickomino_rules.analysis import GameAnalysis


@click.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--all", "show_all", is_flag=True, help="List every decision, not only mistakes.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON instead.")
def analyse(path: str, show_all: bool, as_json: bool) -> None:
    """Value every dice decision of a saved game with the turn solver.

    For each decision: the best move, the move played and the expected worms it cost
    (this turn, playing on optimally); then each player's summary. Needs the solver extra.
    """
    from pickomino_rules.analysis import analyse_record  # noqa: PLC0415 (numpy)

    record = load_record(path)
    analysis = analyse_record(record)
    if as_json:
        click.echo(analysis.to_json())
        return
    console = new_console()
    names = record.seat_names()
    print_analysis(console, analysis, names, show_all=show_all)


def print_analysis(
    console: Console, analysis: GameAnalysis, names: Sequence[str], *, show_all: bool = False
) -> None:
    """The decisions (mistakes only unless ``show_all``) and each player's summary."""
    shown = [d for d in analysis.decisions if d.valued and (show_all or d.mistake)]
    table = Table(title="every decision" if show_all else "mistakes: moves that cost worms")
    for column in ("turn", "move", "player", "situation", "played", "best", "cost"):
        table.add_column(column, justify="right" if column in {"turn", "move", "cost"} else "left")
    for decision in shown:
        state = decision.state
        situation = f"total {state.total}, " + (
            f"roll {state.roll}" if state.roll else f"{sum(state.in_hand)} dice left"
        )
        table.add_row(
            str(decision.turn),
            str(decision.move + 1),
            names[decision.player],
            situation,
            decision.played,
            decision.best,
            f"{decision.cost:.3f}",
        )
    if shown:
        console.print(table)
    summary = Table(title="expected worms lost to mistakes (this turn's value, solver's play)")
    for column in ("player", "decisions", "best moves", "mistakes", "worms lost", "worst (move)"):
        summary.add_column(column, justify="left" if column == "player" else "right")
    for entry in analysis.summaries():
        worst = ", ".join(f"{d.cost:.2f} ({d.move + 1})" for d in entry.biggest)
        summary.add_row(
            names[entry.player],
            str(entry.decisions),
            str(entry.best),
            str(entry.mistakes),
            f"{entry.cost:.2f}",
            worst or "-",
        )
    console.print(summary)
