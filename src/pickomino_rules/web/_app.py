"""The web app: the JSON API's routes, the page's files, and the guards of a local server."""

from __future__ import annotations

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

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from starlette.requests import Request
    from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["LOOPBACK_HOSTS", "MAX_BODY_BYTES", "create_app"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
"""The names a local server answers to: any other ``Host`` is refused (DNS rebinding)."""

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
_HEADERS = {  # the page runs only its own script and loads nothing from elsewhere
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _error(message: str, status: int, problems: Sequence[dict[str, str]] = ()) -> JSONResponse:
    body: dict[str, Any] = {"error": message}
    if problems:
        body["problems"] = list(problems)
    return JSONResponse(body, status_code=status)


class _SameOriginWrites:
    """Refuses a write (any method but GET, HEAD, OPTIONS) that a page of another origin sent.

    A browser names the page's origin in ``Origin`` on such requests; it must be this
    server's own. Requests without it (curl, scripts) are not from a page and pass.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in _SAFE_METHODS:
            headers = dict(scope["headers"])
            origin = headers.get(b"origin")
            host = headers.get(b"host", b"")
            if origin is not None and origin.split(b"://", 1)[-1] != host:
                response = _error("writes from pages of other origins are refused", 403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


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


def _json_endpoint(
    answer: Callable[[object], dict[str, Any]], limiter: anyio.CapacityLimiter, limit: int
) -> Callable[[Request], Any]:
    """A POST route: the JSON body read and checked, ``answer`` run in a worker thread."""

    async def endpoint(request: Request) -> Response:
        kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            return _error("send the request as JSON (Content-Type: application/json)", 415)
        try:
            data = load_json(await _body(request, limit), limit=limit)
            return JSONResponse(await anyio.to_thread.run_sync(answer, data, limiter=limiter))
        except _api.RequestError as error:
            return _error(str(error), error.status, error.problems)
        except (PickominoError, ValueError) as error:  # the JSON itself, or what it names
            return _error(str(error), 400)

    return endpoint


def create_app(
    *, allowed_hosts: Sequence[str] = LOOPBACK_HOSTS, max_body: int = MAX_BODY_BYTES
) -> Starlette:
    """The web app: the page at ``/``, its JSON API under ``/api/``.

    The API is described at ``/api/openapi.json`` (OpenAPI 3.1).

    Args:
        allowed_hosts: The names in ``Host`` it answers to (``"*"``: any).
        max_body: The largest request body it reads, in bytes.

    Examples:
        >>> from starlette.testclient import TestClient
        >>> client = TestClient(create_app(), base_url="http://127.0.0.1")
        >>> [variant["name"] for variant in client.get("/api/setup").json()["variants"]]
        ['classic', 'extended', 'extrawurm']
    """
    limiter = anyio.CapacityLimiter(WORKERS)

    async def setup(_request: Request) -> Response:
        return JSONResponse(_api.setup())

    described = openapi()

    async def description(_request: Request) -> Response:
        return JSONResponse(described)

    files = resources.files("pickomino_rules.web") / "static"
    page = {path: ((files / name).read_bytes(), kind) for path, (name, kind) in _PAGE.items()}

    async def serve_file(request: Request) -> Response:
        content, kind = page[request.url.path]
        return Response(content, media_type=kind, headers=_HEADERS)

    routes = [
        Route("/api/setup", setup, methods=["GET"]),
        Route("/api/openapi.json", description, methods=["GET"]),
        *(
            Route(call.path, _json_endpoint(call, limiter, max_body), methods=["POST"])
            for call in _api.ENDPOINTS
        ),
        *(Route(path, serve_file, methods=["GET"]) for path in _PAGE),
    ]
    middleware = [
        Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts), www_redirect=False),
        Middleware(_SameOriginWrites),
    ]
    return Starlette(routes=routes, middleware=middleware)
