"""The batch engine against the reference engine: same dice, same actions, same everything.

Every row of a batch is replayed in the reference engine (``apply`` with the dice the batch
rolled, logged through ``on_roll``), and after every step each row's state, legal actions,
observation and, at the end of a game, its scores, winners, rewards, moves and turns must be
the reference's. The default run plays a few hundred games per option combination; the
thorough hypothesis profile (``HYPOTHESIS_PROFILE=thorough``) plays 10,000 per combination.
"""

from __future__ import annotations

import itertools
import os
import random

import numpy as np
import pytest

from pickomino_rules import RollOutcome, apply, legal_actions, new_game, parse_move, result
from pickomino_rules.actions import ROLL, Action
from pickomino_rules.batch import BatchActionError, BatchGames, BatchRulesError, batch_rules
from pickomino_rules.batch_bots import (
    UnknownVectorBotError,
    get_vector_bot,
    greedy_actions,
    random_actions,
)
from pickomino_rules.bots import greedy_bot
from pickomino_rules.encoding import returns
from pickomino_rules.errors import InvalidSetupError, InvalidStateError, RulesMismatchError
from pickomino_rules.state import GameState, Phase

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
OPTIONS = [
    {"flip_on_empty_bust": o1, "short_game": o2, "optional_steal": o3}
    for o1, o2, o3 in itertools.product((False, True), repeat=3)
]


class Replay:
    """Each row's game in the reference engine, fed with the batch's dice."""

    def __init__(self, games: int, players: int, options: dict[str, bool], seed: int) -> None:
        self.rolls: list[list[tuple[int, ...]]] = [[] for _ in range(games)]
        self.outcomes: dict[tuple[int, ...], RollOutcome] = {}
        self.batch = BatchGames(games, players, options=options, seed=seed, on_roll=self.log)
        self.rules = self.batch.rules
        self.encoding = self.batch.encoding
        self.players = players
        self.states: list[GameState] = []
        self.moves: list[int] = []
        self.turns: list[int] = []
        for row in range(games):
            _, state = new_game(self.rules, players=players)
            state, moves, turns = self.advance(row, state, 0, 0)
            self.states.append(state)
            self.moves.append(moves)
            self.turns.append(turns)
        self.finished = 0

    def log(self, rows: np.ndarray, counts: np.ndarray) -> None:
        for row, dice in zip(rows.tolist(), counts.tolist(), strict=True):
            self.rolls[row].append(tuple(dice))

    def outcome(self, dice: tuple[int, ...]) -> RollOutcome:
        """The roll showing ``dice``, built as a user would (the engine checks it is one)."""
        found = self.outcomes.get(dice)
        if found is None:
            found = self.outcomes[dice] = RollOutcome(("white",), (dice,))
        return found

    def advance(
        self, row: int, state: GameState, moves: int, turns: int
    ) -> tuple[GameState, int, int]:
        """Apply the batch's logged rolls while the reference waits for dice."""
        while state.phase is Phase.ROLL:
            dice = self.rolls[row].pop(0)
            before = state.player
            state = apply(self.rules, state, self.outcome(dice))
            moves += 1
            if state.player != before or state.phase is Phase.GAME_OVER:
                turns += 1
        return state, moves, turns

    def check_rows(self, *, observations: bool = True) -> None:
        """Every row's state and legal set (and observation) are the reference's."""
        assert self.batch.states() == self.states
        mask = self.batch.legal_mask()
        numbers = self.encoding.encode
        for row, state in enumerate(self.states):
            # decision states only: the batch rolls at once, so no row is a chance node
            legal = {numbers(a) for a in legal_actions(self.rules, state) if isinstance(a, Action)}
            assert set(np.flatnonzero(mask[row]).tolist()) == legal, row
        if observations:
            seen = self.batch.observe()
            for row, state in enumerate(self.states):
                assert (seen[row] == self.encoding.observe(state, state.player)).all(), row

    def step(self, actions: np.ndarray) -> None:
        outcome = self.batch.step(actions)
        for row, number in enumerate(actions.tolist()):
            state = self.states[row]
            before = state.player
            state = apply(self.rules, state, self.encoding.decode(number))
            moves, turns = self.moves[row] + 1, self.turns[row]
            if state.player != before or state.phase is Phase.GAME_OVER:
                turns += 1
            state, moves, turns = self.advance(row, state, moves, turns)
            assert bool(outcome.terminated[row]) == (state.phase is Phase.GAME_OVER), row
            if state.phase is Phase.GAME_OVER:
                final = result(self.rules, state)
                assert tuple(outcome.scores[row].tolist()) == final.scores
                winners = tuple(np.flatnonzero(outcome.winners[row]).tolist())
                assert set(winners) == set(final.winners)
                assert tuple(outcome.rewards[row].tolist()) == pytest.approx(
                    returns(self.rules, state)
                )
                assert (int(outcome.moves[row]), int(outcome.turns[row])) == (moves, turns)
                self.finished += 1
                _, state = new_game(self.rules, players=self.players)
                moves = turns = 0
                state, moves, turns = self.advance(row, state, moves, turns)
            self.states[row] = state
            self.moves[row], self.turns[row] = moves, turns
            assert not self.rolls[row], f"row {row}: the batch rolled more than was replayed"


