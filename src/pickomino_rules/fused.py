"""The end of a turn fused into one step, for rules whose modules leave its hooks alone.

A turn ends through several hooks of [`turn`][pickomino_rules.turn]: ``take_tile`` or
``bust``, ``end_turn``, then ``turn_dice`` for the next player's roll, each building a state.
When no rule module wraps them
([`Rules.default_ends`][pickomino_rules.rules.Rules.default_ends], e.g. classic without
options), the engine ([`game`][pickomino_rules.game]) ends the turn here instead and builds
one state. ``tests/test_fused.py`` plays both paths side by side and checks that every state
is the same.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from pickomino_rules.dice import NO_DICE_SET_ASIDE
from pickomino_rules.state import Claim, GameState, Phase, new_state

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules

# Enum members cost ~125 ns to look up on the class, a module global ~10 ns.
_ROLL = Phase.ROLL
_GAME_OVER = Phase.GAME_OVER

__all__ = ["end_turn"]


def end_turn(rules: Rules, state: GameState, claim: Claim | None) -> GameState:
    """C8-C12: the player takes ``claim`` (None: busts), then the dice pass on or the game ends.

    The core's ``take_tile`` or ``bust``, then ``end_turn``, then the next turn's chance node
    (or the end of the game), built as one state.
    """
    player = state.player
    stacks = state.stacks
    grill = state.grill
    face_down = state.face_down
    if claim is None:  # C10: the top tile goes back; the highest grill tile turns unless it
        stack = stacks[player]
        if stack:
            returned = stack[-1]
            stacks = (*stacks[:player], stack[:-1], *stacks[player + 1 :])
            turned = list(grill)
            insort(turned, returned)
            if turned[-1] != returned:
                face_down = (*face_down, turned.pop())
            grill = tuple(turned)
    else:  # C8, C9: the claimed tile goes on top of the player's stack
        tile = claim.tile
        victim = claim.victim
        if victim is None:
            index = grill.index(tile)
            grill = grill[:index] + grill[index + 1 :]
        else:
            listed = list(stacks)
            listed[victim] = stacks[victim][:-1]
            stacks = tuple(listed)
        stacks = (*stacks[:player], (*stacks[player], tile), *stacks[player + 1 :])
    if not grill:  # C12
        return new_state(
            grill,
            face_down,
            stacks,
            player,
            _GAME_OVER,
            (),
            None,
            NO_DICE_SET_ASIDE,
            state.parts,
            state.layout,
        )
    return new_state(  # C11: the next player's roll
        grill,
        face_down,
        stacks,
        (player + 1) % len(stacks),
        _ROLL,
        rules.components.dice,
        None,
        NO_DICE_SET_ASIDE,
        state.parts,
        state.layout,
    )
