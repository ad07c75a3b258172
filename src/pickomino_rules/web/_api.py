"""What the web app's JSON API answers: each endpoint a function from a request's data to JSON.

The server keeps nothing between requests. A game travels as its record (the library's
record JSON, the file ``pickomino play --save`` writes), a table as its position: each
request carries what it is about, and each answer carries it back with the next move
applied. Dice are rolled here, with the operating system's randomness, and every record
handed out is sealed (`pickomino_rules.web._seal`): a game is played on only from a record
whose seal checks, so a client cannot choose its dice by writing them into the record it
sends back. A record without this server's seal (saved by the library, changed, or sealed
by another server) is read only: it is viewed and analysed, never played on. The advisor,
which asks about a real table, enters the dice itself in the position.

Requests are bounded so that none takes more than about two seconds of one core: records
of at most `MAX_RECORD_MOVES` moves are read, at most `MAX_ANALYSED_MOVES` analysed a
request (a longer record in several, window after window), and the long loops
(analysing, the win chances) stop between turns once `CANCELLED` is set (the client went
away).

Everything a request names is data: a variant and bots are chosen among the registered
names only (never a ``module:function``), and records and positions are read by the
library's own strict readers.
"""

from __future__ import annotations

import json
import random
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import attrs

from pickomino_rules.bots import available_bots, bot_supports, get_bot
from pickomino_rules.dice import RollOutcome
from pickomino_rules.errors import PickominoError
from pickomino_rules.game import apply, is_terminal, legal_actions, parse_move, sample_chance
from pickomino_rules.positions import Position, PositionError
from pickomino_rules.records import GameRecord
from pickomino_rules.registry import available_variants, get_rules, get_variant
from pickomino_rules.result import result, scores
from pickomino_rules.state import Phase
from pickomino_rules.strict_json import jsonable
from pickomino_rules.svg import draw
from pickomino_rules.web._narration import described_moves, holdings, turn_log
from pickomino_rules.web._seal import current_seal

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Iterator

    from pickomino_rules.game import Move
    from pickomino_rules.rules import Rules
    from pickomino_rules.solver import TurnValue
    from pickomino_rules.state import GameState

__all__ = [
    "CANCELLED",
    "ENDPOINTS",
    "FIELDS",
    "MAX_ANALYSED_MOVES",
    "MAX_RECORD_MOVES",
    "Cancelled",
    "Endpoint",
    "RequestError",
    "analyse",
    "bot_move",
    "draw_position",
    "hand",
    "hint",
    "move",
    "new",
    "setup",
    "start",
    "undo",
    "view",
]

MAX_ANALYSED_MOVES = 750
"""The most moves (rolls included) one request analyses: a record is analysed in windows of
whole turns of at most this many moves (``start``, ``next``), as each turn is solved; the
slowest window this long (a 2-player game, whose decisions the win model values too) takes
about two seconds of one core (1,000 moves took 2.75 s)."""

MAX_RECORD_MOVES = 10_000
"""The longest record read (a game of people and bots has some 300 to 4,000 moves, of random
bots up to about 7,000): a record is replayed move by move, twice or so a request, and this
many moves take about a second and a half."""

CANCELLED: ContextVar[threading.Event | None] = ContextVar("CANCELLED", default=None)
"""Set by the server when the client of the request being answered went away."""

_TIE = 1e-9
"""Values this close are equal (the solver computes in float64): both moves are best."""

_DICE = random.SystemRandom()
"""Where a game's dice come from: nobody can seed or replay them."""


class Cancelled(Exception):  # noqa: N818 (a signal, not an error)
    """The client of the request went away: the work stops (nobody reads its answer)."""


def _checkpoint() -> None:
    """Stop here if the request's client went away (between turns of the long loops)."""
    gone = CANCELLED.get()
    if gone is not None and gone.is_set():
        raise Cancelled


class RequestError(ValueError):
    """A request the API refuses, with the HTTP status and a message for the person.

    Attributes:
        status: The HTTP status (4xx).
        problems: Where the request names a position the library found wrong, each problem
            and the part of the table it is about: ``{"field": ..., "message": ...}``, the
            field one of ``tiles``, ``turn``, ``dice``, ``part:NAME``, ``position``.
    """

    def __init__(
        self, message: str, status: int = 400, problems: tuple[dict[str, str], ...] = ()
    ) -> None:
        super().__init__(message)
        self.status = status
        self.problems = problems


