"""`pickomino analyse`: every dice decision of a saved game valued by the turn solver."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from rich.cells import cell_len
from rich.table import Table

from pickomino_rules.cli._common import (
    new_console,
)
from pickomino_rules.records import load_record
from pickomino_rules.story import counted

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

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
    """The decisions (mistakes only unless ``show_all``) and each player's summary.

    A decision is a mistake against one objective at a time, each with its own best move and
    cost: this turn's expected worms, and (with the champion's chances) the chance to win
    the game. Each cost is shown only where the move is a mistake by it (else ``-``), so a
    mistake is never listed at a cost of 0.
    """
    with_chances = any(d.chances for d in analysis.decisions)
    shown = [
        d for d in analysis.decisions if d.valued and (show_all or d.mistake or d.chance_mistake)
    ]
    title = "every decision" if show_all else "mistakes: moves that cost worms"
    columns = ["turn", "move", "player", "situation", "played", "best", "cost"]
    if with_chances:
        columns += ["win % lost", "for the game"]
    rows = []
    for decision in shown:
        state = decision.state
        situation = f"total {state.total}, " + (
            f"roll {state.roll}"
            if state.roll
            else f"{counted(sum(state.in_hand), 'die', 'dice')} left"
        )
        lost = decision.mistake or (show_all and decision.cost > 0)
        row = [
            str(decision.turn),
            str(decision.move + 1),
            names[decision.player],
            situation,
            decision.played,
            decision.best,
            f"{decision.cost:.3f}" if lost else "-",
        ]
        if decision.chances and decision.best_for_game is not None:
            best = decision.best_for_game
            chances = decision.chances
            lost = decision.chance_mistake or (show_all and decision.chance_cost > 0)
            row += [
                f"{decision.chance_cost:.1%}" if lost else "-",
                f"{best} {chances[best]:.1%}",
            ]
        elif with_chances:
            row += ["-", "-"]
        rows.append(row)
    if rows:
        title += " this turn or the chance to win" if with_chances and not show_all else ""
        _print_table(console, title, columns, rows, left=_LEFT, folded=_FOLDED)
    title = "expected worms lost to mistakes (this turn's value, solver's play)"
    columns = ["player", "decisions", "best moves", "mistakes", "worms lost", "worst (move)"]
    if with_chances:
        title = "expected worms lost to mistakes this turn, and the chance to win lost"
        columns += ["mistakes for the game", "win % lost"]
    rows = []
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
            row += [str(entry.chance_mistakes), f"{entry.chance_cost:.1%}"]
        rows.append(row)
    folded = dict.fromkeys(columns, " ") | {"worst (move)": ", "}  # a move with its cost
    _print_table(console, title, columns, rows, left={"player"}, folded=folded)


def _print_table(  # noqa: PLR0913 (a table's parts)
    console: Console,
    title: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    left: set[str],
    folded: Mapping[str, str],
) -> None:
    """A table at its full width where that fits, else folded to fit the console.

    The columns in ``folded`` wrap onto more lines between units (``folded`` maps each to
    what separates its units: a space between words, a comma between a list's entries), so
    that a word is never broken in two (``champio`` / ``n``) nor cut short; the others keep
    each cell on one line. Where even that is too wide, the padding between columns halves.
    (rich's own folding breaks words and may draw a table wider than it was given.)
    """
    least, full = [], []
    for index, header in enumerate(headers):
        cells = [row[index] for row in rows]
        full.append(max(map(cell_len, [header, *cells])))
        if header in folded:  # a unit keeps what ends it: "0.46 (166),"
            between = folded[header]
            cells = [unit + between.strip() for cell in cells for unit in cell.split(between)]
            header_parts = header.split()
        else:
            header_parts = [header]
        least.append(max(map(cell_len, [*header_parts, *cells])))  # in a terminal's cells
    widths, collapse = _column_widths(least, full, console.width)
    table = Table(title=title, collapse_padding=collapse, pad_edge=not collapse)
    for header, width, natural in zip(headers, widths, full, strict=True):
        table.add_column(
            header,
            justify="left" if header in left else "right",
            no_wrap=header not in folded,
            width=width if width < natural else None,
            overflow="fold",  # a word wider than the whole console still folds, never cut
        )
    for row in rows:
        table.add_row(*row)
    console.print(table)


def _column_widths(least: list[int], full: list[int], room: int) -> tuple[list[int], bool]:
    """Each column's width, and whether the padding collapses, for a table ``room`` wide.

    From the full widths, the widest column that can give a character gives one until the
    table fits or none can: the columns folded evenly, none below its least width.
    """
    count = len(full)
    collapse = sum(least) > room - (3 * count + 1)  # a border and two spaces a column
    frame = (2 if collapse else 3) * count + 1
    widths = list(full)
    while sum(widths) > room - frame:
        give = [index for index in range(count) if widths[index] > least[index]]
        if not give:
            break
        widths[max(give, key=lambda index: widths[index])] -= 1
    return widths, collapse


_LEFT = {"player", "situation", "played", "best", "for the game"}
_FOLDED = dict.fromkeys(["player", "situation", "win % lost", "for the game"], " ")
"""The columns that fold onto more lines where a terminal is too narrow (text, not figures),
each with what separates its units: between words."""
