"""A learned estimate of each player's chance to win, from the table between two turns."""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

import attrs

from pickomino_rules.errors import MissingExtraError, PickominoError, brief

try:
    import numpy as np
except ImportError:  # an extra: a learned bot needs numpy to play
    raise MissingExtraError("a learned bot", "solver") from None

from pickomino_rules.encoding import Encoding
from pickomino_rules.game import is_terminal, new_game
from pickomino_rules.learned._network import (
    Layers,
    NetworkFileError,
    as_layers,
    load_game_network,
    read_only,
    save_game_network,
)
from pickomino_rules.registry import get_rules
from pickomino_rules.result import result
from pickomino_rules.solver import solve_turn, total_blind

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from numpy.typing import NDArray

    from pickomino_rules.rules import Rules
    from pickomino_rules.solver import TurnValue
    from pickomino_rules.state import GameState

__all__ = ["InvalidWinModelError", "WinModel", "table_features"]

_FORMAT = 1
"""The version of the win model file's layout."""


def table_features(
    rules: Rules, encoding: Encoding, observations: NDArray[np.floating[Any]]
) -> NDArray[np.float64]:
    """What the win model reads of a table: one row per observation (seat 0 to move).

    From the observation's segments, for every seat: worms, the top tile's worms and
    number (scaled to 0-1 over the tile range) and its square, whether it has a tile, the
    stack's size; the lead of seat 0 over each other seat and over the best of them; the
    grill's worms and tiles; the best lead against the square root of the grill's worms
    (how much of the lead the rest of the game can still undo); each tile on the grill;
    and the variant's own parts as the observation has them.
    """
    rows = np.atleast_2d(observations).astype(np.float64)  # float64 as the state's own numbers
    return _features(encoding, *_tile_values(rules), rows)


def _features(
    encoding: Encoding,
    worms: NDArray[np.float64],
    places: NDArray[np.float64],
    rows: NDArray[np.floating[Any]],
) -> NDArray[np.float64]:
    segments, count = encoding.segments, len(places)
    grill = rows[:, segments["grill"]]
    tops = rows[:, segments["tops"]].reshape(len(rows), -1, count)
    scores = rows[:, segments["scores"]]
    top_places = tops @ places
    lead = scores[:, :1] - scores[:, 1:]
    best = lead.min(axis=1, keepdims=True)
    grill_worms = grill @ worms
    parts = segments["stop_claims"].stop  # the variant's parts follow the turn's segments
    return np.hstack(
        [
            scores / 10,
            tops @ worms / 4,
            top_places,
            top_places**2,
            tops.sum(axis=2),
            rows[:, segments["stack_sizes"]] / 8,
            lead / 10,
            best / 10,
            grill_worms[:, None] / 20,
            grill.sum(axis=1, keepdims=True) / count,
            np.tanh(best / np.sqrt(grill_worms[:, None] + 1)),
            grill,
            rows[:, parts:] / encoding.observation_high[parts:],
        ]
    )


def _tile_values(rules: Rules) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Each tile's worms, and its place in the tile range from 0 (lowest) to 1 (highest)."""
    tiles = np.array(rules.tiles, dtype=np.float64)
    worms = np.array([rules.worms[tile] for tile in rules.tiles], dtype=np.float64)
    return worms, (tiles - tiles.min()) / (tiles.max() - tiles.min())


@attrs.frozen
class _Game:
    """What the model needs of one game, worked out once."""

    rules: Rules
    encoding: Encoding
    tile_worms: dict[int, float]
    tile_places: dict[int, float]
    parts: int
    """Where the variant's parts start in the observation."""
    highs: NDArray[np.float64]
    """The observation's highest value of each of those parts, by which they are scaled."""
    known: dict[GameState, tuple[float, ...]] = attrs.field(factory=dict, eq=False)
    """The logits of the tables asked about (a turn solve asks about the same few often)."""

    @property
    def plain(self) -> bool:
        """No variant parts in the observation: `_table_row` needs no observation."""
        return self.parts == self.encoding.observation_size

    @classmethod
    def of(cls, rules: Rules, encoding: Encoding) -> _Game:
        worms, places = _tile_values(rules)
        parts = encoding.segments["stop_claims"].stop  # as `_features` reads them
        highs = encoding.observation_high[parts:].astype(np.float64)
        tile_worms = dict(zip(rules.tiles, worms.tolist(), strict=True))
        tile_places = dict(zip(rules.tiles, places.tolist(), strict=True))
        return cls(rules, encoding, tile_worms, tile_places, parts, highs)


