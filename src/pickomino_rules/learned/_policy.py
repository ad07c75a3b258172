"""A policy network played with numpy alone: observation in, the best legal action out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from pickomino_rules.errors import IllegalActionError, MissingExtraError, PickominoError, brief

try:
    import numpy as np
except ImportError:  # an extra: a learned bot needs numpy to play
    raise MissingExtraError("a learned bot", "solver") from None

from pickomino_rules.encoding import Encoding
from pickomino_rules.game import new_game
from pickomino_rules.learned._network import (
    Layers,
    NetworkFileError,
    as_layers,
    load_game_network,
    read_only,
    save_game_network,
)
from pickomino_rules.validation import check_shape

if TYPE_CHECKING:
    import random
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from numpy.typing import NDArray

    from pickomino_rules.actions import Action
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["InvalidPolicyError", "PolicyBot"]

_FORMAT = 1
"""The version of the weights file's layout."""


def network_input(encoding: Encoding, state: GameState) -> NDArray[np.float32]:
    """What a policy network reads at ``state``: the mover's observation scaled into [0, 1]."""
    return encoding.observe(state, state.player) / encoding.observation_high


class InvalidPolicyError(PickominoError, ValueError):
    """A weights file that is not a policy of this library, or a policy that cannot play."""


def _layers(layers: Sequence[tuple[Any, Any]]) -> Layers:
    try:
        return as_layers(layers)
    except NetworkFileError as error:
        raise InvalidPolicyError(str(error)) from None


@attrs.frozen(eq=False)
class PolicyBot:
    """A bot that plays the most likely legal action of a trained policy network.

    The network is a multilayer perceptron with tanh hidden layers, as
    stable-baselines3's ``MlpPolicy`` builds: the observation of the player to move
    ([`Encoding.observe`][pickomino_rules.encoding.Encoding.observe], divided by
    ``observation_high``) in, one logit per action number out; illegal actions are masked.
    It plays the game it was trained for only (see `supports`).

    Attributes:
        variant: The variant it was trained on.
        players: The number of players it was trained with.
        options: The variant's options in force when it was trained.
        layers: Each layer's weights (outputs x inputs) and biases, input layer first.
        about: How it was made: the training command, seed, time, library versions.

    Examples:
        >>> import random
        >>> from pickomino_rules import RollOutcome, apply, new_game
        >>> from pickomino_rules.learned import load_policy
        >>> bot = load_policy()
        >>> rules, state = new_game(bot.variant, players=bot.players)
        >>> state = apply(rules, state, RollOutcome.parse("1223wwww"))
        >>> bot(rules, state, random.Random(0))
        Take(Face.WORM)
    """

    variant: str
    players: int
    options: Mapping[str, Any] = attrs.field(converter=read_only)
    layers: Layers = attrs.field(converter=_layers, repr=False)
    about: Mapping[str, Any] = attrs.field(converter=read_only, repr=False)

    def supports(self, rules: Rules, players: int) -> bool:
        """Whether it plays this game: its variant, options and number of players."""
        return (
            rules.name == self.variant
            and players == self.players
            and dict(rules.options) == dict(self.options)
        )

    def action_scores(self, rules: Rules, state: GameState) -> NDArray[np.float64]:
        """The network's logit of each action number at ``state``; -inf where illegal."""
        check_shape(rules, state)
        encoding = self._encoding(rules, state.players)
        signal = network_input(encoding, state)
        for weights, bias in self.layers[:-1]:
            signal = np.tanh(weights @ signal + bias)
        weights, bias = self.layers[-1]
        scores = weights @ signal + bias
        scores[encoding.legal_mask(state) == 0] = -np.inf
        return scores

    def __call__(self, rules: Rules, state: GameState, rng: random.Random) -> Action:  # noqa: ARG002
        """The legal action the network scores highest (it draws nothing from ``rng``)."""
        scores = self.action_scores(rules, state)
        if np.isneginf(scores).all():
            msg = "bots decide for players: this state has no decision (a roll or the end)"
            raise IllegalActionError(msg)
        return Encoding.of(rules, self.players).actions[int(np.argmax(scores))]

    def _encoding(self, rules: Rules, players: int) -> Encoding:
        if not self.supports(rules, players):
            msg = f"this policy plays {self.players}-player {self.variant}"
            if rules.name == self.variant and players == self.players:  # options are many:
                changed = sorted(  # name those that differ, and the message stays short
                    name
                    for name in {*self.options, *rules.options}
                    if self.options.get(name) != rules.options.get(name)
                )
                msg += f" with other values of the option(s) {brief(', '.join(changed), 120)}"
            else:
                msg += f", not {players}-player {rules.name}"
            raise InvalidPolicyError(msg)
        encoding = Encoding.of(rules, self.players)
        inputs, outputs = self.layers[0][0].shape[1], self.layers[-1][0].shape[0]
        if (inputs, outputs) != (encoding.observation_size, encoding.num_actions):
            msg = (
                f"the network maps {inputs} inputs to {outputs} actions; "
                f"{rules.name} has {encoding.observation_size} and {encoding.num_actions}"
            )
            raise InvalidPolicyError(msg)
        return encoding

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its game and layers (for worker processes), rebuilt and checked by `of`."""
        network = (self.variant, self.players, dict(self.options), self.layers, dict(self.about))
        return type(self).of, network

    def save(self, path: str | Path) -> None:
        """Write the policy to a ``.npz`` file (numpy arrays and a JSON header, no pickles).

        Raises:
            SaveError: It cannot be written there; a file already at ``path`` is left whole.
        """
        network = (self.variant, self.players, dict(self.options), self.layers, dict(self.about))
        save_game_network(path, _FORMAT, network)

    @classmethod
    def load(cls, path: str | Path) -> PolicyBot:
        """Read a policy that `save` wrote.

        Raises:
            InvalidPolicyError: Not such a file, or its network does not fit its game.
            OSError: The file cannot be read.
        """
        try:
            network = load_game_network(path, "policy", _FORMAT)
        except NetworkFileError as error:
            raise InvalidPolicyError(str(error)) from None
        return cls.of(*network)

    @classmethod
    def of(
        cls,
        variant: str,
        players: int,
        options: Mapping[str, Any],
        layers: Sequence[tuple[Any, Any]],
        about: Mapping[str, Any],
    ) -> PolicyBot:
        """A policy from its layers, checked against its game's encoding.

        The options are kept as the variant reads them: a file keeps lists where the rules
        have tuples (the extended game's ``low_tile_worms``, say).

        Raises:
            InvalidPolicyError: The network's inputs or outputs do not fit the game.
            UnknownVariantError: The variant is not installed.
        """
        rules, _ = new_game(variant, players=players, options=options)
        bot = cls(variant, players, rules.options, layers, about)
        bot._encoding(rules, players)
        return bot
