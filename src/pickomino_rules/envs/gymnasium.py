"""A gymnasium environment: one learning seat against bots, with exact rules in every variant.

```python
import gymnasium
import pickomino_rules.envs  # registers the id

env = gymnasium.make("pickomino_rules/Pickomino-v0", variant="extended", players=3)
observation, info = env.reset(seed=1)
```

Every step is one decision of the learning seat. The dice and the other seats' moves are played
inside ``step`` (the bots are [`registered`][pickomino_rules.bots.get_bot] names or callables), so
each observation is the learner's next decision or the end of the game. ``info["action_mask"]``
marks the legal actions (also in the observation with ``mask_in_observation=True``, as a
``Dict`` of ``observation`` and ``action_mask``); ``action_space.sample(mask=...)`` draws a legal
one. Observations and action numbers are those of
[`Encoding`][pickomino_rules.encoding.Encoding].

Rewards (``reward=``): ``"win"`` (default) gives the zero-sum result
([`returns`][pickomino_rules.encoding.returns]) at the end and 0 before; ``"worms"`` gives at each
step the change of the learner's worms minus the others' mean
([`worm_margins`][pickomino_rules.encoding.worm_margins]) since its previous decision; over an
episode they sum to the margin's change from the learner's first decision to the end.
``"own"`` gives the same change counted up to the end of the learner's own turn only: what its
decision and its dice did, without the other players' turns that follow (whose outcome its
decision hardly changes, and which would otherwise be credited to its last move of a turn).

A game longer than ``max_steps`` learner steps is cut short and reported as truncated.

An action number outside the action space raises
[`ActionEncodingError`][pickomino_rules.encoding.ActionEncodingError]. A masked (illegal)
action, by default (``illegal_action="penalize"``), changes nothing, gives
``illegal_penalty`` as reward and ``info["illegal_action"] = True``, and counts as a step
toward ``max_steps``, so that a policy stuck on illegal actions is truncated: generic tools
(gymnasium's ``check_env``, plain PPO) step unmasked samples. ``illegal_action="lose"`` ends
the episode there as a loss (terminated, ``illegal_penalty``), as PettingZoo's classic games
do; ``illegal_action="raise"`` raises
[`IllegalActionError`][pickomino_rules.errors.IllegalActionError] and changes nothing, for
debugging a masked learner.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Literal, SupportsFloat

from pickomino_rules.errors import MissingExtraError

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as error:  # an extra: say which, and how to add it here
    what = f"the gymnasium environment ({error.name} is missing)"
    raise MissingExtraError(what, "rl") from None

from collections.abc import Mapping

from pickomino_rules.bots import get_bot
from pickomino_rules.encoding import Encoding, returns, worm_margins
from pickomino_rules.errors import IllegalActionError, InvalidSetupError, PickominoError, brief
from pickomino_rules.game import Bot, apply, is_terminal, new_game, sample_chance
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Sequence

    from numpy.typing import NDArray

    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["PickominoEnv", "ResetNeededError"]

Observation = Any  # an array, or a dict of arrays with mask_in_observation


class PickominoEnv(gymnasium.Env[Observation, np.int64]):
    """One learning seat of a Pickomino game; the other seats are bots.

    Args:
        variant: A registered variant's name, or composed rules.
        players: Number of players, the learner included.
        options: Rule options (with a variant name).
        opponents: A bot (name or callable) for every other seat, or one per other seat
            in seat order after the learner.
        seat: The learner's seat (0 moves first), or None for a random seat at each reset.
        reward: ``"win"``, ``"worms"`` or ``"own"`` (see the module).
        max_steps: Learner decisions after which the episode is truncated.
        mask_in_observation: Observations as a Dict with the action mask.
        illegal_action: A masked action is ``"penalize"``d (the default: nothing changes,
            the step counts), ends the episode as a loss (``"lose"``) or raises
            (``"raise"``).
        illegal_penalty: The reward of a masked action when penalized or lost.
        render_mode: None or ``"ansi"``.

    Raises:
        InvalidSetupError: Bad variant, players, seat, opponents or option.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium's way)

    def __init__(  # noqa: PLR0913 (the settings of an environment)
        self,
        variant: str | Rules = "classic",
        players: int = 2,
        *,
        options: Mapping[str, object] | None = None,
        opponents: str | Bot | Sequence[str | Bot] = "greedy",
        seat: int | None = 0,
        reward: Literal["win", "worms", "own"] = "win",
        max_steps: int = 1000,
        mask_in_observation: bool = False,
        illegal_action: Literal["penalize", "lose", "raise"] = "penalize",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        rules, _ = new_game(variant, players=players, options=options)
        self.rules: Rules = rules
        self.encoding = Encoding.of(rules, players)
        self._bots = _bots(opponents, players)
        if seat is not None:
            _check_seat(seat, players)
        _choose("reward", reward, ("win", "worms", "own"))
        _choose("illegal_action", illegal_action, ("penalize", "lose", "raise"))
        _choose("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        _check_max_steps(max_steps)
        self._seat_choice = seat
        self._reward = reward
        self._max_steps = max_steps
        self._mask_in_observation = mask_in_observation
        self._illegal_action = illegal_action
        self._illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode

        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.observation_space = _observation_space(self.encoding, mask=mask_in_observation)
        self.seat = 0 if seat is None else seat
        self.state: GameState | None = None
        self._rng = random.Random()
        self._steps = 0
        self._lost = False
        self._turn_end: GameState | None = None
        self._made: GameState | None = None  # the state the last step made (see _answer)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new game; with ``seed``, the same game (dice and bots) every time.

        Args:
            seed: Seeds the environment's random generator.
            options: ``{"seat": k}`` puts the learner at seat k for this game.

        Raises:
            InvalidSetupError: ``options`` is not such a mapping, or a bad seat.
            gymnasium.error.Error: A bad seed (gymnasium's own check).
        """
        given = reset_options(options, ("seat",))
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**63)))
        seat = given.get("seat", self._seat_choice)
        if seat is None:
            seat = int(self.np_random.integers(self.encoding.players))
        _check_seat(seat, self.encoding.players)
        self.seat = seat
        _, state = new_game(self.rules, players=self.encoding.players)
        self.state = self._made = self._advance(state)
        self._steps = 0
        self._lost = False
        return self._answer()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the dice and the bots up to its next decision.

        Raises:
            ActionEncodingError: ``action`` is not a number of the action space.
            IllegalActionError: The action is masked (only with ``illegal_action="raise"``).
            ResetNeededError: ``reset`` was not called, or the episode is over (a
                ``RuntimeError``).
        """
        state = self.state
        # (a state the engine made here fits the rules; one set by hand is checked)
        over = state is not None and (
            state.phase is _GAME_OVER if state is self._made else is_terminal(self.rules, state)
        )
        if state is None or self._lost or over:
            msg = "call reset() first: no game is in progress"
            raise ResetNeededError(msg)
        move = self.encoding.decode(action)
        before = worm_margins(self.rules, state)[self.seat] if self._reward != "win" else 0.0
        try:
            after = apply(self.rules, state, move)
        except IllegalActionError:
            if self._illegal_action == "raise":
                raise
            self._steps += 1  # a wasted step still counts toward max_steps
            self._lost = self._illegal_action == "lose"  # the episode ends as a loss
            truncated = not self._lost and self._steps >= self._max_steps
            observation, info = self._answer()
            info["illegal_action"] = True
            return observation, self._illegal_penalty, self._lost, truncated, info
        self.state = self._made = self._advance(after)
        self._steps += 1
        terminated = self.state.phase is _GAME_OVER  # (made by the engine: it fits)
        truncated = not terminated and self._steps >= self._max_steps
        if self._reward == "win":  # 0 until the end
            reward = returns(self.rules, self.state)[self.seat] if terminated else 0.0
        else:
            counted = self.state if self._reward == "worms" else self._turn_end
            assert counted is not None  # noqa: S101 (_advance sets it)
            reward = worm_margins(self.rules, counted)[self.seat] - before
        observation, info = self._answer()
        return observation, float(reward), terminated, truncated, info

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        return f"{self.state}\n(learner: player {self.seat})\n"

    def action_masks(self) -> NDArray[np.int8]:
        """The current legal-action mask (the method masked-PPO implementations look for)."""
        if self.state is None:
            return np.zeros(self.encoding.num_actions, dtype=np.int8)
        return self.encoding.legal_mask(self.state)

    def _advance(self, state: GameState) -> GameState:
        """Roll the dice and move the bots until the learner decides or the game ends.

        Sets ``_turn_end``: the state where the learner's own turn is over.
        """
        rules, rng, seat, bots = self.rules, self._rng, self.seat, self._bots
        players = len(bots) + 1
        turn_end = None
        while True:  # (locals, not attributes: this loop runs at every die and bot move)
            phase = state.phase
            if turn_end is None and (phase is _GAME_OVER or state.player != seat):
                turn_end = state
            if phase is _ROLL:
                state = apply(rules, state, sample_chance(rules, state, rng))  # (the engine's own)
            elif phase is _GAME_OVER or state.player == seat:
                self._turn_end = turn_end or state
                return state
            else:
                bot = bots[(state.player - seat - 1) % players]
                state = apply(rules, state, bot(rules, state, rng))

    def _answer(self) -> tuple[Observation, dict[str, Any]]:
        """The observation and the info of the current state (one mask for both)."""
        state = self.state
        assert state is not None  # noqa: S101 (reset() ran)
        # made by the engine here, the checks would find nothing; set by hand, they run
        checked = state is not self._made
        features, mask = self.encoding._seen_by(state, self.seat, checked=checked)  # noqa: SLF001
        info = {"action_mask": mask, "seat": self.seat, "state": state}
        if self._mask_in_observation:
            return {"observation": features, "action_mask": mask.copy()}, info
        return features, info


_ROLL, _GAME_OVER = Phase.ROLL, Phase.GAME_OVER  # (module globals: cheaper than enum reads)


def _observation_space(encoding: Encoding, *, mask: bool) -> spaces.Space[Any]:
    """One seat's observations: the encoding's features, or a Dict with the action mask."""
    features = spaces.Box(
        low=np.zeros_like(encoding.observation_high),
        high=encoding.observation_high,
        dtype=np.float32,
    )
    if not mask:
        return features
    legal = spaces.Box(0, 1, (encoding.num_actions,), np.int8)
    return spaces.Dict({"observation": features, "action_mask": legal})


def _check_max_steps(max_steps: object) -> None:
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        msg = f"max_steps must be a positive whole number, got {max_steps!r}"
        raise InvalidSetupError(msg)


class ResetNeededError(PickominoError, gymnasium.error.ResetNeeded, RuntimeError):
    """An environment stepped before ``reset`` or after its episode (or game) ended.

    It is gymnasium's ``ResetNeeded`` and, as before, a ``RuntimeError``.
    """


def reset_options(options: object, known: tuple[str, ...]) -> Mapping[str, Any]:
    """The options of a ``reset``: None or a mapping (of which the ``known`` names are read).

    Other names are left alone, as environments' checkers pass options of their own.

    Raises:
        InvalidSetupError: Not a mapping.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        msg = f"options must be a dict ({', '.join(known)}), got {type(options).__name__}"
        raise InvalidSetupError(msg)
    return options


def _check_seat(seat: object, players: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        msg = f"seat must be None or 0 to {players - 1}, got {brief(seat)}"
        raise InvalidSetupError(msg)


def _choose(name: str, value: object, allowed: tuple[object, ...]) -> None:
    if value not in allowed:
        msg = f"{name} must be one of {', '.join(map(repr, allowed))}, got {brief(value)}"
        raise InvalidSetupError(msg)


def _bots(opponents: str | Bot | Sequence[str | Bot], players: int) -> tuple[Bot, ...]:
    """One bot per other seat, in seat order after the learner."""
    chosen = (
        [opponents] * (players - 1)
        if isinstance(opponents, str) or callable(opponents)
        else list(opponents)
    )
    if len(chosen) != players - 1:
        msg = f"{players - 1} opponents needed, got {len(chosen)}"
        raise InvalidSetupError(msg)
    bots: list[Bot] = []
    for bot in chosen:
        if isinstance(bot, str):
            try:
                bots.append(get_bot(bot))
            except LookupError as error:
                raise InvalidSetupError(str(error)) from None
        elif callable(bot):
            bots.append(bot)
        else:
            msg = f"an opponent is a bot's name or a bot, got {bot!r}"
            raise InvalidSetupError(msg)
    return tuple(bots)
