"""Environments for reinforcement learning and search: gymnasium, PettingZoo and OpenSpiel.

Each lives in its own module and needs its own extra:

- [`pickomino_rules.envs.gymnasium`][pickomino_rules.envs.gymnasium]
  (the ``rl`` extra): one learning seat against bots. Importing this package
  registers it as ``pickomino_rules/Pickomino-v0`` with gymnasium, when gymnasium is installed.
- [`pickomino_rules.envs.gymnasium_vector`][pickomino_rules.envs.gymnasium_vector]
  (the ``rl`` extra): many games of any variant at once on the batch engine, a
  gymnasium vector environment, registered as ``pickomino_rules/PickominoBatch-v0`` for
  ``gymnasium.make_vec``.
- [`pickomino_rules.envs.pettingzoo`][pickomino_rules.envs.pettingzoo]
  (the ``rl`` extra): every player an agent, an AEC environment.
- [`pickomino_rules.envs.openspiel`][pickomino_rules.envs.openspiel]
  (the ``openspiel`` extra): the game ``python_pickomino`` for OpenSpiel's
  algorithms, with explicit chance nodes.

All three share the numeric [`Encoding`][pickomino_rules.encoding.Encoding] of the rules.
"""

from __future__ import annotations

import importlib.util

__all__ = ["GYMNASIUM_BATCH_ID", "GYMNASIUM_ID"]

GYMNASIUM_ID = "pickomino_rules/Pickomino-v0"
"""The id to pass to ``gymnasium.make`` (and ``gymnasium.make_vec``, any variant)."""

GYMNASIUM_BATCH_ID = "pickomino_rules/PickominoBatch-v0"
"""The id to pass to ``gymnasium.make_vec`` for the batch engine's vector environment."""


def _register_with_gymnasium() -> None:
    if importlib.util.find_spec("gymnasium") is None:
        return
    import gymnasium  # noqa: PLC0415 (an optional dependency)

    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(
            id=GYMNASIUM_ID,
            entry_point="pickomino_rules.envs.gymnasium:PickominoEnv",
            # the bots' moves and the dice change with the seed only: reproducible
            nondeterministic=False,
        )
    if GYMNASIUM_BATCH_ID not in gymnasium.registry:
        gymnasium.register(
            id=GYMNASIUM_BATCH_ID,
            vector_entry_point="pickomino_rules.envs.gymnasium_vector:PickominoVectorEnv",
            nondeterministic=False,
        )


_register_with_gymnasium()
