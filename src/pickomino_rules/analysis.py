"""Game analysis: for every dice decision of a game, the best move and what the move played cost.

Each decision of a turn (which face to set aside, roll or stop, steal, the weasel, which
specialist to keep, whom to rob of a grilled worm) is valued by the exact turn solver
([`solve_turn`][pickomino_rules.solver.solve_turn]): the expected worms the player gains
this turn from each legal move, playing on optimally. A move's **cost** is the best
move's value minus its own, so an optimal player's costs are all zero.

Given a second turn value as ``chances`` (the champion's chance to win the game after the
turn, [`WinModel.turn_value`][pickomino_rules.learned.WinModel.turn_value]), each decision
also carries every move's value under it: the chance to win the game, playing the rest of
the turn for it. A move can be best for the turn and lose the game, or the other way round.

The values are exact in every variant the solver accepts (every built-in one); rules it
cannot value exactly raise
[`UnsolvableRulesError`][pickomino_rules.solver.UnsolvableRulesError] rather than give
approximate costs.

Needs the ``solver`` extra (numpy).

Examples:
    >>> from pickomino_rules.bots import greedy_bot
    >>> from pickomino_rules.records import GameRecord
    >>> record = GameRecord.play("classic", players=2, bots=greedy_bot, seed=3)
    >>> analysis = analyse_record(record)
    >>> analysis.exact, len(analysis.decisions) > 0
    (True, True)
    >>> summary = analysis.summaries()[0]
    >>> summary.player, summary.cost >= 0
    (0, True)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import attrs

from pickomino_rules.errors import PickominoError
from pickomino_rules.game import apply, legal_actions, parse_move
from pickomino_rules.solver import (
    NoTurnDecisionError,
    TurnSolution,
    check_exact,
    exact_for,
    solve_turn,
    worms_gained,
)
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Iterable

    from pickomino_rules.game import Move
    from pickomino_rules.records import GameRecord
    from pickomino_rules.rules import Rules
    from pickomino_rules.solver import TurnValue
    from pickomino_rules.state import GameState

__all__ = ["MISTAKE", "Decision", "GameAnalysis", "PlayerSummary", "analyse", "analyse_record"]

MISTAKE = 0.005
"""A move that costs more than this many expected worms counts as a mistake."""

CHANCE_MISTAKE = 0.01
"""A move that gives away more than this chance to win the game counts as a mistake for the
game (a `Decision.chance_mistake`, where ``chances`` were given)."""

_TIE = 1e-9
"""Values this close are equal: the solver computes in float64."""


@attrs.frozen
class Decision:
    """One decision of a game, valued.

    Attributes:
        move: Index of the move in the game's list of moves (rolls included).
        turn: Number of the turn it belongs to, from 1.
        player: Who decided.
        played: The move played, as text.
        best: The best move, as text (the first listed among equals).
        values: Each legal move's expected worms this turn, by text; empty when the
            decision is not valued (none in the rules the solver accepts).
        state: The state the decision was made in.
        chances: Each legal move's value under the ``chances`` turn value given to
            `analyse` (the chance to win the game), by text; empty when none was given.
    """

    move: int
    turn: int
    player: int
    played: str
    best: str
    values: dict[str, float] = attrs.field(eq=False)
    state: GameState = attrs.field(eq=False, repr=False)
    chances: dict[str, float] = attrs.field(eq=False, factory=dict, repr=False)

    @property
    def valued(self) -> bool:
        """Whether the solver valued this decision."""
        return bool(self.values)

    @property
    def cost(self) -> float:
        """Expected worms the move played gave away (0 for a best move or one not valued)."""
        if not self.values:
            return 0.0
        return max(0.0, self.values[self.best] - self.values[self.played])

    @property
    def best_for_game(self) -> str | None:
        """The move with the best chance to win the game (None without ``chances``)."""
        if not self.chances:
            return None
        top = max(self.chances.values())
        return next(text for text, chance in self.chances.items() if chance >= top - _TIE)

    @property
    def chance_cost(self) -> float:
        """The chance to win the game the move played gave away (0 without ``chances``)."""
        if not self.chances:
            return 0.0
        return max(0.0, max(self.chances.values()) - self.chances[self.played])

    @property
    def mistake(self) -> bool:
        """Whether the move cost more than `MISTAKE` expected worms."""
        return self.cost > MISTAKE

    @property
    def chance_mistake(self) -> bool:
        """Whether the move gave away more than `CHANCE_MISTAKE` of the chance to win the game.

        Against the other objective: a move can be a mistake this turn and the best for the
        game, or the other way round.
        """
        return self.chance_cost > CHANCE_MISTAKE

    def to_dict(self) -> dict[str, Any]:
        """The decision as JSON-ready data (the state as its position line)."""
        return {
            "move": self.move,
            "turn": self.turn,
            "player": self.player,
            "played": self.played,
            "best": self.best,
            "cost": round(self.cost, 9),
            "values": {move: round(value, 9) for move, value in self.values.items()},
        } | (
            {
                "best_for_game": self.best_for_game,
                "chances": {move: round(chance, 9) for move, chance in self.chances.items()},
            }
            if self.chances
            else {}
        )


@attrs.frozen
class PlayerSummary:
    """One player's decisions in short.

    Attributes:
        player: The player.
        decisions: Decisions valued.
        best: Decisions where the best move was played.
        mistakes: Decisions that cost more than `MISTAKE`.
        cost: Expected worms given away in all.
        biggest: The costliest mistakes, costliest first (at most three).
        chance_mistakes: Decisions that gave away more than `CHANCE_MISTAKE` of the chance
            to win the game (0 without ``chances``).
        chance_cost: The chance to win the game given away in all (0 without ``chances``).
    """

    player: int
    decisions: int
    best: int
    mistakes: int
    cost: float
    biggest: tuple[Decision, ...]
    chance_mistakes: int = 0
    chance_cost: float = 0.0


@attrs.frozen
class GameAnalysis:
    """Every decision of a game, valued by the turn solver.

    Attributes:
        variant: The rules' name.
        players: Number of players.
        decisions: Every decision, in order (rolls are chance, not decisions).
        exact: Whether the values are exact; always True now that the solver refuses
            rules it cannot value exactly (kept for programs that read it).
    """

    variant: str
    players: int
    decisions: tuple[Decision, ...]
    exact: bool

    def summaries(self) -> list[PlayerSummary]:
        """Per player: decisions, best moves, mistakes, expected worms lost, the worst ones."""
        found = []
        for player in range(self.players):
            mine = [d for d in self.decisions if d.player == player and d.valued]
            worst = sorted((d for d in mine if d.mistake), key=lambda d: -d.cost)
            found.append(
                PlayerSummary(
                    player=player,
                    decisions=len(mine),
                    best=sum(d.values[d.played] >= d.values[d.best] - _TIE for d in mine),
                    mistakes=len(worst),
                    cost=sum(d.cost for d in mine),
                    biggest=tuple(worst[:3]),
                    chance_mistakes=sum(d.chance_mistake for d in mine),
                    chance_cost=sum(d.chance_cost for d in mine),
                )
            )
        return found

    def to_json(self, indent: int | None = 2) -> str:
        """The analysis as JSON, for programs: every decision and each player's summary."""
        data = {
            "variant": self.variant,
            "players": self.players,
            "exact": self.exact,
            "mistake_threshold": MISTAKE,
            "chance_mistake_threshold": CHANCE_MISTAKE,
            "summaries": [
                {
                    "player": s.player,
                    "decisions": s.decisions,
                    "best": s.best,
                    "mistakes": s.mistakes,
                    "cost": round(s.cost, 9),
                    "biggest": [d.move for d in s.biggest],
                    "chance_mistakes": s.chance_mistakes,
                    "chance_cost": round(s.chance_cost, 9),
                }
                for s in self.summaries()
            ],
            "decisions": [d.to_dict() for d in self.decisions],
        }
        return json.dumps(data, indent=indent)


