"""Simple bots: functions from rules, state and a random generator to a legal action.

A bot is any callable ``bot(rules, state, rng) -> Action`` called only at a
player's decision (never at a chance node). Draw randomness only from ``rng`` so a
seeded game replays exactly. Bots are found by name (`get_bot`): registered ones
(`register_bot`), installed ones (entry points of `ENTRY_POINT_GROUP`) and any importable
``module:function``.

Examples:
    >>> import random
    >>> from pickomino_rules import RollOutcome, apply, new_game
    >>> rules, state = new_game("classic")
    >>> state = apply(rules, state, RollOutcome.parse("1223wwww"))
    >>> greedy_bot(rules, state, random.Random(0))
    Take(Face.WORM)
"""

from __future__ import annotations

import importlib
import random
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

from pickomino_rules.actions import Action, Roll, Steal, Stop, Take
from pickomino_rules.dice import Face
from pickomino_rules.errors import (
    ArgumentTypeError,
    InvalidSetupError,
    PickominoError,
    UnknownVariantError,
    brief,
)
from pickomino_rules.game import Bot, apply, decisions, stop_claims
from pickomino_rules.registry import get_variant
from pickomino_rules.state import Phase
from pickomino_rules.validation import ODD, error_for

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules.rules import Rules
    from pickomino_rules.solver import TurnSolution, TurnValue
    from pickomino_rules.state import GameState

__all__ = [
    "BOTS",
    "ENTRY_POINT_GROUP",
    "InvalidBotError",
    "OptimalBot",
    "UnknownBotError",
    "available_bots",
    "bot_supports",
    "check_bot_supports",
    "get_bot",
    "greedy_bot",
    "margin_bot",
    "optimal_bot",
    "random_bot",
    "refusal",
    "register_bot",
]

# An enum member read off its class costs ~10x a module global on Python 3.11, and bots
# run at every decision of a simulation.
_WORM = Face.WORM


def refusal(rules: Rules, state: GameState, rng: object, error: Exception) -> PickominoError:
    """The error a bot raises for a raw ``error``: a wrong ``rng``, or what is wrong with the state.

    A bot tries the plain case; a hand-built state or argument that trips it gets the
    library's error ([`error_for`][pickomino_rules.validation.error_for]).
    """
    if not isinstance(rng, random.Random):
        return ArgumentTypeError(f"rng must be a random.Random, got {type(rng).__name__}")
    return error_for(rules, state, error)


def random_bot(rules: Rules, state: GameState, rng: random.Random) -> Action:
    """Pick uniformly among the legal actions."""
    try:
        return rng.choice(decisions(rules, state))
    except PickominoError:
        raise
    except ODD as error:
        raise refusal(rules, state, rng, error) from error


def greedy_bot(rules: Rules, state: GameState, rng: random.Random) -> Action:
    """A sensible heuristic player, in every variant.

    After a roll it first takes a face whose dice win worms at once, as the rules score
    the state after the take (the extended game's grilled worm for two or more 1s, E4): the
    most worms, then the most points. Otherwise it takes worms while it has none, else the
    face worth the most points (the golden die's 1s and worms count as 1s and worms). It
    stops as soon as it can take a tile with three or fewer dice left in hand, with a total
    of 30 or more, or with no higher tile left on the grill (an exact 11 or 13 counts, E3);
    it steals when it can. Variant decisions (whom to rob, which specialist to keep) go to
    the first legal choice. Where no module acts when dice are set aside (classic), it asks
    the rules nothing more than before.
    """
    try:
        return _greedy(rules, state)
    except PickominoError:
        raise
    except ODD as error:
        raise refusal(rules, state, rng, error) from error


def _greedy(rules: Rules, state: GameState) -> Action:
    actions = decisions(rules, state)
    takes = [action for action in actions if isinstance(action, Take)]
    if takes:
        roll = state.roll
        assert roll is not None  # noqa: S101 (takes exist only with a roll)

        def points(take: Take) -> tuple[int, Face]:
            return roll.count_of(take.face) * take.face.points, take.face

        winning = _winning_takes(rules, state, takes)
        if winning:
            return max(winning, key=points)
        if not state.set_aside[_WORM - 1] and any(t.face is _WORM for t in takes):
            return next(t for t in takes if t.face is _WORM)
        return max(takes, key=points)
    steals = [action for action in actions if isinstance(action, Steal)]
    if steals:
        return steals[0]
    can_roll = any(isinstance(action, Roll) for action in actions)
    can_claim = any(claim.victim is None for claim in stop_claims(rules, state))
    enough = sum(state.in_hand) <= 3 or state.total >= min(30, max(state.grill, default=0))
    if can_roll and not (can_claim and enough):
        return next(action for action in actions if isinstance(action, Roll))
    stop = next((action for action in actions if isinstance(action, Stop)), None)
    return stop if stop is not None else actions[0]


