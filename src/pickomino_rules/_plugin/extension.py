"""Extension points: a typed hook point one rule module offers, and others' wrappers of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar

import attrs

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["Extension", "ExtensionPoint"]

P = ParamSpec("P")
R = TypeVar("R")


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

    __module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)

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

    __module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)

    point: ExtensionPoint[Any, Any]
    wrapper: Callable[..., Any]
    optional: bool = False
