# cython: language_level=3
"""Compiled twins of the extended game's hooks: a declared mirror.

Each class here mirrors one hook or extension of one module, named in ``MIRRORS``; each
module's ``compiled`` factory hands its twins to ``compose`` (``pickomino_rules.compiled_plugin``
is the contract). The twins of the turn's hooks are row twins (``RowTwin``): their rule is
written once more, as a C function over the compiled rules' rows, which the single game's
one-row table and the batch's compiled loop call; on a state the row does not hold, a row twin
runs its module's own hook. The parts they read live on a row through their codecs
(``GrilledWormSlots``, ``SpecialistSlots``, ``WeaselSlots``). The twins of the scores and of
the parts' features stay object-level (a game's end and the numeric encoding are not played
on rows). ``tests/engine/test_compiled_twins.py`` checks the map against the modules and plays
every variant with and without the twins, state for state; ``tests/engine/test_row_specialists.py``
and ``test_row_parts.py`` play the rows against the pure engine move for move.
"""

from libc.stdint cimport int8_t, int16_t, int64_t

from pickomino_rules.compiled_plugin cimport (
    GRILL,
    PARTS,
    PLAYER,
    ROLL,
    SET_ASIDE,
    STACKS,
    BustRow,
    ClaimsRow,
    Cols,
    HookTwin,
    Link,
    PartSlots,
    RowTwin,
    highest,
    other_part_at,
    part_at,
    call,
    call1,
    call2,
    field,
    run_apply,
    run_bust,
    run_change,
    run_claims,
    run_pending,
    run_point,
    run_roll_actions,
    run_scores,
    run_set_aside,
    run_state,
    run_stop_total,
    run_take_tile,
    seat_of,
    turn_face_down,
    with_part,
)

from pickomino_rules._engine.rows cimport ROLL as PHASE_ROLL, WORM

from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE

from importlib import import_module

from pickomino_rules.dice import Face

# The modules themselves (the specialists' package names its functions like its modules).
_worms = import_module("pickomino_rules.variants.grilled_worms")
_low = import_module("pickomino_rules.variants.low_tiles")
_apple = import_module("pickomino_rules.variants.specialists.apple")
_can = import_module("pickomino_rules.variants.specialists.can")
_golden = import_module("pickomino_rules.variants.specialists.golden_die")
_hen = import_module("pickomino_rules.variants.specialists.hen")
_placement = import_module("pickomino_rules.variants.specialists.placement")
_weasel = import_module("pickomino_rules.variants.specialists.weasel")
_crow = import_module("pickomino_rules.variants.specialists.crow")

cdef object _LOW = _low.LOW_TILES
cdef object _SPECIALISTS = _placement.SPECIALISTS
cdef object _GAIN = _placement.GAIN
cdef object _RETURNED_ON_BUST = _placement.RETURNED_ON_BUST
cdef object _HEN = _hen.HEN
cdef object _WEASEL_PART = _weasel.WEASEL_PART
cdef object _USE_KIND = _weasel.UseWeasel
cdef object _SKIP_KIND = _weasel.SkipWeasel
cdef object _FRESH_WEASEL = _weasel.WeaselState()
cdef object _USED_WEASEL = _weasel.WeaselState(used=True)
cdef object _TOKENS = _worms.GRILLED_WORMS
cdef object _ONES_FOR_A_TOKEN = _worms.ONES_FOR_A_TOKEN
cdef object _GRILLED_WORMS_KIND = _worms.GrilledWorms
cdef object _VICTIMS = _worms.GRILLED_WORM_VICTIMS
cdef object _ROB = _worms.RobGrilledWorm
cdef object _KEEP = _placement.KeepSpecialist
cdef object _PLACE = _placement.Place
cdef object _OUT = _placement.OUT
cdef object _TABLE_KIND = _placement.Specialists
cdef object _APPLE_WORMS = _apple.APPLE_WORMS
cdef object _CROW = _crow.CROW


cdef class _Seat:
    """Where one part sits in the states of the last rules seen (``PartKey.get``)."""

    cdef object rules
    cdef str name
    cdef Py_ssize_t index

    def __init__(self, part):
        self.name = part.name

    cdef inline object get(self, object rules, object state):
        if rules is not self.rules:
            self.index = rules.part_index[self.name]
            self.rules = rules
        parts = field(state, PARTS)
        if type(parts) is tuple and 0 <= self.index < PyTuple_GET_SIZE(parts):
            return <object>PyTuple_GET_ITEM(parts, self.index)
        return parts[self.index]

    cdef inline object set(self, object rules, object state, object value):
        """``PartKey.set``, for a value of the part's own kind."""
        if rules is not self.rules:
            self.index = rules.part_index[self.name]
            self.rules = rules
        return with_part(state, self.index, value)


DEF _MOST = 16  # specialists a view holds in C; a table of more is read from Python


cdef class _Places:
    """One specialists' table as plain numbers: each one's tile and owner (-1: none).

    Tables change only when a specialist moves; the last one read is kept (replaced
    whole), so the hooks read numbers instead of six ``Place`` objects at every step.
    """

    cdef object table, specs
    cdef tuple owners  # each one's owner, as the table holds it (None: nobody)
    cdef Py_ssize_t count
    cdef long tile[_MOST]
    cdef long owner[_MOST]
    cdef bint plain  # every tile and owner a number that fits (else: read from Python)


cdef _Places _LAST_PLACES = _Places()


cdef _Places _places(object table):
    """The plain numbers of ``table`` (the last one read is kept)."""
    global _LAST_PLACES
    cdef _Places seen = _LAST_PLACES
    if seen.table is table:
        return seen
    seen = _Places()
    seen.table = table
    seen.specs = table.specs
    places = table.places
    seen.owners = tuple([place.owner for place in places])
    seen.count = len(places)
    seen.plain = seen.count <= _MOST
    cdef Py_ssize_t at
    if seen.plain:
        for at in range(seen.count):
            place = places[at]
            tile, owner = place.tile, place.owner
            if (tile is not None and type(tile) is not int) or (
                owner is not None and type(owner) is not int
            ):
                seen.plain = False
                break
            seen.tile[at] = -1 if tile is None else tile
            seen.owner[at] = -1 if owner is None else owner
    _LAST_PLACES = seen
    return seen


cdef dict _PLACES_ON = {}  # Place(tile=t) and Place(owner=p): equal values, made once


