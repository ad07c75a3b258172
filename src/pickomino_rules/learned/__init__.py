"""Learned bots: policies trained by reinforcement learning, played with numpy alone.

A [`PolicyBot`][pickomino_rules.learned.PolicyBot] is a policy network read from a ``.npz``
file: the observation of the player to move in, the best legal action out. Playing needs
numpy only (the ``solver`` extra); training one needs the ``train`` extra (sb3-contrib and
PyTorch): ``python -m pickomino_rules.learned.train`` (see the docs page "Train an agent").

The package ships one, registered as the bot ``ppo``: MaskablePPO trained against ``greedy``
in 2-player classic. It plays that game only
([`bot_supports`][pickomino_rules.bots.bot_supports] says so); how it was made is in its
``about``.

Examples:
    >>> from pickomino_rules.learned import load_policy
    >>> bot = load_policy()
    >>> bot.variant, bot.players, bot.about["seed"]
    ('classic', 2, 1)
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from pickomino_rules.learned._policy import InvalidPolicyError, PolicyBot

if TYPE_CHECKING:
    import random

    from pickomino_rules.actions import Action
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["SHIPPED_POLICY", "InvalidPolicyError", "PolicyBot", "load_policy", "ppo_bot"]

SHIPPED_POLICY = "ppo-classic-2.npz"
"""The file name of the shipped policy, inside this package."""


@cache
def load_policy(name: str = SHIPPED_POLICY) -> PolicyBot:
    """A policy shipped in this package, by file name (the ``ppo`` bot's by default).

    Raises:
        FileNotFoundError: No such file in the package.
    """
    with resources.as_file(resources.files(__name__) / name) as path:
        return PolicyBot.load(path)


def ppo_bot(rules: Rules, state: GameState, rng: random.Random) -> Action:
    """The shipped policy (2-player classic), loaded at its first move."""
    return load_policy()(rules, state, rng)


def _supports(rules: Rules, players: int) -> bool:
    return load_policy().supports(rules, players)


ppo_bot.supports = _supports  # type: ignore[attr-defined]
