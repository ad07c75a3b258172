"""The ranges of values an option accepts: `OptionRange` and the kinds a variant declares."""

from __future__ import annotations

import abc
import math
from collections.abc import Mapping
from typing import Any, NoReturn

import attrs

from pickomino_rules.dice import FACES
from pickomino_rules.errors import InvalidSetupError, brief

__all__ = [
    "BOOLEAN",
    "UNDECLARED",
    "UNDECLARED_BOUND",
    "UNDECLARED_SIZE",
    "BoolRange",
    "FaceRange",
    "IntRange",
    "OptionRange",
    "TupleRange",
    "UndeclaredRange",
]


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

    __module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)

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

    __module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)

    def check(self, value: object) -> None:
        if not isinstance(value, bool):
            self._refuse(value)

    def describe(self) -> str:
        return "true or false"

    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}

    def ends(self) -> tuple[object, ...]:
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

    __module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)

    min: int = attrs.field(validator=_ordered_ends)
    max: int = attrs.field(validator=_ordered_ends)

    def check(self, value: object) -> None:
        if not _whole(value) or not self.min <= value <= self.max:  # type: ignore[operator]
            self._refuse(value)

    def describe(self) -> str:
        return f"a whole number from {self.min} to {self.max}"

    def schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.min, "maximum": self.max}

    def ends(self) -> tuple[object, ...]:
        return (self.min, self.max)


@attrs.frozen
class FaceRange(OptionRange):
    """A die's face: 1 to 5, or the worm (``Face`` members, or the numbers 1 to 6)."""

    __module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)

    def check(self, value: object) -> None:
        if not _whole(value) or not 1 <= value <= len(FACES):  # type: ignore[operator]
            self._refuse(value)

    def describe(self) -> str:
        return "a face: 1 to 5, or w for the worm"

    def schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": 1, "maximum": len(FACES)}

    def ends(self) -> tuple[object, ...]:
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

    __module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)

    item: OptionRange = attrs.field(validator=lambda _i, _a, value: _a_range(value))
    min_length: int = attrs.field(validator=_length)
    max_length: int = attrs.field(validator=_length)
    one_for_all: bool = attrs.field(default=False, kw_only=True)

    def check(self, value: object) -> None:
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

    def describe(self) -> str:
        text = f"{self._count()}, each {self.item.describe()}"
        if self.one_for_all:
            text += " (one value sets both)" if self.max_length == 2 else " (one value sets all)"
        return text

    def schema(self) -> dict[str, Any]:
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

    def ends(self) -> tuple[object, ...]:
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

    __module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)

    def check(self, value: object) -> None:
        if not _bounded(value, depth=0):
            self._refuse(value)

    def describe(self) -> str:
        return (
            f"a value with numbers from -{UNDECLARED_BOUND} to {UNDECLARED_BOUND} and at most "
            f"{UNDECLARED_SIZE} values or characters (the default bound: no range declared)"
        )

    def schema(self) -> dict[str, Any]:
        return {"description": self.describe()}

    def ends(self) -> tuple[object, ...]:
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
