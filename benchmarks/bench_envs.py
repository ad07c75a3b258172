"""What the AI wrappers cost: decisions per second through each interface, same policy.

Every loop plays uniformly random legal decisions for every player (the gymnasium learner
reads its mask; its opponent is the random bot) and rolls the dice from the exact
distribution. A *decision* is one player action; rolls are not counted, so the figures compare
across interfaces:

- ``plain``: ``legal_actions`` + ``apply`` on the reference engine;
- ``plain+encode``: the same, plus the observation vector and mask an agent reads;
- ``gymnasium``: ``env.step`` with the mask from ``info`` (the bot's decisions count too);
- ``gymnasium-batch``: the vector environment on the batch engine (any variant), 1,024
  games at once, random legal actions for the learner and the vectorised random bot;
- ``pettingzoo``: ``last()`` + ``step`` over every agent, through ``env()`` (PettingZoo's
  wrappers: illegal moves end the game, order enforced);
- ``pettingzoo-raw``: the same through ``raw_env()``, without those wrappers;
- ``openspiel``: ``legal_actions`` + ``apply_action`` on ``python_pickomino``.

The wrappers build an observation vector and a mask per decision; that is their cost.
The runs of the interfaces are interleaved and repeated; the median is reported.

Run: ``python benchmarks/bench_envs.py [--seconds 2] [--repeat 5] [--variant classic]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import TYPE_CHECKING

import numpy as np

from pickomino_rules import Action, GameState, Phase, Rules, apply, legal_actions, new_game
from pickomino_rules.encoding import Encoding

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from pickomino_rules.batch import BatchGames


def _engine_loop(variant: str, seconds: float, *, encoded: bool) -> float:
    rules, start = new_game(variant, players=2)
    encoding = Encoding.of(rules, 2)
    rng = random.Random(1)
    state, decisions = start, 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(200):
            if state.phase is Phase.GAME_OVER:
                state = start
            elif state.phase is Phase.ROLL:
                state = apply(rules, state, rules.chance_table(state.in_hand).sample(rng))
            elif encoded:
                encoding.observe(state, state.player)
                mask = encoding.legal_mask(state)
                move = encoding.decode(rng.choice(np.flatnonzero(mask).tolist()))
                state = apply(rules, state, move)
                decisions += 1
            else:
                state = apply(rules, state, rng.choice(legal_actions(rules, state)))
                decisions += 1
    return decisions / (time.perf_counter() - began)


def plain(variant: str, seconds: float) -> float:
    """Decisions per second of the bare engine loop."""
    return _engine_loop(variant, seconds, encoded=False)


def plain_encoded(variant: str, seconds: float) -> float:
    """The bare loop that also builds what an agent reads: the observation vector and the
    legal-action mask (the wrappers' floor)."""
    return _engine_loop(variant, seconds, encoded=True)


def gymnasium_env(variant: str, seconds: float) -> float:
    """Decisions per second through the gymnasium environment (learner and bot)."""
    from pickomino_rules.bots import random_bot  # noqa: PLC0415
    from pickomino_rules.envs.gymnasium import PickominoEnv  # noqa: PLC0415 (an extra)

    bot_decisions = [0]

    def counted(rules: Rules, state: GameState, rng: random.Random) -> Action:
        bot_decisions[0] += 1
        return random_bot(rules, state, rng)

    env = PickominoEnv(variant, players=2, opponents=counted)
    rng = random.Random(1)
    _, info = env.reset(seed=1)
    steps = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(100):
            mask = info["action_mask"]
            _, _, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(mask).tolist()))
            steps += 1
            if terminated or truncated:
                _, info = env.reset()
    return (steps + bot_decisions[0]) / (time.perf_counter() - began)


def gymnasium_batch_env(variant: str, seconds: float) -> float:
    """Decisions per second through the batch engine's vector environment (1,024 games)."""
    from pickomino_rules.batch_bots import random_actions, register_vector_bot  # noqa: PLC0415
    from pickomino_rules.envs.gymnasium_vector import PickominoVectorEnv  # noqa: PLC0415

    bot_decisions = [0]

    def counted(games: BatchGames, rng: np.random.Generator) -> NDArray[np.int64]:
        bot_decisions[0] += int((~games.over & (games.to_move != 0)).sum())
        return random_actions(games, rng)

    register_vector_bot("bench-counted-random", counted, replace=True)
    envs = PickominoVectorEnv(1024, players=2, variant=variant, opponents="bench-counted-random")
    rng = np.random.default_rng(1)
    _, info = envs.reset(seed=1)
    learner = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(10):
            mask = info["action_mask"]
            learner += int(mask.any(axis=1).sum())
            keys = rng.random(mask.shape) * mask
            _, _, _, _, info = envs.step(np.argmax(keys, axis=1))
    return (learner + bot_decisions[0]) / (time.perf_counter() - began)


def pettingzoo_env(variant: str, seconds: float, *, raw: bool = False) -> float:
    """Decisions per second through the PettingZoo AEC environment (every agent)."""
    from pickomino_rules.envs.pettingzoo import env, raw_env  # noqa: PLC0415 (an extra)

    game = (raw_env if raw else env)(variant=variant, players=2)
    rng = random.Random(1)
    game.reset(seed=1)
    decisions = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(100):
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.reset()
                continue
            game.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            decisions += 1
    return decisions / (time.perf_counter() - began)


def pettingzoo_raw_env(variant: str, seconds: float) -> float:
    """The same through ``raw_env``: without PettingZoo's wrappers (illegal moves raise)."""
    return pettingzoo_env(variant, seconds, raw=True)


def openspiel_game(variant: str, seconds: float) -> float:
    """Decisions per second through OpenSpiel's python_pickomino."""
    import pyspiel  # noqa: PLC0415 (an extra)

    import pickomino_rules.envs.openspiel  # noqa: F401, PLC0415 (registers the game)

    game = pyspiel.load_game("python_pickomino", {"variant": variant, "players": 2})
    rng = random.Random(1)
    state = game.new_initial_state()
    decisions = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(100):
            if state.is_terminal():
                state = game.new_initial_state()
            elif state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions / (time.perf_counter() - began)


def main() -> None:
    """Interleave the interfaces, repeat, report medians and ratios to the plain loop."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--variant", default="classic")
    args = parser.parse_args()
    runs: dict[str, Callable[[str, float], float]] = {
        "plain": plain,
        "plain+encode": plain_encoded,
        "gymnasium": gymnasium_env,
        "gymnasium-batch": gymnasium_batch_env,
        "pettingzoo": pettingzoo_env,
        "pettingzoo-raw": pettingzoo_raw_env,
        "openspiel": openspiel_game,
    }
    figures: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeat):
        for name, run in runs.items():
            figures[name].append(run(args.variant, args.seconds))
    base = statistics.median(figures["plain"])
    print(f"{args.variant}, 2 players, random legal decisions; median of {args.repeat}")
    for name, values in figures.items():
        median = statistics.median(values)
        spread = f"{min(values):,.0f}-{max(values):,.0f}"
        print(f"{name:15} {median:>11,.0f} decisions/s  ({spread})  {median / base:5.2f}x plain")


if __name__ == "__main__":
    main()
