"""What is installed and running: version, Python, engine, extras, variants and bots.

`installation` gathers it (``pickomino info`` prints it), so that a bug report or a
surprising benchmark can say which engine ran: the compiled kernel or the pure-Python
reference, and why; and whether the compiled one handed any call to the pure one after a
game of each variant (a fallback: it warns, and it is a bug to report). For the batch engine,
which variants it plays per row (a module without a batch twin) and how many decisions it
played so in this process.

Examples:
    >>> from pickomino_rules.about import installation
    >>> info = installation()
    >>> info.engine in ("compiled", "pure"), "classic" in info.variants
    (True, True)
    >>> info.variants["classic"]
    'entry point of pickomino_rules'
"""

from __future__ import annotations

import platform
import random
import re
import sys
from importlib import metadata
from typing import TYPE_CHECKING

import attrs

from pickomino_rules import __version__
from pickomino_rules._engine import ACTIVE
from pickomino_rules.bots import BOTS, available_bots
from pickomino_rules.bots import ENTRY_POINT_GROUP as BOT_GROUP
from pickomino_rules.game import apply, legal_actions, new_game, sample_chance
from pickomino_rules.registry import ENTRY_POINT_GROUP as VARIANT_GROUP
from pickomino_rules.registry import available_variants, get_rules
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["DISTRIBUTION", "Installation", "installation"]

DISTRIBUTION = "pickomino_rules"
"""The name of the distribution (what ``pip`` installs)."""

_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")
_NAME = re.compile(r"^[A-Za-z0-9._-]+")
_INNER = re.compile(r"\[([^\]]*)\]")


@attrs.frozen
class Installation:
    """The library as installed and running in this process.

    Attributes:
        version: The library's version (`pickomino_rules.__version__`).
        python: The Python version and implementation.
        engine: ``"compiled"`` (the Cython kernel) or ``"pure"`` (the Python reference).
        engine_reason: Why that engine runs.
        fallbacks: Calls the compiled engine handed to the pure one in this process, by
            function, after a game of each variant on the engine in use (none is right).
        extras: For each extra the distribution declares, whether all it pulls in is
            installed (the ``test`` and ``docs`` extras included).
        variants: Each variant's name and where it comes from.
        bots: Each bot's name and where it comes from.
        batch_per_row: Each variant the batch engine plays per row, with its default
            options, and the modules that bring no batch twin (the others play through
            their twins).
        batch_rows: Decisions the batch engine played per row in this process, by the
            modules without a twin (none where no batch was made).
        on_rows: The variants (default options) whose turns the engine in use plays on the
            compiled rules' rows, the one compiled layer the single game and the batch's
            compiled loop share: every module wrapping a hook of the turn brings a row twin
            (`compiled_plugin.RowTwin`). None under the pure engine.
    """

    version: str
    python: str
    engine: str
    engine_reason: str
    fallbacks: dict[str, int]
    extras: dict[str, bool]
    variants: dict[str, str]
    bots: dict[str, str]
    batch_per_row: dict[str, list[str]] = attrs.field(factory=dict)
    batch_rows: dict[str, int] = attrs.field(factory=dict)
    on_rows: list[str] = attrs.field(factory=list)

    def lines(self) -> list[str]:
        """The report as text lines, as ``pickomino info`` prints it."""
        extras = ", ".join(f"{name} {'yes' if ok else 'no'}" for name, ok in self.extras.items())
        return [
            f"pickomino_rules {self.version}",
            f"python {self.python}",
            f"engine: {self.engine} ({self.engine_reason})",
            f"fallbacks to the pure engine: {_listing(self.fallbacks)}",
            f"on compiled rows (single game and batch): {', '.join(self.on_rows) or 'none'}",
            f"batch engine per row (no batch twin): {_per_row(self.batch_per_row)}",
            f"decisions the batch played per row: {_counts(self.batch_rows)}",
            f"extras: {extras or 'unknown (not installed as a distribution)'}",
            "variants:",
            *(f"  {name}: {source}" for name, source in self.variants.items()),
            "bots:",
            *(f"  {name}: {source}" for name, source in self.bots.items()),
        ]

    def to_dict(self) -> dict[str, object]:
        """The report as JSON-ready data."""
        return attrs.asdict(self)


def _listing(fallbacks: Mapping[str, int]) -> str:
    if not fallbacks:
        return "none (after a game of each variant)"
    return ", ".join(f"{name} {count}" for name, count in sorted(fallbacks.items()))


def _per_row(variants: Mapping[str, list[str]]) -> str:
    if not variants:
        return "no variant (every module brings a twin)"
    return "; ".join(f"{name} (module {', '.join(mods)})" for name, mods in variants.items())


