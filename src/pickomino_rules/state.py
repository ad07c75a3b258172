"""The immutable game state.

A [`GameState`][pickomino_rules.state.GameState] is a value: frozen, hashable, equal by value.
Transitions ([`apply`][pickomino_rules.game.apply]) return new states and never change the one they
are given. The state holds everything on the table; the rules (tile values, dice, hooks) live in a
separate [`Rules`][pickomino_rules.rules.Rules] object. A state remembers the
[`Layout`][pickomino_rules.state.Layout] of the rules that made it, so that rules of a differently
laid-out game refuse it.

Examples:
    >>> from pickomino_rules import new_game
    >>> rules, state = new_game("classic", players=2)
    >>> state.phase, state.player, len(state.grill)
    (<Phase.ROLL: 'roll'>, 0, 16)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import attrs

from pickomino_rules.dice import FACES, NO_DICE_SET_ASIDE, DieKind, RollOutcome
from pickomino_rules.errors import CompositionError, brief

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules

__all__ = ["Claim", "GameState", "Layout", "Marker", "PartKey", "Phase", "new_state"]

T = TypeVar("T")

_KEEP: Any = object()
"""Marks "leave unchanged" for fields that may legitimately be None."""


class Phase(enum.Enum):
    """Where the game stands.

    Attributes:
        ROLL: A chance node: the dice in hand are about to be rolled.
        CHOOSE: A roll lies on the table: the player picks a face to set aside.
        DECIDE: Dice were set aside: the player rolls again or stops.
        TURN_OVER: The turn is resolved but a variant's decision is pending.
        GAME_OVER: No face-up tile is left on the grill (C12).
    """

    ROLL = "roll"
    CHOOSE = "choose"
    DECIDE = "decide"
    TURN_OVER = "turn over"
    GAME_OVER = "game over"


_ROLL = Phase.ROLL  # a module global reads ~10x faster than an enum member

_MOST_SHOWN = 100
"""A state's text draws each die set aside: more than these are not a table but nonsense."""

_TOTALS: dict[tuple[int, ...], int] = {}
"""The total of each set-aside count tuple seen (a lookup is cheaper than the sum)."""


@attrs.frozen
class Claim:
    """A tile a stopping player may take (C8).

    Attributes:
        tile: The tile's number.
        victim: The player whose top tile is stolen, or None for a grill tile.
    """

    tile: int
    victim: int | None = None

    @classmethod
    def grill_tile(cls, tile: int) -> Claim:
        """The (shared, interned) claim of grill tile ``tile``."""
        claim = _GRILL_CLAIMS.get(tile)
        if claim is None:
            claim = _GRILL_CLAIMS[tile] = cls(tile)
        return claim


_GRILL_CLAIMS: dict[int, Claim] = {}


PartCheck = Callable[["Rules", "GameState", T], Iterable[str]]
"""Checks one part of a state: ``check(rules, state, value)`` yields each problem found."""

PartObserve = Callable[["Rules", "GameState", T, int], Sequence[float]]
"""Features of one part for an observer: ``observe(rules, state, value, player)``.

It returns the same number of values, each between 0 and 1, for every state of a game
(given rules and number of players); player indices are best given relative to ``player``
(seat 0 is the observer), as the core's own features are.
"""

PlayerName = Callable[[int], str]
"""How a text names a player: ``name(index)``, e.g. ``"Ann"`` or ``"player 1"``."""

PartDescribe = Callable[["Rules", "GameState", T, PlayerName], "str | None"]
"""A part's status for people: ``describe(rules, state, value, name)``; None hides it."""


@attrs.frozen
class Marker:
    """Something of a variant's part to show on the table: a token, a specialist, a count.

    Pictures and UIs place it by where it is: on a grill tile, with a player, or (neither
    given) on the table itself.

    Attributes:
        label: What it is, in a word or two (``"hen"``, ``"grilled worm"``).
        tile: The grill tile it lies on, if any.
        player: The player who has it, if any.
        count: How many (tokens of one kind are one marker with a count).
    """

    label: str
    tile: int | None = None
    player: int | None = None
    count: int = 1


PartMarkers = Callable[["Rules", "GameState", T], Sequence[Marker]]
"""What a part shows on the table: ``markers(rules, state, value)``, for pictures and UIs."""

PartChanges = Callable[["Rules", "GameState", "GameState", PlayerName], Sequence[str]]
"""What changed in a part between two states, as events: ``changes(rules, before, after, name)``.

For people following a game: ``["Ann takes the hen", "Bob wins a grilled worm"]``.
"""


