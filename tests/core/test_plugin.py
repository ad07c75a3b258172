"""The plug-in contract: composition checks, immutability, layouts, validation, the kit."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import attrs
import pytest

from pickomino_rules import (
    ArgumentTypeError,
    CompositionError,
    GameState,
    IllegalActionError,
    InvalidSetupError,
    InvalidStateError,
    Phase,
    RulesMismatchError,
    Steal,
    apply,
    get_rules,
    legal_actions,
    new_game,
    validate,
)
from pickomino_rules.actions import Action
from pickomino_rules.dice import Face
from pickomino_rules.plugin import Components, ExtensionPoint, PartKey, RuleModule, compose
from pickomino_rules.solver import points, solve_turn
from pickomino_rules.testing import ConformanceError, check_encoding, check_variant
from pickomino_rules.variants.classic import classic_components
from pickomino_rules.variants.extended import EXTENDED
from pickomino_rules.variants.grilled_worms import GRILLED_WORM_VICTIMS
from pickomino_rules.variants.specialists import HEN, SPECIALISTS, Place
from support import installed_plugin, run

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pickomino_rules.plugin import ActionsFn, Claim, Rules, StateFn, TakeTileFn, TotalFn


# -- composition checks -------------------------------------------------------------------


def test_compose_refuses_duplicates_missing_requirements_and_bad_types() -> None:
    base = classic_components()
    with pytest.raises(CompositionError, match="composed twice: 'classic'"):
        compose(base, classic_components())
    with pytest.raises(CompositionError, match="'x' requires 'specialists'"):
        compose(base, RuleModule(name="x", requires="specialists"))
    with pytest.raises(CompositionError, match="RuleModule objects"):
        compose(base, "hen")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        RuleModule(name="x", bust=42)  # type: ignore[arg-type]


def test_compose_refuses_contradictory_order_naming_the_modules() -> None:
    a = RuleModule(name="a", after="b")
    b = RuleModule(name="b", after="a")
    with pytest.raises(CompositionError, match="contradict each other: a after b; b after a"):
        compose(classic_components(), a, b)


def test_compose_orders_modules_by_their_constraints() -> None:
    inner = RuleModule(name="inner")
    outer = RuleModule(name="outer", after="inner")
    rules = compose(outer, classic_components(), inner)
    assert [m.name for m in rules.modules] == ["classic", "inner", "outer"]


def test_extension_points_are_objects_and_must_be_provided() -> None:
    point = ExtensionPoint("victims", lambda *_: ())
    other = ExtensionPoint("victims", lambda *_: ())  # same name, another point

    def wrapper(inner, rules, state, taker):  # type: ignore[no-untyped-def]
        return inner(rules, state, taker)

    user = RuleModule(name="user", extends=(other.wrap(wrapper),))
    provider = RuleModule(name="provider", provides=(point,))
    with pytest.raises(CompositionError, match="'user' extends 'victims', which no composed"):
        compose(classic_components(), provider, user)
    optional = RuleModule(name="user", extends=(other.wrap(wrapper, optional=True),))
    assert not compose(classic_components(), provider, optional).provides(other)
    with pytest.raises(CompositionError, match="'provider' and 'again' both provide"):
        compose(classic_components(), provider, RuleModule(name="again", provides=(point,)))


def test_compose_refuses_shared_part_names_and_action_keywords() -> None:
    class Steal2(Action):
        keyword = "steal"

    with pytest.raises(CompositionError, match=r"keyword 'steal' of module 'x'.*the core"):
        compose(classic_components(), RuleModule(name="x", action_types=(Steal2,)))
    one = RuleModule(name="one", part=PartKey("bonus", int))
    two = RuleModule(name="two", part=PartKey("bonus", str))
    with pytest.raises(CompositionError, match="share the part name 'bonus'"):
        compose(classic_components(), one, two)


def test_the_hen_works_whatever_order_her_modules_are_given_in() -> None:
    # Reported: specialists() before hen() made a steal from the hen's owner take nothing.
    modules = list(EXTENDED.build(EXTENDED.resolve_options()))
    hen = next(m for m in modules if m.name == "hen")
    specialists = next(m for m in modules if m.name == "specialists")
    shuffled = [m for m in modules if m not in (hen, specialists)] + [hen, specialists]
    for order in (modules, shuffled, list(reversed(modules))):
        rules = compose(*order, name="extended")
        assert [m.name for m in rules.modules].index("hen") > [m.name for m in rules.modules].index(
            "specialists"
        )
        _, state = new_game(rules, players=2)
        table = SPECIALISTS.get(rules, state).moved(HEN, Place(owner=1))
        state = SPECIALISTS.set(rules, state, table).replace(stacks=((), (27,)))
        state = state.replace(grill=tuple(t for t in state.grill if t != 27))
        state = run(rules, state, ["wwwww221", "take w", "roll", "213", "take 2"])  # 27
        after = apply(rules, state, Steal(1))
        assert after.stacks == ((), (27,))  # the tile stays
        assert SPECIALISTS.get(rules, after).place(HEN) == Place(owner=0)  # the hen moves


def test_rules_describe_each_hooks_chain() -> None:
    text = get_rules("extended").describe()
    assert "take_tile: turn > specialists > hen" in text
    assert "grilled_worm_victims: grilled_worms > hen" in text
    assert get_rules("extended").chains["bust"] == ("turn", "specialists", "hen")


# -- immutability and layouts ---------------------------------------------------------------


def test_rules_and_their_tables_are_read_only() -> None:
    rules, _ = new_game("classic")
    for mapping in (rules.worms, rules.options, rules.part_index, rules.extensions):
        with pytest.raises(TypeError):
            mapping[36] = 100  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.chance_table((8,)).index[object()] = 0  # type: ignore[index]
    with pytest.raises(AttributeError):
        rules.name = "other"  # type: ignore[misc]
    assert new_game("classic")[0].worms_of(36) == 4


def test_a_state_of_other_rules_is_refused() -> None:
    extended, state = new_game("extended", players=2)
    classic = get_rules("classic")
    for call in (legal_actions, lambda r, s: apply(r, s, legal_actions(extended, state)[0])):
        with pytest.raises(RulesMismatchError, match="laid out"):
            call(classic, state)
    _, plain = new_game("classic")
    same_layout = get_rules("classic", {"short_game": True})
    assert legal_actions(same_layout, plain) == legal_actions(classic, plain)
    bare = GameState(
        grill=(21,), face_down=(), stacks=((), ()), player=0, phase=Phase.ROLL, in_hand=(8,)
    )
    with pytest.raises(RulesMismatchError, match="without a layout"):
        legal_actions(classic, bare)


def test_validate_says_what_is_wrong_with_a_hand_built_state() -> None:
    rules, state = new_game("classic", players=2)
    validate(rules, state)
    broken = state.replace(set_aside=(9,) * 6, stacks=((21,), ()), phase=Phase.DECIDE)
    with pytest.raises(InvalidStateError) as error:
        validate(rules, broken)
    problems = " | ".join(error.value.problems)
    assert "21 lie in more than one place" in problems
    assert "54 set aside" in problems
    extended, start = new_game("extended", players=2)
    tokens = start.parts[extended.part_index["grilled_worms"]]
    bad = start.replace(
        parts=tuple(tokens.__class__(3, (0, 0)) if p is tokens else p for p in start.parts)
    )
    with pytest.raises(InvalidStateError, match=r"grilled_worms.*3 tokens in play, not 7"):
        validate(extended, bad)


def test_wrong_argument_types_get_specific_errors() -> None:
    rules, state = new_game("classic")
    with pytest.raises(ArgumentTypeError, match="player index"):
        Steal("1")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="parse_move"):
        apply(rules, state, "take w")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="composed Rules"):
        legal_actions("classic", state)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="GameState"):
        apply(rules, None, Steal(1))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="is not legal"):
        apply(rules, state, Steal(1))


# -- the solver keeps to the contract -----------------------------------------------------------


def _needs_a_five(inner: TotalFn, rules: Rules, state: GameState) -> int | None:
    total = inner(rules, state)
    return total if state.set_aside[4] else None  # house rule: a stop needs a 5 too


def test_solver_values_a_house_rule_stop_as_the_rules_do() -> None:
    rules = compose(classic_components(), RuleModule(name="five", stop_total=_needs_a_five))
    _, state = new_game(rules, players=2)
    state = run(rules, state, ["wwww1122", "take w"])  # 20 with worms but no 5: a stop busts
    solution = solve_turn(rules, state, points)
    values = solution.action_values()
    assert solution.value == pytest.approx(max(values.values()))
    assert values[legal_actions(rules, state)[1]] == 0.0  # stop: a bust
    after = run(rules, state, ["roll", "5551", "take 5"])  # 35 with a 5
    assert solve_turn(rules, after, points).action_values()[legal_actions(rules, after)[1]] == 35


# -- the conformance kit ------------------------------------------------------------------------

PLUGIN = """
from pickomino_rules.dice import WHITE
from pickomino_rules.plugin import Components, RuleModule, Variant


