"""Many games between bots: win rates with confidence intervals, scores, lengths.

Game ``i`` of a simulation with seed ``s`` is played with ``random.Random(f"{s}:{i}")``
whatever process plays it, and the totals are exact (fractions for shared wins), so
the results are identical for the same seed however the games are spread over
workers: in this process, over ``jobs`` worker processes, or on any
``concurrent.futures.Executor`` (such as a Dask cluster's ``client.get_executor()``).

Games are handed out lazily, a bounded number of chunks at a time, so memory does not
grow with the number of games; each game's summary can be streamed out in game order
(``on_game``), and the bots change seats from game to game (``seating``) so that no bot
always plays first.

Faults are contained. A bot that raises, breaks the time limit or plays an illegal move
fails its game, reported as a [`GameFailure`][pickomino_rules.simulation.GameFailure]
with the game's index, seed, seats and the original error text; a worker process that
dies is replaced, and the games it held are replayed one at a time to find the one
that killed it. By default the first failure stops the run
([`SimulationError`][pickomino_rules.simulation.SimulationError]); with
``keep_going`` the failed games are counted and the rest are played. Ctrl-C stops the
run within moments, stops the workers and raises
[`SimulationInterrupted`][pickomino_rules.simulation.SimulationInterrupted] with the
games finished so far. Either way the finished games are kept.

Examples:
    >>> from pickomino_rules.simulation import simulate
    >>> result = simulate("classic", players=2, bots=["greedy", "random"], games=20, seed=1)
    >>> result.games, result.bots
    (20, ('greedy', 'random'))
    >>> result == simulate("classic", players=2, bots=["greedy", "random"], games=20, seed=1)
    True
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import math
import os
import random
import signal
import threading
import time
import traceback
from collections import Counter, deque
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, ProcessPoolExecutor, wait
from fractions import Fraction
from pathlib import PurePath
from typing import TYPE_CHECKING, Literal, Self

import attrs

from pickomino_rules.bots import get_bot
from pickomino_rules.errors import PickominoError
from pickomino_rules.files import AtomicWriter
from pickomino_rules.game import new_game, playout
from pickomino_rules.registry import get_variant
from pickomino_rules.result import result
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence
    from concurrent.futures import Executor, Future
    from pathlib import Path
    from types import FrameType, TracebackType

    from pickomino_rules.actions import Action
    from pickomino_rules.game import Bot
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = [
    "ENGINES",
    "EXPORT_FORMATS",
    "SEATINGS",
    "Engine",
    "GameExport",
    "GameFailure",
    "GameSummary",
    "MoveTimeLimitError",
    "Seating",
    "SimulationError",
    "SimulationInterrupted",
    "SimulationResult",
    "game_seats",
    "simulate",
    "wilson_interval",
]

Engine = Literal["reference", "batch"]
"""Which engine plays a simulation's games (see `simulate`)."""
ENGINES: tuple[Engine, ...] = ("reference", "batch")
"""The engines: the reference engine, one game at a time, or the batch engine
([`pickomino_rules.batch`][pickomino_rules.batch]), a chunk of games in lockstep."""

Seating = Literal["fixed", "rotate", "shuffle"]
"""A seating name (see `SEATINGS`)."""
SEATINGS: tuple[Seating, ...] = ("fixed", "rotate", "shuffle")
"""How the bots sit: always in the order given, rotated one seat per game, or shuffled
per game (seeded)."""


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default).

    Examples:
        >>> low, high = wilson_interval(50, 100)
        >>> round(low, 3), round(high, 3)
        (0.404, 0.596)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def game_seats(seating: Seating, seed: int, index: int, players: int) -> tuple[int, ...]:
    """The line-up entry sitting at each seat in game ``index``.

    Examples:
        >>> game_seats("rotate", 0, 1, 3)
        (1, 2, 0)
        >>> game_seats("fixed", 0, 1, 3)
        (0, 1, 2)
    """
    order = list(range(players))
    if seating == "rotate":
        shift = index % players
        order = order[shift:] + order[:shift]
    elif seating == "shuffle":
        random.Random(f"{seed}:{index}:seats").shuffle(order)
    return tuple(order)


