"""The engine's guards: are the arguments of a public call what they should be?

They run off the hot path: the transitions try the plain case first and call a guard only
when something failed, to say what was wrong. Modules above the engine (results, validation,
encodings) use them too, through [`game.check_fits`][pickomino_rules.game.check_fits].
"""

from __future__ import annotations

from pickomino_rules.actions import Action
from pickomino_rules.dice import RollOutcome
from pickomino_rules.errors import ArgumentTypeError, InvalidStateError, RulesMismatchError
from pickomino_rules.rules import Rules
from pickomino_rules.state import GameState, Phase

__all__ = [
    "ODD",
    "check_arguments",
    "check_fits",
    "check_shape",
    "mismatch",
    "shape_problems",
]

ODD = (AttributeError, TypeError, IndexError, KeyError, AssertionError, ArithmeticError)
"""What a wrong argument or a malformed state raises deep inside a transition or a hook.

A public function catches these only to ask the guards what was wrong (a try costs nothing
until something is raised) and re-raises when they find nothing."""

_TURN = (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE)

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

    Also the dice: no more in hand than the rules hold, and a roll on the table exactly in
    phase ``choose``, showing the dice in hand.
    """
    return _table_problems(rules, state) + _dice_problems(rules, state)


def _table_problems(rules: Rules, state: GameState) -> list[str]:
    found = []
    low, high = rules.components.min_players, rules.components.max_players
    if not isinstance(state.stacks, tuple) or not all(
        isinstance(s, tuple) and all(isinstance(t, int) for t in s) for s in state.stacks
    ):
        found.append("stacks: expected a tuple of tuples of tile numbers")
    elif not low <= len(state.stacks) <= high:
        found.append(f"players: {rules.name} needs {low} to {high}, got {len(state.stacks)}")
    elif not _is_count(state.player) or state.player >= len(state.stacks):
        found.append(f"player: {state.player!r} is not a player index")
    for name in ("grill", "face_down"):
        value = getattr(state, name)
        if not isinstance(value, tuple) or not all(isinstance(t, int) for t in value):
            found.append(f"{name}: expected a tuple of tile numbers, got {value!r}")
    if not isinstance(state.phase, Phase):
        found.append(f"phase: expected a Phase, got {state.phase!r}")
    if not isinstance(state.parts, tuple) or len(state.parts) != len(rules.layout.parts):
        found.append(f"parts: expected {len(rules.layout.parts)} parts, got {state.parts!r}")
    else:
        found.extend(
            f"part {key.name!r}: expected {key.kind.__name__}, got {part!r}"
            for key, part in zip(rules.layout.parts, state.parts, strict=True)
            if not isinstance(part, key.kind)
        )
    if not found:
        tiles = set(rules.tiles)
        placed = [*state.grill, *state.face_down, *(t for stack in state.stacks for t in stack)]
        unknown = sorted({tile for tile in placed if tile not in tiles})
        if unknown:
            found.append(f"tiles: {', '.join(map(str, unknown))} are not tiles of {rules.name}")
    return found


def _dice_problems(rules: Rules, state: GameState) -> list[str]:
    found = []
    phase = state.phase
    most = rules.most_dice
    in_hand = state.in_hand
    if not isinstance(in_hand, tuple) or not all(map(_is_count, in_hand)):
        found.append(f"in_hand: expected counts of dice per kind, got {in_hand!r}")
    elif phase in _TURN and len(in_hand) != len(most):
        found.append(f"in_hand: expected {len(most)} counts (one per kind of die), got {in_hand!r}")
    elif any(count > limit for count, limit in zip(in_hand, most, strict=False)):
        found.append(f"in_hand: {in_hand!r} is more dice than the rules hold ({most})")
    set_aside = state.set_aside
    if (
        not isinstance(set_aside, tuple)
        or len(set_aside) != 6
        or not all(map(_is_count, set_aside))
    ):
        found.append(f"set_aside: expected six counts (faces 1-5, worm), got {set_aside!r}")
    roll = state.roll
    if phase is Phase.CHOOSE:
        kinds = tuple(kind.name for kind in rules.die_kinds)
        if not isinstance(roll, RollOutcome):
            found.append("roll: a roll must lie on the table in phase 'choose'")
        elif roll.kinds != kinds or roll.dice != in_hand:
            found.append(f"roll: {roll} is not a roll of the dice in hand {in_hand}")
    elif roll is not None and isinstance(phase, Phase):
        found.append(f"roll: no roll lies on the table in phase {phase.value!r}")
    return found
