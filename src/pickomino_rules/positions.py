"""Positions: any state of any variant, saved as JSON or as one line of text, and read back.

A [`Position`][pickomino_rules.positions.Position] is a state together with its rules. It is
written two ways:

- **JSON** (``to_json``/``from_json``): the variant, its options and every field of the state,
  the variant's parts included (by part name, typed back into their classes with cattrs).
- **A position line** (``str(position)``/``Position.parse``), a compact single line in the spirit
  of chess's FEN, e.g. ``classic 21-36 - -/- 0r 8 - -`` for a new 2-player game.

Both are validated on load ([`validate`][pickomino_rules.validation.validate]): anything malformed
or impossible raises [`PositionError`][pickomino_rules.positions.PositionError] (a ``ValueError``)
saying what is wrong. Chance nodes and pending choices are positions like any other.

The position line has space-separated fields:

1. **variant**: its name, then the options that differ from the defaults as compact JSON
   (``classic`` or ``classic{"short_game":true}``);
2. **grill**: the face-up tiles, with ranges (``21-24,26,28-36``);
3. **face down**: the tiles turned face down, in the order turned (``36,35``);
4. **stacks**: each player's stack, bottom first, players split by ``/`` (``21,25/-/30``);
5. **turn**: the player to move and the phase letter: ``r`` roll, ``c`` choose, ``d`` decide,
   ``t`` turn over, ``g`` game over (``1d``);
6. **in hand**: the dice in hand per kind of die (``5`` or ``6,1``);
7. **set aside**: the faces set aside this turn (``55w``);
8. **roll**: the roll on the table, its text with ``+`` for spaces (``1234+golden:w``);
9. and on: **parts**, each variant part as ``name=`` and the fields its class's ``__init__``
   takes, in order, as a compact JSON list (``grilled_worms=[7,[0,0],null,[]]``); derived
   (``init=False``) fields are left out and rebuilt on reading.

An empty field is ``-``.

Examples:
    >>> from pickomino_rules import new_game
    >>> from pickomino_rules.positions import Position
    >>> rules, state = new_game("classic", players=2)
    >>> line = str(Position(rules, state))
    >>> line
    'classic 21-36 - -/- 0r 8 - -'
    >>> Position.parse(line).state == state
    True
    >>> Position.parse("classic 21-36 - -/- 5r 8 - -")
    Traceback (most recent call last):
    ...
    pickomino_rules.positions.PositionError: invalid position: player: 5 is not a player index
"""

from __future__ import annotations

import json
import re
import typing
from typing import TYPE_CHECKING, Any

import attrs
import cattrs

from pickomino_rules.dice import FACES, RollOutcome
from pickomino_rules.errors import (
    InvalidOptionError,
    InvalidRollError,
    PickominoError,
    brief,
    excerpt,
    listed,
)
from pickomino_rules.registry import get_variant
from pickomino_rules.state import GameState, PartKey, Phase
from pickomino_rules.story import tile_ranges
from pickomino_rules.strict_json import (
    MAX_DIGITS,
    NotJSONError,
    check_depth,
    format_problem,
    jsonable,
    load_json,
    make_json_converter,
)
from pickomino_rules.validation import ODD, check_shape, problems

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules

__all__ = [
    "FORMAT",
    "MAX_DIGITS",
    "MAX_POSITION_CHARS",
    "Position",
    "PositionError",
    "PositionOptionError",
    "excerpt",
    "jsonable",
    "load_json",
    "make_json_converter",
]

FORMAT = "pickomino_rules.position/1"
"""Marks a JSON document as a position, and its layout version."""

MAX_POSITION_CHARS = 100_000
"""Longest position (line or JSON) read; a real one is a few hundred characters."""

_LONGEST_RANGE = 1000
"""A range in a line spans fewer tiles than this (a game has a few dozen)."""

