"""`pickomino simulate`: many seeded games between bots, their results and a chart."""

from __future__ import annotations

import contextlib
from pathlib import PurePath
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

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
from pickomino_rules.errors import MissingExtraError
from pickomino_rules.simulation import (
    ENGINES,
    EXPORT_FORMATS,
    SEATINGS,
    GameExport,
    SimulationError,
    SimulationInterrupted,
    SimulationResult,
    dask_executor,
)
from pickomino_rules.simulation import simulate as run_simulation

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from pickomino_rules.simulation import Engine, Seating


def _export_path(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is not None and PurePath(value).suffix.lower() not in EXPORT_FORMATS:
        msg = f"{value!r} is not a {' or '.join(EXPORT_FORMATS)} file"
        raise click.BadParameter(msg)
    return value


def _plot_path(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        from pickomino_rules.plot import PlotError, check_plot_path  # noqa: PLC0415 (an extra)

        try:
            check_plot_path(value)
        except PlotError as error:
            raise click.BadParameter(str(error)) from None
    return value


@click.command()
@VARIANT
@PLAYERS
@click.option(
    "--bots",
    default="greedy,random",
    show_default=True,
    callback=bot_names,
    help="The line-up: bots comma-separated, cycled over the seats (random, greedy, "
    "optimal, margin, champion, an installed bot's name, or module:function).",
)
@click.option(
    "--games", default=200, show_default=True, type=click.IntRange(min=1), help="Number of games."
)
@SEED
@click.option(
    "--seating",
    type=click.Choice(SEATINGS),
    default="rotate",
    show_default=True,
    help="Seats per game: the line-up rotated one seat per game, shuffled, or fixed.",
)
@click.option(
    "--jobs",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Worker processes (results do not depend on it); Dask workers with --scheduler local.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Play on a Dask cluster: its scheduler's address (tcp://host:8786), or 'local' "
    "for a cluster of --jobs workers on this machine. Needs the dask extra.",
)
@click.option(
    "--export",
    "export_path",
    type=click.Path(dir_okay=False),
    callback=_export_path,
    help="Write one row per game (seed, seats, worms, winners, length) to a .csv or .jsonl file.",
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    callback=_plot_path,
    help="Draw win rates (95% intervals) and score distributions to a .png, .svg or .pdf "
    "file. Needs the plot extra.",
)
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default="reference",
    show_default=True,
    help="The reference engine, one game at a time, or the batch engine: games of any "
    "built-in variant in lockstep with numpy, many times faster, for bots with a vectorised "
    "form (random, greedy). Needs the batch extra.",
)
@click.option("--keep-going", is_flag=True, help="Play on past failed games, count and list them.")
@click.option(
    "--move-time-limit",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Fail a game whose bot takes longer than this for one move.",
)
@MAX_MOVES
@OPTION
def simulate(  # noqa: PLR0913, PLR0917 (click passes one argument per option)
    variant: str,
    players: int,
    bots: tuple[str, ...],
    games: int,
    seed: int,
    seating: Seating,
    jobs: int,
    scheduler: str | None,
    export_path: str | None,
    plot_path: str | None,
    engine: Engine,
    keep_going: bool,
    move_time_limit: float | None,
    max_moves: int,
    option_pairs: tuple[str, ...],
) -> None:
    """Play many seeded games between bots and print win rates and scores.

    Ctrl-C (or SIGTERM) stops the run at once, stops the workers and reports the games
    finished so far; an export keeps them too.
    """
    console = new_console()
    if engine == "batch":
        _check_batch_engine(variant, bots, option_pairs)
    settings = {
        "variant": variant,
        "players": players,
        "bots": bots,
        "games": games,
        "seed": seed,
        "options": parse_options(option_pairs),
        "seating": seating,
        "keep_going": keep_going,
        "move_time_limit": move_time_limit,
        "max_moves": max_moves,
        "engine": engine,
        # about 100 tasks or more, so that the progress bar moves in small steps (the batch
        # engine needs large chunks to be fast: about 20 steps)
        "chunk_size": (
            max(1, min(20_000, games // 20)) if engine == "batch" else max(1, min(25, games // 100))
        ),
    }
    with contextlib.ExitStack() as stack:
        export = stack.enter_context(GameExport(export_path, players)) if export_path else None
        if scheduler is not None:
            try:
                executor, workers = stack.enter_context(dask_executor(scheduler, jobs))
            except MissingExtraError as error:
                msg = f"--scheduler: {error}"
                raise click.UsageError(msg) from None
            settings |= {"executor": executor, "max_pending": 4 * workers}
        else:
            settings["jobs"] = jobs
        progress = stack.enter_context(_progress_bar(games))
        try:
            outcome = run_simulation(**settings, progress=progress, on_game=export)  # type: ignore[arg-type]
        except SimulationError as error:
            stack.close()
            _report(console, error.result, plot_path)
            fail(str(error.failure))
        except SimulationInterrupted as stop:
            stack.close()
            _report(console, stop.result, plot_path)
            fail(f"stopped after {stop.result.games} of {games} games", stop_code())
    _report(console, outcome, plot_path)
    if outcome.failures:
        fail(f"{len(outcome.failures)} of {games} games failed")


def _report(console: Console, outcome: SimulationResult, plot_path: str | None) -> None:
    """The results on the terminal, and as a chart when asked (partial results too)."""
    _print_simulation(console, outcome)
    if plot_path and outcome.games:
        from pickomino_rules.plot import save_plot  # noqa: PLC0415 (an extra, checked up front)

        console.print(f"chart saved to {save_plot(outcome, plot_path)}")


def _print_simulation(console: Console, outcome: SimulationResult) -> None:
    """The line-up's results, the seats' win rates, the failures."""
    title = f"{outcome.variant}, {outcome.players} players, seed {outcome.seed}, "
    title += (
        f"{outcome.games} games"
        if outcome.complete
        else f"{outcome.games} of {outcome.requested} games"
    )
    table = Table(title=title)
    for column in ("bot", "wins", "draws", "win rate", "95% interval", "mean worms"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for entry, name in enumerate(outcome.bots):
        low, high = outcome.win_interval(entry)
        table.add_row(
            name,
            f"{float(outcome.wins[entry]):g}",
            str(outcome.draws[entry]),
            f"{outcome.win_rate(entry):.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{outcome.mean_score(entry):.2f}",
        )
    console.print(table)
    seats = ", ".join(
        f"{seat} {outcome.seat_win_rate(seat):.1%}" for seat in range(outcome.players)
    )
    console.print(f"seating: {outcome.seating}; win rate by seat: {seats}")
    console.print(
        f"mean game length: {outcome.mean_turns:.1f} turns, {outcome.mean_moves:.0f} moves"
    )
    for failure in outcome.failures[:_SHOWN_FAILURES]:
        console.print(f"failed: {failure}", soft_wrap=True, markup=False)
    if len(outcome.failures) > _SHOWN_FAILURES:
        console.print(f"... and {len(outcome.failures) - _SHOWN_FAILURES} more failed games")


_SHOWN_FAILURES = 10


def _check_batch_engine(variant: str, bots: Sequence[str], option_pairs: tuple[str, ...]) -> None:
    """``--engine batch`` needs rules with batch twins and bots with a vectorised form."""
    try:
        from pickomino_rules.batch import BatchRulesError, batch_rules  # noqa: PLC0415 (an extra)
        from pickomino_rules.batch_bots import UnknownVectorBotError, get_vector_bot  # noqa: PLC0415
    except MissingExtraError as error:
        raise click.UsageError(str(error)) from None
    try:
        batch_rules(variant, parse_options(option_pairs))
        for name in bots:
            get_vector_bot(name)
    except (BatchRulesError, UnknownVectorBotError) as error:
        msg = f"--engine batch: {error}"
        raise click.UsageError(msg) from None


@contextlib.contextmanager
def _progress_bar(games: int) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr with the rate and the time left (none when not a terminal)."""
    console = Console(stderr=True)
    if not console.is_terminal:
        yield lambda _done: None
        return
    bar = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with bar:
        task = bar.add_task("games", total=games, rate="")

        def advance(done: int) -> None:
            bar.advance(task, done)
            speed = bar.tasks[task].speed
            bar.update(task, rate=f"{speed:,.0f} games/s" if speed else "")

        yield advance
