"""A module's part, its pending decision and its extension point on the row (E4).

The grilled worms keep a part (the tokens), make a decision pending (whom to rob, E4) and
call an extension point (``GRILLED_WORM_VICTIMS``); their compiled twins have row forms, so
rules made of the classic modules, the low tiles and the grilled worms play on the one-row
table: the tokens in the row's slots (``GrilledWormSlots``), the robbery as action numbers.
Here that path plays random and scripted games against the pure engine, move for move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pickomino_rules import (
    Phase,
    RollOutcome,
    apply,
    get_rules,
    legal_actions,
    new_game,
    stop_claims,
)
from pickomino_rules._engine import ACTIVE, steps
from pickomino_rules.actions import Take
from pickomino_rules.dice import Face
from pickomino_rules.plugin import RuleModule, compose
from pickomino_rules.variants.classic import CLASSIC_OPTIONS, classic_modules
from pickomino_rules.variants.grilled_worms import (
    GRILLED_WORM_VICTIMS,
    GRILLED_WORMS,
    TOKENS,
    GrilledWorms,
    RobGrilledWorm,
    grilled_worms,
)
from pickomino_rules.variants.low_tiles import low_tiles
from support import checked_game, option_sets

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

try:
    from pickomino_rules import compiled_plugin
    from pickomino_rules._engine import _boundary, _row
    from pickomino_rules.variants.twins import _compiled
except ImportError:  # built without a C compiler
    _row = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    _row is None or not ACTIVE.compiled, reason="the compiled engine is not active"
)


def _worm_rules(options: dict[str, object], *, low: bool = True) -> Rules:
    resolved = {option.name: option.default for option in CLASSIC_OPTIONS} | options
    modules = [*classic_modules(resolved), grilled_worms()]
    if low:
        modules.append(low_tiles(worms=(1, 2), exclusive=True))
    return compose(*modules, name="worms", options=resolved)


def _check_move(rules: Rules, state: GameState, move: object) -> GameState:
    """``move`` applied by the engine under test, checked against the pure engine's."""
    assert legal_actions(rules, state) == steps.legal_actions(rules, state)
    if state.phase is Phase.DECIDE:
        assert stop_claims(rules, state) == steps.stop_claims(rules, state)
    after = apply(rules, state, move)  # type: ignore[arg-type]
    assert after == steps.apply(rules, state, move), (state, move)  # type: ignore[arg-type]
    return after


def _random_game(rules: Rules, players: int, seed: int) -> tuple[int, int]:
    """A random game checked against the pure engine (``checked_game``); the moves the row
    answered, and the robberies."""
    robs = []

    def moved(move: object, _answered: bool) -> None:
        robs.append(isinstance(move, RobGrilledWorm))

    return checked_game(rules, players, seed, moved=moved), sum(robs)


@pytest.mark.parametrize("options", option_sets("classic"), ids=str)
@pytest.mark.parametrize("low", [True, False], ids=["low tiles", "no low tiles"])
def test_the_grilled_worms_play_on_the_row_as_the_pure_engine(
    options: dict[str, object], *, low: bool
) -> None:
    """E4 on the row: tokens won, robbed (a choice, or the only holder) and kept on a bust."""
    rules = _worm_rules(options, low=low)
    assert ACTIVE.on_rows(rules)
    declined = _boundary.declined()
    answered = robs = 0
    for players in (2, 3, 5):
        for seed in range(12):
            moves, robbed = _random_game(rules, players, seed)
            answered, robs = answered + moves, robs + robbed
    assert answered > 0
    if not options.get("short_game"):  # (O2's games are too short to empty the supply)
        assert robs > 0  # the pending choice was met and answered on the row
    assert _boundary.declined() == declined


def _at_roll(rules: Rules, tokens: GrilledWorms, players: int = 4) -> GameState:
    _rules, state = new_game(rules, players=players)
    return GRILLED_WORMS.set(rules, state, tokens)


@pytest.mark.parametrize(
    ("tokens", "pending"),
    [
        (GrilledWorms(2, (1, 2, 2, 0)), ()),  # from the supply
        (GrilledWorms(0, (0, 4, 3, 0)), (1, 2)),  # two holders: player 0 chooses
        (GrilledWorms(0, (0, 7, 0, 0)), ()),  # one holder: robbed at once
        (GrilledWorms(0, (7, 0, 0, 0)), ()),  # only the taker holds: nothing happens
    ],
    ids=["supply", "choice", "one holder", "no victim"],
)
def test_two_ones_win_a_token_on_the_row_as_the_pure_engine(
    tokens: GrilledWorms, pending: tuple[int, ...]
) -> None:
    rules = _worm_rules({})
    before = _row.played()
    state = _check_move(rules, _at_roll(rules, tokens), RollOutcome.parse("1123345w"))
    state = _check_move(rules, state, Take(Face.ONE))
    legal = legal_actions(rules, state)
    assert [isinstance(move, RobGrilledWorm) for move in legal] == [bool(pending)] * len(legal)
    if pending:
        assert legal == tuple(RobGrilledWorm(p) for p in pending)
    for move in legal:  # each choice, from the same state
        after = GRILLED_WORMS.get(rules, _check_move(rules, state, move))
        assert after.chooser is None
        assert sum(after.held) + after.supply == TOKENS
    assert _row.played() > before


