"""Throughput of the reference engine: random play and "never stop pointlessly" games.

A step is one ``legal_actions`` call plus one ``apply`` call, at decisions and at
chance nodes alike (a chance outcome is drawn with ``sample_chance``, exactly).

Two policies, both drawing from one ``random.Random(seed)`` per game:

- ``random``: a uniformly random legal move;
- ``sensible``: the same, but never a stop without a claim (a bust) while anything
  else is legal.

Run: ``python benchmarks/bench_play.py [--seconds 2]`` for this environment's figures,
``--breakdown`` for where a step's time goes, or
``python benchmarks/bench_play.py --baseline REV`` to compare side by side with commit REV:
the working tree and REV are each installed (not editable, so the working tree's hot path is
compiled where a C compiler is found) in a virtual environment of their own under ``--envs``
and play the same games (seeds 0, 1, ...) in fresh processes,
interleaved, alternating which goes first. The figures are medians of the paired ratios
(working tree over REV) of steps per second and of games per second, with their spread. The
games can differ a little between versions when a rule's reading changed between them (the
C8 clarification made ``stop`` legal when a steal is the only claim), so both rates are shown.
With ``PICKOMINO_PURE=1`` in the environment the working tree plays on its pure-Python engine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

REPO = Path(__file__).resolve().parent.parent
Workload = tuple[str, str, int]
"""A policy, a variant and a number of players."""
WORKLOADS: list[Workload] = [
    (policy, variant, players)
    for policy in ("random", "sensible")
    for variant in ("classic", "extended", "extrawurm")
    for players in (2, 4)
]


def play_games(  # noqa: PLR0913, PLR0917 (a worker's whole command line)
    policy: str, variant: str, players: int, games: int, first_seed: int = 0, warm_up: int = 10
) -> dict[str, float]:
    """Play ``games`` games (seeds ``first_seed``...): elapsed seconds, steps and a checksum.

    ``warm_up`` games (other seeds), then the timed games themselves, are played first,
    untimed, so that the one-off work (chance tables, caches) is not counted: the figures are
    steady-state throughput. (Ten warm-up games alone were not enough where a variant deals
    its own dice: the golden die's pools still had tables to build well into the timed games,
    a fifth of their time.)
    Only public API that every version since 0.1 has, so that any commit can run it.
    """
    from pickomino_rules import (  # noqa: PLC0415 (imported in the environment measured)
        Move,
        Phase,
        apply,
        legal_actions,
        new_game,
        sample_chance,
        stop_claims,
    )
    from pickomino_rules.actions import STOP  # noqa: PLC0415

    rules, start = new_game(variant, players=players)
    roll, decide, over = Phase.ROLL, Phase.DECIDE, Phase.GAME_OVER
    sensible = policy == "sensible"
    steps = checksum = 0
    began = time.perf_counter()
    timed = list(range(first_seed, first_seed + games))
    seeds = [*range(-warm_up, 0), *timed, *timed]
    for number, seed in enumerate(seeds):
        if number == warm_up + games:  # the timed pass starts
            steps = checksum = 0
            began = time.perf_counter()
        rng = random.Random(seed)
        choice = rng.choice
        state = start
        while state.phase is not over:
            move: Move
            actions = legal_actions(rules, state)
            if state.phase is roll:
                move = sample_chance(rules, state, rng)
            elif (
                sensible
                and state.phase is decide
                and len(actions) > 1
                and STOP in actions
                and not stop_claims(rules, state)
            ):
                move = choice([action for action in actions if action is not STOP])
            else:
                move = choice(actions)
            state = apply(rules, state, move)
            steps += 1
        checksum = (checksum * 31 + hash(tuple(map(tuple, state.stacks)))) % 2**61
    return {"seconds": time.perf_counter() - began, "steps": steps, "checksum": checksum}


def _install(source: Path, env: Path) -> Path:
    """A virtual environment at ``env`` with ``source`` installed (not editable)."""
    python = env / "bin" / "python"
    if not python.exists():
        _run([sys.executable, "-m", "venv", str(env)])
        _run([str(python), "-m", "pip", "install", "-q", str(source)])
    else:  # the dependencies are there: replace the package alone
        _run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "-q",
                "--force-reinstall",
                "--no-deps",
                str(source),
            ]
        )
    return python


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")


def _checkout(rev: str, into: Path) -> Path:
    """The files of commit ``rev``, extracted to ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", rev],
        check=True,
        capture_output=True,
    ).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def _worker(python: Path, workload: Workload, games: int) -> dict[str, float]:
    """Run ``play_games`` in a fresh process of ``python``."""
    policy, variant, players = workload
    out = subprocess.run(
        [str(python), __file__, "--worker", policy, variant, str(players), str(games)],
        check=True,
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),  # never import the source tree by accident
    ).stdout
    result: dict[str, float] = json.loads(out)
    return result


