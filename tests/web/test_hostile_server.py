"""`pickomino serve` against hostile clients: the real server on 127.0.0.1, raw sockets.

Each test bounds its connections and its time; the server runs with a low cap on
connections and a one-second deadline for headers and bodies (its test options), so a
stalled client is dropped within seconds.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

import attrs
import pytest

pytest.importorskip("uvicorn")

from pickomino_rules.records import GameRecord

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

COMMAND = [sys.executable, "-m", "pickomino_rules", "serve", "--no-browser"]
CAP = 20
TIMEOUT = 1.0


@attrs.frozen
class Served:
    """A running server: its process, host and port."""

    process: subprocess.Popen[str]
    host: str
    port: int


def _start(arguments: list[str], config: Path, **options: Any) -> Served:
    env = os.environ | {"XDG_CONFIG_HOME": str(config)}
    process = subprocess.Popen(  # noqa: S603 (our own command)
        [*COMMAND, *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        **options,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("Pickomino is at http://"), line
    address = line.split()[3].removeprefix("http://").rstrip("/")
    host, _, port = address.rpartition(":")
    return Served(process, host.strip("[]"), int(port))


def _stop(served: Served) -> tuple[str, str]:
    served.process.send_signal(signal.SIGTERM)
    return served.process.communicate(timeout=30)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    config = tmp_path_factory.mktemp("config")
    served = _start(["--max-connections", str(CAP), "--timeout", str(TIMEOUT)], config)
    yield served
    _, errors = _stop(served)
    assert "Traceback" not in errors


def _connect(served: Served) -> socket.socket:
    sock = socket.create_connection((served.host, served.port), timeout=10)
    sock.settimeout(10)
    return sock


def _request(served: Served, method: str, path: str, body: object = None) -> tuple[int, Any]:
    """One request on a connection of its own: the status and the JSON answer."""
    content = b"" if body is None else json.dumps(body).encode()
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(content)}\r\n"
        "Connection: close\r\n\r\n"
    )
    with _connect(served) as sock:
        sock.sendall(head.encode() + content)
        answer = _read_all(sock)
    status = int(answer.split(b" ", 2)[1])
    return status, json.loads(answer.split(b"\r\n\r\n", 1)[1] or b"null")


def _read_all(sock: socket.socket) -> bytes:
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def test_headers_sent_a_byte_at_a_time_are_cut_off_after_the_timeout(server: Served) -> None:
    slow = [_connect(server) for _ in range(10)]
    began = time.monotonic()
    closed: dict[int, float] = {}
    answers: dict[int, bytes] = {}
    for sock in slow:
        sock.setblocking(False)  # noqa: FBT003 (socket's own switch)
    request = b"GET /api/setup HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100
    for byte in range(len(request)):  # a byte every 0.05 s: the headers would take 5 s
        if len(closed) == len(slow) or time.monotonic() - began > 4 * TIMEOUT + 2:
            break
        for index, sock in enumerate(slow):
            if index in closed:
                continue
            try:
                sock.send(request[byte : byte + 1])
                answers[index] = answers.get(index, b"") + sock.recv(4096)
                if answers[index].endswith(b"}"):
                    closed[index] = time.monotonic() - began
            except BlockingIOError:
                pass
            except OSError:  # reset: the server closed it
                closed[index] = time.monotonic() - began
        time.sleep(0.05)
    for sock in slow:
        sock.close()
    assert len(closed) == len(slow), f"{len(slow) - len(closed)} slow clients kept their sockets"
    assert max(closed.values()) < TIMEOUT + 2
    assert any(b"408 Request Timeout" in answer for answer in answers.values())


def test_a_body_that_does_not_arrive_is_refused_with_408(server: Served) -> None:
    with _connect(server) as sock:
        sock.sendall(
            b"POST /api/view HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{"
        )
        began = time.monotonic()
        answer = _read_all(sock)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:100]
    assert b"within" in answer
    assert b"content-security-policy" in answer.lower()
    assert time.monotonic() - began < TIMEOUT + 2


def test_connections_beyond_the_cap_get_a_503_and_the_server_stays_reachable(
    server: Served,
) -> None:
    held = [_connect(server) for _ in range(CAP + 30)]  # 50 clients that never send a byte
    try:
        refused = 0
        for sock in held:
            sock.settimeout(0.5)
            try:
                answer = sock.recv(4096)
            except TimeoutError:
                continue
            if answer.startswith(b"HTTP/1.1 503"):
                refused += 1
                assert b"connections open" in answer
                assert b"content-security-policy" in answer.lower()
        assert refused >= 30
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + TIMEOUT + 3  # the stalled ones are dropped: room again
    while True:
        try:
            assert _request(server, "GET", "/api/setup")[0] == 200
            break
        except (AssertionError, OSError, ValueError, IndexError):
            assert time.monotonic() < deadline, "the server stayed unreachable"
            time.sleep(0.2)


def _long_record(moves: int) -> dict[str, Any]:
    record = GameRecord.start("classic", 2, {"flip_on_empty_bust": False})  # busts for ever
    long: dict[str, Any] = json.loads(
        attrs.evolve(record, moves=("11111111", "take 1", "stop") * (moves // 3)).to_json()
    )
    return long


def test_the_work_of_clients_that_went_away_is_dropped(server: Served) -> None:
    body = json.dumps({"record": _long_record(900)}).encode()
    head = (
        f"POST /api/analyse HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    for _ in range(6):  # each some two seconds of solving: twelve queued behind each other
        with _connect(server) as sock:
            sock.sendall(head + body)
            time.sleep(0.2)
    began = time.monotonic()
    status, answer = _request(server, "POST", "/api/analyse", {"record": _long_record(30)})
    waited = time.monotonic() - began
    assert status == 200, answer
    assert waited < 3, f"the next analysis waited {waited:.1f} s for abandoned ones"


def test_a_record_whose_dice_were_changed_is_not_played_on(server: Served) -> None:
    status, game = _request(
        server, "POST", "/api/new", {"variant": "classic", "players": 2, "seats": [None, None]}
    )
    assert status == 200
    record = game["record"]
    changed = record | {"moves": [*record["moves"][:-1], "wwwwwwww"]}
    status, answer = _request(server, "POST", "/api/move", {"record": changed, "move": "take w"})
    assert status == 409
    assert "not rolled by this server" in answer["error"]
    status, answer = _request(server, "POST", "/api/view", {"record": changed})
    assert status == 200  # shown as it is, read only
    assert answer["sealed"] is False
    assert answer["record"] == changed
    status, answer = _request(server, "POST", "/api/bot", {"record": changed})
    assert status == 409
    move = game["view"]["legal"][0]
    status, answer = _request(server, "POST", "/api/move", {"record": record, "move": move})
    assert status == 200  # the dice the server rolled are played on
    assert answer["sealed"] is True


def test_foreign_hosts_and_origins_are_refused_with_the_security_headers(
    server: Served,
) -> None:
    def ask(headers: str) -> bytes:
        with _connect(server) as sock:
            sock.sendall(
                b"POST /api/new HTTP/1.1\r\n"
                + headers.encode()
                + b"Content-Type: application/json\r\n"
                b"Content-Length: 36\r\nConnection: close\r\n\r\n"
                b'{"variant": "classic", "players": 2}'
            )
            return _read_all(sock)

    own = f"Host: 127.0.0.1:{server.port}\r\n"
    origin = f"Origin: http://127.0.0.1:{server.port}\r\n"
    assert ask(own + origin).startswith(b"HTTP/1.1 200")
    for refused in (
        "Host: attacker.example\r\n",  # DNS rebinding
        own + origin + "Origin: http://attacker.example\r\n",  # which one counts?
        own + "Origin: http://attacker.example\r\n" + origin,
        own + f"Origin: https://127.0.0.1:{server.port}\r\n",  # another scheme
    ):
        answer = ask(refused)
        assert answer.split(b" ", 2)[1] in {b"400", b"403"}, (refused[:80], answer[:80])
        assert b"content-security-policy" in answer.lower(), answer[:300]


def test_running_out_of_file_descriptors_is_told_in_one_line(tmp_path: Path) -> None:
    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))

    served = _start(["--timeout", "5"], tmp_path, preexec_fn=few_files)
    held = []
    try:
        for _ in range(90):
            try:
                held.append(socket.create_connection((served.host, served.port), timeout=2))
            except OSError:
                break
        time.sleep(2.5)  # asyncio retries accepting every second
    finally:
        for sock in held:
            sock.close()
        _, errors = _stop(served)
    assert "Traceback" not in errors
    told = [line for line in errors.splitlines() if "file descriptor" in line]
    assert len(told) == 1, errors[:2000]
    assert len(errors.splitlines()) <= 2, errors[:2000]
