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

import abc
import inspect
import math
import threading
import types
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Concatenate, Generic, NoReturn, ParamSpec, TypeVar

import attrs

from pickomino_rules import turn
from pickomino_rules._engine import ACTIVE, Backend
from pickomino_rules.actions import CORE_ACTIONS, Action, AgainstPlayer
from pickomino_rules.dice import FACES, Face
from pickomino_rules.errors import CompositionError, InvalidOptionError, InvalidSetupError, brief
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
from pickomino_rules.state import Claim, GameState, Layout, Marker, PartKey, Phase, PlayerName
from pickomino_rules.turn import return_tile, turn_face_down

if TYPE_CHECKING:
    from pickomino_rules.batch_plugin import BatchTwin

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

P = ParamSpec("P")
R = TypeVar("R")

StateHook = Callable[[StateFn, Rules, GameState], GameState]
"""A module's ``setup``, ``bust`` or ``end_turn`` hook: ``hook(inner, rules, state)``."""
ActionsHook = Callable[[ActionsFn, Rules, GameState], tuple[Action, ...]]
"""A module's ``roll_actions`` or ``pending_actions`` hook."""
DiceHook = Callable[[DiceFn, Rules, GameState], tuple[int, ...]]
"""A module's ``turn_dice`` hook."""
SetAsideHook = Callable[[SetAsideFn, Rules, GameState, "Face"], GameState]
"""A module's ``set_aside`` hook: ``hook(inner, rules, state, face)``."""
TotalHook = Callable[[TotalFn, Rules, GameState], int | None]
"""A module's ``stop_total`` hook."""
ClaimsHook = Callable[[ClaimsFn, Rules, GameState, int], tuple[Claim, ...]]
"""A module's ``claims`` hook: ``hook(inner, rules, state, total)``."""
TakeTileHook = Callable[[TakeTileFn, Rules, GameState, Claim], GameState]
"""A module's ``take_tile`` hook: ``hook(inner, rules, state, claim)``."""
ApplyHook = Callable[[ApplyFn, Rules, GameState, Action], GameState]
"""A module's ``apply_action`` hook: ``hook(inner, rules, state, action)``."""
ScoresHook = Callable[[ScoresFn, Rules, GameState], tuple[int, ...]]
"""A module's ``scores`` hook."""

HOOKS = turn.HOOKS
"""Hook names, in the order the core runs them in a turn (``configure`` runs at composition)."""

HOOK_ARGUMENTS: Mapping[str, tuple[str, ...]] = {
    "configure": ("components",),
    **dict.fromkeys(HOOKS, ("inner", "rules", "state")),
    "set_aside": ("inner", "rules", "state", "face"),
    "claims": ("inner", "rules", "state", "total"),
    "take_tile": ("inner", "rules", "state", "claim"),
    "apply_action": ("inner", "rules", "state", "action"),
}
"""The arguments each hook of a module is called with, in order (`compose` checks them)."""


@attrs.frozen(eq=False, repr=False)
class ExtensionPoint(Generic[P, R]):
    """A typed hook point that one rule module offers to others.

    The providing module lists the point in its ``provides``; other modules wrap it with
    [`wrap`][pickomino_rules.plugin.ExtensionPoint.wrap] in their ``extends``. Points are
    objects, compared by identity: a point can never be misspelt.

    Attributes:
        name: Name shown in messages and by
            [`Rules.describe`][pickomino_rules.rules.Rules.describe].
        default: The behaviour when nobody extends the point.
        doc: What the point decides.

    Examples:
        >>> def nobody(rules, state, taker):
        ...     return ()
        >>> VICTIMS = ExtensionPoint("victims", nobody, "who may be robbed")
        >>> VICTIMS
        <ExtensionPoint 'victims'>
    """

    name: str
    default: Callable[P, R]
    doc: str = ""

    def wrap(
        self, wrapper: Callable[Concatenate[Callable[P, R], P], R], *, optional: bool = False
    ) -> Extension:
        """An extension of this point: ``wrapper(inner, *args)``, ``inner`` the point so far.

        Args:
            wrapper: The new behaviour; it calls ``inner`` to keep the old one.
            optional: Use the wrapper only where a composed module provides the point
                (e.g. the hen guards grilled worms only in games that have them); without
                it, a composition lacking the point is an error.
        """
        return Extension(self, wrapper, optional=optional)

    def __repr__(self) -> str:
        return f"<ExtensionPoint {self.name!r}>"


@attrs.frozen(eq=False)
class Extension:
    """One module's wrapper of an extension point (build it with ``point.wrap(...)``).

    Attributes:
        point: The point wrapped.
        wrapper: ``wrapper(inner, *args)``.
        optional: Whether the composition may lack the point.
    """

    point: ExtensionPoint[Any, Any]
    wrapper: Callable[..., Any]
    optional: bool = False