cdef object _on_tile(object tile):
    found = _PLACES_ON.get(("tile", tile))
    if found is None:
        found = _PLACES_ON[("tile", tile)] = _PLACE(tile=tile)
    return found


cdef object _with_owner(object player):
    found = _PLACES_ON.get(("owner", player))
    if found is None:
        found = _PLACES_ON[("owner", player)] = _PLACE(owner=player)
    return found


cdef class _Owner:
    """Who owns one specialist (``placement.owner``), read from the specialists' table."""

    cdef _Seat table
    cdef object spec, specs, parts, owner
    cdef Py_ssize_t at

    def __init__(self, spec):
        self.spec = spec
        self.table = _Seat(_SPECIALISTS)

    cdef inline object of(self, object rules, object state):
        parts = field(state, PARTS)
        if parts is self.parts and rules is self.table.rules:  # no part changed since
            return self.owner
        table = self.table.get(rules, state)
        cdef _Places places = _places(table)
        if places.specs is not self.specs:
            self.at = table._index_of(self.spec)  # raises for a specialist not in play
            self.specs = places.specs
        self.parts = parts
        self.owner = places.owners[self.at]
        return self.owner


# -- grilled worms (E4) ---------------------------------------------------------------------


cdef dict _VALUES = {}  # part values by their fields: equal values, made once (bounded)


cdef object _value(object kind, tuple fields):
    """``kind(*fields)``, shared with earlier equal values (they are immutable)."""
    key = (kind, fields)
    found = _VALUES.get(key)
    if found is None:
        if len(_VALUES) >= 65536:
            _VALUES.clear()
        found = _VALUES[key] = kind(*fields)
    return found


# On a row the tokens are ``GrilledWormSlots``: the supply, the chooser (-1: none), then
# each player's tokens, then whether each player may be robbed (the pending choice).

cdef enum:
    _SUPPLY = 0
    _CHOOSER = 1
    _HELD = 2


cdef class GrilledWormSlots(PartSlots):
    """``GrilledWorms`` on a row: supply, chooser, tokens held and victims, by player."""

    cpdef Py_ssize_t width(self, int players):
        return _HELD + 2 * players

    def columns(self, int players):
        return {
            "supply": (_SUPPLY, None),
            "chooser": (_CHOOSER, None),
            "held": (_HELD, players),
            "victims": (_HELD + players, players),
        }

    cdef int encode(self, object part, int16_t* slots, int players) except -1:
        if type(part) is not _GRILLED_WORMS_KIND:
            raise ValueError("not the grilled worms' part")
        held, chooser, victims = part.held, part.chooser, part.victims
        if type(held) is not tuple or len(<tuple>held) != players or type(victims) is not tuple:
            raise ValueError("not the tokens of this game")
        cdef Py_ssize_t p
        slots[_SUPPLY] = _small(part.supply)
        slots[_CHOOSER] = -1 if chooser is None else _seat(chooser, players)
        for p in range(players):
            slots[_HELD + p] = _small((<tuple>held)[p])
            slots[_HELD + players + p] = 0
        for victim in <tuple>victims:
            slots[_HELD + players + _seat(victim, players)] = 1
        return 0

    cdef object decode(self, const int16_t* slots, int players):
        cdef Py_ssize_t p
        held = tuple([slots[_HELD + p] for p in range(players)])
        chooser = None if slots[_CHOOSER] < 0 else slots[_CHOOSER]
        victims = tuple([p for p in range(players) if slots[_HELD + players + p]])
        return _value(_GRILLED_WORMS_KIND, (slots[_SUPPLY], held, chooser, victims))


cdef int16_t _small(object value) except? -1:
    """A count that fits a slot (ValueError otherwise)."""
    if type(value) is not int or not 0 <= value < 32768:
        raise ValueError("not a count of tokens")
    return <int16_t>value


cdef int16_t _seat(object value, int players) except? -1:
    """A player of the game (ValueError otherwise)."""
    if type(value) is not int or not 0 <= value < players:
        raise ValueError("no such player")
    return <int16_t>value


cdef GrilledWormSlots _TOKEN_SLOTS = GrilledWormSlots(_TOKENS)


cdef void _move_token_row(int16_t* tokens, int players, int giver, int taker) noexcept nogil:
    """``grilled_worms._move_token``: one token to ``taker``, from ``giver`` (-1: the supply);
    no choice pending after it."""
    cdef int p
    tokens[_HELD + taker] += 1
    if giver < 0:
        tokens[_SUPPLY] -= 1
    else:
        tokens[_HELD + giver] -= 1
    tokens[_CHOOSER] = -1
    for p in range(players):
        tokens[_HELD + players + p] = 0


cdef void _award_row(const Link* link, Cols* c, Py_ssize_t r, int taker) noexcept nogil:
    """``grilled_worms.award`` on a row: from the supply, else from the one opponent who may
    be robbed (``GRILLED_WORM_VICTIMS``' chain), else his choice among them (E4)."""
    cdef int16_t* tokens = part_at(link, c, r)
    cdef int64_t victims
    cdef int p, found = 0, last = -1
    if tokens[_SUPPLY] > 0:
        _move_token_row(tokens, c.players, -1, taker)
        return
    victims = run_point(link.uses, c, r, taker)
    for p in range(c.players):
        if (victims >> p) & 1:
            found += 1
            last = p
    if found == 1:
        _move_token_row(tokens, c.players, last, taker)
    elif found > 1:
        tokens[_CHOOSER] = taker
        for p in range(c.players):
            tokens[_HELD + c.players + p] = (victims >> p) & 1


cdef void _grilled_worms_set_aside(const Link* link, Cols* c, Py_ssize_t r, int f) noexcept nogil:
    """``grilled_worms._set_aside``: a token for two or more 1s set aside at once."""
    cdef int k, ones = 0
    if f == 0:
        for k in range(c.kinds):
            ones += c.roll[(r * c.kinds + k) * 6]
    run_set_aside(link.inner, c, r, f)
    if ones >= link.data[0]:
        _award_row(link, c, r, c.player[r])


cdef bint _grilled_worms_pending(
    const Link* link, const Cols* c, Py_ssize_t r, int8_t* out
) noexcept nogil:
    """``grilled_worms._pending_actions``: whom to rob, while that choice is pending."""
    cdef const int16_t* tokens = part_at(link, c, r)
    cdef int p
    cdef int64_t first
    if tokens[_CHOOSER] < 0:
        return run_pending(link.inner, c, r, out)
    if out is not NULL:
        first = c.actions_at[link.action]
        for p in range(c.players):
            out[first + p] = <int8_t>tokens[_HELD + c.players + p]
    return True