@attrs.frozen
class GameSummary:
    """One finished game of a simulation.

    Attributes:
        index: The game's number in the run.
        seed: The seed of its random generator: ``random.Random(seed)`` replays it.
        seats: The bot at each seat (player index).
        lineup: The line-up entry (position in ``bots``) at each seat.
        scores: Final worms per seat.
        winners: The winning seats (several when tied).
        turns: Turns played.
        moves: Moves applied (decisions and rolls).
    """

    index: int
    seed: str
    seats: tuple[str, ...]
    lineup: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    moves: int

    def to_dict(self) -> dict[str, object]:
        """The summary as JSON-ready data (one line of a JSON-lines export)."""
        return {
            "game": self.index,
            "seed": self.seed,
            "seats": list(self.seats),
            "worms": list(self.scores),
            "winners": list(self.winners),
            "turns": self.turns,
            "moves": self.moves,
        }


@attrs.frozen
class GameFailure:
    """A game that could not be finished.

    Attributes:
        index: The game's number in the run.
        seed: The seed of its random generator.
        seats: The bot at each seat.
        seat: The seat whose bot failed; None when the engine or the worker failed.
        moves: Moves played before the failure; None when the worker was lost.
        error: The original error as text: its type and message.
        details: The traceback as text, when there is one.
    """

    index: int
    seed: str
    seats: tuple[str, ...]
    seat: int | None
    moves: int | None
    error: str
    details: str = attrs.field(default="", eq=False, repr=False)

    def __str__(self) -> str:
        setup = f"game {self.index} (seed {self.seed!r}, seats {', '.join(self.seats)})"
        if self.moves is None:
            return f"{setup}: could not be played: {self.error}"
        who = (
            "the engine"
            if self.seat is None
            else f"seat {self.seat}'s bot {self.seats[self.seat]!r}"
        )
        return f"{setup}: {who} failed after {self.moves} moves: {self.error}"


EXPORT_FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
"""Export file suffixes and the format each one means."""


class GameExport:
    """Writes each finished game's summary to a CSV or JSON-lines file, for analysis elsewhere.

    Pass it as ``simulate(..., on_game=export)``. Rows come in game order, one per
    game: CSV columns ``game, seed, turns, moves``, then ``bot_i``, ``worms_i`` and
    ``won_i`` (1 for a winner, tied or not) for each seat ``i``; a JSON line holds
    [`GameSummary.to_dict`][pickomino_rules.simulation.GameSummary.to_dict]. The file is
    written atomically (see [`AtomicWriter`][pickomino_rules.files.AtomicWriter]) when the
    export is closed, also after an interrupted or failed run: what was written is whole
    games.

    Args:
        path: The file; its suffix picks the format (see `EXPORT_FORMATS`).
        players: Players per game (the CSV's columns).

    Raises:
        SaveError: The file cannot be written there.
        ValueError: An unknown suffix.

    Examples:
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "games.csv"
        >>> with GameExport(path, players=2) as export:
        ...     result = simulate(players=2, bots=["greedy", "random"], games=3, on_game=export)
        >>> print(path.read_text().splitlines()[0])
        game,seed,turns,moves,bot_0,bot_1,worms_0,worms_1,won_0,won_1
        >>> len(path.read_text().splitlines())
        4
    """

    def __init__(self, path: str | Path, players: int) -> None:
        suffix = PurePath(path).suffix.lower()
        if suffix not in EXPORT_FORMATS:
            msg = f"cannot tell the export format of {path} (use {', '.join(EXPORT_FORMATS)})"
            raise ValueError(msg)
        self.format = EXPORT_FORMATS[suffix]
        self.players = players
        self._file = AtomicWriter(path)
        if self.format == "csv":
            seats = range(players)
            self._row(
                ["game", "seed", "turns", "moves"]
                + [f"{column}_{seat}" for column in ("bot", "worms", "won") for seat in seats]
            )

    def __call__(self, game: GameSummary) -> None:
        """Write one game."""
        if self.format == "jsonl":
            self._file.write(json.dumps(game.to_dict(), separators=(",", ":")) + "\n")
            return
        self._row(
            [game.index, game.seed, game.turns, game.moves, *game.seats, *game.scores]
            + [int(seat in game.winners) for seat in range(self.players)]
        )

    def _row(self, values: Sequence[object]) -> None:
        line = io.StringIO()
        csv.writer(line, lineterminator="\n").writerow(values)
        self._file.write(line.getvalue())

    def close(self) -> None:
        """Save the file: it replaces any earlier one."""
        self._file.commit()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


