"""Measure the champion and rewrite the tables of the docs page "How strong is it".

Plays the champion against each other bot (2-player classic and extended) and at tables of
3 and 4 players, seats rotated, and times its decisions; rewrites each table between its
markers in ``docs/champion.md`` (``<!-- champion NAME -->`` ... ``<!-- end champion -->``).

Run: ``python benchmarks/champion.py [--jobs 2] [--only classic-2]``. Three tables are played
only when asked for: ``edge`` (where the champion's edge over ``margin`` is made; seven times
4,000 games, about 75 minutes on 2 cores), ``lengths-extended-2`` (whether games of the
champion against itself end, ``--games`` of them) and ``self-play`` (every bot against
itself in every game of the leaderboards, ``--games`` each; ``--leave-out`` rows played
elsewhere).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from pickomino_rules.bots import available_bots, bot_supports, get_bot
from pickomino_rules.game import new_game, play, playout
from pickomino_rules.learned import load_win_model
from pickomino_rules.positions import Position
from pickomino_rules.registry import get_rules
from pickomino_rules.research.paired import net_wins
from pickomino_rules.result import result, scores
from pickomino_rules.simulation import simulate, wilson_interval
from pickomino_rules.solver import NoTurnDecisionError, solve_turn
from pickomino_rules.state import Phase
from pickomino_rules.svg import draw

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules.actions import Action
    from pickomino_rules.rules import Rules
    from pickomino_rules.simulation import GameSummary
    from pickomino_rules.state import GameState

PAGE = Path(__file__).resolve().parent.parent / "docs" / "champion.md"
DUELS = {  # variant, opponents and games against each, and whether each dice seed is played twice
    "classic-2": ("classic", [("optimal", 2000), ("margin", 2000)], False),
    "extended-2": ("extended", [("optimal", 4000), ("margin", 4000)], True),
}
"""Paired: game ``i``'s dice (seed ``s:i``) are played from both seats, half the games each."""
TABLES = {  # line-ups at bigger tables, and games
    "classic-3": ("classic", ["champion", "optimal", "margin"], 2000),
    "classic-4": ("classic", ["champion", "optimal", "margin", "greedy"], 2000),
    "extended-3": ("extended", ["champion", "optimal", "margin"], 2000),
    "extended-4": ("extended", ["champion", "optimal", "margin", "greedy"], 2000),
}


LENGTHS = {  # (variant, players): the pairings whose games' lengths are measured
    "extended-2": [("champion", "champion")],
}
"""Where a game may not end: in extended, with 11 and 13 left and empty stacks (C10, O4)."""


def _rate(wins: float, games: int) -> str:
    low, high = wilson_interval(wins, games)
    return f"**{wins / games:.1%}** | {low:.1%} to {high:.1%}"


def duels(name: str, seed: int, jobs: int) -> str:
    variant, opponents, paired = DUELS[name]
    rows = [
        "| opponent | games | champion's wins | win rate | 95% interval |",
        "|---|---:|---:|---:|---|",
    ]
    for opponent, games in opponents:
        if paired:
            wins = sum(
                float(
                    simulate(
                        variant,
                        2,
                        bots=lineup,
                        games=games // 2,
                        seed=seed,
                        seating="fixed",
                        jobs=jobs,
                    ).wins[lineup.index("champion")]
                )
                for lineup in (["champion", opponent], [opponent, "champion"])
            )
        else:
            result = simulate(
                variant, 2, bots=["champion", opponent], games=games, seed=seed, jobs=jobs
            )
            wins = float(result.wins[0])
        rows.append(f"| `{opponent}` | {games:,} | {wins:g} | {_rate(wins, games)} |")
        print(name, opponent, rows[-1], flush=True)
    both = (
        "\n\nPaired: each seeded game's dice played from both seats, the champion first in half.\n"
    )
    return "\n".join(rows) + (both if paired else "\n")


def table(name: str, seed: int, jobs: int) -> str:
    variant, lineup, games = TABLES[name]
    result = simulate(variant, len(lineup), bots=lineup, games=games, seed=seed, jobs=jobs)
    rows = ["| bot | games | wins | win rate | 95% interval |", "|---|---:|---:|---:|---|"]
    for entry, bot in enumerate(lineup):
        wins = float(result.wins[entry])
        rows.append(f"| `{bot}` | {games:,} | {wins:g} | {_rate(wins, games)} |")
    share = 1 / len(lineup)
    return "\n".join(rows) + f"\n\nA fair share is {share:.1%}; shared wins count as fractions.\n"


