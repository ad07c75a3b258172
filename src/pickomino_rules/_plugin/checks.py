"""What `compose` checks once, when rules are composed: modules, their hooks, the components.

Each check fails at composition with a message naming the module, not mid-game.
"""

from __future__ import annotations

import inspect
import types
from typing import TYPE_CHECKING, Any

from pickomino_rules._plugin.hooks import HOOK_ARGUMENTS
from pickomino_rules._plugin.rule_module import RuleModule
from pickomino_rules.errors import CompositionError, InvalidSetupError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from pickomino_rules.rules import Components

__all__ = ["check_components", "check_modules"]


def check_modules(modules: Sequence[RuleModule]) -> None:
    """The modules are `RuleModule`s with fitting hooks, distinct names and what they require.

    Raises:
        CompositionError: The first problem found, naming the module.
    """
    for module in modules:
        if not isinstance(module, RuleModule):
            msg = f"compose takes RuleModule objects, got {module!r}"
            raise CompositionError(msg)
        _check_signatures(module)
    names = [module.name for module in modules]
    doubled = sorted({name for name in names if names.count(name) > 1})
    if doubled:
        msg = f"rule modules need distinct names; composed twice: {', '.join(map(repr, doubled))}"
        raise CompositionError(msg)
    for module in modules:
        missing = [need for need in module.requires if need not in names]
        if missing:
            needs = ", ".join(map(repr, missing))
            msg = f"rule module {module.name!r} requires {needs}, which is not composed"
            raise CompositionError(msg)


def _check_signatures(module: RuleModule) -> None:
    """Every hook and extension of ``module`` accepts the arguments it will be called with.

    Checked once, when rules are composed (as pluggy checks a hook implementation when it is
    registered), so that a wrong signature fails here, naming the module and the hook, not
    mid-game with a bare ``TypeError``.
    """
    for hook, arguments in HOOK_ARGUMENTS.items():
        function = getattr(module, hook)
        if function is not None:
            _check_call(module.name, f"hook {hook!r}", function, arguments)
    for extension in module.extends:
        point = extension.point
        try:
            parameters = inspect.signature(point.default).parameters.values()
        except (TypeError, ValueError):  # a builtin default: nothing to compare with
            continue
        if any(p.kind is p.VAR_POSITIONAL for p in parameters):
            continue  # a default that takes any arguments says nothing about how many
        arguments = tuple(p.name for p in parameters if p.kind in _POSITIONAL)
        name = f"extension of {point.name!r}"
        _check_call(module.name, name, extension.wrapper, ("inner", *arguments))


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _check_call(
    module: str, what: str, function: Callable[..., Any], arguments: tuple[str, ...]
) -> None:
    try:
        signature = None if _builtin(function) else inspect.signature(function)
    except (TypeError, ValueError):  # no signature to read
        signature = None
    if signature is None:  # a builtin (max, int, print): what it does with them is unknown
        shown = getattr(function, "__name__", type(function).__name__)
        msg = (
            f"rule module {module!r}: its {what} is {shown!r}, a builtin whose arguments "
            f"cannot be checked; give a Python function of ({', '.join(arguments)})"
        )
        raise CompositionError(msg)
    try:
        signature.bind(*arguments)
    except TypeError as error:
        called = f"({', '.join(arguments)})"
        msg = (
            f"rule module {module!r}: its {what} is called with {called}, but "
            f"{getattr(function, '__name__', 'it')}{signature} cannot take them ({error})"
        )
        raise CompositionError(msg) from None


def _builtin(function: object) -> bool:
    """A function or class of Python's own (``max``, ``print``, ``int``), not a hook of anyone's."""
    return isinstance(function, types.BuiltinFunctionType) or (
        isinstance(function, type) and function.__module__ == "builtins"
    )


def check_components(components: Components) -> None:
    """The components the modules configured make a playable game.

    Raises:
        InvalidSetupError: Tiles, worms, dice or player limits that do not fit together.
    """
    tiles = components.tiles
    if not tiles or list(tiles) != sorted(set(tiles)):
        msg = f"tiles must be distinct and ascending, got {tiles!r}"
        raise InvalidSetupError(msg)
    if set(tiles) != {tile for tile, _ in components.worms}:
        msg = "every tile needs a worm count, and only tiles"
        raise InvalidSetupError(msg)
    if not components.die_kinds or len(components.dice) != len(components.die_kinds):
        msg = "the components need dice: one count per kind of die"
        raise InvalidSetupError(msg)
    most = components.most_dice
    if most and (
        len(most) != len(components.dice)
        or any(m < d for m, d in zip(most, components.dice, strict=True))
    ):
        msg = f"most_dice {most!r} must give at least the dice {components.dice!r}, per kind"
        raise InvalidSetupError(msg)
    if not 1 <= components.min_players <= components.max_players:
        msg = f"bad player limits {components.min_players}..{components.max_players}"
        raise InvalidSetupError(msg)
