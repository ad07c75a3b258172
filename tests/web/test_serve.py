"""`pickomino serve`: the real server from the command line, on loopback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator
    from contextlib import AbstractContextManager
    from pathlib import Path

pytest.importorskip("uvicorn")

COMMAND = [sys.executable, "-m", "pickomino_rules", "serve", "--no-browser"]


def test_serve_listens_on_a_free_loopback_port_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    server = subprocess.Popen(  # noqa: S603 (our own command)
        COMMAND,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ | {"XDG_CONFIG_HOME": str(tmp_path)},
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
        said, errors = server.communicate(timeout=30)
    assert errors == ""
    assert said == "Pickomino stopped (Ctrl-C)\n"
    assert server.returncode == 130


def _serving(arguments: list[str], config: Path) -> AbstractContextManager[tuple[str, list[str]]]:
    """``pickomino serve`` running: its URL and the lines it printed first."""
    import contextlib  # noqa: PLC0415

    @contextlib.contextmanager
    def running() -> Iterator[tuple[str, list[str]]]:
        server = subprocess.Popen(  # noqa: S603 (our own command)
            [*COMMAND, *arguments],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ | {"XDG_CONFIG_HOME": str(config)},
        )
        try:
            assert server.stdout is not None
            lines = [server.stdout.readline()]
            assert lines[0].startswith("Pickomino is at http://"), lines
            lines += [server.stdout.readline() for _ in arguments if _ == "--allow-host"]
            yield lines[0].split()[3], lines
        finally:
            server.send_signal(signal.SIGTERM)
            said, errors = server.communicate(timeout=30)
        assert "Traceback" not in errors
        assert said.splitlines() == ["Pickomino stopped (SIGTERM)"]  # one clean line
        assert server.returncode == 143

    return running()


def _ask(url: str, path: str, body: object = None, host: str | None = None) -> tuple[int, Any]:
    """The status and JSON of a request to ``url`` (on loopback), ``Host`` as given."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path.lstrip("/"), data=data)  # noqa: S310 (ours)
    request.add_header("Content-Type", "application/json")
    if host is not None:
        request.add_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 (ours)
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_any_127_address_is_loopback_and_its_printed_url_works(tmp_path: Path) -> None:
    with _serving(["--host", "127.0.0.2"], tmp_path) as (url, _):
        assert url.startswith("http://127.0.0.2:")
        assert _ask(url, "/api/setup")[0] == 200


def test_serving_on_every_address_keeps_the_host_check(tmp_path: Path) -> None:
    arguments = ["--host", "0.0.0.0", "--allow-host", "pickomino.lan"]  # noqa: S104 (the test)
    with _serving(arguments, tmp_path) as (url, lines):
        port = url.rstrip("/").rsplit(":", 1)[1]
        assert url == f"http://127.0.0.1:{port}/"  # a URL that works, not 0.0.0.0
        assert lines[1].strip() == f"and at http://pickomino.lan:{port}/"
        loopback = f"http://127.0.0.1:{port}/"  # requests go to loopback only, named as asked
        assert _ask(loopback, "/api/setup")[0] == 200
        assert _ask(loopback, "/api/setup", host=f"pickomino.lan:{port}")[0] == 200
        assert _ask(loopback, "/api/setup", host=f"attacker.example:{port}")[0] == 400
        assert _ask(loopback, "/", host="attacker.example")[0] == 400  # DNS rebinding


def test_a_bad_allowed_host_is_a_usage_error() -> None:
    done = subprocess.run(  # noqa: S603 (our own command)
        [*COMMAND, "--allow-host", "a b/c"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert "--allow-host 'a b/c': a host name" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_game_dealt_before_a_restart_is_played_on_after_it(tmp_path: Path) -> None:
    new = {"variant": "classic", "players": 2, "seats": [None, None]}
    with _serving([], tmp_path / "home") as (url, _):
        status, game = _ask(url, "/api/new", new)
        assert status == 200
    assert (tmp_path / "home" / "pickomino" / "serve-seal.key").stat().st_mode & 0o077 == 0
    move = {"record": game["record"], "move": game["view"]["legal"][0]}
    with _serving([], tmp_path / "home") as (url, _):  # the same key: the same dealer
        status, answer = _ask(url, "/api/move", move)
        assert status == 200, answer
    with _serving([], tmp_path / "elsewhere") as (url, _):  # another key
        status, answer = _ask(url, "/api/view", {"record": game["record"]})
        assert status == 200
        assert answer["sealed"] is False  # shown, read only
        assert _ask(url, "/api/move", move)[0] == 409


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
