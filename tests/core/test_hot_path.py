"""The engine's speed-ups keep its meaning: `new_state`, and what `apply` reuses.

The hot path builds states without the attrs constructor and remembers what the last decision
state offered. These tests check that both are invisible: the states are ordinary frozen
values, and a remembered derivation is only used for the same rules and the same state.
"""

from __future__ import annotations

import copy
import pickle
import random
import threading
from bisect import bisect_right

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pickomino_rules import (
    Action,
    GameState,
    Phase,
    RollOutcome,
    apply,
    get_rules,
    legal_actions,
    new_game,
    sample_chance,
    stop_claims,
)
from pickomino_rules.actions import Roll, Stop, Take
from pickomino_rules.info import game_info
from pickomino_rules.plugin import RuleModule, compose
from pickomino_rules.state import Claim, new_state
from pickomino_rules.variants.classic import classic_modules

FIELDS = [attribute.name for attribute in attrs.fields(GameState)]


def _random_states(variant: str, seed: int, limit: int = 400) -> list[GameState]:
    rules, state = new_game(variant, players=3)
    rng = random.Random(seed)
    states = [state]
    while state.phase is not Phase.GAME_OVER and len(states) < limit:
        if state.phase is Phase.ROLL:
            move: Action | RollOutcome = sample_chance(rules, state, rng)
        else:
            move = rng.choice(legal_actions(rules, state))
        state = apply(rules, state, move)
        states.append(state)
    return states


@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_new_state_builds_ordinary_frozen_states(variant: str) -> None:
    for state in _random_states(variant, seed=3, limit=60):
        built = new_state(*(getattr(state, name) for name in FIELDS))
        assert type(built) is GameState
        assert built == state
        assert hash(built) == hash(state)
        assert pickle.loads(pickle.dumps(built)) == state  # noqa: S301 (our own bytes)
        assert copy.deepcopy(built) is built
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            built.player = 1  # type: ignore[misc]


@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_remembered_actions_equal_fresh_ones(variant: str) -> None:
    """Asked in any order, with other states in between, the answers do not change."""
    rules = get_rules(variant)
    states = _random_states(variant, seed=11)
    forward = [legal_actions(rules, state) for state in states]
    backward = [legal_actions(rules, state) for state in reversed(states)][::-1]
    assert forward == backward
    rng = random.Random(5)
    for state, legal in zip(states, forward, strict=True):
        if state.phase is Phase.ROLL or not legal:
            continue
        move = rng.choice(legal)
        legal_actions(rules, rng.choice(states))  # another state asked in between
        after_other = apply(rules, state, move)
        legal_actions(rules, state)
        after_same = apply(rules, state, move)
        assert after_other == after_same
        if state.phase is Phase.DECIDE:
            legal_actions(rules, rng.choice(states))
            claims = stop_claims(rules, state)
            legal_actions(rules, state)
            assert stop_claims(rules, state) == claims


def test_what_one_rules_derived_is_not_used_by_other_rules_of_the_same_layout() -> None:
    """O3 off keeps the legal actions here but changes what ``stop`` takes."""
    optional = get_rules("classic")
    required = get_rules("classic", {"optional_steal": False})
    assert optional.layout is required.layout
    _, start = new_game(optional, players=2)
    state = start.replace(  # five 5s and a worm: 30, on top of player 1's stack, not on the grill
        phase=Phase.DECIDE,
        in_hand=(2,),
        set_aside=(0, 0, 0, 0, 5, 1),
        stacks=((), (30,)),
        grill=tuple(tile for tile in start.grill if tile != 30),
    )
    assert legal_actions(optional, state) == legal_actions(required, state)
    legal_actions(optional, state)  # remembered for the other rules
    stolen = apply(required, state, Action.parse("stop"))
    legal_actions(required, state)
    grilled = apply(optional, state, Action.parse("stop"))
    assert (stolen.stacks, grilled.stacks) == (((30,), ()), ((29,), (30,)))


def _counting_module(counts: dict[str, int]) -> RuleModule:
    def roll_actions(inner, rules, state):  # type: ignore[no-untyped-def]
        counts["roll_actions"] += 1
        return inner(rules, state)

    def claims(inner, rules, state, total):  # type: ignore[no-untyped-def]
        counts["claims"] += 1
        return inner(rules, state, total)

    return RuleModule(name="counting", roll_actions=roll_actions, claims=claims)


def test_each_decision_state_is_derived_once_in_play() -> None:
    """``legal_actions`` then ``apply`` on one state run its hooks once, not two or three times."""
    counts = {"roll_actions": 0, "claims": 0}
    rules = compose(*classic_modules(get_rules("classic").options), _counting_module(counts))
    _, state = new_game(rules, players=2)
    rng = random.Random(2)
    chooses = decides = 0
    for _ in range(3000):
        if state.phase is Phase.GAME_OVER:
            break
        legal = legal_actions(rules, state)
        if state.phase is Phase.ROLL:
            move: Action | RollOutcome = sample_chance(rules, state, rng)
        else:
            chooses += state.phase is Phase.CHOOSE
            decides += state.phase is Phase.DECIDE and rules.stop_total(rules, state) is not None
            move = rng.choice(legal)
        state = apply(rules, state, move)
    # A roll is derived once when it is shown (C5), and then reused; a bust roll too.
    assert chooses <= counts["roll_actions"] <= chooses + 3000 // 3
    assert counts["claims"] == decides


