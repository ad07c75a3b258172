"""Pickomino as an OpenSpiel Python game, ``python_pickomino``, with explicit chance nodes.

Importing this module registers the game; load it as OpenSpiel loads any game:

```python
import pyspiel
import pickomino_rules.envs.openspiel  # registers python_pickomino

game = pyspiel.load_game("python_pickomino", {"variant": "extended", "players": 3})
state = game.new_initial_state()
```

Parameters: ``variant`` (a registered variant's name), ``players``, ``options`` (the rule options
as a JSON object, e.g. ``'{"short_game": true}'``) and ``max_moves`` (moves, rolls included,
after which a game ends as a draw; the rules themselves set no limit).

Player actions are the numbers of [`Encoding`][pickomino_rules.encoding.Encoding]. At a chance
node the outcomes are the distinct rolls of the dice in hand, numbered as in that pool's
[`ChanceTable`][pickomino_rules.dice.ChanceTable], with their exact probabilities (as floats).
Returns are zero-sum ([`returns`][pickomino_rules.encoding.returns]): the winners share +1, the
others -1. The observation tensor is the encoding's vector for the observing player; the
observation string is the table as text. ``state.serialize()`` writes the
[position line][pickomino_rules.positions] and ``game.deserialize_state`` reads one back.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pickomino_rules.errors import MissingExtraError

try:
    import numpy as np
    import pyspiel
except ImportError as error:  # an extra: say which, and how to add it here
    what = f"the OpenSpiel game ({error.name} is missing)"
    raise MissingExtraError(what, "openspiel") from None

from pickomino_rules.encoding import Encoding, returns
from pickomino_rules.errors import InvalidSetupError, PickominoError, brief
from pickomino_rules.game import apply, is_terminal, new_game
from pickomino_rules.info import game_info
from pickomino_rules.positions import Position
from pickomino_rules.registry import get_variant
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["GAME_NAME", "PickominoGame", "PickominoState"]

GAME_NAME = "python_pickomino"
"""OpenSpiel's short name of the game."""

