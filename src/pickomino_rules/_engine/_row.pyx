# cython: language_level=3, cdivision=True
"""One game as a one-row table: the compiled engine's path over the compiled rules' rows.

Where every hook of the turn is the core's own or wrapped by row twins only (every built-in
variant and option set, and any module whose twins have row forms), the compiled engine
plays a game through the row functions of ``rows.pxd``, the source the batch's loops compile
too (docs page "Maintainers", "The one compiled layer"). A state is read into the row (any
phase but a game's end) and then stays there: each call on the state the row last wrote finds
it in place, and a call on another state reads that one. The row is written back as a
GameState that keeps every field that did not change (the same objects), so the states are
the pure engine's, field for field. A call the row cannot take (a state it cannot hold, a
move that is not offered) returns None: the pure engine answers it (``_kernel``).

Nothing here is a rule: the rules are ``rows.pxd``'s (each names its reference); the moves
and actions are the shared objects of ``actions`` and ``steps``. A state is read only when
every tile in it is one of the rules' and in one place at most, and a roll shown only when it
is one of the chance table's, so the row's arrays (sized by the tiles) hold any game the rules
can reach.
"""

from cpython.bytearray cimport PyByteArray_AS_STRING
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t
from libc.string cimport memcmp, memcpy

cimport pickomino_rules._engine.rows as rows
from pickomino_rules._engine._boundary cimport Table, View
from pickomino_rules._engine.rows cimport CHOOSE, DECIDE, GAME_OVER, ROLL, Cols, Seen
from pickomino_rules.compiled_plugin cimport HookTwin, PartSlots, RowTable
from pickomino_rules._engine.states cimport Slots, get, new_state, read_slots, with_phase

from pickomino_rules._engine import steps
from pickomino_rules.actions import ROLL as ROLL_AGAIN
from pickomino_rules.actions import STOP, TAKE, Roll, Steal, Stop, Take
from pickomino_rules.dice import FACES, NO_DICE_SET_ASIDE, RollOutcome
from pickomino_rules.state import Claim, Phase

cdef Slots S
read_slots(&S)

cdef tuple _PHASES = (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE, Phase.TURN_OVER, Phase.GAME_OVER)
cdef object _ROLL_PHASE = Phase.ROLL
cdef object _CHOOSE_PHASE = Phase.CHOOSE
cdef object _NO_DICE = NO_DICE_SET_ASIDE
cdef object _ROLL_OUTCOME = RollOutcome
cdef object _TAKE = Take
cdef object _ROLL_KIND = Roll
cdef object _STOP_KIND = Stop
cdef object _STEAL_KIND = Steal
cdef object _STEAL = steps.steal
cdef object _GAME_OVER_PHASE = Phase.GAME_OVER
cdef tuple _OFFERED = tuple(
    tuple(TAKE[face] for face in FACES if mask >> (face - 1) & 1) for mask in range(64)
)  # the takes of each set of faces (as bits, like ``RollOutcome.shown``), in face order

cdef Py_ssize_t _PLAYED = 0  # the calls of apply this path answered (``played``)

cdef enum:
    MOST_TILES = 62  # the grill is a 64-bit integer
    HIGHEST_TILE = 127  # stacks hold tile numbers as int8
    MOST_DICE = 127  # counts are int8
    KEPT = 4096  # tuples kept per kind of field (a game meets a few dozen)


