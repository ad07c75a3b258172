"""The compiled plug-in contract: compiled twins of a rule module's hooks.

A rule module's hooks are Python; a module may also carry compiled twins of the busiest of
them ([`RuleModule.compiled`][pickomino_rules.plugin.RuleModule]), the way it carries a
vectorised twin for the batch engine. Under the compiled engine,
[`compose`][pickomino_rules.plugin.compose] folds each twin into the hook's chain where the
module's hook would go, and the kernel calls a chain of twins in C, without Python calls between
them. Under the pure engine the twins are never used: the module's hooks are the reference.

A twin is a Cython ``cdef class`` deriving from `HookTwin` (``cimport`` it from
``pickomino_rules/compiled_plugin.pxd``, shipped with the package), made with the function it
wraps (``inner``), and implementing the C method of its hook's arity: ``run(rules, state)``
(``roll_actions``, ``stop_total``, ``bust``...), ``run1(rules, state, x)`` (``set_aside``,
``claims``, ``take_tile``...) or ``run2(rules, state, x, y)`` (an extension point of four
arguments). It calls what it wraps with the ``pxd``'s ``call``, ``call1`` or ``call2``, which
stay in C when that is a twin too; ``field(state, PARTS)`` reads a state's field and
``with_part(state, index, value)`` replaces one part (``PartKey.set``), both in C. Called from
Python a twin behaves as the hook it mirrors: ``twin(rules, state, ...)``.

A module's part may have a compiled twin of its ``observe`` (the numeric encoding's features
of the part) too: keyed by the module's [`PartKey`][pickomino_rules.state.PartKey] in
``RuleModule.compiled``, made with the Python ``observe`` as ``inner``, it overrides the C method
``fill(rules, state, value, me, out, room)``, which writes the features into ``out`` and returns
how many there are; the compiled engine's observation calls it in C
([`Rules.observers`][pickomino_rules.rules.Rules] holds them by part name).

A twin may have a **row form**: a C function over the compiled rules' rows, the form the
single game's one-row table and the batch's compiled loop run. Derive from `RowTwin`, made
with ``inner`` and the module's own hook; set ``self.row.run`` to your function, cast to the
hook's row type (``ClaimsRow`` for ``claims``, ``BustRow`` for ``bust``: the hooks that have
row forms today), and put its constants (options) in ``self.row.data`` (four 64-bit
integers). The function gets its link first, then the hook's row arguments: the game's
columns (``Cols``: the grill as bits, the stacks, the player, the dice, the rules' tiles) and
its row ``r``. It calls what it wraps with ``run_claims(link.inner, ...)`` or
``run_bust(link.inner, ...)`` and changes the row as the hook changes the state. On a state
the twin runs the hook itself, so the rule is written once in Python and once in C:

```cython
from pickomino_rules.compiled_plugin cimport BustRow, Cols, Link, RowTwin, run_bust

cdef void _no_bust_on_21(const Link* link, Cols* c, Py_ssize_t r) noexcept nogil:
    ...  # the hook's rule on row r, calling run_bust(link.inner, c, r)

cdef class NoBustOn21(RowTwin):
    def __init__(self, inner, hook):
        RowTwin.__init__(self, inner, hook)
        self.row.run = <const void*><BustRow>_no_bust_on_21
```

A module hands it as ``compiled=lambda: {"bust": lambda inner: NoBustOn21(inner, my_bust)}``.

The hooks with row forms are `ROW_HOOKS` (every hook of the turn), each with its function
type in the ``pxd`` and its ``run_...`` caller: ``claims`` (``ClaimsRow``, ``run_claims``),
``bust``, ``end_turn`` and ``turn_dice`` (``StateRow``: the row changed in place; ``run_bust``,
``run_state``; a ``turn_dice`` twin changes ``c.in_hand``, the rules' dice already there),
``set_aside`` (``SetAsideRow``, the face index), ``stop_total`` (``TotalRow``: the points, -1
for None), ``take_tile`` (``TakeTileRow``: a grill index or a victim, -1 for none),
``roll_actions`` (``RollActionsRow``: whether the roll offers anything, what it offers set in
a mask row by action number), ``pending_actions`` (``PendingRow``: whether a decision is
pending, its actions set in a mask row) and ``apply_action`` (``ApplyRow``: whether the twin
took an action number). A row twin whose module keeps a part sets ``self.slots`` to the part's
`PartSlots` (its slots on a row and their codec) and finds them with
``part_at(link, c, r)``; one that reads a second part (another module's) sets
``self.other_slots`` and finds them with ``other_part_at``; one that offers or takes its
module's actions sets ``self.action`` to their class and numbers them from
``c.actions_at[link.action]`` (the encodings' numbers); one that calls an extension point sets
``self.point`` and calls ``run_point(link.uses, c, r, x)`` (``PointRow``: one number in, one
out, such as players as bits) or, for a point that changes the row, ``run_change(link.uses, c,
r, x, y)`` (``ChangeRow``), where the point's default and its extensions are row twins too. A
twin whose row form needs constants of the rules (where its specialist sits in a table, say)
overrides the C method ``bind(rules)``, which sets them in ``self.row.data`` when the rules'
table is linked; a part whose layout depends on the rules answers a codec that knows them from
`PartSlots.bound`. `row_table` links a rules' twins into their table and says what lacks a
row form.
Where every module wrapping a hook of the turn has a row twin of it (and changes no other hook
of the turn), games play on rows in both engines; `pickomino info`'s batch path says which.

A twin is a second implementation of its hook: check it against the hook by playing the rules
with the twins (compiled engine) and without (pure engine), as
``tests/engine/test_compiled_twins.py`` does for the built-in variants' twins.
"""

