# cython: language_level=3
# The core turn's rules in compiled form, once, as row functions (issue 100: "one compiled
# rules layer"; docs/maintainers.md, "The one compiled layer").
#
# A game is a row of a table of columns: row r of a column starts at its base plus r times
# its width (struct of arrays, the batch's `BatchTable` layout). `Cols` holds raw pointers to
# the columns (1.5-1.8x faster a row than typed memoryviews, measured) and the rules'
# constants; whoever fills it keeps the arrays alive. The functions below are `cdef inline`:
# each module that cimports this file compiles its own copy of one source text.
#
# Each function names its reference (`turn.py` for the core's hooks, `_engine/steps.py` for
# when they run); `batch/_mirrors.py` holds the map (`ROWS`), checked against this file by
# tests/batch/test_batch_mirror.py. Bounds are not checked: callers pass rows of the table.

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t

cdef enum:
    # the phase codes (`batch_plugin.PHASE_*`)
    ROLL = 0
    CHOOSE = 1
    DECIDE = 2
    TURN_OVER = 3
    GAME_OVER = 4
    # the worm's face index (C7: a stop needs a worm among the dice set aside)
    WORM = 5


cdef struct Link:
    # one module's row twin of a hook, in the rules' chain of that hook (the hook table):
    # ``run`` is its row function (of the hook's type below, given this link), ``inner`` what
    # it wraps (NULL: the core's own row function), ``data`` its constants (options). Set
    # when the rules' table is linked (``compiled_plugin.row_table``): ``uses``, the chain
    # of the extension point its module calls; ``part``, its module's part (the index of
    # its first slot in ``Cols.firsts``); ``action``, its module's action class (the index
    # of its first action number in ``Cols.actions_at``); ``other``, a second part it reads
    # (another module's; 0 where it reads none).
    const void* run
    const Link* inner
    const Link* uses
    int64_t part
    int64_t other
    int64_t action
    int64_t data[4]


ctypedef struct Cols:
    # the game's columns (widths: count tiles, players, kinds of dice)
    int64_t* grill            # bit i: tile index i face up on the grill
    int8_t* face_down         # [count] tile numbers, in the order turned
    int8_t* face_down_count
    int8_t* stacks            # [players][count] tile numbers, bottom first, 0 past the top
    int8_t* heights           # [players]
    int64_t* tops             # [players] top tile numbers, 0 for none
    int8_t* player
    int8_t* phase
    int8_t* in_hand           # [kinds]
    int8_t* roll              # [kinds][6] dice shown per face
    int8_t* set_aside         # [6]
    # the engine's columns: moves and turns counted, a stop's claims (`steps.derive`'s cache)
    int32_t* moves
    int32_t* turns
    int64_t* grill_claim      # the grill tile index a stop takes, -1 for none
    int64_t* victim           # the player a steal robs, -1 for none
    # the rules' constants
    const int64_t* tiles          # [count] tile numbers, ascending
    const int64_t* index_of       # [index_of_size] tile number -> index, -1
    const int64_t* below          # [below_size] grill bits of the tiles below a total
    const int64_t* points         # [6] points of each face (C7)
    const int64_t* worms          # [count] worms of each tile, by index (C13)
    const int8_t* start_dice      # [kinds] the turn's dice (C3)
    Py_ssize_t index_of_size, below_size
    int players, kinds, count
    bint tidies  # `Rules.tidies_turn_end`: a turn's end is shown over (phase TURN_OVER)
    # the encoding's action numbers: roll 0, take face f at 1 + f, stop, steal victim v
    int stop, steal, actions
    # the modules' parts: ``slot_width`` int16 slots a row, each part's first at ``firsts``
    # (by part index); the first action number of each action class (by its index)
    int16_t* slots
    const int64_t* firsts
    const int64_t* actions_at
    int slot_width
    # the hook table: the modules' row twins of a hook, outermost first (NULL: the core's)
    const Link* claims_chain
    const Link* bust_chain
    const Link* set_aside_chain
    const Link* pending_chain
    const Link* apply_chain
    const Link* stop_total_chain
    const Link* take_tile_chain
    const Link* roll_actions_chain
    const Link* end_turn_chain
    const Link* turn_dice_chain
    const Link* scores_chain  # not a hook of the turn (`RowTable.scores_on_rows`)