def _tiny(components):
    return Components(
        tiles=(5, 6, 7, 8, 9, 10), worms=tuple((t, 1) for t in range(5, 11)),
        die_kinds=(WHITE,), dice=(3,),
    )


TINY = Variant(name="tiny", doc="Six tiles, three dice.", options=(),
               build=lambda options: [RuleModule(name="tiny", configure=_tiny)])
"""


@pytest.fixture
def plugin_distribution(tmp_path: Path) -> Iterator[None]:
    """A third-party distribution outside the source tree, registering 'tiny' by entry point."""
    with installed_plugin(tmp_path, PLUGIN):
        yield


@pytest.mark.usefixtures("plugin_distribution")
def test_the_kit_checks_a_plugin_installed_outside_the_tree() -> None:
    report = check_variant("tiny", games=2)
    assert report.variant == "tiny"
    assert report.states > 20


def _forgetful_take(inner: TakeTileFn, rules: Rules, state: GameState, claim: Claim) -> GameState:
    after = inner(rules, state, claim)
    return after.replace(grill=state.grill)  # bug: the tile stays on the grill as well


def test_the_kit_fails_a_broken_variant() -> None:
    from pickomino_rules.plugin import Variant  # noqa: PLC0415

    broken = Variant(
        name="forgetful",
        doc="Classic with a module that forgets to take the tile off the grill.",
        options=(),
        build=lambda _: [classic_components(), RuleModule(name="bug", take_tile=_forgetful_take)],
    )
    with pytest.raises(
        ConformanceError, match=r"\[state\] forgetful: tiles: .* more than one place"
    ):
        check_variant(broken, games=1)


# -- rules as clarified ----------------------------------------------------------------------


def test_c12_a_choice_of_the_last_turn_is_made_after_the_grill_empties() -> None:
    rules, state = new_game("extended", players=2)
    from pickomino_rules.variants.specialists import APPLE, WEASEL  # noqa: PLC0415

    table = SPECIALISTS.get(rules, state)
    for spec in table.specs:
        table = table.moved(spec, Place())
    table = table.moved(WEASEL, Place(owner=0)).moved(APPLE, Place(tile=29))
    state = SPECIALISTS.set(rules, state, table)
    state = state.replace(grill=(29,), face_down=tuple(t for t in rules.tiles if t != 29))
    state = run(rules, state, ["wwwww224", "take w", "roll", "224", "take 2", "stop"])  # 29
    assert state.grill == ()
    assert state.phase is Phase.TURN_OVER  # the keep-choice of E5 is still made (C12)
    assert {str(a) for a in legal_actions(rules, state)} == {"keep apple", "keep weasel"}
    final = run(rules, state, ["keep apple"])
    assert final.phase is Phase.GAME_OVER
    assert legal_actions(rules, final) == ()


def test_e11_o1_hen_owner_busting_without_a_tile_keeps_her_and_o1_turns() -> None:
    rules, state = new_game("extended", players=2, options={"flip_on_empty_bust": True})
    state = SPECIALISTS.set(rules, state, SPECIALISTS.get(rules, state).moved(HEN, Place(owner=0)))
    state = run(rules, state, ["55555444", "take 5", "stop"])  # no worm: a bust, no tile
    assert SPECIALISTS.get(rules, state).place(HEN) == Place(owner=0)
    assert state.face_down == (36,)
    assert GRILLED_WORM_VICTIMS.name == "grilled_worm_victims"


@attrs.frozen
class _Boast(Action):
    """An action with a field that does not list its instances (no fixed action space)."""

    keyword = "boast"
    worms: int


def _offer_boast(inner: ActionsFn, rules: Rules, state: GameState) -> tuple[Action, ...]:
    return inner(rules, state)


def test_the_kit_fails_a_variant_without_an_action_space() -> None:
    rules = compose(
        classic_components(),
        RuleModule(name="boasting", action_types=(_Boast,), roll_actions=_offer_boast),
        name="boasting",
    )
    with pytest.raises(ConformanceError, match=r"\[encoding\] boasting: no action space"):
        check_encoding(rules)


def _observe_too_much(rules: Rules, state: GameState, value: object, me: int) -> list[float]:  # noqa: ARG001
    return [float(len(state.grill))]  # counts, not in [0, 1]


def test_the_kit_fails_a_part_observed_out_of_range() -> None:
    key: PartKey[int] = PartKey("counter", int, observe=_observe_too_much)

    def setup(inner: StateFn, rules: Rules, state: GameState) -> GameState:
        return key.set(rules, inner(rules, state), 0)

    rules = compose(
        classic_components(), RuleModule(name="counter", part=key, setup=setup), name="counter"
    )
    with pytest.raises(ConformanceError, match=r"\[encoding\] counter: part 'counter' observes"):
        check_encoding(rules)


def test_compose_refuses_fewer_most_dice_than_dice() -> None:
    def fewer(components: Components) -> Components:
        return attrs.evolve(components, most_dice=(7,))

    with pytest.raises(InvalidSetupError, match="most_dice"):
        compose(classic_components(), RuleModule(name="fewer", configure=fewer))


# Signatures and parts are checked when rules are composed


def _two(rules: Any, state: Any) -> Any:  # noqa: ARG001
    return state


def _no_total(inner: Any, rules: Any, state: Any) -> Any:  # noqa: ARG001
    return ()


def _one_too_many(inner: Any, rules: Any, state: Any, face: Any, extra: Any) -> Any:  # noqa: ARG001
    return state


def _nothing() -> None:
    return None


def _no_taker(inner: Any, rules: Any) -> Any:  # noqa: ARG001
    return ()


WRONG_HOOKS: list[tuple[dict[str, Any], str]] = [
    ({"bust": _two}, "hook 'bust'"),
    ({"claims": _no_total}, "hook 'claims' is called with (inner, rules, state, total)"),
    ({"set_aside": _one_too_many}, "hook 'set_aside'"),
    ({"configure": _nothing}, "hook 'configure'"),
    ({"extends": (GRILLED_WORM_VICTIMS.wrap(_no_taker),)}, "extension of 'grilled_worm_victims'"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("hooks", "named"), WRONG_HOOKS)
def test_compose_checks_every_hook_s_signature(hooks: dict[str, Any], named: str) -> None:
    with pytest.raises(CompositionError, match=r"rule module 'bad': its " + re.escape(named)):
        compose(classic_components(), RuleModule(name="bad", **hooks))


def test_hooks_with_defaults_and_star_args_compose() -> None:
    def flexible(inner, rules, *args, **kwargs):  # type: ignore[no-untyped-def]
        return inner(rules, *args, **kwargs)

    def defaults(inner, rules, state, extra=None):  # type: ignore[no-untyped-def]  # noqa: ARG001
        return inner(rules, state)

    compose(classic_components(), RuleModule(name="ok", bust=flexible, scores=defaults))


def test_a_part_of_a_mutable_type_is_refused_when_declared() -> None:
    @attrs.define
    class Bag:
        items: list[int]

    with pytest.raises(CompositionError, match="part 'bag' holds Bag, which is not a hashable"):
        PartKey("bag", Bag)
    with pytest.raises(CompositionError, match="not a hashable type"):
        PartKey("list", list)

    @attrs.define(eq=False)
    class Box:  # hashable, but by identity: mutable, and two equal games would differ
        count: int

    with pytest.raises(CompositionError, match="holds Box, which compares by identity"):
        PartKey("box", Box)


def test_set_aside_faces_are_faces_and_compose_only_when_every_set_aside_says() -> None:
    assert RuleModule(name="m", set_aside_faces=[1, 6]).set_aside_faces == frozenset(
        {Face.ONE, Face.WORM}
    )
    for bad in ("1", 7, (0,), (True,), ("w",)):
        with pytest.raises(CompositionError, match="set_aside_faces must be faces"):
            RuleModule(name="m", set_aside_faces=bad)  # type: ignore[arg-type]

    def passing(inner, rules, state, face):  # type: ignore[no-untyped-def]
        return inner(rules, state, face)

    def pending(inner, rules, state):  # type: ignore[no-untyped-def]
        return inner(rules, state)

    named = RuleModule(name="named", set_aside=passing, set_aside_faces=(6,))
    unnamed = RuleModule(name="unnamed", set_aside=passing)
    asking = RuleModule(name="asking", pending_actions=pending)
    by_parts = RuleModule(name="by_parts", pending_actions=pending, pending_by_parts=True)
    classic = classic_components()
    assert compose(classic).set_aside_faces == frozenset()  # only the core moves dice
    assert compose(classic, named).set_aside_faces == frozenset({Face.WORM})
    assert compose(classic, named, by_parts).set_aside_faces == frozenset({Face.WORM})
    assert compose(classic, named, unnamed).set_aside_faces is None
    assert compose(classic, named, asking).set_aside_faces is None  # might follow the dice
    assert EXTENDED.rules().set_aside_faces == frozenset(
        {Face.ONE}
    )  # only 1s win a grilled worm (E4)
