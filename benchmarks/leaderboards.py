"""Regenerate the leaderboards on the docs page "How strong are the bots".

Plays a tournament of every registered and installed bot that plays the game (classic and
extended, 2, 3 and 4 players), seats rotated, and rewrites each table between its markers
in ``docs/leaderboard.md`` (``<!-- leaderboard NAME -->`` ... ``<!-- end leaderboard -->``)
as soon as it is played; with every table played, the line between
``<!-- leaderboards time -->`` markers says how long the whole run took.

Run: ``python benchmarks/leaderboards.py [--games N] [--jobs 2] [--only NAME]
[--leave-out BOT ...]`` (every table by default, with the games of `GAMES`).
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from pickomino_rules.bots import available_bots
from pickomino_rules.simulation import tournament

PAGE = Path(__file__).resolve().parent.parent / "docs" / "leaderboard.md"
BOARDS = {
    f"{variant}-{players}": (variant, players)
    for players in (2, 3, 4)
    for variant in ("classic", "extended")
}
GAMES = {name: 2000 if players == 2 else 2004 for name, (_, players) in BOARDS.items()}
"""Games per table, unless ``--games`` says otherwise: at least 2,000 a pair or table, and a
multiple of the players (2,004 = 12 x 167 for 3 and 4), so that every bot sits in every seat
alike."""


def main() -> None:
    """Play the tournaments and rewrite the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--games",
        type=int,
        help="games per table (default: 2,000 a pair, 2,004 a table of 3 or 4)",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=list(BOARDS), help="regenerate one table")
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
    started = time.perf_counter()
    for name, (variant, players) in BOARDS.items():
        if args.only and name != args.only:
            continue
        games = args.games or GAMES[name]
        began = time.perf_counter()
        outcome = tournament(
            variant, players, bots=bots, games=games, seed=args.seed, jobs=args.jobs
        )
        seconds = time.perf_counter() - began
        each = "pair" if players == 2 else f"table of {players}"
        longest = max(outcome.tables, key=lambda table: table.longest_game)
        note = (
            f"\n{games:,} games per {each}, seats rotated, seed {args.seed}"
            f" ({seconds / 60:.0f} minutes with {args.jobs} jobs); every game ended, the longest"
            f" in {longest.longest_game:,} moves ({', '.join(longest.bots)})"
            + (f"; not playing this game: {', '.join(outcome.skipped)}" if outcome.skipped else "")
            + (f"; left out: {', '.join(args.leave_out)}" if args.leave_out else "")
            + ".\n"
        )
        table = outcome.markdown() + note
        rewrite(name, table)
        print(f"{name}: {seconds:.0f} s")
        for played in outcome.tables:  # every table's longest game, for the record
            print(f"  {', '.join(played.bots)}: longest game {played.longest_game:,} moves")
        print(table, flush=True)
    if not args.only:
        minutes = (time.perf_counter() - started) / 60
        line = f"All six tables take {minutes:.0f} minutes with {args.jobs} jobs on 2 cores.\n"
        rewrite("time", line, marker="leaderboards time")


def rewrite(name: str, text: str, marker: str = "leaderboard") -> None:
    """Put ``text`` between the page's markers of ``name``, and save the page at once."""
    page = PAGE.read_text(encoding="utf-8")
    tag = marker if name == "time" else f"{marker} {name}"
    end = "end leaderboards time" if name == "time" else "end leaderboard"
    pattern = re.compile(rf"(<!-- {tag} -->\n).*?(<!-- {end} -->)", re.DOTALL)
    match = pattern.search(page)
    if match is None:
        raise SystemExit(f"{PAGE} has no markers for {name}")
    page = page[: match.start()] + match[1] + text + match[2] + page[match.end() :]
    PAGE.write_text(page, encoding="utf-8")


if __name__ == "__main__":
    main()