@attrs.frozen
class SimulationResult:
    """Totals of a simulation, per line-up entry (the bots as given, cycled over the seats).

    Attributes:
        variant: The variant played.
        players: Players per game.
        bots: The line-up: one bot name per entry.
        games: Games finished and counted.
        seed: The simulation's seed.
        wins: Wins per entry; a win shared by k players counts 1/k to each.
        score_totals: Sum of each entry's final worms.
        turn_total: Turns played, all games together.
        move_total: Moves applied (decisions and rolls), all games together.
        draws: Games each entry won jointly with others.
        seat_wins: Wins per seat (player index), whoever sat there.
        seating: How the bots changed seats (see `SEATINGS`).
        requested: Games asked for.
        failures: The games that failed, by index.
        score_counts: Per entry, ``(worms, times)`` pairs by worms: how often it finished
            with each score, one count per seat it held in a game (see
            `score_distribution`).
    """

    variant: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int
    wins: tuple[Fraction, ...]
    score_totals: tuple[int, ...]
    turn_total: int
    move_total: int
    draws: tuple[int, ...] = ()
    seat_wins: tuple[Fraction, ...] = ()
    seating: Seating = "fixed"
    requested: int = 0
    failures: tuple[GameFailure, ...] = ()
    score_counts: tuple[tuple[tuple[int, int], ...], ...] = ()

    def win_rate(self, entry: int) -> float:
        """Share of games won by line-up ``entry``."""
        return float(self.wins[entry]) / self.games if self.games else 0.0

    def win_interval(self, entry: int, z: float = 1.96) -> tuple[float, float]:
        """Wilson confidence interval of ``entry``'s win rate (95% by default)."""
        return wilson_interval(float(self.wins[entry]), self.games, z)

    def score_distribution(self, entry: int) -> dict[int, float]:
        """Share of ``entry``'s finishes with each final score, by worms (the seats it held).

        Examples:
            >>> outcome = simulate("classic", 2, bots=("greedy", "random"), games=20)
            >>> round(sum(outcome.score_distribution(0).values()), 9)
            1.0
        """
        counts = self.score_counts[entry] if self.score_counts else ()
        finishes = sum(times for _, times in counts)
        return {worms: times / finishes for worms, times in counts}

    def mean_score(self, entry: int) -> float:
        """Mean final worms of line-up ``entry``."""
        return self.score_totals[entry] / self.games if self.games else 0.0

    def seat_win_rate(self, seat: int) -> float:
        """Share of games won from ``seat``, whichever bot sat there."""
        return float(self.seat_wins[seat]) / self.games if self.games else 0.0

    @property
    def mean_turns(self) -> float:
        """Mean turns per game."""
        return self.turn_total / self.games if self.games else 0.0

    @property
    def mean_moves(self) -> float:
        """Mean moves (decisions and rolls) per game."""
        return self.move_total / self.games if self.games else 0.0

    @property
    def complete(self) -> bool:
        """Whether every requested game was played and counted."""
        return self.games == self.requested


class SimulationError(PickominoError, RuntimeError):
    """A game failed and the run stopped (without ``keep_going``).

    Attributes:
        failure: The failed game.
        result: The games finished before the run stopped.
    """

    def __init__(self, failure: GameFailure, partial: SimulationResult) -> None:
        super().__init__(str(failure))
        self.failure = failure
        self.result = partial


class SimulationInterrupted(KeyboardInterrupt):
    """The run was interrupted (Ctrl-C); the workers are stopped.

    Attributes:
        result: The games finished before the interrupt.
    """

    def __init__(self, partial: SimulationResult) -> None:
        super().__init__(f"interrupted after {partial.games} of {partial.requested} games")
        self.result = partial


