"""Dice, rolls and the exact chance model.

A roll is a multiset of faces for each kind of die in play. For every pool of dice
(how many dice of each kind are rolled) the distinct rolls and their exact
probabilities are enumerated once and cached; sampling then costs one
``rng.random()`` and one ``bisect``.

Examples:
    >>> from pickomino_rules.dice import WHITE, chance_table
    >>> table = chance_table((WHITE,), (8,))
    >>> len(table.outcomes)
    1287
    >>> sum(table.probabilities)
    Fraction(1, 1)
"""

from __future__ import annotations

import enum
import itertools
import math
import operator
import warnings
from bisect import bisect_right
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING

import attrs

from pickomino_rules.errors import ArgumentTypeError, InvalidRollError, excerpt

if TYPE_CHECKING:
    import random
    from collections.abc import Iterable, Iterator, Mapping, Sequence

__all__ = [
    "NO_DICE_SET_ASIDE",
    "WHITE",
    "ChanceTable",
    "DieKind",
    "Face",
    "RollOutcome",
    "chance_table",
    "roll_counts",
]


class Face(enum.IntEnum):
    """A face of a die: the numbers 1 to 5 and the worm (C1).

    Examples:
        >>> Face.WORM.points, Face.THREE.points
        (5, 3)
        >>> Face.parse("w"), Face.parse("4")
        (<Face.WORM: 6>, <Face.FOUR: 4>)
    """

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    WORM = 6

    @property
    def points(self) -> int:
        """Points the face counts: its number, or 5 for the worm (C1)."""
        return 5 if self is _WORM else int(self)

    @property
    def symbol(self) -> str:
        """One-character text form: ``1``-``5`` or ``w`` for the worm."""
        return "w" if self is _WORM else str(int(self))

    @classmethod
    def parse(cls, text: str) -> Face:
        """Parse a face from ``1``-``5``, ``w``/``W`` or ``worm``.

        Raises:
            InvalidRollError: The text names no face (a ``ValueError``).
            ArgumentTypeError: ``text`` is not a string.
        """
        if not isinstance(text, str):
            msg = f"a face's text is a string, got {type(text).__name__}"
            raise ArgumentTypeError(msg)
        cleaned = text.strip().lower()
        if cleaned in {"w", "worm"}:
            return cls.WORM
        if cleaned in {"1", "2", "3", "4", "5"}:
            return cls(int(cleaned))
        msg = f"not a die face: {excerpt(text)} (expected 1-5 or w)"
        raise InvalidRollError(msg)


# On Python 3.11 a member read off an enum class (``Face.WORM``) goes through the
# metaclass's ``__getattr__`` hook, ~10x slower than a module global: hot code reads these.
_WORM = Face.WORM

FACES: tuple[Face, ...] = tuple(Face)
"""Index of each face in the six-element count tuples used throughout (face 1 at 0)."""

_SYMBOLS = tuple(face.symbol for face in FACES)

NO_DICE_SET_ASIDE: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
"""Set-aside counts of a turn that has not set anything aside yet."""


def _faces(sides: Iterable[int]) -> tuple[Face, ...]:
    return tuple(map(Face, sides))


@attrs.frozen
class DieKind:
    """A kind of die: a name and the faces printed on its six sides.

    Attributes:
        name: Short name used in text forms, e.g. ``"white"``.
        sides: The face on each of the six sides; repeats make a face likelier.

    Examples:
        >>> DieKind("golden", (Face.ONE,) * 3 + (Face.WORM,) * 3).weights
        (3, 0, 0, 0, 0, 3)
    """

    name: str
    sides: tuple[Face, ...] = attrs.field(converter=_faces)

    @sides.validator
    def _check_sides(self, _attribute: object, value: tuple[Face, ...]) -> None:
        if len(value) != 6 or not all(isinstance(face, Face) for face in value):
            msg = f"a die has six sides, each a Face: {value!r}"
            raise ValueError(msg)

    @property
    def weights(self) -> tuple[int, ...]:
        """How many sides show each face, in face order 1-5, worm."""
        return tuple(self.sides.count(face) for face in FACES)


WHITE = DieKind("white", FACES)
"""The standard die: 1, 2, 3, 4, 5 and a worm, each with probability 1/6 (C1)."""


