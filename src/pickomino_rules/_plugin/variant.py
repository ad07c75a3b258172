"""`Variant`: a named rule set, its options, and the composed rules it keeps."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from pickomino_rules._plugin.compose import compose
from pickomino_rules.errors import InvalidOptionError, InvalidSetupError, brief

if TYPE_CHECKING:
    from pickomino_rules._plugin.options import Option
    from pickomino_rules._plugin.rule_module import RuleModule
    from pickomino_rules.rules import Rules

__all__ = ["RULES_KEPT", "Variant"]


def _options(value: Iterable[Option]) -> tuple[Option, ...]:
    return tuple(value)


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

    __module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)

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