class MoveTimeLimitError(PickominoError, TimeoutError):
    """A bot took longer than the simulation's time limit for one move."""


@attrs.frozen
class _Setup:
    """What every game of a run shares: a picklable description."""

    variant: str
    options: dict[str, object]
    players: int
    lineup: tuple[str, ...]
    seating: Seating
    seed: int
    move_time_limit: float | None
    engine: Engine = "reference"

    def table(self) -> tuple[Rules, list[Bot]]:
        """The rules and the line-up's bots (time-limited if asked), in this process."""
        rules = get_variant(self.variant).rules(self.options)
        bots = [get_bot(name) for name in self.lineup]
        if self.move_time_limit is not None:
            bots = [_time_limited(bot, self.move_time_limit) for bot in bots]
        return rules, bots


@attrs.frozen
class _Chunk:
    """Games ``start`` to ``stop - 1`` of a run: one task for an executor."""

    setup: _Setup
    start: int
    stop: int


Outcome = GameSummary | GameFailure


def _play_chunk(chunk: _Chunk) -> list[Outcome]:
    """Play a chunk's games (in a worker): each one's summary or failure."""
    if chunk.setup.engine == "batch":
        return _play_batch(chunk)
    rules, bots = chunk.setup.table()
    return [_play_game(chunk.setup, rules, bots, i) for i in range(chunk.start, chunk.stop)]


_GAME_OVER = Phase.GAME_OVER  # an enum member read off its class costs ~10x a global (3.11)


def _play_game(setup: _Setup, rules: Rules, bots: Sequence[Bot], index: int) -> Outcome:
    order = game_seats(setup.seating, setup.seed, index, setup.players)
    seats = tuple(setup.lineup[entry] for entry in order)
    seed = f"{setup.seed}:{index}"
    _, state = new_game(rules, players=setup.players)
    player = state.player
    moves = turns = 0
    try:
        # Played once: a turn ends where the dice pass on or the game ends (C11, C12).
        seated = [bots[entry] for entry in order]
        for _, after in playout(rules, state, seated, random.Random(seed)):
            state = after
            moves += 1
            if state.player != player or state.phase is _GAME_OVER:
                turns += 1
                player = state.player
    except Exception as error:  # noqa: BLE001 (any bot error fails only its game)
        seat = None if state.phase is Phase.ROLL else state.player
        text = f"{type(error).__name__}: {error}"
        details = "".join(traceback.format_exception(error))
        return GameFailure(index, seed, seats, seat, moves, text, details)
    outcome = result(rules, state)
    return GameSummary(index, seed, seats, order, outcome.scores, outcome.winners, turns, moves)


_BATCH_WIDTH = 4096
"""Most games a chunk plays at once; a finished game's row takes the chunk's next game."""


