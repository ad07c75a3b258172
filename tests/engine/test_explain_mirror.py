"""The explanations of illegal moves restate C8 and ask C4 and C6: each claim is checked.

``_engine.explain.MIRRORS`` names the reference of each rule ``reason`` restates. Over random
games of every built-in variant, every action of the action space that is illegal at a
decision is explained, and what the explanation says is confirmed by the reference: a face
"already set aside" or "not shown" is not among ``turn.roll_actions``; "no dice left" or
"all six faces set aside" means ``steps.decide_actions`` offers no roll; a steal refused for
its tile or its player is not among ``turn.claims``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest

from pickomino_rules import Phase, Roll, Steal, Take, get_rules, legal_actions, new_game, turn
from pickomino_rules._engine import ACTIVE, explain, steps
from pickomino_rules.actions import ROLL
from pickomino_rules.info import game_info

if TYPE_CHECKING:
    from pickomino_rules import Action, GameState, Rules


def test_the_map_names_real_references() -> None:
    for rule, name in explain.MIRRORS.items():
        module, _, attribute = name.partition(".")
        assert callable(getattr({"steps": steps, "turn": turn}[module], attribute)), rule


@pytest.mark.parametrize("variant", ["classic", "extended", "extrawurm"])
def test_every_explanation_of_an_illegal_move_is_the_reference_s(variant: str) -> None:
    rules = get_rules(variant)
    explained = 0
    for seed in range(4):
        rules, state = new_game(rules, players=2 + seed % 3)
        actions = game_info(rules, state.players).actions
        rng = random.Random(seed)
        while state.phase is not Phase.GAME_OVER:
            if state.phase is Phase.ROLL:
                state = ACTIVE.apply(rules, state, ACTIVE.sample_chance(rules, state, rng))
                continue
            legal = legal_actions(rules, state)
            for move in actions:
                if move not in legal:
                    _confirm(rules, state, move, explain.reason(rules, state, move))
                    explained += 1
            state = ACTIVE.apply(rules, state, rng.choice(legal))
    assert explained > 1000


def _confirm(rules: Rules, state: GameState, move: Action, why: str) -> None:
    """What ``why`` claims about ``move`` holds by the reference."""
    if why.startswith("C4: ") and isinstance(move, Take) and state.phase is Phase.CHOOSE:
        assert move not in turn.roll_actions(rules, state), why
        assert state.roll is not None
        if "already set aside" in why:
            assert state.set_aside[move.face - 1] > 0
        else:
            assert state.roll.count_of(move.face) == 0
    if why.startswith("C6: ") and isinstance(move, Roll):
        assert ROLL not in steps.decide_actions(state, ()), why
    if why.startswith("C8: ") and isinstance(move, Steal):
        total = rules.stop_total(rules, state)
        claims = () if total is None else rules.claims(rules, state, total)
        assert all(claim.victim != move.victim for claim in claims), why
