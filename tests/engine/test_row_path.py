"""The kernel's plain path: a game as a one-row table (``_engine/_row.pyx``).

Where no module wraps a hook of the turn, the compiled ``apply`` plays the steps as the row
functions of ``_engine/rows.pxd`` on a one-row table: a state is read into the row at a chance
node and written back after each move. Here that path plays random games against the pure
engine, move for move; the states it writes keep the fields that did not change (the same
objects); a chance node it cannot hold (a tile twice, a tile not of the rules) is left to the
object path; and rules whose modules change the turn never take it.
"""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING

import attrs
import pytest

from pickomino_rules import (
    Phase,
    RollOutcome,
    apply,
    get_rules,
    legal_actions,
    new_game,
    stop_claims,
)
from pickomino_rules import sample_chance as sample
from pickomino_rules._engine import ACTIVE, PURE, steps
from pickomino_rules.actions import ROLL, STOP, Take
from pickomino_rules.dice import Face
from pickomino_rules.errors import PickominoError
from pickomino_rules.plugin import RuleModule, Variant, compose
from pickomino_rules.variants.classic import CLASSIC_OPTIONS, classic_modules
from pickomino_rules.variants.low_tiles import low_tiles
from support import checked_game, option_sets

if TYPE_CHECKING:
    from pickomino_rules.rules import Components, Rules
    from pickomino_rules.state import GameState

try:
    from pickomino_rules._engine import _row
except ImportError:  # built without a C compiler
    _row = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    _row is None or not ACTIVE.compiled, reason="the compiled engine is not active"
)


def _played() -> int:
    assert _row is not None
    return _row.played()


def _random_game(
    rules_name: str | Rules,
    options: dict[str, object],
    players: int,
    seed: int,
    *,
    copies: bool = False,
) -> int:
    """A random game on the compiled engine checked against the pure one (``checked_game``);
    the moves the row answered. ``copies``: each roll an equal new object, not the table's."""
    rules, _state = new_game(rules_name, players=players, options=options)
    return checked_game(rules, players, seed, copies=copies)


CLASSIC_SETS = [
    dict(zip(("flip_on_empty_bust", "short_game", "optional_steal"), values, strict=True))
    for values in itertools.product((False, True), repeat=3)
]
"""O1-O3 in every combination."""


@pytest.mark.parametrize("options", CLASSIC_SETS, ids=str)
@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_row_plays_classic_as_the_pure_engine(options: dict[str, object], players: int) -> None:
    """Every classic option set: O1-O3's modules have row twins (``bust``, ``claims``)."""
    answered = sum(_random_game("classic", options, players, seed) for seed in range(6))
    assert answered > 0  # the path was taken, not left to the object path


def _low_rules(options: dict[str, object], *, exclusive: bool) -> Rules:
    """Classic with the low tiles (a module whose compiled twin has a row form)."""
    resolved = {option.name: option.default for option in CLASSIC_OPTIONS} | options
    modules = [*classic_modules(resolved), low_tiles(worms=(2, 3), exclusive=exclusive)]
    return compose(*modules, name="low", options=resolved)


@pytest.mark.parametrize("options", option_sets("classic"), ids=str)
@pytest.mark.parametrize("exclusive", [True, False], ids=["O4", "not-O4"])
def test_a_module_with_row_twins_plays_on_the_row_as_the_pure_engine(
    options: dict[str, object], *, exclusive: bool
) -> None:
    """E3, O4 on the row: the low tiles' ``claims`` twin runs in C in the rules' hook table."""
    rules = _low_rules(options, exclusive=exclusive)
    answered = sum(
        _random_game(rules, {}, players, seed) for players in (2, 4) for seed in range(5)
    )
    assert answered > 0


