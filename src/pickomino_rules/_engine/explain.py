"""Why a move is illegal, in words that name the rule: the engine's error explanations.

Only ever called on the error path, so they may take their time and ask the rules again.
To say *why*, `reason` restates C8 and asks the reference which faces a roll offers (C4,
`turn.offered_faces`) and whether the dice may be rolled again (C6, `turn.can_roll`);
``MIRRORS`` names the reference of each, and ``tests/engine/test_explain_mirror.py`` checks
every explanation of random illegal moves against it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules._engine.guards import check_arguments
from pickomino_rules.actions import Roll, Steal, Stop, Take
from pickomino_rules.dice import RollOutcome
from pickomino_rules.errors import IllegalActionError
from pickomino_rules.state import Phase
from pickomino_rules.turn import can_roll, faces_used, offered_faces

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["MIRRORS", "dice_text", "illegal", "reason"]

MIRRORS = {
    "C4": "turn.offered_faces",  # asked, not restated: which faces a roll lets one take
    "C6": "turn.can_roll",  # asked, not restated: whether the player may roll again
    "C8": "turn.claims",  # what a stop or a steal can claim with the total
}
"""The rules `reason` restates to explain a refusal, and the reference of each."""


def illegal(rules: Rules, state: GameState, move: object, legal: tuple[object, ...]) -> Exception:
    """The error for an illegal ``move`` at ``state``, naming the rule and the ``legal`` moves."""
    check_arguments(rules, state, move)
    if state.phase is Phase.ROLL:
        listing = f"a roll of {dice_text(rules, state.in_hand)} (see chance_outcomes)"
    else:
        listing = ", ".join(map(str, legal)) or "nothing (the game is over)"
    try:
        why = reason(rules, state, move)
    except Exception:  # noqa: BLE001 (a variant's hook failing here must not hide the error)
        why = f"not allowed in phase {state.phase.value!r} by these rules"
    msg = f"{move} is not legal: {why}; legal: {listing}"
    return IllegalActionError(msg, move, legal)


def dice_text(rules: Rules, dice: tuple[int, ...]) -> str:
    """``dice`` (counts per kind) in words: ``8 white``."""
    return " and ".join(
        f"{n} {kind.name}" for kind, n in zip(rules.die_kinds, dice, strict=True) if n
    )


def reason(rules: Rules, state: GameState, move: object) -> str:  # noqa: C901, PLR0911, PLR0912
    """Which rule forbids ``move`` at ``state``."""
    phase = state.phase
    if phase is Phase.GAME_OVER:
        return "C12: the game is over"
    if phase is Phase.ROLL:
        if isinstance(move, RollOutcome):
            return f"C3/C6: the dice rolled are {dice_text(rules, state.in_hand)}"
        return "C3/C6: the dice are being rolled; apply a RollOutcome (a chance node)"
    if isinstance(move, RollOutcome):
        return "no dice are being rolled now; this is a player's decision"
    if rules.pending_actions is not None and rules.pending_actions(rules, state):
        return "a decision of the variant is pending"
    if phase is Phase.CHOOSE:
        if not isinstance(move, Take):
            return "C4: after a roll the player must first set dice aside"
        face = 1 << (move.face - 1)
        shown = 0 if state.roll is None else state.roll.shown
        if not shown & face:
            return f"C4: no die of the roll shows {move.face.symbol}"
        # shown, so what C4 weighs is the set-aside
        if not offered_faces(shown, faces_used(state.set_aside)) & face:
            return f"C4: {move.face.symbol}s were already set aside this turn"
    if phase is Phase.DECIDE:
        if isinstance(move, Take):
            return "C4: dice are set aside right after a roll, once"
        if isinstance(move, Roll):
            if can_roll(faces_used(state.set_aside), dice_left=True):  # so: no dice are left
                return "C6: no dice are left to roll"
            return "C6: all six faces are set aside; the player must stop"
        total = rules.stop_total(rules, state)
        if isinstance(move, Steal):
            if total is None:
                return "C7/C8: without a worm set aside nothing can be claimed"
            if total in state.grill:
                return f"C8: tile {total} is on the grill, so it is the one taken"
            if not 0 <= move.victim < state.players or move.victim == state.player:
                return f"C8: player {move.victim} is not an opponent"
            return f"C8: the top tile of player {move.victim} is not {total}"
        if isinstance(move, Stop):
            return "C8: several steals are possible; name the player to steal from"
    return f"not allowed in phase {phase.value!r} by these rules"
