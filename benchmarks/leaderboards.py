"""Regenerate the leaderboards on the docs page "How strong are the bots".

Plays a tournament of every registered and installed bot that plays the game (2-player
classic, then 2-player extended), seats rotated, and rewrites each table between its markers
in ``docs/leaderboard.md`` (``<!-- leaderboard NAME -->`` ... ``<!-- end leaderboard -->``).

Run: ``python benchmarks/leaderboards.py [--games 1000] [--jobs 2] [--only NAME]
[--leave-out BOT ...]``.
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from pickomino_rules.bots import available_bots
from pickomino_rules.simulation import tournament

PAGE = Path(__file__).resolve().parent.parent / "docs" / "leaderboard.md"
BOARDS = {"classic-2": ("classic", 2), "extended-2": ("extended", 2)}


def main() -> None:
    """Play the tournaments and rewrite the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pair of bots")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=sorted(BOARDS), help="regenerate one table")
    parser.add_argument(
        "--leave-out",
        action="append",
        default=[],
        metavar="BOT",
        help="a bot to leave out of the tables (repeatable); the table says so",
    )
    args = parser.parse_args()
    unknown = sorted(set(args.leave_out) - set(available_bots()))
    if unknown:
        parser.error(f"--leave-out: no bot named {', '.join(unknown)}")
    bots = [bot for bot in available_bots() if bot not in args.leave_out]
    page = PAGE.read_text(encoding="utf-8")
    for name, (variant, players) in BOARDS.items():
        if args.only and name != args.only:
            continue
        began = time.perf_counter()
        outcome = tournament(
            variant,
            players,
            bots=bots,
            games=args.games,
            seed=args.seed,
            jobs=args.jobs,
        )
        seconds = time.perf_counter() - began
        note = (
            f"\n{args.games:,} games per pair, seats rotated, seed {args.seed}"
            f" ({seconds / 60:.0f} minutes with {args.jobs} jobs)"
            + (f"; not playing this game: {', '.join(outcome.skipped)}" if outcome.skipped else "")
            + (f"; left out: {', '.join(args.leave_out)}" if args.leave_out else "")
            + ".\n"
        )
        table = outcome.markdown() + note
        pattern = re.compile(
            rf"(<!-- leaderboard {name} -->\n).*?(<!-- end leaderboard -->)", re.DOTALL
        )
        match = pattern.search(page)
        if match is None:
            raise SystemExit(f"{PAGE} has no markers for {name}")
        page = page[: match.start()] + match[1] + table + match[2] + page[match.end() :]
        print(f"{name}: {seconds:.0f} s")
        print(table)
    PAGE.write_text(page, encoding="utf-8")


if __name__ == "__main__":
    main()