def _names(value: Sequence[str] | str) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _action_kinds(value: Iterable[type[Action]]) -> tuple[type[Action], ...]:
    return tuple(value)


def _points(value: Iterable[ExtensionPoint[Any, Any]]) -> tuple[ExtensionPoint[Any, Any], ...]:
    return tuple(value)


def _extensions(value: Iterable[Extension]) -> tuple[Extension, ...]:
    return tuple(value)


def _faces(value: Iterable[Face | int] | None) -> frozenset[Face] | None:
    if value is None:
        return None
    given = tuple(value) if isinstance(value, Iterable) and not isinstance(value, str) else value
    if not isinstance(given, tuple) or not all(
        isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= len(FACES)
        for face in given
    ):
        msg = f"set_aside_faces must be faces (1 to 5, or 6 for the worm), got {value!r}"
        raise CompositionError(msg)
    return frozenset(map(Face, given))


def _options(value: Iterable[Option]) -> tuple[Option, ...]:
    return tuple(value)


_callable_or_none = attrs.validators.optional(attrs.validators.is_callable())


@attrs.frozen(kw_only=True, eq=False)
class RuleModule:
    """A named bundle of rule hooks; every hook is optional.

    Attributes:
        name: Short name, unique within a composition.
        doc: One line on what the module changes, with its rule IDs.
        guide: For players: what the module's rules mean at the table, in a few plain
            sentences (``help NAME`` in ``pickomino play`` shows it; so does the docs page
            "Enabling the specialists").
        requires: Names of modules that must be composed too.
        after: Names of modules this one must wrap (be composed after), where present.
        before: Names of modules that must wrap this one, where present.
        configure: Change the components (tiles, dice, players).
        part: Key of the module's own state part, if it keeps any.
        action_types: Action classes the module adds (for parsing).
        provides: Extension points this module defines.
        extends: This module's wrappers of extension points (``point.wrap(...)``).
        setup: Finish the first state (e.g. put the module's part in).
        turn_dice: Dice rolled at a turn's start, per kind.
        roll_actions: Legal actions right after a roll (core: each face that may be taken).
        pending_actions: Actions of a decision the module has made pending; while it
            returns any, they are the only legal ones.
        set_aside: Set aside the dice showing a face (C4).
        stop_total: The total a stop claims with, or None when the stop busts (C7).
        claims: The claims open at a stop with a total (C8).
        take_tile: Give the player the claimed tile (C8, C9).
        bust: A failed attempt (C10).
        end_turn: Runs once when the turn is resolved, before it passes on (C11).
        apply_action: Apply the module's own actions (core: reject as illegal).
        scores: Final worms of each player (C13).
        ends_on_total: The module's promise that, when a turn ends, only the total
            says what the dice were: its ``stop_total`` reads no more of them than the
            points set aside and whether a worm is among them, and its ``claims``,
            ``take_tile``, ``bust``, ``end_turn`` and ``pending_actions`` hooks and its
            extension-point wrappers read none of them (claims get the total). The turn
            solver then applies one stop per total instead of one per set of dice, which
            is many times faster. False, the default, promises nothing: the solver stays
            exact the slower way.
        mid_turn_by_count: The module's promise about the dice part of a turn: setting
            dice aside changes the rest of the state (tiles, stacks, parts) only as that
            rest, the face and the number of dice showing it say (perhaps through a
            decision it makes pending, which is the player's own); after a roll it offers
            nothing but the takes, re-rolling the whole roll (an action whose class says
            ``rerolls``) at most once a turn, and, on a roll that busts, accepting the bust.
            The turn solver needs it of every module with a hook that runs while dice are
            rolled (see ``acts_mid_turn``) to value a turn exactly; without it the solver
            refuses the rules with a clear error rather than approximate them.
        pending_by_parts: The module's promise that its ``pending_actions`` hook reads
            nothing of the state but its variant parts (``GameState.parts``): not the
            tiles, the stacks, the dice, the phase or the player. The engine then asks the
            chain again only when the parts change, rather than at every decision. The
            conformance kit checks it (``check_pending_by_parts``).
        set_aside_faces: The module's promise that its ``set_aside`` hook acts only when
            one of these faces is set aside (``Face`` members or the numbers 1 to 6): for
            any other face it answers exactly what its inner hook answers. None, the
            default, promises nothing. When every module with a ``set_aside`` hook makes
            the promise (and every ``pending_actions`` hook promises ``pending_by_parts``),
            the turn solver asks the rules what a set-aside does only for the faces
            promised (``Rules.set_aside_faces``). The conformance kit checks it
            (``check_set_aside_faces``).
        batch: Builds the module's vectorised twin for the batch engine
            ([`BatchTwin`][pickomino_rules.batch_plugin.BatchTwin]), called when a batch
            of these rules is first made (numpy is imported then, not before). None: the
            batch engine refuses rules with this module, naming it.
        compiled: Builds the module's compiled twins
            ([`compiled_plugin`][pickomino_rules.compiled_plugin]): for some of its hooks
            (by name), extensions (by point, for a point it provides or extends) and its
            part's ``observe`` (by its ``PartKey``), a function that makes the twin from the
            function it wraps. Called when rules with
            the module are composed under the compiled engine; the twin then stands in the
            chain where the hook would. None, or ImportError raised (the twins' extension
            was not built): the module's Python hooks run, as under the pure engine.
    """

    name: str = attrs.field(validator=attrs.validators.instance_of(str))
    doc: str = ""
    guide: str = attrs.field(default="", kw_only=True)
    requires: tuple[str, ...] = attrs.field(default=(), converter=_names)
    after: tuple[str, ...] = attrs.field(default=(), converter=_names)
    before: tuple[str, ...] = attrs.field(default=(), converter=_names)
    configure: Callable[[Components], Components] | None = attrs.field(
        default=None, validator=_callable_or_none
    )
    part: PartKey[Any] | None = None
    action_types: tuple[type[Action], ...] = attrs.field(default=(), converter=_action_kinds)
    provides: tuple[ExtensionPoint[Any, Any], ...] = attrs.field(default=(), converter=_points)
    extends: tuple[Extension, ...] = attrs.field(default=(), converter=_extensions)
    setup: StateHook | None = attrs.field(default=None, validator=_callable_or_none)
    turn_dice: DiceHook | None = attrs.field(default=None, validator=_callable_or_none)
    roll_actions: ActionsHook | None = attrs.field(default=None, validator=_callable_or_none)
    pending_actions: ActionsHook | None = attrs.field(default=None, validator=_callable_or_none)
    set_aside: SetAsideHook | None = attrs.field(default=None, validator=_callable_or_none)
    stop_total: TotalHook | None = attrs.field(default=None, validator=_callable_or_none)
    claims: ClaimsHook | None = attrs.field(default=None, validator=_callable_or_none)
    take_tile: TakeTileHook | None = attrs.field(default=None, validator=_callable_or_none)
    bust: StateHook | None = attrs.field(default=None, validator=_callable_or_none)
    end_turn: StateHook | None = attrs.field(default=None, validator=_callable_or_none)
    apply_action: ApplyHook | None = attrs.field(default=None, validator=_callable_or_none)
    scores: ScoresHook | None = attrs.field(default=None, validator=_callable_or_none)
    ends_on_total: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))
    mid_turn_by_count: bool = attrs.field(
        default=False, validator=attrs.validators.instance_of(bool)
    )
    pending_by_parts: bool = attrs.field(
        default=False, validator=attrs.validators.instance_of(bool)
    )
    set_aside_faces: frozenset[Face] | None = attrs.field(default=None, converter=_faces)
    batch: Callable[[], BatchTwin] | None = attrs.field(default=None, validator=_callable_or_none)
    compiled: Callable[[], CompiledTwins] | None = attrs.field(
        default=None, validator=_callable_or_none
    )

    @property
    def ends_turns(self) -> bool:
        """Whether any of the module's hooks runs when a turn ends (see ``ends_on_total``)."""
        return bool(self.extends) or any(getattr(self, hook) is not None for hook in END_HOOKS)

    @property
    def acts_mid_turn(self) -> bool:
        """Whether any of the module's hooks may run while dice are rolled and set aside."""
        return bool(self.extends) or any(getattr(self, hook) is not None for hook in MID_TURN_HOOKS)


