"""The engine's guards: are the arguments of a public call what they should be?

They run off the hot path: the transitions try the plain case first and call a guard only
when something failed, to say what was wrong. Modules above the engine (results, validation,
encodings) use them too, through [`game.check_fits`][pickomino_rules.game.check_fits].
"""

from __future__ import annotations

from collections import Counter

from pickomino_rules.actions import Action
from pickomino_rules.dice import RollOutcome
from pickomino_rules.errors import (
    ArgumentTypeError,
    InvalidStateError,
    PickominoError,
    RulesMismatchError,
    brief,
)
from pickomino_rules.rules import Rules
from pickomino_rules.state import GameState, Phase

__all__ = [
    "ODD",
    "check_arguments",
    "check_fits",
    "check_shape",
    "failure",
    "mismatch",
    "shape_problems",
    "state_problems",
]

ODD = (
    AttributeError,
    TypeError,
    IndexError,
    KeyError,
    AssertionError,
    ArithmeticError,
    ValueError,
    RecursionError,
)
"""What a wrong argument or a malformed state raises deep inside a transition or a hook.

A public function catches these (a try costs nothing until something is raised), lets its
own errors (a `PickominoError`, a ``ValueError`` too) pass, and raises what ``failure``
([`error_for`][pickomino_rules.validation.error_for] for tools) makes of the rest::

    except PickominoError:
        raise
    except ODD as error:
        raise failure(rules, state, error) from error
"""


def failure(rules: object, state: object, error: BaseException) -> PickominoError:
    """The library's error for ``error``, raised by a call on ``state`` deep inside.

    The arguments' types, then everything wrong with the state
    ([`state_problems`][pickomino_rules._engine.guards.state_problems]); a state in which
    nothing is found wrong is one the rules (a variant's hook) cannot read, and the
    message says what they raised.

    Raises:
        ArgumentTypeError: ``rules`` or ``state`` is of the wrong type.
        RulesMismatchError: ``state`` belongs to a game of another layout.
    """
    if isinstance(error, PickominoError):
        return error
    check_arguments(rules, state)
    assert isinstance(rules, Rules)  # noqa: S101 (for the type checker: checked above)
    assert isinstance(state, GameState)  # noqa: S101
    found = state_problems(rules, state) or [_unreadable(error)]
    return InvalidStateError(found)


def _unreadable(error: BaseException) -> str:
    return f"the rules cannot read this state: {type(error).__name__}: {brief(str(error), 80)}"


_TURN = (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE)

_MOST_SET_ASIDE = 100
"""Set-aside counts adding up to more are malformed, not merely wrong (see `_dice`)."""

_NOT_GIVEN = object()


def check_fits(rules: Rules, state: GameState) -> None:
    """Check that ``state`` is a state of ``rules``' layout (cheap: one identity test).

    Raises:
        ArgumentTypeError: ``rules`` or ``state`` is of the wrong type.
        RulesMismatchError: ``state`` belongs to a game of another layout.
    """
    if not isinstance(rules, Rules) or not isinstance(state, GameState):
        check_arguments(rules, state)
    if state.layout is not rules.layout:
        raise mismatch(rules, state)


def check_arguments(rules: object, state: object = _NOT_GIVEN, move: object = _NOT_GIVEN) -> None:
    """Check the types of public arguments (those given).

    Raises:
        ArgumentTypeError: Naming the first argument of the wrong type.
    """
    if not isinstance(rules, Rules):
        msg = f"expected composed Rules (from new_game or get_rules), got {type(rules).__name__}"
        raise ArgumentTypeError(msg)
    if state is not _NOT_GIVEN and not isinstance(state, GameState):
        msg = f"expected a GameState, got {type(state).__name__}"
        raise ArgumentTypeError(msg)
    if move is not _NOT_GIVEN and not isinstance(move, Action | RollOutcome):
        hint = "; parse text with parse_move(rules, text)" if isinstance(move, str) else ""
        msg = f"expected an Action or a RollOutcome, got {type(move).__name__}{hint}"
        raise ArgumentTypeError(msg)


def mismatch(rules: Rules, state: GameState) -> RulesMismatchError:
    """The error for a state laid out for other rules than ``rules``."""
    if state.layout is None:
        msg = (
            f"the state was built without a layout; build states with new_game({rules.name!r}) "
            "and change them with replace"
        )
    else:
        msg = (
            f"the state belongs to a game laid out as {state.layout!r}, but the rules "
            f"{rules.name!r} lay out {rules.layout!r}"
        )
    return RulesMismatchError(msg)


