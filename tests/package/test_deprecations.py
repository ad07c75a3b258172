"""Names renamed or retired in 0.2 still work, and say what to use instead."""

from __future__ import annotations

import pytest

from pickomino_rules import Action, Claim, Phase, apply, get_rules, new_game, stop_claims
from pickomino_rules.game import claim_of_stop, resolve_bust, stop_claim


def test_stop_claim_is_claim_of_stop() -> None:
    claims = (Claim(27, victim=1), Claim.grill_tile(26))
    with pytest.deprecated_call(match="use claim_of_stop"):
        assert stop_claim(claims) is claim_of_stop(claims) is claims[1]


def test_the_solver_s_not_solvable_error_is_no_turn_decision_error() -> None:
    solver = pytest.importorskip("pickomino_rules.solver")
    assert solver.NotSolvableError is solver.NoTurnDecisionError
    assert issubclass(solver.NoTurnDecisionError, ValueError)


def test_the_batch_engine_s_phase_codes_keep_their_old_names() -> None:
    batch = pytest.importorskip("pickomino_rules.batch")
    old = (batch.ROLL, batch.CHOOSE, batch.DECIDE, batch.GAME_OVER)
    assert old == (batch.PHASE_ROLL, batch.PHASE_CHOOSE, batch.PHASE_DECIDE, batch.PHASE_GAME_OVER)


def test_default_ends_and_fused_are_deprecated_and_still_answer() -> None:
    with pytest.deprecated_call():
        assert get_rules("classic").default_ends
    with pytest.deprecated_call():
        assert not get_rules("classic", {"short_game": True}).default_ends
    with pytest.deprecated_call():
        assert not get_rules("extended").default_ends
    rules = get_rules("classic")
    _, start = new_game(rules, players=2)
    decide = start.replace(phase=Phase.DECIDE, in_hand=(2,), set_aside=(0, 0, 0, 0, 5, 1))
    from pickomino_rules import fused  # noqa: PLC0415 (deprecated: imported where tested)

    with pytest.deprecated_call():
        ended = fused.end_turn(rules, decide, stop_claims(rules, decide)[0])
    assert ended == apply(rules, decide, Action.parse("stop"))
    with pytest.deprecated_call():
        busted = fused.end_turn(rules, decide, None)
    assert busted == resolve_bust(rules, decide)


def test_a_record_s_rules_are_an_attribute_as_a_position_s_and_the_old_call_warns() -> None:
    from pickomino_rules.positions import Position  # noqa: PLC0415
    from pickomino_rules.records import GameRecord  # noqa: PLC0415

    record = GameRecord.play("extended", 2, seed=1)
    rules, state = record.initial()
    assert record.rules is rules is Position(rules, state).rules
    with pytest.deprecated_call(match="write record.rules"):
        assert record.rules() is rules