cdef class Row:
    """One game's row: its columns (``Cols`` over arrays this object holds), the rules'
    constants, and the objects of the state it stands for, reused when writing it back."""

    cdef Cols c
    cdef list held  # the bytearrays behind the columns
    cdef int players, count, kinds
    cdef RowTable hooks  # the modules' row twins (their links; kept alive here)
    cdef tuple codecs  # each part's PartSlots (None: the part rides along unread)
    cdef int16_t* slots_of  # the slots of the parts object ``parts_of`` (to see changes)
    cdef tuple actions  # every action by its number (the encodings' numbering)
    cdef dict numbers  # and each one's number
    cdef int8_t* mask  # a mask row for the decisions pending
    cdef tuple tiles  # the tile numbers as Python ints, by index
    cdef object dice  # the rules' dice (the turn's start: the same object as the pure engine's)
    cdef tuple decisions  # steps.decide_actions' tuples, by can roll and victim
    cdef tuple grill_claims  # the claim of each grill tile, by index (the shared objects)
    cdef dict grills, hands, asides  # tuples made for bits and counts, reused
    # the state the row stands for (None: none), and what was derived from it
    cdef object state
    cdef bint derived
    # the objects of that state's fields, matching the columns
    cdef object grill_of, face_down_of, stacks_of, in_hand_of, set_aside_of, roll_of
    cdef object parts_of, layout_of
    cdef list stack_of  # each seat's stack tuple
    cdef int8_t* heights_of  # each seat's height in ``stack_of``
    cdef int64_t grill_bits, hand_key, aside_key
    cdef int face_down_count_of

    cdef char* block(self, Py_ssize_t size) except NULL:
        """Zeroed memory for a column, held by this row (a bytearray: Python owns it)."""
        cdef bytearray data = bytearray(max(size, 8))
        self.held.append(data)
        return PyByteArray_AS_STRING(data)

    cdef void reset(self):
        """Forget the state: the next call reads one afresh."""
        self.state = None
        self.parts_of = None  # (the slots may be part-way: the parts are read afresh)
        self.grill_of = self.face_down_of = self.stacks_of = None
        self.in_hand_of = self.set_aside_of = self.roll_of = None

    # -- reading a state ------------------------------------------------------------------

    cdef int64_t tile_bit(self, object tile, int64_t seen) except -1:
        """The bit of ``tile`` (one of the rules', not in ``seen`` yet), else ValueError."""
        if type(tile) is not int or not 0 < tile < self.c.index_of_size:
            raise ValueError("not a tile of these rules")
        cdef int64_t index = self.c.index_of[<Py_ssize_t>tile]
        if index < 0 or (seen >> index) & 1:
            raise ValueError("not a tile of these rules, or a tile in two places")
        return (<int64_t>1) << index

    cdef int read_tiles(self, object state) except -1:
        """The grill, the tiles turned face down and the stacks into the row (each tile once)."""
        cdef Cols* c = &self.c
        cdef int64_t seen = 0, bits = 0, bit
        cdef Py_ssize_t p, i, n
        grill = get(state, S.grill)
        face_down = get(state, S.face_down)
        stacks = get(state, S.stacks)
        if type(grill) is not tuple or type(face_down) is not tuple or type(stacks) is not tuple:
            raise ValueError("not a state's tiles")
        if len(stacks) != self.players:
            raise ValueError("another number of players")
        previous = 0
        for tile in <tuple>grill:
            bit = self.tile_bit(tile, seen)
            if tile <= previous:
                raise ValueError("the grill is not in ascending order")
            previous = tile
            seen |= bit
        c.grill[0] = bits = seen
        n = len(<tuple>face_down)
        for i in range(n):
            seen |= self.tile_bit((<tuple>face_down)[i], seen)
            c.face_down[i] = <int8_t>(<long>(<tuple>face_down)[i])
        c.face_down_count[0] = <int8_t>n
        stack_of = list(<tuple>stacks)
        for p in range(self.players):
            stack = stack_of[p]
            if type(stack) is not tuple:
                raise ValueError("not a stack")
            n = len(<tuple>stack)
            for i in range(n):
                seen |= self.tile_bit((<tuple>stack)[i], seen)
                c.stacks[p * self.count + i] = <int8_t>(<long>(<tuple>stack)[i])
            c.heights[p] = <int8_t>n
            self.heights_of[p] = <int8_t>n
            c.tops[p] = (<long>(<tuple>stack)[n - 1]) if n else 0
        self.grill_of, self.grill_bits = grill, bits
        self.face_down_of, self.face_down_count_of = face_down, c.face_down_count[0]
        self.stacks_of, self.stack_of = stacks, stack_of
        return 0

    cdef int64_t read_counts(self, object values, Py_ssize_t size, int8_t* into) except -1:
        """``size`` small counts into the row; their key (seven bits each)."""
        if type(values) is not tuple or len(<tuple>values) != size:
            raise ValueError("not the counts of a state")
        cdef int64_t key = 0
        cdef Py_ssize_t i
        for i in range(size):
            value = (<tuple>values)[i]
            if type(value) is not int or not 0 <= value <= MOST_DICE:
                raise ValueError("not a count of dice")
            into[i] = <int8_t>(<long>value)
            key = (key << 7) | <long>value
        return key

    cdef int read(self, View fast, object state) except -1:
        """Make the row stand for ``state``, at any phase but the game's end (ValueError where
        it cannot: a roll shown must be one of the chance table's for the dice in hand)."""
        cdef Cols* c = &self.c
        cdef Py_ssize_t i, k, f
        cdef Table table
        self.state = None
        phase = get(state, S.phase)
        for i in range(GAME_OVER):
            if _PHASES[i] is phase:
                break
        else:
            raise ValueError("a phase the row does not play")
        if (
            get(state, S.grill) is not self.grill_of
            or get(state, S.face_down) is not self.face_down_of
            or get(state, S.stacks) is not self.stacks_of
        ):
            self.grill_of = None  # (until all three are read)
            self.read_tiles(state)
        player = get(state, S.player)
        if type(player) is not int or not 0 <= player < self.players:
            raise ValueError("no such player")
        in_hand = get(state, S.in_hand)
        if in_hand is not self.in_hand_of:
            self.in_hand_of = None
            self.hand_key = self.read_counts(in_hand, self.kinds, c.in_hand)
            self.in_hand_of = in_hand
        set_aside = get(state, S.set_aside)
        if set_aside is not self.set_aside_of:
            self.set_aside_of = None
            self.aside_key = self.read_counts(set_aside, 6, c.set_aside)
            self.set_aside_of = set_aside
        roll = get(state, S.roll)
        for k in range(self.kinds * 6):
            c.roll[k] = 0
        if i == CHOOSE:  # the dice in hand show ``roll``, one of their chance table's
            table = fast.table(in_hand)
            if table.by_id.get(id(roll)) is not roll and (
                type(roll) is not _ROLL_OUTCOME or not table.has(roll)
            ):
                raise ValueError("not a roll of the dice in hand")
            counts = roll.counts
            for k in range(min(self.kinds, len(counts))):
                for f in range(6):
                    c.roll[k * 6 + f] = <int8_t>(<long>counts[k][f])
        elif roll is not None:
            raise ValueError("a roll shown outside the phase CHOOSE")
        c.player[0] = <int8_t>(<long>player)
        c.phase[0] = <int8_t>i
        self.roll_of = roll
        parts = get(state, S.parts)
        if parts is not self.parts_of:
            self.parts_of = None
            self.read_parts(parts)
            self.parts_of = parts
        self.layout_of = get(state, S.layout)
        self.state = state
        self.derived = False
        return 0

    cdef int read_parts(self, object parts) except -1:
        """The parts that row twins read into their slots (each by its codec)."""
        cdef Cols* c = &self.c
        cdef Py_ssize_t at
        if type(parts) is not tuple or len(<tuple>parts) != len(self.codecs):
            raise ValueError("not the parts of these rules")
        for at in range(len(self.codecs)):
            codec = self.codecs[at]
            if codec is not None:
                (<PartSlots>codec).encode(
                    (<tuple>parts)[at], c.slots + c.firsts[at], self.players
                )
        memcpy(self.slots_of, c.slots, c.slot_width * sizeof(int16_t))
        return 0

    cdef object write_parts(self):
        """The parts object of the row's slots: the last one where no slot changed."""
        cdef Cols* c = &self.c
        cdef Py_ssize_t at, first, width
        if memcmp(self.slots_of, c.slots, c.slot_width * sizeof(int16_t)) == 0:
            return self.parts_of
        parts = list(self.parts_of)
        for at in range(len(self.codecs)):
            codec = self.codecs[at]
            if codec is None:
                continue
            first = c.firsts[at]
            width = (<PartSlots>codec).width(self.players)
            if memcmp(self.slots_of + first, c.slots + first, width * sizeof(int16_t)) != 0:
                parts[at] = (<PartSlots>codec).decode(c.slots + first, self.players)
        memcpy(self.slots_of, c.slots, c.slot_width * sizeof(int16_t))
        self.parts_of = tuple(parts)
        return self.parts_of

    # -- writing the row back ---------------------------------------------------------------

    cdef object counts(self, dict kept, int64_t key, const int8_t* values, Py_ssize_t size):
        """The tuple of ``size`` counts with ``key``, made once."""
        found = kept.get(key)
        if found is None:
            if len(kept) >= KEPT:
                kept.clear()
            found = kept[key] = tuple([values[i] for i in range(size)])
        return found

    cdef int64_t key_of(self, const int8_t* values, Py_ssize_t size):
        cdef int64_t key = 0
        cdef Py_ssize_t i
        for i in range(size):
            key = (key << 7) | values[i]
        return key

    cdef object write(self):
        """The state the row holds now; the row stands for it (at a decision or chance node)."""
        cdef Cols* c = &self.c
        cdef Py_ssize_t p, i, h
        cdef int64_t key
        cdef bint moved = False
        if c.grill[0] != self.grill_bits:
            bits = c.grill[0]
            grill = self.grills.get(bits)
            if grill is None:
                if len(self.grills) >= KEPT:
                    self.grills.clear()
                grill = self.grills[bits] = tuple(
                    [self.tiles[i] for i in range(self.count) if (c.grill[0] >> i) & 1]
                )
            self.grill_of, self.grill_bits = grill, c.grill[0]
        if c.face_down_count[0] != self.face_down_count_of:
            self.face_down_of = tuple([c.face_down[i] for i in range(c.face_down_count[0])])
            self.face_down_count_of = c.face_down_count[0]
        for p in range(self.players):
            h = c.heights[p]
            if h != self.heights_of[p]:  # a step pushes or pops a seat's stack once at most
                self.stack_of[p] = tuple([c.stacks[p * self.count + i] for i in range(h)])
                self.heights_of[p] = <int8_t>h
                moved = True
        if moved:
            self.stacks_of = tuple(self.stack_of)
        phase = c.phase[0]
        if phase == GAME_OVER:  # steps.pass_dice: no dice left, none set aside
            in_hand, set_aside = (), _NO_DICE
        else:
            key = self.key_of(c.in_hand, self.kinds)
            if key != self.hand_key:
                self.in_hand_of = self.counts(self.hands, key, c.in_hand, self.kinds)
                self.hand_key = key
            key = self.key_of(c.set_aside, 6)
            if key != self.aside_key:
                self.set_aside_of = self.counts(self.asides, key, c.set_aside, 6)
                self.aside_key = key
            in_hand, set_aside = self.in_hand_of, self.set_aside_of
        if phase != CHOOSE:
            self.roll_of = None
        parts = self.write_parts() if c.slot_width else self.parts_of
        state = new_state(
            &S,
            self.grill_of, self.face_down_of, self.stacks_of, c.player[0], _PHASES[phase],
            in_hand, self.roll_of, set_aside, parts, self.layout_of,
        )
        if phase == GAME_OVER:
            self.reset()  # the game is over: the pure engine answers from here
        else:
            self.state = state
            self.derived = False
        return state

    # -- the decisions ------------------------------------------------------------------------

    cdef object pending(self):
        """The decisions a module made pending (``steps.pending``), else None."""
        cdef Cols* c = &self.c
        cdef Py_ssize_t i
        if c.pending_chain is NULL:
            return None
        for i in range(c.actions):
            self.mask[i] = 0
        if not rows.run_pending(c.pending_chain, c, 0, self.mask):
            return None
        return self.masked()

    cdef object masked(self):
        """The actions set in the row's mask, by number (as the modules' rules offer them)."""
        return tuple([self.actions[i] for i in range(self.c.actions) if self.mask[i]])

    cdef bint offers(self, Py_ssize_t number):
        """Whether the roll shown offers action ``number`` (``roll_actions``' chain)."""
        cdef Cols* c = &self.c
        cdef Py_ssize_t i
        for i in range(c.actions):
            self.mask[i] = 0
        rows.run_roll_actions(c.roll_actions_chain, c, 0, self.mask)
        return 0 <= number < c.actions and self.mask[number]

    cdef object legal(self, View fast):
        """``steps.legal_actions`` for the state the row stands for."""
        cdef Cols* c = &self.c
        cdef int64_t claim, victim
        if c.phase[0] == ROLL:
            return fast.table(self.in_hand_of).outcomes
        if c.pending_chain is not NULL and rows.run_pending(c.pending_chain, c, 0, NULL):
            return self.pending()
        if c.phase[0] == CHOOSE:
            if c.roll_actions_chain is NULL:
                return _OFFERED[rows.roll_faces(c, 0)]
            self.offers(-1)
            return self.masked()
        if c.phase[0] != DECIDE:
            return ()  # (a turn shown over with nothing pending offers nothing)
        if not self.derived:
            rows.run_claims(
                c.claims_chain, c, 0, rows.run_stop_total(c.stop_total_chain, c, 0), &claim, &victim
            )
            c.grill_claim[0] = claim
            c.victim[0] = victim
            self.derived = True
        return self.decisions[rows.rolls_again(c, 0) * (self.players + 1) + c.victim[0] + 1]