cdef bint _grilled_worms_apply(
    const Link* link, Cols* c, Py_ssize_t r, int64_t action
) noexcept nogil:
    """``grilled_worms._apply_action``: rob the chosen opponent of a token."""
    cdef int16_t* tokens = part_at(link, c, r)
    cdef int64_t victim = action - c.actions_at[link.action]
    if tokens[_CHOOSER] < 0 or not 0 <= victim < c.players:
        return run_apply(link.inner, c, r, action)
    _move_token_row(tokens, c.players, <int>victim, tokens[_CHOOSER])
    return True


cdef int64_t _holders_row(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t taker
) noexcept nogil:
    """``grilled_worms._holders``: every opponent holding a token, as bits."""
    cdef const int16_t* tokens = part_at(link, c, r)
    cdef int64_t bits = 0
    cdef int p
    for p in range(c.players):
        if tokens[_HELD + p] > 0 and p != taker:
            bits |= (<int64_t>1) << p
    return bits


cdef class GrilledWormsSetAside(RowTwin):
    """``grilled_worms._set_aside``: a token for two or more 1s set aside at once."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_grilled_worms_set_aside
        self.row.data[0] = _ONES_FOR_A_TOKEN
        self.slots = _TOKEN_SLOTS
        self.point = _VICTIMS


cdef void _grilled_worms_scores_row(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t* out
) noexcept nogil:
    """``grilled_worms._scores`` on a row: each token held is one worm more."""
    run_scores(link.inner, c, r, out)
    cdef const int16_t* tokens = part_at(link, c, r)
    cdef int p
    for p in range(c.players):
        out[p] += tokens[_HELD + p]


cdef class GrilledWormsScores(RowTwin):
    """``grilled_worms._scores``: each token held is one worm."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_grilled_worms_scores_row
        self.slots = _TOKEN_SLOTS


cdef class Holders(RowTwin):
    """``grilled_worms._holders`` (the default of ``GRILLED_WORM_VICTIMS``)."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_holders_row
        self.slots = _TOKEN_SLOTS


cdef class HenVictims(RowTwin):
    """``hen._victims``: her owner's grilled worms cannot be taken."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_hen_victims_row
        self.slots = _SPEC_SLOTS

    cdef int bind(self, object rules) except -1:
        _bind_specs(&self.row, rules, _HEN)
        return 0


cdef class GrilledWormsPending(RowTwin):
    """``grilled_worms._pending_actions``: whom to rob, while that choice is pending."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_grilled_worms_pending
        self.slots = _TOKEN_SLOTS
        self.action = _ROB


cdef class GrilledWormsApplyAction(RowTwin):
    """``grilled_worms._apply_action``: rob the chosen opponent of a token."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_grilled_worms_apply
        self.slots = _TOKEN_SLOTS
        self.action = _ROB


# -- the classic options O1-O3: row twins (on a state, the module's own hook) --------------


cdef void _flip_on_empty_bust(const Link* link, Cols* c, Py_ssize_t r) noexcept nogil:
    """``classic._flip_on_empty_bust`` (O1): a bust with an empty stack turns one down."""
    cdef bint empty = c.heights[r * c.players + c.player[r]] == 0
    run_bust(link.inner, c, r)
    if empty and c.grill[r] != 0:
        turn_face_down(c, r)


cdef void _short_game(const Link* link, Cols* c, Py_ssize_t r) noexcept nogil:
    """``classic._short_game`` (O2): the returned tile turned down even when the highest."""
    cdef Py_ssize_t at = r * c.players + c.player[r]
    cdef int height = c.heights[at]
    cdef int64_t top = c.tops[at]
    cdef int turned = c.face_down_count[r]
    run_bust(link.inner, c, r)
    if (
        height and c.face_down_count[r] == turned and c.grill[r] != 0
        and c.tiles[highest(c.grill[r])] == top
    ):  # C10 spared the returned tile
        turn_face_down(c, r)


cdef void _steal_required(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t total, int64_t* claim,
    int64_t* victim
) noexcept nogil:
    """``classic._steal_required`` (O3 off): a possible steal is the only claim."""
    run_claims(link.inner, c, r, total, claim, victim)
    if victim[0] >= 0:
        claim[0] = -1


cdef class FlipOnEmptyBust(RowTwin):
    """``flip_on_empty_bust.bust`` (O1), with its row form."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <const void*><BustRow>_flip_on_empty_bust


cdef class ShortGame(RowTwin):
    """``short_game.bust`` (O2), with its row form."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <const void*><BustRow>_short_game


cdef class StealRequired(RowTwin):
    """``optional_steal_off.claims`` (O3 off), with its row form."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <const void*><ClaimsRow>_steal_required


# -- tiles 11 and 13 (E3, O4) ----------------------------------------------------------------


cdef class LowTilesClaims(RowTwin):
    """``low_tiles.claims`` (E3, O4), with its row form; on a state, the module's own hook."""

    def __init__(self, inner, hook, exclusive):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <const void*><ClaimsRow>_low_tiles_claims
        self.row.data[0], self.row.data[1] = _LOW  # the tiles (E1)
        self.row.data[2] = exclusive


cdef void _low_tiles_claims(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t total, int64_t* claim,
    int64_t* victim
) noexcept nogil:
    """``low_tiles.claims`` as a row twin (``link.data``: the low tiles, then ``exclusive``)."""
    cdef const int64_t* low = link.data
    cdef int64_t tile
    cdef Py_ssize_t at, i
    cdef const int8_t* stack
    run_claims(link.inner, c, r, total, claim, victim)
    if victim[0] >= 0 and (total == low[0] or total == low[1]):
        victim[0] = -1  # E3: never stolen (a steal takes a top tile equal to the total)
    if claim[0] < 0:
        return
    tile = c.tiles[claim[0]]
    if tile != low[0] and tile != low[1]:
        return
    if tile != total:
        claim[0] = -1  # E3: exact only
    elif low[2]:  # O4: not both
        at = r * c.players + c.player[r]
        stack = c.stacks + at * c.count
        for i in range(c.heights[at]):
            if stack[i] == low[0] or stack[i] == low[1]:
                claim[0] = -1
                return


