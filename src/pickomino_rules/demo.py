"""A seeded demo game between simple bots, printed turn by turn.

Run ``python -m pickomino_rules.demo --seed 2026 --players 3``.

Examples:
    >>> lines = narrate("classic", players=2, seed=1, bots=("greedy", "greedy"))
    >>> lines[0]
    'classic, 2 players, seed 1: greedy vs greedy'
    >>> lines[-1].startswith("winner")
    True
"""

from __future__ import annotations

import argparse
import random
from typing import TYPE_CHECKING

from pickomino_rules.bots import greedy_bot, random_bot
from pickomino_rules.game import apply, new_game
from pickomino_rules.result import result
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pickomino_rules.game import Bot, Move
    from pickomino_rules.state import GameState

__all__ = ["BOTS", "main", "narrate"]

BOTS: dict[str, Bot] = {"greedy": greedy_bot, "random": random_bot}
"""Bots the demo knows by name."""


def _outcome(before: GameState, after: GameState, player: int) -> str:
    """What a finished turn did to the table, in words."""
    gained = len(after.stacks[player]) - len(before.stacks[player])
    if gained > 0:
        tile = after.stacks[player][-1]
        robbed = [p for p in range(before.players) if before.top(p) == tile and p != player]
        return f"steals {tile} from player {robbed[0]}" if robbed else f"takes {tile}"
    parts = ["bust"]
    if gained < 0:
        parts.append(f"returns {before.stacks[player][-1]}")
    turned = after.out[len(before.out) :]
    if turned:
        parts.append(f"{', '.join(map(str, turned))} turned face down")
    return ": ".join([parts[0], ", ".join(parts[1:])]) if len(parts) > 1 else parts[0]


def narrate(
    variant: str = "classic",
    players: int = 3,
    seed: int = 2026,
    bots: Sequence[str] = ("greedy",),
) -> list[str]:
    """Play a seeded game and return its story, one line per turn, then the result.

    Args:
        variant: Registered variant name.
        players: Number of players.
        seed: Seed of the one ``random.Random`` used for dice and bots.
        bots: Bot names (see [`BOTS`][pickomino_rules.demo.BOTS]), one for all or one per player.
    """
    names = [bots[p % len(bots)] for p in range(players)]
    chosen = [BOTS[name] for name in names]
    rng = random.Random(seed)
    rules, state = new_game(variant, players=players)
    lines = [f"{variant}, {players} players, seed {seed}: {' vs '.join(names)}"]
    turn = 1
    start, story = state, []
    while state.phase is not Phase.GAME_OVER:
        player = state.player
        if state.phase is Phase.ROLL:
            move: Move = rules.chance_table(state.in_hand).sample(rng)
            story.append(f"[{move}]")
        else:
            move = chosen[player](rules, state, rng)
            story.append(str(move))
        state = apply(rules, state, move)
        if state.player != player or state.phase is Phase.GAME_OVER:
            ending = _outcome(start, state, player)
            lines.append(f"turn {turn:3}  player {player}: {' '.join(story)} -> {ending}")
            turn += 1
            start, story = state, []
    outcome = result(rules, state)
    lines.append("scores: " + ", ".join(f"player {p} {w}" for p, w in enumerate(outcome.scores)))
    lines.append("winner: " + " and ".join(f"player {p}" for p in outcome.winners))
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    """Command-line entry: print a seeded demo game."""
    parser = argparse.ArgumentParser(description="Play a seeded demo game between bots.")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bots", default="greedy,random,greedy", help="comma-separated")
    args = parser.parse_args(argv)
    for line in narrate(args.variant, args.players, args.seed, args.bots.split(",")):
        print(line)  # noqa: T201


if __name__ == "__main__":
    main()
