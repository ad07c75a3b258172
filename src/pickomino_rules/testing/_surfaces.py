"""The library's surfaces over a variant: round trips, the encoding, facts and refusals.

Moves and records read back from their text, the encoding and the game's declared facts hold,
illegal moves and bad arguments are refused.
"""

from __future__ import annotations

import copy
import math
import random
from typing import TYPE_CHECKING

from pickomino_rules.actions import CORE_ACTIONS, Action, AgainstPlayer
from pickomino_rules.dice import RollOutcome
from pickomino_rules.errors import (
    ArgumentTypeError,
    IllegalActionError,
    RulesMismatchError,
)
from pickomino_rules.game import (
    apply,
    legal_actions,
    new_game,
    parse_move,
)
from pickomino_rules.plugin import Components, RuleModule, compose
from pickomino_rules.registry import (
    get_variant,
)
from pickomino_rules.state import Phase
from pickomino_rules.testing._games import _fail, random_game
from pickomino_rules.validation import problems

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules.rules import Rules


def _registered_as(rules: Rules) -> bool:
    try:
        return get_variant(rules.name).rules(rules.options) is rules
    except (LookupError, ValueError):
        return False


def check_round_trips(rules: Rules, *, seed: int = 0) -> None:
    """Moves read back from their text; a recorded game replays from JSON to the same end.

    The record part runs for the rules of a registered variant.

    Raises:
        ConformanceError: A text form or a record does not round-trip.
    """
    history = random_game(rules, rules.components.min_players, seed)
    for state, move in history[:-1]:
        assert move is not None  # noqa: S101 (only the final pair has no move)
        text = str(move)
        if parse_move(rules, text) != move:
            _fail("round trips", rules, f"{move!r} reads back from {text!r} differently", state)
    if _registered_as(rules):
        from pickomino_rules.records import GameRecord  # noqa: PLC0415 (records sit above)

        start = history[0][0]
        record = GameRecord.start(rules.name, start.players, rules.options, start.player)
        record = record.extended(move for _, move in history[:-1] if move is not None)
        again = GameRecord.from_json(record.to_json())
        if again != record or again.final_state() != history[-1][0]:
            _fail("round trips", rules, "a game's record does not replay to the same end")
        from pickomino_rules.positions import Position  # noqa: PLC0415 (positions sit above)

        for state, _ in history:
            position = Position(rules, state)
            line = str(position)
            if Position.parse(line).state != state:
                _fail("round trips", rules, f"the position line {line!r} reads back otherwise")
            if Position.from_json(position.to_json()).state != state:
                _fail("round trips", rules, "a position's JSON reads back otherwise", state)


def check_encoding(rules: Rules, *, seed: int = 0) -> None:
    """The numeric encoding holds every legal action, and observations fit their layout.

    Every action offered in a random game must be in the fixed action space (a variant's
    action class with fields lists its instances with ``Action.instances``); each part's
    ``observe`` must give the same number of values in [0, 1] in every state.

    Raises:
        ConformanceError: An action outside the space, or an observation off its layout.
    """
    from pickomino_rules.encoding import ActionEncodingError, Encoding  # noqa: PLC0415

    players = rules.components.min_players
    try:
        encoding = Encoding.of(rules, players)
    except TypeError as error:
        _fail("encoding", rules, f"no action space: {error}")
    for state, _ in random_game(rules, players, seed):
        try:
            encoding.legal_mask(state)
        except ActionEncodingError:
            _fail("encoding", rules, "a legal action is not in the action space", state)
        for key, part in zip(rules.layout.parts, state.parts, strict=True):
            if key.observe is None:
                continue
            features = list(key.observe(rules, state, part, state.player))
            size = encoding.segments[key.name].stop - encoding.segments[key.name].start
            if len(features) != size or not all(0 <= value <= 1 for value in features):
                detail = f"part {key.name!r} observes {features} (expected {size} values in [0, 1])"
                _fail("encoding", rules, detail, state)


def check_game_info(rules: Rules, *, seed: int = 0) -> int:
    """The declared facts of the game (`info.game_info`) hold over random play.

    Every legal action is among ``actions``, no roll has more outcomes than
    ``max_chance_outcomes``, every result lies in the utility range and sums to
    ``utility_sum``, the points of the dice set aside are ``points``' sum, and the game
    ends within ``max_game_length`` moves; for the fewest and the most players allowed.

    Returns:
        States checked.

    Raises:
        ConformanceError: A fact the game breaks.
    """
    from pickomino_rules.encoding import returns  # noqa: PLC0415 (numpy, an extra)
    from pickomino_rules.info import game_info  # noqa: PLC0415

    checked = 0
    for players in sorted({rules.components.min_players, min(rules.components.max_players, 4)}):
        info = game_info(rules, players)
        known = set(info.actions)
        history = random_game(rules, players, seed + players)
        for state, _ in history:
            checked += 1
            if state.phase is Phase.ROLL:
                outcomes = len(rules.chance_table(state.in_hand).outcomes)
                if outcomes > info.max_chance_outcomes:
                    detail = f"{outcomes} outcomes, more than {info.max_chance_outcomes}"
                    _fail("game info", rules, detail, state)
                continue
            stray = [str(a) for a in legal_actions(rules, state) if a not in known]
            if stray:
                _fail("game info", rules, f"legal actions outside the game's: {stray}", state)
            if state.total != sum(c * p for c, p in zip(state.set_aside, info.points, strict=True)):
                _fail("game info", rules, "the dice set aside are not worth their points", state)
        final = history[-1][0]
        if len(history) > info.max_game_length:
            _fail("game info", rules, f"a game of {len(history)} moves", final)
        results = returns(rules, final)
        if not all(info.min_utility <= r <= info.max_utility for r in results) or not math.isclose(
            sum(results), info.utility_sum, abs_tol=1e-9
        ):
            _fail("game info", rules, f"results {results} outside the declared range", final)
    return checked