def _counts(counts: Mapping[str, int]) -> str:
    if not counts:
        return "none in this process"
    return ", ".join(f"{name} {count:,}" for name, count in sorted(counts.items()))


def _untwinned() -> dict[str, list[str]]:
    """Each variant with a module that brings no batch twin (default options): those modules."""
    found = {}
    for variant in available_variants():
        try:
            modules = get_rules(variant).modules
        except Exception:  # noqa: BLE001, S112 (a broken third-party variant: not this report's)
            continue
        missing = [module.name for module in modules if module.batch is None]
        if missing:
            found[variant] = missing
    return found


def _on_rows() -> list[str]:
    """The variants (default options) the engine in use plays on compiled rows."""
    found = []
    for variant in available_variants():
        try:
            rules = get_rules(variant)
        except Exception:  # noqa: BLE001, S112 (a broken third-party variant: not this report's)
            continue
        if ACTIVE.on_rows(rules):
            found.append(variant)
    return found


def _batch_rows() -> dict[str, int]:
    """The per-row path's count, where a batch was made in this process.

    Read from the module if it was imported: importing it would need numpy (an extra), and
    a process that never imported it played nothing per row.
    """
    rowwise = sys.modules.get("pickomino_rules.batch._rowwise")
    return {} if rowwise is None else dict(rowwise.played())


def _play_each_variant() -> None:
    """One random game of each variant (2 players, seed 0) on the engine in use."""
    for variant in available_variants():
        try:
            rules, state = new_game(variant, players=2)
        except Exception:  # noqa: BLE001, S112 (a broken third-party variant: not this report's)
            continue
        rng = random.Random(0)
        while state.phase is not Phase.GAME_OVER:
            if state.phase is Phase.ROLL:
                state = apply(rules, state, sample_chance(rules, state, rng))
            else:
                state = apply(rules, state, rng.choice(legal_actions(rules, state)))


def installation() -> Installation:
    """Gather what is installed and which engine runs, in this process.

    Plays a game of each variant first, so that ``fallbacks`` says whether the compiled
    engine took every call of it.
    """
    _play_each_variant()
    return Installation(
        version=__version__,
        python=f"{platform.python_version()} ({platform.python_implementation()})",
        engine=ACTIVE.name,
        engine_reason=ACTIVE.reason,
        fallbacks=ACTIVE.fallbacks(),
        extras=_extras(),
        variants=_sources(available_variants(), VARIANT_GROUP, {}),
        bots=_sources(available_bots(), BOT_GROUP, BOTS),
        batch_per_row=_untwinned(),
        batch_rows=_batch_rows(),
        on_rows=_on_rows(),
    )


def _extras() -> dict[str, bool]:
    """Each declared extra, and whether every distribution it pulls in is installed."""
    try:
        requirements = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return {}
    wanted: dict[str, set[str]] = {}
    for requirement in requirements:
        extra = _EXTRA.search(requirement)
        name = _NAME.match(requirement)
        if extra and name:
            wanted.setdefault(extra.group(1), set()).add(requirement.split(";")[0].strip())
    return {extra: _satisfied(extra, wanted, set()) for extra in wanted}


def _satisfied(extra: str, wanted: dict[str, set[str]], seen: set[str]) -> bool:
    """Whether ``extra``'s requirements are installed, following this package's own extras."""
    seen.add(extra)
    for requirement in wanted.get(extra, ()):
        name = _NAME.match(requirement)
        if name is None:
            continue
        if name.group(0).replace("-", "_").lower() == DISTRIBUTION:  # e.g. pickomino_rules[solver]
            inner = _INNER.search(requirement)
            names = inner.group(1).split(",") if inner else []
            if not all(_satisfied(n.strip(), wanted, seen) for n in names if n.strip() not in seen):
                return False
        elif not _installed(name.group(0)):
            return False
    return True


def _installed(name: str) -> bool:
    try:
        metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return False
    return True


def _sources(names: tuple[str, ...], group: str, in_code: Mapping[str, object]) -> dict[str, str]:
    """Where each name comes from: an entry point (of which distribution), or code.

    ``in_code`` holds what was registered in code, by name: its module is named.
    """
    points = {point.name: point for point in metadata.entry_points(group=group)}
    found = {}
    for name in names:
        point = points.get(name)
        if point is not None:
            owner = point.dist.name if point.dist is not None else "an unknown distribution"
            found[name] = f"entry point of {owner}"
        elif name in in_code:  # registered in code: say by which module
            found[name] = f"registered by {getattr(in_code[name], '__module__', None) or 'code'}"
        else:
            found[name] = "registered in this process"
    return found