def test_threads_sharing_rules_play_the_games_they_would_play_alone() -> None:
    rules = get_rules("extended")

    def game(seed: int) -> GameState:
        _, state = new_game(rules, players=3)
        rng = random.Random(seed)
        while state.phase is not Phase.GAME_OVER:
            legal = legal_actions(rules, state)
            move = (
                sample_chance(rules, state, rng) if state.phase is Phase.ROLL else rng.choice(legal)
            )
            state = apply(rules, state, move)
        return state

    alone = [game(seed) for seed in range(4)]
    together: list[GameState | None] = [None] * 4

    def play(seed: int) -> None:
        together[seed] = game(seed)

    threads = [threading.Thread(target=play, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == alone


@settings(max_examples=200)
@given(dice=st.integers(1, 8), u=st.floats(0, 1, exclude_max=True))
def test_sampling_by_float_bounds_picks_the_roll_the_integer_sums_pick(dice: int, u: float) -> None:
    """C3: the float bounds are exact, so a draw picks the same roll as with the int sums."""
    table = get_rules("classic").chance_table((dice,))
    x = u * table.total
    assert bisect_right(table.bounds, x) == bisect_right(table.cumulative, x)
    assert table.bounds == tuple(float(bound) for bound in table.cumulative)


def test_a_roll_equal_to_the_tables_own_is_accepted_and_a_foreign_one_refused() -> None:
    rules, state = new_game("classic", players=2)
    table = rules.chance_table(state.in_hand)
    own = table.outcomes[7]
    equal = RollOutcome(own.kinds, own.counts)
    assert equal is not own
    assert table.has(own)
    assert table.has(equal)
    assert apply(rules, state, equal) == apply(rules, state, own)
    assert not table.has(RollOutcome.parse("1234"))  # four dice, not eight
    assert not table.has("11234ww5")


def test_an_equal_action_built_anew_is_as_legal_as_the_offered_one() -> None:
    rules, state = new_game("classic", players=2)
    state = apply(rules, state, RollOutcome.parse("11234ww5"))
    offered = legal_actions(rules, state)[-1]
    anew = Action.parse(str(offered))
    rebuilt = type(offered)(*attrs.astuple(offered, recurse=False))
    assert rebuilt is not offered
    assert apply(rules, state, rebuilt) == apply(rules, state, offered) == apply(rules, state, anew)


@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_the_action_spaces_core_actions_are_the_engines_own_objects(variant: str) -> None:
    """The encodings find an action's number by identity first (the mask; a decoded action's
    legality): the action space holds the very objects the engine offers, not equal copies."""
    rules = get_rules(variant)
    space = {action: action for action in game_info(rules, 3).actions}
    offered = 0
    for state in _random_states(variant, seed=3):
        for action in legal_actions(rules, state):
            if isinstance(action, Roll | Stop | Take):
                assert space[action] is action
                offered += 1
    assert offered > 100


@pytest.mark.parametrize("total", range(45))
def test_claims_find_the_exact_or_next_lower_tile_and_the_steals(total: int) -> None:
    """C8, checked against a plain reading of the rule over boards from play."""
    rules = get_rules("classic")
    for state in _random_states("classic", seed=total, limit=300)[::7]:
        grill = state.grill
        expected: list[Claim] = []
        if total in grill:
            expected = [Claim(total)]
        else:
            lower = [tile for tile in grill if tile < total]
            if lower:
                expected.append(Claim(max(lower)))
            expected += [
                Claim(total, victim)
                for victim, stack in enumerate(state.stacks)
                if victim != state.player and stack and stack[-1] == total
            ]
        assert list(rules.claims(rules, state, total)) == expected


@settings(max_examples=300)
@given(
    dice=st.integers(1, 8),
    pick=st.integers(0, 10**6),
    used=st.lists(st.booleans(), min_size=6, max_size=6),
)
def test_takes_by_bits_are_the_plain_reading_of_c4(dice: int, pick: int, used: list[bool]) -> None:
    """C4: a take per face shown and not set aside before, in face order."""
    rules = get_rules("classic")
    outcomes = rules.chance_table((dice,)).outcomes
    roll = outcomes[pick % len(outcomes)]
    counts = tuple(int(flag) for flag in used)
    state = new_game(rules)[1].replace(phase=Phase.CHOOSE, roll=roll, set_aside=counts)
    plain = tuple(
        Action.parse(f"take {'12345w'[index]}")
        for index in range(6)
        if roll.faces[index] and not counts[index]
    )
    assert rules.roll_actions(rules, state) == plain
    assert roll.shown == sum(1 << index for index in range(6) if roll.faces[index])
