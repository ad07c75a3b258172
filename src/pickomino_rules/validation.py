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

from pickomino_rules._engine.guards import check_fits, shape_problems
from pickomino_rules.errors import InvalidStateError
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["problems", "validate"]


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
    found = shape_problems(rules, state)
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
        found.append(f"grill: tiles must be distinct and ascending, got {state.grill}")
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
    return found