def _table_row(game: _Game, state: GameState) -> NDArray[np.float64]:
    """`_features` of one state read off the state itself: its mirror for the hot path.

    It reads the observation only for the variant's parts, and builds no matrices (they
    cost more than the numbers in them for one row);
    ``test_the_fast_features_mirror_the_observation`` checks that both give the same
    numbers in every variant.
    """
    players, player = state.players, state.player
    seats = [(player + k) % players for k in range(players)]
    points = game.rules.scores(game.rules, state)
    scores = [float(points[p]) for p in seats]
    tops = [state.stacks[p][-1] if state.stacks[p] else None for p in seats]
    top_places = [0.0 if t is None else game.tile_places[t] for t in tops]
    lead = [scores[0] - other for other in scores[1:]]
    best = min(lead)
    on_grill = set(state.grill)
    grill = [1.0 if t in on_grill else 0.0 for t in game.rules.tiles]
    grill_worms = sum(game.tile_worms[t] for t in state.grill)
    row = np.array(
        [
            *(score / 10 for score in scores),
            *(0.0 if t is None else game.tile_worms[t] / 4 for t in tops),
            *top_places,
            *(place * place for place in top_places),
            *(0.0 if t is None else 1.0 for t in tops),
            *(len(state.stacks[p]) / 8 for p in seats),
            *(difference / 10 for difference in lead),
            best / 10,
            grill_worms / 20,
            len(state.grill) / len(grill),
            math.tanh(best / math.sqrt(grill_worms + 1)),
            *grill,
        ]
    )
    if game.plain:
        return row
    observation = game.encoding.observe(state, state.player)
    return np.concatenate((row, observation[game.parts :] / game.highs))


class InvalidWinModelError(PickominoError, ValueError):
    """A file that is not a win model of this library, or a model asked about another game."""


def _layers(layers: Sequence[tuple[Any, Any]]) -> Layers:
    try:
        return as_layers(layers)
    except NetworkFileError as error:
        raise InvalidWinModelError(str(error)) from None


