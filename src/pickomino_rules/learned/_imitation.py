"""A teacher's decisions, recorded as a policy network reads them: for imitation.

The training program can start its network from a bot's play (behaviour cloning) before it
learns by reinforcement: a good start where reinforcement alone finds a poor habit first
(in extended, a grilled worm a turn and nothing more; see the docs page "Train an agent").
This module plays the games and records, at each of the teacher's decisions, the
observation (scaled into [0, 1], as the network reads it), the legal-action mask and the
number of the action the teacher chose. It needs numpy only; the cloning itself is the
training program's (PyTorch).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import attrs
import numpy as np

from pickomino_rules._processes import map_in_processes
from pickomino_rules.bots import get_bot
from pickomino_rules.encoding import Encoding
from pickomino_rules.game import MAX_GAME_MOVES, apply, new_game, sample_chance
from pickomino_rules.learned._policy import network_input
from pickomino_rules.registry import get_rules
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from pickomino_rules.game import Bot
    from pickomino_rules.rules import Rules

__all__ = ["Decisions", "teacher_decisions"]

_CHUNK = 20
"""Games per task handed to a worker."""


@attrs.frozen(eq=False)
class Decisions:
    """The teacher's decisions: scaled observations, masks and chosen action numbers.

    Attributes:
        observations: One row per decision (float32, each feature in [0, 1]).
        masks: One row per decision (bool): the legal actions.
        actions: The number of the action the teacher chose (int64).
        games: The games played.
    """

    observations: NDArray[np.float32]
    masks: NDArray[np.bool_]
    actions: NDArray[np.int64]
    games: int

    def __len__(self) -> int:
        return len(self.actions)


def _play(
    task: tuple[Rules, int, Bot, Bot, Bot, int, range],
) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.int64]]:
    """Play the games of ``task`` and record the teacher's choice at the player's decisions."""
    rules, players, teacher, player, opponent, seed, games = task
    encoding = Encoding.of(rules, players)
    observations: list[NDArray[np.float32]] = []
    masks: list[NDArray[np.int8]] = []
    actions: list[int] = []
    for index in games:
        rng = random.Random(f"{seed}:{index}")
        seat = index % players  # seats rotated
        _, state = new_game(rules, players=players)
        for _ in range(MAX_GAME_MOVES):
            if state.phase is Phase.GAME_OVER:
                break
            if state.phase is Phase.ROLL:
                state = apply(rules, state, sample_chance(rules, state, rng))
                continue
            if state.player != seat:
                state = apply(rules, state, opponent(rules, state, rng))
                continue
            action = teacher(rules, state, rng)
            observations.append(network_input(encoding, state))
            masks.append(encoding.legal_mask(state))
            actions.append(encoding.encode(action))
            if player is not teacher:
                action = player(rules, state, rng)
            state = apply(rules, state, action)
    if not actions:
        empty = np.zeros((0, encoding.observation_size), dtype=np.float32)
        return empty, np.zeros((0, encoding.num_actions), dtype=bool), np.zeros(0, np.int64)
    return (
        np.stack(observations).astype(np.float32),
        np.stack(masks).astype(bool),
        np.array(actions, dtype=np.int64),
    )


def teacher_decisions(  # noqa: PLR0913 (a run's settings)
    variant: str,
    players: int,
    *,
    teacher: str,
    opponent: str,
    games: int,
    seed: int,
    player: Bot | None = None,
    jobs: int = 1,
) -> Decisions:
    """Play ``games`` games against ``opponent`` and record the teacher's choices.

    ``player`` (the teacher itself by default) sits at seat ``i % players`` in game ``i``
    (seats rotated), ``opponent`` at every other seat; at each of the player's decisions the
    teacher's choice is recorded (with another player: the states that player reaches,
    labelled by the teacher, as DAgger asks). Game ``i`` draws from
    ``random.Random(f"{seed}:{i}")``, so the record is the same whatever ``jobs``.

    Args:
        variant: A registered variant (default options).
        players: Players per game.
        teacher: The registered bot whose choices are recorded.
        opponent: The registered bot at the other seats.
        games: Games to play.
        seed: Seeds the dice and the bots.
        player: The bot that plays the recorded seat (picklable, for ``jobs``), if not the
            teacher.
        jobs: Worker processes (1: play here).

    Raises:
        UnknownVariantError: No such variant.
        UnknownBotError: No such bot.
    """
    rules = get_rules(variant)
    mentor, rival = get_bot(teacher), get_bot(opponent)
    tasks = [
        (rules, players, mentor, player or mentor, rival, seed, range(start, end))
        for start in range(0, games, _CHUNK)
        for end in [min(games, start + _CHUNK)]
    ]
    parts = [_play(task) for task in tasks] if jobs == 1 else map_in_processes(_play, tasks, jobs)
    return Decisions(
        np.concatenate([part[0] for part in parts]),
        np.concatenate([part[1] for part in parts]),
        np.concatenate([part[2] for part in parts]),
        games,
    )
