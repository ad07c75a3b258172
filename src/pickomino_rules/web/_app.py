"""The web app: the JSON API's routes, the page's files, and the guards of a local server.

Guards: the ``Host`` check (DNS rebinding), writes only from the server's own origin, a body
read within `BODY_TIMEOUT` seconds and at most `MAX_BODY_BYTES` long, work done by a few
worker threads (`WORKERS`, and one more for analyses so that they never hold up play),
work dropped when its client goes away, and the security headers on every answer. The
guards of connections (timeouts on headers, a cap on their number) are the server's: see
`pickomino_rules.web._server`.
"""

from __future__ import annotations

import contextvars
import threading
from importlib import resources
from typing import TYPE_CHECKING, Any

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pickomino_rules.errors import PickominoError
from pickomino_rules.strict_json import load_json
from pickomino_rules.web import _api
from pickomino_rules.web._openapi import openapi
from pickomino_rules.web._seal import SEAL, Seal

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from starlette.requests import Request
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BODY_TIMEOUT", "LOOPBACK_HOSTS", "MAX_BODY_BYTES", "SECURITY_HEADERS", "create_app"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
"""The names a local server answers to: any other ``Host`` is refused (DNS rebinding)."""

BODY_TIMEOUT = 10.0
"""Seconds a request's body may take to arrive (a record is a few kilobytes): then a 408."""

MAX_BODY_BYTES = 1_000_000
"""The largest request body read; a game's record is a few tens of kilobytes."""

WORKERS = 2
"""Requests that play or solve at once; the others wait their turn (bounded work)."""

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

