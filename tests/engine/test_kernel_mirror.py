"""The compiled kernel is a declared mirror: its map of twins, its declines, whole turns.

``MIRRORS`` of each compiled module of the engine names the pure twin of each compiled
function: the kernel's the public steps (``pickomino_rules._engine.steps``), ``_observe``'s
the encoding. The kernel plays the other steps on the rules' row (``ON_ROWS`` says where:
``rows.pxd``'s row functions, named in the batch's ``ROWS``). Here the map is checked both
ways (every pure step named, every name present), the kernel is shown to decline nothing
over legal play, and every node of whole turns on several boards (as OpenSpiel's
``test_consistent``), each read into the row afresh, gives the same legal moves, claims,
stop outcomes and next states on both backends.
"""

from __future__ import annotations

import inspect
import random
import warnings
from typing import TYPE_CHECKING

import pytest

from pickomino_rules import Phase, available_variants, get_rules, new_game, turn
from pickomino_rules._engine import PURE, compiled_backend, observation, steps
from pickomino_rules.batch._mirrors import ROW_PLUMBING, ROWS
from pickomino_rules.dice import NO_DICE_SET_ASIDE
from pickomino_rules.plugin import _compose
from support import option_sets, turn_starts

if TYPE_CHECKING:
    from pickomino_rules import GameState, Rules
    from pickomino_rules._engine import Backend

try:
    from pickomino_rules._engine import _boundary, _kernel, _observe
except ImportError:  # built without a C compiler: nothing to mirror
    _boundary = _kernel = _observe = None  # type: ignore[assignment]

COMPILED = compiled_backend()
needs_kernel = pytest.mark.skipif(COMPILED is None, reason="the compiled kernel was not built")

BOARDS: list[tuple[str, dict[str, object]]] = [
    ("classic", {}),
    ("classic", {"optional_steal": False, "short_game": True}),
    ("extended", {}),
    ("extrawurm", {"flip_on_empty_bust": True}),
]


@needs_kernel
def test_the_map_of_twins_is_complete() -> None:
    """Every step of ``steps`` is mirrored, played on the row or declared; both ways.

    Each compiled module of the engine maps its own twins: the kernel the public steps,
    ``_observe`` the encoding; each name is found in its module. The kernel's ``ON_ROWS``
    names the row function playing each other step, one the batch's ``ROWS`` maps to it.
    """
    maps = {_kernel: steps, _observe: observation}
    for module, reference in maps.items():
        for name, twin in module.MIRRORS.items():
            assert hasattr(module, name), (module.__name__, name)
            assert twin.__module__ == reference.__name__, (module.__name__, name)
    own = {
        name
        for name, value in vars(steps).items()
        if (inspect.isfunction(value) or inspect.isclass(value))
        and value.__module__ == steps.__name__
        and not name.startswith("_")
    }
    twins = {twin.__name__ for twin in _kernel.MIRRORS.values()}
    assert own - twins == set(_kernel.ON_ROWS), "a step without a twin, or a twin of nothing"
    for name, where in _kernel.ON_ROWS.items():
        function = where.split(":")[0].split(",")[0].removeprefix("rows.")
        if function in ROWS:  # a row function: one mirroring this step (or plumbing)
            assert ROWS[function] == f"steps.{name}", (name, where)
        else:
            assert function in ROW_PLUMBING or not where.startswith("rows."), (name, where)
    # the encoding's observation and mask: each function of ``observation`` has its twin
    filled = {
        name for name in observation.__all__ if inspect.isfunction(getattr(observation, name))
    }
    assert filled == set(_observe.MIRRORS)
    for name in ("legal_actions", "apply", "sample_chance", "stop_claims", "stop_outcomes"):
        assert getattr(_kernel, name).__wrapped__ is getattr(steps, name)


EVERY_VARIANT = [
    (variant, options)
    for variant in available_variants()
    for options in option_sets(variant, golden_faces="12345w")
]


