"""The batch's hook chains: each module's twin folded over the core's, as `compose` folds hooks.

A module's twin must implement exactly the hooks, the part and the extension points the
module does; otherwise the rules are refused with a `BatchRulesError` naming the module.
Rules with a module that brings no twin have no chains: they play per row (``_rowwise``).
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

import attrs

from pickomino_rules.batch._core import CORE_TWINS
from pickomino_rules.batch._rules import BatchRulesError
from pickomino_rules.batch_plugin import BATCH_HOOKS, BatchTwin

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules.plugin import ExtensionPoint, RuleModule
    from pickomino_rules.rules import Rules


_CORE: dict[str, Any] = dict(CORE_TWINS)
"""The innermost twin of each hook: the compiled one where built and chosen, else numpy's."""


def use_compiled(twins: dict[str, Any]) -> None:
    """Put the compiled core twins innermost in the chains composed from now on."""
    _CORE.update(twins)
    twins_of.cache_clear()


@attrs.frozen(eq=False)
class Twins:
    """The composed twins of some rules: one chain per hook, the parts, the extension points.

    Attributes:
        hooks: Each hook's composed twin, by hook name.
        parts: Each module part's twin with its part key, in the rules' part order.
        extensions: Each extension point's composed twin.
        chains: The modules each hook's chain runs through, innermost first (as
            ``Rules.chains``).
    """

    hooks: dict[str, Callable[..., Any]]
    parts: tuple[tuple[Any, Any], ...]
    extensions: dict[ExtensionPoint[Any, Any], Callable[..., Any]]
    chains: dict[str, tuple[str, ...]]

    def __getattr__(self, name: str) -> Callable[..., Any]:
        try:
            return self.hooks[name]
        except KeyError:
            raise AttributeError(name) from None


@lru_cache(maxsize=64)  # per rules: bounded, as rules of many options come and go
def twins_of(rules: Rules, row_only: tuple[str, ...] = ()) -> Twins:
    """The composed twins of ``rules`` (built once per rules).

    The modules named in ``row_only`` bring no batch twin: the compiled loop plays their
    hooks through their row twins (`_compiled.row_only`), and they stand empty here.

    Raises:
        BatchRulesError: A module brings no twin, or one that does not match its hooks.
    """
    twins = [
        (module, BatchTwin() if module.name in row_only else check_twin(module))
        for module in rules.modules
    ]
    hooks: dict[str, Callable[..., Any]] = {}
    chains: dict[str, tuple[str, ...]] = {}
    for hook in BATCH_HOOKS:
        function: Any = _CORE[hook]
        chain = ["turn"]
        for module, twin in twins:
            wrapper = getattr(twin, hook)
            if wrapper is not None:
                function = partial(wrapper, function)
                chain.append(module.name)
        hooks[hook] = function
        chains[hook] = tuple(chain)
    extensions: dict[ExtensionPoint[Any, Any], Callable[..., Any]] = {}
    for _, twin in twins:
        extensions.update(twin.provides)
    for module, twin in twins:
        for extension in module.extends:
            if extension.point in extensions:
                extensions[extension.point] = partial(
                    twin.extends[extension.point], extensions[extension.point]
                )
    parts = tuple((module.part, twin.part) for module, twin in twins if module.part is not None)
    return Twins(hooks, parts, extensions, chains)


def check_twin(module: RuleModule) -> BatchTwin:
    """The module's twin, checked against the module.

    Raises:
        BatchRulesError: The module brings no twin, or one that does not match it.
    """
    if module.batch is None:
        msg = (
            f"rule module {module.name!r} has no batch twin: its rules play per row, not "
            "through twins (see the guide 'Writing your own variant' for how to give it one)"
        )
        raise BatchRulesError(msg)
    twin = module.batch()
    if not isinstance(twin, BatchTwin):
        msg = f"rule module {module.name!r}: its batch twin is {type(twin).__name__}, not BatchTwin"
        raise BatchRulesError(msg)
    problems = [
        f"hook {hook!r} "
        + ("has no twin" if getattr(twin, hook) is None else "is not the module's")
        for hook in BATCH_HOOKS
        if (getattr(module, hook) is None) != (getattr(twin, hook) is None)
    ]
    if (module.part is None) != (twin.part is None):
        problems.append("the part has no twin" if twin.part is None else "a part twin of no part")
    points = set(module.provides)
    if set(twin.provides) != points:
        problems.append("the extension points provided differ from the module's")
    extended = {extension.point for extension in module.extends}
    if set(twin.extends) != extended:
        problems.append("the extension points extended differ from the module's")
    if problems:
        msg = f"rule module {module.name!r}: its batch twin does not match it: " + "; ".join(
            problems
        )
        raise BatchRulesError(msg)
    return twin