_FIELD_OF = {  # what a problem's leading name is about, as the advisor's form shows it
    "grill": "tiles",
    "face_down": "tiles",
    "stacks": "tiles",
    "tiles": "tiles",
    "player": "turn",
    "phase": "turn",
    "dice": "dice",
    "in_hand": "dice",
    "set_aside": "dice",
    "roll": "dice",
}


def _field_of(problem: str) -> str:
    """The part of the table a position's problem (``"name: what is wrong"``) is about."""
    name = problem.split(":", 1)[0].removeprefix("state.").split("[", 1)[0].strip()
    if name.startswith("part "):
        return "part:" + name.removeprefix("part ").strip("'\"")
    return _FIELD_OF.get(name, "position")


@attrs.frozen
class Endpoint:
    """One call of the API: its path, the fields of its body, and what answers it.

    The body is checked to have exactly these fields before ``answer`` sees it; the same
    declaration describes the call in the OpenAPI document.
    """

    path: str
    answer: Callable[[dict[str, Any]], dict[str, Any]]
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()

    def __call__(self, data: object) -> dict[str, Any]:
        """The answer to a request's body ``data`` (JSON already read)."""
        return self.answer(_fields(data, self.required, self.optional))


FIELDS: dict[str, dict[str, Any]] = {
    "variant": {"type": "string", "description": "A registered variant's name."},
    "players": {"type": "integer", "description": "The number of players (2-7)."},
    "options": {
        "type": "object",
        "description": "Rule options by name (those not named keep their defaults).",
    },
    "seats": {
        "type": "array",
        "items": {"type": ["string", "null"]},
        "description": "Per seat, a registered bot's name, or null for a person.",
    },
    "names": {
        "type": ["array", "null"],
        "items": {"type": "string", "minLength": 1, "maxLength": 60},  # (records.MAX_NAME_CHARS)
        "uniqueItems": True,
        "description": "The players' names, one per seat, each once.",
    },
    "record": {
        "type": "object",
        "description": "A game's record: the JSON `pickomino play --save` writes.",
    },
    "move": {"type": "string", "description": "A legal move's text, as `legal` lists them."},
    "position": {
        "type": ["object", "string"],
        "description": "A position: its JSON (`format` pickomino_rules.position/1) or line.",
    },
    "start": {
        "type": "integer",
        "minimum": 0,
        "description": "The move to analyse from: 0, or the `next` of the last answer.",
    },
    "roll": {
        "type": ["string", "null"],
        "description": "The dice just rolled, one character a die (`1134455w golden:w`).",
    },
}
"""Each field a request's body may have, as a JSON schema (the OpenAPI document's)."""