@needs_kernel
@pytest.mark.parametrize(("variant", "options"), EVERY_VARIANT)
def test_the_kernel_falls_back_on_nothing_in_legal_play(
    variant: str, options: dict[str, object]
) -> None:
    """Random legal games of every variant: no call is handed to a pure twin, nothing warns."""
    backend = COMPILED
    assert backend is not None
    _boundary.reset_declined()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for seed in range(6):
            rules, state = new_game(_rules(variant, options, backend), players=2 + seed % 4)
            rng = random.Random(seed)
            while state.phase is not Phase.GAME_OVER:
                backend.legal_actions(rules, state)
                if state.phase is Phase.ROLL:
                    move: object = backend.sample_chance(rules, state, rng)
                else:
                    move = rng.choice(backend.legal_actions(rules, state))
                    backend.stop_claims(rules, state)
                    if state.phase is Phase.DECIDE and not _pending(rules, state):
                        backend.stop_outcomes(rules, state)
                state = backend.apply(rules, state, move)
    assert _boundary.declined() == 0
    assert _boundary.fallbacks() == {}


def _pending(rules: Rules, state: GameState) -> bool:
    return rules.pending_actions is not None and bool(rules.pending_actions(rules, state))


def _rules(variant: str, options: dict[str, object], backend: Backend) -> Rules:
    """The variant's rules, composed with ``backend``'s core hooks innermost."""
    registered = get_rules(variant, options)
    return _compose(registered.modules, registered.name, registered.options, backend)


def _turn_starts(
    variant: str, options: dict[str, object], seed: int, count: int
) -> list[GameState]:
    """``count`` boards: the chance nodes that start turns of a random game, spread out."""
    starts = turn_starts(variant, options, seed)
    step = max(1, len(starts) // count)
    return starts[::step][:count]


def _within_turn(start: GameState, state: GameState) -> bool:
    """Whether ``state`` is still a node of the turn that ``start`` begins."""
    return (
        state.player == start.player
        and state.phase in {Phase.ROLL, Phase.CHOOSE, Phase.DECIDE}
        and not (state.phase is Phase.ROLL and state.set_aside == NO_DICE_SET_ASIDE)
    )


@needs_kernel
@pytest.mark.parametrize(("variant", "options"), BOARDS)
def test_every_node_of_whole_turns_is_the_same_on_both_backends(
    variant: str, options: dict[str, object]
) -> None:
    """As OpenSpiel's ``test_consistent``: every node of a turn, every move, both backends."""
    compiled = COMPILED
    assert compiled is not None
    pure_rules = _rules(variant, options, PURE)
    compiled_rules = _rules(variant, options, compiled)
    assert pure_rules.wrapped == compiled_rules.wrapped
    for hook in set(turn.HOOKS) - pure_rules.wrapped - {"pending_actions"}:
        assert getattr(pure_rules, hook) is getattr(compiled_rules, hook) is getattr(turn, hook)
    # (with no module's pending_actions the rules hold None: nothing to call)
    _boundary.reset_declined()
    nodes = 0
    for start in _turn_starts(variant, options, seed=len(variant), count=2):
        seen = {start}
        frontier = [start]
        while frontier:
            state = frontier.pop()
            nodes += 1
            pure_moves = PURE.legal_actions(pure_rules, state)
            compiled_moves = compiled.legal_actions(compiled_rules, state)
            assert pure_moves == compiled_moves, state
            if state.phase is Phase.DECIDE:
                assert PURE.stop_claims(pure_rules, state) == compiled.stop_claims(
                    compiled_rules, state
                )
                if not _pending(pure_rules, state):
                    assert PURE.stop_outcomes(pure_rules, state) == compiled.stop_outcomes(
                        compiled_rules, state
                    )
            for pure_move, compiled_move in zip(pure_moves, compiled_moves, strict=True):
                after = PURE.apply(pure_rules, state, pure_move)
                assert compiled.apply(compiled_rules, state, compiled_move) == after, (
                    state,
                    pure_move,
                )
                if after not in seen and _within_turn(start, after):
                    seen.add(after)
                    frontier.append(after)
    assert nodes > 1000
    assert _boundary.declined() == 0
