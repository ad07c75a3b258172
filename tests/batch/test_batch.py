"""The batch engine against the reference engine: same dice, same actions, same everything.

Every row of a batch is replayed in the reference engine (``apply`` with the dice the batch
rolled, logged through ``on_roll``), and after every step each row's state, legal actions,
observation and, at the end of a game, its scores, winners, rewards, moves and turns must be
the reference's, for every built-in variant and option set. The default run plays 120 games
per set; the thorough hypothesis profile (``HYPOTHESIS_PROFILE=thorough``) 20,000 per variant.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np
import pytest
from batch_replay import CLASSIC_SETS, EXTENDED_SETS, LIGHT, OPTIONS, POLICIES, THOROUGH

from pickomino_rules import RollOutcome, apply, new_game, parse_move
from pickomino_rules.actions import ROLL
from pickomino_rules.batch import BatchActionError, BatchGames, _bots
from pickomino_rules.batch._check import Replay
from pickomino_rules.batch_bots import (
    UnknownVectorBotError,
    get_vector_bot,
    greedy_actions,
    random_actions,
)
from pickomino_rules.bots import greedy_bot
from pickomino_rules.errors import InvalidSetupError, InvalidStateError, RulesMismatchError
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Mapping


def _differential(
    variant: str, options: Mapping[str, object], players: int, policy: str, games: int
) -> int:
    width = min(64, games)
    replay = Replay(width, players, options, seed=hash((players, policy)) % 2**32, variant=variant)
    choose = POLICIES[policy]
    rng = np.random.default_rng(players)
    replay.check_rows()
    steps = 0
    while replay.finished < games:
        replay.step(choose(replay.batch, rng))
        steps += 1
        # observations every 4th step by default, every 16th in the thorough runs (their cost)
        replay.check_rows(observations=steps % (16 if THOROUGH else 4) == 0)
    return replay.finished


def _set_id(value: object) -> str:
    if isinstance(value, str):
        return value
    assert isinstance(value, dict)
    return (
        "-".join(
            f"{k.split('_')[0]}{v if not isinstance(v, bool) else int(v)}" for k, v in value.items()
        )
        or "defaults"
    )


@pytest.mark.parametrize(("variant", "options"), [*CLASSIC_SETS, *EXTENDED_SETS], ids=_set_id)
def test_batch_engine_matches_reference_engine(variant: str, options: dict[str, object]) -> None:
    """C3-C13, E1-E14 with O1-O6: states, legal sets, observations and results, game for game."""
    # default: 120 games per set (a fifth of them uniformly random, long games); thorough:
    # 20,000 games per variant, shared among its option sets
    sets = sum(name == variant for name, _ in [*CLASSIC_SETS, *EXTENDED_SETS])
    scale = -(-20_000 // sets // 120) if THOROUGH else 1
    plan = ((2, "random", 24), (3, "sensible", 56), (5, "sensible", 40))
    for players, policy, games in plan:
        count = max(2, games // 8) if LIGHT else games * scale
        assert _differential(variant, options, players, policy, count) >= count


@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("variant", ["classic", "extended", "extrawurm"])
def test_vectorised_greedy_plays_exactly_greedy_bot(variant: str, players: int) -> None:
    replay = Replay(32, players, {}, seed=players, variant=variant)
    rng = np.random.default_rng(0)
    while replay.finished < (200 if THOROUGH else 4 if LIGHT else 20):
        actions = greedy_actions(replay.batch, rng)
        for row, state in enumerate(replay.states):
            expected = replay.encoding.encode(greedy_bot(replay.rules, state, random.Random(0)))
            assert actions[row] == expected, (row, state)
        replay.step(actions)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("variant", ["classic", "extended", "extrawurm"])
def test_scores_after_a_move_are_the_reference_s_and_change_nothing(
    variant: str, players: int
) -> None:
    """E4 and the rest: ``scores_after`` is ``scores(apply(...))`` per row, games untouched."""
    replay = Replay(16, players, {}, seed=players + 7, variant=variant)
    rng = np.random.default_rng(3)
    checked = 0
    while replay.finished < (60 if THOROUGH else 2 if LIGHT else 6):
        batch = replay.batch
        mask = batch.legal_mask()
        before = batch.states()
        for number in range(batch.encoding.num_actions):
            active = mask[:, number]
            if not active.any():
                continue
            after = batch.scores_after(np.full(batch.size, number), active)
            for row in np.flatnonzero(active).tolist():
                state = replay.states[row]
                moved = apply(replay.rules, state, replay.encoding.decode(number))
                assert after[row].tolist() == list(replay.rules.scores(replay.rules, moved))
                checked += 1
            assert batch.states() == before
            assert (batch.legal_mask() == mask).all()
        replay.step(
            greedy_actions(batch, rng) if rng.random() < 0.5 else random_actions(batch, rng)
        )
    assert checked > 100


def test_random_actions_are_legal_and_uniform() -> None:
    batch = BatchGames(1, seed=3)
    legal = np.flatnonzero(batch.legal_mask()[0])
    rng = np.random.default_rng(1)
    draws = [int(random_actions(batch, rng)[0]) for _ in range(3000)]
    counts = np.bincount(draws, minlength=batch.encoding.num_actions)
    assert set(np.flatnonzero(counts)) == set(legal)
    expected = 3000 / len(legal)
    assert all(abs(counts[a] - expected) < 5 * np.sqrt(expected) for a in legal)


def test_the_compiled_pick_takes_the_actions_the_numpy_one_takes() -> None:
    """``random_actions``' pick in C (``batch/_pick.pyx``) against its numpy form, on random
    masks (rows with no legal action, with every action legal) and random draws."""
    pick = pytest.importorskip("pickomino_rules.batch._pick")
    rng = np.random.default_rng(7)
    for width, density in ((1, 0.5), (10, 0.3), (17, 0.9), (40, 0.05)):
        mask = rng.random((2_000, width)) < density
        mask[:50] = False
        mask[50:100] = True
        draws = rng.random(len(mask))
        draws[:10] = np.nextafter(1.0, 0.0)  # the highest draw: the last legal action
        draws[10:20] = 0.0
        chosen = np.full(len(mask), -1, dtype=np.int64)
        pick.pick(mask.view(np.uint8), draws, chosen)
        assert (chosen == _bots.pick_in_numpy(mask, draws)).all()
        assert mask[np.arange(len(mask)), chosen][mask.any(axis=1)].all()
    with pytest.raises(ValueError, match="one draw"):
        pick.pick(mask.view(np.uint8), draws[:-1], chosen)


def test_rows_convert_to_states_and_back() -> None:
    batch = BatchGames(50, 3, seed=5, auto_reset=False)
    rng = np.random.default_rng(5)
    for _ in range(400):
        batch.step(greedy_actions(batch, rng))
    states = [batch.state(row) for row in range(50)]
    assert any(s.phase is Phase.GAME_OVER for s in states)
    other = BatchGames(50, 3, seed=9, auto_reset=False)
    for row, state in enumerate(reversed(states)):
        other.set_state(row, state)
    assert [other.state(row) for row in range(50)] == states[::-1]
    assert (other.legal_mask() == batch.legal_mask()[::-1]).all()


def test_a_chance_node_is_rolled_when_loaded() -> None:
    rules, state = new_game("classic", players=2)
    state = apply(rules, state, RollOutcome.parse("11223344"))
    state = apply(rules, state, parse_move(rules, "take 4"))
    state = apply(rules, state, ROLL)
    assert state.phase is Phase.ROLL
    for seed in range(20):  # some of these rolls bust, and the next player rolls
        replay = Replay(2, 2, OPTIONS[0], seed=seed)
        replay.batch.set_state(1, state)
        expected, _, _ = replay.advance(1, state, 0, 0)
        assert replay.batch.state(1) == expected
        assert not replay.rolls[1]


def test_bad_actions_name_the_rows_and_change_nothing() -> None:
    batch = BatchGames(4, seed=2)
    before = [batch.state(row) for row in range(4)]
    legal = np.argmax(batch.legal_mask(), axis=1)
    illegal = legal.copy()
    illegal[2] = 7  # stop while a roll waits for a take
    with pytest.raises(BatchActionError, match="row 2") as caught:
        batch.step(illegal)
    assert caught.value.rows == (2,)
    out_of_range = legal.copy()
    out_of_range[[1, 3]] = 99
    with pytest.raises(BatchActionError, match="rows 1, 3") as caught:
        batch.step(out_of_range)
    assert caught.value.rows == (1, 3)
    with pytest.raises(BatchActionError, match="shape"):
        batch.step(legal[:3])
    with pytest.raises(BatchActionError, match="integers"):
        batch.step(legal.astype(float))
    with pytest.raises(BatchActionError, match="active"):
        batch.step(legal, active=[1, 0, 1, 0])
    assert [batch.state(row) for row in range(4)] == before


def test_bad_states_and_settings_are_refused() -> None:
    batch = BatchGames(2, seed=2)
    before = batch.state(0)
    _rules, state = new_game("classic", players=3)
    with pytest.raises(InvalidSetupError, match="3 players"):
        batch.set_state(0, state)
    _, extended = new_game("extended", players=2)
    with pytest.raises(RulesMismatchError):
        batch.set_state(0, extended)
    with pytest.raises(InvalidStateError):
        batch.set_state(0, before.replace(grill=(21, 21)))
    assert batch.state(0) == before
    with pytest.raises(InvalidSetupError):
        BatchGames(0)
    with pytest.raises(InvalidSetupError):
        BatchGames(2, players=8)
    with pytest.raises(UnknownVectorBotError, match="optimal"):
        get_vector_bot("optimal")