def _fields(
    data: object, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    """``data`` as an object with exactly these fields (the optional ones may be missing)."""
    if not isinstance(data, dict):
        raise RequestError("the request's body is a JSON object")
    unknown = sorted(set(data) - {*required, *optional})
    if unknown:
        raise RequestError(
            f"unknown field {unknown[0]!r}; the fields: {', '.join((*required, *optional))}"
        )
    missing = [name for name in required if name not in data]
    if missing:
        raise RequestError(f"missing field {missing[0]!r}")
    return data


def _record(data: object, limit: int = MAX_RECORD_MOVES) -> tuple[GameRecord, bool]:
    """The record ``data`` read and replayed, and whether it carries this server's seal.

    Records longer than ``limit`` moves are refused before a move is read.
    """
    moves = data.get("moves") if isinstance(data, dict) else None
    if isinstance(moves, list) and len(moves) > limit:
        raise RequestError(f"record: {len(moves):,} moves; at most {limit:,} are read here", 413)
    try:
        record = GameRecord.from_json(json.dumps(data))
    except PickominoError as error:
        raise RequestError(_record_problem(str(error))) from None
    return record, current_seal().verifies(record)


_NOT_A_RECORD = "this is not a Pickomino game record"


def _record_problem(problem: str) -> str:
    """What the library found wrong with a record, as one sentence for the person.

    A file that is no game record at all says so by itself ("This file is not a Pickomino
    game record: it is a Pickomino position"); any other problem names the field.
    """
    if problem.startswith(_NOT_A_RECORD):
        return "This file is not a Pickomino game record" + problem.removeprefix(_NOT_A_RECORD)
    return f"record: {problem}"


def _dealt(data: object) -> GameRecord:
    """The record ``data``, which must carry this server's seal: a game to play on."""
    record, sealed = _record(data)
    if not sealed:
        raise RequestError(
            "record: its dice were not rolled by this server, or it was changed since (a game "
            "saved by the library, or by a server restarted with a new key): it can be viewed "
            "and analysed here, and played on at the terminal (pickomino play --resume)",
            409,
        )
    return record


def _position(data: object) -> Position:
    try:
        if isinstance(data, str):
            return Position.parse(data)
        return Position.from_dict(data)
    except PositionError as error:
        problems = tuple({"field": _field_of(p), "message": p} for p in error.problems)
        raise RequestError(f"position: {error}", problems=problems) from None
    except PickominoError as error:
        raise RequestError(f"position: {error}") from None


def _bot_name(name: object, rules: Rules, players: int) -> str:
    """A registered bot's name that plays this game (never an import path)."""
    if not isinstance(name, str) or name not in available_bots():
        shown = json.dumps(name)[:40]
        raise RequestError(f"no bot {shown}; the bots: {', '.join(available_bots())}")
    if not bot_supports(get_bot(name), rules, players):
        raise RequestError(f"the bot {name} does not play {players}-player {rules.name}")
    return name


def setup() -> dict[str, Any]:
    """The variants (options, numbers of players) and the bots, with the games each plays.

    A bot's ``plays``: by variant, the numbers of players it plays with the default options.
    """
    games = {name: get_rules(name) for name in available_variants()}
    variants = [
        {
            "name": name,
            "about": get_variant(name).doc.strip().split("\n", 1)[0],
            "players": [rules.components.min_players, rules.components.max_players],
            "options": [
                {"name": o.name, "default": jsonable(o.default), "about": o.doc, "rule": o.rule}
                for o in get_variant(name).options
            ],
        }
        for name, rules in games.items()
    ]
    bots = []
    for name in available_bots():
        bot = get_bot(name)
        plays = {
            variant: [
                players
                for players in range(rules.components.min_players, rules.components.max_players + 1)
                if bot_supports(bot, rules, players)
            ]
            for variant, rules in games.items()
        }
        bots.append({"name": name, "about": _about(bot), "plays": plays})
    return {"variants": variants, "bots": bots}


def _about(bot: object) -> str:
    doc = getattr(bot, "__doc__", None) or ""
    return doc.strip().split("\n", 1)[0]


def _started(body: dict[str, Any]) -> GameRecord:
    """The record of a game not yet begun: ``variant``, ``players``, ``options``."""
    variant, players = body["variant"], body["players"]
    if not isinstance(variant, str) or variant not in available_variants():
        known = ", ".join(available_variants())
        raise RequestError(f"no variant {json.dumps(variant)[:40]}; the variants: {known}")
    if isinstance(players, bool) or not isinstance(players, int):
        raise RequestError(f"players: a whole number, got {json.dumps(players)[:40]}")
    options = body.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RequestError("options: an object of option names and values")
    try:
        return GameRecord.start(variant, players, options)
    except PickominoError as error:
        raise RequestError(str(error)) from None


def new(body: dict[str, Any]) -> dict[str, Any]:
    """A new game: ``variant``, ``players``, ``options``, ``seats`` (a bot per seat or null)."""
    record = _started(body)
    players = record.players
    seats = body.get("seats")
    if seats is None:
        seats = [None, *["greedy"] * (players - 1)]
    if not isinstance(seats, list) or len(seats) != players:
        raise RequestError(f"seats: a list of {players} entries, a bot's name or null for a person")
    rules = record.rules
    bots = tuple(None if seat is None else _bot_name(seat, rules, players) for seat in seats)
    names = body.get("names")
    if names is not None and (
        not isinstance(names, list) or not all(isinstance(name, str) for name in names)
    ):
        raise RequestError(f"names: a list of {players} names (strings), or null")
    try:
        record = record.seated(names, bots)
    except PickominoError as error:
        raise RequestError(str(error)) from None
    return _answer(*_rolled(record))


def view(body: dict[str, Any]) -> dict[str, Any]:
    """The game of ``record``: the table, whose turn, the legal moves (dice rolled if due).

    A record without this server's seal is shown as it is, read only: no dice are rolled
    for it and ``sealed`` is false (moves on it are refused).
    """
    record, sealed = _record(body["record"])
    if not sealed:
        return _answer(record, sealed=False)
    return _answer(*_rolled(record))


def move(body: dict[str, Any]) -> dict[str, Any]:
    """Play ``move`` (its text, as ``legal`` lists it) for the player to move, then the dice."""
    record = _dealt(body["record"])
    rules, state = record.rules, record.final_state()
    chosen = _legal(rules, state, body["move"])
    return _answer(*_rolled(record.extended([chosen]), after=apply(rules, state, chosen)))


def bot_move(body: dict[str, Any]) -> dict[str, Any]:
    """The seated bot of the player to move plays one decision, then the dice."""
    record = _dealt(body["record"])
    rules, state = record.rules, record.final_state()
    if is_terminal(rules, state):
        raise RequestError("the game is over", 409)
    bot = (record.bots or (None,) * record.players)[state.player]
    if bot is None:
        raise RequestError(f"player {state.player} is a person: no bot plays for them", 409)
    name = _bot_name(bot, rules, record.players)
    chosen = get_bot(name)(rules, state, random.Random(_DICE.getrandbits(64)))
    answer = _answer(*_rolled(record.extended([chosen]), after=apply(rules, state, chosen)))
    answer["played"] = str(chosen)
    return answer


def undo(body: dict[str, Any]) -> dict[str, Any]:
    """Take back the moves since the last decision of a person (their own included).

    The moves kept were dealt with the record: sealed if it was, read only if not.
    """
    record, sealed = _record(body["record"])
    states = record.states()
    bots = record.bots or (None,) * record.players
    for index in range(len(record.moves) - 1, -1, -1):
        state = states[index]
        if state.phase is not Phase.ROLL and bots[state.player] is None:
            return _answer(attrs.evolve(record, moves=record.moves[:index]), sealed=sealed)
    raise RequestError("nothing to take back: no person has moved yet", 409)


def hint(body: dict[str, Any]) -> dict[str, Any]:
    """Every legal move of ``position``, best first, with its expected worms this turn.

    Beside each, where a win model is shipped for the game, the champion's chance to win the
    game after it (playing the rest of the turn for the game). Each move says whether it is
    ``best`` (the most expected worms this turn) and ``best_for_game`` (the best chance to
    win), as ``pickomino play``'s hint marks them: the two can differ. ``roll``, optional:
    the dice just rolled (``"1134455w"``), for a position waiting for them.
    """
    position = _position(body["position"])
    rules, state = position.rules, position.state
    if body.get("roll") is not None:
        state = _rolled_by_hand(rules, state, body["roll"])
        position = Position(rules, state)
    from pickomino_rules.solver import NoTurnDecisionError, UnsolvableRulesError, solve_turn  # noqa: PLC0415

    try:
        worms = solve_turn(rules, state).action_values()
    except NoTurnDecisionError:
        raise RequestError(
            "no decision of a turn to value here (the dice are to be rolled, or the game is over)",
            409,
        ) from None
    except UnsolvableRulesError as error:
        raise RequestError(f"no hint in these rules: {error}", 409) from None
    chances = _chances(rules, state)
    ranked = sorted(worms, key=lambda m: (-worms[m], -chances.get(m, 0.0), str(m)))
    top, top_win = max(worms.values()), max(chances.values(), default=None)
    moves = [
        {
            "move": str(m),
            "worms": worms[m],
            "win": chances.get(m),
            "best": worms[m] >= top - _TIE,
            "best_for_game": top_win is not None and chances.get(m, -1.0) >= top_win - _TIE,
        }
        for m in ranked
    ]
    return {
        "position": position.to_dict(),
        "line": str(position),
        "svg": str(draw(rules, state)),
        "moves": moves,
    }


def draw_position(body: dict[str, Any]) -> dict[str, Any]:
    """The picture of ``position`` (SVG), its line and its JSON, and the kinds of dice.

    ``names``, optional: the players' names to draw (a game's, at a decision analysed).
    """
    return _table(_position(body["position"]), body.get("names"))


def start(body: dict[str, Any]) -> dict[str, Any]:
    """The table at the start of a game: ``variant``, ``players``, ``options`` (a position)."""
    record = _started(body)
    return _table(Position(record.rules, record.final_state()))


def _table(position: Position, names: object = None) -> dict[str, Any]:
    rules = position.rules
    players = position.state.players
    if names is not None and (
        not isinstance(names, list)
        or len(names) != players
        or not all(isinstance(name, str) for name in names)
    ):
        raise RequestError(f"names: a list of {players} names (strings), or null")
    return {
        "position": position.to_dict(),
        "line": str(position),
        "svg": str(draw(rules, position.state, names)),
        "kinds": [kind.name for kind in rules.die_kinds],
        "tiles": {str(tile): rules.worms_of(tile) for tile in rules.tiles},
        # for the advisor: what each part and specialist does (the rule modules' guides),
        # and the dice the player to move starts a turn with (in hand = these - set aside)
        "guides": {module.name: module.guide for module in rules.modules if module.guide},
        "turn_dice": list(rules.turn_dice(rules, position.state)),
    }


def hand(body: dict[str, Any]) -> dict[str, Any]:
    """The dice in hand of ``position`` that follow its dice set aside (the advisor's).

    They are the dice its player to move starts a turn with (the golden die's owner rolls
    it too), less the dice set aside, white ones first; ``turn_dice``: those dice. The
    position may be wrong in its dice in hand, and only there (a player or a specialist
    changed): it is read with each possible hand.
    """
    data = body["position"]
    if not isinstance(data, (str, dict)):
        raise RequestError("position: a position's JSON (an object) or its line (a string)")
    if isinstance(data, str):
        data = _position(data).to_dict()
    state = data.get("state") if isinstance(data, dict) else None
    set_aside = state.get("set_aside") if isinstance(state, dict) else None
    if (
        not isinstance(state, dict)
        or not isinstance(set_aside, list)
        or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in set_aside)
    ):
        message = "set aside: a count of dice for each face (1 to 5 and the worm)"
        raise RequestError(message, problems=({"field": "dice", "message": message},))
    try:
        rules = get_variant(data["variant"]).rules(data.get("options") or {})
    except (PickominoError, KeyError, TypeError):
        _position(data)  # the library says what is wrong with it
        raise RequestError("position: no game of this variant and options") from None
    kept = sum(set_aside)
    for dice in (rules.components.dice, rules.most_dice):  # the turn's dice, some kind or other
        try:
            found = Position.from_dict({**data, "state": {**state, "in_hand": _less(dice, kept)}})
        except PickominoError:
            continue
        turn = rules.turn_dice(rules, found.state)
        return {"in_hand": _less(turn, kept), "turn_dice": list(turn)}
    position = _position(data)  # no hand makes it right: the library says what else is wrong
    turn = rules.turn_dice(rules, position.state)
    return {"in_hand": list(position.state.in_hand), "turn_dice": list(turn)}


