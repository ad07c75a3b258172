"""Deprecated: the end of a turn in one step. The engine no longer has a second path for it.

Until 0.1 the engine ended the turns of rules whose modules left the turn-ending hooks alone
by a copy of those hooks fused into one function. That copy is gone: every turn ends through
the composed hooks (``take_tile`` or ``bust``, then ``end_turn``, then the next turn's roll),
and the compiled kernel makes that as fast. [`end_turn`][pickomino_rules.fused.end_turn]
stays for code that called it, and now asks those hooks.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from pickomino_rules._engine.steps import finish_turn

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import Claim, GameState

__all__ = ["end_turn"]


def end_turn(rules: Rules, state: GameState, claim: Claim | None) -> GameState:
    """Deprecated: the player takes ``claim`` (None: busts), then the dice pass on.

    Use [`stop_outcomes`][pickomino_rules.game.stop_outcomes] to end a turn every legal way,
    or [`resolve_bust`][pickomino_rules.game.resolve_bust] for a bust.
    """
    warnings.warn(
        "pickomino_rules.fused is deprecated: use game.stop_outcomes or game.resolve_bust",
        DeprecationWarning,
        stacklevel=2,
    )
    ended = rules.bust(rules, state) if claim is None else rules.take_tile(rules, state, claim)
    return finish_turn(rules, ended)