@pytest.mark.parametrize("exclusive", [True, False], ids=["O4", "not-O4"])
def test_the_low_tiles_row_twin_refuses_what_e3_and_o4_refuse(*, exclusive: bool) -> None:
    """Scripted turns on the row: 13 exactly while holding 11 (O4), 12 (never the tile below,
    E3), and a steal of 13 (never stolen, E3); each state as the pure engine's."""
    rules = _low_rules({}, exclusive=exclusive)
    _rules, start = new_game(rules, players=2)
    start = start.replace(
        grill=tuple(tile for tile in start.grill if tile != 11), stacks=((11,), ())
    )
    before = _played()
    for dice, takes, claims in (
        (("w4411111", "4411111"), (Face.WORM, Face.FOUR), [] if exclusive else [13]),  # 13
        (("w3311111", "3311111"), (Face.WORM, Face.THREE), []),  # 11 on a stack, 12 below
    ):
        state = start
        for roll, face in zip(dice, takes, strict=True):
            if state.phase is Phase.DECIDE:
                state = apply(rules, state, ROLL)
            state = apply(rules, state, RollOutcome.parse(roll))
            state = apply(rules, state, Take(face))
        found = stop_claims(rules, state)
        assert found == steps.stop_claims(rules, state)
        assert [claim.tile for claim in found] == claims
        assert legal_actions(rules, state) == steps.legal_actions(rules, state)
        assert apply(rules, state, STOP) == steps.apply(rules, state, STOP)
    # player 1 stops on 13 while player 0 holds 13 on top: no steal of a low tile
    robbed = start.replace(stacks=((13,), ()), player=1)
    robbed = robbed.replace(grill=tuple(sorted({*start.grill, 11} - {13})))
    state = apply(rules, robbed, RollOutcome.parse("w4411111"))
    state = apply(
        rules,
        apply(rules, apply(rules, state, Take(Face.WORM)), ROLL),
        RollOutcome.parse("4411111"),
    )
    state = apply(rules, state, Take(Face.FOUR))
    assert stop_claims(rules, state) == steps.stop_claims(rules, state) == ()
    assert legal_actions(rules, state) == steps.legal_actions(rules, state)
    assert _played() > before  # the row answered them


def test_a_written_state_keeps_the_fields_that_did_not_change() -> None:
    rules, state = new_game("classic", players=3)
    shown = apply(rules, state, RollOutcome.parse("1234555w"))
    assert (shown.grill, shown.stacks, shown.in_hand) == (state.grill, state.stacks, state.in_hand)
    assert shown.grill is state.grill
    assert shown.stacks is state.stacks
    decided = apply(rules, shown, Take(Face.FIVE))
    assert decided.grill is state.grill
    assert decided.face_down is state.face_down
    assert decided.stacks is state.stacks
    assert decided.parts is state.parts
    again = apply(rules, decided, ROLL)
    assert again.in_hand is decided.in_hand
    assert again.set_aside is decided.set_aside
    # a stop on 40 takes 36 off the grill: the grill and one stack change, the others are kept
    landed = apply(rules, again, RollOutcome.parse("wwwww"))
    ended = apply(rules, apply(rules, landed, Take(Face.WORM)), STOP)
    assert ended == steps.apply(rules, apply(rules, landed, Take(Face.WORM)), STOP)
    assert ended.stacks[0] == (36,)
    assert ended.stacks[1] is state.stacks[1]
    assert ended.face_down is state.face_down
    assert ended.in_hand is rules.components.dice


def _odd_chance_nodes() -> list[GameState]:
    _rules, state = new_game("classic", players=2)
    return [
        state.replace(stacks=((21,), ())),  # 21 on the grill and in a stack
        state.replace(grill=(22, 21, *state.grill[2:])),  # the grill out of order
        state.replace(face_down=(99,)),  # not a tile of the rules
        state.replace(in_hand=(200,)),  # more dice than a count holds
        state.replace(set_aside=(1, 2, 3)),  # not six counts
        state.replace(player=5),  # no such player
    ]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the object path's own fallbacks
@pytest.mark.parametrize("state", _odd_chance_nodes(), ids=range(6))
def test_a_chance_node_the_row_cannot_hold_is_answered_as_the_pure_engine(state: GameState) -> None:
    rules = get_rules("classic")
    rng = random.Random(1)
    before = _played()
    for _ in range(20):
        move = steps.sample_chance(rules, state, rng) if state.in_hand != (200,) else None
        try:
            expected: object = steps.apply(rules, state, move)  # type: ignore[arg-type]
        except PickominoError as error:
            with pytest.raises(type(error), match=str(error)[:40].replace("(", r"\(")):
                apply(rules, state, move)  # type: ignore[arg-type]
        else:
            assert apply(rules, state, move) == expected  # type: ignore[arg-type]
    assert _played() == before  # none of them was read into the row


def test_an_earlier_state_is_answered_after_the_row_moved_on() -> None:
    rules, state = new_game("classic", players=2)
    shown = apply(rules, state, RollOutcome.parse("11223344"))
    decided = apply(rules, shown, Take(Face.ONE))
    apply(rules, apply(rules, decided, ROLL), RollOutcome.parse("555555"))
    for move in legal_actions(rules, shown):  # the row stands for a later state now
        assert apply(rules, shown, move) == steps.apply(rules, shown, move)
    assert legal_actions(rules, decided) == steps.legal_actions(rules, decided)