def _less(dice: tuple[int, ...], kept: int) -> list[int]:
    """``dice`` per kind less ``kept`` dice, taken from the first kind (white) first."""
    left = []
    for count in dice:
        taken = min(count, kept)
        kept -= taken
        left.append(count - taken)
    return left


def analyse(body: dict[str, Any]) -> dict[str, Any]:
    """The decisions of ``record`` from move ``start`` on, valued, and the chances to win.

    A record is analysed in windows of at most `MAX_ANALYSED_MOVES` moves (whole turns),
    so that no request solves more than that: ``start`` (optional, 0 by default) is the
    first move of the window, ``next`` in the answer the ``start`` of the next window (null
    after the last). The turns and chances are numbered as in the whole game, so the
    windows' decisions and chances, put end to end, are those of the whole record.

    A decision: its player, turn, the move played, the position it was made in, and the move
    played valued against two objectives, each with its own best move, cost and mistake:
    this turn's expected worms (``best``, ``cost``, ``mistake``) and, where a win model ships
    for the game, the champion's chance to win the game (``best_for_game``, ``win``, the
    chance after the move played, ``chance_cost``, ``game_mistake``). The chances of
    ``chances`` come from that model at the start of each turn of the window (and at the
    end of the game, in the last window).
    """
    record, _ = _record(body["record"])  # read only: any record is analysed
    from pickomino_rules.analysis import analyse as analyse_moves  # noqa: PLC0415 (numpy)
    from pickomino_rules.solver import UnsolvableRulesError  # noqa: PLC0415

    states = record.states()  # replaying is cheap beside solving
    first, end, turns_before = _window(states, body.get("start", 0))
    rules = record.rules
    try:
        chances = _champion_value(rules, record.players)
        moves = _checked_moves(rules, record.moves[first:end])
        analysis = analyse_moves(rules, states[first], moves, chances=chances)
    except UnsolvableRulesError as error:
        raise RequestError(f"no analysis in these rules: {error}", 409) from None
    except PickominoError as error:  # the record replayed when read: not expected here
        raise RequestError(f"record: {error}") from None
    decisions = [
        {
            "turn": d.turn + turns_before,
            "player": d.player,
            "played": d.played,
            "best": d.best,
            "cost": d.cost,
            "mistake": d.mistake,
            "best_for_game": d.best_for_game,
            "win": d.chances.get(d.played),
            "chance_cost": d.chance_cost,
            "game_mistake": d.chance_mistake,
            "line": str(Position(rules, d.state)),
        }
        for d in analysis.decisions
        if d.valued
    ]
    return {
        "names": record.seat_names(),
        "decisions": decisions,
        "chances": _turn_chances(rules, states, first, end),
        "next": end if end < len(record.moves) else None,
    }


