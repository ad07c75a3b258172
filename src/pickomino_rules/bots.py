"""Simple bots: functions from rules, state and a random generator to a legal action.

A bot is any callable ``bot(rules, state, rng) -> Action`` called only at a
player's decision (never at a chance node). Draw randomness only from ``rng`` so a
seeded game replays exactly.

Examples:
    >>> import random
    >>> from pickomino_rules import RollOutcome, apply, new_game
    >>> rules, state = new_game("classic")
    >>> state = apply(rules, state, RollOutcome.parse("1223wwww"))
    >>> greedy_bot(rules, state, random.Random(0))
    Take(Face.WORM)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules.actions import Action, Roll, Steal, Stop, Take
from pickomino_rules.dice import Face
from pickomino_rules.errors import PickominoError
from pickomino_rules.game import Bot, legal_actions, stop_claims
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    import random

    from pickomino_rules.rules import Rules
    from pickomino_rules.solver import TurnSolution, TurnValue
    from pickomino_rules.state import GameState

__all__ = [
    "BOTS",
    "OptimalBot",
    "UnknownBotError",
    "get_bot",
    "greedy_bot",
    "optimal_bot",
    "random_bot",
    "register_bot",
]


def _decisions(rules: Rules, state: GameState) -> tuple[Action, ...]:
    if state.phase is Phase.ROLL:
        msg = "bots decide for players; a chance node needs a roll (sample_chance)"
        raise ValueError(msg)
    actions = legal_actions(rules, state)
    if not actions:
        msg = "the game is over: there is nothing to decide"
        raise ValueError(msg)
    return actions  # type: ignore[return-value]


def random_bot(rules: Rules, state: GameState, rng: random.Random) -> Action:
    """Pick uniformly among the legal actions."""
    return rng.choice(_decisions(rules, state))


def greedy_bot(rules: Rules, state: GameState, rng: random.Random) -> Action:  # noqa: ARG001
    """A sensible heuristic player.

    After a roll it takes worms while it has none, else the face worth the most
    points. It stops as soon as it can take a tile with three or fewer dice left in
    hand, with a total of 30 or more, or with no higher tile left on the grill; it
    steals when it can. Variant decisions go to the first legal choice.
    """
    actions = _decisions(rules, state)
    takes = [action for action in actions if isinstance(action, Take)]
    if takes:
        roll = state.roll
        assert roll is not None  # noqa: S101 (takes exist only with a roll)
        if not state.set_aside[Face.WORM - 1] and any(t.face is Face.WORM for t in takes):
            return next(t for t in takes if t.face is Face.WORM)
        return max(takes, key=lambda t: (roll.total_of(t.face) * t.face.points, t.face))
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


class OptimalBot:
    """A bot that plays each turn optimally for a turn value (worms gained by default).

    It solves a turn once, at its first decision (the exact turn solver,
    [`solve_turn`][pickomino_rules.solver.solve_turn]), and reuses the solution for the
    rest of the turn. Decisions outside the dice (a variant's pending choice) go to the
    greedy bot.

    Args:
        value: The turn value to maximise; worms gained when None.
    """

    def __init__(self, value: TurnValue | None = None) -> None:
        from pickomino_rules import solver  # noqa: PLC0415 (numpy only when used)

        self.value: TurnValue = solver.worms_gained if value is None else value
        self._solutions: dict[tuple[object, ...], TurnSolution] = {}
        """Recent turns' solutions, by board: a mid-turn token changes the board."""

    def __call__(self, rules: Rules, state: GameState, rng: random.Random) -> Action:
        """Choose the action with the best value for the rest of the turn."""
        from pickomino_rules.solver import solve_turn  # noqa: PLC0415

        if state.phase not in (Phase.CHOOSE, Phase.DECIDE) or (
            rules.pending_actions is not None and rules.pending_actions(rules, state)
        ):
            return greedy_bot(rules, state, rng)
        board = (id(rules), state.player, state.grill, state.stacks, state.face_down, state.parts)
        solution = self._solutions.get(board)
        if solution is None or solution.rules is not rules or not solution.covers(state):
            solution = solve_turn(rules, state, self.value)
            self._solutions[board] = solution
            if len(self._solutions) > _KEPT_SOLUTIONS:
                del self._solutions[next(iter(self._solutions))]
        return solution.best_action(state)


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

BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "optimal": optimal_bot}
"""Bots by name, for the command line and simulations; add yours with `register_bot`."""


class UnknownBotError(PickominoError, LookupError, ValueError):
    """No bot is registered under the requested name."""


def register_bot(name: str, bot: Bot, *, replace: bool = False) -> None:
    """Make ``bot`` available by ``name`` (e.g. to ``pickomino simulate --bots``).

    Raises:
        ValueError: The name is taken and ``replace`` is false.
    """
    if name in BOTS and not replace:
        msg = f"a bot named {name!r} is already registered"
        raise ValueError(msg)
    BOTS[name] = bot


def get_bot(name: str) -> Bot:
    """The bot registered as ``name``.

    Raises:
        UnknownBotError: No bot has that name.
    """
    try:
        return BOTS[name]
    except KeyError:
        msg = f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})"
        raise UnknownBotError(msg) from None