def _play_batch(chunk: _Chunk) -> list[Outcome]:
    """Play a chunk's games in lockstep on the batch engine, with the bots' vectorised forms.

    The chunk's dice and the bots' draws come from numpy generators seeded by the run's
    seed and the chunk's first game, so a chunk replays exactly; its games' ``seed`` names
    that chunk.
    """
    import numpy as np  # noqa: PLC0415 (the batch extra)

    from pickomino_rules.batch import BatchGames  # noqa: PLC0415
    from pickomino_rules.batch_bots import get_vector_bot  # noqa: PLC0415

    setup, start, count = chunk.setup, chunk.start, chunk.stop - chunk.start
    seed = f"{setup.seed}:batch:{start}"
    entropy = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:16], "big")
    dice, draws = (np.random.default_rng(s) for s in np.random.SeedSequence(entropy).spawn(2))
    width = min(count, _BATCH_WIDTH)
    games = BatchGames(
        width,
        setup.players,
        variant=setup.variant,
        options=setup.options,
        seed=dice,
        auto_reset=False,
    )
    names = sorted(set(setup.lineup))
    bots = [get_vector_bot(name) for name in names]
    orders = [
        game_seats(setup.seating, setup.seed, i, setup.players) for i in range(start, chunk.stop)
    ]
    entry_bot = np.array([names.index(name) for name in setup.lineup])
    seat_bot = entry_bot[np.array(orders)]  # each game's bot (index into names) by seat
    game_of_row = np.arange(width)  # the chunk's game each row plays
    waiting = width  # the chunk's next game to start
    outcomes: list[Outcome | None] = [None] * count
    try:
        while not games.over.all():
            playing = seat_bot[game_of_row, games.to_move]
            actions = np.zeros(width, dtype=np.int64)
            for number, bot in enumerate(bots):
                chosen = playing == number
                if chosen.any():
                    actions[chosen] = bot(games, draws)[chosen]
            done = games.step(actions)
            ended = np.flatnonzero(done.terminated)
            for row in ended.tolist():
                game = int(game_of_row[row])
                outcomes[game] = GameSummary(
                    start + game,
                    seed,
                    tuple(setup.lineup[entry] for entry in orders[game]),
                    orders[game],
                    tuple(done.scores[row].tolist()),
                    tuple(np.flatnonzero(done.winners[row]).tolist()),
                    int(done.turns[row]),
                    int(done.moves[row]),
                )
            refill = ended[: count - waiting]
            if refill.size:
                game_of_row[refill] = np.arange(waiting, waiting + refill.size)
                waiting += refill.size
                games.reset(refill)
    except Exception as error:  # noqa: BLE001 (a vectorised bot's error fails the unfinished games)
        text = f"{type(error).__name__}: {error}"
        details = "".join(traceback.format_exception(error))
        for game, outcome in enumerate(outcomes):
            if outcome is None:
                seats = tuple(setup.lineup[entry] for entry in orders[game])
                outcomes[game] = GameFailure(start + game, seed, seats, None, None, text, details)
    return [outcome for outcome in outcomes if outcome is not None]


def _time_limited(bot: Bot, limit: float) -> Bot:
    """``bot`` stopped by SIGALRM after ``limit`` seconds.

    Off the main thread, where no signal can interrupt it, the time is checked afterwards.
    """

    def timed(rules: Rules, state: GameState, rng: random.Random) -> Action:
        if threading.current_thread() is not threading.main_thread():
            started = time.perf_counter()
            action = bot(rules, state, rng)
            if time.perf_counter() - started > limit:
                raise MoveTimeLimitError(f"took more than the limit of {limit:g} s for a move")
            return action

        def expired(_signal: int, _frame: object) -> None:
            raise MoveTimeLimitError(f"took more than the limit of {limit:g} s for a move")

        previous = signal.signal(signal.SIGALRM, expired)
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            return bot(rules, state, rng)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    return timed


class _Totals:
    """Running totals of the finished games (a few numbers, whatever the run's length)."""

    def __init__(self, setup: _Setup) -> None:
        self.setup = setup
        entries = len(setup.lineup)
        self.games = 0
        self.wins = [Fraction(0)] * entries
        self.draws = [0] * entries
        self.scores = [0] * entries
        self.seat_wins = [Fraction(0)] * setup.players
        self.score_counts: list[Counter[int]] = [Counter() for _ in range(entries)]
        self.turns = self.moves = 0
        self.failures: list[GameFailure] = []

    def add(self, summary: GameSummary) -> None:
        share = Fraction(1, len(summary.winners))
        for seat in summary.winners:
            entry = summary.lineup[seat]
            self.wins[entry] += share
            self.seat_wins[seat] += share
            self.draws[entry] += len(summary.winners) > 1
        for seat, worms in enumerate(summary.scores):
            entry = summary.lineup[seat]
            self.scores[entry] += worms
            self.score_counts[entry][worms] += 1
        self.turns += summary.turns
        self.moves += summary.moves
        self.games += 1

    def result(self, requested: int) -> SimulationResult:
        setup = self.setup
        return SimulationResult(
            variant=setup.variant,
            players=setup.players,
            bots=setup.lineup,
            games=self.games,
            seed=setup.seed,
            wins=tuple(self.wins),
            score_totals=tuple(self.scores),
            turn_total=self.turns,
            move_total=self.moves,
            draws=tuple(self.draws),
            seat_wins=tuple(self.seat_wins),
            seating=setup.seating,
            requested=requested,
            failures=tuple(sorted(self.failures, key=lambda failure: failure.index)),
            score_counts=tuple(tuple(sorted(counts.items())) for counts in self.score_counts),
        )


