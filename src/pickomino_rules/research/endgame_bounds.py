"""Bracket the chance to win from an endgame table: perfect play, and bots against it.

The whole game is far too large to solve, and even from a table with one tile left on the
grill the game can reach tens of thousands of tables (a bust puts a tile back, a steal moves
one, and each bust uncovers the tile below). But the chance to win from such a table can be
bracketed. Up to ``--tables`` of the tables the game can reach from it are taken, through
every way each turn can end; a table beyond them may be worth anything from 0 to 1.
Interval value iteration then values every table twice, once with the tables beyond worth 0
to the root's mover and once with them worth 1, each turn solved exactly by the turn
solver. Both start at 0 and 1 and only close in (the sweeps are monotone), so after any
number of sweeps the true chance lies between them; they close in as far as the chance that
the game leaves the tables allows.

Which tables are taken decides how far they close in, never whether the bounds hold. By
default (``--cut likeliest``) they are the likeliest to be reached: best first, a table's
weight the most likely way to it, each turn's ends weighed by how often the champion's model
(one turn deep) or ``margin`` plays to them, and an end neither plays to by a millionth.
``--cut nearest`` takes them breadth first, nearest in turns; at the same number of tables
its brackets are two to three times as wide.

Players: ``perfect`` (both seats play every turn for the true chance to win), and each bot
of ``--bots`` in the root's mover's seat against a perfect opponent (``champion``: the
shipped model, played as the champion plays it; ``margin``, ``optimal``: their turn values).
A tie of a bot's turn value within a turn goes the way best for it, as in
``small_games.py``. No bot wins more than perfect play against a perfect opponent: the
bounds are checked against each other, and the run fails where they cross.

Run: ``python -m pickomino_rules.research.endgame_bounds --games 6`` (the docs' table: each
root about 20
minutes on one core with 10,000 tables) or ``--position "classic 27 ..."`` (a position line,
repeatable). Each line is printed as soon as it is known.
The roots of ``--games N`` are the first table with one tile left (``--tiles``) of
champion-``margin`` games ``0`` to ``N - 1`` (game ``i`` seeded ``{seed}:i``, seats
alternating).
"""

from __future__ import annotations

import argparse
import collections
import heapq
import random
import sys
import time
from typing import TYPE_CHECKING

from pickomino_rules import GameState, is_terminal, new_game, playout, result
from pickomino_rules.bots import get_bot
from pickomino_rules.learned import load_win_model
from pickomino_rules.positions import Position, PositionError
from pickomino_rules.research.small_games import LEXICAL, turn_ends
from pickomino_rules.solver import TurnValue, margin_gained, solve_turn, worms_gained
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from pickomino_rules.rules import Rules


__all__ = [
    "BUMP",
    "TOLERANCE",
    "UNPLAYED",
    "Bracket",
    "end_chances",
    "endgame_roots",
    "likeliest",
    "main",
    "nearest",
    "report",
]

TOLERANCE = 1e-7
"""Sweeps stop when the root's bounds move less than this (they are valid before, too)."""


def endgame_roots(rules: Rules, games: int, seed: str, tiles: int) -> list[GameState]:
    """The first table with ``tiles`` tiles left of each champion-``margin`` game."""
    champion, margin = get_bot("champion"), get_bot("margin")
    _, start = new_game(rules.name, players=2)
    roots = []
    for index in range(games):
        bots = [champion, margin] if index % 2 == 0 else [margin, champion]
        before = start
        for _, state in playout(rules, start, bots, random.Random(f"{seed}:{index}")):
            between = state.player != before.player and state.phase is not Phase.GAME_OVER
            if between and len(state.grill) == tiles:
                roots.append(state)
                break
            before = state
    return roots


UNPLAYED = 1e-6
"""The weight of an end that no guide of ``likeliest`` plays to: perfect play might."""

BUMP = 1e-6
"""What ``end_chances`` adds to one end's value to read off how often a turn ends there."""


def _order(end: GameState) -> tuple[object, ...]:
    """A fixed order of tables, so a cut does not move if the solver asks in another order."""
    return (end.player, end.grill, end.face_down, end.stacks)


def nearest(rules: Rules, root: GameState, limit: int) -> dict[GameState, int]:
    """The tables reachable from ``root``, nearest (in turns) first: ``limit`` at most."""
    index = {root: 0}
    queue = collections.deque([root])
    while queue:
        for end in sorted(turn_ends(rules, queue.popleft()), key=_order):
            if not is_terminal(rules, end) and end not in index:
                if len(index) == limit:
                    return index
                index[end] = len(index)
                queue.append(end)
    return index


