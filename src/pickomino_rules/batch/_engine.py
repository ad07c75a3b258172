"""The batch engine's public face: `BatchGames`, N games of one variant stepped together.

The games live as a struct of arrays (``batch_plugin.BatchTable``). The step machine that
plays them, a mirror of `_engine.steps`, is `_steps.StepMachine` (``_mirrors.py`` names each
function's twin); its compiled loops are chosen in `_compiled`; arguments are checked in
`_arguments` and reports built in `_results`. Rules with a module that brings no twin play
per row through the reference engine instead (`_rowwise.RowGames`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pickomino_rules.actions import STOP, Steal
from pickomino_rules.batch._arguments import (
    checked_actions,
    observers,
    read_only,
    row_index,
    selected_rows,
)
from pickomino_rules.batch._compiled import (
    LOOPS,
    fused_table,
    part_columns,
    plain,
    row_only,
    slot_parts,
)
from pickomino_rules.batch._compose import twins_of
from pickomino_rules.batch._conversion import Parts, state_of, write_row
from pickomino_rules.batch._results import BatchArrays, BatchStep, _winners, step_results
from pickomino_rules.batch._rowwise import RowGames
from pickomino_rules.batch._rules import batch_rules, untwinned
from pickomino_rules.batch._steps import StepMachine
from pickomino_rules.batch._tables import PHASE_NAMES
from pickomino_rules.batch_plugin import PHASE_DECIDE, PHASE_GAME_OVER, PHASE_ROLL, BatchTable
from pickomino_rules.errors import InvalidSetupError, MissingExtraError, brief
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


MAX_GAMES = 1_000_000
"""Most games one batch holds: its arrays take about a kilobyte a game."""


class BatchGames(StepMachine):
    """N games of one variant, stepped together.

    Args:
        games: Number of games (rows), at least 1.
        players: Players per game (within the rules' limits).
        variant: A variant's name or composed rules (see `batch_rules`): ``classic``,
            ``extended``, ``extrawurm`` and yours. Where a module brings no batch twin,
            every row plays through the reference engine (`path` says which, with a
            `BatchPerRowWarning` once per module).
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
        BatchRulesError: Rules the batch cannot hold, or a twin that does not match its
            module (see `batch_rules`).
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
        table = self.table = BatchTable(rules, self.encoding, games, players)
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
        self._rows: RowGames | None = None
        missing = untwinned(rules)
        if missing and not row_only(rules, missing):
            self._per_row(missing)
            return
        self._twins = twins_of(rules, missing)
        table.extensions.update(self._twins.extensions)
        slots, in_slots = (
            part_columns(rules, table, self._twins.parts) if LOOPS is not None else (None, None)
        )
        for key, part in self._twins.parts:
            table.parts[key.name] = (in_slots or {}).get(key.name) or part.arrays(table)
        view = (
            fused_table(
                table,
                moves=self._moves,
                turns=self._turns,
                grill_claim=self._grill_claim,
                victim=self._victim,
                slots=slots,
                slotted=in_slots is not None,
                encoding=self.encoding,
            )
            if slots is not None
            else None
        )
        self._slots = slots  # (a move changes them: `scores_after` restores them)
        table.compiled = view
        self._fused = view if plain(table) else None
        if missing and self._fused is None:  # a hook of theirs without a row form after all
            table.compiled = None
            self._per_row(missing)
            return
        self._through_codecs(slots if self._fused is not None else None)
        self.reset()

    def _through_codecs(self, slots: NDArray[np.int16] | None) -> None:
        """Convert and set up the parts through their codecs, where that can be.

        That is where the compiled loop plays (``slots`` given) and every part has its codec;
        else the parts' twins do it.
        """
        self._parts: Parts = self._twins.parts
        self._start: tuple[GameState, NDArray[np.int16]] | None = None
        in_codecs = slot_parts(self.rules, self.table, slots) if slots is not None else None
        if in_codecs is None or slots is None:
            return
        self._parts = in_codecs
        start = new_game(self.rules, players=self.players)[1]  # C2: set up, its turn begun
        first = np.zeros(slots.shape[1], dtype=np.int16)
        for (_key, part), value in zip(in_codecs, start.parts, strict=True):
            part.codec.write(value, first[part.columns], self.players)
        self._start = (start, first)

    def _per_row(self, missing: tuple[str, ...]) -> None:
        """Set up the per-row path (`_rowwise`): every row a reference state."""
        rows = self._rows = RowGames(
            self.rules,
            missing,
            self.encoding,
            self.table,
            rng=self._rng,
            moves=self._moves,
            turns=self._turns,
            outcome=self._outcome,
            rolled=self._rolled,
        )
        self._pending, self._grill_claim, self._victim = rows.pending, rows.grill_claim, rows.victim
        self._fused = None
        self.reset()

    def _rolled(self, rows: NDArray[np.int64], counts: NDArray[np.int8]) -> None:
        """Hand a roll to ``on_roll``, if set."""
        if self.on_roll is not None:
            self.on_roll(rows, counts)

    # ------------------------------------------------------------------ the path

    @property
    def path(self) -> str:
        """How the batch plays its rules: ``"twins"``, or ``"per row"`` (see `path_reason`)."""
        return "twins" if self._rows is None else "per row"

    @property
    def path_reason(self) -> str:
        """Why the batch plays its rules the way `path` says, naming any module without a twin."""
        names = ", ".join(repr(name) for name in untwinned(self.rules))
        if self._rows is None:
            if names:
                return (
                    f"rule module {names} brings no batch twin: the compiled loop plays its "
                    "row twins"
                )
            return "every rule module brings a batch twin"
        return (
            f"rule module {names} brings no batch twin: every row plays through the "
            "reference engine"
        )

    # ------------------------------------------------------------------ reading

    @property
    def phases(self) -> NDArray[np.str_]:
        """Each game's phase by name: ``"choose"``, ``"decide"``, ``"turn over"``..."""
        names: NDArray[np.str_] = PHASE_NAMES[self.table.phase]
        return names

    @property
    def phase_codes(self) -> NDArray[np.int8]:
        """Each game's phase as the index of the encoding's ``phase`` segment."""
        return read_only(self.table.phase)

    @property
    def to_move(self) -> NDArray[np.int8]:
        """The player to move in each game (the last mover once a game is over)."""
        return read_only(self._to_move())

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
                read_only(array)
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
        return read_only(self._moves)

    @property
    def turns(self) -> NDArray[np.int32]:
        """Turns ended so far in each row's current game."""
        return read_only(self._turns)

    def scores(self) -> NDArray[np.int64]:
        """Worms of each player in each game, shape (N, players) (C13 and the variant's)."""
        return self._scores_of(self.table.rows)

    def _scores_of(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        if self._rows is not None:
            return self._rows.scores(rows)
        scores: NDArray[np.int64]
        if self._fused is not None and self._fused.scores_on_rows:  # C13 on the rows, in C
            scores = LOOPS.scores(self._fused, rows)
        else:
            scores = self._twins.hooks["scores"](self.table, rows)
        return scores

    def winners(self) -> NDArray[np.bool_]:
        """The players who would win each game if it ended now (C13's ties included)."""
        return _winners(self.scores(), self.table.stacks)

    def legal_mask(self) -> NDArray[np.bool_]:
        """Legal actions of every game, shape (N, actions): all False where a game is over.

        The array is shared until the next change: do not write to it.
        """
        if self._mask is None:
            self._mask = self._legal_mask() if self._rows is None else self._rows.mask()
        return self._mask

    def observe(self, seats: ArrayLike | None = None) -> NDArray[np.float32]:
        """Observation vectors, shape (N, size), as ``Encoding.observe`` gives them.

        Args:
            seats: The observer of each game (an int for all, or one per game); the
                player to move by default.
        """
        me = observers(seats, self._to_move(), self.players)
        if self._rows is not None:
            observe, states = self.encoding.observe, self._rows.states
            seen = [observe(state, seat) for state, seat in zip(states, me.tolist(), strict=True)]
            return np.array(seen, dtype=np.float32).reshape(self.size, -1)
        table, encoding, n, players = self.table, self.encoding, self.size, self.players
        count = len(self.rules.tiles)
        at = {name: part.start for name, part in encoding.segments.items()}
        out = np.zeros((n, encoding.observation_size), dtype=np.float32)
        if self._fused is not None and self._fused.observes_on_rows:  # in C, on the rows
            starts = np.array([at[name] for name in _SEEN], dtype=np.int64)
            LOOPS.observe(self._fused, me.astype(np.int64), out, starts, at)
            return out
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
        return self.states([row_index(row, self.size)])[0]

    def states(self, rows: ArrayLike | None = None) -> list[GameState]:
        """Games ``rows`` (all by default) as reference states, converted together.

        Args:
            rows: Row indices or a boolean mask of length N.
        """
        chosen = self.table.rows if rows is None else selected_rows(rows, self.size)
        if self._rows is not None:
            return [self._rows.states[row] for row in chosen.tolist()]
        return [state_of(self.table, self._parts, int(row), self._outcome) for row in chosen]

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
        chosen = self.table.rows if rows is None else selected_rows(rows, self.size)
        if self._rows is not None:
            self._rows.reset(chosen)
            self._mask = None
            return
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
        if self._start is not None and self._slots is not None:  # as new_game made them
            start, first = self._start
            table.in_hand[chosen] = start.in_hand
            self._slots[chosen] = first
        else:
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
        row = row_index(row, self.size)
        check_fits(self.rules, state)
        validate(self.rules, state)
        if state.players != self.players:
            msg = f"the state has {state.players} players, the batch {self.players}"
            raise InvalidSetupError(msg)
        if self._rows is not None:
            self._rows.load(row, state)
            self._mask = None
            return
        write_row(self.table, self._parts, row, state)
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
        if self._rows is not None:
            self._rows.step(moving, chosen)
            self._mask = None
            return self._finish(moving)
        if self._fused is not None:  # the compiled loop: the core turn, no module's hooks
            rolling = np.empty(len(moving), dtype=np.int64)
            count = LOOPS.decide(self._fused, moving, chosen, rolling)
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
        if self._rows is not None:
            return self._rows.scores_after(moving, numbers[moving])
        saved = self._snapshot()
        try:
            if self._fused is not None:
                rolling = np.empty(len(moving), dtype=np.int64)
                LOOPS.decide(self._fused, moving, numbers[moving], rolling)
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

    def _finish(self, moving: NDArray[np.int64]) -> BatchStep:
        """Report the games that ended among ``moving``; restart them with ``auto_reset``."""
        ended = moving[self.table.phase[moving] == PHASE_GAME_OVER]
        worms = (
            self._scores_of(ended) if ended.size else np.zeros((0, self.players), dtype=np.int64)
        )
        report = step_results(
            self.size,
            self.players,
            ended=ended,
            worms=worms,
            stacks=self.table.stacks[ended],
            moves=self._moves,
            turns=self._turns,
        )
        if ended.size and self.auto_reset:
            self.reset(ended)
        return report

    # ------------------------------------------------------------------ arguments

    def _to_move(self) -> NDArray[np.int8]:
        """The player to move: a pending decision's chooser, else the player whose turn it is."""
        return self.table.player

    def _check(
        self, actions: ArrayLike, active: ArrayLike | None
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The actions as int64 and the rows that move; raise before changing anything."""
        return checked_actions(
            actions,
            active,
            phase=self.table.phase,
            encoding=self.encoding,
            legal_mask=self.legal_mask,
        )


_SEEN = (
    "grill",
    "face_down",
    "tops",
    "stack_sizes",
    "scores",
    "to_move",
    "phase",
    "in_hand",
    "roll",
    "set_aside",
    "total",
    "stop_claims",
)
"""The encoding's segments in the order of `rows.Seen` (the compiled observation's)."""


def _padded(outcome: RollOutcome, kinds: int) -> tuple[tuple[int, ...], ...]:
    """A roll's counts with six zeros for each kind it does not roll."""
    counts = tuple(outcome.counts)
    return counts + ((0,) * 6,) * (kinds - len(counts))