ctypedef void (*ClaimsRow)(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t total, int64_t* claim,
    int64_t* victim
) noexcept nogil  # a row twin of `turn.claims`: ``claims``' arguments, its link first

ctypedef void (*StateRow)(
    const Link* link, Cols* c, Py_ssize_t r
) noexcept nogil  # a row twin of a hook of (rules, state) that answers a state: `turn.bust`,
                  # ``end_turn`` (the row shown over), ``turn_dice`` (the turn's dice set in
                  # ``in_hand``, the core's already there)

ctypedef void (*BustRow)(const Link* link, Cols* c, Py_ssize_t r) noexcept nogil  # `turn.bust`

ctypedef int64_t (*TotalRow)(
    const Link* link, const Cols* c, Py_ssize_t r
) noexcept nogil  # of `turn.stop_total`: the points, -1 for None

ctypedef void (*TakeTileRow)(
    const Link* link, Cols* c, Py_ssize_t r, int64_t index, int64_t victim
) noexcept nogil  # of `turn.take_tile`: the claim as grill ``index`` or ``victim`` (-1: none)

ctypedef bint (*RollActionsRow)(
    const Link* link, const Cols* c, Py_ssize_t r, int8_t* out
) noexcept nogil  # of `turn.roll_actions`: whether the roll offers anything; if ``out`` is
                  # not NULL, what it offers set in the mask row ``out``

ctypedef void (*SetAsideRow)(
    const Link* link, Cols* c, Py_ssize_t r, int f
) noexcept nogil  # a row twin of `turn.set_aside`: face index ``f``

ctypedef bint (*PendingRow)(
    const Link* link, const Cols* c, Py_ssize_t r, int8_t* out
) noexcept nogil  # of ``pending_actions``: whether a decision is pending; if so, and ``out``
                  # is not NULL, its actions set in the mask row ``out``

ctypedef bint (*ApplyRow)(
    const Link* link, Cols* c, Py_ssize_t r, int64_t action
) noexcept nogil  # of ``apply_action``: whether it took action number ``action``

ctypedef void (*ScoresRow)(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t* out
) noexcept nogil  # of `turn.scores`: each player's worms into ``out`` (``players`` numbers)

ctypedef void (*ObserveRow)(
    const Link* link, const Cols* c, Py_ssize_t r, int me, float* out
) noexcept nogil  # of a part's ``observe``: its features seen by seat ``me``, into ``out``

ctypedef struct Seen:
    # where each segment of the encoding's observation starts (`observation.Layout`)
    Py_ssize_t grill, face_down, tops, sizes, worms, to_move, phase
    Py_ssize_t in_hand, roll, set_aside, total, claims

ctypedef int64_t (*PointRow)(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t first
) noexcept nogil  # of an extension point of one number that answers a number (players as
                  # bits, say): innermost the point's default, which has no ``inner``

ctypedef int64_t (*ChangeRow)(
    const Link* link, Cols* c, Py_ssize_t r, int64_t first, int64_t second
) noexcept nogil  # of an extension point of two numbers that changes the row (a specialist
                  # gained by a player, say); its answer is the point's own (0 for none)


cdef extern from *:
    """
    /* The index of the highest set bit of a grill (-1 for none): one instruction where the
       compiler has it, instead of a table of 2^tiles entries. */
    static inline int pickomino_highest(long long bits) {
    #if defined(__GNUC__) || defined(__clang__)
        return bits > 0 ? 63 - __builtin_clzll((unsigned long long)bits) : -1;
    #else
        int at = -1;
        while (bits > 0) { bits >>= 1; at++; }
        return at;
    #endif
    }
    """
    int highest "pickomino_highest" (int64_t bits) noexcept nogil


cdef inline int16_t* part_at(const Link* link, const Cols* c, Py_ssize_t r) noexcept nogil:
    """The slots of ``link``'s module's part in row ``r``."""
    return c.slots + r * c.slot_width + c.firsts[link.part]


