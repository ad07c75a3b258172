"""The numeric encoding against the reference engine: action space, masks, observations,
rewards; and its errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pickomino_rules import (
    ArgumentTypeError,
    Phase,
    Steal,
    Stop,
    available_variants,
    get_rules,
    legal_actions,
    new_game,
    result,
    scores,
)
from pickomino_rules.encoding import ActionEncodingError, Encoding, returns, worm_margins
from pickomino_rules.testing import random_game

VARIANTS = available_variants()


@st.composite
def positions(draw: st.DrawFn) -> tuple[Encoding, int, int]:
    """An encoding, a seeded random game's seed and a step index in it."""
    rules = get_rules(draw(st.sampled_from(VARIANTS)))
    low = rules.components.min_players
    players = draw(st.integers(low, low + 3))
    return Encoding.of(rules, players), draw(st.integers(0, 30)), draw(st.integers(0, 10**6))


@given(positions())
def test_the_mask_is_exactly_the_legal_actions(case: tuple[Encoding, int, int]) -> None:
    encoding, seed, _ = case
    for state, _ in random_game(encoding.rules, encoding.players, seed):
        mask = encoding.legal_mask(state)
        assert mask.dtype == np.int8
        assert mask.shape == (encoding.num_actions,)
        if state.phase in (Phase.ROLL, Phase.GAME_OVER):
            assert not mask.any()
            continue
        decoded = {encoding.decode(number) for number in np.flatnonzero(mask)}
        assert decoded == set(legal_actions(encoding.rules, state))


@given(positions())
def test_observations_fit_their_bounds_and_see_from_the_seat(
    case: tuple[Encoding, int, int],
) -> None:
    encoding, seed, index = case
    history = random_game(encoding.rules, encoding.players, seed)
    state, _ = history[index % len(history)]
    worms = scores(encoding.rules, state)
    for player in range(encoding.players):
        vector = encoding.observe(state, player)
        assert vector.dtype == np.float32
        assert vector.shape == (encoding.observation_size,)
        assert (vector >= 0).all()
        assert (vector <= encoding.observation_high).all()
        seen = vector[encoding.segments["scores"]]
        expected = [worms[(player + seat) % encoding.players] for seat in range(encoding.players)]
        assert seen.tolist() == expected
        if state.phase is not Phase.GAME_OVER:
            to_move = vector[encoding.segments["to_move"]]
            assert to_move[(state.player - player) % encoding.players] == 1


def test_every_variant_part_is_observed() -> None:
    for variant in VARIANTS:
        encoding = Encoding.of(get_rules(variant), 2)
        assert encoding.unobserved == ()
        names = [key.name for key in encoding.rules.layout.parts]
        assert all(name in encoding.segments for name in names)


def test_the_action_space_holds_the_variant_actions() -> None:
    encoding = Encoding.of(get_rules("extended"), 3)
    texts = [str(action) for action in encoding.actions]
    for text in ("roll", "stop", "take w", "steal 2", "rob 1", "weasel", "accept", "keep hen"):
        assert text in texts
    assert len(set(encoding.actions)) == encoding.num_actions
    for number, action in enumerate(encoding.actions):
        assert encoding.encode(action) == number
        assert encoding.decode(np.int64(number)) == action


def test_observations_tell_states_apart() -> None:
    rules = get_rules("classic")
    encoding = Encoding.of(rules, 2)
    history = random_game(rules, 2, 1)
    vectors = {encoding.observe(s, 0).tobytes() for s, _ in history[:40]}
    assert len(vectors) > 30  # distinct states, distinct vectors (a few repeat on the table)


@pytest.mark.parametrize("number", [-1, 11, 2**40, 1.0, "1", True, None])
def test_bad_action_numbers_are_refused(number: object) -> None:
    encoding = Encoding.of(get_rules("classic"), 3)
    with pytest.raises(ActionEncodingError):
        encoding.decode(number)


def test_actions_outside_the_space_are_refused() -> None:
    encoding = Encoding.of(get_rules("classic"), 2)
    with pytest.raises(ActionEncodingError, match=r"Steal\(5\)"):
        encoding.encode(Steal(5))
    with pytest.raises(ActionEncodingError):
        encoding.encode("stop")  # type: ignore[arg-type]
    assert encoding.encode(Stop()) == 7


def test_observing_a_foreign_state_or_player_is_refused() -> None:
    encoding = Encoding.of(get_rules("classic"), 2)
    _, three = new_game("classic", players=3)
    with pytest.raises(ValueError, match="players"):
        encoding.observe(three, 0)
    _, two = new_game("classic", players=2)
    for player in (2, -1):
        with pytest.raises(ValueError, match="player"):
            encoding.observe(two, player)
    for wrong in ("0", True):
        with pytest.raises(ArgumentTypeError, match="player"):
            encoding.observe(two, wrong)  # type: ignore[arg-type]


@given(positions())
def test_returns_and_margins_are_zero_sum(case: tuple[Encoding, int, int]) -> None:
    encoding, seed, index = case
    history = random_game(encoding.rules, encoding.players, seed)
    state, _ = history[index % len(history)]
    assert sum(worm_margins(encoding.rules, state)) == pytest.approx(0)
    final, _ = history[-1]
    results = returns(encoding.rules, final)
    assert sum(results) == pytest.approx(0)
    assert max(results) > 0 or results == (0.0,) * encoding.players
    winners = result(encoding.rules, final).winners
    assert (
        all((results[p] > 0) == (p in winners) for p in range(encoding.players))
        or len(winners) == encoding.players
    )