def end_chances(rules: Rules, state: GameState, value: TurnValue) -> dict[GameState, float]:
    """How often the turn from ``state``, played for ``value``, ends on each table.

    One turn solve per end: adding a little to one end's value adds that little times the
    chance of ending there (a tie between ends goes to the one bumped).
    """
    base = solve_turn(rules, state, value).value
    chances = {}
    for end in turn_ends(rules, state):
        chance = (solve_turn(rules, state, _bumped(value, end)).value - base) / BUMP
        chances[end] = min(max(chance, 0.0), 1.0)
    return chances


def _bumped(value: TurnValue, bumped: GameState) -> TurnValue:
    def more(rules: Rules, start: GameState, end: GameState, total: int | None) -> float:
        return value(rules, start, end, total) + (BUMP if end == bumped else 0.0)

    return more


def likeliest(
    rules: Rules, root: GameState, limit: int, guides: Sequence[TurnValue]
) -> dict[GameState, int]:
    """The ``limit`` tables likeliest to be reached from ``root`` (at most), likeliest first.

    Best first: a table's weight is the product of the chances along the likeliest way to
    it, each turn's end weighed by the guide that plays to it most often (``UNPLAYED``
    where none does).
    """
    weight = {root: 1.0}
    heap = [(-1.0, 0, root)]
    taken: dict[GameState, int] = {}
    pushed = 0
    while heap and len(taken) < limit:
        _, _, state = heapq.heappop(heap)
        if state in taken:
            continue
        taken[state] = len(taken)
        chances: dict[GameState, float] = {}
        for guide in guides:
            for end, chance in end_chances(rules, state, guide).items():
                chances[end] = max(chances.get(end, 0.0), chance)
        for end in sorted(chances, key=_order):
            if is_terminal(rules, end) or end in taken:
                continue
            reach = weight[state] * max(chances[end], UNPLAYED)
            if reach > weight.get(end, 0.0):
                weight[end] = reach
                pushed += 1  # ties of weight go in the order pushed, itself fixed
                heapq.heappush(heap, (-reach, pushed, end))
    return taken


class Bracket:
    """The lower and upper chance of ``seat`` at every table, ``bot`` in ``seat``.

    ``bot`` None: ``seat`` plays perfectly too. The other seat plays for its own chance.
    """

    def __init__(
        self, rules: Rules, tables: dict[GameState, int], seat: int, bot: TurnValue | None
    ) -> None:
        self.rules, self.tables, self.seat = rules, tables, seat
        self.bot = None if bot is None else _remembered(bot)
        self.low = [0.0] * len(tables)
        self.high = [1.0] * len(tables)
        self._bot_alone: dict[int, float] = {}

    def _chance(self, end: GameState, bounds: list[float], beyond: float) -> float:
        if is_terminal(self.rules, end):
            winners = result(self.rules, end).winners
            return 1.0 / len(winners) if self.seat in winners else 0.0
        number = self.tables.get(end)
        return beyond if number is None else bounds[number]

    def _value(self, state: GameState, number: int, bounds: list[float], beyond: float) -> float:
        """One table's chance for ``seat``, its turn solved with ``bounds`` after it."""
        rules, bot = self.rules, self.bot
        if state.player != self.seat:  # the opponent plays for his own chance

            def his(_r: Rules, _s: GameState, end: GameState, _t: int | None) -> float:
                return 1.0 - self._chance(end, bounds, beyond)

            return 1.0 - solve_turn(rules, state, his).value
        if bot is None:

            def mine(_r: Rules, _s: GameState, end: GameState, _t: int | None) -> float:
                return self._chance(end, bounds, beyond)

            return solve_turn(rules, state, mine).value

        def lexical(r: Rules, s: GameState, end: GameState, total: int | None) -> float:
            return LEXICAL * bot(r, s, end, total) + self._chance(end, bounds, beyond)

        alone = self._bot_alone.get(number)
        if alone is None:
            alone = self._bot_alone[number] = solve_turn(rules, state, bot).value
        return solve_turn(rules, state, lexical).value - LEXICAL * alone

    def sweep(self) -> None:
        """Every table once, the farthest first (Gauss-Seidel: the root last)."""
        for state, number in sorted(self.tables.items(), key=lambda item: -item[1]):
            self.low[number] = self._value(state, number, self.low, 0.0)
            self.high[number] = self._value(state, number, self.high, 1.0)

    def solve(self, sweeps: int) -> tuple[float, float]:
        """Sweep until the root's bounds settle (at most ``sweeps`` times); the root's."""
        root = (self.low[0], self.high[0])
        for _ in range(sweeps):
            self.sweep()
            moved = max(abs(self.low[0] - root[0]), abs(self.high[0] - root[1]))
            root = (self.low[0], self.high[0])
            if moved < TOLERANCE:
                break
        if any(low > high + 1e-9 for low, high in zip(self.low, self.high, strict=True)):
            msg = "a lower bound above its upper bound"
            raise AssertionError(msg)
        # a chance: the lexical solve's rounding (about 1e-10) must not print as -0.0000
        return max(root[0], 0.0), min(root[1], 1.0)


