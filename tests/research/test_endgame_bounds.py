"""research.endgame_bounds: its brackets hold the exact chance of a small game solved whole.

research.endgame_bounds brackets endgames of the whole game, which nothing can solve exactly; a game
of three tiles (``research.small_games``) is solved exactly by value iteration over all its tables,
a second implementation to check the brackets against.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from pickomino_rules.solver import margin_gained

if TYPE_CHECKING:
    from types import ModuleType

TILES = (22, 26, 30)


@pytest.fixture(scope="module")
def scripts() -> tuple[ModuleType, ModuleType]:
    from pickomino_rules.research import endgame_bounds, small_games  # noqa: PLC0415 (numpy)

    return endgame_bounds, small_games


@pytest.fixture(scope="module")
def game(scripts: tuple[ModuleType, ModuleType]) -> Any:
    small = scripts[1].SmallGame(TILES)
    small.exact = small.perfect()  # the mover's chance at each table, both playing their best
    return small


def _cut(bounds: ModuleType, how: str, game: Any, limit: int) -> dict[Any, int]:
    root = game.tables[game.start]
    if how == "nearest":
        return bounds.nearest(game.rules, root, limit)  # type: ignore[no-any-return]
    return bounds.likeliest(game.rules, root, limit, [margin_gained])  # type: ignore[no-any-return]


def test_every_table_taken_the_bracket_is_the_exact_chance(
    scripts: tuple[ModuleType, ModuleType], game: Any
) -> None:
    bounds, small = scripts
    root = game.tables[game.start]
    tables = _cut(bounds, "likeliest", game, 10**6)
    # either cut takes every table (the small game counts one once for either seat to move)
    assert {small.table_of(state) for state in tables} == set(game.tables)
    assert set(_cut(bounds, "nearest", game, 10**6)) == set(tables)
    low, high = bounds.Bracket(game.rules, tables, root.player, None).solve(200)
    assert low == pytest.approx(game.exact[game.start], abs=1e-6)
    assert high == pytest.approx(game.exact[game.start], abs=1e-6)
    # margin in the first seat against a perfect opponent: the small game's own duel
    duel = game.duel((margin_gained, game.solved(margin_gained)), None)[0]
    low, high = bounds.Bracket(game.rules, tables, root.player, margin_gained).solve(200)
    assert low == pytest.approx(duel, abs=1e-6)
    assert high == pytest.approx(duel, abs=1e-6)


@pytest.mark.parametrize("how", ["likeliest", "nearest"])
def test_a_cut_brackets_the_exact_chance(
    scripts: tuple[ModuleType, ModuleType], game: Any, how: str
) -> None:
    bounds, small = scripts
    root = game.tables[game.start]
    widths = []
    for limit in (5, 20, 60):
        tables = _cut(bounds, how, game, limit)
        assert len(tables) == limit
        assert tables[root] == 0
        bracket = bounds.Bracket(game.rules, tables, root.player, None)
        low, high = bracket.solve(14)
        for state, number in tables.items():  # every table's bounds, not only the root's
            mover = game.exact[small.table_of(state)]
            exact = mover if state.player == root.player else 1.0 - mover
            assert bracket.low[number] - 1e-9 <= exact <= bracket.high[number] + 1e-9
        widths.append(high - low)
    assert widths == sorted(widths, reverse=True)  # more tables, never a wider bracket
    assert widths[-1] < 1.0


def test_a_turns_end_chances_add_up_to_one(
    scripts: tuple[ModuleType, ModuleType], game: Any
) -> None:
    bounds, _ = scripts
    perfect = game.as_turn_value(game.exact)
    for state in list(game.tables.values())[:10]:
        chances = bounds.end_chances(game.rules, state, perfect)
        assert all(0.0 <= chance <= 1.0 for chance in chances.values())
        assert sum(chances.values()) == pytest.approx(1.0, abs=1e-4)
