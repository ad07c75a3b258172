"""`pickomino serve`: the web app on this computer, opened in the browser."""

from __future__ import annotations

import ipaddress
import os
import re
import socket
import threading
import webbrowser
from pathlib import Path

import click

from pickomino_rules.cli._common import EXIT_STOPPED, EXIT_TERMINATED, EXIT_USAGE, fail
from pickomino_rules.errors import MissingExtraError

_NAME = re.compile(r"(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?")
_WILDCARD_ADDRESSES = {"0.0.0.0", "::"}  # noqa: S104 (the addresses, not a choice)
_KEY_FILE = "serve-seal.key"


def _loopback(host: str) -> bool:
    """Whether ``host`` is this computer only: ``localhost`` or any 127.0.0.0/8 or ::1."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_names(host: str) -> list[str]:
    """The ``Host`` names an address (or name) is reached by: ``::1`` also as ``[::1]``."""
    return [host, f"[{host}]"] if ":" in host else [host]


def _allowed(value: str) -> str:
    """An ``--allow-host`` value checked: a name, ``*.domain``, an address, or ``*``."""
    if value == "*" or _NAME.fullmatch(value):
        return value.lower()
    try:
        return str(ipaddress.ip_address(value.strip("[]")))
    except ValueError:
        msg = (
            f"--allow-host {value[:60]!r}: a host name (pickomino.lan), *.domain (*.lan), an "
            "address (192.168.1.20) or *"
        )
        fail(msg, EXIT_USAGE)


def _listening(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port`` (0: a free one), or a usage error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)  # from here on a browser's request waits for the server, not refused
    except OSError as error:
        sock.close()
        fail(f"cannot listen on {host} port {port}: {error.strerror or error}", EXIT_USAGE)
    return sock


def _seal_key() -> bytes | None:
    """The key that seals the games this server deals, kept across restarts, or None.

    It lives in pickomino's folder of settings (``~/.config/pickomino`` on Linux), readable
    by its owner only, so that a game saved from the page is played on after a restart.
    """
    from pickomino_rules.web._seal import KEY_BYTES  # noqa: PLC0415 (the extra)

    path = Path(click.get_app_dir("pickomino")) / _KEY_FILE
    try:
        key = path.read_bytes()
        if len(key) == KEY_BYTES:
            return key
    except FileNotFoundError:
        pass
    except OSError as error:
        click.echo(f"warning: cannot read {path}: {error.strerror or error}", err=True)
        return None
    import secrets  # noqa: PLC0415 (only when made)

    key = secrets.token_bytes(KEY_BYTES)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".new")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(key)
        temporary.replace(path)
    except OSError as error:
        click.echo(
            f"warning: cannot keep the key of this server's games in {path} "
            f"({error.strerror or error}): the games it deals are played on only while it runs",
            err=True,
        )
    return key


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="The port to listen on; 0 takes a free one.",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Another name (or address) the page may be reached by, e.g. pickomino.lan; repeatable.",
)
@click.option(
    "--max-connections",
    type=click.IntRange(1, 10_000),
    default=None,
    help="Open connections at most; more are answered 503.  [default: 100]",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0.1, 600),
    default=None,
    hidden=True,  # for the tests: the deadline of a request's headers and of its body
)
@click.option("--no-browser", is_flag=True, help="Do not open the page in the browser.")
def serve(  # noqa: PLR0913, PLR0917 (the command's options)
    host: str,
    port: int,
    allow_hosts: tuple[str, ...],
    max_connections: int | None,
    timeout: float | None,
    no_browser: bool,
) -> None:
    """Play and get hints in the browser: a web app on this computer.

    By default it listens on 127.0.0.1, where nobody else can reach it, and answers only to
    the names of this computer (a page elsewhere cannot reach it through a name of its
    own). Listening on another address, it also answers to that address and to the names
    given with --allow-host. Stop it with Ctrl-C. Everything runs offline: the page loads
    nothing from elsewhere.
    """
    from pickomino_rules.web import LOOPBACK_HOSTS, create_app  # noqa: PLC0415 (the extra)

    try:
        from pickomino_rules.web import _server  # noqa: PLC0415 (the extra's server)
    except ImportError:
        raise MissingExtraError("the web app's server", "web") from None
    from pickomino_rules.web._app import BODY_TIMEOUT  # noqa: PLC0415 (the extra)
    from pickomino_rules.web._seal import Seal  # noqa: PLC0415 (the extra)

    extra = [_allowed(name) for name in allow_hosts]
    wildcard = host in _WILDCARD_ADDRESSES
    hosts = [*LOOPBACK_HOSTS, *([] if wildcard else _host_names(host)), *extra]
    if not _loopback(host):
        click.echo(
            f"warning: listening on {host}: other computers can reach this server; it has "
            "no accounts or passwords",
            err=True,
        )
        if wildcard and not extra:
            click.echo(
                "warning: it answers to this computer's names only: give the name others "
                "reach it by with --allow-host (e.g. --allow-host 192.168.1.20)",
                err=True,
            )
    sock = _listening(host, port)
    shown = ("::1" if ":" in host else "127.0.0.1") if wildcard else host
    shown = f"[{shown}]" if ":" in shown else shown
    bound = sock.getsockname()[1]
    url = f"http://{shown}:{bound}/"
    key = _seal_key()
    app = create_app(
        allowed_hosts=hosts,
        seal=Seal.fresh() if key is None else Seal(key),
        body_timeout=BODY_TIMEOUT if timeout is None else timeout,
    )
    server = _server.Server(
        app,
        max_connections=_server.MAX_CONNECTIONS if max_connections is None else max_connections,
        header_timeout=_server.HEADER_TIMEOUT if timeout is None else timeout,
    )
    click.echo(f"Pickomino is at {url}  (Ctrl-C stops it)")
    for name in extra:
        if "*" not in name:
            click.echo(f"  and at http://{_host_names(name)[-1]}:{bound}/")
    if not no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server.serve_on(sock)
    if server.stopped_by is not None:
        import signal  # noqa: PLC0415

        by_term = server.stopped_by == signal.SIGTERM
        click.echo(f"Pickomino stopped ({'SIGTERM' if by_term else 'Ctrl-C'})")
        raise click.exceptions.Exit(EXIT_TERMINATED if by_term else EXIT_STOPPED)