cdef inline int16_t* other_part_at(const Link* link, const Cols* c, Py_ssize_t r) noexcept nogil:
    """The slots of the second part ``link`` reads in row ``r``."""
    return c.slots + r * c.slot_width + c.firsts[link.other]


# ------------------------------------------------------------------ the rules on C numbers
# The core hooks and steps below call them: C4, C6 and C7 are written once in compiled form.

cdef inline int offered_faces(int shown, int used) noexcept nogil:
    """`turn.offered_faces` (C4): of the faces a roll shows (bits, bit f for face index f),
    those not set aside earlier; none means the roll busts (C5)."""
    return shown & ~used


cdef inline bint stop_points(
    const int64_t* counts, const int64_t* points, int64_t* total
) noexcept nogil:
    """`turn.stop_total` (C7): the points of the dice set aside (``counts``, six faces) into
    ``total``; whether a worm is among them (without one a stop claims nothing)."""
    cdef int f
    total[0] = 0
    if counts[WORM] == 0:
        return False
    for f in range(6):
        total[0] += counts[f] * points[f]
    return True


cdef inline bint can_roll(int used, bint dice_left) noexcept nogil:
    """`turn.can_roll` (C6): roll again while dice are left and a face is not set aside yet
    (``used``: the faces set aside, as bits)."""
    return dice_left and used != 63


# ------------------------------------------------------------------ the stacks (plumbing)

cdef inline void push(Cols* c, Py_ssize_t r, int p, int64_t tile) noexcept nogil:
    """A tile number on top of player ``p``'s stack."""
    cdef Py_ssize_t at = r * c.players + p
    c.stacks[at * c.count + c.heights[at]] = <int8_t>tile
    c.heights[at] += 1
    c.tops[at] = tile


cdef inline int64_t pop(Cols* c, Py_ssize_t r, int p) noexcept nogil:
    """The top tile number off player ``p``'s (non-empty) stack."""
    cdef Py_ssize_t at = r * c.players + p
    cdef int64_t tile = c.tops[at]
    c.heights[at] -= 1
    cdef int h = c.heights[at]
    cdef int8_t* stack = c.stacks + at * c.count
    stack[h] = 0
    c.tops[at] = stack[h - 1] if h > 0 else 0
    return tile


# ------------------------------------------------------------------ the core hooks (turn.py)

cdef inline int roll_faces(const Cols* c, Py_ssize_t r) noexcept nogil:
    """`turn.roll_actions` (C4): the faces shown that were not set aside earlier, as bits
    (bit f for face index f); none means the roll busts (C5)."""
    cdef int f, k, dice, shown = 0, used = 0
    cdef const int8_t* roll = c.roll + r * c.kinds * 6
    cdef const int8_t* aside = c.set_aside + r * 6
    for f in range(6):
        dice = 0
        for k in range(c.kinds):
            dice += roll[k * 6 + f]
        if dice > 0:
            shown |= 1 << f
        if aside[f] != 0:
            used |= 1 << f
    return offered_faces(shown, used)


cdef inline void roll_actions(const Cols* c, Py_ssize_t r, int8_t* out) noexcept nogil:
    """`turn.roll_actions` (C4) into a mask row: take each face `roll_faces` offers."""
    cdef int f, bits = roll_faces(c, r)
    for f in range(6):
        out[1 + f] = (bits >> f) & 1


cdef inline bint run_roll_actions(
    const Link* link, const Cols* c, Py_ssize_t r, int8_t* out
) noexcept nogil:
    """`Rules.roll_actions`' chain from ``link`` in: whether the roll offers anything (and
    if ``out`` is not NULL, what, in the mask row ``out``)."""
    cdef int bits
    if link is not NULL:
        return (<RollActionsRow>link.run)(link, c, r, out)
    bits = roll_faces(c, r)
    if out is not NULL:
        roll_actions(c, r, out)
    return bits != 0


cdef inline void set_aside(Cols* c, Py_ssize_t r, int f) noexcept nogil:
    """`turn.set_aside` (C4): every die of the roll showing face index ``f`` is set aside."""
    cdef int k, g, shown, total = 0
    cdef int8_t* roll = c.roll + r * c.kinds * 6
    cdef int8_t* in_hand = c.in_hand + r * c.kinds
    for k in range(c.kinds):
        shown = roll[k * 6 + f]
        total += shown
        in_hand[k] -= shown
        for g in range(6):
            roll[k * 6 + g] = 0
    c.set_aside[r * 6 + f] = total
    c.phase[r] = DECIDE