cdef Row _new_row(View fast, int players):
    """A row for ``fast``'s rules and ``players`` players, or None where they do not fit it."""
    components = fast.rules.components
    tiles = tuple(fast.rules.tiles)
    dice = components.dice
    if (
        not tiles or len(tiles) > MOST_TILES or tiles[0] < 1 or tiles[-1] > HIGHEST_TILE
        or not dice or len(dice) * 6 > 64 or any(not 0 <= d <= MOST_DICE for d in dice)
        or not 1 <= players <= 64
    ):
        return None
    cdef Row row = Row()
    cdef Cols* c = &row.c
    cdef Py_ssize_t i, kinds = len(dice), count = len(tiles)
    row.held = []
    row.players, row.count, row.kinds = players, count, kinds
    row.tiles, row.dice = tiles, dice
    row.grills, row.hands, row.asides = {}, {}, {}
    c.players, c.count, c.kinds = players, count, kinds
    row.hooks = fast.row_table  # the modules' row twins
    row.hooks.chains_into(c)
    c.tidies = fast.tidies_turn_end
    c.grill = <int64_t*>row.block(8)
    c.face_down = <int8_t*>row.block(count)
    c.face_down_count = <int8_t*>row.block(1)
    c.stacks = <int8_t*>row.block(players * count)
    c.heights = <int8_t*>row.block(players)
    row.heights_of = <int8_t*>row.block(players)
    c.tops = <int64_t*>row.block(8 * players)
    c.player = <int8_t*>row.block(1)
    c.phase = <int8_t*>row.block(1)
    c.in_hand = <int8_t*>row.block(kinds)
    c.roll = <int8_t*>row.block(kinds * 6)
    c.set_aside = <int8_t*>row.block(6)
    c.moves = <int32_t*>row.block(4)
    c.turns = <int32_t*>row.block(4)
    c.grill_claim = <int64_t*>row.block(8)
    c.victim = <int64_t*>row.block(8)
    # the rules' constants, as the batch's table has them (``BatchTable``)
    cdef int64_t* tile_numbers = <int64_t*>row.block(8 * count)
    c.index_of_size = tiles[-1] + 2
    cdef int64_t* index_of = <int64_t*>row.block(8 * c.index_of_size)
    c.below_size = tiles[-1] + 2
    cdef int64_t* below = <int64_t*>row.block(8 * c.below_size)
    cdef int64_t* points = <int64_t*>row.block(8 * 6)
    cdef int64_t* worms = <int64_t*>row.block(8 * count)
    cdef int8_t* start_dice = <int8_t*>row.block(kinds)
    for i in range(c.index_of_size):
        index_of[i] = -1
    for i in range(count):
        tile_numbers[i] = tiles[i]
        index_of[<Py_ssize_t>tiles[i]] = i
    for total in range(c.below_size):  # the grill's tiles below each total, as bits
        below[total] = sum(1 << i for i in range(count) if tiles[i] < total)
    for i in range(6):
        points[i] = FACES[i].points
    for i in range(count):
        worms[i] = fast.rules.worms[tiles[i]]
    for i in range(kinds):
        start_dice[i] = dice[i]
    c.tiles, c.index_of, c.below, c.points, c.worms, c.start_dice = (
        tile_numbers, index_of, below, points, worms, start_dice
    )
    # steps.decide_actions' tuples: roll again or not, then no steal or a steal from a victim
    decisions = []
    for rolls in (False, True):
        decisions.append((ROLL_AGAIN, STOP) if rolls else (STOP,))
        for victim in range(players):
            decisions.append(((ROLL_AGAIN,) if rolls else ()) + (STOP, _STEAL(victim)))
    row.decisions = tuple(decisions)
    row.grill_claims = tuple([Claim.grill_tile(tile) for tile in tiles])
    row.grill_bits = -1
    row.hand_key = row.aside_key = -1
    # the parts' slots, and the action numbers (what the modules' row twins read and offer)
    width, firsts = row.hooks.slot_layout(players)
    row.codecs = row.hooks.codecs
    c.slot_width = width
    c.slots = <int16_t*>row.block(2 * width)
    row.slots_of = <int16_t*>row.block(2 * width)
    cdef int64_t* first_slots = <int64_t*>row.block(8 * len(firsts))
    for i in range(len(firsts)):
        first_slots[i] = firsts[i]
    c.firsts = first_slots
    starts = row.hooks.action_layout(fast.rules, players)
    cdef int64_t* actions_at = <int64_t*>row.block(8 * len(starts))
    for i in range(len(starts)):
        actions_at[i] = starts[i]
    c.actions_at = actions_at
    from pickomino_rules.info import _numbered_actions  # (the rules' facts: once a row is made)

    row.actions = _numbered_actions(fast.rules, players)[0]  # every action by its number
    row.numbers = {action: number for number, action in enumerate(row.actions)}
    c.actions = len(row.actions)
    c.stop = row.numbers[STOP]
    c.steal = row.numbers[_STEAL(0)]
    row.mask = <int8_t*>row.block(c.actions)
    row.parts_of = None
    row.hands[row.key_of(start_dice, kinds)] = dice  # the turn's dice: the rules' own tuple
    row.asides[0] = _NO_DICE
    row.face_down_count_of = -1
    row.reset()
    return row


