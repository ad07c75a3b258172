"""A round robin between bots: every table of distinct bots plays, seats rotated; ratings."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from pickomino_rules._processes import check_jobs
from pickomino_rules.bots import bot_supports, get_bot
from pickomino_rules.errors import InvalidSetupError, brief
from pickomino_rules.game import MAX_GAME_MOVES, new_game
from pickomino_rules.simulation._ratings import Rating, bradley_terry
from pickomino_rules.simulation._runner import simulate

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from concurrent.futures import Executor

    from pickomino_rules.simulation._results import GameSummary, SimulationResult

__all__ = ["TournamentResult", "tournament"]


@attrs.frozen
class TournamentResult:
    """The results of a round robin and the ratings they give.

    Attributes:
        variant: The variant played.
        players: Players per game.
        bots: The bots that played, in the order given.
        skipped: Bots left out because they do not play this game (see
            [`bot_supports`][pickomino_rules.bots.bot_supports]).
        games: Games per table.
        seed: The seed every table was played with.
        tables: Each table's simulation, in the order played.
        wins: ``wins[i][j]``: games bot i won while bot j, at its table, did not (a win
            shared by both counts half to each).
        ratings: The Bradley-Terry ratings, best first.
    """

    variant: str
    players: int
    bots: tuple[str, ...]
    skipped: tuple[str, ...]
    games: int
    seed: int
    tables: tuple[SimulationResult, ...]
    wins: tuple[tuple[Fraction, ...], ...]
    ratings: tuple[Rating, ...]

    def games_of(self, bot: str) -> int:
        """Games ``bot`` played, all tables together."""
        return sum(table.games for table in self.tables if bot in table.bots)

    def win_rate(self, bot: str) -> float:
        """Share of its games that ``bot`` won (shared wins in part)."""
        won = sum(
            float(table.wins[table.bots.index(bot)]) for table in self.tables if bot in table.bots
        )
        played = self.games_of(bot)
        return won / played if played else 0.0

    def mean_score(self, bot: str) -> float:
        """``bot``'s mean final worms over its games."""
        worms = sum(
            table.score_totals[table.bots.index(bot)] for table in self.tables if bot in table.bots
        )
        played = self.games_of(bot)
        return worms / played if played else 0.0

    @property
    def longest_game(self) -> int:
        """The moves (decisions and rolls) of the tournament's longest game."""
        return max((table.longest_game for table in self.tables), default=0)

    def markdown(self) -> str:
        """The leaderboard as a Markdown table, best first."""
        lines = [
            "| rank | bot | rating (Elo) | 95% interval | games | won | mean worms |",
            "|---:|---|---:|---|---:|---:|---:|",
        ]
        for rank, rating in enumerate(self.ratings, 1):
            lines.append(
                f"| {rank} | {rating.bot} | {rating.elo:+.0f} | "
                f"{rating.low:+.0f} to {rating.high:+.0f} | {self.games_of(rating.bot):,} | "
                f"{self.win_rate(rating.bot):.1%} | {self.mean_score(rating.bot):.2f} |"
            )
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict[str, Any]:
        """The leaderboard and the head-to-head results as JSON-ready data."""
        return {
            "variant": self.variant,
            "players": self.players,
            "games_per_table": self.games,
            "seed": self.seed,
            "skipped": list(self.skipped),
            "longest_game": self.longest_game,
            "ratings": [
                {
                    "bot": rating.bot,
                    "elo": rating.elo,
                    "interval": [rating.low, rating.high],
                    "games": self.games_of(rating.bot),
                    "win_rate": self.win_rate(rating.bot),
                    "mean_worms": self.mean_score(rating.bot),
                }
                for rating in self.ratings
            ],
            "head_to_head": {
                bot: {other: float(self.wins[i][j]) for j, other in enumerate(self.bots) if j != i}
                for i, bot in enumerate(self.bots)
            },
        }


