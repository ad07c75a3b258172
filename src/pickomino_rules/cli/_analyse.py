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
    from pickomino_rules.records import GameRecord
    from pickomino_rules.solver import TurnValue


@click.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--all", "show_all", is_flag=True, help="List every decision, not only mistakes.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON instead.")
@click.option(
    "--chances/--no-chances",
    default=True,
    help="Add the champion's chance to win the game after each move (where a model is shipped).",
)
def analyse(path: str, show_all: bool, as_json: bool, chances: bool) -> None:
    """Value every dice decision of a saved game with the turn solver.

    For each decision: the best move, the move played and the expected worms it cost
    (this turn, playing on optimally); with the champion's win model for the game, also
    the chance to win the game after the move played and after the best move for the
    game. Then each player's summary. Needs the solver extra.
    """
    from pickomino_rules.analysis import analyse_record  # noqa: PLC0415 (numpy)

    record = load_record(path)
    analysis = analyse_record(record, chances=champion_chances(record) if chances else None)
    if as_json:
        click.echo(analysis.to_json())
        return
    console = new_console()
    names = record.seat_names()
    print_analysis(console, analysis, names, show_all=show_all)


def champion_chances(record: GameRecord) -> TurnValue | None:
    """The champion's chance to win as a turn value, where a model is shipped for the game."""
    from pickomino_rules.learned import shipped_win_model  # noqa: PLC0415 (numpy)

    rules, start = record.initial()
    model = shipped_win_model(rules, start.players)
    return None if model is None else model.champion_value()


def print_analysis(
    console: Console, analysis: GameAnalysis, names: Sequence[str], *, show_all: bool = False
) -> None:
    """The decisions (mistakes only unless ``show_all``) and each player's summary."""
    with_chances = any(d.chances for d in analysis.decisions)
    shown = [
        d
        for d in analysis.decisions
        if d.valued and (show_all or d.mistake or d.chance_cost > CHANCE_MISTAKE)
    ]
    title = "every decision" if show_all else "mistakes: moves that cost worms"
    table = Table(title=title + (" or the game" if with_chances and not show_all else ""))
    columns = ["turn", "move", "player", "situation", "played", "best", "cost"]
    if with_chances:
        columns += ["win %", "for the game"]
    for column in columns:
        table.add_column(
            column,
            justify="left" if column in _LEFT else "right",
            no_wrap=column not in _FOLDED,
            overflow="fold",  # a word too long for its column folds, never cut short
        )
    for decision in shown:
        state = decision.state
        situation = f"total {state.total}, " + (
            f"roll {state.roll}" if state.roll else f"{sum(state.in_hand)} dice left"
        )
        row = [
            str(decision.turn),
            str(decision.move + 1),
            names[decision.player],
            situation,
            decision.played,
            decision.best,
            f"{decision.cost:.3f}",
        ]
        if decision.chances and decision.best_for_game is not None:
            best = decision.best_for_game
            chances = decision.chances
            row += [f"{chances[decision.played]:.1%}", f"{best} {chances[best]:.1%}"]
        table.add_row(*row)
    if shown:
        console.print(table)
    summary = Table(title="expected worms lost to mistakes (this turn's value, solver's play)")
    columns = ["player", "decisions", "best moves", "mistakes", "worms lost", "worst (move)"]
    if with_chances:
        columns.append("win % lost")
    for column in columns:
        summary.add_column(
            column, justify="left" if column == "player" else "right", overflow="fold"
        )
    for entry in analysis.summaries():
        worst = ", ".join(f"{d.cost:.2f} ({d.move + 1})" for d in entry.biggest)
        row = [
            names[entry.player],
            str(entry.decisions),
            str(entry.best),
            str(entry.mistakes),
            f"{entry.cost:.2f}",
            worst or "-",
        ]
        if with_chances:
            lost = sum(d.chance_cost for d in analysis.decisions if d.player == entry.player)
            row.append(f"{lost:.1%}")
        summary.add_row(*row)
    console.print(summary)


CHANCE_MISTAKE = 0.01
"""A move that gives away more than this chance to win the game is listed as a mistake."""

_LEFT = {"player", "situation", "played", "best", "for the game"}
_FOLDED = {"player", "situation", "for the game"}
"""The columns that fold onto more lines where a terminal is too narrow: text, not figures."""
