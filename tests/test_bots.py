"""Bots: registry, and never an illegal move (property test over random states)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pickomino_rules import Phase, available_variants, get_variant, legal_actions, new_game, playout
from pickomino_rules.bots import (
    BOTS,
    UnknownBotError,
    get_bot,
    greedy_bot,
    random_bot,
    register_bot,
)


@given(
    variant=st.sampled_from(available_variants()),
    seed=st.integers(0, 2**32),
    cut=st.floats(0, 1),
    bot_seed=st.integers(0, 100),
)
def test_every_bot_picks_a_legal_move(variant: str, seed: int, cut: float, bot_seed: int) -> None:
    rules = get_variant(variant).rules()
    _, state = new_game(rules, players=3)
    states = [after for _, after in playout(rules, state, random_bot, random.Random(seed))]
    decisions = [s for s in states if s.phase not in (Phase.ROLL, Phase.GAME_OVER)]
    chosen = decisions[int(cut * (len(decisions) - 1))]
    for bot in BOTS.values():
        assert bot(rules, chosen, random.Random(bot_seed)) in legal_actions(rules, chosen)


def test_bots_refuse_chance_nodes_and_finished_games() -> None:
    rules, state = new_game("classic")
    with pytest.raises(ValueError, match="chance node"):
        greedy_bot(rules, state, random.Random(0))
    final = state.replace(grill=(), phase=Phase.GAME_OVER)
    with pytest.raises(ValueError, match="game is over"):
        random_bot(rules, final, random.Random(0))


def test_register_and_get_bots() -> None:
    assert get_bot("greedy") is greedy_bot
    with pytest.raises(UnknownBotError, match="unknown bot 'nobody'"):
        get_bot("nobody")
    with pytest.raises(ValueError, match="already registered"):
        register_bot("greedy", random_bot)
    register_bot("always_first", lambda rules, state, _rng: legal_actions(rules, state)[0])  # type: ignore[arg-type,return-value]
    try:
        assert "always_first" in BOTS
    finally:
        del BOTS["always_first"]
