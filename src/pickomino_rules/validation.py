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

from typing import TYPE_CHECKING

from pickomino_rules._engine import guards
from pickomino_rules._engine.guards import ODD, failure, state_problems
from pickomino_rules.errors import InvalidStateError

if TYPE_CHECKING:
    from pickomino_rules.errors import PickominoError
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["ODD", "check_shape", "error_for", "problems", "validate"]


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
    return tuple(state_problems(rules, state))


def error_for(rules: object, state: object, error: BaseException) -> PickominoError:
    """The library's error to raise for ``error``, which a call on ``state`` ran into.

    A tool built on the rules (a bot, an encoding, a picture) tries the plain case and, when
    a hand-built state trips it, raises this instead of a raw ``TypeError`` or
    ``IndexError``: the library's own errors pass as they are; otherwise the arguments'
    types and then everything wrong with the state are reported (an
    [`InvalidStateError`][pickomino_rules.errors.InvalidStateError]).

    Examples:
        >>> from pickomino_rules import new_game
        >>> rules, state = new_game("classic", players=2)
        >>> broken = state.replace(stacks=((21,), 5))
        >>> try:
        ...     max(broken.stacks[1])
        ... except TypeError as error:
        ...     print(error_for(rules, broken, error))
        invalid state: stacks: expected a tuple of tuples of tile numbers, got ((21,), 5)

    Raises:
        ArgumentTypeError: ``rules`` or ``state`` is of the wrong type.
        RulesMismatchError: ``state`` belongs to a game of another layout.
    """
    return failure(rules, state, error)


def check_shape(rules: Rules, state: GameState) -> None:
    """Check, cheaply, that every field of ``state`` has the type and size ``rules`` read.

    No hook runs (a few microseconds): what a tool does before it walks a state it did not
    make, e.g. to draw or write it. A state of the right shape can still break the rules:
    [`validate`][pickomino_rules.validation.validate] checks everything.

    Examples:
        >>> from pickomino_rules import new_game
        >>> rules, state = new_game("classic", players=2)
        >>> check_shape(rules, state.replace(set_aside=(10**30,) * 6))
        Traceback (most recent call last):
        ...
        pickomino_rules.errors.InvalidStateError: invalid state: set_aside: ... than any game holds

    Raises:
        InvalidStateError: Naming each malformed field.
        RulesMismatchError: The state belongs to a game of another layout.
        ArgumentTypeError: ``rules`` or ``state`` is of the wrong type.
    """
    guards.check_fits(rules, state)
    guards.check_shape(rules, state)
