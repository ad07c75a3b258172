"""The batch plays the backend the engine chose at import, never one of its own choosing.

`pickomino_rules._engine.ACTIVE` is the one place the backend is chosen, once, when the
package is first imported. The batch engine, imported later, follows it even when
``PICKOMINO_PURE`` has changed in between: a process never runs the reference engine on one
backend and its batch mirror on the other.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("numpy")

try:
    from pickomino_rules.batch import _fused  # type: ignore[attr-defined]
except ImportError:  # built without a C compiler
    _fused = None

# Import the core under one setting, change the setting, then make a batch: which loops play?
_SCRIPT = """
import os, sys
import pickomino_rules
from pickomino_rules._engine import ACTIVE
if sys.argv[1] == "":
    os.environ.pop("PICKOMINO_PURE", None)
else:
    os.environ["PICKOMINO_PURE"] = sys.argv[1]
from pickomino_rules.batch import BatchGames
games = BatchGames(2, seed=0)
print(ACTIVE.name, "compiled" if games.table.compiled is not None else "pure")
"""


def _backends(first: str, then: str) -> list[str]:
    """The engine's backend and the batch's, PICKOMINO_PURE=first at import, then=then."""
    env = {key: value for key, value in os.environ.items() if key != "PICKOMINO_PURE"}
    if first:
        env["PICKOMINO_PURE"] = first
    shown = subprocess.run(  # noqa: S603 (this interpreter, a fixed script)
        [sys.executable, "-c", _SCRIPT, then], env=env, capture_output=True, text=True, check=True
    )
    return shown.stdout.split()


@pytest.mark.skipif(_fused is None, reason="the compiled loops were not built")
def test_a_pure_engine_keeps_the_batch_pure_though_the_setting_is_gone() -> None:
    assert _backends(first="1", then="") == ["pure", "pure"]


@pytest.mark.skipif(_fused is None, reason="the compiled loops were not built")
def test_a_compiled_engine_keeps_the_batch_compiled_though_pure_is_asked_later() -> None:
    assert _backends(first="", then="1") == ["compiled", "compiled"]


def test_the_batch_plays_the_engine_s_backend_under_either_setting() -> None:
    for setting in ("", "1"):
        engine, batch = _backends(first=setting, then=setting)
        assert batch == engine
