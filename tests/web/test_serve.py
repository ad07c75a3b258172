"""`pickomino serve`: the real server from the command line, on loopback."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("uvicorn")

COMMAND = [sys.executable, "-m", "pickomino_rules", "serve", "--no-browser"]


def test_serve_listens_on_a_free_loopback_port_and_stops_on_ctrl_c() -> None:
    server = subprocess.Popen(  # noqa: S603 (our own command)
        COMMAND, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("Pickomino is at http://127.0.0.1:"), line
        url = line.split()[3]
        with urllib.request.urlopen(url + "api/setup", timeout=30) as answer:  # noqa: S310 (ours)
            setup = json.load(answer)
        assert "classic" in [variant["name"] for variant in setup["variants"]]
    finally:
        server.send_signal(signal.SIGINT)
        _, errors = server.communicate(timeout=30)
    assert "Traceback" not in errors


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["--port", "99999"], "99999 is not in the range"),
        (["--host", "192.0.2.1", "--port", "0"], "cannot listen on 192.0.2.1"),
    ],
)
def test_serve_refuses_what_it_cannot_do_in_one_line(arguments: list[str], says: str) -> None:
    done = subprocess.run(  # noqa: S603 (our own command)
        [*COMMAND, *arguments], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert says in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_warns_when_other_computers_could_reach_it() -> None:
    done = subprocess.run(  # noqa: S603 (our own command)
        [*COMMAND, "--host", "192.0.2.1"], capture_output=True, text=True, timeout=60, check=False
    )
    assert "warning: listening on 192.0.2.1: other computers can reach" in done.stderr
