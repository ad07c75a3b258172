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
    "brief",
    "excerpt",
    "install_command",
    "listed",
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


def brief(value: object, length: int = 40) -> str:
    """``repr(value)``, cut to about ``length`` characters with the whole size said.

    What an error message quotes of a value it was given: a message stays short (a few
    hundred characters at most) whatever the input, and quoting costs little however large
    the value is.

    Examples:
        >>> brief((1, 2))
        '(1, 2)'
        >>> brief("x" * 1_000_000)
        "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (1,000,000 characters)"
        >>> brief(tuple(range(100_000)))
        '(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1… (a tuple of 100,000 items)'
    """
    if isinstance(value, str | bytes | bytearray):
        if len(value) <= length:
            return repr(value)
        unit = "characters" if isinstance(value, str) else "bytes"
        return f"{repr(value[:length])[:-1]}…{repr(value)[-1]} ({len(value):,} {unit})"
    if isinstance(value, int) and value.bit_length() > 4 * length:
        return f"<a whole number of {value.bit_length():,} bits>"
    try:
        size = len(value)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 (not sized: a number, an enum, an object)
        size = None
    try:
        text = repr(value[:length] if isinstance(value, list | tuple) else value)
    except Exception:  # noqa: BLE001 (a value whose repr fails is still named)
        return f"<{type(value).__name__}>"
    if len(text) <= length and (
        size is None or not isinstance(value, list | tuple) or size <= length
    ):
        return text
    what = f"a {type(value).__name__} of {size:,} items" if isinstance(size, int) else None
    return f"{text[:length]}… ({what or f'{len(text):,} characters'})"


MAX_MESSAGE = 300
"""The longest message an error of this library carries, in characters (about)."""


class PickominoError(Exception):
    """Base class of every error raised by this library."""


class ConformanceError(AssertionError):
    """A variant broke the API contract; the message names the check, seed and state.

    Raised by the conformance kits (`pickomino_rules.testing`, and `check_twins` of the batch
    engine, which stands below the kit); imported from `pickomino_rules.testing`.
    """

    __module__ = "pickomino_rules.testing"  # where users import it from (tracebacks, reprs)


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
        super().__init__("invalid state: " + listed(self.problems))


def listed(problems: tuple[str, ...] | list[str]) -> str:
    """Problems joined by semicolons, as many as fit in a short message, then how many more.

    Examples:
        >>> listed(["a", "b"])
        'a; b'
        >>> listed([f"problem {n}" for n in range(100)])
        'problem 0; problem 1; ...; problem 21 (and 78 more)'
    """
    shown = "; ".join(problems)
    if len(shown) <= MAX_MESSAGE - 20:
        return shown
    kept: list[str] = []
    for problem in problems:
        if len("; ".join([*kept, problem])) > MAX_MESSAGE - 40:
            break
        kept.append(problem)
    if not kept:  # one problem longer than a message: cut it
        kept = [problems[0][: MAX_MESSAGE - 40] + "…"]
    rest = len(problems) - len(kept)
    return "; ".join(kept) + (f" (and {rest} more)" if rest else "")


class ArgumentTypeError(PickominoError, TypeError):
    """A public function was given an argument of the wrong type (e.g. not a GameState)."""


class MissingExtraError(PickominoError, ImportError):
    """A part of the library whose optional dependencies are not installed.

    The core needs only attrs and cattrs; the command line, the solver, plots and the
    learning environments come with extras. The message names the extra and a command that
    adds it to this installation (see `install_command`).

    Attributes:
        extra: The extra that is missing.

    Examples:
        >>> error = MissingExtraError("the turn solver", "solver")
        >>> error.extra
        'solver'
        >>> print(error)  # installed from a checkout here: the command names it
        the turn solver needs the 'solver' extra: pip install ...[solver]...
    """

    def __init__(self, what: str, extra: str) -> None:
        super().__init__(f"{what} needs the {extra!r} extra: {install_command(extra)}")
        self.extra = extra


def install_command(extra: str) -> str:
    """A ``pip`` command that adds ``extra`` to the installation running now.

    pip records where a package was installed from (PEP 610's ``direct_url.json``): a
    checkout (editable or not) or a wheel file gets that path back with the extra; a package
    from an index gets its name.

    Examples:
        >>> install_command("cli").startswith("pip install ")
        True
    """
    source = _install_source()
    if source is None:  # from a package index
        return f"pip install 'pickomino_rules[{extra}]'"
    path, editable = source
    if not path:  # not installed: run from a source tree
        checkout = "--config-settings editable_mode=strict (in a checkout)"
        return f"pip install -e '.[{extra}]' {checkout}"
    if editable:
        return f"pip install -e '{path}[{extra}]' --config-settings editable_mode=strict"
    return f"pip install '{path}[{extra}]'"


def _install_source() -> tuple[str, bool] | None:
    """The local path this package was installed from, and whether editably.

    ``("", True)`` when it is not installed at all, None when it came from a package index.
    """
    import json  # noqa: PLC0415 (only when an error is being written)
    from importlib import metadata  # noqa: PLC0415
    from urllib.parse import unquote, urlparse  # noqa: PLC0415

    # Every distribution of that name on the path: a source tree on sys.path can hold the
    # build's own egg-info, with no record; the one pip installed has it.
    installed = list(metadata.distributions(name="pickomino_rules"))
    if not installed:
        return "", True
    texts = [text for text in (dist.read_text("direct_url.json") for dist in installed) if text]
    try:
        record = json.loads(texts[0]) if texts else None
    except ValueError:
        return None
    if not isinstance(record, dict) or not str(record.get("url", "")).startswith("file://"):
        return None
    editable = bool((record.get("dir_info") or {}).get("editable", False))
    return unquote(urlparse(record["url"]).path), editable
