"""The plug-in contract: everything a variant may build on, and nothing more.

A variant is a list of [`RuleModule`][pickomino_rules.plugin.RuleModule]s composed over the
core turn, plus the [`Option`][pickomino_rules.plugin.Option]s that choose them, bundled as a
[`Variant`][pickomino_rules.plugin.Variant]. A variant module imports this module and the public
value types (`pickomino_rules.state`, `.actions`, `.dice`, `.errors`) and nothing else; the
built-in variants do exactly that, and an import contract in CI keeps it so.

**Hooks.** Each hook of a module receives ``inner`` first, the behaviour of the core and of the
modules composed before it, then the rules and the state. Call ``inner`` to keep that behaviour,
change its arguments or its result, or skip it to replace it.

**Order.** Modules wrap each other in the order given to
[`compose`][pickomino_rules.plugin.compose], adjusted to meet their ``after`` and ``before``
constraints (a stable topological order): a module composed later wraps the earlier ones.

**Extension points.** A module may offer a typed
[`ExtensionPoint`][pickomino_rules.plugin.ExtensionPoint] of its own (``provides``); other
modules wrap it (``extends``, with
[`ExtensionPoint.wrap`][pickomino_rules.plugin.ExtensionPoint.wrap]); code reads the composed
function with [`Rules.extension`][pickomino_rules.rules.Rules.extension].

**Checks.** [`compose`][pickomino_rules.plugin.compose] checks the whole composition once and
raises [`CompositionError`][pickomino_rules.errors.CompositionError] naming the modules: a hook
or an extension whose signature cannot take the arguments it is called with (`HOOK_ARGUMENTS`),
two modules with one name, a required module missing, contradictory order constraints, an extension
point that no composed module provides, two parts or two action keywords with one name. The
composed hooks are plain callables: nothing is looked up by name while a game runs.

**Conformance.** [`pickomino_rules.testing.check_variant`][pickomino_rules.testing.check_variant]
runs the library's whole API test on any variant, yours included.

Examples:
    >>> from pickomino_rules.plugin import RuleModule, compose
    >>> from pickomino_rules.variants.classic import classic_components
    >>> def double(inner, rules, state):
    ...     return tuple(2 * worms for worms in inner(rules, state))
    >>> rules = compose(classic_components(), RuleModule(name="double", scores=double))
    >>> rules.chains["scores"]
    ('turn', 'double')
"""

from __future__ import annotations

# The contract's parts live in the private package `_plugin`, one job a module (see its
# docstring); this module is their public face, and each moved class and function says so
# (``__module__``). The core's types a hook is written with are re-exported for the authors.
from pickomino_rules._plugin.compose import compose, compose_on
from pickomino_rules._plugin.extension import Extension, ExtensionPoint
from pickomino_rules._plugin.hooks import (
    END_HOOKS,
    HOOK_ARGUMENTS,
    HOOKS,
    MID_TURN_HOOKS,
    ActionsHook,
    ApplyHook,
    ClaimsHook,
    DiceHook,
    ScoresHook,
    SetAsideHook,
    StateHook,
    TakeTileHook,
    TotalHook,
)
from pickomino_rules._plugin.options import Option, boolean
from pickomino_rules._plugin.ranges import (
    BOOLEAN,
    UNDECLARED,
    UNDECLARED_BOUND,
    UNDECLARED_SIZE,
    BoolRange,
    FaceRange,
    IntRange,
    OptionRange,
    TupleRange,
    UndeclaredRange,
)
from pickomino_rules._plugin.rule_module import CompiledTwins, RuleModule, Twin
from pickomino_rules._plugin.variant import RULES_KEPT, Variant
from pickomino_rules.actions import AgainstPlayer
from pickomino_rules.rules import (
    ActionsFn,
    ApplyFn,
    ClaimsFn,
    Components,
    DiceFn,
    Rules,
    ScoresFn,
    SetAsideFn,
    StateFn,
    TakeTileFn,
    TotalFn,
)
from pickomino_rules.state import Claim, GameState, Marker, PartKey, Phase, PlayerName
from pickomino_rules.turn import return_tile, turn_face_down

__all__ = [
    "BOOLEAN",
    "END_HOOKS",
    "HOOKS",
    "HOOK_ARGUMENTS",
    "MID_TURN_HOOKS",
    "RULES_KEPT",
    "UNDECLARED",
    "UNDECLARED_BOUND",
    "UNDECLARED_SIZE",
    "ActionsFn",
    "ActionsHook",
    "AgainstPlayer",
    "ApplyFn",
    "ApplyHook",
    "BoolRange",
    "Claim",
    "ClaimsFn",
    "ClaimsHook",
    "CompiledTwins",
    "Components",
    "DiceFn",
    "DiceHook",
    "Extension",
    "ExtensionPoint",
    "FaceRange",
    "GameState",
    "IntRange",
    "Marker",
    "Option",
    "OptionRange",
    "PartKey",
    "Phase",
    "PlayerName",
    "RuleModule",
    "Rules",
    "ScoresFn",
    "ScoresHook",
    "SetAsideFn",
    "SetAsideHook",
    "StateFn",
    "StateHook",
    "TakeTileFn",
    "TakeTileHook",
    "TotalFn",
    "TotalHook",
    "TupleRange",
    "Twin",
    "UndeclaredRange",
    "Variant",
    "boolean",
    "compose",
    "return_tile",
    "turn_face_down",
]

_compose = compose_on  # compose on a backend of one's choosing (the mirror tests compare both)