class _Deferred:
    """Holds back Ctrl-C (and SIGTERM, if handled) while a game is being counted.

    An interrupt between counting a game and exporting it would make the report and the
    export disagree; a signal that arrives inside ``section()`` is handled by the
    handler it would have reached, as soon as the section ends. Off the main thread,
    where signals are not handled, it does nothing.
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
        setup: _Setup,
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
        self.totals = _Totals(setup)
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
                outcomes = _play_batch(_Chunk(self.setup, start, stop))
                with self.shield.section():
                    for outcome in outcomes:
                        self.deliver(outcome)
                if self.progress is not None:
                    self.progress(stop - start)
            return
        rules, bots = self.setup.table()
        for index in range(self.games):
            outcome = _play_game(self.setup, rules, bots, index)
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
        self.alone: _Chunk | None = None  # a suspect game, running with nothing else
        self.pending: dict[Future[list[Outcome]], _Chunk] = {}
        self.ready: dict[int, tuple[int, list[Outcome]]] = {}  # finished, by first game
        self.counted = 0  # games before this one are delivered
        try:
            while self._hand_out(max_pending):
                finished, _ = wait(self.pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    self._collect(future)
                with self.shield.section():
                    while self.counted in self.ready:
                        self.counted, outcomes = self.ready.pop(self.counted)
                        for outcome in outcomes:
                            self.deliver(outcome)
        finally:
            for future in self.pending:
                future.cancel()
            # what finished out of order still counts when the run stops early
            with self.shield.section():
                for start in sorted(self.ready):
                    for outcome in self.ready.pop(start)[1]:
                        if isinstance(outcome, GameSummary):
                            self.deliver(outcome)

    def _hand_out(self, max_pending: int) -> bool:
        """Submit what may go out now; whether anything is out."""
        if self.suspects:
            if not self.pending:  # alone, so that a lost worker names its game
                index = self.suspects.popleft()
                self.alone = _Chunk(self.setup, index, index + 1)
                self._submit(self.alone)
        else:
            while len(self.pending) + len(self.ready) < max_pending:
                start = next(self.starts, None)
                if start is None:
                    break
                stop = min(start + self.chunk_size, self.games)
                self._submit(_Chunk(self.setup, start, stop))
        return bool(self.pending)

    def _submit(self, chunk: _Chunk) -> None:
        try:
            self.pending[self.executor.submit(_play_chunk, chunk)] = chunk
        except BrokenExecutor as error:
            if self.restart is None:
                raise _Stop(self._lost(chunk.start, error, broken=True)) from None
            self.executor = self.restart()
            self.pending[self.executor.submit(_play_chunk, chunk)] = chunk

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


def _ignore_interrupts() -> None:
    """Worker start-up: leave Ctrl-C to the parent, end on SIGTERM.

    Ctrl-C in a terminal reaches every process of the group; the parent alone handles
    it, and stops the workers.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _ProcessPool:
    """The worker processes a run owns.

    Started with interrupts ignored, replaced when broken, and stopped for good
    (terminated, not waited for) when the run ends early.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor = self.start()

    def start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.workers, initializer=_ignore_interrupts)

    def restart(self) -> ProcessPoolExecutor:
        self.stop()
        self.executor = self.start()
        return self.executor

    def close(self) -> None:
        """The run is over: let the idle workers exit."""
        self.executor.shutdown(wait=True)

    def stop(self) -> None:
        """The run ends early: cancel what waits, end what runs."""
        executor = self.executor
        # ProcessPoolExecutor has no public way to end running workers before Python 3.14
        processes = list((getattr(executor, "_processes", None) or {}).values())
        manager = getattr(executor, "_executor_manager_thread", None)
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(OSError, ValueError):
                process.terminate()
        for process in processes:
            with contextlib.suppress(OSError, ValueError):
                process.join(2)
                if process.is_alive():
                    process.kill()
                    process.join(2)
        # Wait for the pool's manager thread to close its pipes: if it were still closing
        # them at interpreter exit, Python's own exit hook could write to a closed pipe
        # and print a traceback (OSError: Bad file descriptor).
        if isinstance(manager, threading.Thread):
            manager.join(5)


def _setup(  # noqa: PLR0913, PLR0917 (the set-up's parts)
    variant: str,
    players: int,
    bots: Sequence[str],
    seed: int,
    options: Mapping[str, object] | None,
    seating: Seating,
    move_time_limit: float | None,
    engine: Engine = "reference",
) -> _Setup:
    """Check a run's set-up once, before any game."""
    if engine not in ENGINES:
        msg = f"unknown engine {engine!r} (known: {', '.join(ENGINES)})"
        raise ValueError(msg)
    if seating not in SEATINGS:
        msg = f"unknown seating {seating!r} (known: {', '.join(SEATINGS)})"
        raise ValueError(msg)
    if move_time_limit is not None and not move_time_limit > 0:
        msg = f"move_time_limit must be positive, got {move_time_limit}"
        raise ValueError(msg)
    if not bots:
        msg = "name at least one bot"
        raise ValueError(msg)
    lineup = tuple(bots[entry % len(bots)] for entry in range(players))
    for name in set(lineup):
        get_bot(name)
    resolved = get_variant(variant).resolve_options(options)
    new_game(variant, players=players, options=resolved)  # checks the number of players
    if engine == "batch":
        _check_batch(variant, resolved, lineup, move_time_limit)
    return _Setup(variant, resolved, players, lineup, seating, seed, move_time_limit, engine)


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
        raise ValueError(msg)


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
    progress: Callable[[int], None] | None = None,
    on_game: Callable[[GameSummary], None] | None = None,
) -> SimulationResult:
    """Play ``games`` seeded games between bots and total the results.

    Args:
        variant: Registered variant name.
        players: Players per game.
        bots: Registered bot names: the line-up, cycled over the seats.
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
            (classic only, bots with a vectorised form: ``random``, ``greedy``, or one
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
        progress: Called with the number of games just finished.
        on_game: Called with each finished game's summary, in game order (an export).

    Raises:
        UnknownVariantError: No such variant.
        InvalidOptionError: A bad option.
        InvalidSetupError: A bad number of players.
        UnknownBotError: No such bot.
        BatchRulesError: The batch engine with rules other than classic.
        UnknownVectorBotError: The batch engine with a bot that has no vectorised form.
        ValueError: A count below 1, an unknown seating, or ``jobs`` with ``executor``.
        SimulationError: A game failed (without ``keep_going``).
        SimulationInterrupted: Ctrl-C; holds the games finished so far.
    """
    setup = _setup(variant, players, bots, seed, options, seating, move_time_limit, engine)
    if chunk_size is None:
        chunk_size = 20_000 if engine == "batch" else 25
    for name, count in (("games", games), ("chunk_size", chunk_size), ("jobs", jobs)):
        if count < 1:
            msg = f"{name} must be at least 1, got {count}"
            raise ValueError(msg)
    if executor is not None and jobs > 1:
        msg = "give jobs or an executor, not both"
        raise ValueError(msg)
    run = _Run(setup, games, keep_going=keep_going, progress=progress, on_game=on_game)
    workers = jobs if executor is None else (os.cpu_count() or 1)
    pending = max_pending if max_pending is not None else 4 * workers
    pool = _ProcessPool(jobs) if executor is None and jobs > 1 else None
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
    pool: _ProcessPool | None,
    executor: Executor | None,
    chunk_size: int,
    pending: int,
) -> None:
    """Play the run where asked: on the run's own workers, on an executor, or here."""
    if pool is not None:
        run.on_executor(pool.executor, chunk_size, pending, pool.restart)
        pool.close()
    elif executor is not None:
        run.on_executor(executor, chunk_size, pending, None)
    else:
        run.in_process(chunk_size)