def _takes_may_score(rules: Rules) -> bool:
    """Whether setting dice aside may change the scores at once: a module wraps ``set_aside``.

    (The extended game's grilled worms do, E4.) Only then does ``greedy`` ask the rules what
    each take wins.
    """
    return "set_aside" in rules.wrapped


def _winning_takes(rules: Rules, state: GameState, takes: list[Take]) -> list[Take]:
    """The takes that win the player the most worms at once (none when none wins any)."""
    if not _takes_may_score(rules):
        return []
    me = state.player
    now = rules.scores(rules, state)[me]
    won = {take: rules.scores(rules, apply(rules, state, take))[me] - now for take in takes}
    most = max(won.values())
    return [take for take in takes if won[take] == most] if most > 0 else []


class OptimalBot:
    """A bot that plays each turn optimally for a turn value (worms gained by default).

    It solves a turn once, at its first decision (the exact turn solver,
    [`solve_turn`][pickomino_rules.solver.solve_turn]), and reuses the solution for the
    rest of the turn, the choices a variant makes pending in it (whom to rob, which
    specialist to keep) included.

    Args:
        value: The turn value to maximise; worms gained when None.
    """

    def __init__(self, value: TurnValue | None = None) -> None:
        from pickomino_rules import solver  # noqa: PLC0415 (numpy only when used)

        self.value: TurnValue = solver.worms_gained if value is None else value
        self._solutions: list[TurnSolution] = []
        """Recent turns' solutions, newest last (games may interleave on one bot)."""

    def __call__(self, rules: Rules, state: GameState, rng: random.Random) -> Action:
        """Choose the action with the best value for the rest of the turn."""
        from pickomino_rules.solver import solve_turn  # noqa: PLC0415

        try:
            if state.phase in (Phase.ROLL, Phase.GAME_OVER):
                return greedy_bot(rules, state, rng)  # not a decision: legal_actions tells why
            solution = next(
                (s for s in reversed(self._solutions) if s.rules is rules and s.covers(state)),
                None,
            )
            if solution is None:
                solution = solve_turn(rules, state, self.value)  # checks the state first
                self._solutions.append(solution)
                del self._solutions[:-_KEPT_SOLUTIONS]
            return solution.best_action(state)
        except PickominoError:
            raise
        except ODD as error:
            raise refusal(rules, state, rng, error) from error


_KEPT_SOLUTIONS = 16


def optimal_bot(rules: Rules, state: GameState, rng: random.Random) -> Action:
    """Plays each turn to maximise the expected worms gained (exact turn solver).

    One solver per process is kept, so a turn is solved once; see
    [`OptimalBot`][pickomino_rules.bots.OptimalBot] for other turn values.
    """
    global _optimal  # noqa: PLW0603 (one lazily built solver per process)
    if _optimal is None:
        _optimal = OptimalBot()
    return _optimal(rules, state, rng)


_optimal: Bot | None = None


def margin_bot(rules: Rules, state: GameState, rng: random.Random) -> Action:
    """Plays each turn to widen its lead over the best opponent (exact turn solver).

    Like [`optimal_bot`][pickomino_rules.bots.optimal_bot], but the turn's value is
    [`margin_gained`][pickomino_rules.solver.margin_gained]: a steal from the leader is
    worth twice its worms. Whether that wins more games than the optimal bot is measured
    on the docs page "Exact turn solver".
    """
    global _margin  # noqa: PLW0603 (one lazily built solver per process)
    if _margin is None:
        from pickomino_rules.solver import margin_gained  # noqa: PLC0415 (numpy)

        _margin = OptimalBot(margin_gained)
    return _margin(rules, state, rng)


_margin: Bot | None = None

BOTS: dict[str, Bot] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "optimal": optimal_bot,
    "margin": margin_bot,
}
"""Bots by name, for the command line and simulations; add yours with `register_bot`."""

ENTRY_POINT_GROUP = "pickomino_rules.bots"
"""The entry-point group that installed packages register bots under (``name = "module:bot"``)."""


class UnknownBotError(PickominoError, LookupError, ValueError):
    """No bot is registered, installed or importable under the requested name."""


class InvalidBotError(PickominoError, ValueError):
    """A bot was found by name but cannot be used: it fails to import or is not callable."""


def bot_supports(bot: Bot, rules: Rules, players: int) -> bool:
    """Whether ``bot`` plays a game of ``rules`` with ``players`` players.

    Most bots play any game. A bot made for one game only (a learned policy, whose inputs are
    one variant's observations) says so with a method ``supports(rules, players) -> bool``;
    simulations and tournaments ask it before the first game.

    Examples:
        >>> from pickomino_rules import get_rules
        >>> bot_supports(greedy_bot, get_rules("extended"), 4)
        True
    """
    supports = getattr(bot, "supports", None)
    return True if supports is None else bool(supports(rules, players))


