"""Shared test set-up: hypothesis profiles and helpers.

Profiles: ``ci`` (hypothesis's own, loaded when CI is set: derandomized, no
deadline), ``default`` here (no deadline: engine timings belong in benchmarks), and
``thorough`` for local or nightly runs (``HYPOTHESIS_PROFILE=thorough``).
"""

from __future__ import annotations

import itertools
import os
import re
import socket
import threading
import time
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

from support import FENCE, PAGES, is_python

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

settings.register_profile("dev", deadline=None)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=1000,
    stateful_step_count=200,
    suppress_health_check=[HealthCheck.too_slow],
)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
elif not os.environ.get("CI"):
    settings.load_profile("dev")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app served in a thread of this process: its address, without a final slash."""
    uvicorn = pytest.importorskip("uvicorn")
    from pickomino_rules.web import create_app  # noqa: PLC0415 (the web extra)

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    running = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not running.started:
        time.sleep(0.01)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    running.should_exit = True
    thread.join(10)


_DOCS_FENCE = re.compile(r"^(?P<page>.+\.md)::\[CodeFence#\d+\]\[line:(?P<line>\d+)\]$")
_OUTPUT = 'text title="Output"'


def _examples_with_output() -> set[tuple[Path, int]]:
    """Each docs example followed by the output it prints: its page and opening line."""
    found = set()
    for page in PAGES:
        text = page.read_text()
        fences = list(FENCE.finditer(text))
        for fence, following in itertools.pairwise(fences):
            if is_python(fence["info"].strip()) and following["info"].strip() == _OUTPUT:
                found.add((page, text.count("\n", 0, fence.start()) + 1))
    return found


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run each docs example that shows its output once, not twice.

    ``tests/package/test_doc_outputs.py`` runs it and checks what it prints; the docs'
    own run of it (pytest-markdown-docs) would only run it again.
    """
    shown = _examples_with_output()
    twice = []
    for item in items:
        match = _DOCS_FENCE.match(item.nodeid)
        if match and ((config.rootpath / match["page"]).resolve(), int(match["line"])) in shown:
            twice.append(item)
    if twice:
        config.hook.pytest_deselected(items=twice)
        items[:] = [item for item in items if item not in twice]
