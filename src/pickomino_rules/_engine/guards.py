"""The engine's guards: are the arguments of a public call what they should be?

They run off the hot path: the transitions try the plain case first and call a guard only
when something failed, to say what was wrong. Modules above the engine (results, validation,
encodings) use them too, through [`game.check_fits`][pickomino_rules.game.check_fits].
"""

from __future__ import annotations

from pickomino_rules.actions import Action
from pickomino_rules.dice import RollOutcome
from pickomino_rules.errors import ArgumentTypeError, RulesMismatchError
from pickomino_rules.rules import Rules
from pickomino_rules.state import GameState

__all__ = ["check_arguments", "check_fits", "mismatch"]

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
