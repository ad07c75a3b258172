"""Exceptions raised by pickomino_rules.

Every error the library raises for bad input is a
[`PickominoError`][pickomino_rules.errors.PickominoError]; those about a bad value also subclass
`ValueError`, so ``except ValueError`` works as a Python programmer expects.

Examples:
    >>> from pickomino_rules import IllegalActionError
    >>> issubclass(IllegalActionError, ValueError)
    True
"""

from __future__ import annotations

__all__ = [
    "ArgumentTypeError",
    "CompositionError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidOptionError",
    "InvalidRollError",
    "InvalidSetupError",
    "InvalidStateError",
    "MissingExtraError",
    "PickominoError",
    "RulesMismatchError",
    "UnknownVariantError",
    "excerpt",
]


def excerpt(text: str, length: int = 40) -> str:
    """``text`` quoted, cut to ``length`` characters: error messages never echo huge input.

    Examples:
        >>> excerpt("take w")
        "'take w'"
        >>> excerpt("x" * 100, length=10)
        "'xxxxxxx...'"
    """
    return repr(text if len(text) <= length else text[: length - 3] + "...")


class PickominoError(Exception):
    """Base class of every error raised by this library."""


class IllegalActionError(PickominoError, ValueError):
    """An action or chance outcome that the rules do not allow in this state.

    The message names the rule that forbids it and lists what is legal. The state
    passed in is never changed (states are immutable).

    Attributes:
        action: The rejected action.
        legal: The actions that are legal in the state.
    """

    def __init__(self, message: str, action: object = None, legal: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.action = action
        self.legal = legal


class InvalidActionError(PickominoError, ValueError):
    """Text or data that describes no action: an unknown keyword, a bad argument."""


class InvalidRollError(PickominoError, ValueError):
    """Text or data that does not describe a roll of the rules' dice."""


class InvalidSetupError(PickominoError, ValueError):
    """A game that cannot be set up: wrong number of players, bad first player, ..."""


class UnknownVariantError(InvalidSetupError, LookupError):
    """No variant is registered under the requested name."""


class InvalidOptionError(InvalidSetupError):
    """An unknown rule option, or a value an option does not accept."""


class CompositionError(InvalidSetupError):
    """Rule modules that cannot be composed: the message names the modules.

    Raised once, when rules are built: two modules with one name, a required module
    missing, an extension point nobody provides, ordering constraints that contradict
    each other, two action classes with one keyword, two parts with one name.
    """


class RulesMismatchError(PickominoError, ValueError):
    """A state handed to rules whose game has another layout (tiles, dice or parts).

    States remember the layout of the rules that made them; rules refuse the states of
    a differently laid-out game instead of corrupting them.
    """


class InvalidStateError(PickominoError, ValueError):
    """A state that breaks the rules' invariants (see ``validate``).

    Attributes:
        problems: Each thing found wrong, in words.
    """

    def __init__(self, problems: tuple[str, ...] | list[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("invalid state: " + "; ".join(self.problems))


class ArgumentTypeError(PickominoError, TypeError):
    """A public function was given an argument of the wrong type (e.g. not a GameState)."""


class MissingExtraError(PickominoError, ImportError):
    """A part of the library whose optional dependencies are not installed.

    The core needs only attrs and cattrs; the command line, the solver, plots and the
    learning environments come with extras. The message names the extra to install.

    Examples:
        >>> print(MissingExtraError("the turn solver", "solver"))
        the turn solver needs the 'solver' extra: pip install 'pickomino_rules[solver]'
    """

    def __init__(self, what: str, extra: str) -> None:
        super().__init__(
            f"{what} needs the {extra!r} extra: pip install 'pickomino_rules[{extra}]'"
        )
        self.extra = extra