def _remembered(value: TurnValue) -> TurnValue:
    """``value``, each end's value kept: a champion's look-ahead is asked once per end."""
    known: dict[tuple[GameState, GameState, int | None], float] = {}

    def remembered(rules: Rules, start: GameState, end: GameState, total: int | None) -> float:
        key = (start, end, total)
        found = known.get(key)
        if found is None:
            found = known[key] = value(rules, start, end, total)
        return found

    return remembered


def _bot_value(name: str) -> TurnValue:
    if name == "champion":
        return load_win_model("classic", 2).champion_value()
    return {"margin": margin_gained, "optimal": worms_gained}[name]


def report(rules: Rules, root: GameState, args: argparse.Namespace) -> Iterator[str]:
    """The bounds from ``root``: a line per player, each as soon as it is known."""
    began = time.perf_counter()
    yield f"{Position(rules, root)}"
    model = load_win_model("classic", 2)
    if args.cut == "nearest":
        tables = nearest(rules, root, args.tables)
    else:
        tables = likeliest(rules, root, args.tables, [model.turn_value, margin_gained])
    chance = model.win_probabilities(rules, root)[root.player]
    yield (
        f"  {len(tables)} tables ({args.cut}, {time.perf_counter() - began:.0f} s);"
        f" the champion's model gives the mover {chance:.4f}"
    )
    perfect = Bracket(rules, tables, root.player, None).solve(args.sweeps)
    yield f"  perfect play: {perfect[0]:.4f} to {perfect[1]:.4f}"
    for name in args.bots:
        low, high = Bracket(rules, tables, root.player, _bot_value(name)).solve(args.sweeps)
        if low > perfect[1] + 1e-9:
            msg = f"{name} beats perfect play: {low} > {perfect[1]}"
            raise AssertionError(msg)
        lost = f"{max(perfect[0] - high, 0.0):.4f} to {perfect[1] - low:.4f}"
        yield f"  {name} against perfect play: {low:.4f} to {high:.4f} (gives away {lost})"
    yield f"  {time.perf_counter() - began:.0f} s"


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--position", action="append", default=[], help="a root position line")
    parser.add_argument("--games", type=int, default=0, help="roots from this many games")
    parser.add_argument("--seed", default="dq", help="the games' seed (game i: seed:i)")
    parser.add_argument("--tiles", type=int, default=1, help="tiles left at a game's root")
    parser.add_argument("--tables", type=int, default=10_000, help="tables valued per root")
    parser.add_argument(
        "--cut",
        choices=["likeliest", "nearest"],
        default="likeliest",
        help="which tables: the likeliest to be reached, or the nearest in turns",
    )
    parser.add_argument("--sweeps", type=int, default=14, help="most sweeps per bracket")
    parser.add_argument(
        "--bots",
        type=lambda text: text.split(","),
        default=["champion", "margin"],
        help="bots in the root's mover's seat (champion, margin, optimal)",
    )
    args = parser.parse_args(argv)
    for name in args.bots:
        if name not in {"champion", "margin", "optimal"}:
            parser.error(f"--bots: {name!r} is not champion, margin or optimal")
    if min(args.games, args.tiles - 1, args.tables - 1, args.sweeps - 1) < 0:
        parser.error("--games at least 0; --tiles, --tables and --sweeps at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    """The program: bracket the endgames the arguments ask for and print each bracket."""
    args = _arguments(argv)
    rules, _ = new_game("classic", players=2)
    try:
        roots = [Position.parse(line, rules).state for line in args.position]
    except PositionError as error:
        sys.exit(f"--position: {error}")
    roots += endgame_roots(rules, args.games, args.seed, args.tiles)
    for root in roots:
        if root.phase is not Phase.ROLL or any(root.set_aside):
            sys.exit(f"a root is a table between two turns, not {Position(rules, root)}")
        for line in report(rules, root, args):
            print(line, flush=True)


if __name__ == "__main__":
    main()
