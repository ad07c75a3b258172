"""Shared test set-up: hypothesis profiles and helpers.

Profiles: ``ci`` (hypothesis's own, loaded when CI is set: derandomized, no
deadline), ``default`` here (no deadline: engine timings belong in benchmarks), and
``thorough`` for local or nightly runs (``HYPOTHESIS_PROFILE=thorough``).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from collections.abc import Iterator

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
