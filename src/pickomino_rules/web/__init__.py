"""Play, ask and analyse in the browser: a local web app and its JSON API (the ``web`` extra).

``pickomino serve`` starts it on 127.0.0.1 and opens the page. The server keeps no game:
each request carries the game's record (or the table's position) and each answer brings
it back with the move applied, so any number of clients can play at once and a game saved
in the page is the record the command line saves.
The records it hands out carry its seal (an HMAC of the record under a key only it knows,
in the record's ``library`` field), so a client cannot choose its dice: a game is played on
only from a record it dealt; any other is shown and analysed, read only.

Built on Starlette (a small, well-kept ASGI toolkit: routing, static files, a test client,
the host check) and uvicorn (its server); the page is plain HTML, CSS and JavaScript
modules shipped in the package, with nothing fetched from elsewhere.

Examples:
    >>> from starlette.testclient import TestClient
    >>> from pickomino_rules.web import create_app
    >>> client = TestClient(create_app(), base_url="http://127.0.0.1")
    >>> game = client.post("/api/new", json={"variant": "classic", "players": 2}).json()
    >>> game["view"]["phase"], game["view"]["player"]
    ('choose', 0)
"""

from __future__ import annotations

from pickomino_rules.errors import MissingExtraError

try:
    import starlette  # noqa: F401 (the extra: checked here, used by the app)
except ImportError:  # an extra: say which
    raise MissingExtraError("the web app", "web") from None

from pickomino_rules.web._api import RequestError
from pickomino_rules.web._app import LOOPBACK_HOSTS, MAX_BODY_BYTES, create_app

__all__ = ["LOOPBACK_HOSTS", "MAX_BODY_BYTES", "RequestError", "create_app"]
