"""The batch engine against the reference engine, same dice and same actions: ``check_twins``.

[`Replay`] keeps each row's game in the reference engine, fed with the dice the batch rolled
(logged through ``on_roll``); after every step each row's state, legal actions and
observation, and at the end of a game its scores, winners, rewards, moves and turns, must be
the reference's. The test suite runs it over every built-in variant (and over rules played
per row, whose modules bring no twin); a user runs it over their own variant's twins with
[`check_twins`][pickomino_rules.batch.check_twins].
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NoReturn

from pickomino_rules.actions import Action
from pickomino_rules.batch._engine import BatchGames
from pickomino_rules.batch._rules import batch_rules
from pickomino_rules.dice import RollOutcome
from pickomino_rules.encoding import returns
from pickomino_rules.errors import ConformanceError, MissingExtraError
from pickomino_rules.game import apply, legal_actions, new_game
from pickomino_rules.result import result
from pickomino_rules.state import GameState, Phase

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from numpy.typing import NDArray

    from pickomino_rules.rules import Rules

Dice = tuple[tuple[int, ...], ...]


class Replay:
    """A batch, and each of its rows' games in the reference engine, fed with the batch's dice.

    Args:
        games: Rows of the batch.
        players: Players per game.
        variant: A variant's name or composed rules.
        options: The variant's options.
        seed: Seeds the batch's dice.
    """

    def __init__(
        self,
        games: int,
        players: int,
        options: Mapping[str, object] | None = None,
        seed: int = 0,
        variant: str | Rules = "classic",
    ) -> None:
        self.rolls: list[list[Dice]] = [[] for _ in range(games)]
        self.outcomes: dict[Dice, RollOutcome] = {}
        self.batch = BatchGames(
            games, players, variant=variant, options=options, seed=seed, on_roll=self.log
        )
        self.rules = self.batch.rules
        self.kinds = tuple(kind.name for kind in self.rules.die_kinds)
        self.encoding = self.batch.encoding
        self.players = players
        self.states: list[GameState] = []
        self.moves: list[int] = []
        self.turns: list[int] = []
        for row in range(games):
            _, state = new_game(self.rules, players=players)
            state, moves, turns = self.advance(row, state, 0, 0)
            self.states.append(state)
            self.moves.append(moves)
            self.turns.append(turns)
        self.finished = 0

    def log(self, rows: NDArray[np.int64], counts: NDArray[np.int8]) -> None:
        """The batch's ``on_roll``: keep each row's dice for its reference game."""
        if counts.ndim == 2:
            counts = counts[:, None, :]
        for row, dice in zip(rows.tolist(), counts.tolist(), strict=True):
            self.rolls[row].append(tuple(map(tuple, dice)))

    def outcome(self, dice: Dice) -> RollOutcome:
        """The roll showing ``dice``, built as a user would (the engine checks it is one)."""
        found = self.outcomes.get(dice)
        if found is None:
            found = self.outcomes[dice] = RollOutcome(self.kinds, dice)
        return found

    def advance(
        self, row: int, state: GameState, moves: int, turns: int
    ) -> tuple[GameState, int, int]:
        """Apply the batch's logged rolls while the reference waits for dice."""
        while state.phase is Phase.ROLL:
            if not self.rolls[row]:
                self._fail(row, "the reference waits for dice the batch did not roll", state)
            dice = self.rolls[row].pop(0)
            before = state.player
            state = apply(self.rules, state, self.outcome(dice))
            moves += 1
            if state.player != before or state.phase is Phase.GAME_OVER:
                turns += 1
        return state, moves, turns

    def load(self, row: int, state: GameState) -> None:
        """Put a decision ``state`` in ``row`` of both engines."""
        self.batch.set_state(row, state)
        self.rolls[row].clear()
        self.states[row], self.moves[row], self.turns[row] = state, 0, 0

    def check_rows(self, *, observations: bool = True) -> None:
        """Every row's state and legal set (and observation) are the reference's.

        Raises:
            ConformanceError: A row differs; the message shows both.
        """
        found = self.batch.states()
        for row, (ours, theirs) in enumerate(zip(found, self.states, strict=True)):
            if ours != theirs:
                self._fail(row, f"the batch has\n{ours}", theirs)
        mask = self.batch.legal_mask()
        numbers = self.encoding.encode
        for row, state in enumerate(self.states):
            # decision states only: the batch rolls at once, so no row is a chance node
            legal = {numbers(a) for a in legal_actions(self.rules, state) if isinstance(a, Action)}
            offered = set(np.flatnonzero(mask[row]).tolist())
            if offered != legal:
                self._fail(row, f"legal actions {sorted(offered)}, not {sorted(legal)}", state)
        if observations:
            seen = self.batch.observe()
            for row, state in enumerate(self.states):
                if not (seen[row] == self.encoding.observe(state, state.player)).all():
                    self._fail(row, "another observation", state)

    def step(self, actions: NDArray[np.int64]) -> None:
        """Play ``actions`` in the batch and in every row's reference game; compare the ends.

        Raises:
            ConformanceError: A game ended differently.
        """
        outcome = self.batch.step(actions)
        for row, number in enumerate(actions.tolist()):
            state = self.states[row]
            before = state.player
            state = apply(self.rules, state, self.encoding.decode(number))
            moves, turns = self.moves[row] + 1, self.turns[row]
            if state.player != before or state.phase is Phase.GAME_OVER:
                turns += 1
            state, moves, turns = self.advance(row, state, moves, turns)
            if bool(outcome.terminated[row]) != (state.phase is Phase.GAME_OVER):
                self._fail(row, "the game ended in one engine only", state)
            if state.phase is Phase.GAME_OVER:
                self._check_end(row, state, outcome.scores[row], outcome.winners[row])
                rewards = returns(self.rules, state)
                got = tuple(outcome.rewards[row].tolist())
                if not all(
                    math.isclose(a, b, abs_tol=1e-6) for a, b in zip(got, rewards, strict=True)
                ):
                    self._fail(row, f"rewards {got}, not {rewards}", state)
                counted = (int(outcome.moves[row]), int(outcome.turns[row]))
                if counted != (moves, turns):
                    self._fail(row, f"moves and turns {counted}, not {(moves, turns)}", state)
                self.finished += 1
                _, state = new_game(self.rules, players=self.players)
                state, moves, turns = self.advance(row, state, 0, 0)
            self.states[row] = state
            self.moves[row], self.turns[row] = moves, turns
            if self.rolls[row]:
                self._fail(row, "the batch rolled more than was replayed", state)

    def play_randomly(self, seed: int, games: int) -> Iterator[list[GameState]]:
        """Random legal moves until ``games`` games finished, every row checked after each step.

        Yields the reference's states after each step.
        """
        rng = np.random.default_rng(seed)
        self.check_rows()
        while self.finished < games:
            mask = self.batch.legal_mask()
            keys = rng.random(mask.shape)
            keys[~mask] = -1
            self.step(np.argmax(keys, axis=1))
            self.check_rows()
            yield self.states

    def _check_end(
        self, row: int, state: GameState, scores: NDArray[np.int16], winners: NDArray[np.bool_]
    ) -> None:
        final = result(self.rules, state)
        if tuple(scores.tolist()) != final.scores:
            self._fail(row, f"scores {tuple(scores.tolist())}, not {final.scores}", state)
        if set(np.flatnonzero(winners).tolist()) != set(final.winners):
            self._fail(row, f"winners {np.flatnonzero(winners)}, not {final.winners}", state)

    def _fail(self, row: int, detail: str, state: GameState) -> NoReturn:
        msg = f"[batch twins] {self.rules.name}: row {row}: {detail}\nreference state:\n{state}"
        raise ConformanceError(msg)


def check_twins(
    variant: str | Rules,
    options: Mapping[str, object] | None = None,
    *,
    games: int = 60,
    players: int = 2,
    seed: int = 0,
) -> int:
    """Play ``games`` random games in the batch engine and the reference engine side by side.

    Both engines get the same dice (the batch's) and the same actions; after every step
    every game's state, legal actions and observation must be the same in both, and every
    finished game's scores, winners, rewards, moves and turns. Run it over your variant
    when you give its modules batch twins (docs: "Your own variant"); rules with a module
    that brings none are checked as the batch plays them, per row.

    Args:
        variant: A variant's name or composed rules.
        options: The variant's options.
        games: Games to finish.
        players: Players per game.
        seed: Seeds the dice and the random actions.

    Returns:
        The games finished.

    Raises:
        ConformanceError: The engines differ; the message names the row and shows the
            reference's state.
        BatchRulesError: A module's twin does not match it.

    Examples:
        >>> check_twins("extended", games=4, players=3)
        4
    """
    rules = batch_rules(variant, options)
    replay = Replay(min(32, games), players, seed=seed, variant=rules)
    for _states in replay.play_randomly(seed, games):
        pass
    return replay.finished
