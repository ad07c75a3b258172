"""One run: checks the set-up, hands out chunks, counts outcomes in game order, contains faults."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections import deque
from concurrent.futures import (
    FIRST_COMPLETED,
    BrokenExecutor,
    wait,
)
from typing import TYPE_CHECKING, Self

from pickomino_rules._processes import ProcessPool, check_jobs
from pickomino_rules.bots import check_bot_supports
from pickomino_rules.errors import InvalidSetupError, brief
from pickomino_rules.game import MAX_GAME_MOVES, new_game
from pickomino_rules.registry import get_variant
from pickomino_rules.simulation._results import (
    GameFailure,
    GameSummary,
    SimulationError,
    SimulationInterrupted,
    SimulationResult,
    Totals,
)
from pickomino_rules.simulation._workers import (
    ENGINES,
    SEATINGS,
    Chunk,
    Engine,
    Outcome,
    Seating,
    Setup,
    game_seats,
    play_batch,
    play_chunk,
    play_game,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence
    from concurrent.futures import Executor, Future
    from types import FrameType


POLL = 0.1
"""Seconds at most between two checks for Ctrl-C while the games are played elsewhere."""


class _Deferred:
    """Holds back Ctrl-C (and SIGTERM, if handled) while a game is counted or work handed out.

    An interrupt between counting a game and exporting it would make the report and the
    export disagree, one inside an executor's code could leave it stuck; a signal that
    arrives inside ``section()`` is handled by the handler it would have reached, as soon
    as the section ends. Off the main thread, where signals are not handled, it does
    nothing.
    """

    def __init__(self) -> None:
        self.busy = False
        self.waiting: list[tuple[int, FrameType | None]] = []
        self.previous: dict[int, Callable[[int, FrameType | None], object]] = {}

    def __enter__(self) -> Self:
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM):
                handler = signal.getsignal(number)
                if callable(handler):
                    self.previous[number] = handler
                    signal.signal(number, self._handle)
        return self

    def __exit__(self, *_exc: object) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)

    def _handle(self, number: int, frame: FrameType | None) -> None:
        if self.busy:
            self.waiting.append((number, frame))
        else:
            self.previous[number](number, frame)

    @contextlib.contextmanager
    def section(self) -> Iterator[None]:
        """A block that signals do not cut short."""
        self.busy = True
        try:
            yield
        finally:
            self.busy = False
            while self.waiting:
                number, frame = self.waiting.pop(0)
                self.previous[number](number, frame)


class _Stop(Exception):  # noqa: N818 (a signal inside the run, never seen outside)
    """Ends a run early with a failure."""

    def __init__(self, failure: GameFailure) -> None:
        super().__init__(str(failure))
        self.failure = failure


class _Run:
    """One simulation: hands out chunks, collects outcomes in game order, contains faults."""

    def __init__(
        self,
        setup: Setup,
        games: int,
        *,
        keep_going: bool,
        progress: Callable[[int], None] | None,
        on_game: Callable[[GameSummary], None] | None,
    ) -> None:
        self.setup = setup
        self.games = games
        self.keep_going = keep_going
        self.progress = progress
        self.on_game = on_game
        self.totals = Totals(setup)
        self.shield = _Deferred()

    def deliver(self, outcome: Outcome) -> None:
        """Count one game, in game order (call it inside ``shield.section()``)."""
        if isinstance(outcome, GameFailure):
            self.totals.failures.append(outcome)
            if not self.keep_going:
                raise _Stop(outcome)
            return
        self.totals.add(outcome)
        if self.on_game is not None:
            self.on_game(outcome)

    def in_process(self, chunk_size: int) -> None:
        """Play every game here: one at a time, or chunk by chunk on the batch engine."""
        if self.setup.engine == "batch":
            for start in range(0, self.games, chunk_size):
                stop = min(start + chunk_size, self.games)
                outcomes = play_batch(Chunk(self.setup, start, stop))
                with self.shield.section():
                    for outcome in outcomes:
                        self.deliver(outcome)
                if self.progress is not None:
                    self.progress(stop - start)
            return
        rules, bots = self.setup.table()
        for index in range(self.games):
            outcome = play_game(self.setup, rules, bots, index)
            with self.shield.section():
                self.deliver(outcome)
            if self.progress is not None:
                self.progress(1)

    def on_executor(
        self,
        executor: Executor,
        chunk_size: int,
        max_pending: int,
        restart: Callable[[], Executor] | None,
    ) -> None:
        """Play the games on ``executor``, at most ``max_pending`` chunks out at a time.

        A chunk that fails as a whole (a lost worker) is replayed one game per task,
        alone on the executor, so that a game that fails again is the culprit.
        ``restart`` replaces a broken executor; without it a broken executor ends the run.
        """
        self.executor = executor
        self.restart = restart
        self.starts = iter(range(0, self.games, chunk_size))
        self.chunk_size = chunk_size
        self.suspects: deque[int] = deque()
        self.alone: Chunk | None = None  # a suspect game, running with nothing else
        self.pending: dict[Future[list[Outcome]], Chunk] = {}
        self.ready: dict[int, tuple[int, list[Outcome]]] = {}  # finished, by first game
        self.counted = 0  # games before this one are delivered
        try:
            while True:
                # The executor's own code must not be cut short: Ctrl-C inside wait() can
                # leave a future's lock held (the pool's manager thread, and the
                # interpreter's exit after it, then wait for ever), inside submit() a
                # started worker unrecorded. So signals wait for the end of each step,
                # and a step lasts at most POLL seconds.
                with self.shield.section():
                    if not self._hand_out(max_pending):
                        break
                    finished, _ = wait(self.pending, timeout=POLL, return_when=FIRST_COMPLETED)
                    for future in finished:
                        self._collect(future)
                    while self.counted in self.ready:
                        self.counted, outcomes = self.ready.pop(self.counted)
                        for outcome in outcomes:
                            self.deliver(outcome)
        finally:
            with self.shield.section():
                for future in self.pending:
                    future.cancel()
                # what finished out of order still counts when the run stops early
                for start in sorted(self.ready):
                    for outcome in self.ready.pop(start)[1]:
                        if isinstance(outcome, GameSummary):
                            self.deliver(outcome)

    def _hand_out(self, max_pending: int) -> bool:
        """Submit what may go out now; whether anything is out."""
        if self.suspects:
            if not self.pending:  # alone, so that a lost worker names its game
                index = self.suspects.popleft()
                self.alone = Chunk(self.setup, index, index + 1)
                self._submit(self.alone)
        else:
            while len(self.pending) + len(self.ready) < max_pending:
                start = next(self.starts, None)
                if start is None:
                    break
                stop = min(start + self.chunk_size, self.games)
                self._submit(Chunk(self.setup, start, stop))
        return bool(self.pending)

    def _submit(self, chunk: Chunk) -> None:
        try:
            self.pending[self.executor.submit(play_chunk, chunk)] = chunk
        except BrokenExecutor as error:
            if self.restart is None:
                raise _Stop(self._lost(chunk.start, error, broken=True)) from None
            self.executor = self.restart()
            self.pending[self.executor.submit(play_chunk, chunk)] = chunk

    def _collect(self, future: Future[list[Outcome]]) -> None:
        chunk = self.pending.pop(future)
        try:
            outcomes = future.result()
        except Exception as error:  # noqa: BLE001 (the worker or the executor failed)
            if chunk is not self.alone:
                self.suspects.extend(range(chunk.start, chunk.stop))
                return
            outcomes = [self._lost(chunk.start, error)]
        self.ready[chunk.start] = (chunk.stop, outcomes)
        if self.progress is not None:
            self.progress(chunk.stop - chunk.start)

    def _lost(self, index: int, error: BaseException, *, broken: bool = False) -> GameFailure:
        order = game_seats(self.setup.seating, self.setup.seed, index, self.setup.players)
        seats = tuple(self.setup.lineup[entry] for entry in order)
        text = f"{type(error).__name__}: {error}".rstrip(": ")
        if broken:
            text += " (the executor is broken and cannot play on)"
        return GameFailure(index, f"{self.setup.seed}:{index}", seats, None, None, text)


def _setup(  # noqa: PLR0913, PLR0917 (the set-up's parts)
    variant: str,
    players: int,
    bots: Sequence[str],
    seed: int,
    options: Mapping[str, object] | None,
    seating: Seating,
    move_time_limit: float | None,
    engine: Engine = "reference",
    max_moves: int | None = MAX_GAME_MOVES,
) -> Setup:
    """Check a run's set-up once, before any game."""
    if engine not in ENGINES:
        msg = f"unknown engine {brief(engine)} (known: {', '.join(ENGINES)})"
        raise InvalidSetupError(msg)
    if seating not in SEATINGS:
        msg = f"unknown seating {brief(seating)} (known: {', '.join(SEATINGS)})"
        raise InvalidSetupError(msg)
    if move_time_limit is not None and not (
        isinstance(move_time_limit, int | float)
        and not isinstance(move_time_limit, bool)
        and move_time_limit > 0
    ):
        msg = f"move_time_limit must be a positive number of seconds, got {brief(move_time_limit)}"
        raise InvalidSetupError(msg)
    if max_moves is not None and (
        isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1
    ):
        msg = f"max_moves must be a whole number of at least 1 or None, got {brief(max_moves)}"
        raise InvalidSetupError(msg)
    if isinstance(bots, str) or not bots:
        msg = "name at least one bot (a sequence of names)"
        raise InvalidSetupError(msg)
    lineup = tuple(bots[entry % len(bots)] for entry in range(players))
    resolved = get_variant(variant).resolve_options(options)
    rules, _ = new_game(variant, players=players, options=resolved)  # checks the players
    if len(bots) > players:  # cycled over the seats, the extra ones would never play
        msg = f"{len(bots)} bots named for {players} seats: name at most {players}"
        raise InvalidSetupError(msg)
    for name in dict.fromkeys(lineup):
        check_bot_supports(name, rules, players)
    if engine == "batch":
        _check_batch(variant, resolved, lineup, move_time_limit)
    return Setup(
        variant, resolved, players, lineup, seating, seed, move_time_limit, engine, max_moves
    )


