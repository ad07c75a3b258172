"""A PettingZoo AEC environment: every player an agent, exact rules in every variant.

```python
from pickomino_rules.envs.pettingzoo import env

game = env(variant="extended", players=3)
game.reset(seed=42)
for agent in game.agent_iter():
    observation, reward, termination, truncation, info = game.last()
    if termination or truncation:
        action = None
    else:  # a random legal action
        action = game.action_space(agent).sample(observation["action_mask"])
    game.step(action)
```

Agents are ``player_0``, ``player_1``, ...; the agent to act is the player to move (a player
makes several decisions in a turn). The dice are rolled inside ``step`` from the generator
seeded by ``reset(seed=...)``. Each observation is a dict of ``observation`` (the
[`Encoding`][pickomino_rules.encoding.Encoding] vector seen from that agent's seat) and
``action_mask`` (all 0 for an agent not to act), as PettingZoo's classic games have it.

Rewards (``reward=``): ``"win"`` (default) the zero-sum result at the end; ``"worms"`` each
step's change of every player's worm margin. ``max_cycles`` decisions truncate the game.

An illegal (masked) action, in [`env`][pickomino_rules.envs.pettingzoo.env], ends the game as a
loss for its agent, as PettingZoo's classic games have it (their ``TerminateIllegalWrapper``):
it gets ``illegal_reward`` (-1), the others 0, and every agent is done.
``env(illegal_action="raise")`` and ``raw_env`` raise
[`IllegalActionError`][pickomino_rules.errors.IllegalActionError] instead and change nothing,
for debugging. An action number out of range always raises
[`ActionEncodingError`][pickomino_rules.encoding.ActionEncodingError].
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Literal

from pickomino_rules.errors import MissingExtraError

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # an extra: say which, and how to add it here
    what = f"the PettingZoo environment ({error.name} is missing)"
    raise MissingExtraError(what, "rl") from None

from pickomino_rules.encoding import ActionEncodingError, Encoding, returns, worm_margins
from pickomino_rules.envs.gymnasium import ResetNeededError, reset_options
from pickomino_rules.errors import InvalidSetupError, PickominoError, brief
from pickomino_rules.game import apply, is_terminal, new_game, sample_chance
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["ResetNeededError", "UnknownAgentError", "env", "raw_env"]

AgentID = str
Observation = dict[str, Any]


def env(
    *,
    illegal_action: Literal["lose", "raise"] = "lose",
    illegal_reward: float = -1.0,
    **kwargs: Any,  # noqa: ANN401 (raw_env's arguments)
) -> AECEnv[AgentID, Observation, int]:
    """The environment wrapped as PettingZoo's classic games wrap theirs (see ``raw_env``).

    Args:
        illegal_action: ``"lose"``: a masked action ends the game, its agent getting
            ``illegal_reward`` and the others 0 (PettingZoo's ``TerminateIllegalWrapper``);
            ``"raise"``: it raises ``IllegalActionError`` and changes nothing.
        illegal_reward: The reward of an agent that loses by an illegal action.
        **kwargs: ``raw_env``'s arguments.

    Raises:
        InvalidSetupError: Bad settings.
    """
    if illegal_action not in ("lose", "raise"):
        msg = f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}"
        raise InvalidSetupError(msg)
    game: AECEnv[AgentID, Observation, int] = raw_env(**kwargs)
    if illegal_action == "lose":
        game = _InRange(wrappers.TerminateIllegalWrapper(game, illegal_reward=illegal_reward))
    return wrappers.OrderEnforcingWrapper(game)


class UnknownAgentError(PickominoError, KeyError, ValueError):
    """An agent name that is not one of the environment's ``possible_agents``."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""  # not KeyError's repr of the message


class _InRange(wrappers.BaseWrapper[AgentID, Observation, int]):  # type: ignore[misc]
    """Refuses an action number outside the action space with the encoding's own error.

    ``TerminateIllegalWrapper`` reads the mask at the action's index: out of range, that
    would be a bare ``IndexError``.
    """

    def step(self, action: int | None) -> None:
        game = self.unwrapped
        agent = game.agent_selection
        if action is not None or not game.agents:
            game.encoding.decode(action)  # raises ActionEncodingError
        elif not (game.terminations[agent] or game.truncations[agent]):
            msg = "None steps only an agent that is done; this one must act"
            raise ActionEncodingError(msg)
        super().step(action)


class raw_env(AECEnv[AgentID, Observation, int]):  # type: ignore[misc]  # noqa: N801 (PettingZoo's name)
    """Pickomino as an AEC environment: one agent per player.

    Args:
        variant: A registered variant's name, or composed rules.
        players: Number of players (agents).
        options: Rule options (with a variant name).
        reward: ``"win"`` or ``"worms"`` (see the module).
        max_cycles: Decisions after which every agent is truncated.
        render_mode: None or ``"ansi"``.

    Raises:
        InvalidSetupError: Bad variant, players, options or settings.
    """

    metadata = {  # noqa: RUF012 (PettingZoo's convention)
        "name": "pickomino_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(  # noqa: PLR0913 (the settings of an environment)
        self,
        variant: str | Rules = "classic",
        players: int = 2,
        *,
        options: Mapping[str, object] | None = None,
        reward: Literal["win", "worms"] = "win",
        max_cycles: int = 10_000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        rules, _ = new_game(variant, players=players, options=options)
        if reward not in ("win", "worms"):
            msg = f"reward must be 'win' or 'worms', got {reward!r}"
            raise InvalidSetupError(msg)
        if render_mode not in (None, "ansi"):
            msg = f"render_mode must be None or 'ansi', got {render_mode!r}"
            raise InvalidSetupError(msg)
        if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
            msg = f"max_cycles must be a positive whole number, got {max_cycles!r}"
            raise InvalidSetupError(msg)
        self.rules = rules
        self.encoding = Encoding.of(rules, players)
        self.render_mode = render_mode
        self._reward = reward
        self._max_cycles = max_cycles
        self.possible_agents = [f"player_{index}" for index in range(players)]
        high = self.encoding.observation_high
        space = spaces.Dict(
            {
                "observation": spaces.Box(np.zeros_like(high), high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoding.num_actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {
            agent: spaces.Discrete(self.encoding.num_actions) for agent in self.possible_agents
        }
        self._rng = random.Random()
        self.state: GameState | None = None
        self._made: GameState | None = None  # the state the last step made (see observe)
        self._decisions = 0

    def observation_space(self, agent: AgentID) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for all)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: AgentID) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same for all)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; a seed makes its dice the same every time.

        Args:
            seed: Seeds the dice.
            options: ``{"first_player": k}`` lets player k begin.

        Raises:
            InvalidSetupError: A seed that is not a whole number, options that are not such
                a mapping, or a bad first player.
        """
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int):
                msg = f"seed must be a whole number or None, got {type(seed).__name__}"
                raise InvalidSetupError(msg)
            self._rng = random.Random(seed)
        first = reset_options(options, ("first_player",)).get("first_player", 0)
        _, state = new_game(self.rules, players=len(self.possible_agents), first_player=first)
        self.state = self._made = self._roll(state)
        self._decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[AgentID, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.player]

    def observe(self, agent: AgentID) -> Observation:
        """What ``agent`` sees: its observation vector and its action mask.

        Raises:
            ResetNeededError: ``reset`` was not called.
            UnknownAgentError: ``agent`` is not one of ``possible_agents``.
        """
        if self.state is None:
            msg = "call reset() first: no game is in progress"
            raise ResetNeededError(msg)
        if agent not in self.possible_agents:
            msg = f"no agent {brief(agent)}; the agents are {', '.join(self.possible_agents)}"
            raise UnknownAgentError(msg)
        seat = self.possible_agents.index(agent)
        state = self.state
        # made by the engine here, the checks would find nothing; set by hand, they run
        checked = state is not self._made
        over = is_terminal(self.rules, state) if checked else state.phase is _GAME_OVER
        to_act = agent == self.agent_selection and not over
        features, mask = self.encoding._seen_by(state, seat, acting=to_act, checked=checked)  # noqa: SLF001
        return {"observation": features, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action, then roll the dice until someone decides.

        Raises:
            ActionEncodingError: ``action`` is not a number of the action space.
            IllegalActionError: The action is masked.
            ResetNeededError: ``reset`` was not called, or every agent is done.
        """
        if self.state is None or not self.agents:
            msg = "call reset() first: no game is in progress"
            raise ResetNeededError(msg)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None  # noqa: S101 (reset() ran)
        move = self.encoding.decode(action)
        before = worm_margins(self.rules, self.state) if self._reward == "worms" else ()
        state = self._roll(apply(self.rules, self.state, move))
        self.state = self._made = state
        self._decisions += 1
        self._cumulative_rewards[agent] = 0.0
        over = state.phase is _GAME_OVER  # (made by the engine: it fits)
        if self._reward == "worms":
            after = worm_margins(self.rules, state)
            rewards = [now - then for now, then in zip(after, before, strict=True)]
            self.rewards = dict(zip(self.agents, rewards, strict=True))
        elif over:
            self.rewards = dict(zip(self.agents, returns(self.rules, state), strict=True))
        else:  # 0 until the end
            self.rewards = dict.fromkeys(self.agents, 0.0)
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._decisions >= self._max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.player]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        return str(self.state)

    def close(self) -> None:
        """Nothing to release."""

    def _roll(self, state: GameState) -> GameState:
        rules, rng = self.rules, self._rng
        while state.phase is _ROLL:
            state = apply(rules, state, sample_chance(rules, state, rng))
        return state


_ROLL, _GAME_OVER = Phase.ROLL, Phase.GAME_OVER  # (module globals: cheaper than enum reads)
