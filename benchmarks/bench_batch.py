"""Throughput of the batch engine against the reference engine, on one core.

Both play random legal moves in games of one variant (``--variant``: classic, extended or
extrawurm); a step is a decision or a roll of the dice
(as ``bench_play.py`` counts the reference engine's steps: chance nodes are steps). The
reference engine plays ``bench_play.play_games`` (``legal_actions`` + ``apply``, dice drawn
with ``sample_chance``); the batch engine plays N games in lockstep with the vectorised
random bot, resetting finished games in the same step.

For N = 1, 10, 100, ... the batch runs for about ``--seconds`` each, in rounds interleaved
with reference runs (this machine is noisy); the figures are medians over ``--repeat``
rounds, with the spread, and the speed-up is the median of the per-round ratios.

Memory per game: the batch's arrays (what the games themselves hold) and the peak of
Python's allocations during a step (tracemalloc: the temporaries of a step), both per game.

Run: ``python benchmarks/bench_batch.py [--variant classic] [--seconds 1] [--repeat 5]
[--players 2] [--sizes 1000,10000]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_play import play_games

from pickomino_rules.batch import BatchGames
from pickomino_rules.batch_bots import random_actions

SIZES = (1, 10, 100, 1_000, 10_000, 100_000)


def reference_rate(variant: str, players: int, seconds: float) -> float:
    """Steps per second of the reference engine under random play."""
    probe = play_games("random", variant, players, 2, first_seed=10_000)
    games = max(2, round(seconds / max(probe["seconds"] / 2, 1e-3)))
    run = play_games("random", variant, players, games, first_seed=int(time.time()) % 1000)
    return run["steps"] / run["seconds"]


def batch_rate(variant: str, size: int, players: int, seconds: float, seed: int) -> float:
    """Steps per second of ``size`` games in lockstep (after a short warm-up)."""
    rolled = [0]

    def count(rows: np.ndarray, _counts: np.ndarray) -> None:
        rolled[0] += len(rows)

    games = BatchGames(size, players, variant=variant, seed=seed, on_roll=count)
    rng = np.random.default_rng(seed)
    for _ in range(20):
        games.step(random_actions(games, rng))
    rolled[0] = decisions = 0
    began = time.perf_counter()
    while True:
        for _ in range(10):
            games.step(random_actions(games, rng))
            decisions += size
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return (decisions + rolled[0]) / elapsed


def memory_per_game(variant: str, size: int, players: int) -> tuple[float, float]:
    """Bytes per game: the batch's arrays, and the peak of a step's allocations."""
    games = BatchGames(size, players, variant=variant, seed=1)
    arrays = [*vars(games).values(), *vars(games.table).values()]
    arrays += [a for part in games.table.parts.values() for a in part.values()]
    held = sum(a.nbytes for a in arrays if isinstance(a, np.ndarray) and a.shape[:1] == (size,))
    rng = np.random.default_rng(1)
    games.step(random_actions(games, rng))
    tracemalloc.start()
    for _ in range(10):
        games.step(random_actions(games, rng))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return held / size, peak / size


def main() -> None:
    """Print the curve over N, the speed-ups and the memory per game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--sizes", type=lambda text: [int(n) for n in text.split(",")])
    args = parser.parse_args()
    sizes = args.sizes or list(SIZES)
    print(f"Python {sys.version.split()[0]}, numpy {np.__version__} on {platform.machine()}")
    print(f"{os.cpu_count()} cpus, one used; {args.variant}, {args.players} players, random play")
    print(f"{args.repeat} interleaved rounds of ~{args.seconds:g} s per engine and size")
    reference: list[float] = []
    rates: dict[int, list[float]] = {size: [] for size in sizes}
    ratios: dict[int, list[float]] = {size: [] for size in sizes}
    for round_ in range(args.repeat):
        base = reference_rate(args.variant, args.players, args.seconds)
        reference.append(base)
        for size in sizes:
            rate = batch_rate(args.variant, size, args.players, args.seconds, seed=round_)
            rates[size].append(rate)
            ratios[size].append(rate / base)
    print()
    print(
        f"reference engine: {statistics.median(reference):>12,.0f} steps/s "
        f"({min(reference):,.0f}-{max(reference):,.0f})"
    )
    print()
    print(
        f"{'N':>8}{'steps/s':>14}{'(min-max)':>26}{'x reference':>14}{'(min-max)':>16}"
        f"{'B/game held':>13}{'B/game step':>13}"
    )
    for size in sizes:
        held, peak = memory_per_game(args.variant, size, args.players)
        low, high = min(rates[size]), max(rates[size])
        print(
            f"{size:>8,}{statistics.median(rates[size]):>14,.0f}"
            f"{f'({low:,.0f}-{high:,.0f})':>26}"
            f"{statistics.median(ratios[size]):>13.1f}x"
            f"{f'({min(ratios[size]):.1f}-{max(ratios[size]):.1f})':>16}"
            f"{held:>13,.0f}{peak:>13,.0f}"
        )


if __name__ == "__main__":
    main()
