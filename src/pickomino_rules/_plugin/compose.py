"""`compose`: rule modules ordered and folded over the core turn into composed `Rules`."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from pickomino_rules._engine import ACTIVE, Backend
from pickomino_rules._plugin.checks import check_components, check_modules
from pickomino_rules._plugin.extension import ExtensionPoint
from pickomino_rules._plugin.hooks import HOOKS
from pickomino_rules._plugin.rule_module import RuleModule, Twin
from pickomino_rules.actions import CORE_ACTIONS, Action
from pickomino_rules.errors import CompositionError
from pickomino_rules.rules import Components, Rules
from pickomino_rules.state import Layout, PartKey

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from pickomino_rules.dice import Face

__all__ = ["compose", "compose_on"]


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
    return compose_on(modules, name, options, ACTIVE)


compose.__module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)


def compose_on(
    modules: Sequence[RuleModule],
    name: str,
    options: Mapping[str, object] | None,
    backend: Backend,
) -> Rules:
    """`compose` for ``backend``: its core hooks innermost in each chain, and its twins."""
    check_modules(modules)
    ordered = _ordered(modules)
    components = Components()
    for module in ordered:
        if module.configure is not None:
            components = module.configure(components)
    check_components(components)
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
