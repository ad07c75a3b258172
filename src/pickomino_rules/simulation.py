"""Many games between bots: win rates with confidence intervals, scores, lengths.

Game ``i`` of a simulation with seed ``s`` is played with ``random.Random(f"{s}:{i}")``
whatever process plays it, and the totals are exact (fractions for shared wins), so
the results are identical for the same seed however the games are spread over
workers. Pass any ``concurrent.futures.Executor`` (a process pool, or a cluster's
executor such as Dask's ``client.get_executor()``) to play chunks in parallel.

Examples:
    >>> from pickomino_rules.simulation import simulate
    >>> result = simulate("classic", players=2, bots=["greedy", "random"], games=20, seed=1)
    >>> result.games, len(result.wins)
    (20, 2)
    >>> result == simulate("classic", players=2, bots=["greedy", "random"], games=20, seed=1)
    True
"""

from __future__ import annotations

import math
import random
from concurrent.futures import as_completed
from fractions import Fraction
from typing import TYPE_CHECKING

import attrs

from pickomino_rules.bots import get_bot
from pickomino_rules.game import new_game, playout
from pickomino_rules.registry import get_variant
from pickomino_rules.result import result
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from concurrent.futures import Executor

__all__ = ["SimulationResult", "simulate", "wilson_interval"]


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
class SimulationResult:
    """Totals of a simulation, per seat (player index).

    Attributes:
        variant: The variant played.
        players: Players per game.
        bots: The bot name at each seat.
        games: Games played.
        seed: The simulation's seed.
        wins: Wins per seat; a win shared by k players counts 1/k to each.
        score_totals: Sum of each seat's final worms.
        turn_total: Turns played, all games together.
        move_total: Moves applied (decisions and rolls), all games together.
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

    def win_rate(self, seat: int) -> float:
        """Share of games won by ``seat``."""
        return float(self.wins[seat]) / self.games if self.games else 0.0

    def win_interval(self, seat: int, z: float = 1.96) -> tuple[float, float]:
        """Wilson confidence interval of ``seat``'s win rate (95% by default)."""
        return wilson_interval(float(self.wins[seat]), self.games, z)

    def mean_score(self, seat: int) -> float:
        """Mean final worms of ``seat``."""
        return self.score_totals[seat] / self.games if self.games else 0.0

    @property
    def mean_turns(self) -> float:
        """Mean turns per game."""
        return self.turn_total / self.games if self.games else 0.0

    @property
    def mean_moves(self) -> float:
        """Mean moves (decisions and rolls) per game."""
        return self.move_total / self.games if self.games else 0.0


@attrs.frozen
class _Chunk:
    """Games ``start`` to ``stop - 1`` of a simulation: a picklable task."""

    variant: str
    options: dict[str, object]
    players: int
    bots: tuple[str, ...]
    seed: int
    start: int
    stop: int


def _play_chunk(chunk: _Chunk) -> tuple[list[Fraction], list[int], int, int]:
    rules = get_variant(chunk.variant).rules(chunk.options)
    bots = [get_bot(name) for name in chunk.bots]
    wins = [Fraction(0)] * chunk.players
    scores = [0] * chunk.players
    turn_total = move_total = 0
    for index in range(chunk.start, chunk.stop):
        _, final = new_game(rules, players=chunk.players)
        player = final.player
        # Played once: a turn ends where the dice pass on or the game ends (C11, C12).
        for _, final in playout(rules, final, bots, random.Random(f"{chunk.seed}:{index}")):  # noqa: B020
            move_total += 1
            if final.player != player or final.phase is Phase.GAME_OVER:
                turn_total += 1
                player = final.player
        outcome = result(rules, final)
        for winner in outcome.winners:
            wins[winner] += Fraction(1, len(outcome.winners))
        scores = [total + worms for total, worms in zip(scores, outcome.scores, strict=True)]
    return wins, scores, turn_total, move_total


def simulate(  # noqa: PLR0913 (a simulation's set-up)
    variant: str = "classic",
    players: int = 2,
    *,
    bots: Sequence[str] = ("greedy",),
    games: int = 100,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    executor: Executor | None = None,
    chunk_size: int = 25,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` seeded games between bots and total the results.

    Args:
        variant: Registered variant name.
        players: Players per game.
        bots: Registered bot names, one per seat or cycled over the seats.
        games: Number of games.
        seed: Master seed; game ``i`` uses ``random.Random(f"{seed}:{i}")``.
        options: The variant's options.
        executor: Plays chunks of games in parallel when given; results do not
            depend on it.
        chunk_size: Games per task handed to the executor.
        progress: Called with the number of games just finished, as chunks end.

    Raises:
        UnknownVariantError: No such variant.
        InvalidOptionError: A bad option.
        InvalidSetupError: A bad number of players.
        UnknownBotError: No such bot.
        ValueError: ``games`` or ``chunk_size`` below 1.
    """
    if games < 1 or chunk_size < 1:
        msg = f"games and chunk_size must be at least 1, got {games} and {chunk_size}"
        raise ValueError(msg)
    seats = tuple(bots[seat % len(bots)] for seat in range(players))
    for name in set(seats):
        get_bot(name)
    resolved = get_variant(variant).resolve_options(options)
    new_game(variant, players=players, options=resolved)  # checks the set-up once
    chunks = [
        _Chunk(variant, resolved, players, seats, seed, start, min(start + chunk_size, games))
        for start in range(0, games, chunk_size)
    ]
    if executor is None:
        parts = []
        for chunk in chunks:
            parts.append(_play_chunk(chunk))
            if progress is not None:
                progress(chunk.stop - chunk.start)
    else:
        futures = [executor.submit(_play_chunk, chunk) for chunk in chunks]
        sizes = {
            future: chunk.stop - chunk.start for future, chunk in zip(futures, chunks, strict=True)
        }
        for future in as_completed(futures):
            if progress is not None:
                progress(sizes[future])
        parts = [future.result() for future in futures]
    wins = [sum((part[0][seat] for part in parts), Fraction(0)) for seat in range(players)]
    scores = [sum(part[1][seat] for part in parts) for seat in range(players)]
    return SimulationResult(
        variant=variant,
        players=players,
        bots=seats,
        games=games,
        seed=seed,
        wins=tuple(wins),
        score_totals=tuple(scores),
        turn_total=sum(part[2] for part in parts),
        move_total=sum(part[3] for part in parts),
    )