def low_tiles_twins(hook, exclusive):
    """The low tiles' twins: ``hook``, its ``claims`` for option O4 (``exclusive``)."""
    return {"claims": lambda inner: LowTilesClaims(inner, hook, exclusive)}


# -- the specialists' places (E5, E6, E13) ---------------------------------------------------


cdef class SpecialistsTakeTile(RowTwin):
    """``placement._take_tile``: gain the taken tile's specialist, or the robbed player's."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_specialists_take_tile
        self.slots = _SPEC_SLOTS
        self.point = _GAIN

    cdef int bind(self, object rules) except -1:
        return _bind_specs(&self.row, rules, None)


cdef class SpecialistsBust(RowTwin):
    """``placement._bust``: E13 for turned tiles, then E6 for the buster's specialists."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_specialists_bust
        self.slots = _SPEC_SLOTS
        self.point = _RETURNED_ON_BUST

    cdef int bind(self, object rules) except -1:
        return _bind_specs(&self.row, rules, None)


cdef class SpecialistsApplyAction(RowTwin):
    """``placement._apply_action``: keep one specialist; the other returns to the grill."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_specialists_apply
        self.slots = _SPEC_SLOTS
        self.action = _KEEP

    cdef int bind(self, object rules) except -1:
        return _bind_specs(&self.row, rules, None)


cdef class SpecialistsPending(RowTwin):
    """``placement._pending_actions``: keeping one of two specialists, while pending."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_specialists_pending
        self.slots = _SPEC_SLOTS
        self.action = _KEEP

    cdef int bind(self, object rules) except -1:
        return _bind_specs(&self.row, rules, None)


cdef class ReturnedOnBust(RowTwin):
    """``placement._owned`` (the default of ``RETURNED_ON_BUST``): all the buster owns."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_owned_row
        self.slots = _SPEC_SLOTS

    cdef int bind(self, object rules) except -1:
        return _bind_specs(&self.row, rules, None)


cdef class Owns(RowTwin):
    """``placement._owns`` (the default of ``GAIN``): he owns it; with two, he chooses."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_owns_row
        self.slots = _SPEC_SLOTS

    cdef int bind(self, object rules) except -1:
        return _bind_specs(&self.row, rules, None)


# On a row the specialists are ``SpecialistSlots``: the chooser (-1: none), then each one's
# tile number (0: none), then each one's owner (-1: none), in the order of ``specs`` (by
# starting tile), as the batch twin's arrays ``chooser``, ``tile`` and ``owner`` hold them.
# A row twin's ``row.data[0]`` is how many are in play and ``row.data[1]`` the index of the
# one it is about (``bind``).

cdef int _bind_specs(Link* row, object rules, object spec) except -1:
    """``row.data[0]``: the specialists in play; ``row.data[1]``: where ``spec`` is (if one)."""
    specs = _placement._declared(rules)
    if len(specs) > _MOST:
        raise ValueError(f"{len(specs)} specialists: a row holds {_MOST} at most")
    row.data[0] = len(specs)
    if spec is not None:
        if spec not in specs:
            raise ValueError(f"the specialist {spec.name!r} is not in play")
        row.data[1] = specs.index(spec)
    return 0


cdef class SpecialistSlots(PartSlots):
    """``Specialists`` on a row: the chooser, then each one's tile and owner."""

    cdef tuple specs
    cdef frozenset tiles

    cpdef Py_ssize_t width(self, int players):
        if self.specs is None:
            raise ValueError("the specialists' slots of no rules (see ``bound``)")
        return 1 + 2 * len(self.specs)

    cpdef PartSlots bound(self, object rules):
        cdef SpecialistSlots bound = SpecialistSlots(self.key)
        bound.specs = _placement._declared(rules)
        bound.tiles = frozenset(rules.tiles)
        return bound

    def columns(self, int players):
        cdef Py_ssize_t count = len(self.specs)
        return {"chooser": (0, None), "tile": (1, count), "owner": (1 + count, count)}

    cdef int encode(self, object part, int16_t* slots, int players) except -1:
        if type(part) is not _TABLE_KIND:
            raise ValueError("not the specialists' part")
        specs, places, chooser = part.specs, part.places, part.chooser
        cdef Py_ssize_t at, count = len(self.specs)
        if (specs is not self.specs and specs != self.specs) or type(places) is not tuple or (
            len(<tuple>places) != count
        ):
            raise ValueError("not the specialists of these rules")
        slots[0] = -1 if chooser is None else _seat(chooser, players)
        for at in range(count):
            place = (<tuple>places)[at]
            if type(place) is not _PLACE:
                raise ValueError("not a specialist's place")
            tile, owner = place.tile, place.owner
            if tile is not None and owner is not None:
                raise ValueError("a specialist in two places")
            if tile is not None and (type(tile) is not int or tile not in self.tiles):
                raise ValueError("not a tile of these rules")
            slots[1 + at] = 0 if tile is None else <int16_t>(<long>tile)
            slots[1 + count + at] = -1 if owner is None else _seat(owner, players)
        return 0

    cdef object decode(self, const int16_t* slots, int players):
        cdef Py_ssize_t at, count = len(self.specs)
        places = []
        for at in range(count):
            if slots[1 + at] > 0:
                places.append(_on_tile(slots[1 + at]))
            elif slots[1 + count + at] >= 0:
                places.append(_with_owner(slots[1 + count + at]))
            else:
                places.append(_OUT)
        chooser = None if slots[0] < 0 else slots[0]
        return _value(_TABLE_KIND, (self.specs, tuple(places), chooser))


cdef SpecialistSlots _SPEC_SLOTS = SpecialistSlots(_SPECIALISTS)


cdef inline int _owner_row(const int16_t* places, int64_t count, int64_t at) noexcept nogil:
    """``placement.owner`` on a row: who owns specialist ``at`` (-1: nobody)."""
    return places[1 + count + at]


cdef void _place_on_grill_row(Cols* c, Py_ssize_t r, int16_t* places, int64_t count, int64_t at) noexcept nogil:
    """``placement.place_on_grill`` on a row (E6): the lowest free face-up tile, or out."""
    cdef int64_t taken = 0, free
    cdef int64_t other
    for other in range(count):
        if other != at and places[1 + other] > 0:
            taken |= (<int64_t>1) << c.index_of[places[1 + other]]
    free = c.grill[r] & ~taken
    places[1 + at] = <int16_t>c.tiles[highest(free & -free)] if free != 0 else 0
    places[1 + count + at] = -1


