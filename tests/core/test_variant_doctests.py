"""Doctests of the built-in variants, imported as installed (pickomino_rules.variants).

The top-level ``variants/`` folder is not a test path: collecting it there would import
a second copy of each module under another name.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import pickomino_rules.variants

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(
        pickomino_rules.variants.__path__, prefix="pickomino_rules.variants."
    )
)


def test_variant_modules_are_found() -> None:
    assert "pickomino_rules.variants.classic" in MODULES
    assert "pickomino_rules.variants.specialists.weasel" in MODULES


@pytest.mark.parametrize("name", ["pickomino_rules.variants", *MODULES])
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert failures == 0