cdef Row _taken(View fast, object state):
    """The rules' row, standing for ``state`` and taken by this call, else None (a state the
    row cannot hold, a game over, players the rules do not allow).

    A call owns the row while it runs (``fast.row`` is None meanwhile) and gives it back with
    ``_give``: a thread that comes in then makes a row of its own, and the last one given
    back is kept.
    """
    cdef Row row = <Row?>fast.row if fast.row is not None else None
    if row is not None and row.state is state:
        fast.row = None
        return row
    if get(state, S.phase) is _GAME_OVER_PHASE:
        return None
    stacks = get(state, S.stacks)
    if type(stacks) is not tuple:
        return None
    if row is None or row.players != len(<tuple>stacks):
        try:
            row = _new_row(fast, len(<tuple>stacks))
        except ValueError:  # players the rules do not allow: the pure engine says so
            return None
        if row is None:  # tiles or dice no row holds: the pure engine, from now on
            fast.turn_on_row = False
            return None
    else:
        fast.row = None
    try:
        row.read(fast, state)
    except Exception:  # a state the row cannot hold (the pure engine answers or explains)
        row.reset()
        fast.row = row
        return None
    return row


cdef inline void _give(View fast, Row row):
    fast.row = row


cdef object row_legal(View fast, object state):
    """``steps.legal_actions`` of ``state`` on the row, else None."""
    cdef Row row = _taken(fast, state)
    if row is None:
        return None
    try:
        return row.legal(fast)
    finally:
        _give(fast, row)