cdef int64_t _owns_row(
    const Link* link, Cols* c, Py_ssize_t r, int64_t at, int64_t player
) noexcept nogil:
    """``placement._owns`` on a row (the default of ``GAIN``): he owns specialist ``at``;
    with two, he chooses."""
    cdef int16_t* places = part_at(link, c, r)
    cdef int64_t count = link.data[0], other, owned = 0
    places[1 + at] = 0
    places[1 + count + at] = <int16_t>player
    for other in range(count):
        if places[1 + count + other] == player:
            owned += 1
    if owned > 1:
        places[0] = <int16_t>player
    return 0


cdef int64_t _owned_bits(const int16_t* places, int64_t count, int player) noexcept nogil:
    """``Specialists.owned_by`` on a row: the specialists ``player`` owns, as bits."""
    cdef int64_t at, bits = 0
    for at in range(count):
        if places[1 + count + at] == player:
            bits |= (<int64_t>1) << at
    return bits


cdef int64_t _owned_row(const Link* link, const Cols* c, Py_ssize_t r, int64_t first) noexcept nogil:
    """``placement._owned`` on a row (the default of ``RETURNED_ON_BUST``), as bits."""
    return _owned_bits(part_at(link, c, r), link.data[0], c.player[r])


cdef void _specialists_take_tile(
    const Link* link, Cols* c, Py_ssize_t r, int64_t index, int64_t victim
) noexcept nogil:
    """``placement._take_tile`` on a row: gain the taken tile's specialist, or the robbed
    player's (E5)."""
    cdef int16_t* places = part_at(link, c, r)
    cdef int64_t count = link.data[0], at, gained = 0
    if victim < 0:
        for at in range(count):
            if places[1 + at] == c.tiles[index]:
                gained = (<int64_t>1) << at
                break
    else:
        gained = _owned_bits(places, count, <int>victim)
    run_take_tile(link.inner, c, r, index, victim)
    for at in range(count):
        if (gained >> at) & 1:
            run_change(link.uses, c, r, at, c.player[r])


cdef void _specialists_bust(const Link* link, Cols* c, Py_ssize_t r) noexcept nogil:
    """``placement._bust`` on a row: E13 for turned tiles, then E6 for the buster's."""
    cdef int64_t returned = run_point(link.uses, c, r, 0)
    cdef int16_t* places
    cdef int64_t count = link.data[0], at
    run_bust(link.inner, c, r)
    places = part_at(link, c, r)
    for at in range(count):  # E13 (``_settle_tiles``): its tile left the grill
        if places[1 + at] > 0 and not (c.grill[r] >> c.index_of[places[1 + at]]) & 1:
            _place_on_grill_row(c, r, places, count, at)
    for at in range(count):
        if (returned >> at) & 1:
            _place_on_grill_row(c, r, places, count, at)


cdef bint _specialists_pending(
    const Link* link, const Cols* c, Py_ssize_t r, int8_t* out
) noexcept nogil:
    """``placement._pending_actions`` on a row: keeping one of two, while pending."""
    cdef const int16_t* places = part_at(link, c, r)
    cdef int64_t count = link.data[0], at, first
    if places[0] < 0:
        return run_pending(link.inner, c, r, out)
    if out is not NULL:
        first = c.actions_at[link.action]
        for at in range(count):
            if places[1 + count + at] == places[0]:
                out[first + at] = True
    return True


cdef bint _specialists_apply(
    const Link* link, Cols* c, Py_ssize_t r, int64_t action
) noexcept nogil:
    """``placement._apply_action`` on a row: keep one; the other returns to the grill."""
    cdef int16_t* places = part_at(link, c, r)
    cdef int64_t count = link.data[0], at, kept = action - c.actions_at[link.action]
    cdef int chooser = places[0]
    if chooser < 0 or not 0 <= kept < count:
        return run_apply(link.inner, c, r, action)
    for at in range(count):
        if at != kept and places[1 + count + at] == chooser:
            _place_on_grill_row(c, r, places, count, at)
    places[0] = -1
    return True


cdef int64_t _hen_returned_row(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t first
) noexcept nogil:
    """``hen._returned_on_bust`` on a row: kept by an owner busting with no tile."""
    cdef int64_t returned = run_point(link.inner, c, r, first)
    if returned == 0 or c.heights[r * c.players + c.player[r]] > 0:
        return returned
    return returned & ~((<int64_t>1) << link.data[1])


cdef void _hen_take_tile(
    const Link* link, Cols* c, Py_ssize_t r, int64_t index, int64_t victim
) noexcept nogil:
    """``hen._take_tile`` on a row: stealing from her owner takes her instead."""
    cdef const int16_t* places = part_at(link, c, r)
    if victim >= 0 and _owner_row(places, link.data[0], link.data[1]) == victim:
        run_change(link.uses, c, r, link.data[1], c.player[r])
    else:
        run_take_tile(link.inner, c, r, index, victim)


cdef void _hen_bust(const Link* link, Cols* c, Py_ssize_t r) noexcept nogil:
    """``hen._bust`` on a row: her owner with a tile returns her instead; nothing turns."""
    cdef int16_t* places = part_at(link, c, r)
    cdef int player = c.player[r]
    if c.heights[r * c.players + player] > 0 and (
        _owner_row(places, link.data[0], link.data[1]) == player
    ):
        _place_on_grill_row(c, r, places, link.data[0], link.data[1])
    else:
        run_bust(link.inner, c, r)


cdef int64_t _hen_victims_row(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t taker
) noexcept nogil:
    """``hen._victims`` on a row: her owner's grilled worms cannot be taken."""
    cdef int64_t victims = run_point(link.inner, c, r, taker)
    cdef int protected = _owner_row(part_at(link, c, r), link.data[0], link.data[1])
    if protected >= 0:
        victims &= ~((<int64_t>1) << protected)
    return victims


cdef int64_t _crow_gain_row(
    const Link* link, Cols* c, Py_ssize_t r, int64_t at, int64_t player
) noexcept nogil:
    """``crow._gain`` on a row: the crow flies on (E6 placement); a grilled worm for the
    taker."""
    if at != link.data[1]:
        return run_change(link.inner, c, r, at, player)
    _place_on_grill_row(c, r, other_part_at(link, c, r), link.data[0], at)
    _award_row(link, c, r, <int>player)
    return 0


