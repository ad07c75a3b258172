"""Checking a state against the rules: for states built by hand, loaded, or received.

States made by [`new_game`][pickomino_rules.game.new_game] and
[`apply`][pickomino_rules.game.apply] are always valid; the transitions never check them again
(that would cost time on the hot path). A state built or changed by hand
(``GameState.replace``) is checked by [`validate`][pickomino_rules.validation.validate], which
says everything that is wrong with it.

Examples:
    >>> from pickomino_rules import new_game, validate
    >>> rules, state = new_game("classic", players=2)
    >>> validate(rules, state)
    >>> validate(rules, state.replace(set_aside=(9,) * 6))
    Traceback (most recent call last):
    ...
    pickomino_rules.errors.InvalidStateError: invalid state: dice: 54 set aside and 8 in hand, ...
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pickomino_rules._engine.guards import check_fits
from pickomino_rules.errors import InvalidStateError
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["problems", "validate"]

_TURN = (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE)


def validate(rules: Rules, state: GameState) -> None:
    """Check ``state`` against ``rules``: tiles, players, phase, dice, totals and parts.

    Raises:
        InvalidStateError: Something is wrong; ``error.problems`` lists everything found.
        RulesMismatchError: The state belongs to a game of another layout.
        ArgumentTypeError: ``rules`` or ``state`` is of the wrong type.
    """
    found = problems(rules, state)
    if found:
        raise InvalidStateError(found)


def problems(rules: Rules, state: GameState) -> tuple[str, ...]:
    """Everything wrong with ``state`` under ``rules``, in words (empty: valid).

    Raises:
        RulesMismatchError: The state belongs to a game of another layout.
        ArgumentTypeError: ``rules`` or ``state`` is of the wrong type.
    """
    check_fits(rules, state)
    found = _shape(rules, state)
    if found:
        return tuple(found)  # the checks below read the fields found malformed here
    found += _tiles(rules, state)
    found += _phase(rules, state)
    try:
        found += _dice(rules, state)  # asks the rules' hooks, which read the parts
        if not found:  # parts are checked on an otherwise sound table
            found += _parts(rules, state)
    except Exception as error:  # noqa: BLE001 (a malformed part can trip any hook)
        found.append(f"the rules cannot read this state: {type(error).__name__}: {error}")
    return tuple(found)


def _parts(rules: Rules, state: GameState) -> list[str]:
    found = []
    for key, part in zip(rules.layout.parts, state.parts, strict=True):
        if not isinstance(part, key.kind):
            found.append(f"part {key.name!r}: expected {key.kind.__name__}, got {part!r}")
        elif key.check is not None:
            found.extend(
                f"part {key.name!r}: {problem}" for problem in key.check(rules, state, part)
            )
    return found


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _shape(rules: Rules, state: GameState) -> list[str]:  # noqa: C901 (one check per field)
    """Field types and sizes: what every other check relies on."""
    found = []
    low, high = rules.components.min_players, rules.components.max_players
    if not isinstance(state.stacks, tuple) or not all(isinstance(s, tuple) for s in state.stacks):
        found.append("stacks: expected a tuple of tuples")
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
    kinds = len(rules.die_kinds)
    in_hand = state.in_hand
    if not isinstance(in_hand, tuple) or not all(map(_is_count, in_hand)):
        found.append(f"in_hand: expected counts of dice per kind, got {in_hand!r}")
    elif state.phase in _TURN and len(in_hand) != kinds:
        found.append(f"in_hand: expected {kinds} counts (one per kind of die), got {in_hand!r}")
    set_aside = state.set_aside
    if (
        not isinstance(set_aside, tuple)
        or len(set_aside) != 6
        or not all(map(_is_count, set_aside))
    ):
        found.append(f"set_aside: expected six counts (faces 1-5, worm), got {set_aside!r}")
    if not isinstance(state.parts, tuple) or len(state.parts) != len(rules.layout.parts):
        found.append(f"parts: expected {len(rules.layout.parts)} parts, got {state.parts!r}")
    return found


def _tiles(rules: Rules, state: GameState) -> list[str]:
    found = []
    if list(state.grill) != sorted(set(state.grill)):
        found.append(f"grill: tiles must be distinct and ascending, got {state.grill}")
    places = Counter(state.grill) + Counter(state.face_down)
    for stack in state.stacks:
        places += Counter(stack)
    unknown = sorted(set(places) - set(rules.tiles))
    if unknown:
        found.append(f"tiles: {', '.join(map(str, unknown))} are not tiles of {rules.name}")
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
    if phase is Phase.CHOOSE:
        roll = state.roll
        kinds = tuple(kind.name for kind in rules.die_kinds)
        if roll is None:
            found.append("roll: a roll must lie on the table in phase 'choose'")
        elif roll.kinds != kinds or roll.dice != state.in_hand:
            found.append(f"roll: {roll} is not a roll of the dice in hand {state.in_hand}")
    elif state.roll is not None:
        found.append(f"roll: no roll lies on the table in phase {phase.value!r}")
    return found


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
    return found