def compare(
    baseline: str, envs: Path, seconds: float, repeat: int, workloads: list[Workload]
) -> None:
    """Measure the working tree against commit ``baseline``, side by side."""
    rev = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", baseline],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as scratch:
        print(f"installing {rev} and the working tree in {envs} ...", flush=True)
        old = _install(_checkout(rev, Path(scratch) / "baseline"), envs / f"baseline-{rev}")
        tree = Path(scratch) / "tree"
        leftovers = (".git", ".venv", "site", "build", "*.so", "*.c")  # built here
        shutil.copytree(REPO, tree, ignore=shutil.ignore_patterns(*leftovers))
        new = _install(tree, envs / "working-tree")
    print(f"Python {sys.version.split()[0]} on {platform.machine()}, {os.cpu_count()} cpus")
    print(f"{repeat} interleaved repeats of ~{seconds:g} s each (working tree's time)")
    print()
    print("steps/game and steps/s: REV, then the working tree; speed-ups: median (min-max)")
    print(
        f"{'policy':<9}{'variant':<10}{'pl':>2}{'games':>6}{'steps/game':>13}"
        f"{'steps/s':>20}{'steps/s ratio':>21}{'games/s ratio':>21}"
    )
    for workload in workloads:
        probe = _worker(new, workload, 2)
        games = max(2, round(2 * seconds / max(probe["seconds"], 1e-3)))
        old_rates: list[float] = []
        new_rates: list[float] = []
        step_ratios: list[float] = []
        game_ratios: list[float] = []
        lengths: list[tuple[float, float]] = []
        for index in range(repeat):
            order = (old, new) if index % 2 == 0 else (new, old)
            runs = {python: _worker(python, workload, games) for python in order}
            base, mine = runs[old], runs[new]
            old_rates.append(base["steps"] / base["seconds"])
            new_rates.append(mine["steps"] / mine["seconds"])
            step_ratios.append(new_rates[-1] / old_rates[-1])
            game_ratios.append(base["seconds"] / mine["seconds"])
            lengths.append((base["steps"] / games, mine["steps"] / games))
        policy, variant, players = workload
        print(
            f"{policy:<9}{variant:<10}{players:>2}{games:>6}"
            f"{statistics.median(b for b, _ in lengths):>7,.0f}"
            f"{statistics.median(n for _, n in lengths):>6,.0f}"
            f"{statistics.median(old_rates):>10,.0f}{statistics.median(new_rates):>10,.0f}"
            f"{_spread(step_ratios)}{_spread(game_ratios)}",
            flush=True,
        )


def _spread(ratios: list[float]) -> str:
    return f"{statistics.median(ratios):>7.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"


