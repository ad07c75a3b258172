"""Helpers for tests: scripted turns, and the shipped invariant check."""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import sys
import textwrap
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from pickomino_rules import (
    GameState,
    Phase,
    RollOutcome,
    Rules,
    apply,
    legal_actions,
    new_game,
    parse_move,
    registry,
    sample_chance,
    stop_claims,
    stop_outcomes,
)
from pickomino_rules._engine import steps
from pickomino_rules.testing import check_state

if TYPE_CHECKING:
    import subprocess
    from collections.abc import Callable, Iterable, Iterator, Mapping

__all__ = [
    "FENCE",
    "PAGES",
    "ROOT",
    "Hang",
    "answered_within",
    "as_in_a_terminal",
    "blocks",
    "check_invariants",
    "checked_game",
    "installed_plugin",
    "is_python",
    "reaped",
    "run",
]

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([*(ROOT / "docs").glob("*.md"), ROOT / "README.md"])
"""The pages whose examples are tested: every docs page, and the README."""
FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```\s*$", re.MULTILINE | re.DOTALL)


def blocks(page: Path) -> list[tuple[str, str]]:
    """Each fenced block's info string and body, in order."""
    return [(m["info"].strip(), m["body"]) for m in FENCE.finditer(page.read_text())]


def is_python(info: str) -> bool:
    """A block the doc tests run (``notest`` blocks need a cluster or a network)."""
    return (info == "python" or info.startswith("{.python")) and "notest" not in info


def run(rules: Rules, state: GameState, script: Iterable[str]) -> GameState:
    """Apply moves given as text: rolls like ``"444123ww"`` and actions like ``"take 4"``."""
    for text in script:
        state = apply(rules, state, parse_move(rules, text))
    return state


def option_sets(variant: str, golden_faces: str = "1234ww") -> list[dict[str, object]]:
    """The defaults, every yes-or-no option flipped, and other values of the rest too."""
    flipped: dict[str, object] = {}
    others: dict[str, object] = {}
    for option in registry.get_variant(variant).options:
        if isinstance(option.default, bool):
            flipped[option.name] = not option.default
        elif option.name == "low_tile_worms":
            others[option.name] = (2, 0)
        elif option.name == "golden_die_faces":
            others[option.name] = golden_faces
    return [{}, flipped, {**flipped, **others}]


def turn_starts(variant: str, options: Mapping[str, object], seed: int) -> list[GameState]:
    """The chance nodes that start the turns of a random game of ``2 + seed % 3`` players."""
    import random  # noqa: PLC0415

    from pickomino_rules import Phase, legal_actions, new_game, sample_chance  # noqa: PLC0415
    from pickomino_rules.dice import NO_DICE_SET_ASIDE  # noqa: PLC0415

    rules, state = new_game(variant, players=2 + seed % 3, options=options)
    rng = random.Random(seed)
    starts: list[GameState] = []
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROLL and state.set_aside == NO_DICE_SET_ASIDE:
            starts.append(state)
            move: object = sample_chance(rules, state, rng)
        elif state.phase is Phase.ROLL:
            move = sample_chance(rules, state, rng)
        else:
            move = rng.choice(legal_actions(rules, state))
        state = apply(rules, state, move)  # type: ignore[arg-type]
    return starts


def check_invariants(rules: Rules, state: GameState) -> None:
    """Invariants of every reachable state: the conformance kit's own check."""
    check_state(rules, state)


def checked_game(
    rules: Rules,
    players: int,
    seed: int,
    *,
    moved: Callable[[object, bool], None] | None = None,
    copies: bool = False,
) -> int:
    """A random game on the engine in use, each call checked against the pure engine's: the
    legal moves, a decision's claims and ways to end the turn, each next state. How many
    moves the compiled one-row table answered (``_row.played()``; 0 on the pure engine).

    ``moved(move, answered)`` sees each move, and whether the row answered it; ``copies``
    plays each roll as an equal new object rather than the chance table's own.
    """
    try:
        from pickomino_rules._engine._row import played  # noqa: PLC0415 (built or not)
    except ImportError:

        def played() -> int:
            return 0

    _rules, state = new_game(rules, players=players)
    rng = random.Random(seed)
    answered = 0
    while state.phase is not Phase.GAME_OVER:
        legal = legal_actions(rules, state)
        assert legal == steps.legal_actions(rules, state), state
        if state.phase is Phase.DECIDE:  # the claims a stop or steal takes, as the API gives
            assert stop_claims(rules, state) == steps.stop_claims(rules, state), state
            assert _answer(stop_outcomes, rules, state) == _answer(
                steps.stop_outcomes, rules, state
            ), state
        move = sample_chance(rules, state, rng) if state.phase is Phase.ROLL else rng.choice(legal)
        if copies and isinstance(move, RollOutcome):
            move = RollOutcome(move.kinds, move.counts)
        before = played()
        after = apply(rules, state, move)
        assert after == steps.apply(rules, state, move), (state, move)
        answered += played() > before
        if moved is not None:
            moved(move, played() > before)
        state = after
    return answered


def _answer(function: Callable[..., object], *args: object) -> object:
    """What ``function`` gives, or the type and message of what it raises."""
    try:
        return function(*args)
    except Exception as error:  # noqa: BLE001 (any error must be the same both ways)
        return type(error), str(error)


TINY_VARIANT = """
from pickomino_rules import Components, RuleModule, Variant, WHITE

def _tiny(components):
    return Components(tiles=(5, 10), worms=((5, 1), (10, 2)), die_kinds=(WHITE,), dice=(2,))

TINY = Variant(name="tiny", doc="Two tiles, two dice.", options=(),
               build=lambda options: [RuleModule(name="tiny", configure=_tiny)])
"""
"""A third-party variant module: 'tiny', two tiles and two dice (for `installed_plugin`)."""


@contextmanager
def installed_plugin(folder: Path, source: str) -> Iterator[None]:
    """A third-party distribution outside the source tree, registering ``tiny_variant:TINY``
    as variant 'tiny' by entry point, importable while the block runs."""
    (folder / "tiny_variant.py").write_text(textwrap.dedent(source))
    info = folder / "tiny_variant-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-variant\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pickomino_rules.variants]\ntiny = tiny_variant:TINY\n")
    sys.path.insert(0, str(folder))
    registry._installed.cache_clear()  # noqa: SLF001 (the lookup is cached per process)
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("tiny_variant", None)
        registry._installed.cache_clear()  # noqa: SLF001


def as_in_a_terminal() -> None:
    """``preexec_fn`` for a command a test stops with Ctrl-C: SIGINT at its default.

    A shell without job control (``(command &)``, some CI runners) starts commands with
    SIGINT ignored, and children inherit that. Python then never raises KeyboardInterrupt
    (rightly: the command was started not to be interrupted), and a test that sends Ctrl-C
    would wait on a run that goes on.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def reaped(process: subprocess.Popen[str], *, group: bool = False) -> Iterator[None]:
    """Kill ``process`` (with its process ``group``, if it leads one) when the block ends.

    A failing test must not leave a command running: the leftover would load the machine
    for every later test. Check inside the block whatever should hold of the processes
    before they are killed.
    """
    try:
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            if group:
                os.killpg(process.pid, signal.SIGKILL)
            elif process.poll() is None:
                process.kill()
        if process.poll() is None:
            process.wait()


class Hang(Exception):  # noqa: N818 (what a test reports)
    """A call that did not answer within the alarm's seconds."""


@contextmanager
def answered_within(seconds: float) -> Iterator[None]:
    """Stop a call that hangs (SIGALRM): a bound far above the time it takes, not a timing.

    The hostile-input tests wrap calls that once ran for hours (a quadratic loader, the
    solver on 99 dice) in it.
    """

    def expired(_signal: int, _frame: object) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
