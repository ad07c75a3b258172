"""Game records: a whole game as JSON, validated on load and replayed exactly.

A record holds the variant, its options, the players, the first player, the seed
(if the game was seeded) and every move in text form, chance outcomes included,
so it replays without any randomness. Loading checks the JSON's shape with cattrs
and then replays every move: any problem raises [`RecordError`][pickomino_rules.records.RecordError]
naming the place (``"move 37: ..."``); nothing half-built is ever returned.

Examples:
    >>> from pickomino_rules.bots import greedy_bot
    >>> from pickomino_rules.records import GameRecord
    >>> record = GameRecord.play("classic", players=2, bots=greedy_bot, seed=7)
    >>> text = record.to_json()
    >>> again = GameRecord.from_json(text)
    >>> again == record and again.final_state() == record.final_state()
    True
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import cattrs
from cattrs.v import format_exception

from pickomino_rules.errors import InvalidOptionError, PickominoError, brief, excerpt
from pickomino_rules.files import AtomicWriter, SaveError, check_save_target
from pickomino_rules.game import MAX_GAME_MOVES, apply, new_game, parse_move, playout
from pickomino_rules.positions import Position
from pickomino_rules.registry import get_variant
from pickomino_rules.strict_json import (
    NotJSONError,
    format_problem,
    jsonable,
    load_json,
    make_json_converter,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

    from pickomino_rules.game import Bot, Move
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = [
    "FORMAT",
    "MAX_MOVES",
    "MAX_MOVE_CHARS",
    "MAX_NAME_CHARS",
    "MAX_RECORD_BYTES",
    "GameRecord",
    "RecordError",
    "RecordOptionError",
    "SaveError",
    "check_save_target",
    "load_record",
    "save_record",
]

FORMAT = "pickomino_rules.record/1"
"""Marks a JSON document as a game record, and its layout version."""

MAX_RECORD_BYTES = 4_000_000
"""Largest record read (a game of greedy bots takes a few kilobytes)."""

MAX_MOVES = MAX_GAME_MOVES
"""Most moves a record may hold (random games take a few thousand): the limit on a game's length."""

MAX_MOVE_CHARS = 100
"""Longest text of one move."""

MAX_NAME_CHARS = 60
"""Longest player's or bot's name in a record."""


class RecordError(PickominoError, ValueError):
    """A game record that cannot be read or does not replay; the message says where."""


class RecordOptionError(RecordError, InvalidOptionError):
    """A record whose options its variant refuses: unknown, or outside an option's range."""


def _library_version() -> str:
    from pickomino_rules import __version__  # noqa: PLC0415 (the package imports this module)

    return __version__


