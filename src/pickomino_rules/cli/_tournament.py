"""`pickomino tournament`: every bot against every other, seats rotated; a leaderboard."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.table import Table

from pickomino_rules.bots import available_bots
from pickomino_rules.cli._common import (
    MAX_MOVES,
    OPTION,
    PLAYERS,
    SEED,
    VARIANT,
    bot_names,
    fail,
    new_console,
    parse_options,
    stop_code,
)
from pickomino_rules.cli._simulate import _progress_bar
from pickomino_rules.simulation import (
    SimulationError,
    SimulationInterrupted,
    TournamentResult,
)
from pickomino_rules.simulation import tournament as run_tournament

if TYPE_CHECKING:
    from rich.console import Console


@click.command()
@VARIANT
@PLAYERS
@click.option(
    "--bots",
    default=None,
    callback=lambda ctx, param, value: None if value is None else bot_names(ctx, param, value),
    help="The bots, comma-separated (default: every registered and installed bot that "
    "plays this game).",
)
@click.option(
    "--games",
    default=1000,
    show_default=True,
    type=click.IntRange(min=1),
    help="Games per table (per pair of bots with 2 players), seats rotated.",
)
@SEED
@click.option(
    "--jobs",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Worker processes (results do not depend on it).",
)
@click.option(
    "--markdown",
    "markdown_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Also write the leaderboard as a Markdown table to this file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON instead.")
@MAX_MOVES
@OPTION
def tournament(  # noqa: PLR0913, PLR0917 (click passes one argument per option)
    variant: str,
    players: int,
    bots: tuple[str, ...] | None,
    games: int,
    seed: int,
    jobs: int,
    markdown_path: str | None,
    as_json: bool,
    max_moves: int,
    option_pairs: tuple[str, ...],
) -> None:
    """Play every table of distinct bots and rate them (Bradley-Terry, Elo scale, 95% intervals).

    With 2 players every pair of bots plays --games games, each bot first in half of them;
    with more, every table of that many distinct bots does, seats rotated. A game counts as
    a win of each winner over each other player at its table.
    """
    console = new_console()
    names = bots if bots is not None else available_bots()
    tables = math.comb(len(names), players) if len(names) >= players else 0
    with _progress_bar(tables * games) as progress:
        try:
            outcome = run_tournament(
                variant,
                players,
                bots=names,
                games=games,
                seed=seed,
                options=parse_options(option_pairs),
                jobs=jobs,
                max_moves=max_moves,
                progress=progress,
            )
        except SimulationError as error:
            fail(str(error.failure))
        except SimulationInterrupted:
            fail("stopped: a tournament's ratings need every table", stop_code())
    if markdown_path is not None:
        Path(markdown_path).write_text(outcome.markdown(), encoding="utf-8")
    if as_json:
        click.echo(json.dumps(outcome.to_dict(), indent=2))
        return
    _print_leaderboard(console, outcome)
    if markdown_path is not None:
        console.print(f"leaderboard written to {markdown_path}")


def _print_leaderboard(console: Console, outcome: TournamentResult) -> None:
    """The ratings, best first, and each table's win rates."""
    title = (
        f"{outcome.variant}, {outcome.players} players, {outcome.games} games per table, "
        f"seed {outcome.seed}"
    )
    board = Table(title=title)
    for column in ("rank", "bot", "rating", "95% interval", "games", "won", "mean worms"):
        board.add_column(column, justify="left" if column == "bot" else "right")
    for rank, rating in enumerate(outcome.ratings, 1):
        board.add_row(
            str(rank),
            rating.bot,
            f"{rating.elo:+.0f}",
            f"{rating.low:+.0f} to {rating.high:+.0f}",
            f"{outcome.games_of(rating.bot):,}",
            f"{outcome.win_rate(rating.bot):.1%}",
            f"{outcome.mean_score(rating.bot):.2f}",
        )
    console.print(board)
    console.print("ratings: Bradley-Terry on the Elo scale, the field's mean at 0")
    if outcome.skipped:
        console.print(f"skipped (they do not play this game): {', '.join(outcome.skipped)}")
    if outcome.players == 2:
        console.print(_head_to_head(outcome))


def _head_to_head(outcome: TournamentResult) -> Table:
    grid = Table(title="head to head: row's share of wins against column")
    grid.add_column("")
    for name in outcome.bots:
        grid.add_column(name, justify="right")
    for i, name in enumerate(outcome.bots):
        cells = []
        for j in range(len(outcome.bots)):
            played = outcome.wins[i][j] + outcome.wins[j][i]
            cells.append(
                "" if i == j or not played else f"{float(outcome.wins[i][j] / played):.1%}"
            )
        grid.add_row(name, *cells)
    return grid
