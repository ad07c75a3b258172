"""Speed of the exact turn solver: the one-off build, a turn's solve, a game between optimal bots.

Each figure comes from a fresh process (``--worker``), so the one-off build is measured as a
user meets it:

- ``first solve``: the first ``solve_turn`` of a game's start in the process (after the
  imports), the build included;
- ``build``: the structure of a turn from its start (eight dice) built again from nothing
  (``_program``, with its cached chance tables cleared);
- ``solve``: ``solve_turn`` at the start of a turn on real mid-game boards (turn starts taken
  from seeded random games, 3 players), the median over ``--boards`` boards;
- ``game``: a whole 2-player classic game between two optimal bots (seeded), the median over
  ``--games`` games, after three games of warm-up.

Run: ``python benchmarks/bench_solver.py [--repeat 5]`` for this environment, or add
``--baseline REV`` to measure commit REV side by side (installed in a virtual environment of
its own under ``--envs``, as ``bench_play.py`` does), in interleaved rounds; the figures are
medians over the rounds with their range.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

FIGURES = ("first solve", "build", "solve", "game")
UNITS = {"build": "ms", "first solve": "ms", "solve": "ms", "game": "s"}


def measure(variant: str, boards: int, games: int) -> dict[str, float]:
    """The figures of one fresh process (only API that the baseline has too)."""
    import random  # noqa: PLC0415 (a worker's imports are part of what it measures)

    from pickomino_rules import GameState, Phase, dice, new_game, play, playout, solver  # noqa: PLC0415
    from pickomino_rules.bots import OptimalBot, random_bot  # noqa: PLC0415
    from pickomino_rules.solver import solve_turn  # noqa: PLC0415

    try:  # the solver's private parts: a package since 0.2, one module before
        from pickomino_rules.solver._nodes import (  # noqa: PLC0415
            build_program as _program,
        )
        from pickomino_rules.solver._nodes import table_arrays  # noqa: PLC0415
        from pickomino_rules.solver._solution import _key  # noqa: PLC0415
    except ImportError:
        _program, _key = solver._program, solver._key  # type: ignore[attr-defined]  # noqa: SLF001
        table_arrays = getattr(solver, "_table_arrays", None)  # type: ignore[assignment]

    rules, start = new_game(variant, players=2)
    began = time.perf_counter()
    solve_turn(rules, start)
    first = time.perf_counter() - began
    for cached in (_program, table_arrays, dice.chance_table):
        if cached is not None:
            cached.cache_clear()  # the build again from nothing, as in a fresh process
    if hasattr(dice, "roll_counts"):
        dice.roll_counts.cache_clear()
    began = time.perf_counter()
    _program(rules.die_kinds, _key(rules, start))
    build = time.perf_counter() - began

    board_rules, board_start = new_game(variant, players=3)
    found: list[GameState] = []
    seed = 0
    while len(found) < boards:
        states = [s for _, s in playout(board_rules, board_start, random_bot, random.Random(seed))]
        found.extend(
            s
            for s in states[:: max(1, len(states) // 10)]
            if s.phase is Phase.ROLL and sum(s.set_aside) == 0
        )
        seed += 1
    timings = []
    for board in found[:boards]:
        began = time.perf_counter()
        solve_turn(board_rules, board)
        timings.append(time.perf_counter() - began)

    for warm in range(3):
        play(rules, start, OptimalBot(), random.Random(1000 + warm))
    durations = []
    for game in range(games):
        began = time.perf_counter()
        play(rules, start, OptimalBot(), random.Random(game))
        durations.append(time.perf_counter() - began)
    return {
        "build": build * 1000,
        "first solve": first * 1000,
        "solve": statistics.median(timings) * 1000,
        "game": statistics.median(durations),
    }


def _worker(python: str, variant: str, boards: int, games: int) -> dict[str, float]:
    out = subprocess.run(
        [python, __file__, "--worker", variant, str(boards), str(games)],
        check=True,
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),  # the installed package, never the source tree by accident
    ).stdout
    figures: dict[str, float] = json.loads(out)
    return figures


def _spread(values: list[float], unit: str) -> str:
    digits = 3 if unit == "s" else 1
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{mid:.{digits}f} {unit} ({low:.{digits}f}-{high:.{digits}f})"


def main() -> None:
    """Print the figures, side by side with a baseline commit if asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", nargs=3, metavar=("VARIANT", "BOARDS", "GAMES"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--boards", type=int, default=50)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--variants", default="classic,extended")
    parser.add_argument("--baseline", metavar="REV")
    parser.add_argument("--envs", type=Path, default=Path(tempfile.gettempdir()) / "bench-envs")
    args = parser.parse_args()
    if args.worker:
        variant, boards, games = args.worker
        print(json.dumps(measure(variant, int(boards), int(games))))
        return
    pythons: dict[str, str] = {"this": sys.executable}
    if args.baseline:
        from bench_play import REPO, _checkout, _install, _run  # noqa: PLC0415

        rev = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", args.baseline],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        with tempfile.TemporaryDirectory() as scratch:
            env = args.envs / f"solver-baseline-{rev}"
            baseline = _install(_checkout(rev, Path(scratch) / "baseline"), env)
            _run([str(baseline), "-m", "pip", "install", "-q", "numpy"])  # the solver extra
        pythons = {rev: str(baseline), "this": sys.executable}
    for variant in args.variants.split(","):
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in pythons}
        for index in range(args.repeat):
            order = list(pythons.items()) if index % 2 == 0 else list(pythons.items())[::-1]
            for name, python in order:
                runs[name].append(_worker(str(python), variant, args.boards, args.games))
        print(f"{variant}: medians of {args.repeat} fresh processes (range)")
        for figure in FIGURES:
            cells = [
                f"{name}: {_spread([run[figure] for run in runs[name]], UNITS[figure])}"
                for name in pythons
            ]
            ratio = ""
            if len(pythons) == 2:
                old, new = (statistics.median(r[figure] for r in runs[n]) for n in pythons)
                ratio = f"  {old / new:.1f}x faster"
            print(f"  {figure:<12} " + "   ".join(cells) + ratio)


if __name__ == "__main__":
    main()
