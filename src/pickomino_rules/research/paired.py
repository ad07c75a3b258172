"""Compare two bots on the same seeded games against one opponent: the games that change.

Each bot plays the opponent in 2-player games, seats rotated, on the same seeded games (game
``i`` of seed ``s`` seeded ``s:i``, as ``simulate`` seeds them). A game's result can change
only where the two bots choose differently, so the difference is counted on the same games:
its 95% interval comes from the games that changed alone, far narrower than two win rates'
intervals side by side. This is how the docs page "What else we tried" sets each experiment
beside the shipped champion.

Run: ``python -m pickomino_rules.research.paired CANDIDATE [--base champion] [--opponent margin]
[--seed 2026 --seed 3 ...] [--games 2000] [--jobs 2]``, where each bot is a registered name
or ``module:function`` (importable by the worker processes too).
"""

from __future__ import annotations

import argparse
import math
import statistics
from typing import TYPE_CHECKING

from pickomino_rules.bots import get_bot
from pickomino_rules.simulation import simulate, wilson_interval

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pickomino_rules.simulation import GameSummary


__all__ = ["main", "net_wins", "shares"]


def shares(args: argparse.Namespace, bot: str, seed: int) -> list[float]:
    """The bot's share of each game against ``args.opponent`` (1 won, 1/2 shared, 0 lost)."""
    won = [0.0] * args.games

    def count(game: GameSummary) -> None:
        mine = [seat for seat in game.winners if game.lineup[seat] == 0]
        won[game.index] = len(mine) / len(game.winners)

    simulate(
        args.variant,
        2,
        bots=[bot, args.opponent],
        games=args.games,
        seed=seed,
        jobs=args.jobs,
        on_game=count,
    )
    return won


def net_wins(candidate: Sequence[float], base: Sequence[float]) -> tuple[int, float, float]:
    """Games changed, the candidate's net wins, and the half-width of their 95% interval."""
    differences = [c - b for c, b in zip(candidate, base, strict=True)]
    spread = 1.96 * math.sqrt(len(differences) * statistics.pvariance(differences))
    return sum(d != 0 for d in differences), sum(differences), spread


def _rate(won: Sequence[float]) -> str:
    low, high = wilson_interval(sum(won), len(won))
    return f"{sum(won) / len(won):.1%} ({low:.1%} to {high:.1%})"


def _row(name: str, candidate: Sequence[float], base: Sequence[float]) -> str:
    changed, net, half = net_wins(candidate, base)
    interval = f"{net:+g} ({net - half:+.0f} to {net + half:+.0f})"
    return (
        f"| {name} | {len(base):,} | {_rate(base)} | {_rate(candidate)} | {changed} | {interval} |"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Print a Markdown table: a row per seed, and all seeds together."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("candidate", help="the bot to measure: a name or module:function")
    parser.add_argument("--base", default="champion", help="the bot to measure it against")
    parser.add_argument("--opponent", default="margin", help="the bot both play")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--games", type=int, default=2000, help="games per seed")
    parser.add_argument("--seed", type=int, action="append", help="repeatable; 2026 by default")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs take a whole number of at least 1")
    try:  # every name known before a game is played
        for name in (args.candidate, args.base, args.opponent):
            get_bot(name)
    except ValueError as error:
        parser.exit(2, f"error: {error}\n")
    base_name, candidate_name = f"`{args.base}`", f"`{args.candidate}`"
    print(f"{candidate_name} against {base_name}, both playing `{args.opponent}`:\n")
    print(
        f"| seed | games | {base_name} | {candidate_name} | games changed "
        "| net wins (95% interval) |"
    )
    print("|---|---:|---|---|---:|---|")
    every_base: list[float] = []
    every_candidate: list[float] = []
    seeds = args.seed or [2026]
    for seed in seeds:
        try:
            base = shares(args, args.base, seed)
            candidate = shares(args, args.candidate, seed)
        except ValueError as error:  # an unknown bot or variant, a bot that cannot play it
            parser.exit(2, f"error: {error}\n")
        print(_row(str(seed), candidate, base), flush=True)
        every_base += base
        every_candidate += candidate
    if len(seeds) > 1:
        print(_row("all", every_candidate, every_base))


if __name__ == "__main__":
    main()