_PHASE_LETTERS = {
    Phase.ROLL: "r",
    Phase.CHOOSE: "c",
    Phase.DECIDE: "d",
    Phase.TURN_OVER: "t",
    Phase.GAME_OVER: "g",
}
_PHASES = {letter: phase for phase, letter in _PHASE_LETTERS.items()}


class PositionError(PickominoError, ValueError):
    """A position (JSON or line) that cannot be read, or describes an impossible state.

    Attributes:
        problems: Each thing found wrong, in words, each led by the field it is about
            (``"grill: ..."``, ``"state.stacks[1]: ..."``, ``"part 'specialists': ..."``):
            what a form shows at the field at fault. A position that cannot be read has
            one, its message.
    """

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems or (message,)


class PositionOptionError(PositionError, InvalidOptionError):
    """A position whose options its variant refuses: unknown, or outside an option's range."""


_DICTS = make_json_converter()
_TUPLES = make_json_converter(cattrs.UnstructureStrategy.AS_TUPLE)
_RESOLVED: set[type] = set()


def _resolve(kind: object) -> None:
    """Resolve the string annotations of attrs classes, nested ones too.

    cattrs' tuple strategy needs real types; modules written with ``from __future__ import
    annotations`` have strings.
    """
    if isinstance(kind, type) and attrs.has(kind):
        if kind in _RESOLVED:
            return
        _RESOLVED.add(kind)
        attrs.resolve_types(kind)
        for field in attrs.fields(kind):
            _resolve(field.type)
    else:
        for argument in typing.get_args(kind):
            _resolve(argument)


def _unstructure_part(key: PartKey[Any], value: object, converter: cattrs.Converter) -> object:
    _resolve(key.kind)
    return converter.unstructure(value, key.kind)


def _structure_part(key: PartKey[Any], data: object, converter: cattrs.Converter) -> object:
    _resolve(key.kind)
    try:
        return converter.structure(data, key.kind)
    except cattrs.BaseValidationError as error:
        details = cattrs.transform_error(error, path=f"part {key.name!r}")
        led = tuple(f"part {key.name!r}: {_short(detail)}" for detail in details)
        raise PositionError(_short("; ".join(details)), led) from None
    except ODD as error:  # a part's own checks, or cattrs on a document of another shape
        raise PositionError(f"part {key.name!r}: {_short(str(error))}") from None


def _short(text: str, length: int = 200) -> str:
    """A message part cut to ``length`` characters: input is quoted abbreviated."""
    return text if len(text) <= length else text[: length - 1] + "…"


def _checked(rules: Rules, state: GameState) -> GameState:
    found = problems(rules, state)
    if found:
        raise PositionError("invalid position: " + listed(found), tuple(found))
    return state


def _rules_of(variant: object, options: object) -> Rules:
    if not isinstance(variant, str):
        raise PositionError(f"variant: expected a name, got {brief(variant)}")
    if not isinstance(options, dict):
        raise PositionError(f"options: expected an object of option values, got {brief(options)}")
    try:
        return get_variant(variant).rules(options)
    except InvalidOptionError as error:
        raise PositionOptionError(f"variant {brief(variant)}: {error}") from None
    except PickominoError as error:
        raise PositionError(f"variant {brief(variant)}: {error}") from None


