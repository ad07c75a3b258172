"""Which rules the batch engine plays, and how (twins, or per row), and its errors."""

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


class BatchRulesError(InvalidSetupError):
    """Rules the batch engine does not play: a module without a batch twin, or odd tiles."""

    __module__ = "pickomino_rules.batch"  # where users import it from (tracebacks, reprs)


class BatchPerRowWarning(RuntimeWarning):
    """A batch plays its rules per row: a module brings no batch twin (warned once per module).

    Every row then plays through the reference engine: right, but many times slower than
    through twins (docs: "The batch engine", Speed); ``pickomino info`` counts the decisions
    played so.
    """

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

    The batch engine plays any composed rules its integer widths hold: where every module
    brings a vectorised twin ([`RuleModule.batch`][pickomino_rules.plugin.RuleModule]), as
    the built-in ``classic``, ``extended`` and ``extrawurm`` do, through the twins; where some
    module brings none, per row through the reference engine (`untwinned` names them).

    Raises:
        BatchRulesError: A twin that does not match its module (named), tiles the batch
            cannot hold (more than 62, or numbers above 127), or counts past its integer
            widths (more than `MOST_DICE` dice, more than `MOST_TILE_WORMS` worms on the tiles).
        UnknownVariantError: No variant has that name.
        InvalidOptionError: A bad option.

    Examples:
        >>> batch_rules("classic", {"short_game": True}).name
        'classic'
        >>> from pickomino_rules.batch_plugin import BatchTwin
        >>> from pickomino_rules.plugin import RuleModule, compose
        >>> from pickomino_rules.variants.classic import classic_components
        >>> untwinned(batch_rules(compose(classic_components(), RuleModule(name="mine"))))
        ('mine',)
        >>> batch_rules(compose(classic_components(), RuleModule(name="odd", batch=lambda: 42)))
        Traceback (most recent call last):
        ...
        pickomino_rules.batch.BatchRulesError: rule module 'odd': its batch twin is int, ...
    """
    from pickomino_rules.batch._compose import check_twin, twins_of  # noqa: PLC0415 (imports us)

    rules = get_variant(variant).rules(options) if isinstance(variant, str) else variant
    modules = getattr(rules, "modules", None)
    if not isinstance(getattr(rules, "name", None), str) or not isinstance(modules, tuple):
        msg = f"rules must be a variant's name or composed Rules, got {type(rules).__name__}"
        raise ArgumentTypeError(msg)
    if len(rules.tiles) > _MOST_TILES or max(rules.tiles) > _HIGHEST_TILE:
        msg = (
            f"the batch engine holds at most {_MOST_TILES} tiles numbered up to "
            f"{_HIGHEST_TILE}; {rules.name!r} has {len(rules.tiles)} up to {max(rules.tiles)}"
        )
        raise BatchRulesError(msg)
    _check_widths(rules)
    if untwinned(rules):  # played per row: the twins there are are still checked
        for module in modules:
            if module.batch is not None:
                check_twin(module)
    else:
        twins_of(rules)  # every module has a twin that matches it
    return rules


def untwinned(rules: Rules) -> tuple[str, ...]:
    """The names of the modules of ``rules`` that bring no batch twin (then it plays per row)."""
    return tuple(module.name for module in rules.modules if module.batch is None)


_MOST_TILES = 62  # the grill is a 64-bit integer
_HIGHEST_TILE = 127  # stacks hold tile numbers as int8
MOST_DICE = 127
"""The most dice a batch game rolls at once, all kinds together: counts are int8."""
MOST_TILE_WORMS = (2**15 - 1) // 2
"""The most worms (in absolute value) a batch game's tiles may carry together.

Scores (``BatchStep.scores``) are int16: half its range is left to the worms a variant's
parts add besides the tiles (the built-ins' grilled worms and apple add at most 10).
"""


def _check_widths(rules: Rules) -> None:
    """Every count and score these rules can make fits the batch's integer widths.

    Checked when a batch is built, so that rules whose options reach past the widths are
    refused by name rather than wrapping round silently mid-game.

    Raises:
        BatchRulesError: Too many dice, or tiles carrying too many worms.
    """
    dice = sum(rules.components.most_dice or rules.components.dice)
    worms = sum(abs(worms) for worms in rules.worms.values())
    if dice > MOST_DICE or worms > MOST_TILE_WORMS:
        msg = (
            f"the batch engine holds at most {MOST_DICE} dice and {MOST_TILE_WORMS:,} worms on "
            f"the tiles; {rules.name!r} has {dice} dice and {worms:,} worms"
        )
        raise BatchRulesError(msg)