from typing import Any

__all__ = ["ROW_HOOKS", "TURN_HOOKS", "HookTwin", "PartSlots", "RowTable", "RowTwin", "row_table"]

TURN_HOOKS: frozenset[str]
"""The hooks a turn's steps call (a game's set-up and its scores are not played on rows)."""

ROW_HOOKS: frozenset[str]
"""The hooks that have row forms (every hook of the turn): the one-row table and the batch's
compiled loop play rules whose modules' twins of them all have row forms."""

class HookTwin:
    """A compiled twin of one module's hook (or extension), wrapping ``inner``.

    Attributes:
        inner: The function it wraps: the next twin or hook of the chain.
    """

    inner: Any
    slots: PartSlots | None
    other_slots: PartSlots | None
    point: Any
    action: type | None
    def __init__(self, inner: Any) -> None: ...  # noqa: ANN401
    def __call__(self, rules: Any, state: Any, *more: Any) -> Any: ...  # noqa: ANN401
    def features(self, rules: Any, state: Any, value: Any, me: int) -> list[float]:  # noqa: ANN401
        """A part observer twin's features, as its C method ``fill`` writes them."""

class RowTwin(HookTwin):
    """A module's hook with a row form: on a state, the hook itself; on a row, C.

    Attributes:
        hook: The module's hook, called with ``inner`` first as in a composed chain.
    """

    hook: Any
    def __init__(self, inner: Any, hook: Any) -> None: ...  # noqa: ANN401

class PartSlots:
    """How a module's part lives on a row: ``width(players)`` int16 slots, and its codec.

    A subclass implements ``width`` and the C methods ``encode(part, slots, players)`` (a
    part into its slots; ValueError where it does not fit) and ``decode(slots, players)``
    (the part back), so that ``decode(encode(part)) == part`` for every part a game can
    reach. The rules' table lays the parts' slots side by side; ``encode`` runs on a part
    object the row has not seen, ``decode`` when the part's slots changed.

    Attributes:
        key: The part's ``PartKey``.
    """

    key: Any
    def __init__(self, key: Any) -> None: ...  # noqa: ANN401
    def width(self, players: int) -> int:
        """How many slots the part takes in a game of ``players`` players."""
    def bound(self, rules: Any) -> PartSlots:  # noqa: ANN401
        """The codec for a game of ``rules``.

        Itself, unless its layout depends on the rules (one slot per specialist declared,
        say), when it answers a copy that knows them.
        """
    def columns(self, players: int) -> dict[str, tuple[int, int | None]]:
        """The part's slots by name, for the batch's arrays of it: ``(first, count)``.

        Count None is one slot a row (a column), else that many slots (one per player,
        say); the names and shapes are the module's batch twin's arrays (``PartTwin``),
        which become views of the slots where the batch's compiled loop plays.
        """
    def read(self, slots: Any, players: int) -> Any:  # noqa: ANN401
        """The part that ``slots`` hold (its ``width`` int16 slots of a row, contiguous)."""
    def write(self, part: Any, slots: Any, players: int) -> None:  # noqa: ANN401
        """``part`` into ``slots`` (its ``width`` slots of a row); nothing changes on error."""
    def round_trip(self, part: Any, players: int) -> Any:  # noqa: ANN401
        """``decode(encode(part))``: what a row makes of ``part``."""

class RowTable:
    """The rules' hook table on rows: the modules' row twins linked into one chain per hook.

    Attributes:
        complete: Whether every module's twin of a hook in `ROW_HOOKS` has a row form (with
            its part's slots, extension points and actions resolved).
        missing: Else what lacks one, in words.
        codecs: Each part's `PartSlots` by part index (None: no row twin reads the part,
            which rides along unchanged).
        scores_on_rows: Whether every module's twin of ``scores`` has a row form too (the
            batch's compiled loop then scores its games in C).
    """

    complete: bool
    scores_on_rows: bool
    missing: str | None
    codecs: tuple[PartSlots | None, ...]
    def slot_layout(self, players: int) -> tuple[int, list[int]]:
        """The slots of a row of ``players`` players: their count, each part's first."""
    def action_layout(self, rules: Any, players: int) -> list[int]:  # noqa: ANN401
        """The first action number of each of ``rules.action_types`` (the encodings')."""

def row_table(rules: Any) -> RowTable:  # noqa: ANN401
    """The hook table of ``rules`` on rows (see `RowTable`)."""