END_HOOKS = ("stop_total", "claims", "take_tile", "bust", "end_turn", "pending_actions")
"""The hooks that run when a turn ends (a stop or a bust)."""

MID_TURN_HOOKS = ("roll_actions", "pending_actions", "set_aside", "apply_action")
"""The hooks that may run while dice are rolled and set aside (see ``mid_turn_by_count``)."""


def compose(
    *modules: RuleModule, name: str = "custom", options: Mapping[str, object] | None = None
) -> Rules:
    """Check rule modules and fold them over the core turn into composed rules.

    Modules wrap each other in the order given, adjusted to their ``after``/``before``
    constraints: a later module's hook wraps the earlier ones'.

    Args:
        *modules: The modules; the first usually sets the components.
        name: Name shown for the composed rules.
        options: Option values to record on the rules (informational).

    Raises:
        CompositionError: A hook whose signature does not fit it (see `HOOK_ARGUMENTS`),
            duplicate module names, a required module missing, order
            constraints that contradict each other, an extension point no composed module
            provides, two providers of one point, two parts or two action keywords with
            one name; the message names the modules.
        InvalidSetupError: The components are unusable.

    Examples:
        >>> from pickomino_rules.variants.classic import classic_components
        >>> compose(classic_components(), name="mine")
        <Rules 'mine'>
        >>> compose(classic_components(), RuleModule(name="x", requires="specialists"))
        Traceback (most recent call last):
        ...
        pickomino_rules.errors.CompositionError: rule module 'x' requires 'specialists', ...
    """
    return _compose(modules, name, options, ACTIVE)