cdef int64_t _can_stop_total_row(const Link* link, const Cols* c, Py_ssize_t r) noexcept nogil:
    """``can._stop_total`` on a row: the missing worm of its owner's stop, 5 points."""
    cdef int64_t total = run_stop_total(link.inner, c, r)
    cdef int f
    if (
        total < 0
        and c.set_aside[r * 6 + WORM] == 0
        and _owner_row(part_at(link, c, r), link.data[0], link.data[1]) == c.player[r]
    ):
        total = 0
        for f in range(6):
            total += c.set_aside[r * 6 + f] * c.points[f]
        return total + c.points[WORM]
    return total


cdef void _golden_turn_dice_row(const Link* link, Cols* c, Py_ssize_t r) noexcept nogil:
    """``golden_die``'s ``turn_dice`` on a row: its owner rolls it as one more die."""
    run_state(link.inner, c, r)
    if _owner_row(part_at(link, c, r), link.data[0], link.data[1]) == c.player[r]:
        c.in_hand[r * c.kinds + link.data[2]] += 1


cdef Py_ssize_t _skip_index(object rules) except -1:
    """The index of the weasel's skip among the rules' action classes (its number's)."""
    if _SKIP_KIND not in rules.action_types:
        raise ValueError("the weasel's skip is not among the rules' actions")
    return rules.action_types.index(_SKIP_KIND)


# On a row the weasel's part is one slot: whether it was used this turn.

cdef class WeaselSlots(PartSlots):
    """``WeaselState`` on a row: whether it was used this turn."""

    cpdef Py_ssize_t width(self, int players):
        return 1

    def columns(self, int players):
        return {"used": (0, None)}

    cdef int encode(self, object part, int16_t* slots, int players) except -1:
        if type(part) is not type(_FRESH_WEASEL) or type(part.used) is not bool:
            raise ValueError("not the weasel's part")
        slots[0] = 1 if part.used else 0
        return 0

    cdef object decode(self, const int16_t* slots, int players):
        return _USED_WEASEL if slots[0] else _FRESH_WEASEL


cdef WeaselSlots _WEASEL_SLOTS = WeaselSlots(_WEASEL_PART)


cdef bint _weasel_roll_actions_row(
    const Link* link, const Cols* c, Py_ssize_t r, int8_t* out
) noexcept nogil:
    """The weasel's ``roll_actions`` on a row: re-roll (or accept a bust) once a turn."""
    cdef bint takes = run_roll_actions(link.inner, c, r, out)
    if part_at(link, c, r)[0] or (
        _owner_row(other_part_at(link, c, r), link.data[0], link.data[1]) != c.player[r]
    ):
        return takes
    if out is not NULL:
        out[c.actions_at[link.action]] = True
        if not takes:
            out[c.actions_at[link.data[2]]] = True
    return True


cdef bint _weasel_apply_row(const Link* link, Cols* c, Py_ssize_t r, int64_t action) noexcept nogil:
    """The weasel's ``apply_action`` on a row: roll the whole roll again, or accept the
    bust."""
    cdef int k, f
    if action == c.actions_at[link.action]:
        part_at(link, c, r)[0] = 1
        c.phase[r] = PHASE_ROLL
        for k in range(c.kinds):
            for f in range(6):
                c.roll[(r * c.kinds + k) * 6 + f] = 0
        return True
    if action == c.actions_at[link.data[2]]:
        part_at(link, c, r)[0] = 1  # the roll now busts
        return True
    return run_apply(link.inner, c, r, action)


cdef void _weasel_end_turn_row(const Link* link, Cols* c, Py_ssize_t r) noexcept nogil:
    """The weasel's ``end_turn`` on a row: ready again next turn."""
    run_state(link.inner, c, r)
    part_at(link, c, r)[0] = 0


# -- the hen (E11) ---------------------------------------------------------------------------


cdef class HenTakeTile(RowTwin):
    """``hen._take_tile``: stealing from her owner takes the hen instead; the tile stays."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_hen_take_tile
        self.slots = _SPEC_SLOTS
        self.point = _GAIN

    cdef int bind(self, object rules) except -1:
        _bind_specs(&self.row, rules, _HEN)
        return 0


cdef class HenBust(RowTwin):
    """``hen._bust``: her owner with a tile returns her instead; nothing is turned."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_hen_bust
        self.slots = _SPEC_SLOTS

    cdef int bind(self, object rules) except -1:
        _bind_specs(&self.row, rules, _HEN)
        return 0


cdef class HenReturnedOnBust(RowTwin):
    """``hen._returned_on_bust``: kept by an owner busting with no tile."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_hen_returned_row

    cdef int bind(self, object rules) except -1:
        _bind_specs(&self.row, rules, _HEN)
        return 0


# -- the crow (E12) -------------------------------------------------------------------------


cdef class CrowGain(RowTwin):
    """``crow._gain``: taking its tile moves the crow and earns a grilled worm."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_crow_gain_row
        self.slots = _TOKEN_SLOTS  # (``_award_row`` reads its own part: the tokens)
        self.other_slots = _SPEC_SLOTS
        self.point = _VICTIMS

    cdef int bind(self, object rules) except -1:
        _bind_specs(&self.row, rules, _CROW)
        return 0


# -- the worm in a can (E9) -----------------------------------------------------------------


cdef class CanStopTotal(RowTwin):
    """``can._stop_total``: the can is the missing worm of its owner's stop, 5 points."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_can_stop_total_row
        self.slots = _SPEC_SLOTS

    cdef int bind(self, object rules) except -1:
        _bind_specs(&self.row, rules, _can.CAN)
        return 0


cdef void _apple_scores_row(
    const Link* link, const Cols* c, Py_ssize_t r, int64_t* out
) noexcept nogil:
    """``apple._scores`` on a row: three worms more for the apple's owner (E7)."""
    run_scores(link.inner, c, r, out)
    cdef int holder = _owner_row(part_at(link, c, r), link.data[0], link.data[1])
    if holder >= 0:
        out[holder] += link.data[2]


