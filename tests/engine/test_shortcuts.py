"""The engine's shortcuts for rules that keep the core's hooks give the states the hooks give.

Where no module wraps a hook (``Rules.wrapped``), the compiled kernel calls its own twin of
the core's function directly, and the engine skips an ``end_turn`` or ``turn_dice`` that has
nothing to add; under the ``ends_on_total`` promise it remembers the claims of a board.
Here the same games are played twice: by rules that take
the shortcuts, and by the same rules with a module that wraps every hook involved without
changing anything (and makes no promise), so that the engine runs the hooks one by one.
Every state must be the same (C8-C12).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

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
from pickomino_rules.plugin import RuleModule, compose

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules

OPTIONS = [
    {},
    {"optional_steal": False},
    {"short_game": True},
    {"flip_on_empty_bust": True},
]


def _through(inner: Any, *args: Any) -> Any:
    return inner(*args)


def _hook_by_hook(rules: Rules) -> Rules:
    """The same rules with every end-of-turn hook wrapped by a module that changes nothing."""
    wrapper = RuleModule(
        name="through",
        take_tile=_through,
        bust=_through,
        end_turn=_through,
        turn_dice=_through,
        claims=_through,
        stop_total=_through,
    )
    return compose(*rules.modules, wrapper, name=rules.name, options=rules.options)


def _play_both(fast: Rules, slow: Rules, players: int, seed: int, sensible: bool) -> int:
    """Play one game with both rules on the same moves; every state must be equal."""
    _, state = new_game(fast, players=players)
    _, other = new_game(slow, players=players)
    rng = random.Random(seed)
    steps = 0
    while state.phase is not Phase.GAME_OVER:
        legal = legal_actions(fast, state)
        assert legal == legal_actions(slow, other)
        move: Action | RollOutcome
        if state.phase is Phase.ROLL:
            move = sample_chance(fast, state, rng)
        else:
            assert stop_claims(fast, state) == stop_claims(slow, other)
            if sensible and state.phase is Phase.DECIDE and not stop_claims(fast, state):
                legal = tuple(action for action in legal if str(action) != "stop") or legal
            move = rng.choice(legal)
        state, other = apply(fast, state, move), apply(slow, other, move)
        assert state == other, f"step {steps}: {move}"
        steps += 1
    assert other.phase is Phase.GAME_OVER
    return steps


@pytest.mark.parametrize("options", OPTIONS, ids=lambda options: str(options) or "default")
@pytest.mark.parametrize("players", [2, 4])
def test_turn_ends_by_the_core_s_own_hooks_give_the_states_the_hooks_give(
    options: dict[str, object], players: int
) -> None:
    """C8-C12 by both paths, on whole games of random and of sensible play."""
    fast = get_rules("classic", options)
    slow = _hook_by_hook(fast)
    assert slow.wrapped >= {"take_tile", "bust", "end_turn", "turn_dice", "claims", "stop_total"}
    assert slow.tidies_turn_end
    assert slow.deals_own_dice
    assert not slow.ends_on_total
    for seed in range(3):
        assert _play_both(fast, slow, players, seed, sensible=seed % 2 == 1) > 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 7))
def test_turn_ends_agree_on_any_game(seed: int, players: int) -> None:
    fast = get_rules("classic")
    _play_both(fast, _hook_by_hook(fast), players, seed, sensible=seed % 2 == 0)


def test_the_rules_say_which_hooks_a_module_implements() -> None:
    assert get_rules("classic").wrapped == frozenset()
    assert get_rules("classic", {"short_game": True}).wrapped == {"bust"}  # O2 wraps bust
    assert not get_rules("classic").tidies_turn_end
    assert get_rules("extended").wrapped >= {"claims", "take_tile", "bust", "turn_dice"}


def test_remembered_claims_follow_the_board() -> None:
    """Two states that differ only in the board get their own claims (C8)."""
    rules = get_rules("classic")
    _, start = new_game(rules, players=2)
    decide = start.replace(phase=Phase.DECIDE, in_hand=(0,), set_aside=(0, 0, 0, 0, 3, 5))
    assert decide.total == 40
    assert [c.tile for c in stop_claims(rules, decide)] == [36]
    fewer = decide.replace(grill=tuple(t for t in decide.grill if t != 36))
    assert [c.tile for c in stop_claims(rules, fewer)] == [35]
    stolen = fewer.replace(grill=tuple(t for t in fewer.grill if t < 30), stacks=((), (40,)))
    # 40 is no tile, but the claims hook is asked: the next lower grill tile, no steal of 40
    assert [(c.tile, c.victim) for c in stop_claims(rules, stolen)] == [(29, None), (40, 1)]
    # the same board with player 1 to move: no steal from oneself
    mine = stolen.replace(player=1)
    assert [(c.tile, c.victim) for c in stop_claims(rules, mine)] == [(29, None)]


def test_a_state_built_by_hand_ends_its_turn_like_the_hooks_end_it() -> None:
    """A bust with a tile that is the highest: it goes back, nothing turns (C10)."""
    rules = get_rules("classic")
    slow = _hook_by_hook(rules)
    _, start = new_game(rules, players=3)
    state: GameState = start.replace(
        grill=(21, 22, 23),
        stacks=((30,), (), ()),
        phase=Phase.DECIDE,
        in_hand=(2,),
        set_aside=(3, 3, 0, 0, 0, 0),
    )
    stop = next(action for action in legal_actions(rules, state) if str(action) == "stop")
    fast_end, slow_end = apply(rules, state, stop), apply(slow, state, stop)
    assert fast_end == slow_end
    assert (fast_end.grill, fast_end.face_down, fast_end.player) == ((21, 22, 23, 30), (), 1)
