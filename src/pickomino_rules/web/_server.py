"""The server of ``pickomino serve``: uvicorn, with the guards of connections it lacks.

uvicorn bounds a request's headers in size (``h11_max_incomplete_event_size``) and closes
idle connections between requests (``timeout_keep_alive``), but it waits for headers
forever and counts connections only once their headers are in (``limit_concurrency``), so
clients that send a byte now and then keep their sockets, and enough of them leave no file
descriptor for anyone else. Its HTTP protocol (h11's) is extended here, by the hooks it
calls on a connection's events, with:

- a deadline for a request's headers, from the connection's start or the previous answer
  (`HEADER_TIMEOUT`): past it the connection gets a 408 and is closed;
- a cap on open connections (`MAX_CONNECTIONS`): one more gets a 503 at once and is closed;
- the security headers on uvicorn's own refusals of malformed requests.

A request's body has its deadline in the app (`pickomino_rules.web.BODY_TIMEOUT`). When the
process runs out of file descriptors anyway, asyncio's report of each refused ``accept``
(a traceback a second) becomes one line until connections are accepted again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
from typing import TYPE_CHECKING, Any, ClassVar

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from pickomino_rules.web._app import SECURITY_HEADERS

if TYPE_CHECKING:
    import socket
    from collections.abc import Iterator

    from starlette.types import ASGIApp

__all__ = ["HEADER_TIMEOUT", "KEEP_ALIVE", "MAX_CONNECTIONS", "MAX_HEADER_BYTES", "Server"]

MAX_CONNECTIONS = 100
"""Open connections at most (a browser opens a few); one more is answered 503 and closed."""

HEADER_TIMEOUT = 10.0
"""Seconds a request's headers may take to arrive, from the connection's start or the last
answer on it: then a 408, and the connection is closed."""

KEEP_ALIVE = 5
"""Seconds an idle connection is kept open between requests (uvicorn's ``timeout_keep_alive``)."""

MAX_HEADER_BYTES = 16_384
"""The largest request line and headers read (uvicorn's ``h11_max_incomplete_event_size``)."""

_OUT_OF_FILES = "socket.accept() out of system resource"
_log = logging.getLogger("pickomino_rules.web")


def _raw_answer(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection, for a connection without a request."""
    body = json.dumps({"error": message}).encode()
    headers = {
        "Content-Type": "application/json",
        "Content-Length": str(len(body)),
        "Connection": "close",
        **SECURITY_HEADERS,
    }
    if status == 503:
        headers["Retry-After"] = "1"
    lines = [f"HTTP/1.1 {status} {reason}", *(f"{k}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class _GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for headers and a cap on connections."""

    max_connections: ClassVar[int] = MAX_CONNECTIONS
    header_timeout: ClassVar[float] = HEADER_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            message = f"the server has {self.max_connections} connections open: try again soon"
            transport.write(_raw_answer(503, "Service Unavailable", message))
            transport.close()
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        super().data_received(data)
        if self.cycle is not before:  # a request's headers are in: the app has it now
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # the next request's headers, from now (uvicorn's keep-alive is shorter)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        message = f"the request is not HTTP this server reads ({msg.rstrip('.').lower()})"
        self.transport.write(_raw_answer(400, "Bad Request", message))
        self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:  # no request is being answered
            message = f"the request's headers did not arrive within {self.header_timeout:g} seconds"
            self.transport.write(_raw_answer(408, "Request Timeout", message))
        self.transport.close()


class _OutOfFiles:
    """asyncio's exception handler: a refused ``accept`` (no file descriptor) said once."""

    def __init__(self) -> None:
        self.told = False

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") != _OUT_OF_FILES:
            loop.default_exception_handler(context)
            return
        if not self.told:
            self.told = True
            error = context.get("exception")
            why = getattr(error, "strerror", None) or str(error)
            _log.warning(
                "pickomino serve: no file descriptor for a new connection (%s); new "
                "connections wait until some close (ulimit -n raises the limit)",
                why,
            )
            loop.call_later(60, self._forget)  # a later shortage is told again

    def _forget(self) -> None:
        self.told = False


class Server(uvicorn.Server):
    """uvicorn's server with these guards; a signal stops it without raising it again.

    Attributes:
        stopped_by: The signal that stopped it (``signal.SIGINT``, ``signal.SIGTERM``), if any.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_connections: int = MAX_CONNECTIONS,
        header_timeout: float = HEADER_TIMEOUT,
    ) -> None:
        protocol = type(
            "GuardedH11",
            (_GuardedH11,),
            {"max_connections": max_connections, "header_timeout": header_timeout},
        )
        config = uvicorn.Config(
            app,
            http=protocol,
            log_level="warning",
            proxy_headers=False,  # no proxy in front: a client's X-Forwarded-* are not believed
            timeout_keep_alive=KEEP_ALIVE,
            h11_max_incomplete_event_size=MAX_HEADER_BYTES,
            timeout_graceful_shutdown=2,
            server_header=False,
        )
        super().__init__(config)
        self.stopped_by: int | None = None

    def handle_exit(self, sig: int, frame: Any) -> None:  # noqa: ANN401 (signal's frame)
        """Stop serving (a second Ctrl-C stops at once); remember the signal."""
        self.stopped_by = self.stopped_by or sig
        super().handle_exit(sig, frame)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Ctrl-C and SIGTERM stop the server; they are not raised again after it stopped."""
        handled = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def serve_on(self, sock: socket.socket) -> None:
        """Serve on the listening ``sock`` until a signal stops it."""

        async def serve() -> None:
            asyncio.get_running_loop().set_exception_handler(_OutOfFiles())
            await self.serve(sockets=[sock])

        asyncio.run(serve())
