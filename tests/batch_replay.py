"""Shared by the batch tests: the reference engine replaying a batch's games with its dice."""

from __future__ import annotations

import itertools
import os
from typing import TYPE_CHECKING

import numpy as np

from pickomino_rules.batch_bots import random_actions

if TYPE_CHECKING:
    from pickomino_rules.batch import BatchGames

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
LIGHT = os.environ.get("PICKOMINO_TEST_SCALE") == "light"
"""The memory-checking run (``.ci/memcheck``): every path of the batch, fewer games, since
each step there is many times slower."""
OPTIONS = [
    {"flip_on_empty_bust": o1, "short_game": o2, "optional_steal": o3}
    for o1, o2, o3 in itertools.product((False, True), repeat=3)
]


def _sensible(batch: BatchGames, rng: np.random.Generator) -> np.ndarray:
    """Random, but never a stop that busts while something else is legal."""
    mask = batch.legal_mask().copy()
    arrays = batch.arrays
    pointless = (arrays.phase == 2) & (arrays.grill_claim < 0) & (arrays.victim < 0)
    others = mask.copy()
    others[:, 7] = False
    mask[pointless & others.any(axis=1), 7] = False
    keys = rng.random(mask.shape)
    keys[~mask] = -1
    chosen: np.ndarray = np.argmax(keys, axis=1)
    return chosen


POLICIES = {"random": random_actions, "sensible": _sensible}


CLASSIC_SETS: list[tuple[str, dict[str, object]]] = [("classic", dict(o)) for o in OPTIONS]
EXTENDED_SETS: list[tuple[str, dict[str, object]]] = [
    ("extended", {}),
    (
        "extended",
        {
            "flip_on_empty_bust": True,
            "short_game": True,
            "optional_steal": False,
            "exclusive_low_tiles": False,
        },
    ),
    ("extended", {"golden_die_faces": "12345w", "low_tile_worms": (2, 3), "short_game": True}),
    ("extrawurm", {}),
    (
        "extrawurm",
        {"optional_steal": False, "flip_on_empty_bust": True, "golden_die_faces": "ww1111"},
    ),
]
"""Every built-in variant, with option sets that between them switch every option."""
