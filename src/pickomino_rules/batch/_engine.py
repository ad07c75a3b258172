"""The batch engine: N games as a struct of arrays, stepped together by the rules' twins.

Its step machine mirrors `_engine.steps` function for function (``_mirrors.py`` names each
one's twin).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import attrs

from pickomino_rules._engine import ACTIVE
from pickomino_rules.actions import STOP, Steal
from pickomino_rules.batch._compose import twins_of, use_compiled
from pickomino_rules.batch._conversion import state_of, write_row
from pickomino_rules.batch._rules import BatchActionError, BatchArgumentError, batch_rules
from pickomino_rules.batch._tables import PHASE_NAMES
from pickomino_rules.batch_plugin import (
    PHASE_CHOOSE,
    PHASE_DECIDE,
    PHASE_GAME_OVER,
    PHASE_ROLL,
    PHASE_TURN_OVER,
    BatchTable,
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

_loops: Any = None  # the compiled loops (batch/_fused.pyx), where built and chosen
if ACTIVE.compiled:  # the backend the engine chose at import: the batch plays the same one
    try:
        _loops = importlib.import_module("pickomino_rules.batch._fused")
    except ImportError:  # built without a C compiler: the numpy twins play
        _loops = None
    else:
        use_compiled(_loops.CORE_TWINS)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from numpy.typing import ArrayLike, NDArray

    from pickomino_rules.dice import RollOutcome
    from pickomino_rules.encoding import Encoding
    from pickomino_rules.rules import Rules


@attrs.frozen(eq=False)
class BatchArrays:
    """Read-only views of a batch's table, one row per game, for vectorised bots.

    Tiles are numbers (e.g. 21-36) in ``stacks``, indices (positions in ``rules.tiles``) in
    the boolean arrays and ``grill_claim``.

    Attributes:
        grill: True where the tile lies face up on the grill, shape (N, tiles).
        face_down: True where the tile is turned face down, shape (N, tiles).
        stacks: Each player's tiles bottom first, 0 past the top, shape (N, players, tiles).
        heights: Tiles in each player's stack, shape (N, players).
        player: The player to move.
        phase: The phase code (1 choose, 2 decide, 3 turn over, 4 game over).
        in_hand: Dice not set aside this turn (of every kind).
        roll: The roll on the table, dice per face 1-5, worm, of every kind (zeros outside
            phase choose).
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
    """N games of one variant, stepped together.

    Args:
        games: Number of games (rows), at least 1.
        players: Players per game (within the rules' limits).
        variant: A variant's name or composed rules whose every module brings a batch twin
            (see `batch_rules`): ``classic``, ``extended``, ``extrawurm`` and yours.
        options: The variant's options, with a variant name.
        seed: Seeds the batch's dice: an int, a ``numpy.random.Generator``, or None.
        auto_reset: Start a new game in a row as soon as its game ends (in the same
            step, after its results are reported). Without it a finished row waits
            for [`reset`][pickomino_rules.batch.BatchGames.reset].
        on_roll: Called with the rows and their dice at every roll, in the order rolled:
            counts per face 1-5, worm (shape (rows, 6)), or per kind and face (shape
            (rows, kinds, 6)) when the rules have more than one kind of dice. A log of the
            chance outcomes, e.g. to replay a row's game in the reference engine.

    Raises:
        BatchRulesError: Rules with a module that brings no batch twin.
        InvalidSetupError: A bad number of games or players.

    Attributes:
        rules: The composed rules.
        size: Number of games.
        players: Players per game.
        encoding: The action numbers and observations (shared with the other
            interfaces to learning).
        table: The games' arrays, as the twins see them (read them; changing them by
            hand can make states the rules never reach).
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
        self._twins = twins_of(rules)
        table = self.table = BatchTable(rules, self.encoding, games, players)
        table.extensions.update(self._twins.extensions)
        for key, part in self._twins.parts:
            table.parts[key.name] = part.arrays(table)
        self._pending_hook = rules.pending_actions is not None
        self._steal = self.encoding.encode(Steal(0))
        self._stop = self.encoding.encode(STOP)
        self._moves = np.zeros(games, dtype=np.int32)
        self._turns = np.zeros(games, dtype=np.int32)
        self._mask: NDArray[np.bool_] | None = None
        self._pending = np.zeros(games, dtype=np.bool_)  # rows waiting on a module's decision
        self._outcomes: dict[tuple[tuple[int, ...], ...], RollOutcome] = {}
        self._grill_claim = np.full(games, -1, dtype=np.int64)  # tile index a stop takes
        self._victim = np.full(games, -1, dtype=np.int64)  # player a steal robs
        view = _fused_table(self) if _loops is not None and table.highest_of is not None else None
        table.compiled = view
        self._fused = view if _plain(rules, table) else None
        self.reset()

    # ------------------------------------------------------------------ reading

    @property
    def phases(self) -> NDArray[np.str_]:
        """Each game's phase by name: ``"choose"``, ``"decide"``, ``"turn over"``..."""
        names: NDArray[np.str_] = PHASE_NAMES[self.table.phase]
        return names

    @property
    def phase_codes(self) -> NDArray[np.int8]:
        """Each game's phase as the index of the encoding's ``phase`` segment."""
        return _read_only(self.table.phase)

    @property
    def to_move(self) -> NDArray[np.int8]:
        """The player to move in each game (the last mover once a game is over)."""
        return _read_only(self._to_move())

    @property
    def over(self) -> NDArray[np.bool_]:
        """True where the game is over (only without ``auto_reset``, or before a reset)."""
        over: NDArray[np.bool_] = self.table.phase == PHASE_GAME_OVER
        return over

    @property
    def totals(self) -> NDArray[np.int64]:
        """Points of the dice set aside this turn in each game."""
        return self.table.totals(self.table.rows)

    @property
    def arrays(self) -> BatchArrays:
        """The table of every game as read-only arrays (see `BatchArrays`)."""
        self.legal_mask()  # the claims of phase decide are worked out with it
        table = self.table
        decide = (table.phase == PHASE_DECIDE) & ~self._pending
        return BatchArrays(
            *(
                _read_only(array)
                for array in (
                    self.grill,
                    self.face_down,
                    table.stacks,
                    table.heights,
                    self._to_move(),
                    table.phase,
                    table.in_hand.sum(axis=1, dtype=np.int8),
                    table.roll.sum(axis=1, dtype=np.int8),
                    table.set_aside,
                    np.where(decide, self._grill_claim, -1),
                    np.where(decide, self._victim, -1),
                )
            )
        )

    @property
    def grill(self) -> NDArray[np.bool_]:
        """True where a tile lies face up on the grill, shape (N, tiles) (index in tiles)."""
        bits = 1 << np.arange(len(self.rules.tiles), dtype=np.int64)
        return (self.table.grill[:, None] & bits) != 0  # type: ignore[no-any-return]

    @property
    def face_down(self) -> NDArray[np.bool_]:
        """True where a tile is turned face down, shape (N, tiles) (index: ``rules.tiles``)."""
        table = self.table
        turned = np.zeros((self.size, len(self.rules.tiles)), dtype=np.bool_)
        listed = np.arange(len(self.rules.tiles)) < table.face_down_count[:, None]
        rows = np.broadcast_to(table.rows[:, None], listed.shape)
        turned[rows[listed], table.index_of[table.face_down[listed].astype(np.int64)]] = True
        return turned

    @property
    def moves(self) -> NDArray[np.int32]:
        """Moves played so far in each row's current game, rolls included."""
        return _read_only(self._moves)

    @property
    def turns(self) -> NDArray[np.int32]:
        """Turns ended so far in each row's current game."""
        return _read_only(self._turns)

    def scores(self) -> NDArray[np.int64]:
        """Worms of each player in each game, shape (N, players) (C13 and the variant's)."""
        scores: NDArray[np.int64] = self._twins.hooks["scores"](self.table, self.table.rows)
        return scores

    def winners(self) -> NDArray[np.bool_]:
        """The players who would win each game if it ended now (C13's ties included)."""
        return _winners(self.scores(), self.table.stacks)

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
        table, encoding, n, players = self.table, self.encoding, self.size, self.players
        count = len(self.rules.tiles)
        at = {name: part.start for name, part in encoding.segments.items()}
        out = np.zeros((n, encoding.observation_size), dtype=np.float32)
        rows = table.rows
        out[:, at["grill"] : at["grill"] + count] = self.grill
        out[:, at["face_down"] : at["face_down"] + count] = self.face_down
        tops = table.tops
        worms = self.scores()
        for seat in range(players):
            who = (me + seat) % players
            top = tops[rows, who]
            has = top > 0
            out[rows[has], at["tops"] + seat * count + table.index_of[top[has]]] = 1
            out[:, at["stack_sizes"] + seat] = table.heights[rows, who]
            out[:, at["scores"] + seat] = worms[rows, who]
        playing = table.phase != PHASE_GAME_OVER
        to_move = (self._to_move()[playing].astype(np.int64) - me[playing]) % players
        out[rows[playing], at["to_move"] + to_move] = 1
        out[rows, at["phase"] + table.phase.astype(np.int64)] = 1
        out[:, at["in_hand"] : at["in_hand"] + table.kinds] = table.in_hand
        out[:, at["roll"] : at["roll"] + 6 * table.kinds] = table.roll.reshape(n, -1)
        out[:, at["set_aside"] : at["set_aside"] + 6] = table.set_aside
        out[:, at["total"]] = self.totals
        self.legal_mask()  # works out the claims of phase decide
        decide = np.flatnonzero(table.phase == PHASE_DECIDE)
        grill, victim = self._grill_claim[decide], self._victim[decide]
        taking, stealing = decide[grill >= 0], decide[victim >= 0]
        out[taking, at["stop_claims"]] = table.worms[grill[grill >= 0]]
        robbed = table.tops[stealing, victim[victim >= 0]]
        out[stealing, at["stop_claims"] + 1] = table.worms_by_number[robbed]
        for key, part in self._twins.parts:
            if part.observe is not None:
                features = part.observe(table, rows, me)
                segment = encoding.segments[key.name]
                out[:, segment] = features
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
        chosen = self.table.rows if rows is None else self._select(rows)
        return [state_of(self.table, self._twins.parts, int(row), self._outcome) for row in chosen]

    def _outcome(self, counts: tuple[tuple[int, ...], ...]) -> RollOutcome:
        """The rules' own (shared) roll showing ``counts``: building one costs far more."""
        outcome = self._outcomes.get(counts)
        if outcome is None:
            dice = tuple(sum(kind) for kind in counts)
            for known in self.rules.chance_table(dice).outcomes:
                self._outcomes[_padded(known, self.table.kinds)] = known
            outcome = self._outcomes[counts]
        return outcome

    # ------------------------------------------------------------------ changing

    def reset(self, rows: ArrayLike | None = None) -> None:
        """Start new games in ``rows`` (all by default): player 0 rolls first.

        Args:
            rows: Row indices or a boolean mask of length N.
        """
        chosen = self.table.rows if rows is None else self._select(rows)
        table = self.table
        table.grill[chosen] = (1 << len(self.rules.tiles)) - 1
        table.face_down[chosen] = 0
        table.face_down_count[chosen] = 0
        table.stacks[chosen] = 0
        table.heights[chosen] = 0
        table.tops[chosen] = 0
        table.player[chosen] = 0
        table.phase[chosen] = PHASE_ROLL
        table.in_hand[chosen] = table.dice
        table.roll[chosen] = 0
        table.set_aside[chosen] = 0
        self._pending[chosen] = False
        self._moves[chosen] = 0
        self._turns[chosen] = 0
        self._twins.setup(table, chosen)
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
        write_row(self.table, self._twins.parts, row, state)
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
        chosen = numbers[moving]
        if self._fused is not None:  # the compiled loop: the core turn, no module's hooks
            rolling = np.empty(len(moving), dtype=np.int64)
            count = _loops.decide(self._fused, moving, chosen, rolling)
            self._roll_dice(rolling[:count])
            return self._finish(moving)
        self._roll_dice(self._play(moving, chosen))
        return self._finish(moving)

    def scores_after(
        self, actions: ArrayLike, active: ArrayLike | None = None
    ) -> NDArray[np.int64]:
        """Each player's worms in each game once ``actions`` were played, before any roll.

        Nothing changes: the games are as they were afterwards. A bot asks it what a move
        wins at once, as the rules score it (a grilled worm for two 1s, E4): the batch twin
        of ``scores(rules, apply(rules, state, action))``.

        Args:
            actions: One action number per game, as for `step`.
            active: A boolean mask of the games that move; all by default. The others'
                scores are their scores now.

        Raises:
            BatchActionError: As `step` (nothing is changed).
        """
        numbers, moving = self._check(actions, active)
        saved = self._snapshot()
        try:
            if self._fused is not None:
                rolling = np.empty(len(moving), dtype=np.int64)
                _loops.decide(self._fused, moving, numbers[moving], rolling)
            else:
                self._play(moving, numbers[moving])
            return self.scores()
        finally:
            self._restore(saved)

    def _snapshot(self) -> list[tuple[dict[str, Any], str, NDArray[Any], NDArray[Any]]]:
        """A copy of every array a move may change (the table's, its parts', the engine's)."""
        table = self.table
        holders: list[dict[str, Any]] = [vars(table), vars(self), *table.parts.values()]
        return [
            (holder, name, array, array.copy())
            for holder in holders
            for name, array in list(holder.items())
            if isinstance(array, np.ndarray) and array.flags.writeable
        ] + [(vars(self), "_mask", self._mask, self._mask)]  # type: ignore[list-item]

    @staticmethod
    def _restore(saved: list[tuple[dict[str, Any], str, Any, Any]]) -> None:
        """Put back what `_snapshot` copied: the same array objects, holding the same values."""
        for holder, name, array, copy in saved:
            holder[name] = array
            if isinstance(array, np.ndarray) and array is not copy:
                array[...] = copy

    def _play(self, moving: NDArray[np.int64], chosen: NDArray[np.int64]) -> NDArray[np.int64]:
        """`steps.apply` for decisions in rows ``moving``: the rows that roll next."""
        self._moves[moving] += 1
        table = self.table
        phase = table.phase[moving]
        decide = phase == PHASE_DECIDE
        takes = (chosen >= 1) & (chosen <= 6) & (phase == PHASE_CHOOSE)
        stops = decide & (chosen == self._stop)
        steals = decide & (chosen >= self._steal) & (chosen < self._steal + self.players)
        rolls = decide & (chosen == 0)
        if self._pending_hook:
            waiting = self._pending[moving]
            takes &= ~waiting
            stops &= ~waiting
            steals &= ~waiting
            rolls &= ~waiting
        own = ~(takes | stops | steals | rolls)  # a module's action: pending, or after a roll
        table.phase[moving[rolls]] = PHASE_ROLL
        if takes.any():
            self._take(moving[takes], chosen[takes] - 1)
        if stops.any():
            rows = moving[stops]
            self._decide(rows, *self._claim_of_stop(self._grill_claim[rows], self._victim[rows]))
        if steals.any():
            rows = moving[steals]
            self._decide(rows, np.full(len(rows), -1), chosen[steals] - self._steal)
        if own.any():
            rows = moving[own]
            self._twins.apply_action(table, rows, chosen[own])
            self._settle(rows)
        order = [moving[rolls], moving[stops], moving[steals], moving[takes | own]]
        return np.concatenate([rows[table.phase[rows] == PHASE_ROLL] for rows in order])

    # ------------------------------------------------------------------ the step machine

    def _legal_mask(self) -> NDArray[np.bool_]:
        """`steps.derive` for every game: pending decisions, a roll's takes, a stop's claims."""
        table, twins = self.table, self._twins
        mask = np.zeros((self.size, self.encoding.num_actions), dtype=np.bool_)
        if self._fused is not None:
            _loops.derive(self._fused, mask.view(np.int8))
            return mask
        live = np.flatnonzero(table.phase != PHASE_GAME_OVER)
        if self._pending_hook:
            offered = twins.pending_actions(table, live)
            waiting = _rows_with_any(offered)
            self._pending[:] = False
            self._pending[live[waiting]] = True
            mask[live[waiting]] = offered[waiting]
            open_rows = live[~waiting]
        else:
            open_rows = live
        phase = table.phase[open_rows]
        choose = open_rows[phase == PHASE_CHOOSE]
        if choose.size:
            mask[choose] = twins.roll_actions(table, choose)
        decide = np.flatnonzero(table.phase == PHASE_DECIDE)
        if decide.size:
            grill, victim = self._stop_claims(decide)
            self._grill_claim[decide] = grill
            self._victim[decide] = victim
            deciding = decide[~self._pending[decide]]
            if deciding.size:
                mask[deciding] = self._decide_actions(deciding)
        return mask

    def _decide_actions(self, rows: NDArray[np.int64]) -> NDArray[np.bool_]:
        """`steps.decide_actions`: roll while dice and faces remain (C6); stop; steal (C8)."""
        table = self.table
        if table.compiled is not None:
            found: NDArray[np.bool_] = _loops.decide_actions(table, rows, self._victim[rows])
            return found
        mask = table.mask(rows)
        mask[:, 0] = (table.set_aside[rows] == 0).any(axis=1) & (
            table.in_hand[rows].sum(axis=1) > 0
        )
        mask[:, self._stop] = True  # at most one steal: a stop takes the claim, or busts
        victim = self._victim[rows]
        robbed = np.flatnonzero(victim >= 0)
        mask[robbed, self._steal + victim[robbed]] = True
        return mask

    @staticmethod
    def _claim_of_stop(
        grill: NDArray[np.int64], victim: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """`steps.claim_of_stop`: the grill tile if claimable, else the only claim (a steal)."""
        return grill, np.where(grill >= 0, -1, victim)

    def _stop_claims(self, rows: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """`steps.stop_claims`: the stop total's claims, none where the stop busts."""
        totals = self._twins.stop_total(self.table, rows)
        grill = np.full(len(rows), -1, dtype=np.int64)
        victim = np.full(len(rows), -1, dtype=np.int64)
        scoring = np.flatnonzero(totals >= 0)
        if scoring.size:
            grill[scoring], victim[scoring] = self._twins.claims(
                self.table, rows[scoring], totals[scoring]
            )
        return grill, victim

    def _take(self, rows: NDArray[np.int64], faces: NDArray[np.int64]) -> None:
        """`steps.apply` on a take: set the dice aside; settle unless the player decides next."""
        self._twins.set_aside(self.table, rows, faces)
        unsettled = rows[self.table.phase[rows] != PHASE_DECIDE]
        if unsettled.size:
            self._settle(unsettled)

    def _decide(
        self, rows: NDArray[np.int64], grill: NDArray[np.int64], victims: NDArray[np.int64]
    ) -> None:
        """`steps.decide` on a stop or a steal: take the claim, or bust; finish the turn."""
        claiming = (grill >= 0) | (victims >= 0)
        if claiming.any():
            self._twins.take_tile(self.table, rows[claiming], grill[claiming], victims[claiming])
        if not claiming.all():
            self._twins.bust(self.table, rows[~claiming])
        self._finish_turn(rows)

    def _settle(self, rows: NDArray[np.int64]) -> None:
        """`steps.settle`: after a module's action, re-check a roll, finish a resolved turn."""
        phase = self.table.phase[rows]
        over = rows[phase == PHASE_TURN_OVER]
        if over.size:
            self._pass_dice(over)
        rolled = rows[phase == PHASE_CHOOSE]
        if rolled.size:
            self._after_roll(rolled)

    def _after_roll(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """`steps.after_roll`: a roll that offers nothing busts; the rows that roll next."""
        table, twins = self.table, self._twins
        offered = _rows_with_any(twins.roll_actions(table, rows))
        if self._pending_hook:
            offered |= _rows_with_any(twins.pending_actions(table, rows))
        busted = rows[~offered]
        if not busted.size:
            return busted
        twins.bust(table, busted)
        return self._finish_turn(busted)

    def _finish_turn(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """`steps.finish_turn`: tidy the resolved turn; pass the dice. The rows that roll next."""
        table = self.table
        if table.compiled is not None:
            _loops.turn_over(table.compiled, rows, self.rules.tidies_turn_end)
        else:
            self._turns[rows] += 1
            if self.rules.tidies_turn_end:
                table.phase[rows] = PHASE_TURN_OVER
                table.roll[rows] = 0
        if self.rules.tidies_turn_end:
            self._twins.end_turn(table, rows)
        return self._pass_dice(rows)

    def _pass_dice(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """`steps.pass_dice`: wait for a pending decision, end the game, or start a turn."""
        table = self.table
        if self._pending_hook:
            rows = rows[~_rows_with_any(self._twins.pending_actions(table, rows))]
        if table.compiled is not None:
            passed = np.empty(len(rows), dtype=np.int64)
            passed = passed[: _loops.pass_on(table.compiled, rows, passed)]
            if self.rules.deals_own_dice and passed.size:
                table.in_hand[passed] = self._twins.turn_dice(table, passed)
            return passed
        over = table.grill[rows] == 0
        ended = rows[over]
        table.phase[ended] = PHASE_GAME_OVER
        table.in_hand[ended] = 0
        table.roll[ended] = 0
        table.set_aside[ended] = 0
        going: NDArray[np.int64] = rows[~over]
        table.player[going] = (table.player[going] + 1) % self.players
        self._start_turn(going)
        return going

    def _start_turn(self, rows: NDArray[np.int64]) -> None:
        """`steps.start_turn`: the player to move takes the turn's dice (C3, C11)."""
        table = self.table
        table.phase[rows] = PHASE_ROLL
        table.in_hand[rows] = table.dice
        table.roll[rows] = 0
        table.set_aside[rows] = 0
        if self.rules.deals_own_dice and rows.size:
            table.in_hand[rows] = self._twins.turn_dice(table, rows)

    def _roll_dice(self, rows: NDArray[np.int64]) -> None:
        """`steps.roll` then `after_roll` in ``rows`` (phase ROLL), until none busts."""
        self._mask = None
        table = self.table
        if self._fused is not None:
            start, lookup, rolls = table.roll_tables[0]
            while rows.size:
                first, high = np.empty(len(rows), np.int64), np.empty(len(rows), np.int64)
                _loops.bounds(self._fused, rows, 0, start, table.sides, first, high)
                drawn = lookup[first + self._rng.integers(0, high)]
                if self.on_roll is not None:
                    self.on_roll(rows, rolls[drawn])
                rolling = np.empty(len(rows), dtype=np.int64)
                rows = rolling[: _loops.land(self._fused, rows, rolls, drawn, rolling)]
            return
        view = table.compiled
        while rows.size and view is not None:  # each kind's dice drawn as below, then shown
            for kind, (start, lookup, rolls) in enumerate(table.roll_tables):
                # rows without dice of a kind draw nothing (numpy draws nothing for them)
                some = rows[table.in_hand[:, kind][rows] > 0]
                first, high = np.empty(len(some), np.int64), np.empty(len(some), np.int64)
                _loops.bounds(view, some, kind, start, table.sides, first, high)
                _loops.show(view, some, kind, rolls, lookup[first + self._rng.integers(0, high)])
            table.phase[rows] = PHASE_CHOOSE
            self._moves[rows] += 1
            if self.on_roll is not None:
                counts = table.roll[rows]
                self.on_roll(rows, counts[:, 0] if table.kinds == 1 else counts)
            rows = self._after_roll(rows)
        while rows.size:
            counts = np.empty((len(rows), table.kinds, 6), dtype=np.int8)
            for kind, (start, lookup, rolls) in enumerate(table.roll_tables):
                dice = table.in_hand[rows, kind].astype(np.int64)
                counts[:, kind] = rolls[
                    lookup[start[dice] + self._rng.integers(0, table.sides[dice])]
                ]
            table.roll[rows] = counts
            table.phase[rows] = PHASE_CHOOSE
            self._moves[rows] += 1
            if self.on_roll is not None:
                self.on_roll(rows, counts[:, 0] if table.kinds == 1 else counts)
            rows = self._after_roll(rows)

    def _finish(self, moving: NDArray[np.int64]) -> BatchStep:
        """Report the games that ended among ``moving``; restart them with ``auto_reset``."""
        n, players = self.size, self.players
        terminated = np.zeros(n, dtype=np.bool_)
        rewards = np.zeros((n, players), dtype=np.float32)
        scores = np.zeros((n, players), dtype=np.int16)
        winners = np.zeros((n, players), dtype=np.bool_)
        moves = np.zeros(n, dtype=np.int32)
        turns = np.zeros(n, dtype=np.int32)
        ended = moving[self.table.phase[moving] == PHASE_GAME_OVER]
        if ended.size:
            terminated[ended] = True
            worms = self._twins.scores(self.table, ended)
            won = _winners(worms, self.table.stacks[ended])
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

    # ------------------------------------------------------------------ arguments

    def _to_move(self) -> NDArray[np.int8]:
        """The player to move: a pending decision's chooser, else the player whose turn it is."""
        return self.table.player

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
        live = self.table.phase != PHASE_GAME_OVER
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
        mask = self.legal_mask()
        legal = mask.ravel()[moving * mask.shape[1] + chosen]  # one flat gather, not two
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
                f"{PHASE_NAMES[self.table.phase[first]]!s} (legal: {allowed})"
            )
            raise BatchActionError(msg, rows)
        return numbers, moving

    def _observers(self, seats: ArrayLike | None) -> NDArray[np.int64]:
        if seats is None:
            return self._to_move().astype(np.int64)
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


def _rows_with_any(mask: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Which rows of a mask hold any action (a whole mask is asked first: mostly none).

    Asked of the transposed mask: numpy's ``any`` over a short last axis is many times slower.
    """
    if not mask.any():
        return np.zeros(len(mask), dtype=np.bool_)
    found: NDArray[np.bool_] = np.asarray(np.ascontiguousarray(mask.T).any(axis=0))
    return found


def _plain(rules: Rules, table: BatchTable) -> bool:
    """Whether the compiled loop plays these rules: built, chosen, and no module's hooks."""
    return (
        table.compiled is not None
        and not rules.wrapped
        and rules.pending_actions is None
        and not rules.layout.parts
        and table.kinds == 1
    )


def _fused_table(games: BatchGames) -> object:
    """The compiled loops' view of the batch's arrays."""
    encode = games.encoding.encode
    return _loops.Table(
        games.table,
        games._moves,  # noqa: SLF001 (its own arrays)
        games._turns,  # noqa: SLF001
        games._grill_claim,  # noqa: SLF001
        games._victim,  # noqa: SLF001
        encode(STOP),
        encode(Steal(0)),
    )


def _winners(worms: NDArray[np.int64], stacks: NDArray[np.int8]) -> NDArray[np.bool_]:
    """C13 for stacks of shape (games, players, tiles): who wins on ``worms``.

    Most worms wins; a tie goes to the highest tile held; players level on both share.
    """
    key = worms.astype(np.int64) * 256 + stacks.max(axis=2).astype(np.int64)
    won: NDArray[np.bool_] = key == key.max(axis=1, keepdims=True)
    return won


def _padded(outcome: RollOutcome, kinds: int) -> tuple[tuple[int, ...], ...]:
    """A roll's counts with six zeros for each kind it does not roll."""
    counts = tuple(outcome.counts)
    return counts + ((0,) * 6,) * (kinds - len(counts))


def _read_only(array: NDArray[Any]) -> NDArray[Any]:
    view = array.view()
    view.flags.writeable = False
    return view


def _rows_text(rows: tuple[int, ...]) -> str:
    shown = ", ".join(map(str, rows[:10]))
    more = f" and {len(rows) - 10} more" if len(rows) > 10 else ""
    return f"row{'s' if len(rows) > 1 else ''} {shown}{more}"
