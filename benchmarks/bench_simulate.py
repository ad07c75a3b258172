"""Simulation throughput: games per second with 1 and N worker processes, and memory.

Scaling: ``simulate`` with ``jobs=1`` and ``jobs=N`` on the same games, interleaved
repeats, median games/s of each and the median of the paired ratios. Memory: a run asked
for 10**8 games, stopped after ``--memory-seconds``; the peak resident memory of this
process and of its workers (``getrusage``) shows that nothing is allocated per game asked.

Run: ``python benchmarks/bench_simulate.py [--games 2000] [--jobs 2] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from pickomino_rules.simulation import SimulationInterrupted, simulate


def games_per_second(games: int, jobs: int, bots: list[str], seed: int) -> float:
    """One timed run."""
    began = time.perf_counter()
    simulate("classic", players=2, bots=bots, games=games, seed=seed, jobs=jobs)
    return games / (time.perf_counter() - began)


def huge_run_memory(seconds: float, jobs: int) -> tuple[int, float, float]:
    """Ask for 10**8 games, stop after ``seconds``: (games played, own and workers' peak MB)."""
    deadline = time.perf_counter() + seconds

    def stop_in_time(_done: int) -> None:
        if time.perf_counter() > deadline:
            raise KeyboardInterrupt

    try:
        simulate("classic", games=10**8, jobs=jobs, bots=["random"], progress=stop_in_time)
    except SimulationInterrupted as stop:
        played = stop.result.games
    else:  # pragma: no cover (10**8 games do not finish)
        played = 10**8
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return played, own, workers


def main() -> None:
    """Print the scaling and memory figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--memory-seconds", type=float, default=20)
    args = parser.parse_args()
    bots = args.bots.split(",")
    print(f"cpus: {os.cpu_count()}, games per run: {args.games}, bots: {bots}")
    one: list[float] = []
    many: list[float] = []
    for round_ in range(args.repeat):
        one.append(games_per_second(args.games, 1, bots, seed=round_))
        many.append(games_per_second(args.games, args.jobs, bots, seed=round_))
        print(f"round {round_}: jobs=1 {one[-1]:7.0f} games/s, jobs={args.jobs} {many[-1]:7.0f}")
    ratios = [b / a for a, b in zip(one, many, strict=True)]
    print(
        f"median games/s: jobs=1 {statistics.median(one):.0f}, jobs={args.jobs} "
        f"{statistics.median(many):.0f}; median ratio {statistics.median(ratios):.2f} "
        f"(min {min(ratios):.2f}, max {max(ratios):.2f})"
    )
    played, own, workers = huge_run_memory(args.memory_seconds, args.jobs)
    print(
        f"10**8 games asked, stopped after {args.memory_seconds:g} s: {played} played; "
        f"peak memory {own:.0f} MB here, {workers:.0f} MB in the largest worker"
    )


if __name__ == "__main__":
    main()
