"""The batch engine: N classic games as a struct of arrays, stepped together."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from pickomino_rules.batch._conversion import row_of, state_of
from pickomino_rules.batch._rules import BatchActionError, BatchArgumentError, batch_rules
from pickomino_rules.batch._tables import (
    ACT_ROLL,
    ACT_STEAL,
    ACT_STOP,
    ALL_TILES,
    BITS,
    DICE,
    FIRST_TILE,
    HIGHEST,
    PHASE_CHOOSE,
    PHASE_DECIDE,
    PHASE_GAME_OVER,
    PHASE_NAMES,
    PHASE_ROLL,
    POINTS,
    ROLL_COUNTS,
    ROLL_CUMULATIVE,
    ROLL_START,
    SIDES,
    TILES,
    WORM,
)
from pickomino_rules.errors import (
    ArgumentTypeError,
    InvalidSetupError,
    MissingExtraError,
    brief,
)
from pickomino_rules.game import check_fits, new_game
from pickomino_rules.state import GameState, Phase
from pickomino_rules.validation import validate

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from numpy.typing import ArrayLike, NDArray

    from pickomino_rules.dice import RollOutcome
    from pickomino_rules.encoding import Encoding
    from pickomino_rules.rules import Rules


@attrs.frozen(eq=False)
class BatchArrays:
    """Read-only views of a batch's table, one row per game, for vectorised bots.

    Tiles are numbers (21-36) in ``stacks``, indices (tile - 21) in the boolean arrays.

    Attributes:
        grill: True where the tile lies face up on the grill, shape (N, 16).
        face_down: True where the tile is turned face down, shape (N, 16).
        stacks: Each player's tiles bottom first, 0 past the top, shape (N, players, 16).
        heights: Tiles in each player's stack, shape (N, players).
        player: The player to move.
        phase: The phase code (1 choose, 2 decide, 4 game over).
        in_hand: Dice not set aside this turn.
        roll: The roll on the table, dice per face 1-5, worm (zeros outside phase choose).
        set_aside: Dice set aside this turn per face.
        grill_claim: In phase decide, the index of the grill tile a stop takes, else -1.
        victim: In phase decide, the player a steal may rob, else -1.
    """

    grill: NDArray[np.bool_]
    face_down: NDArray[np.bool_]
    stacks: NDArray[np.int8]
    heights: NDArray[np.int8]
    player: NDArray[np.int8]
    phase: NDArray[np.int8]
    in_hand: NDArray[np.int8]
    roll: NDArray[np.int8]
    set_aside: NDArray[np.int8]
    grill_claim: NDArray[np.int64]
    victim: NDArray[np.int64]


@attrs.frozen(eq=False)
class BatchStep:
    """What a [`step`][pickomino_rules.batch.BatchGames.step] finished: one entry per game.

    Rows whose game did not end this step hold zeros.

    Attributes:
        terminated: True where the game ended this step.
        rewards: Zero-sum results of the games that ended (the winners share +1, the
            others -1, as [`returns`][pickomino_rules.encoding.returns]), shape (N, players).
        scores: Final worms of each player of the games that ended, shape (N, players).
        winners: True for each winner of the games that ended (C13), shape (N, players).
        moves: Moves of the games that ended, rolls of the dice included (as ``playout``
            counts them).
        turns: Turns of the games that ended.
    """

    terminated: NDArray[np.bool_]
    rewards: NDArray[np.float32]
    scores: NDArray[np.int16]
    winners: NDArray[np.bool_]
    moves: NDArray[np.int32]
    turns: NDArray[np.int32]


MAX_GAMES = 1_000_000
"""Most games one batch holds: its arrays take about a kilobyte a game."""


class BatchGames:
    """N games of classic Pickomino, stepped together.

    Args:
        games: Number of games (rows), at least 1.
        players: Players per game (2 to 7).
        variant: ``"classic"`` or composed classic rules (see `batch_rules`).
        options: The classic options O1-O3, with a variant name.
        seed: Seeds the batch's dice: an int, a ``numpy.random.Generator``, or None.
        auto_reset: Start a new game in a row as soon as its game ends (in the same
            step, after its results are reported). Without it a finished row waits
            for [`reset`][pickomino_rules.batch.BatchGames.reset].
        on_roll: Called with the rows and their dice (counts per face 1-5, worm) at
            every roll, in the order rolled: a log of the chance outcomes, e.g. to
            replay a row's game in the reference engine.

    Raises:
        BatchRulesError: Rules other than classic.
        InvalidSetupError: A bad number of games or players.

    Attributes:
        rules: The composed rules.
        size: Number of games.
        players: Players per game.
        encoding: The action numbers and observations (shared with the other
            interfaces to learning).
    """

    def __init__(  # noqa: PLR0913 (a batch's settings)
        self,
        games: int,
        players: int = 2,
        *,
        variant: str | Rules = "classic",
        options: Mapping[str, object] | None = None,
        seed: int | np.random.Generator | None = None,
        auto_reset: bool = True,
        on_roll: Callable[[NDArray[np.int64], NDArray[np.int8]], object] | None = None,
    ) -> None:
        from pickomino_rules.encoding import Encoding  # noqa: PLC0415 (same extra, later layer)

        rules = batch_rules(variant, options)
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            msg = f"games must be a whole number from 1 to {MAX_GAMES:,}, got {brief(games)}"
            raise InvalidSetupError(msg)
        if not (
            seed is None
            or isinstance(seed, np.random.Generator)
            or (isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0)
        ):
            what = "a whole number (0 or more), a numpy Generator or None"
            msg = f"seed must be {what}, got {brief(seed)}"
            raise InvalidSetupError(msg)
        new_game(rules, players=players)  # checks the number of players
        self.rules: Rules = rules
        self.size = games
        self.players = players
        self.encoding: Encoding = Encoding.of(rules, players)
        self.auto_reset = auto_reset
        self.on_roll = on_roll
        self._rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self._flip_on_empty = bool(rules.options["flip_on_empty_bust"])
        self._short_game = bool(rules.options["short_game"])
        self._optional_steal = bool(rules.options["optional_steal"])
        self._worms = np.zeros(FIRST_TILE + TILES, dtype=np.int64)  # by tile number (C1)
        for tile, worms in rules.worms.items():
            self._worms[tile] = worms
        n = games
        self._grill = np.full(n, ALL_TILES, dtype=np.int64)  # bit i: tile 21 + i is face up
        self._face_down = np.zeros((n, TILES), dtype=np.int8)  # in the order turned
        self._face_down_count = np.zeros(n, dtype=np.int8)
        self._stacks = np.zeros((n, players, TILES), dtype=np.int8)  # tile numbers, bottom first
        self._heights = np.zeros((n, players), dtype=np.int8)
        self._tops = np.zeros((n, players), dtype=np.int64)  # top tile, 0 for none
        self._player = np.zeros(n, dtype=np.int8)
        self._phase = np.zeros(n, dtype=np.int8)
        self._in_hand = np.zeros(n, dtype=np.int8)
        self._roll = np.zeros((n, 6), dtype=np.int8)
        self._set_aside = np.zeros((n, 6), dtype=np.int8)
        self._moves = np.zeros(n, dtype=np.int32)
        self._turns = np.zeros(n, dtype=np.int32)
        self._rows = np.arange(n)
        self._seats = np.arange(players)
        self._mask: NDArray[np.bool_] | None = None
        self._outcomes: dict[tuple[int, ...], RollOutcome] = {}
        self._grill_claim = np.full(n, -1, dtype=np.int64)  # tile index a stop takes
        self._victim = np.full(n, -1, dtype=np.int64)  # player a steal robs
        self.reset()

    # ------------------------------------------------------------------ reading

    @property
    def phases(self) -> NDArray[np.str_]:
        """Each game's phase by name: ``"choose"``, ``"decide"`` or ``"game over"``."""
        names: NDArray[np.str_] = PHASE_NAMES[self._phase]
        return names

    @property
    def phase_codes(self) -> NDArray[np.int8]:
        """Each game's phase as the index of the encoding's ``phase`` segment."""
        return _read_only(self._phase)

    @property
    def to_move(self) -> NDArray[np.int8]:
        """The player to move in each game (the last mover once a game is over)."""
        return _read_only(self._player)

    @property
    def over(self) -> NDArray[np.bool_]:
        """True where the game is over (only without ``auto_reset``, or before a reset)."""
        over: NDArray[np.bool_] = self._phase == PHASE_GAME_OVER
        return over

    @property
    def totals(self) -> NDArray[np.int64]:
        """Points of the dice set aside this turn in each game."""
        totals: NDArray[np.int64] = self._set_aside.astype(np.int64) @ POINTS
        return totals

    @property
    def arrays(self) -> BatchArrays:
        """The table of every game as read-only arrays (see `BatchArrays`)."""
        self.legal_mask()  # the claims of phase decide are worked out with it
        return BatchArrays(
            *(
                _read_only(array)
                for array in (
                    self.grill,
                    self.face_down,
                    self._stacks,
                    self._heights,
                    self._player,
                    self._phase,
                    self._in_hand,
                    self._roll,
                    self._set_aside,
                    np.where(self._phase == PHASE_DECIDE, self._grill_claim, -1),
                    np.where(self._phase == PHASE_DECIDE, self._victim, -1),
                )
            )
        )

    @property
    def grill(self) -> NDArray[np.bool_]:
        """True where a tile lies face up on the grill, shape (N, 16) (index: tile - 21)."""
        return (self._grill[:, None] & BITS) != 0  # type: ignore[no-any-return]

    @property
    def face_down(self) -> NDArray[np.bool_]:
        """True where a tile is turned face down, shape (N, 16) (index: tile - 21)."""
        turned = np.zeros((self.size, TILES), dtype=np.bool_)
        listed = np.arange(TILES) < self._face_down_count[:, None]
        rows = np.broadcast_to(self._rows[:, None], listed.shape)
        turned[rows[listed], self._face_down[listed].astype(np.int64) - FIRST_TILE] = True
        return turned

    @property
    def moves(self) -> NDArray[np.int32]:
        """Moves played so far in each row's current game, rolls included."""
        return _read_only(self._moves)

    def scores(self) -> NDArray[np.int64]:
        """Worms of each player in each game, shape (N, players) (C13)."""
        return _standings(self._worms, self._stacks)[0]

    def winners(self) -> NDArray[np.bool_]:
        """The players who would win each game if it ended now (C13's ties included)."""
        return _standings(self._worms, self._stacks)[1]

    def legal_mask(self) -> NDArray[np.bool_]:
        """Legal actions of every game, shape (N, actions): all False where a game is over.

        The array is shared until the next change: do not write to it.
        """
        if self._mask is None:
            self._mask = self._legal_mask()
        return self._mask

    def observe(self, seats: ArrayLike | None = None) -> NDArray[np.float32]:
        """Observation vectors, shape (N, size), as ``Encoding.observe`` gives them.

        Args:
            seats: The observer of each game (an int for all, or one per game); the
                player to move by default.
        """
        me = self._observers(seats)
        encoding, n, players = self.encoding, self.size, self.players
        at = {name: part.start for name, part in encoding.segments.items()}
        out = np.zeros((n, encoding.observation_size), dtype=np.float32)
        rows = self._rows
        out[:, at["grill"] : at["grill"] + TILES] = self.grill
        out[:, at["face_down"] : at["face_down"] + TILES] = self.face_down
        tops = self._tops
        worms = self.scores()
        for seat in range(players):
            who = (me + seat) % players
            top = tops[rows, who]
            has = top > 0
            out[rows[has], at["tops"] + seat * TILES + top[has] - FIRST_TILE] = 1
            out[:, at["stack_sizes"] + seat] = self._heights[rows, who]
            out[:, at["scores"] + seat] = worms[rows, who]
        playing = self._phase != PHASE_GAME_OVER
        to_move = (self._player[playing].astype(np.int64) - me[playing]) % players
        out[rows[playing], at["to_move"] + to_move] = 1
        out[rows, at["phase"] + self._phase.astype(np.int64)] = 1
        out[:, at["in_hand"]] = self._in_hand
        out[:, at["roll"] : at["roll"] + 6] = self._roll
        out[:, at["set_aside"] : at["set_aside"] + 6] = self._set_aside
        out[:, at["total"]] = self.totals
        self.legal_mask()  # works out the claims of phase decide
        decide = np.flatnonzero(self._phase == PHASE_DECIDE)
        grill, victim = self._grill_claim[decide], self._victim[decide]
        taking, stealing = decide[grill >= 0], decide[victim >= 0]
        out[taking, at["stop_claims"]] = self._worms[grill[grill >= 0] + FIRST_TILE]
        robbed = self._tops[stealing, victim[victim >= 0]]
        out[stealing, at["stop_claims"] + 1] = self._worms[robbed]
        return out

    def state(self, row: int) -> GameState:
        """Game ``row`` as a reference [`GameState`][pickomino_rules.state.GameState].

        Raises:
            BatchArgumentError: No such row (an ``IndexError``).
        """
        return self.states([self._row(row)])[0]

    def states(self, rows: ArrayLike | None = None) -> list[GameState]:
        """Games ``rows`` (all by default) as reference states, converted together.

        Args:
            rows: Row indices or a boolean mask of length N.
        """
        chosen = self._rows if rows is None else self._select(rows)
        layout, outcome = self.rules.layout, self._outcome
        columns = zip(
            self._grill[chosen].tolist(),
            self._face_down[chosen].tolist(),
            self._face_down_count[chosen].tolist(),
            self._stacks[chosen].tolist(),
            self._heights[chosen].tolist(),
            self._player[chosen].tolist(),
            self._phase[chosen].tolist(),
            self._in_hand[chosen].tolist(),
            self._roll[chosen].tolist(),
            self._set_aside[chosen].tolist(),
            strict=True,
        )
        return [
            state_of(
                grill,
                down[:turned],
                [stack[:height] for stack, height in zip(stacks, heights, strict=True)],
                player,
                phase,
                hand,
                roll,
                aside,
                layout=layout,
                outcome=outcome,
            )
            for grill, down, turned, stacks, heights, player, phase, hand, roll, aside in columns
        ]

    def _outcome(self, counts: tuple[int, ...]) -> RollOutcome:
        """The rules' own (shared) roll showing ``counts``: building one costs far more."""
        outcome = self._outcomes.get(counts)
        if outcome is None:
            table = self.rules.chance_table((sum(counts),))
            for known in table.outcomes:
                self._outcomes[known.counts[0]] = known
            outcome = self._outcomes[counts]
        return outcome

    # ------------------------------------------------------------------ changing

    def reset(self, rows: ArrayLike | None = None) -> None:
        """Start new games in ``rows`` (all by default): player 0 rolls first.

        Args:
            rows: Row indices or a boolean mask of length N.
        """
        chosen = self._rows if rows is None else self._select(rows)
        self._grill[chosen] = ALL_TILES
        self._face_down[chosen] = 0
        self._face_down_count[chosen] = 0
        self._stacks[chosen] = 0
        self._heights[chosen] = 0
        self._tops[chosen] = 0
        self._player[chosen] = 0
        self._moves[chosen] = 0
        self._turns[chosen] = 0
        self._start_turn(chosen)
        self._roll_dice(chosen)

    def set_state(self, row: int, state: GameState) -> None:
        """Put ``state`` in game ``row`` (a chance node is rolled at once, with the batch's dice).

        The row's move and turn counts start again from 0.

        Raises:
            RulesMismatchError: The state is of another game's layout.
            InvalidStateError: The state breaks the rules' invariants.
            InvalidSetupError: The state has another number of players.
            BatchArgumentError: No such row (an ``IndexError``).
        """
        row = self._row(row)
        check_fits(self.rules, state)
        validate(self.rules, state)
        if state.players != self.players:
            msg = f"the state has {state.players} players, the batch {self.players}"
            raise InvalidSetupError(msg)
        numbers = row_of(state)
        self._grill[row] = numbers.grill
        self._face_down[row] = 0
        self._face_down[row, : len(numbers.face_down)] = numbers.face_down
        self._face_down_count[row] = len(numbers.face_down)
        self._stacks[row] = 0
        for p, stack in enumerate(numbers.stacks):
            self._stacks[row, p, : len(stack)] = stack
            self._heights[row, p] = len(stack)
            self._tops[row, p] = stack[-1] if stack else 0
        self._player[row] = numbers.player
        self._phase[row] = numbers.phase
        self._in_hand[row] = numbers.in_hand
        self._roll[row] = numbers.roll
        self._set_aside[row] = numbers.set_aside
        self._moves[row] = 0
        self._turns[row] = 0
        self._mask = None
        if state.phase is Phase.ROLL:
            self._roll_dice(np.array([row]))

    def step(self, actions: ArrayLike, active: ArrayLike | None = None) -> BatchStep:
        """Play one decision in every game (or in the ``active`` ones), then roll.

        Args:
            actions: One action number per game (shape (N,), integers). Games that are
                over, or not active, ignore theirs.
            active: A boolean mask of the games that move; all by default.

        Returns:
            The games that ended, with their results (with ``auto_reset`` they have
            already started again).

        Raises:
            BatchActionError: Wrong shape or type, a number outside the action space, or
                an illegal action; it names the rows, and no game is changed.
        """
        numbers, moving = self._check(actions, active)
        self._moves[moving] += 1
        chosen = numbers[moving]
        rolling = [moving[chosen == ACT_ROLL]]
        takes = (chosen >= 1) & (chosen <= 6)
        if takes.any():
            self._take(moving[takes], chosen[takes] - 1)
        stops = chosen == ACT_STOP
        if stops.any():
            rows = moving[stops]
            grill = self._grill_claim[rows]
            victims = np.where(grill >= 0, -1, self._victim[rows])
            rolling.append(self._end_turn(rows, grill, victims))
        steals = chosen >= ACT_STEAL
        if steals.any():
            rows = moving[steals]
            rolling.append(self._end_turn(rows, np.full(len(rows), -1), chosen[steals] - ACT_STEAL))
        self._phase[rolling[0]] = PHASE_ROLL
        self._roll_dice(np.concatenate(rolling))
        return self._finish(moving)

    # ------------------------------------------------------------------ internals

    def _check(
        self, actions: ArrayLike, active: ArrayLike | None
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The actions as int64 and the rows that move; raise before changing anything."""
        array = np.asarray(actions)
        if array.shape != (self.size,):
            msg = f"actions must have shape ({self.size},), got {array.shape}"
            raise BatchActionError(msg)
        if array.dtype.kind not in "iu":
            msg = f"actions must be integers, got dtype {array.dtype}"
            raise BatchActionError(msg)
        live = self._phase != PHASE_GAME_OVER
        if active is not None:
            flags = np.asarray(active)
            if flags.shape != (self.size,) or flags.dtype != np.bool_:
                msg = f"active must be a boolean array of shape ({self.size},)"
                raise BatchActionError(msg)
            live &= flags
        moving = np.flatnonzero(live)
        numbers = array.astype(np.int64)
        chosen = numbers[moving]
        outside = (chosen < 0) | (chosen >= self.encoding.num_actions)
        if outside.any():
            rows = tuple(int(r) for r in moving[outside])
            msg = (
                f"action numbers out of range 0..{self.encoding.num_actions - 1} in "
                f"{_rows_text(rows)}: {int(numbers[rows[0]])}"
            )
            raise BatchActionError(msg, rows)
        legal = self.legal_mask()[moving, chosen]
        if not legal.all():
            rows = tuple(int(r) for r in moving[~legal])
            first = rows[0]
            allowed = ", ".join(
                str(self.encoding.decode(int(a)))
                for a in np.flatnonzero(self._mask[first])  # type: ignore[index]
            )
            msg = (
                f"illegal actions in {_rows_text(rows)}: row {first} plays "
                f"{self.encoding.decode(int(numbers[first]))!s} in phase "
                f"{PHASE_NAMES[self._phase[first]]!s} (legal: {allowed})"
            )
            raise BatchActionError(msg, rows)
        return numbers, moving

    def _legal_mask(self) -> NDArray[np.bool_]:
        mask = np.zeros((self.size, self.encoding.num_actions), dtype=np.bool_)
        choose = np.flatnonzero(self._phase == PHASE_CHOOSE)
        mask[choose, 1:7] = (self._roll[choose] > 0) & (self._set_aside[choose] == 0)
        decide = np.flatnonzero(self._phase == PHASE_DECIDE)
        if decide.size:
            set_aside = self._set_aside[decide]
            mask[decide, ACT_ROLL] = (set_aside == 0).any(axis=1) & (self._in_hand[decide] > 0)
            mask[decide, ACT_STOP] = True
            grill, victim = self._claims(decide)
            self._grill_claim[decide] = grill
            self._victim[decide] = victim
            robbed = victim >= 0
            mask[decide[robbed], ACT_STEAL + victim[robbed]] = True
        return mask

    def _claims(self, rows: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """C8 at a stop: the grill tile index it takes and the player a steal robs (-1: none)."""
        set_aside = self._set_aside[rows]
        total = set_aside.astype(np.int64) @ POINTS
        worm = set_aside[:, WORM] > 0
        grill = self._grill[rows]
        # the total's tile index, clipped: 0 below the tiles (nothing lower), 16 above them all
        index = np.clip(total - FIRST_TILE, 0, TILES)
        exact = worm & (total >= FIRST_TILE) & (index < TILES) & ((grill >> index) & 1 == 1)
        lower = HIGHEST[grill & ((1 << index) - 1)]  # the highest grill tile below the total
        stealable = (
            (worm & ~exact)[:, None]
            & (self._tops[rows] == total[:, None])
            & (self._seats != self._player[rows, None])
        )
        victim = np.where(stealable.any(axis=1), np.argmax(stealable, axis=1), -1)
        claim = np.where(exact, index, np.where(worm, lower, -1))
        if not self._optional_steal:  # O3 off: a possible steal is the only claim
            claim = np.where(victim >= 0, -1, claim)
        return claim, victim

    def _take(self, rows: NDArray[np.int64], faces: NDArray[np.int64]) -> None:
        """C4: set aside every die of the roll showing the face."""
        shown = self._roll[rows, faces]
        self._set_aside[rows, faces] = shown
        self._in_hand[rows] -= shown
        self._roll[rows] = 0
        self._phase[rows] = PHASE_DECIDE

    def _end_turn(
        self, rows: NDArray[np.int64], grill: NDArray[np.int64], victims: NDArray[np.int64]
    ) -> NDArray[np.int64]:
        """C8-C12: take a grill tile, steal, or bust; pass the dice. The rows that roll next."""
        players = self._player[rows].astype(np.int64)
        taking = grill >= 0
        if taking.any():
            taken, index = rows[taking], grill[taking]
            self._grill[taken] &= ~(1 << index)
            self._push(taken, players[taking], index + FIRST_TILE)
        stealing = victims >= 0
        if stealing.any():
            robbed = rows[stealing]
            tiles = self._pop(robbed, victims[stealing])
            self._push(robbed, players[stealing], tiles)
        busting = ~(taking | stealing)
        if busting.any():
            self._bust(rows[busting], players[busting])
        self._turns[rows] += 1
        over = self._grill[rows] == 0
        ended = rows[over]
        self._phase[ended] = PHASE_GAME_OVER
        self._in_hand[ended] = 0
        self._roll[ended] = 0
        self._set_aside[ended] = 0
        going: NDArray[np.int64] = rows[~over]
        self._player[going] = (self._player[going] + 1) % self.players
        self._start_turn(going)
        return going

    def _bust(self, rows: NDArray[np.int64], players: NDArray[np.int64]) -> None:
        """C10 (and O1, O2): return the top tile, turn the highest grill tile face down."""
        holding = self._heights[rows, players] > 0
        returning = rows[holding]
        if returning.size:
            tiles = self._pop(returning, players[holding]).astype(np.int64)
            self._grill[returning] |= 1 << (tiles - FIRST_TILE)
            highest = self._highest(returning)
            turn = np.ones(len(returning), dtype=np.bool_)
            if not self._short_game:  # C10: spared when the returned tile is the highest
                turn = highest != tiles - FIRST_TILE
            self._turn_face_down(returning[turn], highest[turn])
        if self._flip_on_empty:
            empty = rows[~holding]
            empty = empty[self._grill[empty] != 0]
            if empty.size:
                self._turn_face_down(empty, self._highest(empty))

    def _highest(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """Index of the highest face-up grill tile (the grill is not empty)."""
        highest: NDArray[np.int64] = HIGHEST[self._grill[rows]]
        return highest

    def _turn_face_down(self, rows: NDArray[np.int64], index: NDArray[np.int64]) -> None:
        self._grill[rows] &= ~(1 << index)
        self._face_down[rows, self._face_down_count[rows]] = index + FIRST_TILE
        self._face_down_count[rows] += 1

    def _push(self, rows: NDArray[np.int64], players: NDArray[np.int64], tiles: ArrayLike) -> None:
        self._stacks[rows, players, self._heights[rows, players]] = tiles
        self._heights[rows, players] += 1
        self._tops[rows, players] = tiles

    def _pop(self, rows: NDArray[np.int64], players: NDArray[np.int64]) -> NDArray[np.int64]:
        tiles = self._tops[rows, players]
        self._heights[rows, players] -= 1
        height = self._heights[rows, players].astype(np.int64)
        self._stacks[rows, players, height] = 0
        self._tops[rows, players] = np.where(
            height > 0, self._stacks[rows, players, np.maximum(height - 1, 0)], 0
        )
        return tiles

    def _start_turn(self, rows: NDArray[np.int64]) -> None:
        """C3, C11: the player to move takes all the dice."""
        self._phase[rows] = PHASE_ROLL
        self._in_hand[rows] = DICE
        self._roll[rows] = 0
        self._set_aside[rows] = 0

    def _roll_dice(self, rows: NDArray[np.int64]) -> None:
        """Roll the dice in hand in ``rows`` (phase ROLL); C5: a roll with nothing to take busts."""
        self._mask = None
        while rows.size:
            dice = self._in_hand[rows].astype(np.int64)
            draw = ROLL_START[dice] + self._rng.integers(0, SIDES[dice])
            counts = ROLL_COUNTS[np.searchsorted(ROLL_CUMULATIVE, draw, side="right")]
            self._roll[rows] = counts
            self._phase[rows] = PHASE_CHOOSE
            self._moves[rows] += 1
            if self.on_roll is not None:
                self.on_roll(rows, counts)
            takeable = ((counts > 0) & (self._set_aside[rows] == 0)).any(axis=1)
            busted = rows[~takeable]
            rows = (
                self._end_turn(busted, np.full(len(busted), -1), np.full(len(busted), -1))
                if busted.size
                else busted
            )

    def _finish(self, moving: NDArray[np.int64]) -> BatchStep:
        """Report the games that ended among ``moving``; restart them with ``auto_reset``."""
        n, players = self.size, self.players
        terminated = np.zeros(n, dtype=np.bool_)
        rewards = np.zeros((n, players), dtype=np.float32)
        scores = np.zeros((n, players), dtype=np.int16)
        winners = np.zeros((n, players), dtype=np.bool_)
        moves = np.zeros(n, dtype=np.int32)
        turns = np.zeros(n, dtype=np.int32)
        ended = moving[self._phase[moving] == PHASE_GAME_OVER]
        if ended.size:
            terminated[ended] = True
            worms, won = _standings(self._worms, self._stacks[ended])
            count = won.sum(axis=1, keepdims=True)
            share = np.where(won, 1 / count, -1 / np.maximum(players - count, 1))
            rewards[ended] = np.where(count == players, 0, share)
            scores[ended] = worms
            winners[ended] = won
            moves[ended] = self._moves[ended]
            turns[ended] = self._turns[ended]
            if self.auto_reset:
                self.reset(ended)
        return BatchStep(terminated, rewards, scores, winners, moves, turns)

    def _observers(self, seats: ArrayLike | None) -> NDArray[np.int64]:
        if seats is None:
            return self._player.astype(np.int64)
        array = np.asarray(seats)
        if array.dtype.kind not in "iu" or array.shape not in ((), (self.size,)):
            msg = f"seats must be an int or {self.size} ints, got {array.dtype} {array.shape}"
            raise ArgumentTypeError(msg)
        if ((array < 0) | (array >= self.players)).any():
            msg = f"seats must be players 0 to {self.players - 1}"
            raise BatchArgumentError(msg)
        return np.broadcast_to(array.astype(np.int64), (self.size,))

    def _row(self, row: int) -> int:
        if isinstance(row, bool) or not isinstance(row, int | np.integer):
            msg = f"a row is a whole number, got {row!r}"
            raise ArgumentTypeError(msg)
        if not -self.size <= row < self.size:
            msg = f"row {row} is out of range for {self.size} games"
            raise BatchArgumentError(msg)
        return int(row) % self.size

    def _select(self, rows: ArrayLike) -> NDArray[np.int64]:
        array = np.asarray(rows)
        if array.dtype == np.bool_:
            if array.shape != (self.size,):
                msg = f"a row mask must have shape ({self.size},), got {brief(array.shape)}"
                raise BatchArgumentError(msg)
            return np.flatnonzero(array)
        if array.dtype.kind not in "iu" or array.ndim != 1:
            msg = "rows must be a boolean mask or a list of row indices"
            raise ArgumentTypeError(msg)
        if ((array < 0) | (array >= self.size)).any():
            msg = f"rows must be 0 to {self.size - 1}"
            raise BatchArgumentError(msg)
        return array.astype(np.int64)


def _standings(
    worms_of: NDArray[np.int64], stacks: NDArray[np.int8]
) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """C13 for stacks of shape (games, players, tiles): the worms, and who wins on them.

    ``worms_of`` gives each tile number's worms (0 for 0, an empty place in a stack).

    Most worms wins; a tie goes to the highest tile held; players level on both share.
    """
    worms: NDArray[np.int64] = worms_of[stacks].sum(axis=2)
    key = worms * 64 + stacks.max(axis=2).astype(np.int64)  # worms first, then the best tile
    won: NDArray[np.bool_] = key == key.max(axis=1, keepdims=True)
    return worms, won


def _read_only(array: NDArray[Any]) -> NDArray[Any]:
    view = array.view()
    view.flags.writeable = False
    return view


def _rows_text(rows: tuple[int, ...]) -> str:
    shown = ", ".join(map(str, rows[:10]))
    more = f" and {len(rows) - 10} more" if len(rows) > 10 else ""
    return f"row{'s' if len(rows) > 1 else ''} {shown}{more}"