def _window(states: list[GameState], start: object) -> tuple[int, int, int]:
    """The moves ``[first, end)`` analysed from ``start``, and the turns played before it.

    A turn starts where the player to move changes (as `analysis.analyse` numbers them);
    the window ends at the last turn's start within `MAX_ANALYSED_MOVES` moves (or the
    record's end), so no turn is split.
    """
    count = len(states) - 1
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= count:
        raise RequestError(f"start: a move's index, 0 to {count:,} (the answer's next)")
    starts = [i for i in range(1, count) if states[i].player != states[i - 1].player]
    if start and start < count and start not in starts:
        raise RequestError(
            f"start: move {start:,} is not a turn's first (ask for the answer's next)"
        )
    if count - start <= MAX_ANALYSED_MOVES:
        end = count
    else:
        within = [i for i in starts if start < i <= start + MAX_ANALYSED_MOVES]
        later = [i for i in starts if i > start]
        end = within[-1] if within else (later[0] if later else count)  # a turn, whole
    return start, end, sum(i <= start for i in starts)


def _champion_value(rules: Rules, players: int) -> TurnValue | None:
    """The champion's chance to win as a turn value, where a model is shipped for the game."""
    from pickomino_rules.learned import shipped_win_model  # noqa: PLC0415 (numpy)

    model = shipped_win_model(rules, players)
    return None if model is None else model.champion_value()