def _counted(worms: int) -> RuleModule:
    def scores(inner: object, rules: object, state: GameState) -> tuple[int, ...]:
        return tuple(score + worms for score in inner(rules, state))  # type: ignore[operator]

    return RuleModule(name="counted", scores=scores)


COUNTED = Variant(
    name="counted",
    doc="Classic; a worm more for everyone at the end (a module outside the turn).",
    options=CLASSIC_OPTIONS,
    build=lambda options: [*classic_modules(options), _counted(1)],
)


def _plain_bust() -> RuleModule:
    """A module wrapping ``bust`` in Python alone (no row twin): the turn leaves the row."""

    def bust(inner: object, rules: object, state: GameState) -> GameState:
        return inner(rules, state)  # type: ignore[operator,no-any-return]

    return RuleModule(name="plain_bust", bust=bust)


PLAIN_BUST = Variant(
    name="plain_bust",
    doc="Classic; a bust hook in Python alone (a module inside the turn, no row twin).",
    options=CLASSIC_OPTIONS,
    build=lambda options: [*classic_modules(options), _plain_bust()],
)


def test_a_module_outside_the_turn_plays_on_the_row_and_one_inside_does_not() -> None:
    rules, state = new_game(COUNTED.rules({}), players=2)
    rng = random.Random(2)
    before = _played()
    while state.phase is not Phase.GAME_OVER:
        legal = legal_actions(rules, state)
        move = sample(rules, state, rng) if state.phase is Phase.ROLL else rng.choice(legal)
        after = apply(rules, state, move)
        assert after == steps.apply(rules, state, move)
        state = after
    assert _played() > before
    before = _played()
    _random_game(PLAIN_BUST.rules({}), {}, 3, seed=1)  # a hook of the turn in Python alone
    assert _played() == before


def test_threads_playing_at_once_each_get_their_own_answers() -> None:
    """The row is one object per rules: a call owns it while it plays (another thread that
    comes in meanwhile makes its own), so games played at once in threads stay exact."""
    import sys  # noqa: PLC0415
    import threading  # noqa: PLC0415

    wrong: list[str] = []

    def play(seed: int) -> None:
        try:
            for game in range(4):
                _random_game("classic", {}, 2 + (seed + game) % 3, seed * 10 + game, copies=True)
        except AssertionError as error:  # pragma: no cover (the failure this test looks for)
            wrong.append(repr(error)[:300])

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        threads = [threading.Thread(target=play, args=(seed,)) for seed in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not wrong


def _many_tiles(components: Components) -> Components:
    tiles = tuple(range(21, 21 + 70))  # more tiles than a grill of 64 bits holds
    worms = tuple((tile, 1 + (tile - 21) // 20) for tile in tiles)
    return attrs.evolve(components, tiles=tiles, worms=worms)


MANY_TILES = Variant(
    name="many_tiles",
    doc="Classic on 70 tiles: no row holds them.",
    options=CLASSIC_OPTIONS,
    build=lambda options: [
        *classic_modules(options),
        RuleModule(name="many", configure=_many_tiles),
    ],
)


def test_rules_no_row_holds_play_on_the_object_path_exactly() -> None:
    rules, state = new_game(MANY_TILES.rules({}), players=3)
    rng = random.Random(4)
    before = _played()
    for _ in range(400):
        legal = legal_actions(rules, state)
        assert legal == steps.legal_actions(rules, state)
        move = sample(rules, state, rng) if state.phase is Phase.ROLL else rng.choice(legal)
        after = apply(rules, state, move)
        assert after == steps.apply(rules, state, move)
        state = after
    assert _played() == before


def test_the_engine_says_which_rules_play_on_rows() -> None:
    """``Backend.on_rows`` (``pickomino info``'s line): classic with any options, and the low
    tiles with it, extended and Extrawurm (every module's twin has a row form); not a module
    with a hook of the turn in Python alone; never the pure engine."""
    assert all(ACTIVE.on_rows(get_rules("classic", options)) for options in CLASSIC_SETS)
    assert ACTIVE.on_rows(_low_rules({}, exclusive=True))
    assert ACTIVE.on_rows(get_rules("extended"))
    assert ACTIVE.on_rows(get_rules("extrawurm"))
    assert not ACTIVE.on_rows(PLAIN_BUST.rules({}))
    assert ACTIVE.on_rows(COUNTED.rules({}))  # scores only: the turn is the core's
    assert not PURE.on_rows(get_rules("classic"))