def timings(name: str, seed: int, games: int = 40) -> str:
    """The champion's time per decision, and per game, over ``games`` games against ``margin``.

    The champion takes each seat in turn, ``margin`` the others (see ``lengths`` for the
    champion against itself). A game's time is the whole game's, both bots and the engine.
    """
    variant, seats = name.split("-")
    players = int(seats)
    rules, start = new_game(variant, players=players)
    champion, margin, times, game_times = get_bot("champion"), get_bot("margin"), [], []

    def timed(rules_: Rules, state: GameState, rng: random.Random) -> Action:
        began = time.perf_counter()
        move = champion(rules_, state, rng)
        times.append(time.perf_counter() - began)
        return move

    for game in range(games):
        bots = [margin] * players
        bots[game % players] = timed
        began = time.perf_counter()
        for _ in playout(rules, start, bots, random.Random(f"{seed}:{game}")):
            pass
        game_times.append(time.perf_counter() - began)
    times.sort()
    cut = statistics.quantiles(times, n=1000)
    return (
        f"| {name} | {len(times):,} | {statistics.median(times) * 1e3:.2f} | "
        f"{cut[899] * 1e3:.1f} | {cut[989] * 1e3:.1f} | {cut[998] * 1e3:.1f} | "
        f"{times[-1] * 1e3:.0f} | {statistics.median(game_times):.2f} |"
    )


def _recorder(kept: list[tuple[int, int]]) -> Callable[[GameSummary], None]:
    def record(game: GameSummary) -> None:
        kept.append((game.moves, game.turns))

    return record