def check_shape(rules: Rules, state: GameState) -> None:
    """Raise if a field of ``state`` is malformed (see `shape_problems`).

    The transitions call it when something failed, so that a state changed by hand into
    nonsense gets a clear [`InvalidStateError`][pickomino_rules.errors.InvalidStateError]
    rather than a raw ``IndexError`` from deep inside.

    Raises:
        InvalidStateError: Naming each malformed field.
    """
    found = shape_problems(rules, state)
    if found:
        raise InvalidStateError(found)


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def shape_problems(rules: Rules, state: GameState) -> list[str]:
    """The fields of ``state`` of the wrong type or size: what every other check relies on.

    Also the dice: no more in hand or set aside than the rules hold, and a roll on the table
    exactly in phase ``choose``, showing the dice in hand. Cheap (no hook runs) and total:
    whatever the fields hold, it answers, and each problem quotes a value abbreviated.
    """
    return _table_problems(rules, state) + _dice_problems(rules, state)


def state_problems(rules: Rules, state: GameState) -> list[str]:
    """Everything wrong with ``state`` under ``rules``, in words; never raises but for types.

    The shape first (`shape_problems`); on a sound shape the tiles, the phase, the dice and
    each part's own check, which ask the rules' hooks: a hook that cannot read the state
    is reported as a problem too. [`validate`][pickomino_rules.validation.validate] is its
    public face.

    Raises:
        ArgumentTypeError: ``rules`` or ``state`` is of the wrong type.
        RulesMismatchError: ``state`` belongs to a game of another layout.
    """
    check_fits(rules, state)
    found = shape_problems(rules, state)
    if found:
        return found  # the checks below read the fields found malformed here
    found += _tiles(rules, state)
    found += _phase(rules, state)
    try:
        found += _dice(rules, state)  # asks the rules' hooks, which read the parts
        if not found:  # parts are checked on an otherwise sound table
            found += _parts(rules, state)
    except Exception as error:  # noqa: BLE001 (a malformed part can trip any hook)
        found.append(_unreadable(error))
    return found


def _parts(rules: Rules, state: GameState) -> list[str]:
    """Each part's own check (their kinds are a matter of shape: `shape_problems`)."""
    found: list[str] = []
    for key, part in zip(rules.layout.parts, state.parts, strict=True):
        if key.check is not None:
            found.extend(
                f"part {key.name!r}: {problem}" for problem in key.check(rules, state, part)
            )
    return found


def _tiles(rules: Rules, state: GameState) -> list[str]:
    found = []
    if list(state.grill) != sorted(set(state.grill)):
        found.append(f"grill: tiles must be distinct and ascending, got {brief(state.grill)}")
    places = Counter(state.grill) + Counter(state.face_down)
    for stack in state.stacks:
        places += Counter(stack)
    doubled = sorted(tile for tile, n in places.items() if n > 1)
    if doubled:
        found.append(f"tiles: {', '.join(map(str, doubled))} lie in more than one place")
    missing = sorted(set(rules.tiles) - set(places))
    if missing:
        found.append(f"tiles: {', '.join(map(str, missing))} are nowhere")
    return found


def _pending(rules: Rules, state: GameState) -> bool:
    return rules.pending_actions is not None and bool(rules.pending_actions(rules, state))


def _phase(rules: Rules, state: GameState) -> list[str]:
    found = []
    phase = state.phase
    if phase is Phase.GAME_OVER and state.grill:
        found.append("phase: the game is over but tiles are left on the grill (C12)")
    if not state.grill and phase is not Phase.GAME_OVER and phase is not Phase.TURN_OVER:
        found.append("phase: the grill is empty, so the game is over (C12)")
    if phase is Phase.TURN_OVER and not _pending(rules, state):
        found.append("phase: the turn is over but no decision is pending")
    return found  # the roll on the table is a matter of shape (shape_problems)


def _dice(rules: Rules, state: GameState) -> list[str]:
    found = []
    if state.phase is Phase.GAME_OVER:
        if any(state.set_aside) or any(state.in_hand):
            found.append("dice: no dice are in play once the game is over")
        return found
    if state.phase is Phase.TURN_OVER:  # the resolved turn's dice lie as they were
        return found
    dealt = rules.turn_dice(rules, state)
    in_turn = sum(state.in_hand) + sum(state.set_aside)
    if in_turn != sum(dealt) or any(h > d for h, d in zip(state.in_hand, dealt, strict=True)):
        found.append(
            f"dice: {sum(state.set_aside)} set aside and {sum(state.in_hand)} in hand, "
            f"but a turn has {sum(dealt)}"
        )
    if state.phase is Phase.DECIDE and not any(state.set_aside):
        found.append("set_aside: a decision to roll or stop comes after setting dice aside")
    if state.phase is Phase.ROLL and not any(state.in_hand):
        found.append("in_hand: no dice are left to roll")
    if state.phase is Phase.ROLL and 0 not in state.set_aside:
        found.append("set_aside: every face is set aside, so nothing can be rolled (C6)")
    if (
        state.phase is Phase.CHOOSE
        and not found
        and not _pending(rules, state)
        and not rules.roll_actions(rules, state)
    ):  # the engine resolves such a roll as it lands: no state waits on it
        found.append("roll: it offers nothing to set aside, a bust (C5) settled as it lands")
    return found