cdef object _claims(Row row):
    """``steps.stop_claims`` of the state the row stands for."""
    cdef int64_t claim, victim
    cdef int64_t total = rows.run_stop_total(row.c.stop_total_chain, &row.c, 0)
    rows.run_claims(row.c.claims_chain, &row.c, 0, total, &claim, &victim)
    if claim < 0 and victim < 0:
        return ()
    if victim < 0:
        return (row.grill_claims[claim],)
    steal = Claim(total, victim)
    return (row.grill_claims[claim], steal) if claim >= 0 else (steal,)


cdef object row_claims(View fast, object state):
    """``steps.stop_claims`` of ``state`` on the row, else None."""
    cdef Row row = _taken(fast, state)
    if row is None:
        return None
    try:
        return _claims(row)
    finally:
        _give(fast, row)


cdef object row_outcomes(View fast, object state):
    """``steps.stop_outcomes`` of ``state`` on the row (each way to end the turn, read afresh
    from ``state``), else None: outside a stop's decision the pure engine explains."""
    cdef Row row = _taken(fast, state)
    if row is None:
        return None
    cdef Cols* c = &row.c
    cdef int64_t claim, victim
    try:
        if c.phase[0] != DECIDE or (
            c.pending_chain is not NULL and rows.run_pending(c.pending_chain, c, 0, NULL)
        ):
            return None
        rows.run_claims(
            c.claims_chain, c, 0, rows.run_stop_total(c.stop_total_chain, c, 0), &claim, &victim
        )
        if claim < 0 and victim < 0:  # a bust (C9)
            rows.decide(c, 0, -1, -1)
            return ((STOP, row.write()),)
        ends = []
        if claim >= 0:  # steps.claim_of_stop: the grill's tile where there is one
            rows.decide(c, 0, claim, -1)
            ends.append((STOP, row.write()))
        if victim >= 0:
            if claim >= 0:
                row.read(fast, state)
            rows.decide(c, 0, -1, victim)
            end = row.write()
            if claim < 0:
                ends.append((STOP, end))
            ends.append((_STEAL(victim), end))
        return tuple(ends)
    except BaseException:
        row.reset()
        raise
    finally:
        _give(fast, row)


