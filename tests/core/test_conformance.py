"""One API conformance suite over every registered variant (as OpenSpiel's api_test).

The suite is the shipped kit, ``pickomino_rules.testing``: every variant found in the
entry-point group runs it with its default options and with each boolean option flipped,
one check per test so failures are reported apart. A new variant gets these checks for
free, in this repository or its own.
"""

from __future__ import annotations

import pytest

from pickomino_rules import Phase, Rules, available_variants, get_variant
from pickomino_rules import testing as kit
from pickomino_rules.actions import ROLL
from pickomino_rules.dice import Face
from pickomino_rules.plugin import RuleModule, compose
from pickomino_rules.variants.classic import classic_components

VARIANTS = available_variants()


def variant_rules(name: str) -> list[Rules]:
    """Default rules plus each boolean option flipped."""
    variant = get_variant(name)
    flipped = [o for o in variant.options if isinstance(o.default, bool)]
    return [variant.rules(), *(variant.rules({o.name: not o.default}) for o in flipped)]


ALL_RULES = [rules for name in VARIANTS for rules in variant_rules(name)]
RULES_IDS = [f"{r.name}-" + "-".join(f"{k}={v}" for k, v in r.options.items()) for r in ALL_RULES]


def test_builtin_variants_are_registered() -> None:
    assert {"classic", "extended", "extrawurm"} <= set(VARIANTS)


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULES_IDS)
def test_random_games_end_and_keep_every_invariant(rules: Rules) -> None:
    states, moves = kit.check_random_games(rules, games=3)
    assert states > moves > 100


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULES_IDS)
def test_every_legal_action_applies(rules: Rules) -> None:
    assert kit.check_legal_actions_apply(rules, seed=11) > 100


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULES_IDS)
def test_chance_is_exact_and_multinomial(rules: Rules) -> None:
    assert kit.check_chance(rules) >= 2


@pytest.mark.parametrize("name", VARIANTS)
def test_same_seed_same_game(name: str) -> None:
    kit.check_determinism(get_variant(name).rules(), seed=5)


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULES_IDS)
def test_text_forms_and_records_round_trip(rules: Rules) -> None:
    kit.check_round_trips(rules, seed=3)


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_fuzzed_illegal_actions_are_rejected_and_change_nothing(name: str, seed: int) -> None:
    assert kit.check_illegal_actions_rejected(get_variant(name).rules(), seed=seed) > 100


@pytest.mark.parametrize("name", VARIANTS)
def test_bad_arguments_get_specific_errors(name: str) -> None:
    kit.check_bad_arguments(get_variant(name).rules())


@pytest.mark.parametrize("name", VARIANTS)
def test_check_variant_runs_the_whole_kit(name: str) -> None:
    report = kit.check_variant(name, games=1, seed=7)
    assert report.variant == name
    assert report.states > 100


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULES_IDS)
def test_pending_decisions_follow_from_the_parts_where_promised(rules: Rules) -> None:
    compared = kit.check_pending_by_parts(rules, seed=4)
    assert compared > 0 or not rules.pending_by_parts or rules.pending_actions is None


def test_a_broken_pending_by_parts_promise_is_caught() -> None:
    """A hook that promises to read only the parts but reads the player is reported."""

    def by_player(inner, rules, state):  # type: ignore[no-untyped-def]
        # never asked in play (no decision is asked of a chance node), so games run as usual
        if state.phase is Phase.ROLL and state.player == 1:
            return (ROLL,)
        return inner(rules, state)

    liar = RuleModule(name="liar", pending_actions=by_player, pending_by_parts=True)
    rules = compose(classic_components(), liar, name="liar")
    assert rules.pending_by_parts
    with pytest.raises(kit.ConformanceError, match="pending by parts"):
        kit.check_pending_by_parts(rules, seed=1)


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULES_IDS)
def test_every_promise_the_built_in_modules_make_holds(rules: Rules) -> None:
    assert kit.check_ends_on_total(rules, seed=2) > 0  # every built-in module promises it
    compared = kit.check_mid_turn_by_count(rules, seed=2)
    assert compared > 0 or not any(module.acts_mid_turn for module in rules.modules)
    assert kit.check_hooks_deterministic(rules, seed=2) > 0


def test_a_broken_ends_on_total_promise_is_caught() -> None:
    """Claims that read the dice set aside, under the promise that only the total does.

    This is the house rule that made the solver value a turn 1.595 instead of 0.749.
    """

    def by_dice(inner, rules, state, total):  # type: ignore[no-untyped-def]
        claims = inner(rules, state, total)
        return claims if state.set_aside[0] else ()  # no tile without a 1 set aside

    liar = RuleModule(name="liar", claims=by_dice, ends_on_total=True)
    rules = compose(classic_components(), liar, name="liar")
    assert rules.ends_on_total
    with pytest.raises(kit.ConformanceError, match=r"\[ends on total\].*claims"):
        kit.check_ends_on_total(rules, seed=1)
    honest = compose(classic_components(), RuleModule(name="honest", claims=by_dice))
    assert kit.check_ends_on_total(honest, seed=1) == 0  # no promise, nothing to break


