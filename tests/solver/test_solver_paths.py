"""The solver's shortcut (one stop per total) against per-node valuation and brute force.

``Rules.ends_on_total`` lets the solver apply one stop per total; without it every node is
applied. Both must give the same values, and both must agree with a brute-force expectimax
over the public API (``legal_actions``, ``chance_outcomes``, ``apply``) on classic; every
other variant and composition is checked against brute force in ``test_solver_exact.py``.
"""

from __future__ import annotations

import random
from functools import cache

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pickomino_rules import (
    Claim,
    GameState,
    Phase,
    Rules,
    apply,
    chance_outcomes,
    get_variant,
    legal_actions,
    new_game,
    playout,
)
from pickomino_rules.bots import random_bot
from pickomino_rules.dice import Face
from pickomino_rules.plugin import ClaimsFn, RuleModule, compose
from pickomino_rules.solver import solve_turn, worms_gained
from pickomino_rules.variants.classic import classic_components

TURN = (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE)


def per_node(rules: Rules) -> Rules:
    """The same rules without the promise: the solver applies every node."""
    return attrs.evolve(rules, ends_on_total=False)


def mid_turn_states(variant: str, seed: int, players: int = 3) -> list[GameState]:
    rules, start = new_game(variant, players=players)
    states = [after for _, after in playout(rules, start, random_bot, random.Random(seed))]
    return [
        s
        for s in states
        if s.phase in TURN and not (rules.pending_actions and rules.pending_actions(rules, s))
    ]


@settings(max_examples=20, deadline=None)
@given(variant=st.sampled_from(["classic", "extended", "extrawurm"]), seed=st.integers(0, 10**6))
def test_one_stop_per_total_gives_every_value_of_per_node_valuation(
    variant: str, seed: int
) -> None:
    rules = get_variant(variant).rules()
    assert rules.ends_on_total  # every built-in module makes the promise
    slow = per_node(rules)
    states = mid_turn_states(variant, seed)
    for state in random.Random(seed).sample(states, min(3, len(states))):
        fast, exact = solve_turn(rules, state), solve_turn(slow, state)
        assert fast.value == pytest.approx(exact.value, abs=1e-12)
        if state.phase is not Phase.ROLL:
            values, expected = fast.action_values(), exact.action_values()
            assert values.keys() == expected.keys()
            for action, value in values.items():
                assert value == pytest.approx(expected[action], abs=1e-12)


@settings(max_examples=20, deadline=None)
@given(variant=st.sampled_from(["extended", "extrawurm"]), seed=st.integers(0, 10**6))
def test_probing_only_the_promised_faces_gives_every_value_of_probing_all(
    variant: str, seed: int
) -> None:
    """``Rules.set_aside_faces`` (only 1s win a grilled worm, E4) against asking every face."""
    rules = get_variant(variant).rules()
    assert rules.set_aside_faces == frozenset({Face.ONE})
    every = attrs.evolve(rules, set_aside_faces=None)
    states = mid_turn_states(variant, seed)
    for state in random.Random(seed).sample(states, min(3, len(states))):
        fast, exact = solve_turn(rules, state), solve_turn(every, state)
        assert fast.value == exact.value
        if state.phase is not Phase.ROLL:
            assert fast.action_values() == exact.action_values()


def test_the_solver_asks_the_rules_only_about_the_promised_faces() -> None:
    rules, start = new_game("extended", players=3)
    asked: set[int] = set()

    def recorded(rules: Rules, state: GameState, face: int) -> GameState:
        asked.add(face)
        return set_aside(rules, state, face)  # type: ignore[arg-type]

    set_aside = rules.set_aside
    solve_turn(attrs.evolve(rules, set_aside=recorded), start)
    assert asked == {1}
    asked.clear()
    solve_turn(attrs.evolve(rules, set_aside=recorded, set_aside_faces=None), start)
    assert asked == {1, 2, 3, 4, 5, 6}


def brute_force(rules: Rules, state: GameState) -> float:
    """Expected worms gained this turn under the best play, by plain expectimax."""
    player, before = state.player, sum(rules.worms[t] for t in state.stacks[state.player])

    @cache
    def worth(node: GameState) -> float:
        if node.player != player or node.phase not in TURN:
            return float(sum(rules.worms[t] for t in node.stacks[player]) - before)
        if node.phase is Phase.ROLL:
            return sum(
                float(p) * worth(apply(rules, node, o)) for o, p in chance_outcomes(rules, node)
            )
        return max(worth(apply(rules, node, action)) for action in legal_actions(rules, node))

    return worth(state)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_the_solver_agrees_with_brute_force_on_classic_mid_turn_states(
    seed: int, players: int
) -> None:
    rules = get_variant("classic").rules()
    states = [s for s in mid_turn_states("classic", seed, players) if sum(s.in_hand) <= 3]
    for state in random.Random(seed).sample(states, min(4, len(states))):
        assert solve_turn(rules, state).value == pytest.approx(brute_force(rules, state), abs=1e-9)


def _six_faces_take_anything(
    inner: ClaimsFn, rules: Rules, state: GameState, total: int
) -> tuple[Claim, ...]:
    """A house rule that reads the dice at a stop: all six faces set aside take the top tile."""
    claims = inner(rules, state, total)
    if all(state.set_aside) and state.grill and not claims:
        return (Claim.grill_tile(state.grill[-1]),)
    return claims


def test_a_module_without_the_promise_is_valued_node_by_node_and_exactly() -> None:
    house = RuleModule(name="six_faces", claims=_six_faces_take_anything)
    rules = compose(classic_components(), house, name="house")
    assert not rules.ends_on_total  # the module promises nothing
    _, start = new_game(rules, players=2)
    # ones, twos, threes, fours and fives set aside (15 points), one die left for a worm:
    # only the house rule makes a stop of 20 worth a tile, and only with all six faces
    state = start.replace(phase=Phase.DECIDE, in_hand=(2,), set_aside=(1, 1, 1, 1, 1, 1))
    assert solve_turn(rules, state).value == pytest.approx(brute_force(rules, state), abs=1e-12)
    # from a turn's start, nodes of one total differ in whether all six faces are there:
    # a false promise would value them alike, and visibly wrongly
    honest = solve_turn(rules, start).value
    promised = solve_turn(attrs.evolve(rules, ends_on_total=True), start).value
    assert honest > promised + 1e-3


def test_the_promise_must_be_a_bool() -> None:
    with pytest.raises(TypeError):
        RuleModule(name="x", ends_on_total="yes")  # type: ignore[arg-type]


def test_worms_gained_is_the_default() -> None:
    rules, state = new_game("classic", players=2)
    assert solve_turn(rules, state).value_fn is worms_gained