cdef class AppleScores(RowTwin):
    """``apple._scores``: three worms more for the apple's owner (E7)."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_apple_scores_row
        self.slots = _SPEC_SLOTS

    cdef int bind(self, object rules) except -1:
        _bind_specs(&self.row, rules, _apple.APPLE)
        self.row.data[2] = _APPLE_WORMS
        return 0


# -- the parts' features for the numeric encoding (their ``observe``) ------------------------


cdef class _Observer(HookTwin):
    """A part's ``observe`` (``inner``); ``fill`` writes its features in C."""

    cdef object run2(self, object rules, object state, object value, object me):
        return self.inner(rules, state, value, me)


cdef double _TOKEN_COUNT = _worms.TOKENS


cdef void _grilled_worms_observe_row(
    const Link* link, const Cols* c, Py_ssize_t r, int me, float* out
) noexcept nogil:
    """``grilled_worms._features`` on a row."""
    cdef const int16_t* tokens = part_at(link, c, r)
    cdef int n = c.players, seat, player
    out[0] = <double>tokens[_SUPPLY] / _TOKEN_COUNT
    for seat in range(n):
        player = (me + seat) % n
        out[1 + seat] = <double>tokens[_HELD + player] / _TOKEN_COUNT
        out[1 + n + seat] = 1.0 if tokens[_CHOOSER] == player else 0.0
        out[1 + 2 * n + seat] = 1.0 if tokens[_HELD + n + player] else 0.0


cdef class GrilledWormsObserve(_Observer):
    """``grilled_worms._features``: supply and holdings as shares of the tokens; who chooses
    and who may be robbed, by seat."""

    def __init__(self, inner):
        _Observer.__init__(self, inner)
        self.row.run = <void*>_grilled_worms_observe_row
        self.slots = _TOKEN_SLOTS

    cdef Py_ssize_t fill(
        self, object rules, object state, object value, Py_ssize_t me, float* out, Py_ssize_t room
    ) except -1:
        held, chooser, victims = value.held, value.chooser, value.victims
        cdef Py_ssize_t n = len(held), seat, player
        if 1 + 3 * n > room:
            return 1 + 3 * n
        out[0] = <double>value.supply / _TOKEN_COUNT
        for seat in range(n):
            player = (me + seat) % n
            out[1 + seat] = <double>held[player] / _TOKEN_COUNT
            out[1 + n + seat] = 1.0 if chooser is not None and chooser == player else 0.0
            out[1 + 2 * n + seat] = 1.0 if player in victims else 0.0
        return 1 + 3 * n


cdef tuple _SLOTS_TILES = None  # the tiles of the last rules read, and each one's index
cdef dict _SLOTS = None


cdef Py_ssize_t _tile_slot(object tiles, object tile) except -1:
    """``tiles.index(tile)`` (the tuple's own error for a stranger)."""
    global _SLOTS_TILES, _SLOTS
    if tiles is not _SLOTS_TILES:
        _SLOTS = {each: index for index, each in enumerate(tiles)}
        _SLOTS_TILES = tiles
    found = _SLOTS.get(tile)
    return tiles.index(tile) if found is None else found


cdef void _specialists_observe_row(
    const Link* link, const Cols* c, Py_ssize_t r, int me, float* out
) noexcept nogil:
    """``placement._features`` on a row (``out`` zeros)."""
    cdef const int16_t* places = part_at(link, c, r)
    cdef int64_t count = link.data[0], at
    cdef Py_ssize_t n = c.players, block = c.count + n, size = count * block + n
    for at in range(count):
        if places[1 + at] > 0:
            out[at * block + c.index_of[places[1 + at]]] = 1.0
        if places[1 + count + at] >= 0:
            out[at * block + c.count + seat_of(places[1 + count + at], me, n)] = 1.0
    if places[0] >= 0:
        out[size - n + seat_of(places[0], me, n)] = 1.0


cdef class SpecialistsObserve(_Observer):
    """``placement._features``: each specialist's grill tile (one-hot) and owner (by seat);
    then who chooses which one to keep."""

    def __init__(self, inner):
        _Observer.__init__(self, inner)
        self.row.run = <void*>_specialists_observe_row
        self.slots = _SPEC_SLOTS

    cdef int bind(self, object rules) except -1:
        return _bind_specs(&self.row, rules, None)

    cdef Py_ssize_t fill(
        self, object rules, object state, object value, Py_ssize_t me, float* out, Py_ssize_t room
    ) except -1:
        cdef _Places places = _places(value)
        if not places.plain:
            return HookTwin.fill(self, rules, state, value, me, out, room)
        tiles = rules.tiles
        cdef Py_ssize_t n = len(field(state, STACKS)), count = len(tiles)
        cdef Py_ssize_t block = count + n, size = places.count * block + n, at
        if size > room:
            return size
        for at in range(size):
            out[at] = 0.0
        for at in range(places.count):
            if places.tile[at] >= 0:
                out[at * block + _tile_slot(tiles, places.tile[at])] = 1.0
            if places.owner[at] >= 0:
                out[at * block + count + (places.owner[at] - me) % n] = 1.0
        chooser = value.chooser
        if chooser is not None:
            out[size - n + (<Py_ssize_t>chooser - me) % n] = 1.0
        return size


cdef void _weasel_observe_row(
    const Link* link, const Cols* c, Py_ssize_t r, int me, float* out
) noexcept nogil:
    """``weasel._features`` on a row."""
    out[0] = 1.0 if part_at(link, c, r)[0] else 0.0


cdef class WeaselObserve(_Observer):
    """``weasel._features``: whether it was used this turn."""

    def __init__(self, inner):
        _Observer.__init__(self, inner)
        self.row.run = <void*>_weasel_observe_row
        self.slots = _WEASEL_SLOTS

    cdef Py_ssize_t fill(
        self, object rules, object state, object value, Py_ssize_t me, float* out, Py_ssize_t room
    ) except -1:
        if room >= 1:
            out[0] = 1.0 if value.used else 0.0
        return 1


# -- the golden die (E8) ---------------------------------------------------------------------


cdef class GoldenTurnDice(RowTwin):
    """``golden_die``'s ``turn_dice``: its owner rolls it as one more die."""

    cdef object kind

    def __init__(self, inner, hook, kind):
        RowTwin.__init__(self, inner, hook)
        self.kind = kind
        self.row.run = <void*>_golden_turn_dice_row
        self.slots = _SPEC_SLOTS

    cdef int bind(self, object rules) except -1:
        _bind_specs(&self.row, rules, _golden.GOLDEN_DIE)
        if self.kind not in rules.die_kinds:
            raise ValueError("the golden die is not among the rules' dice")
        self.row.data[2] = rules.die_kinds.index(self.kind)
        return 0


