"""The ``pickomino`` command line: play, simulate, replay, list variants.

Built with click (commands, options, help) and rich (colours, tables, progress).
Every error a user can cause ends in one ``error: ...`` line on stderr and a
non-zero exit code, never a traceback: 1 for a failure (a bad file, an illegal record, a
failed save, a failed game in a simulation), 2 for a usage error, 130 when stopped by Ctrl-C
or the end of input, 143 when stopped by SIGTERM.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import signal
import sys
import threading
import time
from pathlib import PurePath
from typing import TYPE_CHECKING, NoReturn

from pickomino_rules.bots import InvalidBotError, UnknownBotError, get_bot
from pickomino_rules.errors import MissingExtraError, PickominoError
from pickomino_rules.game import Bot, Move, parse_move, playout
from pickomino_rules.records import GameRecord, check_save_target, load_record, save_record
from pickomino_rules.registry import available_variants, get_variant
from pickomino_rules.result import result
from pickomino_rules.simulation import (
    ENGINES,
    EXPORT_FORMATS,
    SEATINGS,
    GameExport,
    SimulationError,
    SimulationInterrupted,
    SimulationResult,
)
from pickomino_rules.simulation import simulate as run_simulation
from pickomino_rules.state import Phase
from pickomino_rules.story import counted, group_turns, turns

try:
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

    from pickomino_rules.terminal import Keyboard, QuitGame, dice_text, render_table
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the pickomino command", "cli") from None

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from concurrent.futures import Executor

    from pickomino_rules.analysis import GameAnalysis
    from pickomino_rules.plugin import Option
    from pickomino_rules.rules import Rules
    from pickomino_rules.simulation import Engine, Seating
    from pickomino_rules.state import GameState

__all__ = ["cli", "main", "render_table"]

EXIT_FAILURE = 1
"""Exit code of a failure: a bad or unreadable file, an illegal record, a failed save."""
EXIT_USAGE = 2
"""Exit code of a usage error: unknown command or option, a bad value."""
EXIT_STOPPED = 130
"""Exit code of a game or run stopped by Ctrl-C or by the end of input (128 + SIGINT)."""
EXIT_TERMINATED = 143
"""Exit code of a command stopped by SIGTERM (128 + SIGTERM)."""


def _options(pairs: Sequence[str]) -> dict[str, object]:
    """``NAME=VALUE`` pairs; values read as JSON where they can be (true, 3, [1, 2])."""
    options: dict[str, object] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            msg = f"option {pair!r} is not NAME=VALUE"
            raise click.BadParameter(msg, param_hint="--option")
        try:
            options[name.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            options[name.strip()] = raw
    return options


def _bot_names(_ctx: click.Context, _param: click.Parameter, value: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in value.split(",") if name.strip())
    for name in names:
        try:
            get_bot(name)
        except (UnknownBotError, InvalidBotError) as error:
            raise click.BadParameter(str(error)) from None
    if not names:
        msg = "name at least one bot"
        raise click.BadParameter(msg)
    return names


def _variant_name(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    if value not in available_variants():
        msg = f"unknown variant {value!r} (known: {', '.join(available_variants())})"
        raise click.BadParameter(msg)
    return value


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


VARIANT = click.option(
    "--variant",
    default="classic",
    show_default=True,
    callback=_variant_name,
    help="Rule set: classic, extended (specialists), extrawurm, or a plug-in's.",
)
PLAYERS = click.option("--players", default=2, show_default=True, help="Number of players (2-7).")
SEED = click.option(
    "--seed", default=0, show_default=True, help="Seed: the same seed, the same game."
)
OPTION = click.option(
    "--option",
    "-o",
    "option_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="A rule option, e.g. -o short_game=true (repeatable; see 'pickomino variants').",
)


def _console() -> Console:
    """Standard output: lines wrap on a terminal only (a file or a pipe gets whole lines)."""
    console = Console(highlight=False)
    console.soft_wrap = not console.is_terminal
    return console


def _fail(message: str, code: int = EXIT_FAILURE) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


_HELP = """Pickomino (Heckmeck am Bratwurmeck) in the terminal: play, simulate, replay.

\b
Examples:
  pickomino play --players 3                  you (player 0) against two greedy bots
  pickomino play --watch --seed 7             bots only, turn by turn
  pickomino simulate --bots greedy,random --games 1000 --jobs 2
  pickomino replay game.json
  pickomino analyse game.json                 the cost of every move, by the turn solver
  pickomino variants                          variants and their options