def _turn_chances(
    rules: Rules, states: list[GameState], first: int, end: int
) -> list[dict[str, Any]]:
    """Each player's chance to win (the model's) at each turn's start in moves ``[first, end)``.

    And at the end of the game when ``end`` is the record's end. The turns are counted
    from the game's start.
    """
    from pickomino_rules.learned import shipped_win_model  # noqa: PLC0415 (numpy)

    model = shipped_win_model(rules, states[0].players)
    if model is None:
        return []
    found, turn, before = [], 0, None
    last = len(states) - 1
    for index, state in enumerate(states[: end + 1 if end == last else end]):
        over = is_terminal(rules, state)
        starts = state.phase is Phase.ROLL and not any(state.set_aside) and state.player != before
        if starts or over:
            turn += not over
            before = state.player
            if index >= first:
                _checkpoint()
                found.append(
                    {"turn": turn, "chances": model.win_probabilities(rules, state).tolist()}
                )
    return found


def _checked_moves(rules: Rules, moves: tuple[str, ...]) -> Iterator[Move]:
    """The moves ``moves`` read one at a time, stopping if the client went away."""
    for text in moves:
        _checkpoint()
        yield parse_move(rules, text)


def _rolled_by_hand(rules: Rules, state: GameState, text: object) -> GameState:
    """``state`` after the dice ``text`` says were rolled (the advisor at a real table)."""
    if state.phase is not Phase.ROLL:
        raise RequestError("roll: the position is not waiting for dice (its roll is in it)")
    if not isinstance(text, str):
        raise RequestError("roll: the dice as text, one character a die (1134455w)")
    try:
        outcome = RollOutcome.parse(text.strip(), tuple(kind.name for kind in rules.die_kinds))
        return apply(rules, state, outcome)
    except (PickominoError, ValueError) as error:
        message = f"roll: {error}"
        raise RequestError(message, problems=({"field": "dice", "message": message},)) from None