def _compose(
    modules: Sequence[RuleModule],
    name: str,
    options: Mapping[str, object] | None,
    backend: Backend,
) -> Rules:
    """`compose` for ``backend``: its core hooks innermost in each chain, and its twins."""
    _check_modules(modules)
    ordered = _ordered(modules)
    components = Components()
    for module in ordered:
        if module.configure is not None:
            components = module.configure(components)
    _check_components(components)
    parts = _parts(ordered)
    twins = _compiled_twins(ordered) if backend.compiled else {}
    hooks, chains = _compose_hooks(ordered, backend.core_hooks, twins)
    return Rules(
        name=name,
        options=dict(options or {}),
        modules=ordered,
        components=components,
        layout=Layout(components.tiles, components.die_kinds, parts).interned(),
        part_index={part.name: index for index, part in enumerate(parts)},
        action_types=_action_types(ordered),
        extensions=_compose_extensions(ordered, twins),
        chains=chains,
        observers={
            key.name: make(key.observe)
            for (_, key), make in twins.items()
            if isinstance(key, PartKey) and key.observe is not None
        },
        **hooks,
        ends_on_total=all(module.ends_on_total for module in ordered if module.ends_turns),
        mid_turn_by_count=all(
            module.mid_turn_by_count for module in ordered if module.acts_mid_turn
        ),
        pending_by_parts=all(
            module.pending_by_parts for module in ordered if module.pending_actions is not None
        ),
        set_aside_faces=_set_aside_faces(ordered),
    )


def _set_aside_faces(modules: Sequence[RuleModule]) -> frozenset[Face] | None:
    """The faces some module's set-aside acts on, when every module with the hook says.

    A decision made pending that reads only the parts cannot follow a set-aside that left
    them as they were; any other ``pending_actions`` hook might, so it leaves this unknown.
    """
    faces: set[Face] = set()
    for module in modules:
        if module.pending_actions is not None and not module.pending_by_parts:
            return None
        if module.set_aside is not None:
            if module.set_aside_faces is None:
                return None
            faces |= module.set_aside_faces
    return frozenset(faces)


def _check_modules(modules: Sequence[RuleModule]) -> None:
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


def _ordered(modules: Sequence[RuleModule]) -> tuple[RuleModule, ...]:
    """The modules in the given order, moved as little as needed to meet after/before."""
    present = {module.name for module in modules}
    inner: dict[str, set[str]] = {module.name: set() for module in modules}
    for module in modules:
        inner[module.name].update(other for other in module.after if other in present)
        for other in module.before:
            if other in present:
                inner[other].add(module.name)
    placed: list[RuleModule] = []
    done: set[str] = set()
    while len(placed) < len(modules):
        ready = next((m for m in modules if m.name not in done and inner[m.name] <= done), None)
        if ready is None:
            stuck = [m.name for m in modules if m.name not in done]
            edges = "; ".join(
                f"{name} after {', '.join(sorted(inner[name] - done))}" for name in stuck
            )
            msg = f"rule modules' order constraints contradict each other: {edges}"
            raise CompositionError(msg)
        placed.append(ready)
        done.add(ready.name)
    return tuple(placed)


def _check_components(components: Components) -> None:
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


def _parts(modules: Sequence[RuleModule]) -> tuple[PartKey[Any], ...]:
    parts = [module.part for module in modules if module.part is not None]
    names = [part.name for part in parts]
    doubled = sorted({name for name in names if names.count(name) > 1})
    if doubled:
        owners = [m.name for m in modules if m.part is not None and m.part.name in doubled]
        msg = f"modules {', '.join(map(repr, owners))} share the part name {doubled[0]!r}"
        raise CompositionError(msg)
    return tuple(parts)


def _action_types(modules: Sequence[RuleModule]) -> tuple[type[Action], ...]:
    kinds = list(CORE_ACTIONS)
    owner = dict.fromkeys((kind.keyword for kind in CORE_ACTIONS), "the core")
    for module in modules:
        for kind in module.action_types:
            if kind in kinds:
                continue
            if kind.keyword in owner:
                msg = (
                    f"action keyword {kind.keyword!r} of module {module.name!r} is already "
                    f"used by {owner[kind.keyword]}"
                )
                raise CompositionError(msg)
            owner[kind.keyword] = repr(module.name)
            kinds.append(kind)
    return tuple(kinds)


Twin = Callable[[Callable[..., Any]], Callable[..., Any]]
"""Makes a compiled twin of a hook or extension from the function it wraps."""

