"""The default turn: the core's own hook implementations (rules C3-C13).

These are the innermost layer of every composed [`Rules`][pickomino_rules.rules.Rules]:
the turn structure every Pickomino variant shares. Rule modules wrap them. The
helpers [`return_tile`][pickomino_rules.turn.return_tile] and
[`turn_face_down`][pickomino_rules.turn.turn_face_down] are part of the plug-in contract
([`pickomino_rules.plugin`][pickomino_rules.plugin]) for modules that rebuild part of a bust.

They build states with [`new_state`][pickomino_rules.state.new_state] rather than
``attrs.evolve``: these run millions of times and evolve re-runs the field machinery.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from typing import TYPE_CHECKING, NoReturn

from pickomino_rules.actions import TAKE, Action
from pickomino_rules.dice import FACES, Face
from pickomino_rules.errors import IllegalActionError
from pickomino_rules.state import Claim, GameState, Phase, new_state

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules

# Enum members cost ~125 ns to look up on the class, a module global ~10 ns:
# the hot path reads phases through these aliases.
_DECIDE = Phase.DECIDE
_WORM = Face.WORM - 1  # index of the worm in six-face count tuples

__all__ = [
    "HOOKS",
    "apply_action",
    "bust",
    "can_roll",
    "claims",
    "end_turn",
    "faces_used",
    "offered_faces",
    "pending_actions",
    "return_tile",
    "roll_actions",
    "scores",
    "set_aside",
    "setup",
    "stop_total",
    "take_tile",
    "turn_dice",
    "turn_face_down",
]

HOOKS = (
    "setup",
    "turn_dice",
    "roll_actions",
    "pending_actions",
    "set_aside",
    "stop_total",
    "claims",
    "take_tile",
    "bust",
    "end_turn",
    "apply_action",
    "scores",
)
"""Hook names, in the order the core runs them in a turn (``configure`` runs at composition).

Each names a function of this module: the innermost layer of that hook's chain."""


def setup(rules: Rules, state: GameState) -> GameState:  # noqa: ARG001
    """C2: the first state needs nothing more in the core game."""
    return state


def turn_dice(rules: Rules, state: GameState) -> tuple[int, ...]:  # noqa: ARG001
    """C3: a turn starts by rolling all the dice."""
    return rules.components.dice


_OFFERED: tuple[tuple[Action, ...], ...] = tuple(
    tuple(TAKE[face] for face in FACES if mask >> (face - 1) & 1) for mask in range(64)
)
"""The takes of each set of faces (as bits, like ``RollOutcome.shown``), in face order."""

_ALL_FACES = (1 << len(FACES)) - 1
"""Every face, as bits."""

_USED: dict[tuple[int, ...], int] = {}
"""The faces set aside as bits, by the set-aside counts (a few thousand at most)."""


def faces_used(counts: tuple[int, ...]) -> int:
    """The faces set aside this turn as bits (bit ``face - 1``), from the counts per face.

    Examples:
        >>> bin(faces_used((2, 0, 0, 0, 0, 1)))  # two 1s and a worm set aside
        '0b100001'
    """
    used = _USED.get(counts)
    if used is None:
        used = _USED[counts] = sum(1 << index for index, count in enumerate(counts) if count)
    return used


def can_roll(used: int, dice_left: bool) -> bool:
    """C6: the player may roll again while dice are left and a face is not set aside yet.

    ``used`` is the faces set aside this turn, as bits (`faces_used`). The step machine asks
    it (``steps.decide_actions``); the batch engine and the turn solver tabulate it rather
    than restate it.

    Examples:
        >>> can_roll(0b011111, True), can_roll(0b111111, True), can_roll(0b000001, False)
        (True, False, False)
    """
    return dice_left and used != _ALL_FACES


def offered_faces(shown: int, used: int) -> int:
    """C4: of the faces a roll shows, those that were not set aside earlier this turn.

    The faces are sets of bits, bit ``face - 1`` for each face (as `RollOutcome.shown`); none
    offered means the roll busts (C5). [`roll_actions`][pickomino_rules.turn.roll_actions]
    asks it; the batch engine and the turn solver tabulate it rather than restate it.

    Args:
        shown: The faces the roll shows.
        used: The faces set aside earlier this turn.

    Examples:
        >>> bin(offered_faces(0b100011, 0b000001))  # 1s, 2s and worms shown; 1s set aside
        '0b100010'
    """
    return shown & ~used