def golden_die_twins(kind, turn_dice):
    """The golden die's twins for its kind of die (O6), its ``turn_dice`` hook on a state."""
    return {"turn_dice": lambda inner: GoldenTurnDice(inner, turn_dice, kind)}


# -- the weasel (E10) ------------------------------------------------------------------------


cdef class WeaselRollActions(RowTwin):
    """The weasel's ``roll_actions``: re-roll (or accept a bust) once a turn."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_weasel_roll_actions_row
        self.slots = _WEASEL_SLOTS
        self.other_slots = _SPEC_SLOTS
        self.action = _USE_KIND

    cdef int bind(self, object rules) except -1:
        _bind_specs(&self.row, rules, _weasel.WEASEL)
        self.row.data[2] = _skip_index(rules)
        return 0


cdef class WeaselEndTurn(RowTwin):
    """The weasel's ``end_turn``: ready again next turn."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_weasel_end_turn_row
        self.slots = _WEASEL_SLOTS


cdef class WeaselApplyAction(RowTwin):
    """The weasel's ``apply_action``: roll the whole roll again, or accept the bust."""

    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <void*>_weasel_apply_row
        self.slots = _WEASEL_SLOTS
        self.action = _USE_KIND

    cdef int bind(self, object rules) except -1:
        self.row.data[2] = _skip_index(rules)
        return 0


# -- each module's twins, as its ``compiled`` factory hands them to ``compose`` --------------

def _the_default(inner, rules, state, *arguments):
    """A point's default on a state: the twin of a default wraps the default itself."""
    return inner(rules, state, *arguments)


GRILLED_WORMS = {
    "set_aside": lambda inner: GrilledWormsSetAside(inner, _worms._set_aside),
    "pending_actions": lambda inner: GrilledWormsPending(inner, _worms._pending_actions),
    "apply_action": lambda inner: GrilledWormsApplyAction(inner, _worms._apply_action),
    _VICTIMS: lambda inner: Holders(inner, _the_default),
    "scores": lambda inner: GrilledWormsScores(inner, _worms._scores),
    _TOKENS: GrilledWormsObserve,
}
SPECIALISTS = {
    "take_tile": lambda inner: SpecialistsTakeTile(inner, _placement._take_tile),
    "bust": lambda inner: SpecialistsBust(inner, _placement._bust),
    "pending_actions": lambda inner: SpecialistsPending(inner, _placement._pending_actions),
    "apply_action": lambda inner: SpecialistsApplyAction(inner, _placement._apply_action),
    _RETURNED_ON_BUST: lambda inner: ReturnedOnBust(inner, _the_default),
    _GAIN: lambda inner: Owns(inner, _the_default),
    _SPECIALISTS: SpecialistsObserve,
}
CROW = {_GAIN: lambda inner: CrowGain(inner, _crow._gain)}
HEN = {
    "take_tile": lambda inner: HenTakeTile(inner, _hen._take_tile),
    "bust": lambda inner: HenBust(inner, _hen._bust),
    _RETURNED_ON_BUST: lambda inner: HenReturnedOnBust(inner, _hen._returned_on_bust),
    _VICTIMS: lambda inner: HenVictims(inner, _hen._victims),
}
CAN = {"stop_total": lambda inner: CanStopTotal(inner, _can._stop_total)}
APPLE = {"scores": lambda inner: AppleScores(inner, _apple._scores)}


def weasel_twins(roll_actions, apply_action, end_turn):
    """The weasel's twins, its hooks (made in ``weasel()``) on a state."""
    return {
        "roll_actions": lambda inner: WeaselRollActions(inner, roll_actions),
        "end_turn": lambda inner: WeaselEndTurn(inner, end_turn),
        "apply_action": lambda inner: WeaselApplyAction(inner, apply_action),
        _WEASEL_PART: WeaselObserve,
    }


MIRRORS = {
    "FlipOnEmptyBust": ("flip_on_empty_bust", "bust"),
    "ShortGame": ("short_game", "bust"),
    "StealRequired": ("optional_steal_off", "claims"),
    "GrilledWormsSetAside": ("grilled_worms", "set_aside"),
    "GrilledWormsPending": ("grilled_worms", "pending_actions"),
    "GrilledWormsApplyAction": ("grilled_worms", "apply_action"),
    "GrilledWormsScores": ("grilled_worms", "scores"),
    "GrilledWormsObserve": ("grilled_worms", "observe"),
    "SpecialistsObserve": ("specialists", "observe"),
    "WeaselObserve": ("weasel", "observe"),
    "Holders": ("grilled_worms", "grilled_worm_victims"),
    "HenVictims": ("hen", "grilled_worm_victims"),
    "LowTilesClaims": ("low_tiles", "claims"),
    "SpecialistsTakeTile": ("specialists", "take_tile"),
    "SpecialistsBust": ("specialists", "bust"),
    "SpecialistsPending": ("specialists", "pending_actions"),
    "SpecialistsApplyAction": ("specialists", "apply_action"),
    "ReturnedOnBust": ("specialists", "returned_on_bust"),
    "Owns": ("specialists", "gain_specialist"),
    "CrowGain": ("crow", "gain_specialist"),
    "HenTakeTile": ("hen", "take_tile"),
    "HenBust": ("hen", "bust"),
    "HenReturnedOnBust": ("hen", "returned_on_bust"),
    "CanStopTotal": ("can", "stop_total"),
    "AppleScores": ("apple", "scores"),
    "GoldenTurnDice": ("golden_die", "turn_dice"),
    "WeaselRollActions": ("weasel", "roll_actions"),
    "WeaselEndTurn": ("weasel", "end_turn"),
    "WeaselApplyAction": ("weasel", "apply_action"),
}
"""Each twin, by class name: the module and the hook (or extension point) it mirrors."""

UNMIRRORED = {
    ("grilled_worms", "setup"): "once a game",
    ("specialists", "setup"): "once a game",
    ("specialists", "specialist_declarations"): "asked when rules are composed",
    ("weasel", "setup"): "once a game",
    **{
        (name, "specialist_declarations"): "asked when rules are composed"
        for name in ("apple", "can", "hen", "crow", "weasel", "golden_die")
    },
}
"""The hooks and extensions of those modules left to Python, and why."""
