"""The gymnasium vector environment on the batch engine, through gymnasium's own make_vec."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from batch_replay import LIGHT

gymnasium = pytest.importorskip("gymnasium")

from pickomino_rules import new_game  # noqa: E402
from pickomino_rules.batch import BatchActionError, BatchRulesError  # noqa: E402
from pickomino_rules.bots import BOTS, greedy_bot  # noqa: E402
from pickomino_rules.encoding import returns, worm_margins  # noqa: E402
from pickomino_rules.envs import GYMNASIUM_BATCH_ID  # noqa: E402
from pickomino_rules.errors import InvalidSetupError  # noqa: E402
from pickomino_rules.plugin import RuleModule, compose  # noqa: E402
from pickomino_rules.state import Phase  # noqa: E402
from pickomino_rules.variants.classic import classic_components  # noqa: E402

if TYPE_CHECKING:
    import random

    from pickomino_rules.actions import Action
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState


def make(**settings: Any) -> Any:
    return gymnasium.make_vec(GYMNASIUM_BATCH_ID, **{"num_envs": 6, **settings})


def legal_random(info: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    mask = info["action_mask"]
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])


def check_rows(envs: Any, observation: np.ndarray, info: dict[str, Any]) -> None:
    """Every row is the learner's decision or a finished game, seen as the encoding sees it."""
    inner = envs.unwrapped
    encoding = inner.encoding
    assert envs.observation_space.contains(observation)
    for row in range(inner.num_envs):
        seat = int(info["seat"][row])  # the learner's seat in this row's game
        assert seat == inner.seat or inner.seat is None
        state = inner.games.state(row)
        assert state.phase is Phase.GAME_OVER or state.player == seat
        assert (observation[row] == encoding.observe(state, seat)).all()
        assert (info["action_mask"][row] == encoding.legal_mask(state)).all()


@pytest.mark.parametrize(
    ("variant", "players", "seat"),
    [
        ("classic", 2, 0),
        ("classic", 2, 1),
        ("classic", 4, 2),
        ("classic", 3, None),
        ("extended", 2, 1),
        ("extended", 3, None),
        ("extrawurm", 4, 0),
    ],
)
def test_observations_masks_and_win_rewards_follow_the_reference(
    variant: str, players: int, seat: int | None
) -> None:
    envs = make(variant=variant, players=players, seat=seat, opponents="greedy")
    rules = envs.unwrapped.rules
    observation, info = envs.reset(seed=players + (seat or 0))
    check_rows(envs, observation, info)
    rng = np.random.default_rng(1)
    ended = 0
    restarting = np.zeros(6, dtype=bool)
    while ended < (4 if LIGHT else 12):  # (light: CI's pure pass, a numpy twin's second run)
        observation, rewards, terminated, truncated, info = envs.step(legal_random(info, rng))
        check_rows(envs, observation, info)
        assert (rewards[restarting | truncated] == 0).all()  # long random games get cut short
        assert not terminated[restarting].any()
        for row in np.flatnonzero(terminated):
            final = envs.unwrapped.games.state(int(row))
            assert final.phase is Phase.GAME_OVER
            assert rewards[row] == pytest.approx(returns(rules, final)[info["seat"][row]])
        assert (rewards[~terminated] == 0).all()
        ended += int(terminated.sum())
        restarting = terminated | truncated
    envs.close()


def test_worm_rewards_add_up_to_the_margin_gained() -> None:
    envs = make(players=3, reward="worms", opponents=["greedy", "random"])
    inner = envs.unwrapped
    _, info = envs.reset(seed=4)

    def margin(row: int) -> float:
        return worm_margins(inner.rules, inner.games.state(row))[0]

    start = [margin(row) for row in range(6)]
    summed = np.zeros(6)
    restarting = np.zeros(6, dtype=bool)
    rng = np.random.default_rng(2)
    checked = 0
    while checked < 10:
        _, rewards, terminated, truncated, info = envs.step(legal_random(info, rng))
        for row in range(6):
            if restarting[row]:  # a new game: no reward, margins counted from its start
                assert rewards[row] == 0
                start[row], summed[row] = margin(row), 0.0
            else:
                summed[row] += rewards[row]
        for ended in np.flatnonzero(terminated).tolist():
            assert summed[ended] == pytest.approx(margin(ended) - start[ended], abs=1e-4)
            checked += 1
        restarting = terminated | truncated
    envs.close()


