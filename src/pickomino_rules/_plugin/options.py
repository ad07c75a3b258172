"""`Option`: a rule option a variant offers, with the range of values it accepts."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import attrs

from pickomino_rules._plugin.ranges import BOOLEAN, UNDECLARED, OptionRange
from pickomino_rules.errors import InvalidSetupError, brief

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["Option", "boolean"]


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
        >>> from pickomino_rules.plugin import IntRange
        >>> bonus = Option("bonus", 1, "worms per exact take", "H1", range=IntRange(0, 5))
        >>> bonus.range.describe()
        'a whole number from 0 to 5'
    """

    __module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)

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


boolean.__module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)