@attrs.frozen
class PartKey(Generic[T]):
    """Typed access to one rule module's part of the state.

    The part lives in [`GameState.parts`][pickomino_rules.state.GameState]. A rule module that
    keeps state of its own declares a ``PartKey`` (see
    [`RuleModule`][pickomino_rules.plugin.RuleModule]); the composed rules give it a slot.

    Attributes:
        name: Unique name of the part.
        kind: The part's type; `set` refuses values of another type.
        check: Optional invariant check of the part's value, run by
            [`validate`][pickomino_rules.validation.validate] and the conformance kit.
        observe: Optional features of the part for an observation vector
            ([`Encoding`][pickomino_rules.encoding.Encoding]); a part without it is left
            out of observations (``Encoding.unobserved`` lists it).
        describe: Optional status line for people (the command line's table), with the
            players named as the caller names them; ``str(value)`` without it.
        changes: Optional events between two states (a turn's start and end) for
            people reading a game: who took a specialist, who won or lost a token.
        markers: Optional things to draw on the table (`Marker`), as the SVG picture
            ([`pickomino_rules.svg`][pickomino_rules.svg]) does.

    Examples:
        >>> import attrs
        >>> @attrs.frozen
        ... class Bonus:
        ...     worms: tuple[int, ...]
        >>> BONUS = PartKey("bonus", Bonus)
        >>> BONUS.name, BONUS.kind.__name__
        ('bonus', 'Bonus')
    """

    name: str
    kind: type[T] = attrs.field()
    check: PartCheck[T] | None = attrs.field(default=None, eq=False, repr=False)
    observe: PartObserve[T] | None = attrs.field(default=None, eq=False, repr=False)
    describe: PartDescribe[T] | None = attrs.field(default=None, eq=False, repr=False)
    changes: PartChanges | None = attrs.field(default=None, eq=False, repr=False)
    markers: PartMarkers[T] | None = attrs.field(default=None, eq=False, repr=False)

    @kind.validator
    def _hashable(self, _attribute: object, kind: type[T]) -> None:
        # A part is part of the state, which is hashed and compared by value.
        if not isinstance(kind, type) or kind.__hash__ is None:
            why = "is not a hashable type"
        elif kind.__eq__ is object.__eq__:  # e.g. @attrs.define(eq=False): mutable, by identity
            why = "compares by identity, not by value"
        else:
            return
        what = kind.__name__ if isinstance(kind, type) else repr(kind)
        msg = (
            f"part {self.name!r} holds {what}, which {why}: a part is part of the state, "
            "which is hashed and compared by value; make it immutable (e.g. @attrs.frozen "
            "holding tuples)"
        )
        raise CompositionError(msg)

    def get(self, rules: Rules, state: GameState) -> T:
        """This part's value in ``state``.

        Raises:
            KeyError: The rules have no module with this part.
        """
        value: T = state.parts[rules.part_index[self.name]]  # no cast(): a call on the hot path
        return value

    def set(self, rules: Rules, state: GameState, value: T) -> GameState:
        """A copy of ``state`` with this part replaced by ``value``.

        Raises:
            TypeError: ``value`` is not of the part's ``kind`` (a module bug).
        """
        if not isinstance(value, self.kind):
            msg = f"part {self.name!r} holds {self.kind.__name__}, got {type(value).__name__}"
            raise TypeError(msg)
        index = rules.part_index[self.name]
        if state.parts[index] is value:
            return state
        return state.replace(parts=(*state.parts[:index], value, *state.parts[index + 1 :]))


@attrs.frozen(cache_hash=True, repr=False)
class Layout:
    """The shape of one game's states: its tiles, its kinds of dice and the variant's parts.

    Composed rules have one; every state they make carries it. Equal layouts are one
    shared object, so checking that a state fits the rules costs one identity test.
    Rules with the same layout (e.g. classic with and without an option) read each
    other's states; rules of another layout refuse them
    ([`RulesMismatchError`][pickomino_rules.errors.RulesMismatchError]).

    Attributes:
        tiles: Every tile number, ascending.
        die_kinds: The kinds of dice, in the order of ``GameState.in_hand``.
        parts: The variant parts' keys, in the order of ``GameState.parts``.
    """

    tiles: tuple[int, ...]
    die_kinds: tuple[DieKind, ...]
    parts: tuple[PartKey[Any], ...]

    def interned(self) -> Layout:
        """The shared object equal to this layout."""
        return _LAYOUTS.setdefault(self, self)

    def __reduce__(self) -> tuple[Callable[..., Layout], tuple[object, ...]]:
        # unpickled as the shared object, so that states loaded in another process fit
        return _interned_layout, (self.tiles, self.die_kinds, self.parts)

    def __repr__(self) -> str:
        tiles = f"{self.tiles[0]}..{self.tiles[-1]}" if self.tiles else "none"
        dice = "+".join(kind.name for kind in self.die_kinds)
        parts = ", ".join(part.name for part in self.parts)
        return f"<Layout tiles {tiles} ({len(self.tiles)}), dice {dice}, parts ({parts})>"