def tournament(  # noqa: PLR0913 (a tournament's set-up)
    variant: str = "classic",
    players: int = 2,
    *,
    bots: Sequence[str],
    games: int = 1000,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    jobs: int = 1,
    executor: Executor | None = None,
    on_table: Callable[[SimulationResult], None] | None = None,
    progress: Callable[[int], None] | None = None,
    max_moves: int | None = MAX_GAME_MOVES,
) -> TournamentResult:
    """Play every table of ``players`` distinct bots, ``games`` games each, and rate the bots.

    Each table is a [`simulate`][pickomino_rules.simulation.simulate] run with the seats
    rotated game by game and the same ``seed`` (so every table sees the same dice
    streams). A game counts, for every two bots at its table, as a win for a winner over
    each player who did not win (a win shared between the two counts half to each); the
    ratings are the Bradley-Terry fit of those counts (see
    [`bradley_terry`][pickomino_rules.simulation.bradley_terry]). Bots that do not play
    this game (a learned bot trained for another variant) are skipped and listed.

    Args:
        variant: Registered variant name.
        players: Players per game (2: every pair plays).
        bots: Distinct bot names, at least ``players`` of them that play this game.
        games: Games per table; a multiple of ``players`` gives each bot every seat equally.
        seed: The seed of every table.
        options: The variant's options.
        jobs: Worker processes per table (see ``simulate``).
        executor: An executor to play on instead (see ``simulate``).
        on_table: Called with each table's result as it finishes.
        progress: Called with the number of games just finished.
        max_moves: Most moves a game may take (see ``simulate``); one past it fails the
            tournament.

    Raises:
        InvalidSetupError: Fewer than ``players`` bots that play the game, or a bot named
            twice (a ``ValueError``, as before), or ``jobs`` not 1 to
            [`max_jobs`][pickomino_rules.simulation.max_jobs].
        UnknownBotError: No such bot.

    Examples:
        >>> outcome = tournament(bots=["greedy", "random"], games=20, seed=1)
        >>> [rating.bot for rating in outcome.ratings]
        ['greedy', 'random']
    """
    check_jobs(jobs)
    if len(set(bots)) != len(bots):
        named = ", ".join(map(str, bots))
        msg = f"name each bot once, got {named if len(named) <= 120 else brief(named, 120)}"
        raise InvalidSetupError(msg)
    rules, _ = new_game(variant, players=players, options=options)
    playing = tuple(name for name in bots if bot_supports(get_bot(name), rules, players))
    skipped = tuple(name for name in bots if name not in playing)
    if len(playing) < players:
        verb = "does" if len(skipped) == 1 else "do"
        msg = (
            f"a tournament of {players}-player {variant} needs at least {players} bots that "
            f"play it, got {', '.join(playing) or 'none'}"
            + (f" ({', '.join(skipped)} {verb} not play it)" if skipped else "")
        )
        raise InvalidSetupError(msg)
    index = {name: i for i, name in enumerate(playing)}
    wins = [[Fraction(0)] * len(playing) for _ in playing]

    def count(summary: GameSummary) -> None:
        winners = set(summary.winners)
        for a, b in itertools.permutations(range(len(summary.seats)), 2):
            if a in winners:
                share = Fraction(1, 2) if b in winners else Fraction(1)
                wins[index[summary.seats[a]]][index[summary.seats[b]]] += share

    tables = []
    for table in itertools.combinations(playing, players):
        played = simulate(
            variant,
            players,
            bots=table,
            games=games,
            seed=seed,
            options=options,
            seating="rotate",
            jobs=jobs,
            executor=executor,
            progress=progress,
            on_game=count,
            max_moves=max_moves,
        )
        tables.append(played)
        if on_table is not None:
            on_table(played)
    ratings = bradley_terry(playing, [[float(w) for w in row] for row in wins])
    return TournamentResult(
        variant=variant,
        players=players,
        bots=playing,
        skipped=skipped,
        games=games,
        seed=seed,
        tables=tuple(tables),
        wins=tuple(tuple(row) for row in wins),
        ratings=tuple(sorted(ratings, key=lambda rating: -rating.elo)),
    )