_DEFAULTS: dict[str, Any] = {
    "variant": "classic",
    "players": 2,
    "options": "{}",
    "max_moves": 20_000,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Pickomino (pickomino_rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=7,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _rules(params: dict[str, Any]) -> tuple[Rules, int]:
    try:
        options = json.loads(params["options"])
    except json.JSONDecodeError as error:
        msg = f"options must be a JSON object: {error}"
        raise InvalidSetupError(msg) from None
    rules = get_variant(params["variant"]).rules(options)
    rules, _ = new_game(rules, players=params["players"])  # checks the number of players
    most = params["max_moves"]
    if isinstance(most, bool) or not isinstance(most, int) or most < 1:
        msg = f"max_moves must be a whole number of at least 1, got {brief(most)}"
        raise InvalidSetupError(msg)
    return rules, params["players"]


class PickominoGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one variant, its options and a number of players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        rules, players = _rules(merged)
        self.rules = rules
        self.encoding = Encoding.of(rules, players)
        self.max_moves: int = merged["max_moves"]
        facts = game_info(rules, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=facts.num_actions,
            max_chance_outcomes=facts.max_chance_outcomes,
            num_players=players,
            min_utility=facts.min_utility,
            max_utility=facts.max_utility,
            utility_sum=facts.utility_sum,
            max_game_length=self.max_moves,
        )
        super().__init__(_GAME_TYPE, info, merged)

    def new_initial_state(self) -> PickominoState:
        """The first state: the first player's roll (a chance node)."""
        _, state = new_game(self.rules, players=self.encoding.players)
        return PickominoState(self, state)

    def deserialize_state(self, text: str) -> PickominoState:
        """The state of a position line written by ``PickominoState.serialize``.

        Raises:
            PositionError: The line is malformed, impossible, or of other rules.
        """
        position = Position.parse(text, self.rules)
        if position.state.players != self.encoding.players:
            msg = (
                f"the position has {position.state.players} players, the game {self.num_players()}"
            )
            raise InvalidSetupError(msg)
        return PickominoState(self, position.state)

    def make_py_observer(
        self, iig_obs_type: object = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        """The observer of observation tensors and strings (the game is perfect information)."""
        del iig_obs_type
        if params:
            msg = f"observation parameters are not supported, got {brief(params)}"
            raise InvalidSetupError(msg)
        return _Observer(self.encoding)


class PickominoState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around an immutable [`GameState`][pickomino_rules.state.GameState]."""

    def __init__(self, game: PickominoGame, state: GameState) -> None:
        super().__init__(game)
        # OpenSpiel clones a Python state with deepcopy: everything kept here is immutable
        # (and deep-copies as itself) but the move count.
        self._rules = game.rules
        self._encoding = game.encoding
        self._max_moves = game.max_moves
        self.state = state
        self._moves = 0

    def current_player(self) -> int:
        """The player to move, ``CHANCE`` at a roll, ``TERMINAL`` at the end."""
        if self._is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.state.phase is Phase.ROLL:
            return int(pyspiel.PlayerId.CHANCE)
        return self.state.player

    def _legal_actions(self, player: int) -> list[int]:
        del player
        return self._encoding.legal_numbers(self.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each distinct roll's number in its pool's table, with its exact probability."""
        return list(_chance_outcomes(self._rules, self.state.in_hand))

    def _apply_action(self, action: int) -> None:
        if self.state.phase is Phase.ROLL:
            outcomes = self._rules.chance_table(self.state.in_hand).outcomes
            if not 0 <= action < len(outcomes):
                msg = f"chance outcome {action} is out of range 0..{len(outcomes) - 1}"
                raise PickominoError(msg)
            move: Any = outcomes[action]
        else:
            move = self._encoding.decode(action)
        self.state = apply(self._rules, self.state, move)
        self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            texts = _roll_texts(self._rules, self.state.in_hand)
            return texts[action] if 0 <= action < len(texts) else f"roll #{action}"
        return str(self._encoding.decode(action))

    def is_terminal(self) -> bool:
        """True at the end of the game, or when ``max_moves`` cut it short."""
        return self._is_over()

    def returns(self) -> list[float]:
        """Zero-sum results at the end (all 0 before, and for a game cut short)."""
        if is_terminal(self._rules, self.state):
            return list(returns(self._rules, self.state))
        return [0.0] * self._encoding.players

    def serialize(self) -> str:
        """The position line of the state (see ``PickominoGame.deserialize_state``)."""
        return str(Position(self._rules, self.state))

    def __str__(self) -> str:
        return str(self.state)

    def _is_over(self) -> bool:
        return self.state.phase is Phase.GAME_OVER or self._moves >= self._max_moves


@lru_cache(maxsize=256)  # per rules and dice: bounded, as rules of many options come and go
def _chance_outcomes(rules: Rules, pool: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    # OpenSpiel asks often (for checks and sampling); the exact fractions convert once
    table = rules.chance_table(pool)
    return tuple((index, float(p)) for index, p in enumerate(table.probabilities))


@lru_cache(maxsize=256)
def _roll_texts(rules: Rules, pool: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(f"roll {outcome}" for outcome in rules.chance_table(pool).outcomes)


class _Observer:
    """OpenSpiel's observer protocol: a tensor and a string for one player."""

    def __init__(self, encoding: Encoding) -> None:
        self._encoding = encoding
        self.tensor = np.zeros(encoding.observation_size, dtype=np.float32)
        self.dict = {name: self.tensor[segment] for name, segment in encoding.segments.items()}

    def set_from(self, state: PickominoState, player: int) -> None:
        self.tensor[:] = self._encoding.observe(state.state, player)

    def string_from(self, state: PickominoState, player: int) -> str:
        del player
        return str(state.state)


pyspiel.register_game(_GAME_TYPE, PickominoGame)
