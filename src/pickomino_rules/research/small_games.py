"""Solve small games of Pickomino exactly: how much there is to win beyond the turn.

Each game is 2-player classic Pickomino with only a few of the tiles (a variant made with the
plug-in API: the classic dice, worms and rules, fewer tiles). Every table between two turns
is enumerated, and for a pair of players the chance that the first one wins is computed
exactly from every table: value iteration over the tables, taken in the order of the turns
that lead from one to another (strongly connected components, the last tables first), each
turn solved exactly by the turn solver. No game is sampled, so the figures have no interval.

Players: ``optimal`` and ``margin`` (the bots' turn values; a tie within a turn, where
their turn value does not choose, goes the way best for them), ``perfect`` (the chance to
win under best play by both sides, what the champion's model estimates, as a turn value) and
the best response to ``margin`` (the player who maximises his own chance against ``margin``
itself: the most anyone can win against it).

Run: ``python -m pickomino_rules.research.small_games [--tiles 22,26,30,34]
[--tiles 21,25,29,33,36]``
(the defaults, about 6 minutes on one core; 21,24,27,30,33,36 takes about an hour).
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from pickomino_rules import GameState, get_rules, new_game, result
from pickomino_rules.plugin import Components, RuleModule, Variant
from pickomino_rules.solver import TurnValue, margin_gained, solve_turn, worms_gained
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    from pickomino_rules.rules import Rules

Table: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""A table between turns: the grill, the stack of the player to move, the other stack."""
Chances: TypeAlias = dict[Table, float]
Policy: TypeAlias = "tuple[TurnValue, Chances] | None"
"""A turn value with its solved value at each table, or None: the player's own chance."""


__all__ = [
    "LEXICAL",
    "TOLERANCE",
    "SmallGame",
    "Table",
    "main",
    "report",
    "small_rules",
    "table_of",
    "turn_ends",
]

LEXICAL = 1e6
"""Weight of a player's turn value over his chance to win, which only breaks its ties."""
TOLERANCE = 1e-10
"""Value iteration stops once no value of a component moved by more than this."""

Node = TypeVar("Node", bound=tuple[object, ...])
"""What value iteration updates: a table, or a table with the seat to move."""


def small_rules(tiles: tuple[int, ...]) -> Rules:
    """Classic Pickomino with only ``tiles`` (each with its classic worms), two players."""
    classic = get_rules("classic")

    def configure(_components: Components) -> Components:
        return Components(
            tiles=tiles,
            worms=tuple((tile, classic.worms[tile]) for tile in tiles),
            die_kinds=classic.die_kinds,
            dice=classic.components.dice,
            min_players=2,
            max_players=2,
        )

    module = RuleModule(name="small_tiles", doc="classic with fewer tiles", configure=configure)
    name = "small-" + "-".join(map(str, tiles))
    return Variant(name=name, doc="", options=(), build=lambda _options: [module]).rules()


def table_of(state: GameState) -> Table:
    """The table between two turns as the small game counts it (the player to move first)."""
    mover = state.player
    return state.grill, state.stacks[mover], state.stacks[1 - mover]


def _components(  # noqa: C901 (Tarjan's algorithm is one loop; split, it would hide)
    nodes: list[Node], after: Callable[[Node], list[Node]]
) -> Iterator[list[Node]]:
    """Strongly connected components (Tarjan's algorithm, without recursion), sinks first."""
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    stack: list[Node] = []
    on_stack: set[Node] = set()
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(after(root)))]
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(after(successor))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    yield component


def turn_ends(rules: Rules, state: GameState) -> list[GameState]:
    """Every table the turn from ``state`` can end on: the solver values each of them."""
    ends: dict[GameState, None] = {}

    def collect(_rules: Rules, _start: GameState, end: GameState, _total: int | None) -> float:
        ends[end] = None
        return 0.0

    solve_turn(rules, state, collect)
    return list(ends)