def test_a_seed_replays_the_same_games() -> None:
    runs = []
    for _ in range(2):
        envs = make(players=2, opponents="random")
        observation, info = envs.reset(seed=11)
        rng = np.random.default_rng(3)
        trail = [observation.copy()]
        for _ in range(60):
            observation, rewards, *_, info = envs.step(legal_random(info, rng))
            trail.append(np.concatenate([observation.ravel(), rewards]))
        runs.append(np.concatenate([t.ravel() for t in trail]))
        envs.close()
    assert (runs[0] == runs[1]).all()
    other = make(players=2, opponents="random")
    observation, _ = other.reset(seed=12)
    assert not (observation == runs[0][: observation.size].reshape(observation.shape)).all()


def test_a_random_seat_is_drawn_per_game_and_replays_from_the_seed() -> None:
    envs = make(players=4, seat=None, num_envs=64)
    _, info = envs.reset(seed=3)
    first = info["seat"].copy()
    assert set(first.tolist()) == {0, 1, 2, 3}  # 64 games: every seat is drawn
    _, again = envs.reset(seed=3)
    assert (again["seat"] == first).all()
    _, other = envs.reset(seed=4)
    assert not (other["seat"] == first).all()


def test_a_masked_action_is_penalized_in_its_row_by_default() -> None:
    envs = make(players=2)
    _, info = envs.reset(seed=5)
    before = envs.unwrapped.games.state(3)
    actions = np.argmax(info["action_mask"], axis=1)
    actions[3] = 7  # stop while the roll waits for a take
    _, rewards, terminated, truncated, info = envs.step(actions)
    assert info["illegal_action"].tolist() == [False, False, False, True, False, False]
    assert rewards[3] == -1.0
    assert not terminated[3]
    assert not truncated[3]
    assert envs.unwrapped.games.state(3) == before  # that game did not move
    assert envs.unwrapped.games.state(0) != before  # the others did


def test_a_masked_action_can_lose_its_row_s_game() -> None:
    envs = make(players=2, illegal_action="lose", illegal_penalty=-2.0)
    _, info = envs.reset(seed=5)
    actions = np.argmax(info["action_mask"], axis=1)
    actions[3] = 7
    _, rewards, terminated, _, info = envs.step(actions)
    assert (rewards[3], bool(terminated[3])) == (-2.0, True)
    assert not terminated[[0, 1, 2, 4, 5]].any()
    _, rewards, terminated, _, _ = envs.step(np.argmax(info["action_mask"], axis=1))
    assert rewards[3] == 0  # the row starts a new game, at the learner's first decision
    fresh = envs.unwrapped.games.state(3)
    assert fresh.stacks == ((), ())
    assert len(fresh.grill) == 16


def test_a_masked_action_names_its_row_and_changes_nothing() -> None:
    envs = make(players=2, illegal_action="raise")
    observation, info = envs.reset(seed=5)
    actions = np.argmax(info["action_mask"], axis=1)
    wrong = actions.copy()
    wrong[3] = 7  # stop while the roll waits for a take
    with pytest.raises(BatchActionError, match="row 3"):
        envs.step(wrong)
    with pytest.raises(BatchActionError, match="shape"):
        envs.step(actions[:2])
    again, _ = envs.unwrapped._observation(), None  # noqa: SLF001
    assert (again == observation).all()
    envs.step(actions)  # the right ones still play


def test_games_are_truncated_after_max_steps_and_restart() -> None:
    envs = make(players=2, max_steps=3, opponents="random")
    _, info = envs.reset(seed=6)
    rng = np.random.default_rng(4)
    seen = []
    for _ in range(4):
        _, _, terminated, truncated, info = envs.step(legal_random(info, rng))
        seen.append(truncated | terminated)
    assert seen[2].all()  # every game ended or was cut short at the third decision
    assert not seen[3].any()  # and started again on the next step