cdef inline int64_t stop_total(const Cols* c, Py_ssize_t r) noexcept nogil:
    """`turn.stop_total` (C7): the points set aside, or -1 without a worm among them."""
    cdef int f
    cdef int64_t total, counts[6]
    for f in range(6):
        counts[f] = c.set_aside[r * 6 + f]
    return total if stop_points(counts, c.points, &total) else -1


cdef inline int64_t run_stop_total(const Link* link, const Cols* c, Py_ssize_t r) noexcept nogil:
    """`Rules.stop_total`'s chain from ``link`` in: a module's row twin, or the core's."""
    if link is NULL:
        return stop_total(c, r)
    return (<TotalRow>link.run)(link, c, r)


cdef inline void claims(
    const Cols* c, Py_ssize_t r, int64_t total, int64_t* claim, int64_t* victim
) noexcept nogil:
    """`turn.claims` (C8): the exact grill tile (an index), else the next lower; a steal of
    an exact top tile (a player). -1 for none."""
    cdef int p, me
    cdef int64_t grill = c.grill[r]
    cdef int64_t index
    cdef Py_ssize_t at = r * c.players
    claim[0] = -1
    victim[0] = -1
    if total < 0:  # (before any index: the memcheck run found index_of[-1] read when a stop
        return     # had no worm)
    index = c.index_of[total] if total < c.index_of_size else -1
    if index >= 0 and (grill >> index) & 1:
        claim[0] = index
        return
    claim[0] = highest(grill & c.below[min(total, c.below_size - 1)])
    me = c.player[r]
    for p in range(c.players):
        if p != me and c.heights[at + p] > 0 and c.tops[at + p] == total:
            victim[0] = p
            return


cdef inline void run_claims(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t total, int64_t* claim,
    int64_t* victim
) noexcept nogil:
    """`Rules.claims`' chain from ``link`` in: a module's row twin, or the core's `claims`."""
    if link is NULL:
        claims(c, r, total, claim, victim)
    else:
        (<ClaimsRow>link.run)(link, c, r, total, claim, victim)


cdef inline void take_tile(Cols* c, Py_ssize_t r, int64_t index, int64_t victim) noexcept nogil:
    """`turn.take_tile` (C8, C9): the claimed tile (grill ``index``, or ``victim``'s top) on
    top of the player's stack."""
    cdef int p = c.player[r]
    if victim >= 0:
        push(c, r, p, pop(c, r, <int>victim))
    else:
        c.grill[r] &= ~((<int64_t>1) << index)
        push(c, r, p, c.tiles[index])


cdef inline void run_take_tile(
    const Link* link, Cols* c, Py_ssize_t r, int64_t index, int64_t victim
) noexcept nogil:
    """`Rules.take_tile`'s chain from ``link`` in: a module's row twin, or the core's."""
    if link is NULL:
        take_tile(c, r, index, victim)
    else:
        (<TakeTileRow>link.run)(link, c, r, index, victim)


cdef inline int64_t return_tile(Cols* c, Py_ssize_t r, int p) noexcept nogil:
    """`turn.return_tile` (C10): player ``p``'s top tile back on the grill; its number."""
    cdef int64_t tile = pop(c, r, p)
    c.grill[r] |= (<int64_t>1) << c.index_of[tile]
    return tile


cdef inline void turn_face_down(Cols* c, Py_ssize_t r) noexcept nogil:
    """`turn.turn_face_down` (C10): the highest grill tile turned face down."""
    cdef int64_t index = highest(c.grill[r])
    c.grill[r] &= ~((<int64_t>1) << index)
    c.face_down[r * c.count + c.face_down_count[r]] = <int8_t>c.tiles[index]
    c.face_down_count[r] += 1


