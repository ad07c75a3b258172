"""Win rates of the optimal bot against the greedy and random bots (for the docs).

Each pairing is played in both seat orders (the first player has an edge), with
95% Wilson intervals. Run: ``python benchmarks/compare_bots.py [--games 300] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from pickomino_rules.simulation import simulate, wilson_interval


def main() -> None:
    """Print a Markdown table of the pairings."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per seat order")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    header = "games | optimal wins | 95% interval | mean worms (optimal - other)"
    print(f"| {args.variant}, 2 players | {header} |")
    print("| --- | --- | --- | --- | --- |")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for other in ("greedy", "random"):
            wins = 0.0
            worms = [0, 0]
            for seats in (["optimal", other], [other, "optimal"]):
                result = simulate(
                    args.variant,
                    2,
                    bots=seats,
                    games=args.games,
                    seed=args.seed,
                    executor=pool,
                    chunk_size=10,
                )
                me = seats.index("optimal")
                wins += float(result.wins[me])
                worms[0] += result.score_totals[me]
                worms[1] += result.score_totals[1 - me]
            games = 2 * args.games
            low, high = wilson_interval(wins, games)
            print(
                f"| optimal vs {other} | {games} | {wins / games:.1%} | {low:.1%} - {high:.1%} "
                f"| {worms[0] / games:.2f} - {worms[1] / games:.2f} |"
            )


if __name__ == "__main__":
    main()