_LAYOUTS: dict[Layout, Layout] = {}


def _interned_layout(
    tiles: tuple[int, ...], die_kinds: tuple[DieKind, ...], parts: tuple[PartKey[Any], ...]
) -> Layout:
    return Layout(tiles, die_kinds, parts).interned()


# Slotted: attributes read in ~15 ns against ~25-40 ns dict-backed, and millions of
# stored states stay small. No weakref slot: `new_state` needs a layout it can copy.
# No cached hash: states are hashed rarely.
@attrs.frozen(repr=False, slots=True, weakref_slot=False)
class GameState:
    """The whole table at one moment.

    Build the first state with [`new_game`][pickomino_rules.game.new_game]; later states
    come from [`apply`][pickomino_rules.game.apply]. A state built or changed by hand
    (``replace``) is not checked; [`validate`][pickomino_rules.validation.validate] checks it.

    Attributes:
        grill: Face-up tiles on the grill, ascending.
        face_down: Tiles turned face down (out of the game), in the order turned.
        stacks: Each player's stack of tiles, bottom first; the last is the top.
        player: Index of the player whose turn it is.
        phase: What happens next (see [`Phase`][pickomino_rules.state.Phase]).
        in_hand: Dice not set aside this turn, per kind of die (the rules' order).
        roll: The roll on the table (phase CHOOSE), otherwise None.
        set_aside: Dice set aside this turn, per face (1-5, worm).
        parts: The variant's own state, one entry per rule module that has any.
        layout: The layout of the rules that made the state.
    """

    grill: tuple[int, ...]
    face_down: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]
    player: int
    phase: Phase
    in_hand: tuple[int, ...]
    roll: RollOutcome | None = None
    set_aside: tuple[int, ...] = NO_DICE_SET_ASIDE
    parts: tuple[Any, ...] = ()
    layout: Layout | None = None

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.stacks)

    @property
    def total(self) -> int:
        """Points of the dice set aside this turn (worms count 5)."""
        counts = self.set_aside
        total = _TOTALS.get(counts)
        if total is None:
            total = _TOTALS[counts] = sum(  # the faces' own points (C7), once per counts
                count * face.points for count, face in zip(counts, FACES, strict=True)
            )
        return total

    @property
    def is_chance(self) -> bool:
        """True when the next step is a roll of the dice (a chance node)."""
        return self.phase is _ROLL

    def replace(  # noqa: PLR0913 (one keyword per field, like attrs.evolve)
        self,
        *,
        grill: tuple[int, ...] | None = None,
        face_down: tuple[int, ...] | None = None,
        stacks: tuple[tuple[int, ...], ...] | None = None,
        player: int | None = None,
        phase: Phase | None = None,
        in_hand: tuple[int, ...] | None = None,
        roll: RollOutcome | object | None = _KEEP,
        set_aside: tuple[int, ...] | None = None,
        parts: tuple[Any, ...] | None = None,
    ) -> GameState:
        """A copy with the given fields changed; a faster ``attrs.evolve``.

        The layout is kept. Nothing is checked: see
        [`validate`][pickomino_rules.validation.validate].

        Examples:
            >>> from pickomino_rules import new_game
            >>> rules, state = new_game("classic", players=3)
            >>> state.replace(player=2).player
            2
        """
        return new_state(
            self.grill if grill is None else grill,
            self.face_down if face_down is None else face_down,
            self.stacks if stacks is None else stacks,
            self.player if player is None else player,
            self.phase if phase is None else phase,
            self.in_hand if in_hand is None else in_hand,
            self.roll if roll is _KEEP else cast("RollOutcome | None", roll),
            self.set_aside if set_aside is None else set_aside,
            self.parts if parts is None else parts,
            self.layout,
        )

    def __copy__(self) -> GameState:
        return self  # a value: copies would be equal and just as immutable

    def __deepcopy__(self, memo: dict[int, object]) -> GameState:
        return self  # keeps the interned layout, which rules check by identity

    def top(self, player: int) -> int | None:
        """The visible top tile of ``player``'s stack, or None if it is empty."""
        stack = self.stacks[player]
        return stack[-1] if stack else None

    def __repr__(self) -> str:
        fields = ", ".join(f"{a.name}={getattr(self, a.name)!r}" for a in attrs.fields(GameState))
        return f"GameState({fields})"

    def __str__(self) -> str:
        try:
            shown = self._table() if sum(self.set_aside) <= _MOST_SHOWN else None  # per die
        except Exception:  # noqa: BLE001 (a state changed by hand into nonsense)
            shown = None
        if shown is not None:
            return shown
        fields = ", ".join(
            f"{a.name}={brief(getattr(self, a.name), 30)}"
            for a in attrs.fields(GameState)
            if a.name != "layout"
        )
        return f"malformed GameState ({fields}): validate it against its rules"

    def _table(self) -> str:
        lines = [
            "grill: " + (" ".join(map(str, self.grill)) or "(empty)"),
            "face down: " + (" ".join(map(str, self.face_down)) or "-"),
        ]
        for index, stack in enumerate(self.stacks):
            marker = ">" if index == self.player and self.phase is not Phase.GAME_OVER else " "
            top = stack[-1] if stack else "-"
            lines.append(f"{marker} player {index}: top {top}, {len(stack)} tile(s)")
        if self.phase is Phase.GAME_OVER:
            lines.append("game over")
        else:
            dice = " ".join(
                face.symbol * n for face, n in zip(FACES, self.set_aside, strict=True) if n
            )
            lines.append(f"set aside: {dice or '-'} (total {self.total})")
            if self.roll is not None:
                lines.append(f"roll: {self.roll}")
            lines.append(f"player {self.player} to {_NEXT[self.phase]}")
        lines.extend(str(part) for part in self.parts if part is not None)
        return "\n".join(lines)


