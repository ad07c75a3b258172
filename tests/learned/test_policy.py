"""The shipped learned bot: it plays legal games with numpy alone, in its own game only."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from typing import TYPE_CHECKING

import numpy as np
import pytest

from pickomino_rules import Phase, apply, get_rules, legal_actions, new_game
from pickomino_rules.bots import bot_supports, get_bot
from pickomino_rules.encoding import Encoding
from pickomino_rules.learned import (
    InvalidPolicyError,
    PolicyBot,
    load_policy,
    ppo_bot,
    shipped_policy,
)
from pickomino_rules.simulation import simulate

if TYPE_CHECKING:
    from pathlib import Path


def test_the_shipped_policy_is_the_registered_ppo_bot_and_says_how_it_was_made() -> None:
    assert get_bot("ppo") is ppo_bot
    policy = load_policy()
    assert (policy.variant, policy.players) == ("classic", 2)
    for key in ("command", "seed", "steps", "seconds", "versions", "final"):
        assert key in policy.about
    assert policy.about["command"].startswith("python -m pickomino_rules.learned.train")


def test_each_shipped_policy_is_found_for_its_own_game() -> None:
    classic, extended = (
        shipped_policy(get_rules("classic"), 2),
        shipped_policy(get_rules("extended"), 2),
    )
    assert classic is not None
    assert extended is not None
    assert (classic.variant, classic.players) == ("classic", 2)
    assert (extended.variant, extended.players) == ("extended", 2)
    assert extended.about["imitation"]["teacher"] == "margin"
    assert "--variant extended" in extended.about["command"]
    assert shipped_policy(get_rules("extrawurm"), 2) is None
    assert shipped_policy(get_rules("extended"), 3) is None


@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_it_plays_only_legal_moves_through_whole_games(variant: str) -> None:
    rules, start = new_game(variant, players=2)
    rng = random.Random(7)
    for _ in range(20):
        state = start
        while state.phase is not Phase.GAME_OVER:
            if state.phase is Phase.ROLL:
                state = apply(rules, state, rules.chance_table(state.in_hand).sample(rng))
                continue
            move = ppo_bot(rules, state, rng)
            assert move in legal_actions(rules, state)
            state = apply(rules, state, move)


def test_it_plays_its_own_games_only() -> None:
    assert bot_supports(ppo_bot, get_rules("classic"), 2)
    assert bot_supports(ppo_bot, get_rules("extended"), 2)
    assert not bot_supports(ppo_bot, get_rules("classic"), 3)
    assert not bot_supports(ppo_bot, get_rules("extrawurm"), 2)
    assert not bot_supports(ppo_bot, get_rules("classic", {"short_game": True}), 2)
    rules, state = new_game("extended", players=3)
    state = apply(rules, state, rules.chance_table(state.in_hand).sample(random.Random(1)))
    with pytest.raises(
        InvalidPolicyError, match="play 2-player classic and 2-player extended, not 3-player"
    ):
        ppo_bot(rules, state, random.Random(1))
    # a game it plays but for an option: the policy of that game names the option
    rules, state = new_game("classic", players=2, options={"short_game": True})
    state = apply(rules, state, rules.chance_table(state.in_hand).sample(random.Random(1)))
    with pytest.raises(InvalidPolicyError, match="short_game"):
        ppo_bot(rules, state, random.Random(1))


@pytest.mark.parametrize(("variant", "least"), [("classic", 0.9), ("extended", 0.8)])
def test_it_beats_random_by_far(variant: str, least: float) -> None:
    outcome = simulate(variant, bots=["ppo", "random"], games=40, seed=3)
    assert outcome.win_rate(0) > least


def test_it_plays_without_torch_or_gymnasium() -> None:
    script = (
        "import sys\n"
        "for name in ('torch', 'sb3_contrib', 'stable_baselines3', 'gymnasium'):\n"
        "    sys.modules[name] = None  # importing any of them now fails\n"
        "from pickomino_rules.simulation import simulate\n"
        "print(simulate(bots=['ppo', 'greedy'], games=4, seed=1).games)\n"
    )
    done = subprocess.run(  # noqa: S603 (our own interpreter)
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "4"


def test_a_policy_survives_saving_and_loading(tmp_path: Path) -> None:
    policy = load_policy()
    path = tmp_path / "copy.npz"
    policy.save(path)
    again = PolicyBot.load(path)
    assert dict(again.about) == dict(policy.about)
    for (w1, b1), (w2, b2) in zip(policy.layers, again.layers, strict=True):
        assert np.array_equal(w1, w2)
        assert np.array_equal(b1, b2)


def test_a_policy_pickles_for_worker_processes_and_plays_the_same() -> None:
    # spawned workers and Dask executors receive bots pickled; the about's nested dicts too
    policy = load_policy()
    again = pickle.loads(pickle.dumps(policy))  # noqa: S301 (our own bytes)
    assert isinstance(again, PolicyBot)
    assert dict(again.about) == dict(policy.about)
    assert dict(again.options) == dict(policy.options)
    rules, state = new_game(policy.variant, players=policy.players)
    rng = random.Random(5)
    for _ in range(200):
        if state.phase is Phase.GAME_OVER:
            break
        if state.phase is Phase.ROLL:
            state = apply(rules, state, rules.chance_table(state.in_hand).sample(rng))
            continue
        assert np.array_equal(again.action_scores(rules, state), policy.action_scores(rules, state))
        state = apply(rules, state, policy(rules, state, rng))


def test_a_policy_of_a_game_whose_options_hold_tuples_survives_saving_and_loading(
    tmp_path: Path,
) -> None:
    # extended's low_tile_worms and golden_die_faces are tuples; the file keeps them as lists
    rules = get_rules("extended")
    encoding = Encoding.of(rules, 2)
    rng = np.random.default_rng(1)
    layers = [
        (rng.normal(size=(8, encoding.observation_size)), np.zeros(8)),
        (rng.normal(size=(encoding.num_actions, 8)), np.zeros(encoding.num_actions)),
    ]
    policy = PolicyBot.of("extended", 2, dict(rules.options), layers, {"seed": 1})
    path = tmp_path / "extended.npz"
    policy.save(path)
    again = PolicyBot.load(path)
    assert bot_supports(again, rules, 2)
    _, state = new_game("extended", players=2)
    state = apply(rules, state, rules.chance_table(state.in_hand).sample(random.Random(3)))
    assert again(rules, state, random.Random(0)) == policy(rules, state, random.Random(0))


def test_bad_policy_files_are_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.npz"
    np.savez(junk, something=np.zeros(3))
    with pytest.raises(InvalidPolicyError, match="not a policy file"):
        PolicyBot.load(junk)
    policy = load_policy()
    (w0, b0), *rest = policy.layers
    with pytest.raises(InvalidPolicyError, match="inputs"):  # one input too few for classic
        PolicyBot.of("classic", 2, policy.options, [(w0[:, 1:], b0), *rest], {})
    with pytest.raises(InvalidPolicyError, match="do not chain"):
        PolicyBot.of("classic", 2, policy.options, [(w0, b0), (w0, b0), *rest], {})