@attrs.frozen
class Position:
    """A game state with the rules it belongs to: what is saved, sent or loaded.

    Attributes:
        rules: The composed rules (of a registered variant, to be written out).
        state: The state.

    In a notebook a position shows itself as a picture of the table.

    Examples:
        >>> from pickomino_rules import new_game
        >>> rules, state = new_game("extended", players=3)
        >>> position = Position(rules, state)
        >>> Position.from_json(position.to_json()) == position
        True
        >>> position._repr_svg_().startswith("<svg")
        True
    """

    rules: Rules
    state: GameState

    def _repr_svg_(self) -> str:
        """The table as a picture, for notebooks ([`draw`][pickomino_rules.svg.draw])."""
        from pickomino_rules.svg import draw  # noqa: PLC0415 (pictures only when shown)

        return str(draw(self.rules, self.state))

    # -- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-ready data: format, variant, options and state.

        Raises:
            InvalidStateError: The state is malformed (its fields' types or sizes).
        """
        rules, state = self.rules, self.state
        check_shape(rules, state)
        parts = {
            key.name: _unstructure_part(key, part, _DICTS)
            for key, part in zip(rules.layout.parts, state.parts, strict=True)
        }
        return {
            "format": FORMAT,
            "variant": rules.name,
            "options": {name: jsonable(value) for name, value in rules.options.items()},
            "state": {
                "grill": list(state.grill),
                "face_down": list(state.face_down),
                "stacks": [list(stack) for stack in state.stacks],
                "player": state.player,
                "phase": state.phase.value,
                "in_hand": list(state.in_hand),
                "set_aside": list(state.set_aside),
                "roll": None if state.roll is None else str(state.roll),
                "parts": parts,
            },
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The position as a JSON document."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: object) -> Position:
        """Read a position from JSON-ready data, checking it fully.

        Raises:
            PositionError: A missing or extra field, a wrong type, an unknown variant or
                option, or a state that breaks the rules; the message says which. Data
                that is no position at all (a game record, other JSON) is said to be that:
                "this is not a Pickomino position: it is a Pickomino game record".
        """
        problem = format_problem(data, FORMAT)
        if problem is not None:
            raise PositionError(problem)
        assert isinstance(data, dict)  # noqa: S101 (format_problem checked it)
        try:
            check_depth(data)
        except ValueError as error:
            raise PositionError(str(error)) from None
        extra = sorted(set(data) - {"format", "variant", "options", "state"})
        if extra:
            raise PositionError(f"unknown field(s): {', '.join(extra)}")
        rules = _rules_of(data.get("variant"), data.get("options", {}))
        fields = data.get("state")
        if not isinstance(fields, dict):
            raise PositionError("state: expected an object")
        return cls(rules, _checked(rules, _state_from_fields(rules, fields)))

    @classmethod
    def from_json(cls, text: str | bytes) -> Position:
        """Read a position's JSON document, checking it fully.

        Raises:
            PositionError: Bad JSON or a bad position (see ``from_dict``).
        """
        try:
            data = load_json(text, MAX_POSITION_CHARS)
        except NotJSONError as error:
            raise PositionError(f"this is not a Pickomino position: {error}") from None
        except ValueError as error:
            raise PositionError(str(error)) from None
        return cls.from_dict(data)

    # -- the position line -----------------------------------------------------------------

    def __str__(self) -> str:
        rules, state = self.rules, self.state
        check_shape(rules, state)  # a malformed state has no line (InvalidStateError)
        fields = [
            _variant_field(rules),
            _tile_ranges(state.grill),
            _tile_list(state.face_down),
            "/".join(_tile_list(stack) for stack in state.stacks),
            f"{state.player}{_PHASE_LETTERS[state.phase]}",
            ",".join(map(str, state.in_hand)) or "-",
            "".join(face.symbol * n for face, n in zip(FACES, state.set_aside, strict=True)) or "-",
            "-" if state.roll is None else "+".join(str(state.roll).split()),
        ]
        for key, part in zip(rules.layout.parts, state.parts, strict=True):
            data = _unstructure_part(key, part, _TUPLES)
            fields.append(f"{key.name}={_compact(data)}")
        return " ".join(fields)

    @classmethod
    def parse(cls, text: str, rules: Rules | None = None) -> Position:
        """Read a position line, checking it fully.

        Args:
            text: The line, as ``str(position)`` writes it.
            rules: When given, the line must be of these rules (same variant and options).

        Raises:
            PositionError: A malformed line, unknown variant or option, a state that breaks
                the rules, or a line of other rules than ``rules``.
        """
        if not isinstance(text, str):
            raise PositionError(f"a position line is a string, got {type(text).__name__}")
        if len(text) > MAX_POSITION_CHARS:
            raise PositionError(f"a position line is at most {MAX_POSITION_CHARS:,} characters")
        fields = text.split()
        if len(fields) < 8:
            raise PositionError(f"a position line has at least 8 fields, got {len(fields)}")
        parsed = _parse_variant(fields[0])
        if rules is not None and (parsed.name, dict(parsed.options)) != (
            rules.name,
            dict(rules.options),
        ):
            raise PositionError(f"the line is of {brief(fields[0])}, not of {rules.name!r}")
        state = _parse_core(parsed, fields[1:8])
        state = state.replace(parts=_parse_parts(parsed, fields[8:]))
        return cls(parsed, _checked(parsed, state))


def _state_from_fields(rules: Rules, fields: dict[str, Any]) -> GameState:  # noqa: C901 (a check per field)
    expected = {
        "grill",
        "face_down",
        "stacks",
        "player",
        "phase",
        "in_hand",
        "set_aside",
        "roll",
        "parts",
    }
    if set(fields) != expected:
        missing, extra = sorted(expected - set(fields)), sorted(set(fields) - expected)
        raise PositionError(f"state: missing {missing or 'nothing'}, unknown {extra or 'nothing'}")

    def counts(name: str) -> tuple[int, ...]:
        value = fields[name]
        if not isinstance(value, list) or not all(_is_int(item) for item in value):
            raise PositionError(
                f"state.{name}: expected a list of whole numbers, got {brief(value)}"
            )
        return tuple(value)

    stacks = fields["stacks"]
    if not isinstance(stacks, list) or not all(isinstance(stack, list) for stack in stacks):
        raise PositionError(f"state.stacks: expected a list of lists, got {brief(stacks)}")
    if not _is_int(fields["player"]):
        raise PositionError(f"state.player: expected a whole number, got {brief(fields['player'])}")
    try:
        phase = Phase(fields["phase"])
    except ValueError:
        known = ", ".join(repr(phase.value) for phase in Phase)
        raise PositionError(f"state.phase: expected one of {known}") from None
    roll = fields["roll"]
    if roll is not None and not isinstance(roll, str):
        raise PositionError(f"state.roll: expected a roll's text or null, got {brief(roll)}")
    parts = fields["parts"]
    if not isinstance(parts, dict) or set(parts) != set(rules.part_index):
        names = ", ".join(rules.part_index) or "none"
        raise PositionError(f"state.parts: expected an object with the parts {names}")
    for index, stack in enumerate(stacks):
        if not all(_is_int(tile) for tile in stack):
            raise PositionError(f"state.stacks[{index}]: expected tile numbers, got {brief(stack)}")
    return GameState(
        grill=counts("grill"),
        face_down=counts("face_down"),
        stacks=tuple(tuple(stack) for stack in stacks),
        player=fields["player"],
        phase=phase,
        in_hand=counts("in_hand"),
        roll=None if roll is None else _parse_roll(rules, roll),
        set_aside=counts("set_aside"),
        parts=tuple(_structure_part(key, parts[key.name], _DICTS) for key in rules.layout.parts),
        layout=rules.layout,
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_roll(rules: Rules, text: str) -> RollOutcome:
    try:
        return RollOutcome.parse(text, tuple(kind.name for kind in rules.die_kinds))
    except InvalidRollError as error:
        raise PositionError(str(error)) from None


def _compact(data: object) -> str:
    # Compact JSON has spaces only inside strings; escaping them keeps the line splittable.
    return json.dumps(data, separators=(",", ":")).replace(" ", "\\u0020")


def _variant_field(rules: Rules) -> str:
    defaults = get_variant(rules.name).resolve_options()
    changed = {
        name: jsonable(value)
        for name, value in rules.options.items()
        if jsonable(value) != jsonable(defaults.get(name))
    }
    return rules.name + (_compact(changed) if changed else "")


def _parse_variant(field: str) -> Rules:
    name, brace, options = field.partition("{")
    chosen: object = {}
    if brace:
        try:
            chosen = load_json(brace + options, MAX_POSITION_CHARS)
        except ValueError as error:
            raise PositionError(
                f"variant field {brief(field)}: the options are not JSON: {error}"
            ) from None
    return _rules_of(name, chosen)


def _tile_list(tiles: tuple[int, ...]) -> str:
    return ",".join(map(str, tiles)) or "-"


def _tile_ranges(tiles: tuple[int, ...]) -> str:
    """``21-24,26`` for 21 22 23 24 26 (tiles are ascending), ``-`` for none."""
    return tile_ranges(tiles) or "-"


_NUMBER = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")
"""A number in a line: ASCII digits (``str.isdigit`` takes ``²`` too), at most ``MAX_DIGITS``."""


def _is_number(text: str) -> bool:
    return _NUMBER.fullmatch(text) is not None


def _numbers(field: str, what: str) -> tuple[int, ...]:
    if field == "-":
        return ()
    numbers: list[int] = []
    for item in field.split(","):
        low, dash, high = item.partition("-")
        if not _is_number(low) or (dash and not _is_number(high)):
            raise PositionError(f"{what}: {brief(field)} is not a list of numbers")
        if dash and not 0 < int(high) - int(low) <= _LONGEST_RANGE:
            raise PositionError(f"{what}: {brief(item)} is not a range of tiles")
        numbers.extend(range(int(low), int(high) + 1) if dash else [int(low)])
    return tuple(numbers)


def _parse_core(rules: Rules, fields: list[str]) -> GameState:
    grill, face_down, stacks, turn, in_hand, set_aside, roll = fields
    player, letter = turn[:-1], turn[-1:]
    if not _is_number(player) or letter not in _PHASES:
        raise PositionError(
            f"turn: expected a player and a phase letter (r c d t g), got {brief(turn)}"
        )
    faces = [0] * len(FACES)
    if set_aside != "-":
        for symbol in set_aside:
            if symbol not in "12345w":
                raise PositionError(f"set aside: {symbol!r} is not a face (1-5 or w)")
            faces["12345w".index(symbol)] += 1
    if in_hand != "-" and not all(_is_number(n) for n in in_hand.split(",")):
        raise PositionError(f"in hand: expected dice per kind, got {brief(in_hand)}")
    return GameState(
        grill=_numbers(grill, "grill"),
        face_down=_numbers(face_down, "face down"),
        stacks=tuple(_numbers(stack, "stacks") for stack in stacks.split("/")),
        player=int(player),
        phase=_PHASES[letter],
        in_hand=() if in_hand == "-" else tuple(int(n) for n in in_hand.split(",")),
        roll=None if roll == "-" else _parse_roll(rules, " ".join(roll.split("+"))),
        set_aside=tuple(faces),
        parts=(),
        layout=rules.layout,
    )


def _parse_parts(rules: Rules, fields: list[str]) -> tuple[object, ...]:
    given: dict[str, str] = {}
    for field in fields:
        name, equals, data = field.partition("=")
        if not equals or name in given:
            raise PositionError(f"part field {brief(field)}: expected one name=value per part")
        given[name] = data
    if set(given) != set(rules.part_index):
        names = ", ".join(rules.part_index) or "none"
        raise PositionError(f"parts: {rules.name} has the parts {names}, got {', '.join(given)}")
    parts = []
    for key in rules.layout.parts:
        try:
            document = load_json(given[key.name], MAX_POSITION_CHARS)
        except ValueError as error:
            raise PositionError(f"part {key.name!r}: {brief(given[key.name])}: {error}") from None
        parts.append(_structure_part(key, document, _TUPLES))
    return tuple(parts)