CompiledTwins = Mapping["str | ExtensionPoint[Any, Any] | PartKey[Any]", Twin]
"""What ``RuleModule.compiled`` builds: twin makers by hook name, extension point or part."""

_Twins = dict[tuple[str, "str | ExtensionPoint[Any, Any] | PartKey[Any]"], Twin]


def _compiled_twins(modules: Sequence[RuleModule]) -> _Twins:
    """Each module's compiled twins by (module name, hook name or point), checked."""
    found: _Twins = {}
    for module in modules:
        if module.compiled is None:
            continue
        try:
            twins = module.compiled()
        except ImportError:  # the twins' extension was not built: the Python hooks run
            continue
        extended = {extension.point for extension in module.extends}
        for key, make in twins.items():
            if isinstance(key, ExtensionPoint):
                fits = key in extended or key in module.provides
            elif isinstance(key, PartKey):  # a twin of the part's observe
                fits = key is module.part and key.observe is not None
            else:
                fits = key in HOOKS and getattr(module, key) is not None
            if not fits or not callable(make):
                what = key if isinstance(key, str) else key.name
                msg = f"rule module {module.name!r} has a compiled twin of {what!r}, which it lacks"
                raise CompositionError(msg)
            found[module.name, key] = make
    return found


def _compose_hooks(
    modules: Sequence[RuleModule], core: Mapping[str, Callable[..., Any]], twins: _Twins
) -> tuple[dict[str, Any], dict[str, tuple[str, ...]]]:
    """Each core hook wrapped by the modules' hooks (or twins), innermost first; the chains."""
    hooks: dict[str, Any] = {}
    chains: dict[str, tuple[str, ...]] = {}
    for hook in HOOKS:
        function: Any = core[hook]
        chain = ["turn"]
        for module in modules:
            wrapper = getattr(module, hook)
            if wrapper is not None:
                twin = twins.get((module.name, hook))
                function = partial(wrapper, function) if twin is None else twin(function)
                chain.append(module.name)
        hooks[hook] = function
        chains[hook] = tuple(chain)
    if all(module.pending_actions is None for module in modules):
        hooks["pending_actions"] = None  # lets the hot path skip the call
    return hooks, chains


def _compose_extensions(
    modules: Sequence[RuleModule], twins: _Twins
) -> dict[ExtensionPoint[Any, Any], Callable[..., Any]]:
    """The modules' own extension points (or twins), each wrapped by the modules extending it."""
    extensions: dict[ExtensionPoint[Any, Any], Callable[..., Any]] = {}
    provider: dict[ExtensionPoint[Any, Any], str] = {}
    for module in modules:
        for point in module.provides:
            if point in provider:
                msg = (
                    f"modules {provider[point]!r} and {module.name!r} both provide the "
                    f"extension point {point.name!r}"
                )
                raise CompositionError(msg)
            provider[point] = module.name
            twin = twins.get((module.name, point))
            extensions[point] = point.default if twin is None else twin(point.default)
    for module in modules:
        for extension in module.extends:
            point = extension.point
            if point in extensions:
                twin = twins.get((module.name, point))
                inner = extensions[point]
                extensions[point] = (
                    partial(extension.wrapper, inner) if twin is None else twin(inner)
                )
            elif not extension.optional:
                msg = (
                    f"rule module {module.name!r} extends {point.name!r}, which no composed "
                    "module provides"
                )
                raise CompositionError(msg)
    return extensions


class OptionRange(abc.ABC):
    """The values an option accepts, declared with the option (``Option.range``).

    [`Variant.resolve_options`][pickomino_rules.plugin.Variant.resolve_options] checks every
    value against its option's range after converting it, so a value outside it never reaches
    a rule module: it is refused with
    [`InvalidOptionError`][pickomino_rules.errors.InvalidOptionError], whose message names the
    range. The range is also what `pickomino variants`, the docs and the web API's OpenAPI
    document show. Declare one of the kinds here (`BOOLEAN`, `IntRange`, `FaceRange`,
    `TupleRange`), or subclass this for a kind of your own.

    Choose a range that real house rules fit in and that keeps everything the value makes
    bounded: the worms drawn, counts held in arrays, totals and scores.
    """

    @abc.abstractmethod
    def check(self, value: object) -> None:
        """Accept ``value`` (a converted option value) or raise ``ValueError`` naming the range."""

    @abc.abstractmethod
    def describe(self) -> str:
        """The range in words, e.g. ``"a whole number from 0 to 9"``."""

    @abc.abstractmethod
    def schema(self) -> dict[str, Any]:
        """A JSON schema of the values as JSON gives them (the web API's OpenAPI document)."""

    @abc.abstractmethod
    def ends(self) -> tuple[object, ...]:
        """The lowest and highest values (converted), for tests to play; ``()`` if unknown."""

    def _refuse(self, value: object) -> NoReturn:
        msg = f"expected {self.describe()}, got {brief(value)}"
        raise ValueError(msg)


