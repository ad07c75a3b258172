"""The compiled code's few hand-counted references hold (issue: never crash).

The compiled modules let Cython own every reference but two: the kernel's ``_put`` and
``compiled_plugin.with_part`` fill the slots of a state they have just allocated (attrs'
frozen slots have no C setter). These tests keep states whose fields nothing else holds and
read them again after the garbage around them is gone and its memory reused: a missing
reference shows as a crash or as a changed field. The kernel's compiled scores (retired
since) once handed its tuple a boxed integer that Cython freed at once (a score above 256,
past Python's small integers): that case, now in the compiled scores that remain (a
module's twin), runs in a subprocess, since a use-after-free ends the process. CI runs this file,
and the engine, batch and hostile suites, with the modules built with AddressSanitizer too
(``.ci/memcheck``; docs page "Guarantees").
"""

from __future__ import annotations

import gc
import random
import subprocess
import sys
import textwrap

import attrs
import pytest

from pickomino_rules import GameState, Phase, available_variants, new_game
from pickomino_rules._engine import ACTIVE, compiled_backend
from support import option_sets

COMPILED = compiled_backend()
needs_kernel = pytest.mark.skipif(COMPILED is None, reason="the compiled kernel was not built")

SCORES_ABOVE_SMALL_INTS = textwrap.dedent(
    """
    import gc
    from pickomino_rules import new_game
    from pickomino_rules.variants import grilled_worms
    from pickomino_rules.variants.twins._compiled import GrilledWormsScores

    rules, state = new_game("extended", players=3)
    stacks = ((21, 22, 23), (24,), ())
    worms = {tile: 1000 + tile for tile in range(21, 37)}
    expected = tuple(sum(worms[tile] for tile in stack) for stack in stacks)

    def scores(rules, state):  # the scores a module inside might give, past the small ints
        return tuple([sum(worms[tile] for tile in stack) for stack in stacks])

    twin = GrilledWormsScores(scores, grilled_worms._scores)  # no tokens held: unchanged
    kept = [twin(rules, state) for _ in range(2000)]
    gc.collect()
    churn = [tuple(range(n, n + 40)) for n in range(20000)]  # reuses freed memory
    assert all(found == expected for found in kept), (kept[0], expected)
    print(kept[-1])
    """
)


@needs_kernel
def test_c13_scores_above_256_are_counted_without_ending_the_process() -> None:
    """C13 in compiled code: totals past Python's cached small integers stay alive and right."""
    done = subprocess.run(  # noqa: S603 (this interpreter, this file's own script)
        [sys.executable, "-X", "dev", "-c", SCORES_ABOVE_SMALL_INTS],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.strip() == "(3066, 1024, 0)"


def _fingerprint(state: GameState) -> str:
    """Every field of ``state`` read and written out (a freed field crashes or changes it)."""
    fields = attrs.astuple(state, recurse=False)[:-1]  # (the layout: rules' own, shared)
    return f"{fields!r} {id(state.layout)}"


@pytest.mark.parametrize(
    ("variant", "options"),
    [(variant, options) for variant in available_variants() for options in option_sets(variant)],
)
def test_states_built_in_c_own_every_field(variant: str, options: dict[str, object]) -> None:
    """Every state of random games, kept alone, reads the same after its makers are gone.

    The engine in use builds them (the kernel's ``_new_state`` and the twins' ``with_part``
    where compiled); the pure engine runs the same check, which must hold there trivially.
    """
    kept: list[tuple[GameState, str]] = []
    for seed in range(2):
        rules, state = new_game(variant, players=2 + seed, options=options)
        rng = random.Random(seed)
        while state.phase is not Phase.GAME_OVER and len(kept) < 1500 * (seed + 1):
            if state.phase is Phase.ROLL:
                move: object = ACTIVE.sample_chance(rules, state, rng)
            else:
                move = rng.choice(ACTIVE.legal_actions(rules, state))
            state = ACTIVE.apply(rules, state, move)
            kept.append((state, _fingerprint(state)))
    del state
    gc.collect()
    churn = [tuple(range(n, n + 20)) for n in range(50_000)]  # reuses whatever was freed
    assert len(churn) == 50_000
    changed = [seen for state, seen in kept if _fingerprint(state) != seen]
    assert changed == []
