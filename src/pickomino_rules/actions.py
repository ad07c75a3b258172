"""Player actions: small immutable values with a compact text form.

The core game has four decisions: [`Roll`][pickomino_rules.actions.Roll] the dice,
[`Take`][pickomino_rules.actions.Take] every die showing one face (set them aside),
[`Stop`][pickomino_rules.actions.Stop] and take a grill tile (or bust when there is none to take),
and [`Steal`][pickomino_rules.actions.Steal] the top tile of an opponent's stack. Variants add their
own action classes (subclasses of [`Action`][pickomino_rules.actions.Action]). Chance outcomes are
[`RollOutcome`][pickomino_rules.dice.RollOutcome] values, not actions.

Examples:
    >>> from pickomino_rules import Action, Face, Steal, Take
    >>> Take(Face.WORM)
    Take(Face.WORM)
    >>> str(Take(Face.WORM)), str(Steal(2))
    ('take w', 'steal 2')
    >>> Action.parse("take 4") == Take(Face.FOUR)
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from pickomino_rules.dice import FACES, Face
from pickomino_rules.errors import (
    ArgumentTypeError,
    InvalidActionError,
    PickominoError,
    excerpt,
)

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules

__all__ = ["Action", "AgainstPlayer", "Roll", "Steal", "Stop", "Take"]


@attrs.frozen(cache_hash=True)
class Action:
    """Base class of every player decision.

    Subclasses set [`keyword`][pickomino_rules.actions.Action.keyword] (the first word of their text
    form) and may override [`argument_text`][pickomino_rules.actions.Action.argument_text] and
    [`from_argument`][pickomino_rules.actions.Action.from_argument] when they take an argument.
    Variants' action classes are parsed through their rules
    ([`parse_move`][pickomino_rules.game.parse_move]).
    """

    keyword: ClassVar[str] = ""
    """First word of the text form, e.g. ``"roll"``."""

    rerolls: ClassVar[bool] = False
    """True for an action that throws the dice of the roll on the table again (the
    extended game's weasel, E10); the turn solver treats it as one re-roll a turn."""

    def argument_text(self) -> str:
        """Text of the action's argument; empty when it has none."""
        return ""

    @classmethod
    def from_argument(cls, argument: str) -> Action:
        """Build the action from the text after its keyword.

        Raises:
            ValueError: The argument is not valid for this action.
        """
        if argument:
            msg = f"{cls.keyword!r} takes no argument, got {argument!r}"
            raise ValueError(msg)
        return cls()

    @classmethod
    def instances(cls, rules: Rules, players: int) -> tuple[Action, ...]:  # noqa: ARG003
        """Every action of this class that a game of ``rules`` and ``players`` can offer.

        It makes the fixed action space of the encodings
        ([`Encoding`][pickomino_rules.encoding.Encoding]). A class without fields has one
        instance; a class with fields must override this (``Take``: one per face;
        ``AgainstPlayer``: one per player).

        Raises:
            TypeError: The class has fields and does not say what its instances are.
        """
        if attrs.fields(cls):
            msg = f"{cls.__name__} has fields: it must override Action.instances"
            raise TypeError(msg)
        shared = _SHARED.get(cls)  # the engine's own objects: numbered, found by identity
        return (cls(),) if shared is None else (shared,)

    def __str__(self) -> str:
        argument = self.argument_text()
        return f"{self.keyword} {argument}" if argument else self.keyword

    @staticmethod
    def parse(text: str, kinds: tuple[type[Action], ...] | None = None) -> Action:
        """Parse an action's text form.

        Args:
            text: E.g. ``"roll"``, ``"take w"``, ``"stop"``, ``"steal 1"``.
            kinds: Action classes to recognise; the core ones by default.

        Raises:
            InvalidActionError: No action class matches the text, or its argument is bad.
            ArgumentTypeError: ``text`` is not a string.
        """
        if not isinstance(text, str):
            msg = f"an action's text is a string, got {type(text).__name__}"
            raise ArgumentTypeError(msg)
        keyword, _, argument = text.strip().partition(" ")
        for kind in kinds or CORE_ACTIONS:
            if kind.keyword == keyword.lower():
                try:
                    return kind.from_argument(argument.strip())
                except PickominoError:
                    raise
                except ValueError as error:  # a plug-in's from_argument raises ValueError
                    raise InvalidActionError(str(error)) from None
        known = ", ".join(kind.keyword for kind in kinds or CORE_ACTIONS)
        msg = f"unknown action {excerpt(text)} (known: {known})"
        raise InvalidActionError(msg)


def _face(value: object) -> Face:
    """A Take's face: a Face, or its number 1-6 (6 is the worm)."""
    if isinstance(value, Face):
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        msg = f"Take needs a Face (or its number 1-6), got {type(value).__name__}"
        raise ArgumentTypeError(msg)
    if not 1 <= value <= len(FACES):
        msg = f"Take needs a face 1-6 (6 is the worm), got {value}"
        raise InvalidActionError(msg)
    return FACES[value - 1]


@attrs.frozen(cache_hash=True)
class Roll(Action):
    """Roll every die not set aside yet (C6)."""

    keyword: ClassVar[str] = "roll"


@attrs.frozen(cache_hash=True)
class Stop(Action):
    """End the turn and take the grill tile the total earns (C7, C8).

    With no claim possible (no worm set aside, or no tile to take) stopping is a
    bust (C10).
    """

    keyword: ClassVar[str] = "stop"


@attrs.frozen(cache_hash=True, repr=False)
class Take(Action):
    """Set aside every die of the current roll showing ``face`` (C4).

    Attributes:
        face: The face chosen.
    """

    keyword: ClassVar[str] = "take"
    face: Face = attrs.field(converter=_face)

    def argument_text(self) -> str:  # noqa: D102
        return self.face.symbol

    def __repr__(self) -> str:
        return f"Take(Face.{self.face.name})"

    @classmethod
    def from_argument(cls, argument: str) -> Take:  # noqa: D102
        return TAKE[Face.parse(argument)]

    @classmethod
    def instances(cls, rules: Rules, players: int) -> tuple[Action, ...]:  # noqa: ARG003, D102
        if cls is Take:  # the engine's own objects: numbered, found by identity
            return tuple(TAKE[face] for face in FACES)
        return tuple(cls(face) for face in FACES)


@attrs.frozen(cache_hash=True, repr=False)
class AgainstPlayer(Action):
    """Base class of actions aimed at one player (text form ``keyword N``).

    Variants subclass it for their own such actions (e.g. robbing a grilled worm).

    Attributes:
        victim: Index of the player concerned.

    Raises:
        ArgumentTypeError: ``victim`` is not a whole number.
    """

    victim: int = attrs.field()

    @victim.validator
    def _check_victim(self, _attribute: object, value: object) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            msg = f"{type(self).__name__} needs a player index (int), got {value!r}"
            raise ArgumentTypeError(msg)

    def argument_text(self) -> str:  # noqa: D102
        return str(self.victim)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.victim})"

    @classmethod
    def from_argument(cls, argument: str) -> AgainstPlayer:  # noqa: D102
        try:
            victim = int(argument)
        except ValueError:
            msg = f"{cls.keyword!r} takes a player number, got {argument!r}"
            raise ValueError(msg) from None
        return cls(victim)

    @classmethod
    def instances(cls, rules: Rules, players: int) -> tuple[Action, ...]:  # noqa: ARG003, D102
        return tuple(cls(victim) for victim in range(players))


@attrs.frozen(cache_hash=True, repr=False)
class Steal(AgainstPlayer):
    """End the turn by stealing the top tile of player ``victim``'s stack (C8).

    Attributes:
        victim: Index of the player robbed.
    """

    keyword: ClassVar[str] = "steal"


CORE_ACTIONS: tuple[type[Action], ...] = (Roll, Take, Stop, Steal)
"""The core's action classes, in the order their texts are tried."""

ROLL = Roll()
"""Shared instances, so that legal-action lists compare by identity on the hot path."""
STOP = Stop()
TAKE: dict[Face, Take] = {face: Take(face) for face in FACES}
_SHARED: dict[type[Action], Action] = {Roll: ROLL, Stop: STOP}
