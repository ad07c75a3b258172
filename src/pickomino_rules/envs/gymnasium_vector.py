"""A gymnasium vector environment on the batch engine: many games, one learning seat each.

```python
import gymnasium
import pickomino_rules.envs  # registers the ids

envs = gymnasium.make_vec("pickomino_rules/PickominoBatch-v0", num_envs=1024, players=3)
observations, infos = envs.reset(seed=1)
```

It is the vectorised twin of [`PickominoEnv`][pickomino_rules.envs.gymnasium.PickominoEnv]:
the same observations, action numbers, masks (``infos["action_mask"]``) and rewards, one row
per game, but all games live in one [`BatchGames`][pickomino_rules.batch.BatchGames] and move
together, so a step of 1,024 games costs about what a handful of single steps cost. It plays
every variant the batch engine plays: ``classic``, ``extended`` and ``extrawurm`` with any
options, and yours when its modules bring batch twins. The opponents are any registered bots:
a bot with a
vectorised form ([`get_vector_bot`][pickomino_rules.batch_bots.get_vector_bot]: ``greedy``,
``random``) moves every game at once; any other (``optimal``, ``margin``, your own) plays its
games' rows one by one through the reference engine, as the single environment does, at that
bot's own speed. For rules without batch twins, ``gymnasium.make_vec(
"pickomino_rules/Pickomino-v0", ...)`` vectorises the single environment.

A finished game is reset on the next step (gymnasium's ``NEXT_STEP`` autoreset): the
observation returned with ``terminated`` or ``truncated`` is the game's last, and the action
given for that row on the next step is ignored while the row starts a new game (reward 0).
``seat=None`` seats the learner at random in each game, anew at every reset of the row
(``infos["seat"]`` says where).

A masked (illegal) action is handled per row as in the single environment: by default
(``illegal_action="penalize"``) that row's game does not move, its reward is
``illegal_penalty`` and the step counts toward ``max_steps``; ``"lose"`` ends that row's game
as a loss (terminated); ``"raise"`` raises
[`BatchActionError`][pickomino_rules.batch.BatchActionError], naming the rows, and changes
nothing. Actions of the wrong shape or type, or out of range, always raise it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Literal

import attrs

from pickomino_rules.errors import MissingExtraError

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # an extra: say which, and how to add it here
    what = f"the gymnasium vector environment ({error.name} is missing)"
    raise MissingExtraError(what, "rl") from None

from pickomino_rules.batch import BatchGames
from pickomino_rules.batch_bots import UnknownVectorBotError, get_vector_bot
from pickomino_rules.bots import InvalidBotError, UnknownBotError, get_bot
from pickomino_rules.envs.gymnasium import (
    _check_max_steps,
    _choose,
    _observation_space,
    reset_options,
)
from pickomino_rules.errors import InvalidSetupError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from numpy.typing import ArrayLike, NDArray

    from pickomino_rules.batch_bots import VectorBot
    from pickomino_rules.encoding import Encoding
    from pickomino_rules.game import Bot
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["PickominoVectorEnv"]

Observation = Any  # an array, or a dict of arrays with mask_in_observation


class PickominoVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` games, one learning seat in each; the other seats are vectorised bots.

    Args:
        num_envs: Number of games.
        players: Players per game, the learner included.
        variant: A variant's name or composed rules (see `batch_rules`).
        options: The variant's options.
        opponents: A registered bot's name for every other seat, or one per other seat in
            seat order after the learner (vectorised where the bot has a vectorised form).
        seat: The learner's seat in every game (0 moves first), or None: a random seat in
            each game, drawn anew when the game starts again.
        reward: ``"win"`` (the zero-sum result at the end), ``"worms"`` (the change of
            the learner's worms minus the others' mean since its previous decision) or
            ``"own"`` (that change up to the end of the learner's own turn only; see
            [`PickominoEnv`][pickomino_rules.envs.gymnasium.PickominoEnv]).
        max_steps: Learner decisions after which a game is truncated.
        mask_in_observation: Observations as a Dict of ``observation`` and ``action_mask``.

    Raises:
        InvalidSetupError: Bad rules (a module without a batch twin: ``BatchRulesError``),
            players, seat, opponents or settings.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (gymnasium's way)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(  # noqa: PLR0913 (the settings of an environment)
        self,
        num_envs: int = 16,
        players: int = 2,
        *,
        variant: str | Rules = "classic",
        options: Mapping[str, object] | None = None,
        opponents: str | Sequence[str] = "greedy",
        seat: int | None = 0,
        reward: Literal["win", "worms", "own"] = "win",
        max_steps: int = 1000,
        mask_in_observation: bool = False,
        illegal_action: Literal["penalize", "lose", "raise"] = "penalize",
        illegal_penalty: float = -1.0,
    ) -> None:
        self._settings = {"variant": variant, "options": options}
        self.games = BatchGames(num_envs, players, variant=variant, options=options)
        self.num_envs = num_envs
        self.rules: Rules = self.games.rules
        self.encoding = self.games.encoding
        self._bots = _bots(opponents, players, self.games.encoding)
        self._rng = random.Random()
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            msg = f"seat must be 0 to {players - 1} or None (random), got {seat!r}"
            raise InvalidSetupError(msg)
        _choose("reward", reward, ("win", "worms", "own"))
        _choose("illegal_action", illegal_action, ("penalize", "lose", "raise"))
        _check_max_steps(max_steps)
        self.seat = seat
        self.seats = np.full(num_envs, 0 if seat is None else seat, dtype=np.int64)
        """The learner's seat in each game."""
        self._rows = np.arange(num_envs)
        self._illegal_action = illegal_action
        self._illegal_penalty = float(illegal_penalty)
        self._reward = reward
        self._max_steps = max_steps
        self._mask_in_observation = mask_in_observation
        self.single_action_space = spaces.Discrete(self.encoding.num_actions)
        self.single_observation_space = _observation_space(self.encoding, mask=mask_in_observation)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._steps = np.zeros(num_envs, dtype=np.int64)
        self._needs_reset = np.zeros(num_envs, dtype=np.bool_)
        self._draws = np.random.default_rng()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start every game again; with ``seed``, the same games (dice and bots) every time.

        Args:
            seed: Seeds the environment's random generator.
            options: ``{"reset_mask": mask}`` starts again only the games where the boolean
                mask is True (the others carry on).

        Raises:
            InvalidSetupError: ``options`` is not such a mapping, or a bad mask.
        """
        mask = reset_options(options, ("reset_mask",)).get("reset_mask")
        super().reset(seed=seed)
        if mask is None:
            dice, self._draws = self.np_random.spawn(2)
            self._rng = random.Random(int(self._draws.integers(2**63)))
            self.games = BatchGames(
                self.num_envs,
                self.games.players,
                **self._settings,  # type: ignore[arg-type]
                seed=dice,
                auto_reset=False,
            )
            rows = np.ones(self.num_envs, dtype=np.bool_)
        else:
            rows = np.asarray(mask)
            if rows.shape != (self.num_envs,) or rows.dtype != np.bool_:
                msg = f"reset_mask must be a boolean array of shape ({self.num_envs},)"
                raise InvalidSetupError(msg)
            self.games.reset(rows)
        self._restart(rows)
        self._advance()
        return self._observation(), self._info()

    def _restart(self, rows: NDArray[np.bool_]) -> None:
        """Bookkeeping of games started again: steps from 0, a seat drawn if random."""
        self._steps[rows] = 0
        self._needs_reset[rows] = False
        if self.seat is None:
            self.seats[rows] = self._draws.integers(self.games.players, size=int(rows.sum()))

    def step(
        self, actions: ArrayLike
    ) -> tuple[
        Observation, NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]
    ]:
        """Play the learner's action in every game, then the dice and the bots.

        Each game goes on to the learner's next decision; a game that ended on the
        previous step starts again instead.

        Raises:
            BatchActionError: Wrong shape or type, an action number out of range, or (with
                ``illegal_action="raise"``) a masked action (the rows are named; nothing
                changes).
        """
        games, rows = self.games, self._rows
        restarting = self._needs_reset.copy()  # _restart clears the flags it reads
        acting = ~restarting & ~games.over
        illegal = self._illegal(actions, acting)
        moving = acting & ~illegal
        before = self._margins() if self._reward != "win" else None
        played = np.where(illegal, 0, actions) if illegal.any() else actions
        rewards = games.step(played, active=moving).rewards[rows, self.seats]  # checks first
        rewards = rewards.astype(np.float32)
        # the learner's turn is resolved within its step (its rolls, a bust, a tile)
        own = self._margins() if self._reward == "own" else None
        if restarting.any():
            games.reset(restarting)
            self._restart(restarting)
        rewards += self._advance()
        if before is not None:
            rewards = ((self._margins() if own is None else own) - before).astype(np.float32)
        rewards[restarting] = 0
        rewards[illegal] = self._illegal_penalty
        terminated = games.over | (illegal if self._illegal_action == "lose" else False)
        self._steps[acting] += 1
        truncated = acting & ~terminated & (self._steps >= self._max_steps)
        self._needs_reset = terminated | truncated
        info = self._info()
        info["illegal_action"] = illegal
        return self._observation(), rewards, terminated, truncated, info

    def _illegal(self, actions: ArrayLike, acting: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """The acting rows whose action is masked (none when masked actions raise)."""
        none = np.zeros(self.num_envs, dtype=np.bool_)
        if self._illegal_action == "raise":
            return none
        chosen = np.asarray(actions)
        if (
            chosen.shape != (self.num_envs,)
            or chosen.dtype.kind not in "iu"
            or ((chosen < 0) | (chosen >= self.encoding.num_actions)).any()
        ):
            return none  # the batch's step refuses them with its own error
        legal = self.games.legal_mask()[self._rows, chosen]
        illegal: NDArray[np.bool_] = acting & ~legal
        return illegal

    def action_masks(self) -> NDArray[np.int8]:
        """The legal-action masks of every game, shape (num_envs, actions)."""
        return self._mask()

    def _advance(self) -> NDArray[np.float32]:
        """Move the bots until the learner decides or the game is over, in every game."""
        games, seats = self.games, self.seats
        players = games.players
        gained = np.zeros(self.num_envs, dtype=np.float32)
        while True:
            waiting = ~games.over & (games.to_move != seats)
            if not waiting.any():
                return gained
            actions = np.zeros(self.num_envs, dtype=np.int64)
            behind = (games.to_move.astype(np.int64) - seats - 1) % players
            for index, bot in enumerate(self._bots):
                chosen = waiting & (behind == index)
                if not chosen.any():
                    continue
                if isinstance(bot, _Reference):
                    rows = np.flatnonzero(chosen)
                    actions[rows] = bot.choose(self.rules, games.states(rows), self._rng)
                else:
                    actions[chosen] = bot(games, self._draws)[chosen]
            done = games.step(actions, active=waiting)
            gained += done.rewards[self._rows, seats]

    def _margins(self) -> NDArray[np.float64]:
        worms = self.games.scores().astype(np.float64)
        mine = worms[self._rows, self.seats]
        others = (worms.sum(axis=1) - mine) / (self.games.players - 1)
        margins: NDArray[np.float64] = mine - others
        return margins

    def _mask(self) -> NDArray[np.int8]:
        return self.games.legal_mask().astype(np.int8)

    def _observation(self) -> Observation:
        features = self.games.observe(self.seats)
        if self._mask_in_observation:
            return {"observation": features, "action_mask": self._mask()}
        return features

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "seat": self.seats.copy()}


@attrs.frozen
class _Reference:
    """A bot without a vectorised form: it plays each of its rows through the reference engine."""

    bot: Bot
    encoding: Encoding

    def choose(self, rules: Rules, states: Sequence[GameState], rng: random.Random) -> list[int]:
        return [self.encoding.encode(self.bot(rules, state, rng)) for state in states]


def _bots(
    opponents: str | Sequence[str], players: int, encoding: Encoding
) -> tuple[VectorBot | _Reference, ...]:
    """One bot per other seat, in seat order after the learner: vectorised where it can be."""
    chosen = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
    if len(chosen) != players - 1:
        msg = f"{players - 1} opponents needed, got {len(chosen)}"
        raise InvalidSetupError(msg)
    if not all(isinstance(name, str) for name in chosen):
        msg = f"opponents are registered bots' names, got {opponents!r}"
        raise InvalidSetupError(msg)
    found: list[VectorBot | _Reference] = []
    for name in chosen:
        try:
            found.append(get_vector_bot(name))
        except UnknownVectorBotError:
            try:
                found.append(_Reference(get_bot(name), encoding))
            except (UnknownBotError, InvalidBotError) as error:
                raise InvalidSetupError(str(error)) from None
    return tuple(found)


if gymnasium.__version__ < "1":  # pragma: no cover (the rl extra asks for gymnasium>=1.0)
    msg = "pickomino_rules.envs.gymnasium_vector needs gymnasium 1.0 or newer"
    raise ImportError(msg)