@attrs.frozen(cache_hash=True, repr=False)
class RollOutcome:
    """One distinct roll: for each kind of die, how many dice show each face.

    Rolls are chance outcomes: pass one to [`apply`][pickomino_rules.game.apply] at a
    chance node. Their text form lists the faces of the first kind, then
    ``name:faces`` for each further kind that was rolled.

    Attributes:
        kinds: Names of the die kinds, in the rules' order.
        counts: For each kind, six counts in face order 1-5, worm.

    Examples:
        >>> roll = RollOutcome.from_faces([Face.FOUR, Face.FOUR, Face.WORM])
        >>> str(roll), roll.count_of(Face.FOUR)
        ('44w', 2)
    """

    kinds: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]
    faces: tuple[int, ...] = attrs.field(init=False, eq=False)
    """Dice showing each face, all kinds together (derived, for the hot path)."""

    by_face: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False, repr=False)
    """For each face, how many dice of each kind show it (derived, for the hot path)."""

    remaining: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False, repr=False)
    """For each face, the dice of each kind left after setting that face aside."""

    shown: int = attrs.field(init=False, eq=False, repr=False)
    """The faces shown as bits: bit 0 for 1s ... bit 5 for worms (derived, for the hot path)."""

    # The derived fields are built for every outcome of every chance table (thousands, once
    # per process): map() over builtins, not generator expressions.
    @faces.default
    def _sum_faces(self) -> tuple[int, ...]:
        counts = self.counts
        if len(counts) == 1:
            return counts[0]
        return tuple(map(sum, zip(*counts, strict=True)))

    @by_face.default
    def _by_face(self) -> tuple[tuple[int, ...], ...]:
        return tuple(zip(*self.counts, strict=True))

    @remaining.default
    def _remaining(self) -> tuple[tuple[int, ...], ...]:
        dice = tuple(map(sum, self.counts))
        return tuple(tuple(map(operator.sub, dice, column)) for column in self.by_face)

    @shown.default
    def _shown(self) -> int:
        bits = 0
        for index, count in enumerate(self.faces):
            if count:
                bits |= 1 << index
        return bits

    @classmethod
    def from_faces(cls, faces: Sequence[Face], *others: tuple[str, Sequence[Face]]) -> RollOutcome:
        """Build a roll of white dice showing ``faces`` (plus other kinds).

        Args:
            faces: Faces of the white dice, in any order.
            *others: ``(kind name, faces)`` pairs for further kinds of dice.
        """
        groups = [("white", faces), *others]
        return cls(
            tuple(name for name, _ in groups),
            tuple(tuple(list(group).count(face) for face in FACES) for _, group in groups),
        )

    @classmethod
    def parse(cls, text: str, kinds: Sequence[str] = ("white",)) -> RollOutcome:
        """Parse the text form, e.g. ``"1134455w"`` or ``"1134455w golden:w"``.

        Args:
            text: Faces of the first kind, then ``name:faces`` groups.
            kinds: The rules' die kind names, first one implied.

        Raises:
            InvalidRollError: The text is not a roll for these kinds of dice.
            ArgumentTypeError: ``text`` is not a string.
        """
        if not isinstance(text, str):
            msg = f"a roll's text is a string, got {type(text).__name__}"
            raise ArgumentTypeError(msg)
        counts = {name: [0] * 6 for name in kinds}
        for index, token in enumerate(text.split()):
            name, sep, symbols = token.rpartition(":")
            if not sep:
                name = kinds[0]
                if index:
                    msg = f"roll {text!r}: only the first group may omit its kind"
                    raise InvalidRollError(msg)
            if name not in counts:
                msg = f"roll {text!r}: unknown die kind {name!r} (known: {', '.join(kinds)})"
                raise InvalidRollError(msg)
            for symbol in symbols:
                try:
                    counts[name][Face.parse(symbol) - 1] += 1
                except ValueError:
                    msg = f"roll {text!r}: {symbol!r} is not a face (1-5 or w)"
                    raise InvalidRollError(msg) from None
        return cls(tuple(kinds), tuple(tuple(counts[name]) for name in kinds))

    @property
    def dice(self) -> tuple[int, ...]:
        """Number of dice rolled of each kind."""
        return tuple(sum(group) for group in self.counts)

    def count_of(self, face: Face) -> int:
        """Number of dice (all kinds) showing ``face``."""
        return self.faces[face - 1]

    def total_of(self, face: Face) -> int:
        """Deprecated: the number of dice showing ``face`` (not a total); use `count_of`."""
        warnings.warn(
            "RollOutcome.total_of counts dice; it is renamed count_of",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.count_of(face)

    def __str__(self) -> str:
        groups = []
        for index, (name, group) in enumerate(zip(self.kinds, self.counts, strict=True)):
            symbols = "".join(symbol * n for symbol, n in zip(_SYMBOLS, group, strict=True))
            if index == 0:
                groups.append(symbols)
            elif symbols:
                groups.append(f"{name}:{symbols}")
        return " ".join(groups)

    def __repr__(self) -> str:
        return f"RollOutcome.parse({str(self)!r}, {self.kinds!r})"


def _count_vectors(dice: int, faces: int) -> Iterator[tuple[int, ...]]:
    """Every way to put ``dice`` indistinguishable dice on ``faces`` faces."""
    for bars in itertools.combinations(range(dice + faces - 1), faces - 1):
        edges = (-1, *bars, dice + faces - 1)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(faces))