@attrs.frozen(eq=False)
class WinModel:
    """Each player's probability of winning the game, estimated from the table.

    A small network (with ReLU hidden layers, if any: the shipped 2-player classic model
    has two, of 64 and 32; the others have none, a multinomial logistic regression): the
    [`table_features`][pickomino_rules.learned.table_features]
    of the observation of the player to move in, one logit per seat out (seat 0 is the
    player to move, as in the observation), turned into probabilities by a softmax. It is
    fitted on the tables between turns, where the dice are about to pass to a new player,
    so that is where it means something; a finished game is scored exactly instead.

    Attributes:
        variant: The variant it was fitted on.
        players: The number of players it was fitted with.
        options: The variant's options in force when it was fitted.
        layers: Each layer's weights (outputs x inputs) and biases, input layer first.
        about: How it was made: the command, seed, time, games, library versions.

    Examples:
        >>> from pickomino_rules import new_game
        >>> from pickomino_rules.learned import load_win_model
        >>> model = load_win_model("classic", 2)
        >>> rules, state = new_game("classic", players=2)
        >>> chances = model.win_probabilities(rules, state)
        >>> round(float(chances.sum()), 6), bool(chances[0] > chances[1])
        (1.0, True)
    """

    variant: str
    players: int
    options: Mapping[str, Any] = attrs.field(converter=read_only)
    layers: Layers = attrs.field(converter=_layers, repr=False)
    about: Mapping[str, Any] = attrs.field(converter=read_only, repr=False)
    _games: dict[int, _Game] = attrs.field(init=False, factory=dict, repr=False)
    _read_options: list[Mapping[str, object]] = attrs.field(init=False, factory=list, repr=False)
    """The options as the variant reads them, once asked."""
    """What the model needs of each game it was asked about, by the rules' identity."""

    def supports(self, rules: Rules, players: int) -> bool:
        """Whether it was fitted on this game: its variant, options and number of players.

        Options compare as the variant reads them (a file keeps lists where rules have
        tuples, and numbers where they have faces).
        """
        if rules.name != self.variant or players != self.players:
            return False
        if not self._read_options:
            self._read_options.append(get_rules(self.variant, self.options).options)
        return rules.options == self._read_options[0]

    def win_probabilities(self, rules: Rules, state: GameState) -> NDArray[np.float64]:
        """Each player's chance to win from ``state``, by player index (they sum to 1).

        A finished game gives its result: the winners share 1.

        Raises:
            InvalidWinModelError: ``state`` is not of the game the model was fitted on.
        """
        players = state.players
        if is_terminal(rules, state):
            chances = np.zeros(players)
            winners = result(rules, state).winners
            chances[list(winners)] = 1 / len(winners)
            return chances
        logits = np.array(self._logits(rules, state))
        seats: NDArray[np.float64] = np.exp(logits - logits.max())
        by_player: NDArray[np.float64] = seats[(np.arange(players) - state.player) % players]
        by_player /= seats.sum()  # seat k is player (player + k) mod n
        return by_player

    def turn_value(
        self,
        rules: Rules,
        start: GameState,
        end: GameState,
        total: int | None,  # noqa: ARG002 (a TurnValue's argument)
    ) -> float:
        """The mover's chance to win after the turn: the champion's turn value.

        It is a [`TurnValue`][pickomino_rules.solver.TurnValue].
        With it, [`solve_turn`][pickomino_rules.solver.solve_turn] plays the turn that
        keeps the best chance of winning the game.
        """
        mover = start.player
        if is_terminal(rules, end):
            return float(self.win_probabilities(rules, end)[mover])
        logits = self._logits(rules, end)
        top = max(logits)
        weights = [math.exp(logit - top) for logit in logits]
        return weights[(mover - end.player) % len(weights)] / sum(weights)

    def reply_value(self) -> TurnValue:
        """A turn value that looks one turn further: through the opponent's best reply.

        Each end of the turn is worth the mover's chance to win after the opponent's next
        turn, played exactly ([`solve_turn`][pickomino_rules.solver.solve_turn]) for the
        opponent's own chance by this model. Two players only: the opponent's best chance
        is the mover's worst. Each end costs a turn solve (cached, so ends met again are
        free), so it is about forty times slower than `turn_value`. It is
        ``lookahead_value(2)``.

        Raises:
            InvalidWinModelError: The model is not for two players.
        """
        return self.lookahead_value(2)

    def lookahead_value(self, turns: int) -> TurnValue:
        """A turn value that looks ``turns`` turns ahead, this turn included.

        Each end of the turn is worth the mover's chance to win after the next
        ``turns - 1`` turns, each played exactly
        ([`solve_turn`][pickomino_rules.solver.solve_turn]) by its player for his own
        chance, every roll weighed; the model is asked only at the ends of the last turn,
        and a game that ends on the way is scored exactly. One turn is `turn_value`, two
        `reply_value`. The cost grows about forty-fold with each turn early in the game,
        far less with few tiles left, where a turn has few ways to end (ends met again
        are remembered). Two players only, past one turn.

        Examples:
            >>> import random
            >>> from pickomino_rules.bots import OptimalBot
            >>> from pickomino_rules.learned import load_win_model
            >>> from pickomino_rules.positions import Position
            >>> position = Position.parse(
            ...     "classic 23,27 36,35,34,33,32,31,30,28 26,29,24/25,21,22 1d 3 4wwww -"
            ... )
            >>> deep = OptimalBot(load_win_model("classic", 2).lookahead_value(4))
            >>> str(deep(position.rules, position.state, random.Random(0)))
            'steal 0'

        Raises:
            ValueError: ``turns`` is not a whole number of at least 1.
            InvalidWinModelError: More than one turn, and the model is not for two players.
        """
        _check_at_least_one(turns, "looking ahead takes a whole number of turns")
        if turns == 1:
            return self.turn_value
        if self.players != 2:
            msg = f"looking past this turn needs two players, not {self.players}"
            raise InvalidWinModelError(msg)
        return total_blind(_Lookahead(self, turns, {}))

    def endgame_value(self, turns: int, tiles: int) -> TurnValue:
        """A turn value that looks ``turns`` turns ahead near the end, one turn before.

        A turn that starts with ``tiles`` tiles or fewer on the grill is valued with
        `lookahead_value` (``turns``), any other with `turn_value`: looking further pays
        where few tiles are left, and costs least there, where a turn has few ways to end.
        The same as `tiered_value` with one tier, ``{tiles: turns}``; the shipped
        2-player classic champion looks four turns ahead from two tiles.

        Examples:
            >>> from pickomino_rules import new_game
            >>> from pickomino_rules.learned import load_win_model
            >>> model = load_win_model("classic", 2)
            >>> rules, state = new_game("classic", players=2)
            >>> end = state.replace(grill=state.grill[1:], stacks=((21,), ()), player=1)
            >>> value = model.endgame_value(4, tiles=2)  # 16 tiles: one turn deep
            >>> value(rules, state, end, None) == model.turn_value(rules, state, end, None)
            True

        Raises:
            ValueError: ``turns`` or ``tiles`` is not a whole number of at least 1.
            InvalidWinModelError: More than one turn, and the model is not for two players.
        """
        _check_at_least_one(tiles, "the endgame starts at a whole number of tiles")  # a key
        return self.tiered_value({tiles: turns})

    def tiered_value(self, tiers: Mapping[int, int]) -> TurnValue:
        """A turn value that looks further the fewer tiles are left.

        ``tiers`` maps a number of tiles to a number of turns: a turn that starts with at
        most that many tiles on the grill is valued with `lookahead_value` (those turns),
        the tier of the fewest tiles deciding where several hold; a turn that starts with
        more tiles than every tier names is valued with `turn_value`. Each turn looked
        further costs far less where fewer tiles are left, so a deep look belongs at the
        very end only. The shipped 2-player extended champion plays ``{1: 3, 2: 2}``:
        three turns ahead with one tile left, through the opponent's reply with two.

        Examples:
            >>> from pickomino_rules import new_game
            >>> from pickomino_rules.learned import load_win_model
            >>> model = load_win_model("classic", 2)
            >>> rules, state = new_game("classic", players=2)
            >>> mine, yours = tuple(range(21, 28)), tuple(range(28, 35))
            >>> late = state.replace(grill=(35, 36), stacks=(mine, yours))
            >>> end = late.replace(grill=(36,), stacks=((*mine, 35), yours), player=1)
            >>> value = model.tiered_value({1: 3, 2: 2})  # two tiles: through the reply
            >>> value(rules, late, end, None) == model.lookahead_value(2)(rules, late, end, None)
            True

        Raises:
            ValueError: A number of tiles or of turns is not a whole number of at least 1.
            InvalidWinModelError: More than one turn, and the model is not for two players.
        """
        for tiles in tiers:
            _check_at_least_one(tiles, "the endgame starts at a whole number of tiles")
        for turns in tiers.values():
            _check_at_least_one(turns, "looking ahead takes a whole number of turns")
        near = tuple((tiles, self.lookahead_value(tiers[tiles])) for tiles in sorted(tiers))
        return total_blind(_Tiers(self.turn_value, near))

    def champion_value(self) -> TurnValue:
        """The turn value the ``champion`` bot plays with this model, as its `about` says.

        ``about["endgame"]``, ``{"turns": t, "tiles": k}``: `endgame_value` (t, k); a
        list of them, each for a different number of tiles: `tiered_value` ({k: t, ...});
        otherwise ``about["reply"]`` true: `reply_value`; otherwise `turn_value`.

        When nobody holds a tile, a turn that moves no tile (a bust, which then returns
        none and turns none, with grilled worms won or lost or not) is worth at most a
        fair share (1 over the number of players) to the player ahead: with no tile held,
        only a tile taken moves the game on, a game in which nobody takes one never ends,
        and then nobody wins it. The rules allow such a game: with only 11 and 13 left,
        say, and the stacks empty, a bust turns no tile (C10) and no player may hold both
        (O4); a leader who valued his lead there would trade grilled worms or pass for
        ever, and so would the player behind.

        Raises:
            InvalidWinModelError: The ``about`` asks for a look-ahead this model cannot
                make, or its ``endgame`` is not a mapping of two whole numbers, ``turns``
                and ``tiles``, nor a list of them naming each number of tiles once, or it
                asks for both an endgame and the reply.
        """
        return total_blind(_NoRefuge(self._played_value(), self.players))

    def _played_value(self) -> TurnValue:
        endgame, reply = self.about.get("endgame"), self.about.get("reply")
        if endgame is None:
            return self.reply_value() if reply else self.turn_value
        tiers = _tiers(endgame)
        if reply or tiers is None:
            msg = (
                "a model's about names the champion's endgame as turns and tiles, or a list "
                "of them for different tiles, without the reply, not "
                f"endgame={brief(endgame)} and reply={brief(reply)}"
            )
            raise InvalidWinModelError(msg)
        try:
            return self.tiered_value(tiers)
        except InvalidWinModelError:
            raise
        except ValueError as error:
            raise InvalidWinModelError(f"the model's about['endgame']: {error}") from None

    _KEPT = 100_000
    """Tables whose logits are remembered; past that the memory starts again."""

    def _logits(self, rules: Rules, state: GameState) -> tuple[float, ...]:
        """The network's logit of each seat, seat 0 being the player to move."""
        game = self._games.get(id(rules))
        if game is None or game.rules is not rules or game.encoding.players != state.players:
            game = self._games[id(rules)] = _Game.of(rules, self._encoding(rules, state.players))
        known = game.known.get(state)
        if known is not None:
            return known
        signal = _table_row(game, state)
        for weights, bias in self.layers[:-1]:
            signal = np.maximum(weights @ signal + bias, 0.0)
        weights, bias = self.layers[-1]
        if len(game.known) >= self._KEPT:
            game.known.clear()
        logits = game.known[state] = tuple((weights @ signal + bias).tolist())
        return logits

    def _encoding(self, rules: Rules, players: int) -> Encoding:
        if not self.supports(rules, players):
            msg = (
                f"this model was fitted on {self.players}-player {self.variant} "
                f"with options {dict(self.options)}, not {players}-player "
                f"{rules.name} with {dict(rules.options)}"
            )
            raise InvalidWinModelError(msg)
        encoding = Encoding.of(rules, players)
        inputs, outputs = self.layers[0][0].shape[1], self.layers[-1][0].shape[0]
        size = _feature_size(rules, encoding)
        if (inputs, outputs) != (size, players):
            msg = (
                f"the network maps {inputs} inputs to {outputs} seats; {players}-player "
                f"{rules.name} has {size} features"
            )
            raise InvalidWinModelError(msg)
        return encoding

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its game and layers (its caches are not), rebuilt and checked by `of`."""
        network = (self.variant, self.players, dict(self.options), self.layers, dict(self.about))
        return type(self).of, network

    def save(self, path: str | Path) -> None:
        """Write the model to a ``.npz`` file (numpy arrays and a JSON header, no pickles).

        Raises:
            SaveError: It cannot be written there; a file already at ``path`` is left whole.
        """
        network = (self.variant, self.players, dict(self.options), self.layers, dict(self.about))
        save_game_network(path, _FORMAT, network)

    @classmethod
    def load(cls, path: str | Path) -> WinModel:
        """Read a model that `save` wrote.

        Raises:
            InvalidWinModelError: Not such a file, or its network does not fit its game.
            OSError: The file cannot be read.
        """
        try:
            network = load_game_network(path, "win model", _FORMAT)
        except NetworkFileError as error:
            raise InvalidWinModelError(str(error)) from None
        return cls.of(*network)

    @classmethod
    def of(
        cls,
        variant: str,
        players: int,
        options: Mapping[str, Any],
        layers: Sequence[tuple[Any, Any]],
        about: Mapping[str, Any],
    ) -> WinModel:
        """A model from its layers, checked against its game's encoding.

        Raises:
            InvalidWinModelError: The network's inputs or outputs do not fit the game.
            UnknownVariantError: The variant is not installed.
        """
        model = cls(variant, players, options, layers, about)
        rules, _ = new_game(variant, players=players, options=options)
        model._encoding(rules, players)
        return model


# Every value of a model reads the table a turn leaves, never the total it claimed with
# (the solver then values each set of claims once).
total_blind(cast("TurnValue", WinModel.turn_value))


def _tiers(endgame: object) -> dict[int, int] | None:
    """An about's ``endgame`` (one ``{"turns", "tiles"}`` or a list) as tiers; None if malformed.

    The numbers themselves are checked by `WinModel.tiered_value`.
    """
    listed = [endgame] if isinstance(endgame, Mapping) else endgame
    if not isinstance(listed, list | tuple) or not listed:
        return None
    tiers: dict[Any, Any] = {}
    for tier in listed:
        if not isinstance(tier, Mapping) or set(tier) != {"turns", "tiles"}:
            return None
        tiles = tier["tiles"]
        if not isinstance(tiles, int) or tiles in tiers:  # hashable, and named once
            return None
        tiers[tiles] = tier["turns"]
    return tiers


def _check_at_least_one(number: object, what: str) -> None:
    """Raise ValueError, saying ``what``, unless ``number`` is an int (not a bool) of 1 or more."""
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        msg = f"{what}, at least 1, not {number!r}"
        raise ValueError(msg)


@lru_cache(maxsize=64)  # per rules: bounded, as rules of many options come and go
def _feature_size(rules: Rules, encoding: Encoding) -> int:
    return int(table_features(rules, encoding, np.zeros(encoding.observation_size)).shape[1])


class _Lookahead:
    """The mover's chance after ``turns - 1`` more exact turns (see `WinModel.lookahead_value`)."""

    _KEPT = 50_000
    """Ends remembered; past that the memory starts again (a game meets a few thousand)."""

    def __init__(
        self, model: WinModel, turns: int, known: dict[tuple[GameState, int], float]
    ) -> None:
        self.model, self.turns = model, turns
        self._known = known  # shared by every depth of one look-ahead
        self._next: TurnValue = (
            model.turn_value if turns == 2 else total_blind(_Lookahead(model, turns - 1, known))
        )

    def __call__(self, rules: Rules, start: GameState, end: GameState, total: int | None) -> float:
        if is_terminal(rules, end):
            return self.model.turn_value(rules, start, end, total)
        known = self._known.get((end, self.turns))
        if known is None:
            if len(self._known) >= self._KEPT:
                self._known.clear()
            reply = solve_turn(rules, end, self._next)  # the opponent's turn, for his chance
            known = self._known[end, self.turns] = 1.0 - reply.value
        return known


class _Tiers:
    """One value per tier of tiles left, the fewest first, and one past them (`tiered_value`)."""

    def __init__(self, far: TurnValue, near: tuple[tuple[int, TurnValue], ...]) -> None:
        self.far, self.near = far, near

    def __call__(self, rules: Rules, start: GameState, end: GameState, total: int | None) -> float:
        left = len(start.grill)
        value = next((value for tiles, value in self.near if left <= tiles), self.far)
        return value(rules, start, end, total)


class _NoRefuge:
    """A turn moving no tile, nobody holding one, worth at most a fair share to the one ahead.

    See `WinModel.champion_value`.
    """

    def __init__(self, value: TurnValue, players: int) -> None:
        self.value, self.share = value, 1.0 / players

    def __call__(self, rules: Rules, start: GameState, end: GameState, total: int | None) -> float:
        value = self.value(rules, start, end, total)
        if value > self.share and not any(start.stacks) and _no_tile_moved(start, end):
            return self.share
        return value


def _no_tile_moved(start: GameState, end: GameState) -> bool:
    """Whether the turn from ``start`` ended with every tile where it was."""
    return (
        end.player != start.player
        and end.grill == start.grill
        and end.stacks == start.stacks
        and end.face_down == start.face_down
    )