def _table_problems(rules: Rules, state: GameState) -> list[str]:
    found = []
    low, high = rules.components.min_players, rules.components.max_players
    if not isinstance(state.stacks, tuple) or not all(
        isinstance(s, tuple) and all(isinstance(t, int) for t in s) for s in state.stacks
    ):
        found.append(
            f"stacks: expected a tuple of tuples of tile numbers, got {brief(state.stacks)}"
        )
    elif not low <= len(state.stacks) <= high:
        found.append(f"players: {rules.name} needs {low} to {high}, got {len(state.stacks)}")
    elif not _is_count(state.player) or state.player >= len(state.stacks):
        found.append(f"player: {brief(state.player)} is not a player index")
    for name in ("grill", "face_down"):
        value = getattr(state, name)
        if not isinstance(value, tuple) or not all(isinstance(t, int) for t in value):
            found.append(f"{name}: expected a tuple of tile numbers, got {brief(value)}")
    if not isinstance(state.phase, Phase):
        found.append(f"phase: expected a Phase, got {brief(state.phase)}")
    if not isinstance(state.parts, tuple) or len(state.parts) != len(rules.layout.parts):
        found.append(f"parts: expected {len(rules.layout.parts)} parts, got {brief(state.parts)}")
    else:
        found.extend(
            f"part {key.name!r}: expected {key.kind.__name__}, got {brief(part)}"
            for key, part in zip(rules.layout.parts, state.parts, strict=True)
            if not isinstance(part, key.kind)
        )
    if not found:
        tiles = set(rules.tiles)
        placed = [*state.grill, *state.face_down, *(t for stack in state.stacks for t in stack)]
        unknown = sorted({tile for tile in placed if tile not in tiles})
        if unknown:
            shown = brief(tuple(unknown))
            found.append(f"tiles: {shown} are not tiles of {rules.name}")
    return found


def _dice_words(counts: tuple[int, ...], kinds: tuple[str, ...]) -> str:
    """Dice per kind in words (``"3 white dice and no golden die"``), for a person to read."""
    return " and ".join(
        f"no {kind} die" if count == 0 else f"{count} {kind} {'die' if count == 1 else 'dice'}"
        for count, kind in zip(counts, kinds, strict=True)
    )


def _dice_problems(rules: Rules, state: GameState) -> list[str]:
    found = []
    phase = state.phase
    most = rules.most_dice
    in_hand = state.in_hand
    if not isinstance(in_hand, tuple) or not all(map(_is_count, in_hand)):
        found.append(f"in_hand: expected counts of dice per kind, got {brief(in_hand)}")
    elif phase in _TURN and len(in_hand) != len(most):
        shown = brief(in_hand)
        found.append(f"in_hand: expected {len(most)} counts (one per kind of die), got {shown}")
    elif len(in_hand) > len(most) or any(
        count > limit for count, limit in zip(in_hand, most, strict=False)
    ):
        found.append(f"in_hand: {brief(in_hand)} is more dice than the rules hold ({most})")
    set_aside = state.set_aside
    if (
        not isinstance(set_aside, tuple)
        or len(set_aside) != 6
        or not all(map(_is_count, set_aside))
    ):
        shown = brief(set_aside)
        found.append(f"set_aside: expected six counts (faces 1-5, worm), got {shown}")
    elif sum(set_aside) > _MOST_SET_ASIDE:  # beyond any game: nothing reads such counts
        found.append(f"set_aside: {brief(set_aside)} is more dice than any game holds")
    roll = state.roll
    if phase is Phase.CHOOSE:
        kinds = tuple(kind.name for kind in rules.die_kinds)
        if not isinstance(roll, RollOutcome):
            found.append("roll: a roll must lie on the table in phase 'choose'")
        elif roll.kinds != kinds or roll.dice != in_hand:
            rolled = _dice_words(roll.dice, roll.kinds)
            counts = isinstance(in_hand, tuple) and all(map(_is_count, in_hand))
            held = _dice_words(in_hand, kinds) if counts and len(in_hand) == len(kinds) else None
            held = held or f"not dice per kind ({brief(in_hand)})"
            found.append(f"roll: {roll} is {rolled}, but the dice in hand are {held}")
    elif roll is not None and isinstance(phase, Phase):
        found.append(f"roll: no roll lies on the table in phase {phase.value!r}")
    return found
