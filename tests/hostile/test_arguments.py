"""Bad arguments to the solver, the bots, the environments and the runners: the library's errors.

What the hostile-input campaign against 0.2 found, one test each: a state of impossible dice
once ran the solver out of memory, a bot at a chance node raised a bare ``ValueError``, the
environments raised ``AttributeError`` and ``KeyError`` on odd options, agents and steps,
and a game could go on for ever. Each now gets a specific error of the library, at once.
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from pickomino_rules import (
    MAX_GAME_MOVES,
    Phase,
    RollOutcome,
    UnfinishedGameError,
    apply,
    new_game,
    play,
    playout,
    sample_chance,
)
from pickomino_rules.bots import InvalidBotError, get_bot, greedy_bot, random_bot, register_bot
from pickomino_rules.errors import (
    ArgumentTypeError,
    IllegalActionError,
    InvalidSetupError,
    InvalidStateError,
    PickominoError,
)
from pickomino_rules.simulation import simulate
from pickomino_rules.validation import validate
from support import answered_within

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules import GameState, Rules
    from pickomino_rules.game import Bot

BOTS = ("random", "greedy", "optimal", "margin", "champion", "ppo")


def decision(variant: str = "classic") -> tuple[Rules, GameState]:
    """The first decision of a game: a roll has been made."""
    rules, state = new_game(variant, players=2)
    return rules, apply(rules, state, sample_chance(rules, state, random.Random(1)))


# The solver and everything that asks it.


@pytest.mark.parametrize("dice", [9, 12, 99, 10**6])
@pytest.mark.parametrize("name", ["solve_turn", "optimal", "margin", "champion"])
def test_more_dice_than_the_rules_hold_are_refused_before_any_work(name: str, dice: int) -> None:
    """The solver walks every set-aside the dice allow: it checks the dice first."""
    from pickomino_rules.solver import solve_turn  # noqa: PLC0415 (numpy)

    rules, state = new_game("classic", players=2)
    odd = state.replace(phase=Phase.DECIDE, in_hand=(dice,))
    call: Bot = get_bot(name) if name != "solve_turn" else (lambda r, s, _: solve_turn(r, s))  # type: ignore[assignment, return-value]
    with (
        answered_within(20),
        pytest.raises(InvalidStateError, match="more dice than the rules hold"),
    ):
        call(rules, odd, random.Random(1))


@pytest.mark.parametrize("name", BOTS)
@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_a_bot_asked_at_a_chance_node_or_after_the_end_says_so(name: str, variant: str) -> None:
    bot = get_bot(name)
    rules, start = new_game(variant, players=2)
    with pytest.raises(IllegalActionError, match="bots decide for players"):
        bot(rules, start, random.Random(1))
    *_, (_, over) = playout(rules, start, greedy_bot, random.Random(2))
    with pytest.raises(IllegalActionError, match=r"the game is over|bots decide for players"):
        bot(rules, over, random.Random(1))


@pytest.mark.parametrize("name", BOTS)
def test_a_bot_given_no_state_or_no_rules_is_a_type_error(name: str) -> None:
    rules, state = decision()
    bot = get_bot(name)
    bot(rules, state, random.Random(1))  # a decision: the bot plays it
    odd: list[tuple[Any, Any]] = [(rules, "state"), ("rules", state), (rules, None)]
    for odd_rules, odd_state in odd:
        with pytest.raises(ArgumentTypeError):
            bot(odd_rules, odd_state, random.Random(1))


def test_a_taken_bot_name_is_refused() -> None:
    with pytest.raises(InvalidBotError, match="already registered"):
        register_bot("random", random_bot)


# Game length.


def test_a_game_beyond_its_move_limit_is_unfinished_not_endless() -> None:
    rules, state = new_game("classic", players=2)
    with pytest.raises(UnfinishedGameError) as raised:
        play(rules, state, greedy_bot, random.Random(1), max_moves=30)
    assert raised.value.moves == 30
    assert raised.value.state.phase is not Phase.GAME_OVER
    for limit in (0, -1, "x", 2.5):
        with pytest.raises(InvalidSetupError, match="max_moves"):
            play(rules, state, greedy_bot, random.Random(1), max_moves=limit)  # type: ignore[arg-type]
    assert MAX_GAME_MOVES >= 10_000  # far beyond any game played (C12 ends them in hundreds)


@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_a_run_reports_games_beyond_the_limit_as_failures(engine: str) -> None:
    run = simulate(
        "classic",
        2,
        bots=["greedy", "random"],
        games=6,
        max_moves=30,
        keep_going=True,
        engine=engine,  # type: ignore[arg-type]
    )
    assert len(run.failures) == 6
    assert all("did not end within 30 moves" in str(failure) for failure in run.failures)


# Environments.


def test_gymnasium_refuses_odd_options_and_steps_without_a_game() -> None:
    from pickomino_rules.envs.gymnasium import PickominoEnv, ResetNeededError  # noqa: PLC0415

    env = PickominoEnv()
    with pytest.raises(ResetNeededError):
        env.step(0)
    for options in ("x", 5, ["seat"]):
        with pytest.raises(InvalidSetupError, match="options must be a dict"):
            env.reset(options=options)  # type: ignore[arg-type]
    env.reset(seed=1)
    terminated = False
    while not terminated:
        mask = env.action_masks()
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
        terminated = terminated or truncated
    with pytest.raises(ResetNeededError):
        env.step(0)


def test_pettingzoo_refuses_unknown_agents_and_steps_after_the_end() -> None:
    from pickomino_rules.envs.pettingzoo import (  # noqa: PLC0415
        ResetNeededError,
        UnknownAgentError,
        raw_env,
    )

    env = raw_env()
    with pytest.raises(ResetNeededError):
        env.observe("player_0")
    for options in ("x", 3):
        with pytest.raises(InvalidSetupError, match="options must be a dict"):
            env.reset(options=options)  # type: ignore[arg-type]
    with pytest.raises(InvalidSetupError, match="seed"):
        env.reset(seed="x")  # type: ignore[arg-type]
    env.reset(seed=1)
    for agent in (None, "bogus", 0):
        with pytest.raises(UnknownAgentError, match="no agent"):
            env.observe(agent)  # type: ignore[arg-type]
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        mask: Any = env.observe(agent)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    with pytest.raises(ResetNeededError):
        env.step(0)


def test_the_vector_env_refuses_a_mask_of_another_shape() -> None:
    from pickomino_rules.envs.gymnasium_vector import PickominoVectorEnv  # noqa: PLC0415

    env = PickominoVectorEnv(num_envs=2)
    env.reset(seed=1)
    for mask in ("x", np.array([1, 0]), np.array([True]), np.zeros((2, 2), bool)):
        with pytest.raises(InvalidSetupError, match="reset_mask"):
            env.reset(options={"reset_mask": mask})
    for games in (0, 10**7, "2"):
        with pytest.raises(InvalidSetupError, match="games must be"):
            PickominoVectorEnv(num_envs=games)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "params",
    [
        {"options": "nope"},
        {"options": "[1]"},
        {"options": '{"no_such_option": 1}'},
        {"players": 1},
        {"variant": "no_such_variant"},
        {"max_moves": 0},
        {"max_moves": -5},
    ],
    ids=json.dumps,
)
def test_openspiel_refuses_bad_parameters_with_a_setup_error(params: dict[str, object]) -> None:
    import pyspiel  # noqa: PLC0415 (the openspiel extra)

    import pickomino_rules.envs.openspiel  # noqa: F401, PLC0415 (registers the game)

    with pytest.raises(InvalidSetupError):
        pyspiel.load_game("python_pickomino", params)


def test_the_batch_engine_refuses_bad_rows_sizes_and_seeds() -> None:
    from pickomino_rules.batch import BatchArgumentError, BatchGames  # noqa: PLC0415

    with pytest.raises(InvalidSetupError, match="games must be"):
        BatchGames(10**7, 2)
    with pytest.raises(InvalidSetupError, match="seed"):
        BatchGames(2, 2, seed="x")  # type: ignore[arg-type]
    games = BatchGames(2, 2, seed=1)
    for row in (2, -3, 10**30):
        with pytest.raises(BatchArgumentError, match="out of range"):
            games.state(row)
    with pytest.raises(ArgumentTypeError):
        games.state("0")  # type: ignore[arg-type]
    with pytest.raises(PickominoError):
        games.set_state(0, "a state")  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_a_bust_roll_left_waiting_in_phase_choose_is_invalid_everywhere(variant: str) -> None:
    """C5: such a roll is settled as it lands, so no state waits on it; found by the fuzz.

    It offered nothing, and the solver's hints once failed on it with a raw ``ValueError``.
    """
    from pickomino_rules.solver import solve_turn  # noqa: PLC0415 (numpy)
    from pickomino_rules.terminal import hint_lines  # noqa: PLC0415 (the cli extra)

    rules, start = new_game(variant, players=2)
    kinds = len(rules.die_kinds)
    roll = RollOutcome.parse("225", tuple(kind.name for kind in rules.die_kinds))
    stuck = start.replace(
        phase=Phase.CHOOSE,
        in_hand=(3,) + (0,) * (kinds - 1),
        roll=roll,
        set_aside=(1, 1, 0, 0, 3, 0),
    )
    optimal = get_bot("optimal")
    calls: dict[str, Callable[[], object]] = {
        "validate": lambda: validate(rules, stuck),
        "solve_turn": lambda: solve_turn(rules, stuck),
        "hint_lines": lambda: hint_lines(rules, stuck),
        "optimal": lambda: optimal(rules, stuck, random.Random(1)),
    }
    for call in calls.values():  # the failing lambda's line names the call
        with pytest.raises(InvalidStateError, match=r"offers nothing to set aside, a bust \(C5\)"):
            call()
