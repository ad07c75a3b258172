"""`pickomino serve`: the web app on this computer, opened in the browser."""

from __future__ import annotations

import ipaddress
import socket
import threading
import webbrowser

import click

from pickomino_rules.cli._common import EXIT_USAGE, fail
from pickomino_rules.errors import MissingExtraError


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="The port to listen on; 0 takes a free one.",
)
@click.option("--no-browser", is_flag=True, help="Do not open the page in the browser.")
def serve(host: str, port: int, no_browser: bool) -> None:
    """Play and get hints in the browser: a web app on this computer.

    By default it listens on 127.0.0.1, where nobody else can reach it, and answers only to
    the names of this computer (a page elsewhere cannot reach it through a name of its
    own). Stop it with Ctrl-C. Everything runs offline: the page loads nothing from
    elsewhere.
    """
    from pickomino_rules.web import LOOPBACK_HOSTS, create_app  # noqa: PLC0415 (the extra)

    try:
        import uvicorn  # noqa: PLC0415 (the extra's server)
    except ImportError:
        raise MissingExtraError("the web app's server", "web") from None
    hosts = list(LOOPBACK_HOSTS)
    if not _loopback(host):
        click.echo(
            f"warning: listening on {host}: other computers can reach this server; it has "
            "no accounts or passwords",
            err=True,
        )
        hosts = ["*"] if host in {"0.0.0.0", "::"} else [*hosts, host]  # noqa: S104 (asked for)
    sock = _listening(host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    config = uvicorn.Config(create_app(allowed_hosts=hosts), log_level="warning")
    server = uvicorn.Server(config)
    click.echo(f"Pickomino is at {url}  (Ctrl-C stops it)")
    if not no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server.run(sockets=[sock])
