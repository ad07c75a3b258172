"""The variant registry.

Variants are found through the entry-point group ``pickomino_rules.variants``:
each entry point names a [`Variant`][pickomino_rules.plugin.Variant] object. The
built-in variants are registered there exactly as a third-party package would
register its own, in its ``pyproject.toml``::

    [project.entry-points."pickomino_rules.variants"]
    mine = "my_package.variant:MY_VARIANT"

[`register_variant`][pickomino_rules.registry.register_variant] adds one at run time (handy in tests
and notebooks).

Examples:
    >>> from pickomino_rules import available_variants, get_rules
    >>> "classic" in available_variants()
    True
    >>> get_rules("classic", {"short_game": True}).options["short_game"]
    True
"""

from __future__ import annotations

import copyreg
from functools import cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from pickomino_rules.errors import (
    ArgumentTypeError,
    InvalidSetupError,
    PickominoError,
    UnknownVariantError,
    brief,
)
from pickomino_rules.plugin import Variant
from pickomino_rules.rules import Rules

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = [
    "ENTRY_POINT_GROUP",
    "available_variants",
    "get_rules",
    "get_variant",
    "register_variant",
]

ENTRY_POINT_GROUP = "pickomino_rules.variants"
"""The entry-point group that variants are registered under."""

_registered: dict[str, Variant] = {}


@cache
def _installed() -> dict[str, Variant]:
    """Variants from installed entry points (looked up once: it costs ~1 ms)."""
    found = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            variant = point.load()
        except Exception as error:
            msg = f"entry point {point.name!r} = {point.value!r} cannot be loaded: {error!r}"
            raise InvalidSetupError(msg) from error
        if not isinstance(variant, Variant):
            msg = f"entry point {point.name!r} = {point.value!r} is not a Variant"
            raise InvalidSetupError(msg)
        if variant.name != point.name:
            msg = f"entry point {point.name!r} names variant {variant.name!r}"
            raise InvalidSetupError(msg)
        found[point.name] = variant
    return found


def available_variants() -> tuple[str, ...]:
    """Names of every registered variant, sorted."""
    return tuple(sorted({**_installed(), **_registered}))


def get_variant(name: str) -> Variant:
    """The variant registered as ``name``.

    Raises:
        UnknownVariantError: No variant has that name.
    """
    if not isinstance(name, str):
        msg = f"a variant's name is a string, got {brief(name)}"
        raise ArgumentTypeError(msg)
    variant = _registered.get(name) or _installed().get(name)
    if variant is None:
        known = ", ".join(available_variants())
        msg = f"unknown variant {brief(name)} (registered: {known})"
        raise UnknownVariantError(msg)
    return variant


def register_variant(variant: Variant, *, replace: bool = False) -> None:
    """Register ``variant`` under its name for this process.

    Args:
        variant: The variant to add.
        replace: Allow replacing a variant of the same name.

    Raises:
        InvalidSetupError: The name is taken and ``replace`` is false.
        ArgumentTypeError: ``variant`` is not a Variant.
    """
    if not isinstance(variant, Variant):
        msg = f"register_variant takes a Variant, got {type(variant).__name__}"
        raise ArgumentTypeError(msg)
    if not replace and variant.name in available_variants():
        msg = f"a variant named {variant.name!r} is already registered"
        raise InvalidSetupError(msg)
    _registered[variant.name] = variant


def unregister_variant(name: str) -> None:
    """Remove a variant added with `register_variant` (no-op otherwise)."""
    _registered.pop(name, None)


def get_rules(name: str, options: Mapping[str, object] | None = None) -> Rules:
    """The composed rules of variant ``name`` with ``options``.

    Raises:
        UnknownVariantError: No variant has that name.
        InvalidOptionError: An unknown option, or a bad value.
    """
    return get_variant(name).rules(options)


def _pickle_rules(rules: Rules) -> tuple[Callable[..., Rules], tuple[str, dict[str, object]]]:
    """Rules pickle as their variant's name and options (hooks are closures, not picklable).

    Registered with ``copyreg`` here, where the variants are found, so that ``rules`` need
    not know the registry.

    Raises:
        TypeError: The rules are not those of a registered variant.
    """
    options = dict(rules.options)
    try:
        registered = get_rules(rules.name, options)
    except PickominoError:
        registered = None
    if registered is not rules:
        msg = f"only the rules of a registered variant can be pickled, not {rules!r}"
        raise TypeError(msg)
    return get_rules, (rules.name, options)


copyreg.pickle(Rules, _pickle_rules)
