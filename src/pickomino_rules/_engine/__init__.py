"""The engine: the step machine, its guards, and the one place its backend is chosen.

Two backends play the same rules. The *pure* one is the reference: the step machine in
[`steps`][pickomino_rules._engine.steps] and the core's hooks in
[`turn`][pickomino_rules.turn]. The *compiled* one (``_kernel`` with ``_boundary``,
``_row`` and ``_observe``, built with the package where a C compiler was found) plays the
rules on a one-row table through the compiled rules' row functions (``rows.pxd``, the batch's
too) and hands every call it does not take to the pure engine. Both put the same core hooks
(``turn``'s) innermost in every chain; a module's compiled twins are folded in under the
compiled backend only.

The backend is chosen here, once, when the package is first imported: the compiled one when
it was built, unless ``PICKOMINO_PURE=1`` is set. Nothing is rewritten afterwards:
[`game`][pickomino_rules.game] takes the chosen backend's transitions, and
[`compose`][pickomino_rules.plugin.compose] puts the chosen backend's core hooks innermost in
every chain, whichever module is imported first.
"""

from __future__ import annotations

import os
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import attrs

from pickomino_rules import turn
from pickomino_rules._engine import observation, steps

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["ACTIVE", "PURE", "Backend", "compiled_backend"]


def _read_only(hooks: Mapping[str, Callable[..., Any]]) -> Mapping[str, Callable[..., Any]]:
    return MappingProxyType(dict(hooks))


@attrs.frozen
class Backend:
    """One way to run the engine: its transitions and the core hooks innermost in each chain.

    Attributes:
        name: ``"compiled"`` or ``"pure"``.
        reason: Why this backend is the one in use (or could be).
        legal_actions: ``legal_actions(rules, state)``.
        apply: ``apply(rules, state, move)``.
        sample_chance: ``sample_chance(rules, state, rng)``.
        stop_claims: ``stop_claims(rules, state)``.
        stop_outcomes: ``stop_outcomes(rules, state)``.
        core_hooks: The innermost function of each hook's chain, by hook name.
        fallbacks: The calls this backend handed to the pure engine in this process, by
            function name (see the kernel's ``fallbacks``): over legal play, none.
        observe_into: ``observe_into(layout, rules, state, me, out)``, the encoding's
            observation (`observation.observe_into`).
        mask_into: ``mask_into(layout, rules, state, out)``, its legal-action mask.
        on_rows: ``on_rows(rules)``: whether it plays the turns of ``rules`` on the compiled
            rules' rows (the one compiled layer: every module wrapping a hook of the turn
            brings a row twin). The pure backend never does.
    """

    name: str
    reason: str
    legal_actions: Callable[..., Any]
    apply: Callable[..., Any]
    sample_chance: Callable[..., Any]
    stop_claims: Callable[..., Any]
    stop_outcomes: Callable[..., Any]
    core_hooks: Mapping[str, Callable[..., Any]] = attrs.field(converter=_read_only)
    fallbacks: Callable[[], dict[str, int]] = attrs.field(default=dict, kw_only=True)
    observe_into: Callable[..., None] = attrs.field(default=observation.observe_into, kw_only=True)
    mask_into: Callable[..., None] = attrs.field(default=observation.mask_into, kw_only=True)
    on_rows: Callable[[Any], bool] = attrs.field(default=lambda _rules: False, kw_only=True)

    @property
    def compiled(self) -> bool:
        """Whether this is the compiled backend."""
        return self.name == "compiled"


PURE = Backend(
    name="pure",
    reason="the reference, in Python",
    legal_actions=steps.legal_actions,
    apply=steps.apply,
    sample_chance=steps.sample_chance,
    stop_claims=steps.stop_claims,
    stop_outcomes=steps.stop_outcomes,
    core_hooks={hook: getattr(turn, hook) for hook in turn.HOOKS},
)
"""The pure-Python engine: the reference every other backend mirrors."""


def compiled_backend() -> Backend | None:
    """The compiled backend, or None where the kernel was not built (no C compiler)."""
    try:  # (built where possible; all or none: they cimport each other)
        from pickomino_rules._engine import (  # noqa: PLC0415
            _boundary,
            _kernel,
            _observe,
        )
    except ImportError:
        return None
    return Backend(
        name="compiled",
        reason="the compiled kernel was built with the package",
        legal_actions=_kernel.legal_actions,
        apply=_kernel.apply,
        sample_chance=_kernel.sample_chance,
        stop_claims=_kernel.stop_claims,
        stop_outcomes=_kernel.stop_outcomes,
        core_hooks=PURE.core_hooks,
        fallbacks=_boundary.fallbacks,
        observe_into=_observe.observe_into,
        mask_into=_observe.mask_into,
        on_rows=_boundary.on_rows,
    )


def _choose() -> Backend:
    """The backend this process runs: compiled where built, unless ``PICKOMINO_PURE=1``."""
    if os.environ.get("PICKOMINO_PURE", "") not in ("", "0"):
        return attrs.evolve(PURE, reason="PICKOMINO_PURE=1 is set")
    compiled = compiled_backend()
    if compiled is None:
        return attrs.evolve(PURE, reason="the compiled kernel was not built (no C compiler?)")
    return compiled


ACTIVE: Backend = _choose()
"""The backend in use in this process, chosen once at import."""