class SmallGame:
    """Every table of a small game between turns, and exact chances for pairs of players."""

    def __init__(self, tiles: tuple[int, ...]) -> None:
        self.rules = small_rules(tiles)
        _, start = new_game(self.rules, players=2)
        self.start = table_of(start)
        self.tables: dict[Table, GameState] = {self.start: start}
        self.after: dict[Table, list[Table]] = {}
        todo = [start]
        while todo:
            state = todo.pop()
            following = [
                end for end in turn_ends(self.rules, state) if end.phase is not Phase.GAME_OVER
            ]
            self.after[table_of(state)] = [table_of(end) for end in following]
            for end in following:
                if table_of(end) not in self.tables:
                    self.tables[table_of(end)] = end
                    todo.append(end)

    def won(self, start: GameState, end: GameState) -> float:
        """The mover's share of a finished game: 1, 0, or a share of a tie (C13)."""
        winners = result(self.rules, end).winners
        return 1 / len(winners) if start.player in winners else 0.0

    def solved(self, value: TurnValue) -> Chances:
        """The solved value of ``value`` at every table."""
        return {table: solve_turn(self.rules, s, value).value for table, s in self.tables.items()}

    def perfect(self) -> Chances:
        """The mover's chance to win at each table when both sides play their best."""
        chance: Chances = dict.fromkeys(self.tables, 0.5)
        value = self.as_turn_value(chance)  # reads ``chance`` as the iteration updates it
        _iterate(
            chance,
            self.after.__getitem__,
            lambda table: solve_turn(self.rules, self.tables[table], value).value,
        )
        return chance

    def as_turn_value(self, chance: Mapping[Table, float]) -> TurnValue:
        """``chance`` (the mover's, at each table) as the mover's turn value."""

        def value(_rules: Rules, start: GameState, end: GameState, _total: int | None) -> float:
            if end.phase is Phase.GAME_OVER:
                return self.won(start, end)
            return 1.0 - chance[table_of(end)]

        return value

    def duel(self, first: Policy, second: Policy) -> tuple[float, float]:
        """The first player's chance to win when he moves first, and when he moves second."""
        # the first player's chance at each table, by the seat to move (0: the first player)
        chance = {(table, seat): 0.5 for table in self.tables for seat in (0, 1)}
        policies = (first, second)

        def own(seat: int, start: GameState, end: GameState) -> float:
            if end.phase is Phase.GAME_OVER:
                return self.won(start, end)
            firsts = chance[table_of(end), 1 - seat]
            return firsts if seat == 0 else 1.0 - firsts

        def turn(node: tuple[Table, int]) -> float:
            table, seat = node
            state = self.tables[table]
            policy = policies[seat]
            if policy is None:
                mine = solve_turn(self.rules, state, lambda _r, s, e, _t: own(seat, s, e)).value
            else:
                goal, goals = policy

                def value(rules: Rules, s: GameState, e: GameState, total: int | None) -> float:
                    return LEXICAL * goal(rules, s, e, total) + own(seat, s, e)

                mine = solve_turn(self.rules, state, value).value - LEXICAL * goals[table]
            return mine if seat == 0 else 1.0 - mine

        _iterate(chance, lambda node: [(table, 1 - node[1]) for table in self.after[node[0]]], turn)
        return chance[self.start, 0], chance[self.start, 1]


def _iterate(
    values: dict[Node, float], after: Callable[[Node], list[Node]], update: Callable[[Node], float]
) -> None:
    """Value iteration on ``values``, a component at a time, final before those leading to it."""
    for component in _components(list(values), after):
        cyclic = len(component) > 1 or component[0] in after(component[0])
        while True:
            change = 0.0
            for node in component:
                new = update(node)
                change = max(change, abs(new - values[node]))
                values[node] = new
            if not cyclic or change < TOLERANCE:
                break


def report(tiles: tuple[int, ...]) -> str:
    """The game of ``tiles`` solved: perfect play's and the best response's chances, as text."""
    began = time.perf_counter()
    game = SmallGame(tiles)
    margin: Policy = (margin_gained, game.solved(margin_gained))
    optimal: Policy = (worms_gained, game.solved(worms_gained))
    best = game.perfect()
    perfect_value = game.as_turn_value(best)
    perfect: Policy = (perfect_value, game.solved(perfect_value))
    cells = [
        ", ".join(map(str, tiles)),
        f"{len(game.tables):,}",
        f"{best[game.start]:.1%}",
    ]
    for first, second in ((margin, optimal), (perfect, margin), (perfect, optimal), (None, margin)):
        moving_first, moving_second = game.duel(first, second)
        cells.append(f"{(moving_first + moving_second) / 2:.1%}")
    cells.append(f"{time.perf_counter() - began:.0f} s")
    return "| " + " | ".join(cells) + " |"


def _tiles(text: str) -> tuple[int, ...]:
    """``--tiles``: two or more distinct classic tiles, comma-separated."""
    classic = get_rules("classic").tiles
    try:
        tiles = tuple(sorted({int(tile) for tile in text.split(",")}))
    except ValueError:
        tiles = ()
    if len(tiles) < 2 or not set(tiles) <= set(classic):
        msg = f"expected two or more of the tiles {classic[0]}-{classic[-1]}, got {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return tiles


def main() -> None:
    """The program: solve each game of ``--tiles`` and print its report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--tiles",
        action="append",
        type=_tiles,
        help="a game's tiles, comma-separated (repeat for more games)",
    )
    args = parser.parse_args()
    games = args.tiles or [(22, 26, 30, 34), (21, 25, 29, 33, 36)]
    print(
        "| tiles | tables | perfect play, first to move | `margin` vs `optimal`"
        " | perfect vs `margin` | perfect vs `optimal` | best response vs `margin` | time |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for tiles in games:
        print(report(tiles), flush=True)


if __name__ == "__main__":
    main()
