"""The batch's compiled loops (``batch/_fused.pyx``): whether they play, and their view.

They play where they were built and the engine's backend (`_engine.ACTIVE`, chosen once at
import) is the compiled one: a process never runs the reference engine on one backend and the
batch on the other.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pickomino_rules._engine import ACTIVE
from pickomino_rules.actions import STOP, Steal
from pickomino_rules.batch._compose import use_compiled
from pickomino_rules.errors import MissingExtraError
from pickomino_rules.plugin import HOOKS

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the batch engine", "batch") from None

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from pickomino_rules.batch_plugin import BatchTable, PartTwin
    from pickomino_rules.encoding import Encoding
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import PartKey

LOOPS: Any = None
"""The compiled loops' module, where built and chosen; else None (the numpy twins play)."""
PLUGIN: Any = None
"""The compiled plug-in contract's module, with them."""
ROW_HOOKS: frozenset[str] = frozenset()
"""The hooks a module may wrap for the compiled loop to play (`compiled_plugin.ROW_HOOKS`)."""
if ACTIVE.compiled:  # the backend the engine chose at import: the batch plays the same one
    try:
        LOOPS = importlib.import_module("pickomino_rules.batch._fused")
        PLUGIN = importlib.import_module("pickomino_rules.compiled_plugin")
        ROW_HOOKS = PLUGIN.ROW_HOOKS
    except ImportError:  # built without a C compiler: the numpy twins play
        LOOPS = None
    else:
        use_compiled(LOOPS.CORE_TWINS)


def row_only(rules: Rules, names: tuple[str, ...]) -> bool:
    """Whether the compiled loop may play ``names``' modules (no batch twin) by row twins.

    Each must wrap only hooks that have row forms, with compiled twins, and have no part,
    extension point or action of its own: nothing the batch's numpy paths would run. Whether
    its twins do have row forms is known once the loop's view links them (`plain`).
    """
    if LOOPS is None:
        return False
    for module in rules.modules:
        if module.name not in names:
            continue
        hooks = {hook for hook in HOOKS if getattr(module, hook) is not None}
        if (
            module.compiled is None
            or not hooks <= ROW_HOOKS
            or module.part is not None
            or module.provides
            or module.extends
            or module.action_types
        ):
            return False
    return True


def plain(table: BatchTable) -> bool:
    """Whether the compiled loop plays the table's rules.

    It plays where built and chosen, and where every module's twin of a hook of the turn has a
    row form (`compiled_plugin.row_table`: the loop calls them in C), the parts those read in
    their slots (`part_columns`); a game's set-up and its scores stay with the batch twins.
    """
    view: Any = table.compiled
    return view is not None and bool(view.on_rows)


def part_columns(
    rules: Rules, table: BatchTable, parts: tuple[tuple[PartKey[Any], PartTwin | None], ...]
) -> tuple[NDArray[np.int16], dict[str, dict[str, NDArray[Any]]] | None]:
    """The parts' slots of a table (``Cols.slots``), and the twins' arrays as views of them.

    A part that modules' row twins read (its `compiled_plugin.PartSlots` in the rules' row
    table) lives in the slots, so the compiled loop's row twins and the batch twins (set-up,
    scores, observation, conversion) read one copy: each array its twin declares is a view
    of the slots its codec names (``columns``). The views are None where a name or shape does
    not match the twin's own arrays: then the loop does not play (the twins keep their arrays).
    A twin's arrays of integers and booleans become ``int16`` views: its functions must treat
    them as numbers (a boolean as 0 or 1). The slots are laid only where the loop can play.
    """
    hooks = PLUGIN.row_table(rules)
    if not hooks.complete:
        return np.zeros((table.size, 1), dtype=np.int16), None  # the twins keep their arrays
    width, firsts = hooks.slot_layout(table.players)
    slots = np.zeros((table.size, max(width, 1)), dtype=np.int16)
    twins = {key.name: twin for key, twin in parts}
    views: dict[str, dict[str, NDArray[Any]]] = {}
    for first, codec in zip(firsts, hooks.codecs, strict=True):
        if codec is None:
            continue
        twin = twins.get(codec.key.name)
        own = twin.arrays(table) if twin is not None else {}
        columns = codec.columns(table.players)
        arrays = {
            name: slots[:, first + at]
            if count is None
            else slots[:, first + at : first + at + count]
            for name, (at, count) in columns.items()
        }
        if (
            twin is None
            or set(arrays) != set(own)
            or any(
                arrays[name].shape != own[name].shape or own[name].dtype.kind not in "bi"
                for name in own
            )
        ):
            return slots, None
        views[codec.key.name] = arrays
    return slots, views


class SlotPart:
    """A part read and written through its codec (`compiled_plugin.PartSlots`).

    Its slots are the table's (``Cols.slots``): `state_of` and `write_row` read and write it
    as they would a batch twin's arrays.
    """

    def __init__(
        self,
        codec: Any,  # noqa: ANN401 (a compiled_plugin.PartSlots)
        slots: NDArray[np.int16],
        first: int,
        players: int,
    ) -> None:
        self.codec, self.slots, self.players = codec, slots, players
        self.columns = slice(first, first + codec.width(players))

    def read(self, _table: BatchTable, row: int) -> Any:  # noqa: ANN401 (a module's part)
        """The part in ``row``."""
        return self.codec.read(self.slots[row, self.columns], self.players)

    def write(self, _table: BatchTable, row: int, value: object) -> None:
        """``value`` into ``row`` (nothing changes where it does not fit)."""
        self.codec.write(value, self.slots[row, self.columns], self.players)


def slot_parts(
    rules: Rules, table: BatchTable, slots: NDArray[np.int16]
) -> tuple[tuple[PartKey[Any], SlotPart], ...] | None:
    """Every part of the rules as a `SlotPart`, in the layout's order.

    None where a part has no codec (no row twin reads it: its batch twin keeps it).
    """
    hooks = PLUGIN.row_table(rules)
    _width, firsts = hooks.slot_layout(table.players)
    if any(codec is None for codec in hooks.codecs):
        return None
    return tuple(
        (codec.key, SlotPart(codec, slots, first, table.players))
        for first, codec in zip(firsts, hooks.codecs, strict=True)
    )


def fused_table(  # noqa: PLR0913 (the arrays the loops write)
    table: BatchTable,
    *,
    moves: NDArray[np.int32],
    turns: NDArray[np.int32],
    grill_claim: NDArray[np.int64],
    victim: NDArray[np.int64],
    slots: NDArray[np.int16],
    slotted: bool,
    encoding: Encoding,
) -> object:
    """The compiled loops' view of a batch's arrays: its table and the engine's own."""
    encode = encoding.encode
    rules = table.rules
    hooks = PLUGIN.row_table(rules)
    _width, firsts = hooks.slot_layout(table.players)
    return LOOPS.Table(
        table,
        moves,
        turns,
        grill_claim,
        victim,
        encode(STOP),
        encode(Steal(0)),
        hooks,
        slots,
        slotted,
        np.array(firsts or [0], dtype=np.int64),  # (never empty: a C array to point at)
        np.array(hooks.action_layout(rules, table.players), dtype=np.int64),
    )