cdef inline void bust(Cols* c, Py_ssize_t r) noexcept nogil:
    """`turn.bust` (C10): return the top tile; turn the highest unless it is that tile."""
    cdef int p = c.player[r]
    cdef int64_t tile
    if c.heights[r * c.players + p] == 0:
        return
    tile = return_tile(c, r, p)
    if c.tiles[highest(c.grill[r])] != tile:
        turn_face_down(c, r)


cdef inline void scores(const Cols* c, Py_ssize_t r, int64_t* out) noexcept nogil:
    """`turn.scores` (C13): the worms on the tiles of each player's stack."""
    cdef Py_ssize_t at, i
    cdef const int8_t* stack
    cdef int64_t total
    cdef int p
    for p in range(c.players):
        at = r * c.players + p
        stack = c.stacks + at * c.count
        total = 0
        for i in range(c.heights[at]):
            total += c.worms[c.index_of[stack[i]]]
        out[p] = total


cdef inline void run_scores(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t* out
) noexcept nogil:
    """`Rules.scores`' chain from ``link`` in: a module's row twin, or the core's."""
    if link is NULL:
        scores(c, r, out)
    else:
        (<ScoresRow>link.run)(link, c, r, out)


cdef inline void run_bust(const Link* link, Cols* c, Py_ssize_t r) noexcept nogil:
    """`Rules.bust`'s chain from ``link`` in: a module's row twin, or the core's `bust`."""
    if link is NULL:
        bust(c, r)
    else:
        (<BustRow>link.run)(link, c, r)


cdef inline void run_set_aside(const Link* link, Cols* c, Py_ssize_t r, int f) noexcept nogil:
    """`Rules.set_aside`'s chain from ``link`` in: a module's row twin, or the core's."""
    if link is NULL:
        set_aside(c, r, f)
    else:
        (<SetAsideRow>link.run)(link, c, r, f)


cdef inline void run_state(const Link* link, Cols* c, Py_ssize_t r) noexcept nogil:
    """The chain of ``end_turn`` or ``turn_dice`` from ``link`` in (the core's changes
    nothing: the turn's dice are already in hand)."""
    if link is not NULL:
        (<StateRow>link.run)(link, c, r)


cdef inline bint run_pending(
    const Link* link, const Cols* c, Py_ssize_t r, int8_t* out
) noexcept nogil:
    """`Rules.pending_actions`' chain from ``link`` in (the core has none pending)."""
    if link is NULL:
        return False
    return (<PendingRow>link.run)(link, c, r, out)


cdef inline bint run_apply(const Link* link, Cols* c, Py_ssize_t r, int64_t action) noexcept nogil:
    """`Rules.apply_action`'s chain from ``link`` in: whether a module took the action (the
    core takes none of its own this way)."""
    if link is NULL:
        return False
    return (<ApplyRow>link.run)(link, c, r, action)


cdef inline int64_t run_point(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t first
) noexcept nogil:
    """An extension point's chain from ``link`` in (never NULL: the default is a link)."""
    return (<PointRow>link.run)(link, c, r, first)


cdef inline int64_t run_change(
    const Link* link, Cols* c, Py_ssize_t r, int64_t first, int64_t second
) noexcept nogil:
    """An extension point's chain that changes the row, from ``link`` in (never NULL)."""
    return (<ChangeRow>link.run)(link, c, r, first, second)


# ------------------------------------------------------------ the encoding (observation.py)

cdef inline int seat_of(int player, int me, int players) noexcept nogil:
    """Where ``player`` sits as seen by ``me``: 0 for ``me``, then in turn order."""
    return ((player - me) % players + players) % players