"""
# "\b" (a backspace character) keeps click from re-wrapping the examples into one paragraph.


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, help=_HELP)
@click.version_option(package_name="pickomino_rules", prog_name="pickomino")
def cli() -> None:
    """The ``pickomino`` command group: play, simulate, replay, analyse and variants."""


@cli.command()
@VARIANT
@PLAYERS
@click.option(
    "--bots",
    default="greedy",
    show_default=True,
    callback=_bot_names,
    help="Bots for the other seats, comma-separated, cycled: random, greedy, optimal, "
    "an installed bot's name, or module:function.",
)
@click.option(
    "--seed",
    type=int,
    help="Seed: the same seed and the same moves, the same game. A fresh one by default, "
    "printed at the start.",
)
@click.option("--seat", default=0, show_default=True, help="Your seat (player index).")
@click.option(
    "--names",
    "names_text",
    metavar="NAMES",
    help="The players' names by seat, comma-separated (default: you, and the bots as "
    "greedy #1, ...).",
)
@click.option("--watch", is_flag=True, help="Bots only: watch a game turn by turn.")
@click.option(
    "--analyse",
    "analyse_after",
    is_flag=True,
    help="After the game, value every decision with the turn solver (see 'pickomino analyse').",
)
@click.option(
    "--delay",
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help="Pause after each bot's turn (default: 0.8 on a terminal, none otherwise).",
)
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Save the game record (JSON) here at the end, or when you quit or stop.",
)
@OPTION
def play(  # noqa: PLR0913, PLR0917 (click passes one argument per option)
    variant: str,
    players: int,
    bots: tuple[str, ...],
    seed: int | None,
    seat: int,
    names_text: str | None,
    watch: bool,
    analyse_after: bool,
    delay: float | None,
    save_path: str | None,
    option_pairs: tuple[str, ...],
) -> None:
    """Play a game against bots (or watch bots play with --watch).

    On your turn the table and the legal moves are shown, each with what it would do.
    Type a number or a move ('take w', 'roll', 'stop', 'steal 1'); 'help', 'hint' and
    'quit' work too. The dice are rolled for you.
    """
    if save_path:
        check_save_target(save_path)  # before the game, not after it
    human = None if watch else seat
    if human is not None and not 0 <= human < players:
        _fail(f"--seat must be 0 to {players - 1}", EXIT_USAGE)
    seats = [bots[i % len(bots)] for i in range(players)]
    names = _player_names(names_text, seats, human)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    record = GameRecord.start(variant, players, _options(option_pairs), 0, seed)
    console = _console()
    pause = delay if delay is not None else (0.8 if console.is_terminal else 0.0)
    console.print(
        f"[bold]{variant}[/], {players} players, seed {seed} "
        f"[dim](the same seed replays the game: --seed {seed})[/]"
    )
    players_bots: list[Bot] = [
        Keyboard(console, names) if p == human else get_bot(seats[p]) for p in range(players)
    ]
    played = _run_game(console, record, players_bots, names, human, pause, save_path)
    if analyse_after and played is not None:
        from pickomino_rules.analysis import analyse_record  # noqa: PLC0415 (numpy)

        _print_analysis(console, analyse_record(played), names)


def _run_game(  # noqa: PLR0913, PLR0917 (one game's set-up)
    console: Console,
    record: GameRecord,
    bots: list[Bot],
    names: Sequence[str],
    human: int | None,
    pause: float,
    save_path: str | None,
) -> GameRecord | None:
    """Play the game turn by turn, then show the end; save where asked, also on a stop.

    Returns:
        The finished game's record, or None when the player quit.
    """
    rules, state = record.initial()
    moves: list[Move] = []

    def recorded() -> Iterator[tuple[Move, GameState]]:
        for move, after in playout(rules, state, bots, random.Random(record.seed)):
            moves.append(move)
            yield move, after

    try:
        for turn in group_turns(state, recorded()):
            console.print(turn.describe(names=names.__getitem__, rules=rules), markup=False)
            state = turn.after
            if turn.player != human and pause and state.phase is not Phase.GAME_OVER:
                time.sleep(pause)
    except QuitGame:
        _leave(console, record.extended(moves), save_path)
        return None
    except (KeyboardInterrupt, click.Abort):
        # an unfinished record is a valid record: keep what was played
        if save_path:
            save_record(record.extended(moves), save_path)
            _fail(f"game interrupted; the unfinished record is saved to {save_path}", _stop_code())
        _fail("game interrupted", _stop_code())
    console.print(render_table(rules, state, names))
    _print_result(console, rules, state, names)
    if save_path:
        save_record(record.extended(moves), save_path)
        console.print(f"record saved to {save_path}")
    return record.extended(moves)


def _player_names(text: str | None, seats: Sequence[str], human: int | None) -> list[str]:
    """The names given with --names, checked; else "you" and the bots by seat."""
    if text is None:
        return ["you" if p == human else f"{bot} #{p}" for p, bot in enumerate(seats)]
    names = [name.strip() for name in text.split(",")]
    if len(names) != len(seats) or not all(names) or len(set(names)) != len(names):
        msg = f"give {len(seats)} different names, comma-separated, one per seat"
        raise click.BadParameter(msg, param_hint="--names")
    return names


def _leave(console: Console, record: GameRecord, save_path: str | None) -> None:
    """The player quit: save the unfinished game where asked, or offer to."""
    if save_path is None:
        try:
            answer = click.prompt(
                "save the game first? a file name, or Enter for no",
                default="",
                show_default=False,
            )
        except (click.Abort, RuntimeError):  # the input ended: nothing to save to
            answer = ""
        save_path = str(answer).strip() or None
    if save_path:
        save_record(record, save_path)
        console.print(f"game left; the unfinished record is saved to {save_path}")
    else:
        console.print("game left")


def _print_result(console: Console, rules: Rules, state: GameState, names: Sequence[str]) -> None:
    outcome = result(rules, state)
    ranking = ", ".join(
        f"{names[p]}: {counted(outcome.scores[p], 'worm')}" for p in outcome.ranking
    )
    winners = " and ".join(names[p] for p in outcome.winners)
    console.print(f"[bold]result:[/] {ranking}; winner: [bold green]{winners}[/]")


@cli.command()
@VARIANT
@PLAYERS
@click.option(
    "--bots",
    default="greedy,random",
    show_default=True,
    callback=_bot_names,
    help="The line-up: bots comma-separated, cycled over the seats (random, greedy, "
    "optimal, an installed bot's name, or module:function).",
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
    help="The reference engine, one game at a time, or the batch engine: classic games in "
    "lockstep with numpy, many times faster, for bots with a vectorised form (random, "
    "greedy). Needs the batch extra.",
)
@click.option("--keep-going", is_flag=True, help="Play on past failed games, count and list them.")
@click.option(
    "--move-time-limit",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Fail a game whose bot takes longer than this for one move.",
)
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
    option_pairs: tuple[str, ...],
) -> None:
    """Play many seeded games between bots and print win rates and scores.

    Ctrl-C (or SIGTERM) stops the run at once, stops the workers and reports the games
    finished so far; an export keeps them too.
    """
    console = _console()
    if engine == "batch":
        _check_batch_engine(variant, bots, option_pairs)
    settings = {
        "variant": variant,
        "players": players,
        "bots": bots,
        "games": games,
        "seed": seed,
        "options": _options(option_pairs),
        "seating": seating,
        "keep_going": keep_going,
        "move_time_limit": move_time_limit,
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
            executor, workers = stack.enter_context(_dask_executor(scheduler, jobs))
            settings |= {"executor": executor, "max_pending": 4 * workers}
        else:
            settings["jobs"] = jobs
        progress = stack.enter_context(_progress_bar(games))
        try:
            outcome = run_simulation(**settings, progress=progress, on_game=export)  # type: ignore[arg-type]
        except SimulationError as error:
            stack.close()
            _report(console, error.result, plot_path)
            _fail(str(error.failure))
        except SimulationInterrupted as stop:
            stack.close()
            _report(console, stop.result, plot_path)
            _fail(f"stopped after {stop.result.games} of {games} games", _stop_code())
    _report(console, outcome, plot_path)
    if outcome.failures:
        _fail(f"{len(outcome.failures)} of {games} games failed")


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
_terminated = False
"""Set when SIGTERM stopped the command: it then exits with EXIT_TERMINATED."""


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM stops a command as Ctrl-C does (a game saved, a run's workers stopped)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers belong to the main thread (CliRunner may call from others)
        return

    def stop(_signal: int, _frame: object) -> None:
        global _terminated  # noqa: PLW0603 (the handler's one flag)
        _terminated = True
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _stop_code() -> int:
    return EXIT_TERMINATED if _terminated else EXIT_STOPPED


def _check_batch_engine(variant: str, bots: Sequence[str], option_pairs: tuple[str, ...]) -> None:
    """``--engine batch`` plays classic with bots that have a vectorised form: a usage error."""
    try:
        from pickomino_rules.batch import BatchRulesError, batch_rules  # noqa: PLC0415 (an extra)
        from pickomino_rules.batch_bots import UnknownVectorBotError, get_vector_bot  # noqa: PLC0415
    except MissingExtraError as error:
        raise click.UsageError(str(error)) from None
    try:
        batch_rules(variant, _options(option_pairs))
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


@contextlib.contextmanager
def _dask_executor(address: str, jobs: int) -> Iterator[tuple[Executor, int]]:
    """An executor on a Dask cluster, and its number of worker threads."""
    try:
        from distributed import Client, LocalCluster  # noqa: PLC0415 (an extra)
    except ImportError:
        msg = "--scheduler needs Dask: pip install 'pickomino_rules[dask]'"
        raise click.UsageError(msg) from None
    with contextlib.ExitStack() as stack:
        if address == "local":
            # Workers inherit an ignored SIGINT: Ctrl-C in the terminal reaches the whole
            # process group, and this process alone should handle it (stopping the run).
            main = threading.current_thread() is threading.main_thread()
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
            try:
                cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=jobs,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,  # shutdown races log tracebacks
                )
            finally:
                if main:
                    signal.signal(signal.SIGINT, previous)
            stack.enter_context(cluster)
            client = stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]
        else:
            client = stack.enter_context(Client(address, timeout="10s"))  # type: ignore[no-untyped-call]
        yield client.get_executor(pure=False), max(1, sum(client.nthreads().values()))


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--pause", is_flag=True, help="Wait for Enter after each turn.")
@click.option("--tables", is_flag=True, help="Draw the table after each turn.")
def replay(path: str, pause: bool, tables: bool) -> None:
    """Step through a saved game record, turn by turn."""
    record = load_record(path)
    rules, state = record.initial()
    console = _console()
    setup = f"{record.players} players, seed {record.seed}, {len(record.moves)} moves"
    console.print(f"[bold]{record.variant}[/], {setup}")
    moves = [parse_move(rules, text) for text in record.moves]
    final = state
    for number, turn in enumerate(turns(rules, state, moves), start=1):
        console.print(f"turn {number:3}  {turn.describe(rules=rules)}", markup=False)
        final = turn.after
        if tables:
            console.print(render_table(rules, turn.after))
        if pause:
            click.prompt("", default="", show_default=False, prompt_suffix="")
    names = [f"player {p}" for p in range(record.players)]
    console.print(render_table(rules, final, names))
    if final.phase is Phase.GAME_OVER:
        _print_result(console, rules, final, names)
    else:
        console.print("the record ends before the game does")


@cli.command()
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
    console = _console()
    names = [f"player {p}" for p in range(record.players)]
    _print_analysis(console, analysis, names, show_all=show_all)


def _print_analysis(
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
            f"roll {dice_text(state.roll)}" if state.roll else f"{sum(state.in_hand)} dice left"
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


@cli.command("variants")
def list_variants() -> None:
    """List the registered variants and their options (options they share, once)."""
    console = _console()
    variants = [(name, get_variant(name)) for name in available_variants()]
    shared = (
        [
            option
            for option in variants[0][1].options
            if all(option in variant.options for _, variant in variants)
        ]
        if len(variants) > 1
        else []
    )
    if shared:
        console.print("[bold]options of every variant[/]")
        for option in shared:
            _print_option(console, option)
    for name, variant in variants:
        console.print(f"[bold]{name}[/]: {variant.doc.strip().splitlines()[0]}")
        own = [option for option in variant.options if option not in shared]
        for option in own:
            _print_option(console, option)
        if shared and not own:
            console.print("  (the options of every variant)", style="dim")


def _print_option(console: Console, option: Option) -> None:
    console.print(f"  -o {option.name}={json.dumps(option.default)}  ({option.rule}) {option.doc}")


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point: run the CLI; turn errors into one line."""
    global _terminated  # noqa: PLW0603 (reset for each call)
    _terminated = False
    try:
        with _terminate_as_interrupt():
            code = cli.main(
                args=list(argv) if argv is not None else None,
                prog_name="pickomino",
                standalone_mode=False,
            )
    except (click.exceptions.Abort, KeyboardInterrupt):
        _fail("stopped", _stop_code())
    except click.UsageError as error:
        _fail(error.format_message(), EXIT_USAGE)
    except click.ClickException as error:
        _fail(error.format_message(), error.exit_code)
    except (PickominoError, ValueError, OSError) as error:
        _fail(str(error))
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