@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_gymnasium_wrappers_count_episodes(variant: str) -> None:
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        make(variant=variant, players=2, max_steps=100)
    )
    _, info = envs.reset(seed=7)
    rng = np.random.default_rng(5)
    episodes = 0
    for _ in range(400):
        _, _, _terminated, _truncated, info = envs.step(legal_random(info, rng))
        if "episode" in info:
            done = info["_episode"]
            episodes += int(done.sum())
            assert set(info["episode"]["r"][done]) <= {-1.0, 0.0, 1.0}  # 0: cut short
    assert episodes > 0


def test_any_registered_bot_plays_its_rows_through_the_reference_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bot without a vectorised form sees each of its rows as a reference state."""
    seen: list[GameState] = []

    def cautious(rules: Rules, state: GameState, rng: random.Random) -> Action:
        seen.append(state)
        return greedy_bot(rules, state, rng)

    monkeypatch.setitem(BOTS, "cautious", cautious)
    envs = make(players=3, opponents=["cautious", "optimal"], num_envs=4)
    observation, info = envs.reset(seed=9)
    rng = np.random.default_rng(3)
    for _ in range(30):
        check_rows(envs, observation, info)
        observation, _, _, _, info = envs.step(legal_random(info, rng))
    assert seen
    assert all(state.player == 1 for state in seen)  # the seat after the learner's


def test_bad_settings_are_refused() -> None:
    odd = RuleModule(name="mine", batch=lambda: 42)  # type: ignore[arg-type, return-value]
    with pytest.raises(BatchRulesError, match="'mine': its batch twin is int"):
        make(variant=compose(classic_components(), odd))
    with pytest.raises(InvalidSetupError, match="unknown bot 'nobody'"):
        make(opponents="nobody")
    with pytest.raises(InvalidSetupError, match="seat"):
        make(players=2, seat=2)
    with pytest.raises(InvalidSetupError, match="opponents"):
        make(players=3, opponents=["greedy"])
    with pytest.raises(InvalidSetupError, match="reward"):
        make(reward="money")
    rules, _ = new_game("classic", players=2, options={"short_game": True})
    envs = make(variant=rules, players=2)
    assert envs.unwrapped.rules is rules


def test_a_reset_mask_restarts_only_those_games() -> None:
    envs = make(players=2)
    _, info = envs.reset(seed=8)
    rng = np.random.default_rng(6)
    for _ in range(5):
        _, _, _, _, info = envs.step(legal_random(info, rng))
    games = envs.unwrapped.games
    before = games.states()
    mask = np.array([True, False, True, False, False, False])
    observation, info = envs.reset(options={"reset_mask": mask})
    after = games.states()
    for row in range(6):
        if mask[row]:
            assert not any(after[row].stacks)  # a new game
            assert after[row].set_aside == (0,) * 6
        else:
            assert after[row] == before[row]
    check_rows(envs, observation, info)
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": [1, 0]})


def test_own_rewards_stop_where_the_learner_s_turn_ends() -> None:
    # one game, its opponent a registered bot without a vectorised form: the reference
    # engine hands it each of its decisions, which it records
    seen: list[GameState] = []

    def recording(rules: Rules, state: GameState, rng: random.Random) -> Action:
        seen.append(state)
        return greedy_bot(rules, state, rng)

    BOTS["recording-greedy"] = recording
    try:
        envs = make(num_envs=1, players=2, reward="own", opponents="recording-greedy", seat=None)
        inner = envs.unwrapped
        _, info = envs.reset(seed=3)
        rng = np.random.default_rng(4)
        checked, restarting = 0, False
        while checked < 40:
            state = inner.games.state(0)
            seat = int(info["seat"][0])
            before = worm_margins(inner.rules, state)[seat]
            seen.clear()
            _, rewards, terminated, truncated, info = envs.step(legal_random(info, rng))
            if not restarting:
                end = seen[0] if seen else inner.games.state(0)
                assert rewards[0] == pytest.approx(worm_margins(inner.rules, end)[seat] - before)
                checked += bool(seen)
            restarting = bool(terminated[0] or truncated[0])
    finally:
        BOTS.pop("recording-greedy")