def lengths(name: str, seed: int, jobs: int, games: int = 2000) -> str:
    """How long games between each pairing of ``LENGTHS[name]`` run, and whether they end.

    A game still going after 100,000 moves (decisions and rolls) is stopped and counted as
    unfinished (the limit of ``simulate``).
    """
    variant, seats = name.split("-")
    rows = [
        "| pairing | games | unfinished | median moves | longest moves | longest turns |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for pairing in LENGTHS[name]:
        figures = _lengths(variant, int(seats), list(pairing), games, seed, jobs)
        rows.append(f"| {' and '.join(f'`{bot}`' for bot in pairing)} | {games:,} | {figures} |")
        print(name, rows[-1], flush=True)
    return "\n".join(rows) + "\n"


def _lengths(  # noqa: PLR0913, PLR0917 (a simulation's settings)
    variant: str, players: int, bots: list[str], games: int, seed: int, jobs: int
) -> str:
    """Unfinished games, median moves, longest moves and turns, as table cells."""
    summaries: list[tuple[int, int]] = []
    result = simulate(
        variant,
        players,
        bots=bots,
        games=games,
        seed=seed,
        jobs=jobs,
        keep_going=True,
        on_game=_recorder(summaries),
    )
    median = statistics.median(m for m, _ in summaries)
    longest = max(summaries, default=(0, 0))
    return f"{len(result.failures)} | {median:,.0f} | {longest[0]:,} | {longest[1]:,}"


SELF_PLAY = [(variant, players) for players in (2, 3, 4) for variant in ("classic", "extended")]
"""The games of the leaderboards, where every bot that plays one plays against itself."""


def self_play(seed: int, jobs: int, games: int, leave_out: list[str]) -> str:
    """Whether games of every bot against itself end, and how long they run.

    Each bot that plays a game of ``SELF_PLAY`` takes every seat; ``leave_out`` names rows
    (``GAME:BOT``, e.g. ``extended-2:champion``) measured elsewhere.
    """
    rows = [
        "| game | bot | games | unfinished | median moves | longest moves | longest turns |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for variant, players in SELF_PLAY:
        rules = get_rules(variant)
        for name in available_bots():
            if f"{variant}-{players}:{name}" in leave_out:
                continue
            if not bot_supports(get_bot(name), rules, players):
                continue
            figures = _lengths(variant, players, [name] * players, games, seed, jobs)
            rows.append(f"| {variant}-{players} | `{name}` | {games:,} | {figures} |")
            print("self-play", rows[-1], flush=True)
    return "\n".join(rows) + "\n"


def disagreements(seed: int, games: int = 30, keep: int = 3) -> list[tuple[float, str, str, str]]:
    """Decisions of champion-vs-optimal games where the two choose differently.

    The ``keep`` with the biggest difference in the champion's chance to win (valued as it
    plays), one per pair of kinds of move: (chance gained, position line, champion's move,
    the turn solver's move).
    """
    model = load_win_model("classic", 2)
    value = model.champion_value()
    rules, start = new_game("classic", players=2)
    found: dict[tuple[str, str], tuple[float, str, str, str]] = {}
    for game in range(games):
        bots = [get_bot("champion"), get_bot("optimal")][:: 1 if game % 2 == 0 else -1]
        chances = worms = None
        for _, state in playout(rules, start, bots, random.Random(f"{seed}:{game}")):
            if state.phase not in (Phase.CHOOSE, Phase.DECIDE):
                continue
            try:
                if chances is None or not chances.covers(state):
                    chances = solve_turn(rules, state, value)
                if worms is None or not worms.covers(state):
                    worms = solve_turn(rules, state)
            except NoTurnDecisionError:
                continue
            mine, theirs = chances.best_action(state), worms.best_action(state)
            if mine == theirs:
                continue
            gain = chances.action_value(state, mine) - chances.action_value(state, theirs)
            kind = (type(mine).__name__, type(theirs).__name__)
            if gain > found.get(kind, (0.0,))[0]:
                found[kind] = (gain, str(Position(rules, state)), str(mine), str(theirs))
    return sorted(found.values(), reverse=True)[:keep]


def positions(seed: int) -> str:
    lines = []
    for number, (gain, line, mine, theirs) in enumerate(disagreements(seed), start=1):
        position = Position.parse(line)
        you = position.state.player
        names = ["you" if seat == you else "opponent" for seat in range(2)]
        svg = draw(position.rules, position.state, names=names)
        (PAGE.parent / "images" / f"champion-{number}.svg").write_text(str(svg), encoding="utf-8")
        lines.append(
            f"{number}. `{line}`: champion `{mine}`, turn solver `{theirs}` "
            f"(+{gain:.1%} chance to win, by the champion's reckoning)\n\n"
            f"    ![Position {number}: the champion plays {mine}, the turn solver {theirs}]"
            f"(images/champion-{number}.svg)\n"
        )
    return "\n".join(lines)


def _lead(rules: Rules, state: GameState) -> int:
    """The worms of the player to move less the opponent's (2 players)."""
    worms = scores(rules, state)
    return worms[state.player] - worms[1 - state.player]


ANY = range(-99, 100)
EDGE_PARTS: dict[str, tuple[range, range]] = {  # tiles on the grill, and the mover's lead
    "nowhere (the champion as shipped)": (range(0), ANY),
    "13 to 16 tiles on the grill": (range(13, 17), ANY),
    "5 to 12 tiles on the grill": (range(5, 13), ANY),
    "4 tiles or fewer on the grill": (range(5), ANY),
    "3 worms or more behind": (range(17), range(-99, -2)),
    "within 2 worms": (range(17), range(-2, 3)),
    "3 worms or more ahead": (range(17), range(3, 100)),
}


def _edge_games(part: str, seed: int, games: range) -> list[float]:
    """The champion's share of each game against ``margin``; it plays as ``margin`` in ``part``."""
    champion, margin, (tiles, leads) = get_bot("champion"), get_bot("margin"), EDGE_PARTS[part]

    def player(rules: Rules, state: GameState, rng: random.Random) -> Action:
        there = len(state.grill) in tiles and _lead(rules, state) in leads
        return (margin if there else champion)(rules, state, rng)

    rules, start = new_game("classic", players=2)
    shares = []
    for game in games:
        seat = game % 2  # seats rotated, as simulate rotates them
        bots = [player, margin] if seat == 0 else [margin, player]
        winners = result(rules, play(rules, start, bots, random.Random(f"{seed}:{game}"))).winners
        shares.append(1 / len(winners) if seat in winners else 0.0)
    return shares


def edge(seed: int, jobs: int, games: int = 4000) -> str:
    """What the champion's own play in each part of the game is worth against ``margin``.

    In each part it hands its turns to ``margin``; the same seeded games are played, so a
    game's result changes only where the two choose differently.
    """
    chunks = [range(first, min(first + 100, games)) for first in range(0, games, 100)]
    head = (
        "| the champion plays as `margin` | games changed | wins its own play there is worth "
        "| 95% interval | win rate vs `margin` | 95% interval |"
    )
    rows = [head, "|---|---:|---:|---|---:|---|"]
    shipped: list[float] = []
    with ProcessPoolExecutor(jobs) as pool:
        for part in EDGE_PARTS:
            parts, seeds = [part] * len(chunks), [seed] * len(chunks)
            shares = [s for chunk in pool.map(_edge_games, parts, seeds, chunks) for s in chunk]
            shipped = shipped or shares  # the first row: the champion as shipped
            changed, worth, spread = net_wins(shipped, shares)
            interval = f"{worth - spread:+.0f} to {worth + spread:+.0f}" if changed else ""
            rows.append(
                f"| {part} | {changed:,} | {worth:+g} | {interval} | {_rate(sum(shares), games)} |"
            )
            print("edge", rows[-1], flush=True)
    return "\n".join(rows) + f"\n\n{games:,} games each, the same for every row.\n"


def _replace(page: str, name: str, text: str) -> str:
    pattern = re.compile(rf"(<!-- champion {name} -->\n).*?(<!-- end champion -->)", re.DOTALL)
    match = pattern.search(page)
    if match is None:
        raise SystemExit(f"{PAGE} has no markers for {name}")
    return page[: match.start()] + match[1] + text + match[2] + page[match.end() :]


def main() -> None:
    """Play, time and rewrite the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", action="append", help="a table's name (repeatable)")
    parser.add_argument(
        "--games", type=int, default=2000, help="games per pairing (lengths, self-play)"
    )
    parser.add_argument(
        "--leave-out", action="append", default=[], help="a self-play row, GAME:BOT (repeatable)"
    )
    args = parser.parse_args()
    wanted = [*DUELS, *TABLES, "timing", "positions"] if not args.only else args.only
    known = {
        *DUELS,
        *TABLES,
        "timing",
        "positions",
        "edge",
        "self-play",
        *(f"lengths-{n}" for n in LENGTHS),
    }
    if unknown := [name for name in wanted if name not in known]:
        parser.error(f"no table {', '.join(unknown)}; the tables: {', '.join(sorted(known))}")
    for name in wanted:
        began = time.perf_counter()
        if name in DUELS:
            text = duels(name, args.seed, args.jobs)
        elif name in TABLES:
            text = table(name, args.seed, args.jobs)
        elif name == "positions":
            text = positions(args.seed)
        elif name == "edge":
            text = edge(args.seed, args.jobs)
        elif name == "self-play":
            text = self_play(args.seed, args.jobs, args.games, args.leave_out)
        elif name.startswith("lengths-"):
            text = lengths(name.removeprefix("lengths-"), args.seed, args.jobs, args.games)
        else:
            champion = get_bot("champion")
            shipped = [
                f"{variant}-{players}"
                for variant, players in sorted(SELF_PLAY)
                if bot_supports(champion, get_rules(variant), players)
            ]
            rows = [timings(game, args.seed) for game in shipped]
            head = (
                "| game | decisions | median ms | 90% ms | 99% ms | 99.9% ms | slowest ms "
                "| median game s |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|\n"
            )
            text = head + "\n".join(rows) + "\n"
        seconds = time.perf_counter() - began
        jobs = f"{args.jobs} job" + ("s" if args.jobs != 1 else "")
        text += f"\nSeed {args.seed}; {seconds / 60:.1f} minutes, {jobs} on 2 cores.\n"
        page = _replace(PAGE.read_text(encoding="utf-8"), name, text)  # as edited meanwhile
        PAGE.write_text(page, encoding="utf-8")
        print(name, f"{seconds:.0f} s", flush=True)
        print(text, flush=True)


if __name__ == "__main__":
    main()