def _sensible(batch: BatchGames, rng: np.random.Generator) -> np.ndarray:
    """Random, but never a stop that busts while something else is legal."""
    mask = batch.legal_mask().copy()
    arrays = batch.arrays
    pointless = (arrays.phase == 2) & (arrays.grill_claim < 0) & (arrays.victim < 0)
    others = mask.copy()
    others[:, 7] = False
    mask[pointless & others.any(axis=1), 7] = False
    keys = rng.random(mask.shape)
    keys[~mask] = -1
    chosen: np.ndarray = np.argmax(keys, axis=1)
    return chosen


POLICIES = {"random": random_actions, "sensible": _sensible}


def _differential(options: dict[str, bool], players: int, policy: str, games: int) -> int:
    width = min(64, games)
    replay = Replay(width, players, options, seed=hash((players, policy)) % 2**32)
    choose = POLICIES[policy]
    rng = np.random.default_rng(players)
    replay.check_rows()
    steps = 0
    while replay.finished < games:
        replay.step(choose(replay.batch, rng))
        steps += 1
        # observations at every step by default, every 16th in the thorough runs (their cost)
        replay.check_rows(observations=not THOROUGH or steps % 16 == 0)
    return replay.finished


@pytest.mark.parametrize(
    "options",
    OPTIONS,
    ids=lambda o: "-".join(f"{k.split('_')[0]}{int(v)}" for k, v in o.items()),
)
def test_o1_o2_o3_batch_engine_matches_reference_engine(options: dict[str, bool]) -> None:
    """C3-C13 with O1-O3: states, legal sets, observations and results, game for game."""
    # thorough: 10,000 games per combination, 1,000 of them uniformly random (long games)
    plan = (
        ((2, "random", 1000), (2, "sensible", 3000), (3, "sensible", 3000), (5, "sensible", 3000))
        if THOROUGH
        else ((2, "random", 4), (3, "sensible", 12), (5, "sensible", 12))
    )
    for players, policy, games in plan:
        assert _differential(options, players, policy, games) >= games


@pytest.mark.parametrize("players", [2, 4, 7])
def test_vectorised_greedy_plays_exactly_greedy_bot(players: int) -> None:
    replay = Replay(32, players, OPTIONS[0], seed=players)
    rng = np.random.default_rng(0)
    while replay.finished < (200 if THOROUGH else 20):
        actions = greedy_actions(replay.batch, rng)
        for row, state in enumerate(replay.states):
            expected = replay.encoding.encode(greedy_bot(replay.rules, state, random.Random(0)))
            assert actions[row] == expected, (row, state)
        replay.step(actions)


def test_random_actions_are_legal_and_uniform() -> None:
    batch = BatchGames(1, seed=3)
    legal = np.flatnonzero(batch.legal_mask()[0])
    rng = np.random.default_rng(1)
    draws = [int(random_actions(batch, rng)[0]) for _ in range(3000)]
    counts = np.bincount(draws, minlength=batch.encoding.num_actions)
    assert set(np.flatnonzero(counts)) == set(legal)
    expected = 3000 / len(legal)
    assert all(abs(counts[a] - expected) < 5 * np.sqrt(expected) for a in legal)


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
    with pytest.raises(BatchRulesError, match="extended"):
        BatchGames(2, variant="extended")
    with pytest.raises(BatchRulesError):
        batch_rules(new_game("extrawurm")[0])
    with pytest.raises(InvalidSetupError):
        BatchGames(0)
    with pytest.raises(InvalidSetupError):
        BatchGames(2, players=8)
    with pytest.raises(UnknownVectorBotError, match="optimal"):
        get_vector_bot("optimal")