def check_bot_supports(name: str, rules: Rules, players: int) -> None:
    """Raise unless the bot registered as ``name`` plays this game (see `bot_supports`).

    Simulations and ``pickomino play`` ask it before the first game, so a bot that cannot
    play is refused with one message wherever it is named.

    Examples:
        >>> from pickomino_rules import get_rules
        >>> check_bot_supports("greedy", get_rules("extended"), 4)

    Raises:
        UnknownBotError: No bot of that name.
        InvalidBotError: The bot cannot be loaded.
        InvalidSetupError: The bot does not play ``players``-player games of ``rules``;
            the message names the game, and says "with these options" when they are not
            the variant's defaults.
    """
    if bot_supports(get_bot(name), rules, players):
        return
    problem = f"bot {name!r} does not play {players}-player {rules.name}"
    if not _default_options(rules):
        problem += " with these options"
    raise InvalidSetupError(problem)


def _default_options(rules: Rules) -> bool:
    """Whether ``rules`` are its registered variant's with the default options."""
    try:
        defaults = get_variant(rules.name).resolve_options(None)
    except UnknownVariantError:  # rules composed by hand: say nothing of options
        return True
    return dict(rules.options) == dict(defaults)


def register_bot(name: str, bot: Bot, *, replace: bool = False) -> None:
    """Make ``bot`` available by ``name`` (e.g. to ``pickomino simulate --bots``).

    A bot registered at run time reaches worker processes only where they are forked from
    this one; for ``--jobs`` on every platform and for Dask, install it as a plug-in (see
    `ENTRY_POINT_GROUP`) or name it as ``module:function``.

    Raises:
        InvalidBotError: The name is taken and ``replace`` is false (a ``ValueError``).
    """
    if name in BOTS and not replace:
        msg = f"a bot named {brief(name)} is already registered"
        raise InvalidBotError(msg)
    BOTS[name] = bot


@cache
def _installed() -> dict[str, EntryPoint]:
    """Bots of installed packages by name, not yet loaded (the lookup costs ~1 ms)."""
    return {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}


_loaded: dict[str, Bot] = {}
"""Installed and ``module:function`` bots, once loaded."""


def available_bots() -> tuple[str, ...]:
    """The names of the registered and the installed bots, sorted.

    Examples:
        >>> {"greedy", "optimal", "random"} <= set(available_bots())
        True
    """
    return tuple(sorted({*BOTS, *_installed()}))


def get_bot(name: str) -> Bot:
    """The bot called ``name``: registered, installed by entry point, or ``module:function``.

    Registered names come first, then the entry points of `ENTRY_POINT_GROUP`; a name with a
    colon imports ``module`` and takes its attribute ``function`` (dots reach into objects),
    so any importable callable is a bot without registering it.

    Raises:
        UnknownBotError: No bot has that name.
        InvalidBotError: The bot's module fails to import, or the object is not callable.

    Examples:
        >>> get_bot("pickomino_rules.bots:greedy_bot") is greedy_bot
        True
        >>> get_bot("nobody")
        Traceback (most recent call last):
        ...
        pickomino_rules.bots.UnknownBotError: unknown bot 'nobody' (known: ...)
    """
    if not isinstance(name, str):
        msg = f"a bot's name is a string, got {type(name).__name__}"
        raise ArgumentTypeError(msg)
    bot = BOTS.get(name) or _loaded.get(name)
    if bot is not None:
        return bot
    point = _installed().get(name)
    if point is not None:
        bot = _load(name, point.value, point.load)
    elif ":" in name:
        bot = _load(name, name, lambda: _import(name))
    else:
        msg = f"unknown bot {name!r} (known: {', '.join(available_bots())})"
        raise UnknownBotError(msg)
    _loaded[name] = bot
    return bot


def _import(reference: str) -> object:
    """The object ``module:attribute.path`` names."""
    module_name, _, path = reference.partition(":")
    if not module_name or not path:
        msg = f"unknown bot {reference!r}: write a bot's module and function as module:function"
        raise UnknownBotError(msg)
    try:
        found: object = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if module_name == missing or module_name.startswith(missing + "."):
            msg = f"unknown bot {reference!r}: there is no module {module_name!r}"
            raise UnknownBotError(msg) from None
        raise  # the module exists but one of its own imports fails: _load reports it
    for attribute in path.split("."):
        try:
            found = getattr(found, attribute)
        except AttributeError:
            msg = f"unknown bot {reference!r}: {module_name!r} has no {path!r}"
            raise UnknownBotError(msg) from None
    return found


def _load(name: str, reference: str, load: Callable[[], object]) -> Bot:
    label = repr(name) if name == reference else f"{name!r} ({reference})"
    try:
        bot = load()
    except UnknownBotError:
        raise
    except Exception as error:
        msg = f"bot {label} cannot be loaded: {type(error).__name__}: {error}"
        raise InvalidBotError(msg) from error
    if not callable(bot):
        msg = f"bot {label} is a {type(bot).__name__}, not a callable bot"
        raise InvalidBotError(msg)
    return bot