cdef inline void observe(const Cols* c, Py_ssize_t r, int me, const Seen* at, float* out) noexcept nogil:
    """`observation.observe_into`'s core (the parts' features aside) for row ``r`` seen by
    seat ``me``, into ``out`` (zeros): the grill, the tiles face down, each seat's top tile,
    stack size and worms (C13 by ``scores``' chain), who moves, the phase, the dice, the total
    (C7) and, in phase DECIDE, the worms a stop and a steal would take (C8)."""
    cdef Py_ssize_t i, at_row = r * c.players
    cdef int p, seat, k, f
    cdef int64_t worms[64], total = 0, claim, victim, top
    for i in range(c.count):
        if (c.grill[r] >> i) & 1:
            out[at.grill + i] = 1
    for i in range(c.face_down_count[r]):
        out[at.face_down + c.index_of[c.face_down[r * c.count + i]]] = 1
    run_scores(c.scores_chain, c, r, worms)
    for p in range(c.players):
        seat = seat_of(p, me, c.players)
        top = c.tops[at_row + p]
        if top > 0:
            out[at.tops + seat * c.count + c.index_of[top]] = 1
        out[at.sizes + seat] = c.heights[at_row + p]
        out[at.worms + seat] = worms[p]
    if c.phase[r] != GAME_OVER:
        out[at.to_move + seat_of(c.player[r], me, c.players)] = 1
    out[at.phase + c.phase[r]] = 1
    for k in range(c.kinds):
        out[at.in_hand + k] = c.in_hand[r * c.kinds + k]
        for f in range(6):
            out[at.roll + k * 6 + f] = c.roll[(r * c.kinds + k) * 6 + f]
    for f in range(6):
        out[at.set_aside + f] = c.set_aside[r * 6 + f]
        total += c.set_aside[r * 6 + f] * c.points[f]
    out[at.total] = total
    if c.phase[r] == DECIDE:
        run_claims(c.claims_chain, c, r, run_stop_total(c.stop_total_chain, c, r), &claim, &victim)
        if claim >= 0:
            out[at.claims] = c.worms[claim]
        if victim >= 0:
            out[at.claims + 1] = c.worms[c.index_of[c.tops[at_row + victim]]]


cdef inline void run_observe(
    const Link* link, const Cols* c, Py_ssize_t r, int me, float* out
) noexcept nogil:
    """A part's row twin of ``observe`` (never NULL: a part without one is not on rows)."""
    (<ObserveRow>link.run)(link, c, r, me, out)


# ------------------------------------------------------------------ the steps (steps.py)

cdef inline bint rolls_again(const Cols* c, Py_ssize_t r) noexcept nogil:
    """`steps.decide_actions`' roll (C6, `turn.can_roll`): dice left, and a face not set
    aside yet."""
    cdef int f, k, held = 0, used = 0
    for f in range(6):
        if c.set_aside[r * 6 + f] != 0:
            used |= 1 << f
    for k in range(c.kinds):
        held += c.in_hand[r * c.kinds + k]
    return can_roll(used, held > 0)


cdef inline void decide_actions(
    const Cols* c, Py_ssize_t r, int64_t victim, int8_t* out
) noexcept nogil:
    """`steps.decide_actions` (C6-C8) into a mask row: roll while dice and faces remain;
    stop; steal from ``victim`` (-1: none)."""
    out[0] = rolls_again(c, r)
    out[c.stop] = True  # at most one steal: a stop takes the claim, or busts
    if victim >= 0:
        out[c.steal + victim] = True


cdef inline bint derive(Cols* c, Py_ssize_t r, int8_t* out) noexcept nogil:
    """`steps.derive` where modules change no hook but through row twins: a decision made
    pending, a roll's takes (C4), or a stop's decisions (C6-C8). A stop's claims (the
    chain's, kept in ``grill_claim`` and ``victim``) are worked out in phase DECIDE even
    while a decision is pending, as `steps.stop_claims` gives them. Whether one is pending."""
    cdef int64_t claim, victim
    if c.phase[r] == DECIDE:
        run_claims(c.claims_chain, c, r, run_stop_total(c.stop_total_chain, c, r), &claim, &victim)
        c.grill_claim[r] = claim
        c.victim[r] = victim
    if run_pending(c.pending_chain, c, r, out):
        return True
    if c.phase[r] == CHOOSE:
        run_roll_actions(c.roll_actions_chain, c, r, out)
    elif c.phase[r] == DECIDE:
        decide_actions(c, r, c.victim[r], out)
    return False


cdef inline void start_turn(Cols* c, Py_ssize_t r) noexcept nogil:
    """`steps.start_turn` (C3, C11): the player to move takes the turn's dice (the rules'
    dice, as ``turn_dice``'s chain deals them)."""
    cdef int k, f
    c.phase[r] = ROLL
    for f in range(6):
        c.set_aside[r * 6 + f] = 0
    for k in range(c.kinds):
        c.in_hand[r * c.kinds + k] = c.start_dice[k]
        for f in range(6):
            c.roll[(r * c.kinds + k) * 6 + f] = 0
    run_state(c.turn_dice_chain, c, r)