def test_a_broken_mid_turn_by_count_promise_is_caught() -> None:
    """A set-aside whose effect on the board depends on the dice set aside before it."""

    def bonus(inner, rules, state, face):  # type: ignore[no-untyped-def]
        after = inner(rules, state, face)
        if sum(state.set_aside) >= 3 and state.grill:  # a late take turns a tile over
            return after.replace(
                grill=after.grill[:-1], face_down=(*after.face_down, after.grill[-1])
            )
        return after

    liar = RuleModule(name="liar", set_aside=bonus, mid_turn_by_count=True)
    rules = compose(classic_components(), liar, name="liar")
    with pytest.raises(kit.ConformanceError, match=r"\[mid turn by count\]"):
        kit.check_mid_turn_by_count(rules, seed=1)


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULES_IDS)
def test_every_set_aside_faces_promise_holds(rules: Rules) -> None:
    compared = kit.check_set_aside_faces(rules, seed=2)
    promised = [m for m in rules.modules if m.set_aside and m.set_aside_faces is not None]
    assert compared > 0 or not promised


def test_a_broken_set_aside_faces_promise_is_caught() -> None:
    """A module that names only the 1s but turns a tile over whenever worms are set aside."""

    def worms_burn(inner, rules, state, face):  # type: ignore[no-untyped-def]
        after = inner(rules, state, face)
        if face == 6 and after.grill:
            grill, face_down = after.grill[1:], (*after.face_down, after.grill[0])
            return after.replace(grill=grill, face_down=face_down)
        return after

    liar = RuleModule(name="liar", set_aside=worms_burn, set_aside_faces=(1,))
    rules = compose(classic_components(), liar, name="liar")
    assert rules.set_aside_faces == frozenset({Face.ONE})
    with pytest.raises(kit.ConformanceError, match=r"\[set aside faces\].*'liar'.*when w is set"):
        kit.check_set_aside_faces(rules, seed=1)
    honest = compose(classic_components(), RuleModule(name="honest", set_aside=worms_burn))
    assert honest.set_aside_faces is None
    assert kit.check_set_aside_faces(honest, seed=1) == 0  # no promise, nothing to break


def test_a_hook_that_draws_random_numbers_is_caught() -> None:
    import random  # noqa: PLC0415

    def lucky(inner, rules, state):  # type: ignore[no-untyped-def]
        return tuple(worms + random.randrange(1_000_000) for worms in inner(rules, state))

    rules = compose(classic_components(), RuleModule(name="lucky", scores=lucky), name="lucky")
    with pytest.raises(kit.ConformanceError, match=r"\[deterministic hooks\] .*hook scores"):
        kit.check_hooks_deterministic(rules, seed=1)


def test_a_part_that_cannot_be_hashed_is_named_not_a_raw_type_error() -> None:
    import attrs  # noqa: PLC0415

    from pickomino_rules.plugin import PartKey, Variant  # noqa: PLC0415

    @attrs.frozen
    class Bag:  # frozen, but it holds a list
        items: list[int]

    bag = PartKey("bag", Bag)

    def setup(inner, rules, state):  # type: ignore[no-untyped-def]
        return bag.set(rules, inner(rules, state), Bag([1, 2]))

    module = RuleModule(name="bag", part=bag, setup=setup)
    variant = Variant(
        name="bag", doc="", options=(), build=lambda _options: [classic_components(), module]
    )
    with pytest.raises(kit.ConformanceError, match=r"\[parts are hashable\] .*part 'bag'"):
        kit.check_variant(variant, games=1)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_declared_facts_of_every_game_hold(name: str) -> None:
    assert kit.check_game_info(get_variant(name).rules(), seed=3) > 100


def test_an_action_the_declared_facts_do_not_list_is_caught() -> None:
    """A module offers an action whose class lists no instances: not in the game's actions."""
    import attrs  # noqa: PLC0415

    from pickomino_rules.actions import Action  # noqa: PLC0415

    @attrs.frozen
    class Shout(Action):
        keyword = "shout"
        loud: bool = True

        @classmethod
        def instances(cls, rules, players):  # type: ignore[no-untyped-def]  # noqa: ARG003
            return ()

    def offer(inner, rules, state):  # type: ignore[no-untyped-def]
        return (*inner(rules, state), Shout())

    def shout(inner, rules, state, action):  # type: ignore[no-untyped-def]
        return state if isinstance(action, Shout) else inner(rules, state, action)

    loud = RuleModule(name="loud", action_types=(Shout,), roll_actions=offer, apply_action=shout)
    rules = compose(classic_components(), loud, name="loud")
    with pytest.raises(kit.ConformanceError, match=r"\[game info\].*outside the game's"):
        kit.check_game_info(rules, seed=1)
