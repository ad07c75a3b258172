"""The training program, with a tiny budget (where the train extra is installed)."""

from __future__ import annotations

import csv
import random
import tempfile
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch
from sb3_contrib import MaskablePPO

from pickomino_rules import Phase, new_game, play
from pickomino_rules.bots import (
    BOTS,
    available_bots,
    bot_supports,
    greedy_bot,
    random_bot,
    register_bot,
)
from pickomino_rules.encoding import Encoding
from pickomino_rules.envs.gymnasium import PickominoEnv
from pickomino_rules.envs.gymnasium_vector import PickominoVectorEnv
from pickomino_rules.learned import PolicyBot, load_policy
from pickomino_rules.learned._imitation import teacher_decisions
from pickomino_rules.learned.train import (
    Imitation,
    _BatchGames,
    _Scaled,
    evaluate,
    main,
    policy_of,
)

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_a_tiny_run_saves_a_policy_that_plays_and_its_curve(
    engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, curve = tmp_path / "p.npz", tmp_path / "curve.csv"
    scratch = tmp_path / "temp"  # the temporary folder, where sb3 would log by default
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.delenv("SB3_LOGDIR", raising=False)
    budget = ["--steps", "1024", "--envs", "2", "--eval-every", "512", "--eval-games", "4"]
    main(
        [
            *budget,
            "--engine",
            engine,
            "--final-games",
            "4",
            "--out",
            str(out),
            "--curve",
            str(curve),
        ]
    )
    printed = capsys.readouterr().out
    assert "win rate against greedy" in printed
    assert "policy saved" in printed
    policy = PolicyBot.load(out)
    assert policy.about["steps"] >= 1024
    assert policy.about["seed"] == 1
    rows = list(csv.DictReader(curve.open()))
    assert [int(row["steps"]) for row in rows][-1] >= 1024
    assert len(rows) >= 2
    # no log folder left behind (PyTorch keeps one cache folder there, reused: not ours)
    assert list(scratch.glob("SB3-*")) == []
    # nor the name its evaluation games were played under
    assert "ppo-in-training" not in available_bots()


def test_extended_trains_on_the_batch_engine_by_default_and_its_policy_file_plays(
    tmp_path: Path,
) -> None:
    out = tmp_path / "extended.npz"
    budget = ["--steps", "512", "--envs", "2", "--eval-every", "512", "--eval-games", "2"]
    main([*budget, "--variant", "extended", "--final-games", "2", "--out", str(out)])
    policy = PolicyBot.load(out)  # its options (tuples in the rules) read back as the rules'
    assert policy.about["engine"] == "batch"
    rules, start = new_game("extended", players=2)
    assert bot_supports(policy, rules, 2)
    end = play(rules, start, [policy, random_bot], random.Random(1))
    assert end.phase is Phase.GAME_OVER


def test_the_evaluation_leaves_a_bot_of_the_same_name_as_it_was() -> None:
    register_bot("ppo-in-training", greedy_bot)
    try:
        evaluate(load_policy(), "random", games=2, seed=1)
        assert BOTS["ppo-in-training"] is greedy_bot
    finally:
        BOTS.pop("ppo-in-training", None)


def test_a_policy_it_cannot_save_is_said_before_training(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    budget = ["--steps", "1024", "--envs", "2", "--eval-every", "512", "--eval-games", "4"]
    missing = tmp_path / "missing" / "p.npz"
    with pytest.raises(SystemExit) as stopped:
        main([*budget, "--out", str(missing)])
    assert stopped.value.code == f"error: cannot save to {missing}: no folder {missing.parent}"
    assert "win rate" not in capsys.readouterr().out  # nothing was trained
    with pytest.raises(SystemExit) as stopped:
        main([*budget, "--out", str(tmp_path / "p.npz"), "--curve", str(tmp_path)])
    assert stopped.value.code == f"error: cannot save to {tmp_path}: not a regular file"
    assert not (tmp_path / "p.npz").exists()


def test_the_numpy_policy_computes_what_the_torch_network_computes() -> None:
    env = _Scaled(PickominoEnv("classic", 2, seat=None, reward="worms"))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, seed=3)
    bot = policy_of(model, env.unwrapped, {})  # type: ignore[arg-type]
    rules, state = new_game("classic", 2)
    encoding = Encoding.of(rules, 2)
    observation, info = env.reset(seed=5)
    for _ in range(30):
        state = env.unwrapped.state  # type: ignore[attr-defined]
        ours = bot.action_scores(rules, state)
        with torch.no_grad():
            tensor = torch.as_tensor(observation[None])
            latent = model.policy.mlp_extractor.forward_actor(tensor)
            theirs = model.policy.action_net(latent)[0].numpy()
        legal = info["action_mask"] == 1
        assert np.allclose(ours[legal], theirs[legal], atol=1e-5)
        assert np.isneginf(ours[~legal]).all()
        action = int(np.flatnonzero(legal)[0])
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            observation, info = env.reset()
    assert encoding.observation_size == observation.shape[0]


def test_the_batch_adapter_starts_finished_games_within_the_step() -> None:
    games = _BatchGames(PickominoVectorEnv(8, 2, opponents="random", seat=None), seed=3)
    encoding = games.env.encoding
    game_over = encoding.segments["phase"].start + 4
    rng = np.random.default_rng(0)
    observations = games.reset()
    finished = 0
    while finished < 5:
        masks = np.stack(games.env_method("action_masks"))
        games.step_async(np.argmax(rng.random(masks.shape) * masks, axis=1))
        observations, _, done, infos = games.step_wait()
        for row in np.flatnonzero(done):
            finished += 1
            assert infos[row]["terminal_observation"][game_over] == 1  # the game's last view
            assert observations[row][game_over] == 0  # already the next game's first
        assert observations.max() <= 1
        assert masks.any(axis=1).all()  # every row has a decision: none waits for a restart


def test_imitation_clones_the_teacher_then_runs_dagger_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, curve = tmp_path / "clone.npz", tmp_path / "curve.csv"
    cloning = ["--imitate", "greedy", "--imitate-games", "10", "--imitate-rounds", "1"]
    budget = ["--steps", "0", "--eval-games", "2", "--final-games", "2"]
    main([*cloning, "--imitate-epochs", "40", *budget, "--out", str(out), "--curve", str(curve)])
    assert "policy saved" in capsys.readouterr().out
    policy = PolicyBot.load(out)
    imitation = policy.about["imitation"]
    assert (imitation["teacher"], imitation["rounds"], imitation["games"]) == ("greedy", 1, 20)
    assert imitation["accuracy"] > 0.8  # greedy is learnable; an untrained network is not
    assert policy.about["algorithm"].startswith("imitation of greedy: behaviour cloning")
    assert "PPO" not in policy.about["algorithm"]  # no steps of reinforcement
    assert [int(row["steps"]) for row in csv.DictReader(curve.open())] == [0, 0]
    # on fresh games the clone mostly chooses as its teacher
    fresh = teacher_decisions("classic", 2, teacher="greedy", opponent="greedy", games=3, seed=9)
    rules, _ = new_game("classic", players=2)
    agreed = 0
    for observation, mask, action in zip(
        fresh.observations, fresh.masks, fresh.actions, strict=True
    ):
        signal = observation.astype(np.float64)
        for weights, bias in policy.layers[:-1]:
            signal = np.tanh(weights @ signal + bias)
        scores = policy.layers[-1][0] @ signal + policy.layers[-1][1]
        scores[~mask] = -np.inf
        agreed += int(np.argmax(scores)) == action
    assert agreed > 0.7 * len(fresh)
    assert Encoding.of(rules, 2).num_actions == fresh.masks.shape[1]


def test_a_teachers_record_is_legal_and_the_same_whatever_the_jobs() -> None:
    alone = teacher_decisions("extended", 2, teacher="greedy", opponent="random", games=3, seed=4)
    shared = teacher_decisions(
        "extended", 2, teacher="greedy", opponent="random", games=3, seed=4, jobs=2
    )
    assert len(alone) > 0
    assert np.array_equal(alone.observations, shared.observations)
    assert np.array_equal(alone.actions, shared.actions)
    assert alone.masks[np.arange(len(alone)), alone.actions].all()  # the teacher's legal moves
    assert ((alone.observations >= 0) & (alone.observations <= 1)).all()
    # DAgger: another player reaches other states, still labelled with the teacher's choices
    led = teacher_decisions(
        "extended", 2, teacher="greedy", opponent="random", games=3, seed=4, player=random_bot
    )
    assert led.masks[np.arange(len(led)), led.actions].all()
    assert len(led) != len(alone) or not np.array_equal(led.observations, alone.observations)


def test_no_steps_is_only_for_a_run_that_imitates(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--steps", "0"])
    assert "0 with --imitate" in capsys.readouterr().err


@pytest.mark.parametrize(
    "arguments",
    [
        {"teacher": 3},
        {"teacher": "greedy", "games": 0},
        {"teacher": "greedy", "rounds": -1},
        {"teacher": "greedy", "epochs": 0},
        {"teacher": "greedy", "jobs": 0},
    ],
)
def test_an_imitation_refuses_impossible_settings(arguments: dict[str, Any]) -> None:
    with pytest.raises((TypeError, ValueError)):
        Imitation(**arguments)


@pytest.mark.parametrize("rate", ["0", "1.5", "-0.001"])
def test_the_learning_rate_must_be_a_rate(rate: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--learning-rate", rate])
    assert "--learning-rate must be between 0 and 1" in capsys.readouterr().err