def _candidates(rules: Rules, seen: set[Action], players: int) -> list[object]:
    """Actions to throw at states: every action seen anywhere, and more of each class."""
    moves: list[object] = sorted(seen, key=repr)
    for kind in (*CORE_ACTIONS, *rules.action_types):
        if issubclass(kind, AgainstPlayer):
            moves.extend(kind(victim) for victim in range(-1, players + 1))
            continue
        try:
            moves.append(kind.from_argument(""))
        except (ValueError, TypeError):
            continue
    kinds = tuple(kind.name for kind in rules.die_kinds)
    moves.extend(RollOutcome.parse(text, kinds) for text in ("1", "12345w12", "w" * 9, "w" * 8, ""))
    return moves


def check_illegal_actions_rejected(rules: Rules, *, seed: int = 0, tries: int = 400) -> int:
    """Moves that are not legal raise IllegalActionError, listing what is; nothing changes.

    Returns:
        The number of illegal moves tried.

    Raises:
        ConformanceError: An illegal move was accepted, raised another error, or changed
            the state.
    """
    players = rules.components.min_players + 1
    history = random_game(rules, players, seed)
    seen = {move for _, move in history if isinstance(move, Action)}
    candidates = _candidates(rules, seen, players)
    rng = random.Random(seed)
    tried = 0
    for _ in range(tries):
        state = rng.choice(history)[0]
        move = rng.choice(candidates)
        legal = legal_actions(rules, state)
        if move in legal:
            continue
        before = copy.deepcopy(state)
        try:
            apply(rules, state, move)  # type: ignore[arg-type]
        except IllegalActionError as error:
            if error.legal != legal or "is not legal" not in str(error):
                _fail("illegal actions", rules, f"{move}: the error must list what is legal")
        except Exception as error:  # noqa: BLE001 (any other error is the finding)
            _fail("illegal actions", rules, f"{move!r} raised {error!r}", state)
        else:
            _fail("illegal actions", rules, f"{move!r} was accepted but is not legal", state)
        if state != before or hash(state) != hash(before):
            _fail("illegal actions", rules, f"{move!r} changed the state", state)
        tried += 1
    return tried


def check_bad_arguments(rules: Rules) -> None:
    """Wrong types, states of other layouts and corrupt states get specific errors.

    Raises:
        ConformanceError: A bad call raised a raw error, or none.
    """
    _, state = new_game(rules, players=rules.components.min_players)
    move = legal_actions(rules, state)[0]
    calls: dict[str, Callable[[], object]] = {
        "a move's text to apply": lambda: apply(rules, state, "roll"),  # type: ignore[arg-type]
        "a tuple as the state": lambda: legal_actions(rules, (*state.grill,)),  # type: ignore[arg-type]
        "a name as the rules": lambda: apply(rules.name, state, move),  # type: ignore[arg-type]
    }
    for what, call in calls.items():
        try:
            call()
        except ArgumentTypeError:
            continue
        except Exception as error:  # noqa: BLE001 (any other error is the finding)
            _fail("bad arguments", rules, f"{what} raised {error!r}, not ArgumentTypeError")
        _fail("bad arguments", rules, f"{what} was accepted")
    other = compose(*_other_layout(rules))
    _, foreign = new_game(other, players=2)
    try:
        legal_actions(rules, foreign)
    except RulesMismatchError:
        pass
    else:
        _fail("bad arguments", rules, "a state of another layout was accepted")
    if not problems(rules, state.replace(set_aside=(9,) * 6)):
        _fail("bad arguments", rules, "validation missed 54 dice set aside")


def _other_layout(rules: Rules) -> tuple[RuleModule, ...]:
    """A tiny composition laid out unlike ``rules`` (two tiles, one die)."""
    from pickomino_rules.dice import WHITE  # noqa: PLC0415

    tiles = (1, 2) if rules.tiles != (1, 2) else (1, 3)

    def tiny(_: Components) -> Components:
        return Components(tiles, tuple((t, 1) for t in tiles), (WHITE,), (1,))

    return (RuleModule(name="other_layout", configure=tiny),)