def test_a_part_the_row_cannot_hold_is_answered_as_the_pure_engine() -> None:
    """Counts past a slot's range: the state is left to the object path, same answers."""
    rules = _worm_rules({})
    state = _at_roll(rules, GrilledWorms(40000, (0, 0, 0, 0)))
    before = _row.played()
    shown = _check_move(rules, state, RollOutcome.parse("1123345w"))
    _check_move(rules, shown, Take(Face.ONE))
    assert _row.played() == before


_PLAYERS = st.integers(min_value=1, max_value=8)


@st.composite
def _tokens(draw: st.DrawFn) -> tuple[GrilledWorms, int]:
    players = draw(_PLAYERS)
    held = tuple(draw(st.lists(st.integers(0, 300), min_size=players, max_size=players)))
    chooser = draw(st.none() | st.integers(0, players - 1))
    victims = (
        ()
        if chooser is None
        else tuple(sorted(draw(st.sets(st.integers(0, players - 1), max_size=players))))
    )
    return GrilledWorms(draw(st.integers(0, 300)), held, chooser, victims), players


@given(_tokens())
def test_the_tokens_slots_hold_every_part_exactly(case: tuple[GrilledWorms, int]) -> None:
    tokens, players = case
    codec = _compiled.GrilledWormSlots(GRILLED_WORMS)
    assert codec.width(players) == 2 + 2 * players
    assert codec.round_trip(tokens, players) == tokens


@pytest.mark.parametrize(
    ("tokens", "players"),
    [
        (GrilledWorms(-1, (0, 0)), 2),
        (GrilledWorms(7, (0,)), 2),
        (GrilledWorms(7, (0, 0), 3, (1,)), 2),
        (GrilledWorms(7, (0, 0), 0, (5,)), 2),
        (GrilledWorms(7, ("1", 0)), 2),  # type: ignore[arg-type]
        ((7, (0, 0)), 2),
    ],
)
def test_a_part_that_does_not_fit_its_slots_is_refused(tokens: object, players: int) -> None:
    codec = _compiled.GrilledWormSlots(GRILLED_WORMS)
    with pytest.raises(ValueError, match=r"token|player|part"):
        codec.round_trip(tokens, players)


def _victims_in_python(
    inner: object, rules: Rules, state: GameState, taker: int
) -> tuple[int, ...]:
    return tuple(p for p in inner(rules, state, taker) if p != 0)  # type: ignore[operator]


def test_an_extension_without_a_row_form_keeps_the_rules_off_the_row() -> None:
    """The grilled worms call ``GRILLED_WORM_VICTIMS`` on the row: a module extending it in
    Python alone (no row twin) leaves the rules' turns to the object path, which stays exact."""
    from pickomino_rules.plugin import Extension  # noqa: PLC0415

    guard = RuleModule(
        name="guard",
        extends=(Extension(GRILLED_WORM_VICTIMS, _victims_in_python),),
        after=("grilled_worms",),
    )
    resolved = {option.name: option.default for option in CLASSIC_OPTIONS}
    rules = compose(*classic_modules(resolved), grilled_worms(), guard, name="guarded")
    table = compiled_plugin.row_table(rules)
    assert not table.complete
    assert "grilled_worm_victims" in str(table.missing)
    assert not ACTIVE.on_rows(rules)
    before = _row.played()
    moves, _robs = _random_game(rules, 3, seed=5)
    assert moves == 0
    assert _row.played() == before


def test_the_row_table_names_each_part_s_slots() -> None:
    rules = _worm_rules({})
    table = compiled_plugin.row_table(rules)
    assert table.complete
    assert [codec is not None for codec in table.codecs] == [True]
    width, firsts = table.slot_layout(3)
    assert (width, firsts) == (8, [0])
    extended = compiled_plugin.row_table(get_rules("extended"))
    assert extended.complete  # (tests/engine/test_row_specialists.py plays it)
    names = [codec.key.name if codec is not None else None for codec in extended.codecs]
    assert sorted(filter(None, names)) == ["grilled_worms", "specialists", "weasel"]


def test_a_point_whose_default_has_no_row_form_keeps_the_rules_off_the_row() -> None:
    """The grilled worms' set-aside calls ``GRILLED_WORM_VICTIMS`` on the row: without a row
    twin of the point's default (the provider's), nothing may be linked to it."""
    import attrs  # noqa: PLC0415

    base = grilled_worms()
    twins = {
        key: make
        for key, make in _compiled.GRILLED_WORMS.items()
        if key is not GRILLED_WORM_VICTIMS
    }
    module = attrs.evolve(base, compiled=lambda: twins)
    resolved = {option.name: option.default for option in CLASSIC_OPTIONS}
    rules = compose(*classic_modules(resolved), module, name="no default twin")
    table = compiled_plugin.row_table(rules)
    assert not table.complete
    assert "grilled_worm_victims" in str(table.missing)
    assert not ACTIVE.on_rows(rules)
    assert _random_game(rules, 3, seed=2)[0] == 0  # the object path, move for move


def test_the_row_table_is_linked_once_per_rules() -> None:
    rules = _worm_rules({})
    assert compiled_plugin.row_table(rules) is compiled_plugin.row_table(rules)
