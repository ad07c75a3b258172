"""Numeric encodings for learning and search: a fixed action space, masks, observations, rewards.

An [`Encoding`][pickomino_rules.encoding.Encoding] is made once per composed rules and number of
players. It numbers every action any state of that game can offer (variant actions included), so
that a policy network has a fixed output; gives the legal-action mask of a state; turns a state
into an observation vector for one player; and decodes an action number back to the action.

The observation is a float32 vector, every value between 0 and ``observation_high``. Players are
seen from the observer's seat: seat 0 is the observer, seat 1 the next player, and so on. Its
segments, in order (``Encoding.segments`` gives each one's slice), with T tiles, n players and K
kinds of dice:

| segment | size | values |
|---------|------|--------|
| ``grill`` | T | 1 where the tile lies face up on the grill |
| ``face_down`` | T | 1 where the tile is turned face down |
| ``tops`` | n x T | for each seat, 1 at its top tile |
| ``stack_sizes`` | n | tiles in each seat's stack |
| ``scores`` | n | worms of each seat |
| ``to_move`` | n | 1 at the seat to move |
| ``phase`` | 5 | 1 at the phase: roll, choose, decide, turn over, game over |
| ``in_hand`` | K | dice in hand per kind |
| ``roll`` | K x 6 | the roll on the table: dice per kind and face (1-5, worm) |
| ``set_aside`` | 6 | dice set aside per face |
| ``total`` | 1 | points set aside this turn |
| ``stop_claims`` | 2 | worms a stop takes now: best grill tile, best steal (0: none) |
| each observed part | its own | the part's ``observe`` features, each in [0, 1] |

Rewards: [`returns`][pickomino_rules.encoding.returns] gives zero-sum results at the end (the
winners share +1, the others share -1); [`worm_margins`][pickomino_rules.encoding.worm_margins]
gives each player's worms minus the mean of the others, whose change is a zero-sum reward per step.

Examples:
    >>> from pickomino_rules import apply, new_game, parse_move
    >>> from pickomino_rules.encoding import Encoding
    >>> rules, state = new_game("classic", players=2)
    >>> encoding = Encoding.of(rules, players=2)
    >>> encoding.num_actions, encoding.observation_size
    (10, 91)
    >>> [str(encoding.decode(i)) for i in range(encoding.num_actions)][:4]
    ['roll', 'take 1', 'take 2', 'take 3']
    >>> state = apply(rules, state, parse_move(rules, "44455www"))
    >>> [str(encoding.decode(i)) for i in encoding.legal_mask(state).nonzero()[0]]
    ['take 4', 'take 5', 'take w']
    >>> encoding.observe(state, player=0)[encoding.segments["roll"]]
    array([0., 0., 0., 3., 2., 3.], dtype=float32)
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import attrs

from pickomino_rules._engine import ACTIVE
from pickomino_rules._engine.observation import PHASES, Layout
from pickomino_rules.errors import ArgumentTypeError, MissingExtraError, PickominoError, brief
from pickomino_rules.game import check_fits, is_terminal, legal_actions
from pickomino_rules.info import game_info
from pickomino_rules.result import result
from pickomino_rules.state import Phase
from pickomino_rules.validation import ODD, error_for

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the numeric encoding", "rl") from None

if TYPE_CHECKING:
    from collections.abc import Mapping

    from numpy.typing import NDArray

    from pickomino_rules.actions import Action
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["ActionEncodingError", "Encoding", "ObservationError", "returns", "worm_margins"]

_PHASES = PHASES

# The observation and mask as the engine in use writes them: the compiled kernel straight into
# numpy's arrays; the pure engine into a list, converted once (numpy's per-item cost is high).
_OBSERVE_INTO = ACTIVE.observe_into
_MASK_INTO = ACTIVE.mask_into
_INTO_ARRAYS = ACTIVE.compiled


class ObservationError(PickominoError, ValueError):
    """A state or a seat an encoding cannot observe: another number of players, no such seat."""


class ActionEncodingError(PickominoError, ValueError):
    """An action number outside the action space, or an action the space does not hold."""


@attrs.frozen(eq=False)
class Encoding:
    """The numeric encoding of one game: composed rules and a number of players.

    Build it with [`Encoding.of`][pickomino_rules.encoding.Encoding.of] (cached).

    Attributes:
        rules: The composed rules.
        players: Number of players.
        actions: Every action the game can offer; an action's number is its index.
        segments: Each observation segment's name and slice, in order.
        observation_high: Upper bound of each observation value (lower bound 0).
        unobserved: Names of variant parts that have no ``observe`` and are left out.
    """

    rules: Rules
    players: int
    actions: tuple[Action, ...]
    segments: Mapping[str, slice]
    observation_high: NDArray[np.float32] = attrs.field(repr=False)
    unobserved: tuple[str, ...]
    _numbers: dict[Action, int] = attrs.field(repr=False)
    _layout: Layout = attrs.field(repr=False)
    _by_id: dict[int, int] = attrs.field(init=False, repr=False)
    """Each action's number by the identity of the action numbered (the engine offers those
    very objects; ``_numbers`` keeps them alive)."""

    @_by_id.default
    def _identities(self) -> dict[int, int]:
        return {id(action): number for action, number in self._numbers.items()}

    @staticmethod
    def of(rules: Rules, players: int) -> Encoding:
        """The encoding of a game of ``rules`` with ``players`` players (built once).

        Raises:
            InvalidSetupError: ``players`` is out of the rules' range.
            TypeError: A variant's action class does not list its instances.
        """
        return _encoding(rules, players)

    def __copy__(self) -> Encoding:
        return self  # read-only once built

    def __deepcopy__(self, memo: dict[int, object]) -> Encoding:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Rules, int]]:
        return _encoding, (self.rules, self.players)

    @property
    def num_actions(self) -> int:
        """Size of the action space."""
        return len(self.actions)

    @property
    def observation_size(self) -> int:
        """Length of an observation vector."""
        return len(self.observation_high)

    def encode(self, action: Action) -> int:
        """The number of ``action``.

        Raises:
            ActionEncodingError: The action is not in this game's action space.
        """
        try:
            return self._numbers[action]
        except (KeyError, TypeError):
            msg = f"{action!r} is not an action of {self.rules.name} with {self.players} players"
            raise ActionEncodingError(msg) from None

    def decode(self, number: object) -> Action:
        """The action numbered ``number`` (an int or a numpy integer).

        Raises:
            ActionEncodingError: Not a whole number from 0 to ``num_actions - 1``.
        """
        if type(number) is not int:  # (a plain int, the wrappers' usual, skips the checks)
            if isinstance(number, np.integer):
                number = int(number)
            if isinstance(number, bool) or not isinstance(number, int):
                msg = f"an action number is a whole number, got {number!r}"
                raise ActionEncodingError(msg)
        if not 0 <= number < len(self.actions):
            msg = f"action number {number} is out of range 0..{len(self.actions) - 1}"
            raise ActionEncodingError(msg)
        return self.actions[number]

    def legal_mask(self, state: GameState) -> NDArray[np.int8]:
        """1 for each legal action of ``state``, else 0 (all 0 at a chance node or the end).

        Raises:
            RulesMismatchError: The state is of a differently laid-out game.
        """
        if state.phase is Phase.ROLL or state.phase is Phase.GAME_OVER:
            check_fits(self.rules, state)
            return np.zeros(len(self.actions), dtype=np.int8)
        # a malformed state: the engine's own error, from legal_actions
        if _INTO_ARRAYS:
            mask = np.zeros(len(self.actions), dtype=np.int8)
            self._mask_into(state, mask)
            return mask
        marks = [0] * len(self.actions)
        self._mask_into(state, marks)
        return np.array(marks, dtype=np.int8)

    def legal_numbers(self, state: GameState) -> list[int]:
        """The numbers of the legal actions of ``state``, ascending.

        Raises:
            RulesMismatchError: The state is of a differently laid-out game.
        """
        if state.phase is Phase.ROLL or state.phase is Phase.GAME_OVER:
            check_fits(self.rules, state)
            return []
        by_id, found = self._by_id, []
        for action in legal_actions(self.rules, state):  # a malformed state: its own error
            number = by_id.get(id(action))
            if number is None:
                try:
                    number = self._numbers[action]  # type: ignore[index]
                except KeyError:  # a variant's bug: its action class misses instances
                    shown = brief(action)
                    msg = f"legal action {shown} is not in the action space of {self.rules.name}"
                    raise ActionEncodingError(msg) from None
            found.append(number)
        found.sort()
        return found

    def observe(self, state: GameState, player: int) -> NDArray[np.float32]:
        """The observation vector of ``state`` seen by ``player`` (see the module's table).

        Raises:
            RulesMismatchError: The state is of a differently laid-out game.
            ObservationError: The state is not of this encoding's number of players, or
                ``player`` is not one of them.
            InvalidStateError: The state is malformed (built or changed by hand).
            ArgumentTypeError: ``player`` is not a whole number.
        """
        check_fits(self.rules, state)
        if isinstance(player, bool) or not isinstance(player, int | np.integer):
            msg = f"player must be a player index, got {brief(player)}"
            raise ArgumentTypeError(msg)
        try:
            players = len(state.stacks)
        except ODD as error:
            raise error_for(self.rules, state, error) from error
        if players != self.players:
            msg = f"the state has {players} players, the encoding {self.players}"
            raise ObservationError(msg)
        if not 0 <= player < self.players:
            msg = f"player {player} is not a player of a {self.players}-player game"
            raise ObservationError(msg)
        if _INTO_ARRAYS:
            values = np.zeros(len(self.observation_high), dtype=np.float32)
            self._observe_into(state, int(player), values)
            return values
        filled = [0.0] * len(self.observation_high)
        self._observe_into(state, int(player), filled)
        try:  # the pure engine wrote the state's values as they are: a malformed one's may
            return np.array(filled, dtype=np.float32)  # be no number (the kernel's refuse)
        except ODD as error:
            raise error_for(self.rules, state, error) from error

    def _seen_by(
        self, state: GameState, seat: int, *, acting: bool = True, checked: bool = False
    ) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
        """``observe(state, seat)`` and ``legal_mask(state)`` at once, for the wrappers.

        Unless ``checked``, the state must be one the engine returned (the wrappers' own
        steps made it): the checks of the state and the seat are skipped, which cost about
        as much as the kernel's writing of the two arrays. A state set by hand goes
        ``checked``, through `observe` and `legal_mask`. A variant's failing hook raises
        what the checked methods raise. Not ``acting``: the mask is all 0.
        """
        if checked or not _INTO_ARRAYS:  # (the pure engine: no checks worth skipping)
            mask = self.legal_mask(state) if acting else np.zeros(len(self.actions), np.int8)
            return self.observe(state, seat), mask
        values = np.zeros(len(self.observation_high), dtype=np.float32)
        self._observe_into(state, seat, values)
        mask = np.zeros(len(self.actions), dtype=np.int8)
        phase = state.phase
        if acting and phase is not _ROLL and phase is not _GAME_OVER:
            self._mask_into(state, mask)
        return values, mask

    def _observe_into(
        self, state: GameState, seat: int, out: NDArray[np.float32] | list[float]
    ) -> None:
        """The engine's writing of the observation, a malformed state's error made ours."""
        try:
            _OBSERVE_INTO(self._layout, self.rules, state, seat, out)
        except PickominoError:
            raise
        except ODD as error:
            raise error_for(self.rules, state, error) from error

    def _mask_into(self, state: GameState, out: NDArray[np.int8] | list[int]) -> None:
        """The engine's writing of the mask; an action the space lacks is a variant's bug."""
        try:
            _MASK_INTO(self._layout, self.rules, state, out)
        except KeyError as error:  # its action class misses instances
            shown = brief(error.args[0])
            msg = f"legal action {shown} is not in the action space of {self.rules.name}"
            raise ActionEncodingError(msg) from None


_ROLL, _GAME_OVER = Phase.ROLL, Phase.GAME_OVER  # (module globals: cheaper than enum reads)


@lru_cache(maxsize=64)  # per rules: bounded, as rules of many options come and go
def _encoding(rules: Rules, players: int) -> Encoding:
    from pickomino_rules.game import new_game  # noqa: PLC0415 (only to size the parts)

    info = game_info(rules, players)  # checks the number of players
    _, start = new_game(rules, players=players)
    actions = info.actions
    numbers = {action: number for number, action in enumerate(actions)}
    tiles, kinds = len(info.tiles), len(info.die_kinds)
    dice = max(1, sum(info.most_dice))
    sizes: list[tuple[str, int, float]] = [
        ("grill", tiles, 1),
        ("face_down", tiles, 1),
        ("tops", players * tiles, 1),
        ("stack_sizes", players, tiles),
        ("scores", players, max(1, sum(info.worms))),
        ("to_move", players, 1),
        ("phase", len(_PHASES), 1),
        ("in_hand", kinds, max(info.most_dice)),
        ("roll", kinds * 6, dice),
        ("set_aside", 6, dice),
        ("total", 1, 6 * dice),  # loose (a worm is worth 5): kept, so the spaces stay as they were
        ("stop_claims", 2, max(info.worms)),
    ]
    unobserved = []
    for key, part in zip(rules.layout.parts, start.parts, strict=True):
        if key.observe is None:
            unobserved.append(key.name)
        else:
            sizes.append((key.name, len(key.observe(rules, start, part, 0)), 1))
    segments: dict[str, slice] = {}
    highs: list[float] = []
    for name, size, high in sizes:
        segments[name] = slice(len(highs), len(highs) + size)
        highs.extend([high] * size)
    observed = tuple(
        (
            key,
            index,
            segments[key.name].start,
            segments[key.name].stop - segments[key.name].start,
            rules.observers.get(key.name),
        )
        for index, key in enumerate(rules.layout.parts)
        if key.observe is not None
    )
    starts = {name: part.start for name, part in segments.items()}
    return Encoding(
        rules,
        players,
        actions,
        MappingProxyType(segments),
        np.array(highs, dtype=np.float32),
        tuple(unobserved),
        numbers,
        Layout(players, rules.tiles, starts, observed, numbers),
    )


def worm_margins(rules: Rules, state: GameState) -> tuple[float, ...]:
    """Each player's worms minus the mean worms of the others (they sum to 0).

    Their change from one state to the next is a zero-sum reward per step; summed over a
    game it is the final margin.

    Examples:
        >>> from pickomino_rules import new_game
        >>> rules, state = new_game("classic", players=3)
        >>> worm_margins(rules, state)
        (0.0, 0.0, 0.0)
    """
    scores = rules.scores(rules, state)
    total, others = sum(scores), len(scores) - 1
    return tuple(score - (total - score) / others for score in scores)


def returns(rules: Rules, state: GameState) -> tuple[float, ...]:
    """Zero-sum results: 0 for everyone until the end; then the winners share +1.

    The others share -1 (two players: +1 and -1); when everyone shares the win, all get 0.

    Examples:
        >>> import random
        >>> from pickomino_rules import new_game, play
        >>> from pickomino_rules.bots import greedy_bot
        >>> rules, state = new_game("classic", players=2)
        >>> final = play(rules, state, greedy_bot, random.Random(1))
        >>> sorted(returns(rules, final))
        [-1.0, 1.0]
    """
    players = state.players
    if not is_terminal(rules, state):
        return (0.0,) * players
    winners = result(rules, state).winners
    if len(winners) == players:
        return (0.0,) * players
    win, lose = 1 / len(winners), -1 / (players - len(winners))
    return tuple(win if player in winners else lose for player in range(players))