def _kind_outcomes(kind: DieKind, dice: int) -> list[tuple[tuple[int, ...], int]]:
    """Count vectors of ``dice`` dice of ``kind`` with their numbers of ways."""
    weights = kind.weights
    present = [i for i, w in enumerate(weights) if w]
    result = []
    for vector in _count_vectors(dice, len(present)):
        counts = [0] * 6
        ways = math.factorial(dice)
        for index, n in zip(present, vector, strict=True):
            counts[index] = n
            ways = ways // math.factorial(n) * weights[index] ** n
        result.append((tuple(counts), ways))
    return result


@attrs.frozen(eq=False)
class ChanceTable:
    """Every distinct roll of one pool of dice, with exact weights.

    Attributes:
        outcomes: The distinct rolls, in a fixed order.
        weights: Number of equally likely die-side combinations giving each roll.
        total: Sum of the weights: ``6 ** dice``.
        cumulative: Running sums of ``weights``, for sampling by bisection.
        index: Position of each outcome in ``outcomes`` (read-only).
    """

    outcomes: tuple[RollOutcome, ...]
    weights: tuple[int, ...]
    total: int
    cumulative: tuple[int, ...]
    index: Mapping[RollOutcome, int] = attrs.field(repr=False)
    by_id: Mapping[int, RollOutcome] = attrs.field(init=False, repr=False)
    """Each outcome by its ``id``: the hot path recognises the table's own outcomes
    without hashing them (an equal roll built elsewhere is found in ``index``). A lookup
    checks the object itself, so an id never stands for another object."""

    bounds: tuple[float, ...] = attrs.field(init=False, repr=False)
    """``cumulative`` as floats, for sampling: exact (every sum is below 2**53), and
    a float compares with a float several times faster than with an int."""

    @by_id.default
    def _by_id(self) -> Mapping[int, RollOutcome]:
        return MappingProxyType({id(outcome): outcome for outcome in self.outcomes})

    @bounds.default
    def _bounds(self) -> tuple[float, ...]:
        return tuple(map(float, self.cumulative))

    def has(self, outcome: object) -> bool:
        """Whether ``outcome`` is one of this pool's rolls (the object itself or an equal one)."""
        return self.by_id.get(id(outcome)) is outcome or outcome in self.index

    @property
    def probabilities(self) -> tuple[Fraction, ...]:
        """Exact probability of each outcome; they sum to exactly 1."""
        return tuple(Fraction(w, self.total) for w in self.weights)

    def probability(self, outcome: RollOutcome) -> Fraction:
        """Exact probability of ``outcome`` (0 if this pool cannot roll it)."""
        position = self.index.get(outcome)
        return Fraction(0) if position is None else Fraction(self.weights[position], self.total)

    def sample(self, rng: random.Random) -> RollOutcome:
        """Draw one outcome with its exact probability, using ``rng``."""
        return self.outcomes[bisect_right(self.bounds, rng.random() * self.total)]


@lru_cache(maxsize=64)  # per kinds of dice: bounded (options make new kinds)
def roll_counts(
    kinds: tuple[DieKind, ...], dice: tuple[int, ...]
) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[int, ...]]:
    """Every distinct roll as plain counts, with its weight, in ``chance_table``'s order.

    The same rolls as ``chance_table(kinds, dice).outcomes`` (each one's ``counts``: six
    counts per kind) and its ``weights``, without building the outcomes: for code that
    only counts (the turn solver builds its tables from these).

    Examples:
        >>> rolls, weights = roll_counts((WHITE,), (2,))
        >>> len(rolls), sum(weights), rolls[0], weights[0]
        (21, 36, ((0, 0, 0, 0, 0, 2),), 1)
    """
    per_kind = [_kind_outcomes(kind, n) for kind, n in zip(kinds, dice, strict=True)]
    rolls = []
    weights = []
    for combo in itertools.product(*per_kind):
        rolls.append(tuple(counts for counts, _ in combo))
        weights.append(math.prod(ways for _, ways in combo))
    return tuple(rolls), tuple(weights)


@lru_cache(maxsize=64)
def chance_table(kinds: tuple[DieKind, ...], dice: tuple[int, ...]) -> ChanceTable:
    """The cached exact distribution of one roll.

    Returns the [`ChanceTable`][pickomino_rules.dice.ChanceTable] for rolling ``dice[i]``
    dice of ``kinds[i]``.

    Args:
        kinds: The kinds of dice in the rules.
        dice: How many dice of each kind are rolled.
    """
    names = tuple(kind.name for kind in kinds)
    rolls, weights = roll_counts(kinds, dice)
    outcomes = [RollOutcome(names, counts) for counts in rolls]
    cumulative = tuple(itertools.accumulate(weights))
    return ChanceTable(
        outcomes=tuple(outcomes),
        weights=tuple(weights),
        total=cumulative[-1],
        cumulative=cumulative,
        index=MappingProxyType({outcome: i for i, outcome in enumerate(outcomes)}),
    )
