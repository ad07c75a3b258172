"""A simulation's results and statistics: each game's summary or failure, the totals, intervals."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import TYPE_CHECKING

import attrs

from pickomino_rules.errors import PickominoError

if TYPE_CHECKING:
    from pickomino_rules.simulation._workers import Seating, Setup


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
        if self.seat is None and self.error.startswith("UnfinishedGameError"):
            return f"{setup}: did not end within {self.moves:,} moves (the limit on its length)"
        who = (
            "the engine"
            if self.seat is None
            else f"seat {self.seat}'s bot {self.seats[self.seat]!r}"
        )
        return f"{setup}: {who} failed after {self.moves} moves: {self.error}"


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
        longest_game: The moves (decisions and rolls) of the longest game counted.
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
    longest_game: int = 0

    def win_rate(self, entry: int) -> float:
        """Share of games won by line-up ``entry``."""
        return float(self.wins[entry]) / self.games if self.games else 0.0

    def win_interval(self, entry: int, z: float = 1.96) -> tuple[float, float]:
        """Wilson confidence interval of ``entry``'s win rate (95% by default)."""
        return wilson_interval(float(self.wins[entry]), self.games, z)

    def score_distribution(self, entry: int) -> dict[int, float]:
        """Share of ``entry``'s finishes with each final score, by worms (the seats it held).

        Examples:
            >>> from pickomino_rules.simulation import simulate
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

    __module__ = "pickomino_rules.simulation"  # where users import it from (tracebacks, reprs)

    def __init__(self, failure: GameFailure, partial: SimulationResult) -> None:
        super().__init__(str(failure))
        self.failure = failure
        self.result = partial


class SimulationInterrupted(KeyboardInterrupt):
    """The run was interrupted (Ctrl-C); the workers are stopped.

    Attributes:
        result: The games finished before the interrupt.
    """

    __module__ = "pickomino_rules.simulation"  # where users import it from (tracebacks, reprs)

    def __init__(self, partial: SimulationResult) -> None:
        super().__init__(f"interrupted after {partial.games} of {partial.requested} games")
        self.result = partial


class MoveTimeLimitError(PickominoError, TimeoutError):
    """A bot took longer than the simulation's time limit for one move."""

    __module__ = "pickomino_rules.simulation"  # where users import it from (tracebacks, reprs)


class Totals:
    """Running totals of the finished games (a few numbers, whatever the run's length)."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        entries = len(setup.lineup)
        self.games = 0
        self.wins = [Fraction(0)] * entries
        self.draws = [0] * entries
        self.scores = [0] * entries
        self.seat_wins = [Fraction(0)] * setup.players
        self.score_counts: list[Counter[int]] = [Counter() for _ in range(entries)]
        self.turns = self.moves = self.longest = 0
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
        self.longest = max(self.longest, summary.moves)
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
            longest_game=self.longest,
        )
