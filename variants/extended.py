"""The extended game (Heckmeck Deluxe, rules E1-E14) and the Extrawurm expansion.

``extended`` is the base game plus tiles 11 and 13, seven grilled-worm tokens and
all six specialists; ``extrawurm`` (the 2015 expansion) is the same without the
apple. Both are compositions of small modules, so other combinations are one
[`compose`][pickomino_rules.plugin.compose] call away.

Options (defaults in brackets), besides the classic O1-O3:

- ``exclusive_low_tiles`` [True] (O4): nobody may hold 11 and 13 at once (E3).
- ``low_tile_worms`` [(1, 1)] (O5): worms on 11 and on 13; one number sets both.
- ``golden_die_faces`` [``"111www"``] (O6): the golden die's six sides (E8).

Examples:
    >>> from pickomino_rules import new_game
    >>> rules, state = new_game("extended", players=3)
    >>> len(rules.tiles), [kind.name for kind in rules.die_kinds]
    (18, ['white', 'golden'])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence

from pickomino_rules.dice import Face
from pickomino_rules.errors import brief
from pickomino_rules.plugin import (
    BOOLEAN,
    FaceRange,
    Option,
    RuleModule,
    TupleRange,
    Variant,
    boolean,
)
from pickomino_rules.variants.classic import CLASSIC_OPTIONS, classic_modules
from pickomino_rules.variants.grilled_worms import grilled_worms
from pickomino_rules.variants.low_tiles import LOW_TILE_WORMS, low_tiles
from pickomino_rules.variants.specialists import (
    apple,
    can,
    crow,
    golden_die,
    hen,
    specialists,
    weasel,
)

__all__ = [
    "EXTENDED",
    "EXTENDED_OPTIONS",
    "EXTRAWURM",
    "extended_modules",
]


def _worms_pair(value: object) -> tuple[int, int]:
    """One number for both, or a pair; the option's range (``LOW_TILE_WORMS``) checks them."""
    if isinstance(value, bool):
        msg = f"expected worms as a number or a pair, got {brief(value)}"
        raise TypeError(msg)
    if isinstance(value, int):
        pair: tuple[object, ...] = (value, value)
    elif isinstance(value, (tuple, list)):
        pair = tuple(value)
    else:
        msg = f"expected worms as a number or a pair, got {brief(value)}"
        raise TypeError(msg)
    if len(pair) != 2 or not all(isinstance(n, int) and not isinstance(n, bool) for n in pair):
        msg = f"expected worms for 11 and 13 as two whole numbers, got {brief(value)}"
        raise ValueError(msg)
    low, high = pair
    assert isinstance(low, int)  # noqa: S101 (checked above)
    assert isinstance(high, int)  # noqa: S101
    LOW_TILE_WORMS.check((low, high))  # before anything is made of them
    return low, high


_SIDES = "the six sides as text, '111www' (1-5, w), or a list, [1, 1, 1, 6, 6, 6] (1-6, 6 for w)"
"""How the golden die's sides are written, for the option's messages: both forms are read."""


def _six_faces(value: object) -> tuple[Face, ...]:
    """The golden die's sides from text (``"111www"``) or a list (``[1, 1, 1, 6, 6, 6]``).

    A list holds the faces' numbers, the worm's being 6: records and positions write the
    option so. (The web API's schema, built from the option's range, says the same.)
    """
    if isinstance(value, str):
        text = True
    elif isinstance(value, Iterable):
        text = False
    else:
        msg = f"expected {_SIDES}; got {brief(value)}"
        raise TypeError(msg)
    sides = list(itertools.islice(value, 7))  # a seventh says too many; never read on
    faces = tuple(_face(side, text=text) for side in sides)
    if len(faces) != 6:
        count = "more than 6" if len(faces) > 6 else str(len(faces))
        msg = f"a die has six sides, got {count}: give {_SIDES}"
        raise ValueError(msg)
    return faces


def _face(side: object, *, text: bool) -> Face:
    """A side: a letter of the text (1-5 or w), or a number of the list (1-6)."""
    if text and isinstance(side, str) and side.lower() in {"1", "2", "3", "4", "5", "w"}:
        return Face.parse(side)
    if not text and isinstance(side, int) and not isinstance(side, bool) and 1 <= side <= 6:
        return Face(side)
    where = "in text" if text else "in a list"
    msg = f"{brief(side)} is not a die face {where}: give {_SIDES}"
    raise ValueError(msg)


EXTENDED_OPTIONS = (
    *CLASSIC_OPTIONS,
    Option(
        name="exclusive_low_tiles",
        default=True,
        doc="nobody may hold 11 and 13 at the same time (E3)",
        rule="O4",
        convert=boolean,
        range=BOOLEAN,
    ),
    Option(
        name="low_tile_worms",
        default=(1, 1),
        doc="worms on tiles 11 and 13 (one number sets both)",
        rule="O5",
        convert=_worms_pair,
        range=LOW_TILE_WORMS,
    ),
    Option(
        name="golden_die_faces",
        default="111www",
        doc="the golden die's six sides, e.g. '111www' or [1, 1, 1, 6, 6, 6] (E8)",
        rule="O6",
        convert=_six_faces,
        range=TupleRange(FaceRange(), 6, 6),
    ),
)
"""Options of the extended variants: the classic O1-O3 plus O4-O6."""


def extended_modules(options: Mapping[str, object], *, with_apple: bool = True) -> list[RuleModule]:
    """The modules of the extended game for ``options`` (resolved, all present).

    Their order does not matter: each module says which ones it must wrap.
    """
    worms = options["low_tile_worms"]
    faces = options["golden_die_faces"]
    assert isinstance(worms, tuple)  # noqa: S101 (converted by the option)
    assert isinstance(faces, tuple)  # noqa: S101
    return [
        *classic_modules(options),
        low_tiles(worms=worms, exclusive=bool(options["exclusive_low_tiles"])),
        grilled_worms(),
        can(),
        hen(),
        crow(),
        weasel(),
        golden_die(faces),
        *([apple()] if with_apple else []),
        specialists(),
    ]


def _extended(options: Mapping[str, object]) -> Sequence[RuleModule]:
    return extended_modules(options)


def _extrawurm(options: Mapping[str, object]) -> Sequence[RuleModule]:
    return extended_modules(options, with_apple=False)


EXTENDED = Variant(name="extended", doc=__doc__ or "", options=EXTENDED_OPTIONS, build=_extended)
"""Heckmeck Deluxe: 18 tiles, grilled worms and all six specialists (E1-E14)."""

EXTRAWURM = Variant(
    name="extrawurm",
    doc="The Extrawurm expansion (2015): the extended game (E1-E14) without the apple (E7).",
    options=EXTENDED_OPTIONS,
    build=_extrawurm,
)
"""The Extrawurm expansion (2015): the extended game without the apple."""