cdef inline bint pass_dice(Cols* c, Py_ssize_t r) noexcept nogil:
    """`steps.pass_dice` (C11, C12): a decision pending waits; the game ends on an empty
    grill, else the next player starts a turn. Whether the row rolls next."""
    cdef int k, f
    if run_pending(c.pending_chain, c, r, NULL):
        return False
    if c.grill[r] == 0:
        c.phase[r] = GAME_OVER
        for f in range(6):
            c.set_aside[r * 6 + f] = 0
        for k in range(c.kinds):
            c.in_hand[r * c.kinds + k] = 0
            for f in range(6):
                c.roll[(r * c.kinds + k) * 6 + f] = 0
        return False
    c.player[r] = (c.player[r] + 1) % c.players
    start_turn(c, r)
    return True


cdef inline void turn_over(Cols* c, Py_ssize_t r, bint tidies) noexcept nogil:
    """`steps.finish_turn`'s first part: the turn counted and, for ``end_turn``, shown over
    (phase TURN_OVER, no roll)."""
    cdef int k, f
    c.turns[r] += 1
    if tidies:
        c.phase[r] = TURN_OVER
        for k in range(c.kinds):
            for f in range(6):
                c.roll[(r * c.kinds + k) * 6 + f] = 0


cdef inline bint finish_turn(Cols* c, Py_ssize_t r) noexcept nogil:
    """`steps.finish_turn`: count the turn; where the rules tidy a turn's end, show it over
    and run ``end_turn`` (a decision may be left pending); pass the dice. Whether the row
    rolls next."""
    turn_over(c, r, c.tidies)
    if c.tidies:
        run_state(c.end_turn_chain, c, r)
    return pass_dice(c, r)


cdef inline bint decide(Cols* c, Py_ssize_t r, int64_t index, int64_t victim) noexcept nogil:
    """`steps.decide` on a stop or a steal (C8-C10): take the claim (grill ``index``, or
    ``victim``'s top), or bust without one; finish the turn. Whether the row rolls next."""
    if index >= 0 or victim >= 0:
        run_take_tile(c.take_tile_chain, c, r, index, victim)
    else:
        run_bust(c.bust_chain, c, r)
    return finish_turn(c, r)


cdef inline void show(Cols* c, Py_ssize_t r, int kind, const int8_t* counts) noexcept nogil:
    """`steps.roll`'s dice: those of ``kind`` show ``counts`` (per face)."""
    cdef int f
    for f in range(6):
        c.roll[(r * c.kinds + kind) * 6 + f] = counts[f]


cdef inline bint busts(Cols* c, Py_ssize_t r) noexcept nogil:
    """`steps.after_roll`'s test and its bust (C5): a roll that offers nothing (no decision
    pending, no face to take) busts and finishes the turn. Whether the row rolls next."""
    if run_pending(c.pending_chain, c, r, NULL) or run_roll_actions(
        c.roll_actions_chain, c, r, NULL
    ):
        return False
    run_bust(c.bust_chain, c, r)
    return finish_turn(c, r)


cdef inline bint after_roll(Cols* c, Py_ssize_t r) noexcept nogil:
    """`steps.roll` once the dice show, then `steps.after_roll` (C5): the roll is counted as
    a move; one that offers nothing busts. Whether the row rolls next (the next player's
    turn)."""
    c.phase[r] = CHOOSE
    c.moves[r] += 1
    return busts(c, r)


cdef inline bint settle(Cols* c, Py_ssize_t r) noexcept nogil:
    """`steps.settle` after a module's action or a set-aside that left the phase DECIDE: a
    turn it resolved passes the dice, a roll is checked again. Whether the row rolls next."""
    if c.phase[r] == TURN_OVER:
        return pass_dice(c, r)
    if c.phase[r] == CHOOSE:
        return busts(c, r)
    return c.phase[r] == ROLL  # (a module's action that rolls again)