_PAGE = {  # the page's files, served by name (no folder is served: nothing else can be asked)
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/advisor.js": ("advisor.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
SECURITY_HEADERS = {  # the page runs only its own script and loads nothing from elsewhere
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}
"""The headers every answer carries: the page's files, the API's JSON, 404s and errors."""

_RAW_HEADERS = [(name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]


def _error(message: str, status: int, problems: Sequence[dict[str, str]] = ()) -> JSONResponse:
    body: dict[str, Any] = {"error": message}
    if problems:
        body["problems"] = list(problems)
    return JSONResponse(body, status_code=status, headers=SECURITY_HEADERS)


class _SecurityHeaders:
    """Adds `SECURITY_HEADERS` to every answer that lacks them (outermost but one)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(name, value) for name, value in _RAW_HEADERS if name not in present]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _SameOriginWrites:
    """Refuses a write (any method but GET, HEAD, OPTIONS) that a page of another origin sent.

    A browser names the page's origin in ``Origin`` on such requests; it must be this
    server's own, scheme included. Requests without it (curl, scripts) are not from a page
    and pass; a request with ``Origin`` or ``Host`` twice is refused (which one counts would
    be a guess).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            names = [name for name, _ in scope["headers"]]
            if names.count(b"origin") > 1 or names.count(b"host") > 1:
                response = _error("a request names its Origin and Host once each", 400)
                await response(scope, receive, send)
                return
            if scope["method"] not in _SAFE_METHODS:
                headers = dict(scope["headers"])
                origin = headers.get(b"origin")
                own = scope.get("scheme", "http").encode() + b"://" + headers.get(b"host", b"")
                if origin is not None and origin != own:
                    response = _error("writes from pages of other origins are refused", 403)
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


async def _crashed(_request: Request, _error_raised: Exception) -> Response:
    """A bug's answer: a short JSON error with the security headers (no traceback)."""
    return _error("the server failed to answer this request (a bug: please report it)", 500)


async def _body(request: Request, limit: int) -> bytes:
    """The request's body, refused past ``limit`` bytes before more is read."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise _api.RequestError(f"the request is larger than {limit:,} bytes", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _api.RequestError(f"the request is larger than {limit:,} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def _watch_disconnect(
    request: Request, gone: threading.Event, scope: anyio.CancelScope
) -> None:
    """Wait for the client to go away; then tell the work (``gone``) and stop waiting for it."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            gone.set()
            scope.cancel()
            return


def _answered(
    answer: Callable[[object], dict[str, Any]], data: object, seal: Seal, gone: threading.Event
) -> dict[str, Any]:
    """``answer(data)`` in a worker thread, in a context of its own: the app's seal, ``gone``."""
    SEAL.set(seal)
    _api.CANCELLED.set(gone)
    return answer(data)


def _json_endpoint(
    answer: Callable[[object], dict[str, Any]],
    limiter: anyio.CapacityLimiter,
    limit: int,
    seal: Seal,
    body_timeout: float,
) -> Callable[[Request], Any]:
    """A POST route: the JSON body read and checked, ``answer`` run in a worker thread.

    The work is dropped if the client goes away: while it waits for a worker, at once;
    while it runs, at its next check (`pickomino_rules.web._api.CANCELLED`).
    """

    async def endpoint(request: Request) -> Response:
        kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            return _error("send the request as JSON (Content-Type: application/json)", 415)
        try:
            with anyio.fail_after(body_timeout):
                body = await _body(request, limit)
        except TimeoutError:
            message = f"the request's body did not arrive within {body_timeout:g} seconds"
            return JSONResponse(
                {"error": message}, 408, headers={**SECURITY_HEADERS, "Connection": "close"}
            )
        except _api.RequestError as error:
            return _error(str(error), error.status, error.problems)
        gone = threading.Event()
        response: Response = _error("the client went away", 499)  # nobody reads this one
        async with anyio.create_task_group() as group:
            group.start_soon(_watch_disconnect, request, gone, group.cancel_scope)
            try:
                data = load_json(body, limit=limit)
                context = contextvars.Context()  # the thread's own: the seal, the flag
                found = await anyio.to_thread.run_sync(
                    context.run, _answered, answer, data, seal, gone, limiter=limiter
                )
                response = JSONResponse(found)
            except _api.Cancelled:
                pass
            except _api.RequestError as error:
                response = _error(str(error), error.status, error.problems)
            except (PickominoError, ValueError) as error:  # the JSON itself, or what it names
                response = _error(str(error), 400)
            finally:
                group.cancel_scope.cancel()  # the watcher: the answer is made
        return response

    return endpoint


def create_app(
    *,
    allowed_hosts: Sequence[str] = LOOPBACK_HOSTS,
    max_body: int = MAX_BODY_BYTES,
    seal: Seal | None = None,
    body_timeout: float = BODY_TIMEOUT,
) -> Starlette:
    """The web app: the page at ``/``, its JSON API under ``/api/``.

    The API is described at ``/api/openapi.json`` (OpenAPI 3.1).

    Args:
        allowed_hosts: The names in ``Host`` it answers to (``"*"``: any; ``"*.lan"``:
            any name ending so).
        max_body: The largest request body it reads, in bytes.
        seal: The seal on the records it deals (its key secret); None: a new key, so the
            records it deals are played on only while it runs.
        body_timeout: Seconds a request's body may take to arrive.

    Examples:
        >>> from starlette.testclient import TestClient
        >>> client = TestClient(create_app(), base_url="http://127.0.0.1")
        >>> [variant["name"] for variant in client.get("/api/setup").json()["variants"]]
        ['classic', 'extended', 'extrawurm']
    """
    limiter = anyio.CapacityLimiter(WORKERS)
    analyser = anyio.CapacityLimiter(1)  # analyses wait for each other, never for play
    seal = Seal.fresh() if seal is None else seal

    async def setup(_request: Request) -> Response:
        return JSONResponse(_api.setup())

    described = openapi()

    async def description(_request: Request) -> Response:
        return JSONResponse(described)

    files = resources.files("pickomino_rules.web") / "static"
    page = {path: ((files / name).read_bytes(), kind) for path, (name, kind) in _PAGE.items()}

    async def serve_file(request: Request) -> Response:
        content, kind = page[request.url.path]
        return Response(content, media_type=kind, headers=SECURITY_HEADERS)

    routes = [
        Route("/api/setup", setup, methods=["GET"]),
        Route("/api/openapi.json", description, methods=["GET"]),
        *(
            Route(
                call.path,
                _json_endpoint(
                    call,
                    analyser if call.answer is _api.analyse else limiter,
                    max_body,
                    seal,
                    body_timeout,
                ),
                methods=["POST"],
            )
            for call in _api.ENDPOINTS
        ),
        *(Route(path, serve_file, methods=["GET"]) for path in _PAGE),
    ]
    middleware = [
        Middleware(_SecurityHeaders),
        Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts), www_redirect=False),
        Middleware(_SameOriginWrites),
    ]
    return Starlette(routes=routes, middleware=middleware, exception_handlers={Exception: _crashed})
