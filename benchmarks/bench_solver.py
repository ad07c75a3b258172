"""Speed of the exact turn solver (issue: exact turn solver and an optimal-turn bot).

Reports the one-off precomputation, the time to solve a turn from its start on real
boards (taken from random games), and whole games between optimal bots.

Run: ``python benchmarks/bench_solver.py [--boards 50] [--games 10]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pickomino_rules import GameState, Phase, Rules, new_game, play, playout
from pickomino_rules.bots import OptimalBot, random_bot
from pickomino_rules.solver import _program, solve_turn


def turn_starts(variant: str, count: int) -> list[tuple[Rules, GameState]]:
    """Boards at the start of a turn, from seeded random games."""
    rules, start = new_game(variant, players=3)
    found: list[GameState] = []
    seed = 0
    while len(found) < count:
        states = [after for _, after in playout(rules, start, random_bot, random.Random(seed))]
        found.extend(
            s
            for s in states[:: max(1, len(states) // 10)]
            if s.phase is Phase.ROLL and sum(s.set_aside) == 0
        )
        seed += 1
    return [(rules, s) for s in found[:count]]


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=50)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    for variant in ("classic", "extended"):
        rules, state = new_game(variant, players=2)
        _program.cache_clear()
        began = time.perf_counter()
        solve_turn(rules, state)
        print(
            f"{variant}: one-off precomputation + first solve: {time.perf_counter() - began:.3f} s"
        )
        timings = []
        for board_rules, board in turn_starts(variant, args.boards):
            began = time.perf_counter()
            solve_turn(board_rules, board).value  # noqa: B018 (the work measured)
            timings.append((time.perf_counter() - began) * 1000)
        print(
            f"{variant}: solve a turn from its start, {len(timings)} boards: "
            f"median {statistics.median(timings):.2f} ms, mean {statistics.mean(timings):.2f} ms, "
            f"max {max(timings):.2f} ms"
        )
        for seed in range(3):  # warm the precomputation for other roots (mid-turn re-solves)
            play(rules, state, OptimalBot(), random.Random(1000 + seed))
        durations = []
        for seed in range(args.games):
            began = time.perf_counter()
            play(rules, state, OptimalBot(), random.Random(seed))
            durations.append(time.perf_counter() - began)
        print(
            f"{variant}: full 2-player game between optimal bots, {args.games} games: "
            f"median {statistics.median(durations):.3f} s, "
            f"mean {statistics.mean(durations):.3f} s, max {max(durations):.3f} s"
        )


if __name__ == "__main__":
    main()