def _chances(rules: Rules, state: GameState) -> dict[Move, float]:
    from pickomino_rules.learned import champion_chances  # noqa: PLC0415 (numpy)

    return champion_chances(rules, state) or {}


def _legal(rules: Rules, state: GameState, text: object) -> Move:
    if is_terminal(rules, state):
        raise RequestError("the game is over", 409)
    if not isinstance(text, str):
        raise RequestError("move: the text of a legal move, as the view lists them")
    try:
        chosen = parse_move(rules, text)
    except (PickominoError, ValueError) as error:
        raise RequestError(f"move: {error}") from None
    if chosen not in legal_actions(rules, state):
        legal = ", ".join(str(a) for a in legal_actions(rules, state))
        raise RequestError(f"move: {text.strip()} is not legal now; legal: {legal}", 409)
    return chosen


def _rolled(record: GameRecord, after: GameState | None = None) -> tuple[GameRecord, GameState]:
    """``record`` with the dice rolled wherever they are to be rolled next, and its state.

    ``after``: the state ``record`` ends in, where the caller has it (a replay saved).
    """
    rules = record.rules
    state = record.final_state() if after is None else after
    rolls = []
    while state.phase is Phase.ROLL:
        outcome = sample_chance(rules, state, _DICE)
        rolls.append(outcome)
        state = apply(rules, state, outcome)
    return (record.extended(rolls) if rolls else record), state


def _answer(
    record: GameRecord, state: GameState | None = None, *, sealed: bool = True
) -> dict[str, Any]:
    """The answer about ``record``, whose final state is ``state`` where the caller has it.

    ``sealed``: the record is sealed with this server's key (a game it dealt); else it is
    answered as it came, read only.
    """
    if sealed:
        record = current_seal().sealed(record)
    rules = record.rules
    state = record.final_state() if state is None else state
    position = Position(rules, state)
    over = is_terminal(rules, state)
    bots = record.bots or (None,) * record.players
    names = record.seat_names()
    legal = [] if over or state.phase is Phase.ROLL else legal_actions(rules, state)
    return {
        "record": json.loads(record.to_json()),
        "sealed": sealed,
        "view": {
            "position": position.to_dict(),
            "line": str(position),
            "svg": str(draw(rules, state, names)),
            "text": str(state),
            "names": names,
            "bots": list(bots),
            "player": state.player,
            "phase": state.phase.value,
            "over": over,
            "scores": list(scores(rules, state)),
            "winners": list(result(rules, state).winners) if over else [],
            # dice due: a read-only record waits for them
            "legal": [str(action) for action in legal],
            "moves": described_moves(rules, state, names, legal),
            "log": turn_log(record),
            "parts": holdings(rules, state, names),
        },
    }


ENDPOINTS = (
    Endpoint("/api/new", new, ("variant", "players"), ("options", "seats", "names")),
    Endpoint("/api/view", view, ("record",)),
    Endpoint("/api/move", move, ("record", "move")),
    Endpoint("/api/bot", bot_move, ("record",)),
    Endpoint("/api/undo", undo, ("record",)),
    Endpoint("/api/hint", hint, ("position",), ("roll",)),
    Endpoint("/api/start", start, ("variant", "players"), ("options",)),
    Endpoint("/api/draw", draw_position, ("position",), ("names",)),
    Endpoint("/api/hand", hand, ("position",)),
    Endpoint("/api/analyse", analyse, ("record",), ("start",)),
)
"""The API's calls that take a body (``POST``, JSON), in the order the docs list them."""