def _check_batch(
    variant: str, options: Mapping[str, object], lineup: Sequence[str], limit: float | None
) -> None:
    """The batch engine plays these rules and every bot has a vectorised form."""
    from pickomino_rules.batch import batch_rules  # noqa: PLC0415 (the batch extra)
    from pickomino_rules.batch_bots import get_vector_bot  # noqa: PLC0415

    batch_rules(variant, options)
    for name in dict.fromkeys(lineup):
        get_vector_bot(name)
    if limit is not None:
        msg = "move_time_limit is for the reference engine: the batch moves all games at once"
        raise InvalidSetupError(msg)


def simulate(  # noqa: PLR0913 (a simulation's set-up)
    variant: str = "classic",
    players: int = 2,
    *,
    bots: Sequence[str] = ("greedy",),
    games: int = 100,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    seating: Seating = "rotate",
    jobs: int = 1,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    engine: Engine = "reference",
    max_pending: int | None = None,
    keep_going: bool = False,
    move_time_limit: float | None = None,
    max_moves: int | None = MAX_GAME_MOVES,
    progress: Callable[[int], None] | None = None,
    on_game: Callable[[GameSummary], None] | None = None,
) -> SimulationResult:
    """Play ``games`` seeded games between bots and total the results.

    Args:
        variant: Registered variant name.
        players: Players per game.
        bots: Registered bot names: the line-up, cycled over the seats (at most one per
            seat).
        games: Number of games.
        seed: Master seed; game ``i`` uses ``random.Random(f"{seed}:{i}")``.
        options: The variant's options.
        seating: ``"rotate"`` (each game moves the line-up one seat on), ``"shuffle"``
            (a seeded order per game) or ``"fixed"``.
        jobs: Worker processes to start for this run (1: play here). The run owns them:
            it replaces a worker that dies and stops them all when it ends.
        executor: Plays chunks of games instead, when given (a Dask cluster's executor,
            say); results do not depend on it. Not together with ``jobs``.
        chunk_size: Games per task handed to a worker; 25 by default, 20,000 with the batch
            engine (which plays up to 4,096 games of a chunk at once).
        engine: ``"reference"`` plays each game with the reference engine;
            ``"batch"`` plays each chunk of games in lockstep on the batch engine
            (rules whose modules bring batch twins: every built-in variant; bots with a
            vectorised form: ``random``, ``greedy``, or one
            registered with
            [`register_vector_bot`][pickomino_rules.batch_bots.register_vector_bot]).
            Its dice come from a numpy generator per chunk, so its games are other games
            than the reference engine's for the same seed, but they too are the same
            whatever the jobs or executor, for the same chunk size.
        max_pending: Most chunks out (running or waiting to be counted in order) at a
            time; four per worker by default. Bounds memory, however many games.
        keep_going: Play on past failed games (counted in ``failures``) instead of
            stopping at the first.
        move_time_limit: Seconds a bot may take for one move; over it, its game fails.
            Enforced with SIGALRM in a process's main thread (in this process and in
            ``jobs`` workers), checked after the move elsewhere (threads, Dask).
        max_moves: Most moves (decisions and rolls) a game may take; a game still going
            then fails ("did not end within ... moves", counted in ``failures`` with
            ``keep_going``), for both engines. None: no limit. See
            [`MAX_GAME_MOVES`][pickomino_rules.game.MAX_GAME_MOVES].
        progress: Called with the number of games just finished.
        on_game: Called with each finished game's summary, in game order (an export).

    Raises:
        UnknownVariantError: No such variant.
        InvalidOptionError: A bad option.
        InvalidSetupError: A bad number of players, more bots than seats, a bot that
            does not play this game
            (see [`bot_supports`][pickomino_rules.bots.bot_supports]), a count below 1,
            ``jobs`` above [`max_jobs`][pickomino_rules.simulation.max_jobs], ``jobs``
            with ``executor``, an unknown seating or engine, or a bad limit (all are also
            ``ValueError``s).
        UnknownBotError: No such bot.
        BatchRulesError: The batch engine with rules other than classic.
        UnknownVectorBotError: The batch engine with a bot that has no vectorised form.
        SimulationError: A game failed (without ``keep_going``).
        SimulationInterrupted: Ctrl-C; holds the games finished so far.
    """
    setup = _setup(
        variant, players, bots, seed, options, seating, move_time_limit, engine, max_moves
    )
    if chunk_size is None:
        chunk_size = 20_000 if engine == "batch" else 25
    for name, count in (("games", games), ("chunk_size", chunk_size)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            msg = f"{name} must be a whole number of at least 1, got {brief(count)}"
            raise InvalidSetupError(msg)
    check_jobs(jobs)
    if executor is not None and jobs > 1:
        msg = "give jobs or an executor, not both"
        raise InvalidSetupError(msg)
    run = _Run(setup, games, keep_going=keep_going, progress=progress, on_game=on_game)
    workers = jobs if executor is None else (os.cpu_count() or 1)
    pending = max_pending if max_pending is not None else 4 * workers
    pool = ProcessPool(jobs) if executor is None and jobs > 1 else None
    try:
        with run.shield:
            _play(run, pool, executor, chunk_size, pending)
    except _Stop as stop:
        raise SimulationError(stop.failure, run.totals.result(games)) from None
    except KeyboardInterrupt:
        raise SimulationInterrupted(run.totals.result(games)) from None
    finally:
        if pool is not None:
            pool.stop()  # after close(), nothing is left to stop
    return run.totals.result(games)


def _play(
    run: _Run,
    pool: ProcessPool | None,
    executor: Executor | None,
    chunk_size: int,
    pending: int,
) -> None:
    """Play the run where asked: on the run's own workers, on an executor, or here."""
    if pool is not None:
        run.on_executor(pool.executor, chunk_size, pending, pool.restart)
        with run.shield.section():  # a shutdown cut short could leave the pool's thread waiting
            pool.close()
    elif executor is not None:
        run.on_executor(executor, chunk_size, pending, None)
    else:
        run.in_process(chunk_size)
