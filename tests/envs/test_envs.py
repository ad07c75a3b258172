"""The AI environments, checked by their own frameworks' checkers: gymnasium's check_env,
PettingZoo's api_test and seed_test, OpenSpiel's random_sim_test and MCTS bot."""

from __future__ import annotations

import functools
import random
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest

from pickomino_rules import (
    IllegalActionError,
    InvalidSetupError,
    InvalidStateError,
    Phase,
    available_variants,
    result,
)
from pickomino_rules.bots import greedy_bot
from pickomino_rules.encoding import ActionEncodingError, worm_margins
from pickomino_rules.positions import Position, PositionError

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from pickomino_rules.envs import GYMNASIUM_ID  # noqa: E402
from pickomino_rules.envs import openspiel as spiel  # noqa: E402
from pickomino_rules.envs import pettingzoo as zoo  # noqa: E402
from pickomino_rules.envs.gymnasium import PickominoEnv  # noqa: E402

if TYPE_CHECKING:
    from pickomino_rules import Action, GameState, Rules

VARIANTS = available_variants()


# -- gymnasium ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("mask_in_observation", [False, True])
def test_gymnasium_check_env_passes(variant: str, mask_in_observation: bool) -> None:
    # check_env steps with unmasked samples of the action space: masked ones are penalized
    env = gymnasium.make(
        GYMNASIUM_ID,
        variant=variant,
        players=3,
        illegal_action="penalize",
        mask_in_observation=mask_in_observation,
        render_mode="ansi",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings are failures too
        check_env(env.unwrapped)


def test_gymnasium_make_through_the_module_path() -> None:
    env = gymnasium.make(f"pickomino_rules.envs:{GYMNASIUM_ID}", players=2)
    observation, info = env.reset(seed=1)
    assert observation.shape == env.observation_space.shape
    assert info["action_mask"].any()


def _random_episode(env: PickominoEnv, seed: int) -> tuple[list[float], list[bytes]]:
    observation, info = env.reset(seed=seed)
    env.margin_at_reset = worm_margins(env.rules, info["state"])[env.seat]  # type: ignore[attr-defined]
    rewards, seen = [], [observation.tobytes()]
    rng = np.random.default_rng(seed)
    while True:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(float(reward))
        seen.append(observation.tobytes())
        if terminated or truncated:
            return rewards, seen


@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_gymnasium_episodes_replay_from_their_seed(variant: str) -> None:
    env = PickominoEnv(variant, players=3, opponents=["greedy", "random"])
    assert _random_episode(env, 7) == _random_episode(env, 7)
    assert _random_episode(env, 7) != _random_episode(env, 8)


@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_gymnasium_rewards_sum_to_the_final_result(variant: str) -> None:
    env = PickominoEnv(variant, players=3, reward="worms", seat=1)
    rewards, _ = _random_episode(env, 3)
    assert env.state is not None
    # the bots moved before the learner's first decision: that change is nobody's reward
    final = worm_margins(env.rules, env.state)[1]
    assert sum(rewards) == pytest.approx(final - env.margin_at_reset)  # type: ignore[attr-defined]
    env = PickominoEnv(variant, players=3, reward="win", seat=None)
    rewards, _ = _random_episode(env, 3)
    assert env.state is not None
    assert all(reward == 0 for reward in rewards[:-1])
    winners = result(env.rules, env.state).winners
    assert (rewards[-1] > 0) == (env.seat in winners)


def test_gymnasium_the_default_env_passes_check_env_without_options() -> None:
    """Generic tools step unmasked samples: the default penalizes an illegal action."""
    env = gymnasium.make(GYMNASIUM_ID)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_gymnasium_illegal_steps_count_toward_truncation() -> None:
    env = PickominoEnv("classic", players=2, max_steps=50)
    _, info = env.reset(seed=2)
    masked = int(np.flatnonzero(info["action_mask"] == 0)[0])
    total = 0.0
    for step in range(50):
        _, reward, terminated, truncated, info = env.step(masked)
        total += float(reward)
        assert info["illegal_action"]
        assert not terminated
        assert truncated == (step == 49)
    assert total == -50.0


def test_gymnasium_masked_and_out_of_range_actions_raise_and_change_nothing() -> None:
    env = PickominoEnv("classic", players=2, illegal_action="raise")
    _, info = env.reset(seed=2)
    before = env.state
    masked = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(masked)
    for bad in (-1, 10, 2.5, "1"):
        with pytest.raises(ActionEncodingError):
            env.step(bad)  # type: ignore[arg-type]
    assert env.state is before
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # still playable


@pytest.mark.parametrize(
    ("mode", "penalty", "lost"), [("penalize", -0.5, False), ("lose", -1.0, True)]
)
def test_gymnasium_an_illegal_action_changes_nothing_and_costs_its_penalty(
    mode: str, penalty: float, lost: bool
) -> None:
    env = PickominoEnv("classic", players=2, illegal_action=mode, illegal_penalty=penalty)  # type: ignore[arg-type]
    _, info = env.reset(seed=2)
    before = env.state
    masked = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(masked)
    assert (reward, terminated, truncated, info["illegal_action"]) == (penalty, lost, False, True)
    assert env.state is before
    legal = int(np.flatnonzero(info["action_mask"])[0])
    if lost:  # the episode is over: a new one must be started
        with pytest.raises(RuntimeError, match="reset"):
            env.step(legal)
        env.reset(seed=3)
    else:
        env.step(legal)  # the game plays on


def test_gymnasium_long_games_are_truncated() -> None:
    env = PickominoEnv("classic", players=2, opponents="random", max_steps=5)
    _, info = env.reset(seed=4)
    for step in range(5):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not terminated
        assert truncated == (step == 4)


def test_gymnasium_renders_the_table_as_text() -> None:
    env = PickominoEnv("extended", players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text is not None
    assert "grill:" in text
    assert "learner: player 0" in text


@pytest.mark.parametrize(
    "settings",
    [
        {"variant": "nope"},
        {"players": 9},
        {"opponents": "nobody"},
        {"opponents": ["greedy", "greedy"]},
        {"opponents": [42]},
        {"seat": 2},
        {"reward": "money"},
        {"max_steps": 0},
        {"illegal_action": "ignore"},
        {"render_mode": "human"},
    ],
)
def test_gymnasium_bad_settings_are_refused(settings: dict[str, object]) -> None:
    with pytest.raises(InvalidSetupError):
        PickominoEnv(**settings)  # type: ignore[arg-type]


def test_gymnasium_reset_takes_a_seat_and_refuses_a_bad_one() -> None:
    env = PickominoEnv("classic", players=3)
    _, info = env.reset(seed=1, options={"seat": 2})
    assert info["seat"] == 2
    assert info["state"].player == 2
    with pytest.raises(InvalidSetupError, match="seat"):
        env.reset(options={"seat": 3})


def test_gymnasium_step_before_reset_is_refused() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        PickominoEnv().step(0)


# -- PettingZoo --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "extended"])
@pytest.mark.parametrize("reward", ["win", "worms"])
def test_pettingzoo_api_and_seed_tests_pass(variant: str, reward: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on Dict observations, as for its own games
        api_test(zoo.env(variant=variant, players=3, reward=reward), num_cycles=300)
        seed_test(
            functools.partial(zoo.env, variant=variant, players=3, reward=reward),
            num_cycles=200,
        )


def test_pettingzoo_plays_whole_games_with_zero_sum_results() -> None:
    game = zoo.env(variant="extended", players=3)
    game.reset(seed=5)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    rng = np.random.default_rng(5)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        game.step(action)
    assert sum(totals.values()) == pytest.approx(0)
    assert max(totals.values()) > 0


def test_pettingzoo_has_a_versioned_module_name_as_its_classic_games_do() -> None:
    from pickomino_rules.envs import pickomino_v0  # noqa: PLC0415

    assert pickomino_v0.env is zoo.env
    assert pickomino_v0.raw_env is zoo.raw_env
    assert pickomino_v0.raw_env.metadata["name"] == "pickomino_v0"


def test_pettingzoo_an_illegal_action_loses_the_game_by_default() -> None:
    game = zoo.env(variant="classic", players=3)
    game.reset(seed=1)
    offender = game.agent_selection
    before = game.unwrapped.state
    mask = game.observe(offender)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's logger warns of the illegal move
        game.step(int(np.flatnonzero(mask == 0)[0]))
    assert game.unwrapped.state is before  # nothing was played
    assert all(game.terminations.values())
    assert game.rewards == {agent: (-1.0 if agent == offender else 0.0) for agent in game.agents}
    fresh = zoo.env(variant="classic", players=2)
    fresh.reset(seed=1)
    with pytest.raises(ActionEncodingError):  # out of range is still an error, not a loss
        fresh.step(99)


def test_pettingzoo_env_can_raise_on_an_illegal_action_for_debugging() -> None:
    game = zoo.env(variant="classic", players=2, illegal_action="raise")
    game.reset(seed=1)
    mask = game.observe(game.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError):
        game.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(InvalidSetupError, match="illegal_action"):
        zoo.env(illegal_action="ignore")  # type: ignore[arg-type]


def test_pettingzoo_masked_and_out_of_range_actions_raise() -> None:
    game = zoo.raw_env(variant="classic", players=2)
    game.reset(seed=1)
    before = game.state
    mask = game.observe(game.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError):
        game.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(ActionEncodingError):
        game.step(99)
    assert game.state is before


# -- OpenSpiel ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_openspiel_random_sim_test_passes(variant: str) -> None:
    game = pyspiel.load_game(spiel.GAME_NAME, {"variant": variant, "players": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_chance_outcomes_are_the_exact_rolls() -> None:
    game = pyspiel.load_game(spiel.GAME_NAME, {"variant": "extended", "players": 2})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    table = game.rules.chance_table(state.state.in_hand)
    assert len(outcomes) == len(table.outcomes)
    assert [p for _, p in outcomes] == [float(p) for p in table.probabilities]
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    assert game.max_chance_outcomes() >= len(outcomes)


def test_openspiel_states_serialize_as_position_lines() -> None:
    game = pyspiel.load_game(spiel.GAME_NAME, {"variant": "extended", "players": 3})
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        line = state.serialize()
        assert Position.parse(line).state == state.state
        again = game.deserialize_state(line)
        assert again.legal_actions() == state.legal_actions()
    other = pyspiel.load_game(spiel.GAME_NAME, {"variant": "classic", "players": 3})
    with pytest.raises(PositionError):
        other.deserialize_state(state.serialize())


def test_openspiel_parameters_reach_the_rules() -> None:
    game = pyspiel.load_game(
        spiel.GAME_NAME, {"players": 4, "options": '{"short_game": true}', "max_moves": 10}
    )
    assert game.num_players() == 4
    assert game.rules.options["short_game"] is True
    state = game.new_initial_state()
    for _ in range(10):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()  # cut short by max_moves: a draw
    assert state.returns() == [0.0] * 4
    with pytest.raises(InvalidSetupError):
        pyspiel.load_game(spiel.GAME_NAME, {"options": "{oops"})


class _WormMargins(mcts.Evaluator):  # type: ignore[misc]
    """Values a state by the worm margins (random rollouts of Pickomino are long)."""

    def evaluate(self, state: spiel.PickominoState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        return np.tanh(np.array(worm_margins(state.get_game().rules, state.state)) / 10)

    def prior(self, state: spiel.PickominoState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(action, 1 / len(legal)) for action in legal]


def test_openspiel_mcts_plays_whole_games_against_the_greedy_bot() -> None:
    game = pyspiel.load_game(spiel.GAME_NAME, {"variant": "classic", "players": 2})
    bot = mcts.MCTSBot(
        game,
        uct_c=2,
        max_simulations=20,
        evaluator=_WormMargins(),
        random_state=np.random.RandomState(1),
    )
    rng = random.Random(1)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            elif state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                move = greedy_bot(game.rules, state.state, rng)
                state.apply_action(game.encoding.encode(move))
        assert sorted(state.returns()) == [-1.0, 1.0]


class _Recording:
    """An opponent that plays greedily and records the state at each of its decisions."""

    def __init__(self) -> None:
        self.seen: list[GameState] = []

    def __call__(self, rules: Rules, state: GameState, rng: random.Random) -> Action:
        self.seen.append(state)
        return greedy_bot(rules, state, rng)


@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_gymnasium_own_rewards_stop_where_the_learner_s_turn_ends(variant: str) -> None:
    # the learner's own turn ends where another player first decides (a roll changes no
    # worms), else at its own next decision or the end of the game
    opponent = _Recording()
    env = PickominoEnv(variant, players=2, reward="own", opponents=opponent, seat=None)
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(3):
        _, info = env.reset(seed=seed)
        while True:
            assert env.state is not None
            before = worm_margins(env.rules, env.state)[env.seat]
            opponent.seen.clear()
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(action)
            end = opponent.seen[0] if opponent.seen else env.state
            assert reward == pytest.approx(worm_margins(env.rules, end)[env.seat] - before)
            checked += bool(opponent.seen)
            if terminated or truncated:
                break
    assert checked > 20  # many steps ended the learner's turn


# -- the wrappers' own answers -----------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_gymnasium_observes_its_own_states_as_the_checked_encoding_does(variant: str) -> None:
    # the environment skips the encoding's checks on the states it made itself
    env = PickominoEnv(variant, players=3, seat=None, mask_in_observation=True)
    rng = np.random.default_rng(3)
    steps = 0
    for seed in range(2):
        observation, info = env.reset(seed=seed)
        while True:
            state = info["state"]
            assert state is env.state
            assert state is not None
            np.testing.assert_array_equal(
                observation["observation"], env.encoding.observe(state, env.seat)
            )
            np.testing.assert_array_equal(info["action_mask"], env.encoding.legal_mask(state))
            np.testing.assert_array_equal(observation["action_mask"], info["action_mask"])
            if not info["action_mask"].any():  # the game is over
                break
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            observation, _, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                state = info["state"]
                np.testing.assert_array_equal(
                    observation["observation"], env.encoding.observe(state, env.seat)
                )
                assert not observation["action_mask"].any()
                break
    assert steps > 50


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_observes_its_own_states_as_the_checked_encoding_does(variant: str) -> None:
    game = zoo.raw_env(variant=variant, players=3)
    rng = np.random.default_rng(4)
    decisions = 0
    game.reset(seed=0)  # one whole game: every agent observed at every decision
    for agent in game.agent_iter():
        state = game.state
        assert state is not None
        for seat, other in enumerate(game.possible_agents):  # the acting one and the rest
            seen = game.observe(other)
            acting = other == agent and state.phase is not Phase.GAME_OVER
            mask = (
                game.encoding.legal_mask(state)
                if acting
                else np.zeros(game.encoding.num_actions, np.int8)
            )
            np.testing.assert_array_equal(seen["observation"], game.encoding.observe(state, seat))
            np.testing.assert_array_equal(seen["action_mask"], mask)
            assert seen["action_mask"].dtype == np.int8
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        decisions += 1
    assert decisions > 50


def test_a_state_set_by_hand_is_checked_before_it_is_observed() -> None:
    game = zoo.raw_env(variant="classic", players=2)
    game.reset(seed=1)
    assert game.state is not None
    game.state = game.state.replace(grill=(*game.state.grill, 99))
    with pytest.raises(InvalidStateError, match="99"):
        game.observe("player_0")
    env = PickominoEnv("classic", players=2)
    env.reset(seed=1)
    assert env.state is not None
    env.state = env.state.replace(grill=(*env.state.grill, 99))
    with pytest.raises(InvalidStateError, match="99"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