def roll_actions(rules: Rules, state: GameState) -> tuple[Action, ...]:  # noqa: ARG001
    """C4: one [`Take`][pickomino_rules.actions.Take] per face shown that was not set aside earlier.

    An empty result means the roll busts (C5).
    """
    roll = state.roll
    assert roll is not None  # noqa: S101 (only called in phase CHOOSE)
    return _OFFERED[offered_faces(roll.shown, faces_used(state.set_aside))]


def pending_actions(rules: Rules, state: GameState) -> tuple[Action, ...]:  # noqa: ARG001
    """The core game never leaves a decision pending."""
    return ()


def set_aside(rules: Rules, state: GameState, face: Face) -> GameState:  # noqa: ARG001
    """C4: move every die of the roll showing ``face`` to the set-aside dice."""
    roll = state.roll
    assert roll is not None  # noqa: S101 (only called in phase CHOOSE)
    index = face - 1
    counts = state.set_aside
    return new_state(
        state.grill,
        state.face_down,
        state.stacks,
        state.player,
        _DECIDE,
        roll.remaining[index],
        None,
        (*counts[:index], roll.faces[index], *counts[index + 1 :]),
        state.parts,
        state.layout,
    )


def stop_total(rules: Rules, state: GameState) -> int | None:  # noqa: ARG001
    """C7: the total of the set-aside dice, or None without a worm among them."""
    return state.total if state.set_aside[_WORM] else None


def claims(rules: Rules, state: GameState, total: int) -> tuple[Claim, ...]:  # noqa: ARG001
    """C8: the exact grill tile; else a steal of an exact top tile and the next lower tile."""
    grill = state.grill
    at = bisect_left(grill, total)
    if at < len(grill) and grill[at] == total:
        return (Claim.grill_tile(total),)
    found = [Claim.grill_tile(grill[at - 1])] if at else []
    player = state.player
    for victim, stack in enumerate(state.stacks):
        if stack and stack[-1] == total and victim != player:
            found.append(Claim(total, victim))
    return tuple(found)


def take_tile(rules: Rules, state: GameState, claim: Claim) -> GameState:  # noqa: ARG001
    """C8, C9: the claimed tile goes on top of the player's stack."""
    stacks = list(state.stacks)
    grill = state.grill
    if claim.victim is None:
        index = grill.index(claim.tile)
        grill = grill[:index] + grill[index + 1 :]
    else:
        stacks[claim.victim] = stacks[claim.victim][:-1]
    player = state.player
    stacks[player] = (*stacks[player], claim.tile)
    return new_state(
        grill,
        state.face_down,
        tuple(stacks),
        player,
        state.phase,
        state.in_hand,
        state.roll,
        state.set_aside,
        state.parts,
        state.layout,
    )


def return_tile(state: GameState, player: int) -> GameState:
    """Put ``player``'s top tile back on the grill in its place by number (C10)."""
    stacks = list(state.stacks)
    *rest, tile = stacks[player]
    stacks[player] = tuple(rest)
    grill = list(state.grill)
    insort(grill, tile)
    return state.replace(grill=tuple(grill), stacks=tuple(stacks))


def turn_face_down(state: GameState) -> GameState:
    """Turn the highest face-up grill tile face down: it is out of the game (C10)."""
    return state.replace(grill=state.grill[:-1], face_down=(*state.face_down, state.grill[-1]))


def bust(rules: Rules, state: GameState) -> GameState:  # noqa: ARG001
    """C10: return the top tile; turn the highest grill tile unless it is that tile."""
    player = state.player
    stack = state.stacks[player]
    if not stack:
        return state
    returned = stack[-1]
    stacks = list(state.stacks)
    stacks[player] = stack[:-1]
    grill = list(state.grill)
    insort(grill, returned)
    face_down = state.face_down
    if grill[-1] != returned:  # one new state rather than one per step of the rule
        face_down = (*face_down, grill.pop())
    return new_state(
        tuple(grill),
        face_down,
        tuple(stacks),
        player,
        state.phase,
        state.in_hand,
        state.roll,
        state.set_aside,
        state.parts,
        state.layout,
    )


def end_turn(rules: Rules, state: GameState) -> GameState:  # noqa: ARG001
    """C11: nothing to tidy in the core game before the dice pass on."""
    return state


def apply_action(rules: Rules, state: GameState, action: Action) -> NoReturn:  # noqa: ARG001
    """The core game knows only its own actions: anything else is refused."""
    msg = f"{action} is not an action of these rules"
    raise IllegalActionError(msg, action)


def scores(rules: Rules, state: GameState) -> tuple[int, ...]:
    """C13: the worms on the tiles of each player's stack."""
    worms = rules.worms
    return tuple(sum(worms[tile] for tile in stack) for stack in state.stacks)