@attrs.frozen
class GameRecord:
    """A whole game: set-up and every move, chance outcomes included.

    Attributes:
        variant: Name of a registered variant.
        players: Number of players.
        options: Every option of the variant, as JSON values.
        first_player: The player who started.
        seed: The seed of the game's ``random.Random``, if it had one (informative).
        moves: Every move's text form, in order.
        position: The [position line][pickomino_rules.positions] the game starts from, or
            None for a new game (then ``first_player`` begins).
        library: Version of pickomino_rules that wrote the record.
        format: Always [`FORMAT`][pickomino_rules.records.FORMAT].
        names: The players' names by seat, if given (records written before 0.2 have none).
        bots: The bot that played each seat, by name, with None for a person; None when
            not recorded.
    """

    variant: str
    players: int
    options: dict[str, Any]
    first_player: int
    seed: int | None
    moves: tuple[str, ...]
    library: str
    format: str = FORMAT
    position: str | None = None
    names: tuple[str, ...] | None = None
    bots: tuple[str | None, ...] | None = None

    def __attrs_post_init__(self) -> None:
        for field, seats in (("names", self.names), ("bots", self.bots)):
            if seats is None:
                continue
            if len(seats) != self.players:
                msg = f"{field}: {len(seats)} given for {self.players} players"
                raise RecordError(msg)
            for seat, value in enumerate(seats):
                if value is None and field == "bots":
                    continue
                if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME_CHARS:
                    shown = excerpt(value) if isinstance(value, str) else brief(value)
                    msg = f"{field}[{seat}]: 1 to {MAX_NAME_CHARS} characters, got {shown}"
                    raise RecordError(msg)
        if self.names is not None and len(set(self.names)) != len(self.names):
            msg = "names: two seats have the same name"
            raise RecordError(msg)

    def seated(
        self, names: Iterable[str] | None = None, bots: Iterable[str | None] | None = None
    ) -> GameRecord:
        """A copy that says who sat where: the players' names and each seat's bot.

        Raises:
            RecordError: Not one per seat, an empty or over-long name, or a name twice.
        """
        return attrs.evolve(
            self,
            names=None if names is None else tuple(names),
            bots=None if bots is None else tuple(bots),
        )

    def seat_names(self) -> list[str]:
        """Each seat's name: the recorded names, else ``"player N"`` (with the bot's name)."""
        if self.names is not None:
            return list(self.names)
        bots = self.bots or (None,) * self.players
        return [f"player {seat}" + (f" ({bot})" if bot else "") for seat, bot in enumerate(bots)]

    @classmethod
    def start(
        cls,
        variant: str = "classic",
        players: int = 2,
        options: Mapping[str, object] | None = None,
        first_player: int = 0,
        seed: int | None = None,
    ) -> GameRecord:
        """An empty record of a new game (the set-up is checked at once).

        Raises:
            RecordError: Unknown variant, bad option, players or first player.
        """
        try:
            resolved = get_variant(variant).resolve_options(options)
            new_game(variant, players=players, options=options, first_player=first_player)
        except InvalidOptionError as error:
            raise RecordOptionError(f"set-up: {error}") from None
        except PickominoError as error:
            raise RecordError(f"set-up: {error}") from None
        options_json = {name: jsonable(value) for name, value in resolved.items()}
        return cls(variant, players, options_json, first_player, seed, (), _library_version())

    @classmethod
    def from_position(cls, position: Position, seed: int | None = None) -> GameRecord:
        """An empty record of a game that starts from ``position`` (a mid-game state).

        Raises:
            RecordError: The position's rules are not those of a registered variant.

        Examples:
            >>> from pickomino_rules.positions import Position
            >>> position = Position.parse("classic 21-29,31-35 36 -/30 1r 8 - -")
            >>> record = GameRecord.from_position(position).extended(["12345www"])
            >>> str(record.final_state().roll)
            '12345www'
        """
        rules, state = position.rules, position.state
        record = cls.start(rules.name, state.players, dict(rules.options), state.player, seed)
        return attrs.evolve(record, position=str(position))

    @classmethod
    def play(  # noqa: PLR0913 (the set-up of a game)
        cls,
        variant: str = "classic",
        players: int = 2,
        *,
        bots: Bot | list[Bot] | None = None,
        seed: int = 0,
        options: Mapping[str, object] | None = None,
        first_player: int = 0,
    ) -> GameRecord:
        """Play a whole seeded game with ``bots`` (greedy by default) and record it."""
        from pickomino_rules.bots import greedy_bot  # noqa: PLC0415 (bots import records' users)

        record = cls.start(variant, players, options, first_player, seed)
        rules, state = record.initial()
        moves = playout(rules, state, bots or greedy_bot, random.Random(seed))
        return record.extended(move for move, _ in moves)

    def extended(self, moves: Iterable[Move | str]) -> GameRecord:
        """A copy with ``moves`` appended (moves or their text forms; not checked here)."""
        return attrs.evolve(self, moves=(*self.moves, *map(str, moves)))

    @property
    def rules(self) -> Rules:
        """The record's composed rules, an attribute as `Position.rules` is.

        It was a method before 0.2: ``record.rules()`` still answers, with a
        `DeprecationWarning`.

        Raises:
            RecordError: Unknown variant or bad options.
        """
        try:
            return get_variant(self.variant).rules(self.options)
        except InvalidOptionError as error:
            raise RecordOptionError(f"options: {error}") from None
        except PickominoError as error:
            field = "variant" if isinstance(error, LookupError) else "options"
            raise RecordError(f"{field}: {error}") from None

    def initial(self) -> tuple[Rules, GameState]:
        """The rules and the first state of the recorded game.

        Raises:
            RecordError: The set-up is invalid.
        """
        rules = self.rules
        if self.position is not None:
            try:
                state = Position.parse(self.position, rules).state
            except PickominoError as error:
                raise RecordError(f"position: {error}") from None
            if state.players != self.players:
                msg = f"position: {state.players} players, the record says {self.players}"
                raise RecordError(msg)
            return rules, state
        try:
            return rules, new_game(rules, players=self.players, first_player=self.first_player)[1]
        except PickominoError as error:
            raise RecordError(f"set-up: {error}") from None

    def replay(self) -> Iterator[GameState]:
        """Every state of the game, the initial one first, one at a time; checks every move.

        Raises:
            RecordError: A move that cannot be read or is illegal (``"move N: ..."``,
                counting from 1).
        """
        rules, state = self.initial()
        yield state
        for number, text in enumerate(self.moves, start=1):
            if len(text) > MAX_MOVE_CHARS:
                msg = f"move {number}: {excerpt(text)} is longer than {MAX_MOVE_CHARS} characters"
                raise RecordError(msg)
            try:
                state = apply_text(rules, state, text)
            except (PickominoError, ValueError) as error:
                raise RecordError(f"move {number} ({excerpt(text)}): {error}") from None
            yield state

    def states(self) -> list[GameState]:
        """Every state of the game, the initial one first (see ``replay``).

        Raises:
            RecordError: A move that cannot be read or is illegal.
        """
        return list(self.replay())

    def final_state(self) -> GameState:
        """The state after the last move; every move is checked on the way, in bounded memory.

        Raises:
            RecordError: A move that cannot be read or is illegal.
        """
        state = None
        for state in self.replay():  # noqa: B007 (keeps the last)
            pass
        assert state is not None  # noqa: S101 (replay yields the initial state)
        return state

    def to_json(self, indent: int | None = 2) -> str:
        """The record as a JSON document."""
        return json.dumps(_CONVERTER.unstructure(self), indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read and fully check a record: its shape, its set-up and every move.

        Raises:
            RecordError: Bad JSON, a missing or extra field, a wrong type, an unknown
                variant or option, or an illegal move; the message says where. Text that
                is no record at all (a position, other JSON, not JSON) is said to be
                that: "this is not a Pickomino game record: it is a Pickomino position".
        """
        return cls._read(text, "this")

    @classmethod
    def _read(cls, text: str | bytes, subject: str) -> GameRecord:
        """``from_json``, with the text called ``subject`` ("this file") where it is no record."""
        try:
            data = load_json(text, MAX_RECORD_BYTES)
        except NotJSONError as error:
            raise RecordError(f"{subject} is not a Pickomino game record: {error}") from None
        except ValueError as error:
            raise RecordError(str(error)) from None
        problem = format_problem(data, FORMAT, subject)
        if problem is not None:
            raise RecordError(problem)
        assert isinstance(data, dict)  # noqa: S101 (format_problem checked it)
        moves = data.get("moves")
        if isinstance(moves, list) and len(moves) > MAX_MOVES:
            raise RecordError(f"moves: {len(moves):,} moves, more than the limit of {MAX_MOVES:,}")
        try:
            record = _CONVERTER.structure(data, cls)
        except cattrs.BaseValidationError as error:
            details = "; ".join(
                cattrs.transform_error(error, path="record", format_exception=_problem)
            )
            raise RecordError(_cut(details)) from None
        record.final_state()
        return record


def apply_text(rules: Rules, state: GameState, text: str) -> GameState:
    """Parse a move's text and apply it (errors name the rule, see ``apply``)."""
    return apply(rules, state, parse_move(rules, text))


def _structure_moves(value: object, _type: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        msg = "moves must be a list of strings"
        raise TypeError(msg)
    return tuple(value)


def _make_converter() -> cattrs.Converter:
    converter = make_json_converter()
    converter.register_structure_hook_func(lambda kind: kind == tuple[str, ...], _structure_moves)
    return converter


_CONVERTER = _make_converter()


def _problem(error: BaseException, kind: type | None) -> str:
    """The record's own words where it checked the value, else cattrs' words."""
    return str(error) if isinstance(error, RecordError) else format_exception(error, kind)


def _cut(message: str, length: int = 250) -> str:
    return message if len(message) <= length else message[: length - 1] + "…"


def save_record(record: GameRecord, path: str | Path) -> None:
    """Write ``record`` to ``path`` as JSON, atomically.

    The record is written to a temporary file in the same folder, flushed to disk and then
    moved over ``path`` (``os.replace``), so a failed save (a full disk, a size limit, an
    interrupt) leaves any earlier file at ``path`` whole.

    Raises:
        SaveError: The record cannot be written there; nothing at ``path`` changed.
    """
    text = record.to_json() + "\n"
    with AtomicWriter(path) as file:
        file.write(text)


def load_record(path: str | Path) -> GameRecord:
    """Read and fully check the record at ``path``.

    Raises:
        RecordError: The file cannot be read, or the record is invalid.
    """
    try:
        with Path(path).open("rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)  # stops early: memory stays bounded
    except OSError as error:
        raise RecordError(f"cannot read {_path(path)}: {error.strerror or error}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{_path(path)}: larger than the limit of {MAX_RECORD_BYTES:,} bytes")
    try:
        return GameRecord._read(data, "this file")  # noqa: SLF001 (the class's own reader)
    except RecordError as error:
        raise RecordError(f"{_path(path)}: {error}") from None


def _path(path: str | Path) -> str:
    """A file's path as a message shows it: whole when short, else abbreviated."""
    text = str(path)
    return text if len(text) <= 80 else brief(text, 80)
