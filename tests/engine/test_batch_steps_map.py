"""Every step of the batch's step machine is in its map of twins, wherever the step is defined.

``BatchGames`` (the public face) inherits its step machine from ``_steps.StepMachine``; the map
(``batch._mirrors.MIRRORS``) must name each step of both, or ``PLUMBING`` must say it is no rule.
"""

from __future__ import annotations

import inspect

import pytest

pytest.importorskip("numpy")

from pickomino_rules.batch._engine import BatchGames
from pickomino_rules.batch._mirrors import MIRRORS, PLUMBING


def test_every_private_method_of_the_batch_is_a_mapped_twin_or_plumbing() -> None:
    methods = {
        name
        for klass in BatchGames.__mro__
        if klass is not object
        for name, value in vars(klass).items()
        if (inspect.isfunction(value) or isinstance(value, staticmethod))
        and name.startswith("_")
        and not name.startswith("__")
    }
    assert {"_legal_mask", "_roll_dice", "_finish"} <= methods  # both classes were read
    named = {getattr(function, "__name__", "") for function in MIRRORS}
    assert methods - named - PLUMBING == set(), "a step of the batch the map does not name"