cdef bint row_observe(
    View fast, object state, int me, const Seen* at, float* out, tuple parts
) except -1:
    """``observation.observe_into`` on the row (``rows.observe``, then each observed part's
    observer's row twin at its start in ``parts``); False where the row cannot take it."""
    if not fast.turn_on_row or not fast.row_table.observes_on_rows:
        return False
    cdef Row row = _taken(fast, state)
    if row is None:
        return False
    cdef HookTwin twin
    try:
        rows.observe(&row.c, 0, me, at, out)
        for _key, _index, start, _size, observer in parts:
            twin = observer  # (a row twin: ``observes_on_rows``)
            rows.run_observe(&twin.row, &row.c, 0, me, out + <Py_ssize_t>start)
    finally:
        _give(fast, row)
    return True


cdef object play(View fast, object state, object move):
    """``steps.apply`` on the row, else None: the pure engine answers (or explains)."""
    global _PLAYED
    cdef Row row = _taken(fast, state)
    if row is None:
        return None
    try:
        after = _play(fast, row, state, move)
    finally:
        _give(fast, row)
    if after is not None:
        _PLAYED += 1
    return after


def played():
    """How many calls of ``apply`` the one-row path has answered in this process."""
    return _PLAYED


cdef object _play(View fast, Row row, object state, object move):
    """``play`` on ``row``, which stands for ``state``."""
    cdef Cols* c
    cdef Table table
    cdef int64_t claim, victim
    cdef int face, k, f
    c = &row.c
    try:
        phase = c.phase[0]
        if phase == ROLL:  # steps.roll: a roll of these dice, then after_roll
            table = fast.table(row.in_hand_of)
            known = table.by_id.get(id(move))
            if known is not move and (type(move) is not _ROLL_OUTCOME or not table.has(move)):
                return None  # not a roll of these dice: the pure engine raises the error
            counts = move.counts
            for k in range(row.kinds):
                for f in range(6):
                    c.roll[k * 6 + f] = <int8_t>(<long>counts[k][f]) if k < len(counts) else 0
            rows.after_roll(c, 0)
            if c.phase[0] == CHOOSE:  # something to take: the state as shown
                after = with_phase(&S, state, _CHOOSE_PHASE, move)
                row.roll_of = move
                row.state = after
                row.derived = False
                return after
            return row.write()  # a bust: the next player's turn, or the game's end
        legal = row.legal(fast)
        if c.pending_chain is not NULL and rows.run_pending(c.pending_chain, c, 0, NULL):
            # steps.apply on a module's action: ``apply_action``, then steps.settle
            for action in legal:
                if action is move:
                    break
            else:
                if move not in legal:
                    return None  # not offered: the pure engine raises the error
            number = row.numbers.get(move)
            if number is None or not rows.run_apply(c.apply_chain, c, 0, number):
                return None
            rows.settle(c, 0)
            return row.write()
        kind = type(move)
        if phase == CHOOSE:
            if kind is not _TAKE:  # a module's action on the roll (``roll_actions``' chain)
                number = row.numbers.get(move) if c.roll_actions_chain is not NULL else None
                if number is None or not row.offers(number):
                    return None  # not offered: the pure engine raises the error
                if not rows.run_apply(c.apply_chain, c, 0, number):
                    return None
                rows.settle(c, 0)
                return row.write()
            face = move.face
            if not 1 <= face <= 6 or not (
                row.offers(row.numbers[move]) if c.roll_actions_chain is not NULL
                else (rows.roll_faces(c, 0) >> (face - 1)) & 1
            ):
                return None  # not offered: the pure engine raises the error
            rows.run_set_aside(c.set_aside_chain, c, 0, face - 1)
            if c.phase[0] != DECIDE:  # steps.apply: a set-aside that left DECIDE settles
                rows.settle(c, 0)
            return row.write()
        if kind is _ROLL_KIND:
            if legal[0] is not ROLL_AGAIN:
                return None
            after = with_phase(&S, state, _ROLL_PHASE, None)
            c.phase[0] = ROLL
            row.state = after
            return after
        claim, victim = c.grill_claim[0], c.victim[0]
        if kind is _STOP_KIND:  # steps.claim_of_stop: the grill's tile, else the only steal
            rows.decide(c, 0, claim, -1 if claim >= 0 else victim)
        elif kind is _STEAL_KIND and victim >= 0 and move.victim == victim:
            rows.decide(c, 0, -1, victim)
        else:
            return None
        return row.write()
    except BaseException:
        row.reset()  # the columns may be part-way: read afresh next time
        raise