class _Unfrozen:
    """GameState's memory layout without its frozen ``__setattr__``: see `new_state`."""

    __slots__ = GameState.__slots__
    grill: tuple[int, ...]
    face_down: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]
    player: int
    phase: Phase
    in_hand: tuple[int, ...]
    roll: RollOutcome | None
    set_aside: tuple[int, ...]
    parts: tuple[Any, ...]
    layout: Layout | None


def _new_state_fast(  # noqa: PLR0913, PLR0917 (one argument per field, as GameState's own)
    grill: tuple[int, ...],
    face_down: tuple[int, ...],
    stacks: tuple[tuple[int, ...], ...],
    player: int,
    phase: Phase,
    in_hand: tuple[int, ...],
    roll: RollOutcome | None,
    set_aside: tuple[int, ...],
    parts: tuple[Any, ...],
    layout: Layout | None,
) -> GameState:
    state = _Unfrozen()  # a type call allocates faster than object.__new__(_Unfrozen)
    state.grill = grill
    state.face_down = face_down
    state.stacks = stacks
    state.player = player
    state.phase = phase
    state.in_hand = in_hand
    state.roll = roll
    state.set_aside = set_aside
    state.parts = parts
    state.layout = layout
    state.__class__ = GameState  # type: ignore[assignment]
    return state  # type: ignore[return-value]


def _pick_new_state() -> Callable[..., GameState]:
    """The fast builder if this Python and attrs allow it, else GameState itself."""
    fields = ((), (), ((),), 0, _ROLL, (8,), None, NO_DICE_SET_ASIDE, (), None)
    try:
        built = _new_state_fast(*fields)
    except TypeError:  # pragma: no cover (a layout change in attrs or CPython)
        return GameState
    return _new_state_fast if built == GameState(*fields) else GameState


new_state: Callable[..., GameState] = _pick_new_state()
"""Build a state from all ten fields, positionally, as ``GameState(...)`` does (the hot path's
constructor).

A frozen attrs class sets each field through ``object.__setattr__`` (~0.2 us a field on this
project's machines, 2 us a state). ``new_state`` fills an unfrozen object of the same
slots and then gives it GameState's class (~0.6 us a state): the result is an ordinary frozen
GameState, equal to ``GameState(...)`` with the same fields. Where the layout cannot be
shared, it is ``GameState`` itself.

Examples:
    >>> from pickomino_rules import new_game
    >>> rules, state = new_game("classic", players=2)
    >>> fields = [getattr(state, name) for name in GameState.__slots__]
    >>> copy = new_state(*fields)
    >>> copy == state, type(copy) is GameState
    (True, True)
"""


_NEXT = {
    Phase.ROLL: "roll the dice",
    Phase.CHOOSE: "set dice aside",
    Phase.DECIDE: "roll again or stop",
    Phase.TURN_OVER: "finish the turn",
}