def analyse(
    rules: Rules, state: GameState, moves: Iterable[Move], *, chances: TurnValue | None = None
) -> GameAnalysis:
    """Value every decision of the moves played from ``state``.

    Each turn is solved once, at its first decision, and the solution values the rest
    of the turn.

    Args:
        rules: The game's rules.
        state: The state the moves start from.
        moves: The moves played, rolls included (a record's moves, parsed).
        chances: A second turn value to give each move's value under (as
            `Decision.chances`): the champion's chance to win the game, say.

    Raises:
        IllegalActionError: A move is not legal where it was played.
        UnsolvableRulesError: The solver cannot value turns under these rules exactly.
    """
    check_exact(rules)
    decisions = []
    solution: TurnSolution | None = None
    for_game: TurnSolution | None = None
    turn, player = 1, state.player
    for index, move in enumerate(moves):
        if state.player != player:
            turn, player, solution, for_game = turn + 1, state.player, None, None
        if state.phase in (Phase.CHOOSE, Phase.DECIDE, Phase.TURN_OVER):
            solution = _solution(rules, state, solution, worms_gained)
            decision = _decision(rules, state, move, index, turn, solution)
            if chances is not None and decision.valued:
                for_game = _solution(rules, state, for_game, chances)
                valued = _values(rules, state, for_game)
                decision = attrs.evolve(decision, chances=valued)
            decisions.append(decision)
        state = apply(rules, state, move)
    return GameAnalysis(rules.name, state.players, tuple(decisions), exact_for(rules))


def analyse_record(record: GameRecord, *, chances: TurnValue | None = None) -> GameAnalysis:
    """Analyse a recorded game (see `analyse`, and its ``chances``).

    Raises:
        RecordError: The record's set-up or a move is invalid.
    """
    rules, state = record.initial()
    try:
        moves = [parse_move(rules, text) for text in record.moves]
        return analyse(rules, state, moves, chances=chances)
    except PickominoError as error:
        from pickomino_rules.records import RecordError  # noqa: PLC0415 (records sit below)

        raise RecordError(f"moves: {error}") from None


def _solution(
    rules: Rules, state: GameState, known: TurnSolution | None, value: TurnValue
) -> TurnSolution | None:
    """The turn's solution, solved at its first dice decision; None where nothing is valued."""
    if known is not None and known.covers(state):
        return known
    try:
        return solve_turn(rules, state, value)
    except NoTurnDecisionError:  # no decision of a turn here
        return known


def _values(rules: Rules, state: GameState, solution: TurnSolution | None) -> dict[str, float]:
    """Each legal move's value at ``state`` under ``solution``, by text (empty: none)."""
    if solution is None or not solution.covers(state):
        return {}
    try:
        return {str(a): solution.action_value(state, a) for a in legal_actions(rules, state)}
    except NoTurnDecisionError:
        return {}


def _decision(  # noqa: PLR0913, PLR0917 (one decision's context)
    rules: Rules,
    state: GameState,
    move: Move,
    index: int,
    turn: int,
    solution: TurnSolution | None,
) -> Decision:
    values = _values(rules, state, solution)
    best = str(move)
    if values:
        top = max(values.values())
        best = next(text for text, value in values.items() if value >= top - _TIE)
    return Decision(index, turn, state.player, str(move), best, values, state)
