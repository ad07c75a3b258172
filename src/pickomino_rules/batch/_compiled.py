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

if TYPE_CHECKING:
    from pickomino_rules.batch._engine import BatchGames
    from pickomino_rules.batch_plugin import BatchTable
    from pickomino_rules.rules import Rules

LOOPS: Any = None
"""The compiled loops' module, where built and chosen; else None (the numpy twins play)."""
if ACTIVE.compiled:  # the backend the engine chose at import: the batch plays the same one
    try:
        LOOPS = importlib.import_module("pickomino_rules.batch._fused")
    except ImportError:  # built without a C compiler: the numpy twins play
        LOOPS = None
    else:
        use_compiled(LOOPS.CORE_TWINS)


def plain(rules: Rules, table: BatchTable) -> bool:
    """Whether the compiled loop plays these rules: built, chosen, and no module's hooks."""
    return (
        table.compiled is not None
        and not rules.wrapped
        and rules.pending_actions is None
        and not rules.layout.parts
        and table.kinds == 1
    )


def fused_table(games: BatchGames) -> object:
    """The compiled loops' view of the batch's arrays."""
    encode = games.encoding.encode
    return LOOPS.Table(
        games.table,
        games._moves,  # noqa: SLF001 (the batch's own arrays)
        games._turns,  # noqa: SLF001
        games._grill_claim,  # noqa: SLF001
        games._victim,  # noqa: SLF001
        encode(STOP),
        encode(Steal(0)),
    )