def breakdown(variant: str, players: int, games: int) -> None:
    """Where a random-play step's time goes, per call, and the loop's own cost.

    Each call of the loop is timed on its own (the timing's own bookkeeping, measured, is
    taken off); timing inflates short calls, so read the shares rather than the sum. Then
    the same loop runs on a stub engine that replays a recorded game by dictionary lookups:
    what is left when the engine costs almost nothing.
    """
    from pickomino_rules import (  # noqa: PLC0415
        Move,
        Phase,
        apply,
        legal_actions,
        new_game,
        sample_chance,
    )

    rules, start = new_game(variant, players=players)
    clock = time.perf_counter
    names = ("legal_actions", "sample_chance", "rng.choice", "apply: roll", "apply: take")
    spent = dict.fromkeys((*names, "apply: decide"), 0.0)
    calls = dict.fromkeys(spent, 0)
    steps = 0
    for seed in [-2, -1, *range(games)]:
        if seed == 0:
            spent, calls, steps = dict.fromkeys(spent, 0.0), dict.fromkeys(spent, 0), 0
        rng = random.Random(seed)
        state = start
        while state.phase is not Phase.GAME_OVER:
            began = clock()
            actions = legal_actions(rules, state)
            spent["legal_actions"] += clock() - began
            calls["legal_actions"] += 1
            phase = state.phase
            move: Move
            began = clock()
            if phase is Phase.ROLL:
                move = sample_chance(rules, state, rng)
                chooser, kind = "sample_chance", "apply: roll"
            else:
                move = rng.choice(actions)
                chooser = "rng.choice"
                kind = "apply: take" if phase is Phase.CHOOSE else "apply: decide"
            spent[chooser] += clock() - began
            calls[chooser] += 1
            began = clock()
            state = apply(rules, state, move)
            spent[kind] += clock() - began
            calls[kind] += 1
            steps += 1
    timer = _timing_cost(clock)
    print(f"{variant}, {players} players, {games} random games, {steps:,} steps")
    print(f"{'call':<16}{'us/call':>9}{'calls/step':>12}{'us/step':>9}")
    engine = 0.0
    for name in spent:
        per_call = spent[name] / max(calls[name], 1) - timer
        per_step = per_call * calls[name] / steps
        engine += per_step if name != "rng.choice" else 0.0
        print(f"{name:<16}{per_call * 1e6:>9.2f}{calls[name] / steps:>12.2f}{per_step * 1e6:>9.2f}")
    floor = _stub_loop(rules, start)
    print(f"the loop on a stub engine: {floor * 1e6:.2f} us/step ({1 / floor:,.0f} steps/s)")
    print(f"the engine's calls (all but rng.choice): {engine * 1e6:.2f} us/step")


def _timing_cost(clock: Callable[[], float]) -> float:
    """Seconds one timed call adds by being timed as `breakdown` times it (its bookkeeping)."""
    spent = {"call": 0.0}
    calls = {"call": 0}
    best = float("inf")
    for _ in range(5):
        spent["call"], calls["call"] = 0.0, 0
        for _ in range(100_000):
            began = clock()
            spent["call"] += clock() - began
            calls["call"] += 1
        best = min(best, spent["call"] / calls["call"])
    return best


def _stub_loop(rules: object, start: object) -> float:
    """Seconds per step of the benchmark's loop when the engine replays one recorded game."""
    from pickomino_rules import Phase, apply, legal_actions, sample_chance  # noqa: PLC0415

    rng = random.Random(0)
    state: Any = start
    offered: dict[int, object] = {}
    drawn: dict[int, object] = {}
    after: dict[int, object] = {}
    while state.phase is not Phase.GAME_OVER:
        actions = legal_actions(rules, state)  # type: ignore[arg-type]
        move = (
            sample_chance(rules, state, rng)  # type: ignore[arg-type]
            if state.phase is Phase.ROLL
            else rng.choice(actions)
        )
        key = id(state)
        offered[key], drawn[key] = actions, move
        state = after[key] = apply(rules, state, move)  # type: ignore[arg-type]

    def stub_legal(_rules: object, at: object) -> Any:  # noqa: ANN401
        return offered[id(at)]

    def stub_sample(_rules: object, at: object, source: random.Random) -> Any:  # noqa: ANN401
        source.random()
        return drawn[id(at)]

    def stub_apply(_rules: object, at: object, _move: object) -> Any:  # noqa: ANN401
        return after[id(at)]

    roll, over = Phase.ROLL, Phase.GAME_OVER
    steps = 0
    began = time.perf_counter()
    for _ in range(20):
        rng = random.Random(1)
        choice = rng.choice
        state = start
        while state.phase is not over:
            actions = stub_legal(rules, state)
            if state.phase is roll:  # noqa: SIM108 (the same shape as the measured loop)
                move = stub_sample(rules, state, rng)
            else:
                move = choice(actions)
            state = stub_apply(rules, state, move)
            steps += 1
    return (time.perf_counter() - began) / steps


