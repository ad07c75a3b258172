"""Which rules the batch engine plays (classic and its options O1-O3), and its errors."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules.errors import (
    ArgumentTypeError,
    InvalidSetupError,
    PickominoError,
)
from pickomino_rules.registry import get_variant

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pickomino_rules.rules import Rules


_CLASSIC_MODULES = frozenset({"classic", "flip_on_empty_bust", "short_game", "optional_steal_off"})


class BatchRulesError(InvalidSetupError):
    """Rules the batch engine does not play: it covers ``classic`` and its options O1-O3."""

    __module__ = "pickomino_rules.batch"  # where users import it from (tracebacks, reprs)


class BatchArgumentError(PickominoError, IndexError, ValueError):
    """A row, a seat or a mask the batch does not have (also an ``IndexError``, as before)."""

    __module__ = "pickomino_rules.batch"


class BatchActionError(PickominoError, ValueError):
    """Actions the batch cannot play: wrong shape or type, out of range, or illegal.

    Nothing was changed. ``rows`` lists the games at fault (empty when the whole array is).

    Attributes:
        rows: Indices of the games whose action is out of range or illegal.
    """

    __module__ = "pickomino_rules.batch"  # where users import it from (tracebacks, reprs)

    def __init__(self, message: str, rows: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.rows = rows


def batch_rules(
    variant: str | Rules = "classic", options: Mapping[str, object] | None = None
) -> Rules:
    """The composed rules of ``variant`` if the batch engine plays them.

    The batch engine is a second implementation of the classic rules: it accepts the
    registered ``classic`` variant with any options (O1-O3), given by name or as rules.

    Raises:
        BatchRulesError: Any other rules (a variant with parts, other tiles or dice, or
            modules of its own).
        UnknownVariantError: No variant has that name.
        InvalidOptionError: A bad option.

    Examples:
        >>> batch_rules("classic", {"short_game": True}).name
        'classic'
        >>> batch_rules("extended")
        Traceback (most recent call last):
        ...
        pickomino_rules.batch.BatchRulesError: the batch engine plays classic (options O1-O3), ...
    """
    rules = get_variant(variant).rules(options) if isinstance(variant, str) else variant
    name = getattr(rules, "name", None)
    if not isinstance(name, str):
        msg = f"rules must be a variant's name or composed Rules, got {type(rules).__name__}"
        raise ArgumentTypeError(msg)
    if name == "classic":
        try:
            registered = get_variant("classic").rules(rules.options)
        except PickominoError:
            registered = None
        if registered is rules and {m.name for m in rules.modules} <= _CLASSIC_MODULES:
            return rules
    msg = f"the batch engine plays classic (options O1-O3), not {name!r}"
    raise BatchRulesError(msg)
