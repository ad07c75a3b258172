"""The batch engine's map of twins: each vectorised function and the reference it mirrors.

The batch engine is a second implementation of the rules, held like the compiled kernel:
``MIRRORS`` names the reference twin of each of its functions, the step machine's
(``BatchGames``' methods, twins of `_engine.steps`) and the core turn's (``_core``, twins of
`turn`), with the compiled loops' (``_fused``) and the row functions they call (``ROWS``,
``_engine/rows.pxd``); ``UNMIRRORED`` names the reference functions it needs no twin of, and
why. The tests check the map both ways and drive both engines with the same dice
(``tests/batch``). A rule module's twin is checked against the module itself when a batch is
made (``_compose``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pickomino_rules import turn
from pickomino_rules.batch import _core
from pickomino_rules.batch._engine import BatchGames
from pickomino_rules.batch._results import _winners
from pickomino_rules.batch_plugin import BatchTable

if TYPE_CHECKING:
    from collections.abc import Callable

MIRRORS: dict[Callable[..., Any], str] = {
    # the step machine (when the hooks run)
    BatchGames.legal_mask: "steps.legal_actions",
    BatchGames._legal_mask: "steps.derive",  # noqa: SLF001
    BatchGames._decide_actions: "steps.decide_actions",  # noqa: SLF001
    BatchGames._claim_of_stop: "steps.claim_of_stop",  # noqa: SLF001
    BatchGames._stop_claims: "steps.stop_claims",  # noqa: SLF001
    BatchGames.step: "steps.apply",
    BatchGames._play: "steps.apply",  # noqa: SLF001 (the decisions, before the dice)
    BatchGames._take: "steps.apply",  # noqa: SLF001 (its branch for a take)
    BatchGames._decide: "steps.decide",  # noqa: SLF001
    BatchGames._settle: "steps.settle",  # noqa: SLF001
    BatchGames._after_roll: "steps.after_roll",  # noqa: SLF001
    BatchGames._finish_turn: "steps.finish_turn",  # noqa: SLF001
    BatchGames._pass_dice: "steps.pass_dice",  # noqa: SLF001
    BatchGames._start_turn: "steps.start_turn",  # noqa: SLF001
    BatchGames._roll_dice: "steps.roll",  # noqa: SLF001 (and sample_chance: the draw)
    BatchGames._roll_kinds: "steps.roll",  # noqa: SLF001 (several kinds of dice, in the loop)
    BatchGames.scores: "result.scores",
    BatchGames.scores_after: "result.scores",  # of steps.apply's state, the games unchanged
    _winners: "result.result",
    # the core turn (what the hooks do)
    **{getattr(_core, hook): f"turn.{hook}" for hook in turn.HOOKS},
    BatchTable.return_tile: "turn.return_tile",
    BatchTable.turn_face_down: "turn.turn_face_down",
}
"""Each batch function's reference twin, by its name in ``pickomino_rules`` (the engine's
steps are ``steps.NAME``, in `_engine.steps`, which only the core may import)."""

try:
    from pickomino_rules.batch import _fused  # type: ignore[attr-defined]
except ImportError:  # built without a C compiler: only the numpy twins
    _fused = None
else:
    MIRRORS.update(
        {
            # the compiled loop for rules no module changes
            _fused.decide: "steps.apply",  # and steps.decide, the core's hooks inlined
            _fused.land: "steps.after_roll",  # steps.roll, then a bust (C5)
            _fused.landed: "steps.after_roll",  # a bust (C5), every kind's dice shown
            _fused.derive: "steps.derive",  # steps.decide_actions and the claims inlined
            _fused.bounds: "steps.sample_chance",  # where a pool's rolls start, how many
            _fused.show: "steps.roll",
            _fused.turn_over: "steps.finish_turn",
            _fused.pass_on: "steps.pass_dice",  # and steps.start_turn
            _fused.decide_actions: "steps.decide_actions",
            _fused.scores: "turn.scores",  # and the modules' row twins of it (C13)
            _fused.observe: "observation.observe_into",  # the parts' by their row twins
            # the compiled core twins, innermost in every batch's chains
            **{twin: f"turn.{hook}" for hook, twin in _fused.CORE_TWINS.items()},
        }
    )

ROWS: dict[str, str] = {
    # the rules on C numbers (the kernel's twins call them too)
    "offered_faces": "turn.offered_faces",
    "stop_points": "turn.stop_total",
    "can_roll": "turn.can_roll",
    # the core hooks
    "roll_faces": "turn.roll_actions",  # the faces offered, as bits
    "roll_actions": "turn.roll_actions",  # the same, into a mask
    "set_aside": "turn.set_aside",
    "stop_total": "turn.stop_total",
    "claims": "turn.claims",
    "take_tile": "turn.take_tile",
    "return_tile": "turn.return_tile",
    "turn_face_down": "turn.turn_face_down",
    "bust": "turn.bust",
    "scores": "turn.scores",
    # the encoding's observation (its core segments; the parts' by their observers' twins)
    "observe": "observation.observe_into",
    "seat_of": "observation.observe_into",  # a player's seat as ``me`` sees it
    # the steps
    "rolls_again": "steps.decide_actions",  # its roll: C6, as turn.can_roll says
    "decide_actions": "steps.decide_actions",
    "derive": "steps.derive",
    "start_turn": "steps.start_turn",
    "pass_dice": "steps.pass_dice",
    "turn_over": "steps.finish_turn",  # its first part: the turn counted, shown over
    "finish_turn": "steps.finish_turn",
    "decide": "steps.decide",
    "show": "steps.roll",  # the dice shown
    "after_roll": "steps.after_roll",  # with steps.roll's phase and count
    "busts": "steps.after_roll",  # its test and bust, without steps.roll's part
    "settle": "steps.settle",
}
"""The row functions of ``_engine/rows.pxd`` (``cdef inline``: C, not Python objects) and the
reference twin of each; the compiled loops above call them. ``ROW_PLUMBING`` names the rest."""

ROW_PLUMBING = frozenset(
    {
        "push",
        "pop",
        "part_at",
        "other_part_at",
        "run_claims",
        "run_bust",
        "run_set_aside",
        "run_pending",
        "run_apply",
        "run_point",
        "run_change",
        "run_stop_total",
        "run_take_tile",
        "run_roll_actions",
        "run_state",
        "run_scores",
        "run_observe",
    }
)
"""Row functions of ``_engine/rows.pxd`` that are no rule: a stack's top put on, taken off;
a module's slots found; a hook's chain of row twins called (the order of ``Rules``' composed
hooks and extension points; the twins are named where they are made)."""

UNMIRRORED: dict[str, str] = {
    "steps.sample_chance": "drawn in BatchGames._roll_dice from the same exact roll weights"
    " (and in the compiled loop's bounds)",
    "steps.pending": "a cache of pending decisions: the batch asks the chain each time",
    "steps.claims_for": "a cache of claims by total: the batch asks the chain each time",
    "steps.steal": "shares one Steal object per victim: the batch has action numbers",
    "steps.stop_outcomes": "every way to end a turn at once, for a solver: the batch applies"
    " the one stop or steal chosen (``steps.decide``'s twin)",
    "steps.Board": "the claims cache's record",
    "steps.Derived": "the derive cache's record",
    "steps.Pending": "the pending cache's record",
}
"""Reference steps the batch needs no twin of, and why."""

PLUMBING = frozenset(
    {
        "_check",
        "_observers",
        "_row",
        "_select",
        "_to_move",
        "_finish",
        "_outcome",
        "_snapshot",
        "_restore",
        "_per_row",
        "_rolled",
        "_scores_of",
        "_through_codecs",
    }
)
"""``BatchGames``' own methods that are no rule: arguments, reports, conversions."""