def here(seconds: float, repeat: int, workloads: list[Workload]) -> None:
    """This environment's figures: steps/s and games/s per workload, and each variant's pace
    against classic's with the same policy and players (runs interleaved, medians of the
    per-round ratios)."""
    print(f"Python {sys.version.split()[0]} on {platform.machine()}")
    games: dict[Workload, int] = {}
    for workload in workloads:
        probe = play_games(*workload, games=1)
        games[workload] = max(1, round(seconds / max(probe["seconds"], 1e-3)))
    steps: dict[Workload, list[float]] = {workload: [] for workload in workloads}
    per_game: dict[Workload, list[float]] = {workload: [] for workload in workloads}
    for r in range(repeat):
        order = workloads if r % 2 == 0 else workloads[::-1]
        for workload in order:
            run = play_games(*workload, games=games[workload], first_seed=r * games[workload])
            steps[workload].append(run["steps"] / run["seconds"])
            per_game[workload].append(games[workload] / run["seconds"])
    for workload in workloads:
        policy, variant, players = workload
        classic = (policy, "classic", players)
        pace = ""
        if variant != "classic" and classic in steps:
            ratios = [a / b for a, b in zip(steps[workload], steps[classic], strict=True)]
            pace = (
                f", {statistics.median(ratios):.2f}x classic ({min(ratios):.2f}-{max(ratios):.2f})"
            )
        rate = statistics.median(steps[workload])
        print(
            f"{policy:<9}{variant:<10}{players} players: {rate:>9,.0f} "
            f"steps/s, {statistics.median(per_game[workload]):>7,.1f} games/s{pace} "
            f"(median of {repeat})",
            flush=True,
        )


def main() -> None:
    """Parse the command line and run."""
    if sys.argv[1:2] == ["--worker"]:
        policy, variant, players, games = sys.argv[2:6]
        print(json.dumps(play_games(policy, variant, int(players), int(games))))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per run")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (medians shown)")
    parser.add_argument("--baseline", metavar="REV", help="compare with this commit")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="where a random-play step's time goes (per call, and the loop's own cost)",
    )
    parser.add_argument(
        "--envs",
        type=Path,
        default=Path(tempfile.gettempdir()) / "pickomino-bench-envs",
        help="where the two environments live (reused between runs)",
    )
    parser.add_argument("--policy", choices=("random", "sensible"), help="only this policy")
    parser.add_argument(
        "--variant", choices=("classic", "extended", "extrawurm"), help="only this variant"
    )
    parser.add_argument("--players", type=int, choices=(2, 4), help="only this many players")
    args = parser.parse_args()
    workloads = [
        (policy, variant, players)
        for policy, variant, players in WORKLOADS
        if args.policy in (None, policy)
        and args.variant in (None, variant)
        and args.players in (None, players)
    ]
    if args.breakdown:
        for variant in (
            ("classic", "extended", "extrawurm") if args.variant is None else (args.variant,)
        ):
            breakdown(variant, args.players or 2, 60 if variant == "classic" else 20)
            print()
    elif args.baseline:
        compare(args.baseline, args.envs, args.seconds, args.repeat, workloads)
    else:
        here(args.seconds, args.repeat, workloads)


if __name__ == "__main__":
    main()
