"""Throughput of random and greedy play (issue: core engine benchmark).

A step is one ``legal_actions`` call plus one ``apply`` call, at decisions and at
chance nodes alike (a chance outcome is sampled from the exact distribution).

Run: ``python benchmarks/bench_play.py [--seconds 5]``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from pickomino_rules import Bot, Move, Phase, apply, get_variant, legal_actions, new_game
from pickomino_rules.bots import greedy_bot, random_bot

ROLL, GAME_OVER = Phase.ROLL, Phase.GAME_OVER  # enum lookups are slow; keep them out of the loop


def random_steps(
    variant: str, players: int, seconds: float, seed: int = 1
) -> tuple[int, int, float]:
    """Random legal play for ``seconds``: (steps, finished games, elapsed)."""
    rules, start = new_game(variant, players=players)
    rng = random.Random(seed)
    choice = rng.choice
    steps = games = 0
    state = start
    began = time.perf_counter()
    deadline = began + seconds
    while True:
        for _ in range(1000):
            if state.phase is GAME_OVER:
                games += 1
                state = start
            actions = legal_actions(rules, state)
            move: Move
            if state.phase is ROLL:
                move = rules.chance_table(state.in_hand).sample(rng)
            else:
                move = choice(actions)
            state = apply(rules, state, move)
            steps += 1
        if time.perf_counter() >= deadline:
            return steps, games, time.perf_counter() - began


def bot_games(
    variant: str, players: int, bot: Bot, seconds: float, seed: int = 1
) -> tuple[int, int, float]:
    """Whole games with one bot for everyone: (games, steps, elapsed)."""
    rules, start = new_game(variant, players=players)
    rng = random.Random(seed)
    games = steps = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = start
        while state.phase is not GAME_OVER:
            legal_actions(rules, state)
            move: Move
            if state.phase is ROLL:
                move = rules.chance_table(state.in_hand).sample(rng)
            else:
                move = bot(rules, state, rng)
            state = apply(rules, state, move)
            steps += 1
        games += 1
    return games, steps, time.perf_counter() - began


def main() -> None:
    """Print the figures for classic, 2 and 4 players."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="per repetition")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (median and best shown)")
    parser.add_argument("--variant", default="classic")
    args = parser.parse_args()
    get_variant(args.variant)
    print(f"Python {sys.version.split()[0]} on {platform.machine()}, variant {args.variant}")
    for players in (2, 4):
        runs = [
            random_steps(args.variant, players, args.seconds, seed) for seed in range(args.repeat)
        ]
        rates = sorted(steps / elapsed for steps, _, elapsed in runs)
        steps = sum(r[0] for r in runs)
        games = sum(r[1] for r in runs)
        elapsed = sum(r[2] for r in runs)
        print(
            f"{players} players, random: {statistics.median(rates):,.0f} steps/s median, "
            f"{rates[-1]:,.0f} best of {args.repeat}; {games / elapsed:,.1f} games/s "
            f"({steps / max(games, 1):,.0f} steps/game)"
        )
        for name, bot in (("random", random_bot), ("greedy", greedy_bot)):
            games, steps, elapsed = bot_games(args.variant, players, bot, args.seconds)
            print(
                f"{players} players, {name} bot games: {games / elapsed:,.1f} games/s, "
                f"{steps / elapsed:,.0f} steps/s ({steps / max(games, 1):,.0f} steps/game)"
            )


if __name__ == "__main__":
    main()
