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
from pickomino_rules.plugin import HOOKS

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from pickomino_rules.batch_plugin import BatchTable
    from pickomino_rules.encoding import Encoding
    from pickomino_rules.rules import Rules

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


def plain(rules: Rules, table: BatchTable) -> bool:
    """Whether the compiled loop plays these rules.

    It plays where built and chosen, and where the modules wrap no hook but with row twins
    (`compiled_plugin.RowTwin`'s row form, which the loop calls in C).
    """
    view: Any = table.compiled
    return (
        view is not None
        and rules.wrapped <= ROW_HOOKS
        and view.on_rows
        and rules.pending_actions is None
        and not rules.layout.parts
        and table.kinds == 1
    )


def fused_table(  # noqa: PLR0913 (the arrays the loops write)
    table: BatchTable,
    *,
    moves: NDArray[np.int32],
    turns: NDArray[np.int32],
    grill_claim: NDArray[np.int64],
    victim: NDArray[np.int64],
    encoding: Encoding,
) -> object:
    """The compiled loops' view of a batch's arrays: its table and the engine's own."""
    encode = encoding.encode
    rules = table.rules
    return LOOPS.Table(
        table,
        moves,
        turns,
        grill_claim,
        victim,
        encode(STOP),
        encode(Steal(0)),
        PLUGIN.row_table(rules),
    )