@attrs.frozen
class BoolRange(OptionRange):
    """``True`` or ``False`` (use the constant `BOOLEAN`)."""

    def check(self, value: object) -> None:  # noqa: D102 (the base class says it)
        if not isinstance(value, bool):
            self._refuse(value)

    def describe(self) -> str:  # noqa: D102
        return "true or false"

    def schema(self) -> dict[str, Any]:  # noqa: D102
        return {"type": "boolean"}

    def ends(self) -> tuple[object, ...]:  # noqa: D102
        return (False, True)


BOOLEAN = BoolRange()
"""The range of a yes-or-no option."""


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ordered_ends(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    low = getattr(instance, "min", None) if attribute.name == "max" else None
    if not _whole(value) or (low is not None and value < low):
        msg = f"a range's {attribute.name} is a whole number, at least its min: got {brief(value)}"
        raise InvalidSetupError(msg)


@attrs.frozen
class IntRange(OptionRange):
    """Whole numbers from ``min`` to ``max``, both included.

    Examples:
        >>> IntRange(0, 9).describe()
        'a whole number from 0 to 9'
        >>> IntRange(0, 9).check(10)
        Traceback (most recent call last):
        ...
        ValueError: expected a whole number from 0 to 9, got 10
    """

    min: int = attrs.field(validator=_ordered_ends)
    max: int = attrs.field(validator=_ordered_ends)

    def check(self, value: object) -> None:  # noqa: D102
        if not _whole(value) or not self.min <= value <= self.max:  # type: ignore[operator]
            self._refuse(value)

    def describe(self) -> str:  # noqa: D102
        return f"a whole number from {self.min} to {self.max}"

    def schema(self) -> dict[str, Any]:  # noqa: D102
        return {"type": "integer", "minimum": self.min, "maximum": self.max}

    def ends(self) -> tuple[object, ...]:  # noqa: D102
        return (self.min, self.max)


@attrs.frozen
class FaceRange(OptionRange):
    """A die's face: 1 to 5, or the worm (``Face`` members, or the numbers 1 to 6)."""

    def check(self, value: object) -> None:  # noqa: D102
        if not _whole(value) or not 1 <= value <= len(FACES):  # type: ignore[operator]
            self._refuse(value)

    def describe(self) -> str:  # noqa: D102
        return "a face: 1 to 5, or w for the worm"

    def schema(self) -> dict[str, Any]:  # noqa: D102
        return {"type": "integer", "minimum": 1, "maximum": len(FACES)}

    def ends(self) -> tuple[object, ...]:  # noqa: D102
        return (FACES[0], FACES[-1])


def _a_range(value: object) -> None:
    if not isinstance(value, OptionRange):
        msg = f"a range's item is an OptionRange, got {brief(value)}"
        raise InvalidSetupError(msg)


def _length(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not _whole(value) or value < 0:
        msg = f"a range's {attribute.name} is a whole number, at least 0: got {brief(value)}"
        raise InvalidSetupError(msg)
    if attribute.name == "max_length" and value < getattr(instance, "min_length", 0):
        msg = f"a range's max_length {value} is below its min_length"
        raise InvalidSetupError(msg)


@attrs.frozen
class TupleRange(OptionRange):
    """A tuple of ``min_length`` to ``max_length`` values, each in the range ``item``.

    Attributes:
        item: Each value's range.
        min_length: The fewest values.
        max_length: The most values.
        one_for_all: The option's converter also takes one value for all of them (the
            schema says so; the converted value is still the tuple).

    Examples:
        >>> pair = TupleRange(IntRange(0, 9), 2, 2, one_for_all=True)
        >>> pair.describe()
        '2 values, each a whole number from 0 to 9 (one value sets both)'
        >>> pair.ends()
        ((0, 0), (9, 9))
    """

    item: OptionRange = attrs.field(validator=lambda _i, _a, value: _a_range(value))
    min_length: int = attrs.field(validator=_length)
    max_length: int = attrs.field(validator=_length)
    one_for_all: bool = attrs.field(default=False, kw_only=True)

    def check(self, value: object) -> None:  # noqa: D102
        if not isinstance(value, tuple | list) or not (
            self.min_length <= len(value) <= self.max_length
        ):
            self._refuse(value)
        for item in value:
            try:
                self.item.check(item)
            except ValueError:
                msg = f"expected {self.describe()}; {brief(item)} is outside"
                raise ValueError(msg) from None

    def _count(self) -> str:
        if self.min_length == self.max_length:
            return f"{self.min_length} values"
        return f"{self.min_length} to {self.max_length} values"

    def describe(self) -> str:  # noqa: D102
        text = f"{self._count()}, each {self.item.describe()}"
        if self.one_for_all:
            text += " (one value sets both)" if self.max_length == 2 else " (one value sets all)"
        return text

    def schema(self) -> dict[str, Any]:  # noqa: D102
        array = {
            "type": "array",
            "items": self.item.schema(),
            "minItems": self.min_length,
            "maxItems": self.max_length,
        }
        forms = [array]
        if self.one_for_all:
            forms.insert(0, self.item.schema())
        if isinstance(self.item, FaceRange):  # faces also as text: '111www'
            span = (
                f"{{{self.min_length}}}"
                if self.min_length == self.max_length
                else f"{{{self.min_length},{self.max_length}}}"
            )
            forms.insert(0, {"type": "string", "pattern": f"^[1-5wW]{span}$"})
        return forms[0] if len(forms) == 1 else {"anyOf": forms}

    def ends(self) -> tuple[object, ...]:  # noqa: D102
        ends = self.item.ends()
        if not ends:
            return ()
        return ((ends[0],) * self.min_length, (ends[-1],) * self.max_length)


UNDECLARED_BOUND = 1000
"""The default bound of an option that declares no range: numbers within ±1000."""

UNDECLARED_SIZE = 100
"""The default bound of an option that declares no range: at most 100 values or characters."""


@attrs.frozen
class UndeclaredRange(OptionRange):
    """The default bound of an option declared without a range (deprecated).

    An option's converted value is accepted when every number in it is within
    ±`UNDECLARED_BOUND` and every text or collection in it (tuples, lists, sets, mappings,
    nested) has at most `UNDECLARED_SIZE` characters or values; other objects are accepted
    as they are. Declare a range of the option's own instead: only it knows what is safe.
    """

    def check(self, value: object) -> None:  # noqa: D102
        if not _bounded(value, depth=0):
            self._refuse(value)

    def describe(self) -> str:  # noqa: D102
        return (
            f"a value with numbers from -{UNDECLARED_BOUND} to {UNDECLARED_BOUND} and at most "
            f"{UNDECLARED_SIZE} values or characters (the default bound: no range declared)"
        )

    def schema(self) -> dict[str, Any]:  # noqa: D102
        return {"description": self.describe()}

    def ends(self) -> tuple[object, ...]:  # noqa: D102
        return ()


UNDECLARED = UndeclaredRange()
"""The range an option declared without one gets (see `UndeclaredRange`)."""


def _bounded(value: object, depth: int) -> bool:
    """Whether ``value`` keeps within the default bound (`UndeclaredRange`)."""
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, int | float):
        return math.isfinite(value) and abs(value) <= UNDECLARED_BOUND
    if isinstance(value, str | bytes):
        return len(value) <= UNDECLARED_SIZE
    if isinstance(value, Mapping):
        items: list[object] = [*value.keys(), *value.values()]
    elif isinstance(value, tuple | list | set | frozenset):
        items = list(value)
    else:
        return True  # an object of the option's own: its converter vouches for it
    return (
        depth < 8  # nested no deeper than any option's value needs
        and len(value) <= UNDECLARED_SIZE
        and all(_bounded(item, depth + 1) for item in items)
    )


@attrs.frozen
class Option:
    """A rule option a variant offers, with the range of values it accepts.

    Attributes:
        name: Keyword used in ``options={...}``.
        default: Value when the user gives none.
        doc: What the option changes.
        rule: The rule ID, e.g. ``"O1"``.
        convert: Checks a user's value and returns it normalised; raises
            ``ValueError`` or ``TypeError`` for a bad value. None: the value is taken as
            given, and only its range checks it.
        range: The values the option accepts (converted), an
            [`OptionRange`][pickomino_rules.plugin.OptionRange]: `BOOLEAN`,
            `IntRange(min, max)`, `FaceRange()`, `TupleRange(item, min_length, max_length)`
            or a kind of your own. Omitted: an option converted by `boolean` gets
            `BOOLEAN`; any other gets the default bound `UNDECLARED` (numbers within ±1000,
            at most 100 values) and a ``DeprecationWarning``, since only the option knows
            which values keep its game bounded.

    Raises:
        InvalidSetupError: Neither ``convert`` nor ``range`` given, or a range that is no
            `OptionRange`.

    Examples:
        >>> bonus = Option("bonus", 1, "worms per exact take", "H1", range=IntRange(0, 5))
        >>> bonus.range.describe()
        'a whole number from 0 to 5'
    """

    name: str
    default: object
    doc: str
    rule: str
    convert: Callable[[object], object] | None = None
    range: OptionRange | None = attrs.field(default=None, kw_only=True)

    def __attrs_post_init__(self) -> None:
        if self.range is not None and not isinstance(self.range, OptionRange):
            msg = f"option {self.name!r}: its range is an OptionRange, got {brief(self.range)}"
            raise InvalidSetupError(msg)
        if self.range is None:
            if self.convert is None:
                msg = f"option {self.name!r} needs a range (or at least a converter)"
                raise InvalidSetupError(msg)
            if self.convert is boolean:
                declared: OptionRange = BOOLEAN
            else:
                warnings.warn(
                    f"an Option without a range ({self.name!r}) is deprecated: use "
                    "Option(..., range=IntRange(min, max)) or another OptionRange; until then "
                    "its values get the default bound UNDECLARED (numbers within ±1000)",
                    DeprecationWarning,
                    stacklevel=3,
                )
                declared = UNDECLARED
            object.__setattr__(self, "range", declared)  # frozen: set once, here

    def value(self, given: object) -> object:
        """``given`` converted and checked against the range.

        Raises:
            ValueError: A value the converter refuses, or outside the range (named).
            TypeError: A value of a type the converter refuses.
        """
        value = given if self.convert is None else self.convert(given)
        assert self.range is not None  # noqa: S101 (set at construction)
        self.range.check(value)
        return value


def boolean(value: object) -> bool:
    """Option converter accepting only ``True`` or ``False``.

    Raises:
        TypeError: Any other value.
    """
    if not isinstance(value, bool):
        msg = f"expected True or False, got {brief(value)}"
        raise TypeError(msg)
    return value


RULES_KEPT = 16
"""The option sets whose composed rules a variant keeps (the most recently asked for)."""

_KEEPING = threading.Lock()  # the kept rules are read and changed by one thread at a time


@attrs.frozen(eq=False)
class Variant:
    """A named rule set: its options and how to build its modules from them.

    Register a variant through the entry-point group ``pickomino_rules.variants``
    (the entry point names a ``Variant`` object) or with
    [`register_variant`][pickomino_rules.registry.register_variant].

    Attributes:
        name: Name users pass to [`new_game`][pickomino_rules.game.new_game].
        doc: A paragraph on the variant, with its rule IDs and sources.
        options: The options it offers, with defaults.
        build: Picks the modules for a full set of option values.
    """

    name: str
    doc: str
    options: tuple[Option, ...] = attrs.field(converter=_options)
    build: Callable[[Mapping[str, object]], Sequence[RuleModule]]
    _cache: dict[tuple[tuple[str, object], ...], Rules] = attrs.field(
        factory=dict, init=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        for option in self.options:  # a default outside its own range is a declaration's slip
            try:
                option.value(option.default)
            except (TypeError, ValueError) as error:
                msg = f"variant {self.name!r}: option {option.name!r} refuses its default: {error}"
                raise InvalidSetupError(msg) from None

    def resolve_options(self, options: Mapping[str, object] | None = None) -> dict[str, object]:
        """Every option's value: the user's where given, else the default.

        Raises:
            InvalidOptionError: An unknown option, or a bad value.
        """
        if options is not None and not isinstance(options, Mapping):
            msg = f"options are a mapping of names to values, got {brief(options)}"
            raise InvalidOptionError(msg)
        known = {option.name: option for option in self.options}
        given = dict(options or {})
        unknown = sorted(set(given) - set(known), key=str)
        if unknown:
            listing = ", ".join(known) or "none"
            msg = f"variant {self.name!r} has no option {brief(unknown[0])} (options: {listing})"
            raise InvalidOptionError(msg)
        resolved = {}
        for option in self.options:
            value = given.get(option.name, option.default)
            try:
                resolved[option.name] = option.value(value)
            except (TypeError, ValueError) as error:
                why = str(error) if len(str(error)) <= 240 else str(error)[:239] + "…"
                msg = f"option {option.name!r} ({option.rule}) of {self.name!r}: {why}"
                raise InvalidOptionError(msg) from None
        return resolved

    def rules(self, options: Mapping[str, object] | None = None) -> Rules:
        """The composed rules for ``options``, the same object for the same option values.

        The rules of the last `RULES_KEPT` option sets are kept: a process that asks for
        more (a server asked by its clients for every option set) composes the rest again,
        which gives equal rules of the same layout (their states fit either).

        Raises:
            InvalidOptionError: An unknown option, or a bad value.
            CompositionError: The variant's modules do not compose.
        """
        resolved = self.resolve_options(options)
        key = tuple(sorted(resolved.items()))
        with _KEEPING:
            rules = self._cache.pop(key, None)
            if rules is not None:
                self._cache[key] = rules  # the most recent last
                return rules
        made = compose(*self.build(resolved), name=self.name, options=resolved)
        with _KEEPING:
            rules = self._cache.setdefault(key, made)  # composed at once elsewhere: one kept
            while len(self._cache) > RULES_KEPT:
                del self._cache[next(iter(self._cache))]
        return rules
