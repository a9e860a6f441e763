"""A request's body is read in the event loop, under a deadline and its route's size limit, before
a thread of Django's pool is given to it (``gupai_site.asgi`` wraps its WSGI bridge in
``BodyDeadline``).

Why: the WSGI bridge (a2wsgi) hands the request to a pool thread at once and that thread then
waits for each chunk of the body without a deadline. A client that declares ``Content-Length:
100000`` and sends ``{`` holds a thread for as long as it likes; with ``GUNICORN_THREADS`` (2) of
them per worker, four such clients froze the whole site. Here the body is collected in the event
loop (where a waiting connection costs a few kB, not a thread) and replayed to the bridge once
whole, so a thread only ever reads bytes already in memory.

- ``REQUEST_BODY_TIMEOUT`` (seconds, default 10, at most 30): the whole body must arrive within
  it, counted from the end of the head; else **408** (the API's JSON error shape under ``/api/``,
  plain text elsewhere) and the connection is closed. A client that disconnects mid-body is
  dropped without reaching Django.
- ``SLOW_REQUESTS_PER_ADDRESS`` (default 8): at most that many slow bodies — still arriving
  ``SLOW_AFTER`` (0.5 s) after the head — at once from one client address (``X-Forwarded-For``
  behind a proxy, as the access log reads it) in one worker process; one more answers **429**
  and is closed. Real bodies arrive in milliseconds and are never counted, however many come at
  once: a club's phones behind one address, on a busy server, are not refused for it.
- Sizes: a body is collected only up to its route's limit — the import's (``IMPORT_MAX_BYTES``,
  with room for a form's envelope on the club page's upload) or Django's
  ``DATA_UPLOAD_MAX_MEMORY_SIZE`` for every other route. A body declared larger goes to Django
  unread (with an empty body), which refuses it by its declared length exactly as before
  (413 in the API, 400 on pages); a form upload (multipart) declared larger than the import's
  limit, which Django would read whole before refusing, answers 413 here.
- A body without ``Content-Length`` (chunked) is not collected: Django reads no body it was not
  told the length of.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections import Counter

from gupai_site.wsgi_bridge import BODY
from scoring.domain.errors import problem
from scoring.domain.inputs import MAX_ID, parse_whole_number, positive_setting

DEFAULT_BODY_TIMEOUT = 10.0
MAX_BODY_TIMEOUT = 30.0
DEFAULT_PER_ADDRESS = 8
#: A body still arriving after this long (seconds) is a slow one, counted against its address.
SLOW_AFTER = 0.5

#: The two routes that take the import's documents (``IMPORT_MAX_BYTES``): the API's import and
#: the club page's upload (tests/gupai_site/test_body_deadline.py checks them against the URLs).
IMPORT_PATHS = re.compile(r"^/(?:api/v1/tournaments/import/|director/clubs/[0-9]{1,18}/imports/)$")
#: A form's envelope around the uploaded file (boundaries, part headers, the CSRF field).
FORM_ENVELOPE = 64 * 1024


def env_seconds(name: str, default: float, most: float) -> float:
    """A positive number of seconds from the environment, at most ``most``; else ``default``."""
    try:
        value = float(os.environ.get(name, "").strip())
    except ValueError:
        return default
    return min(value, most) if value > 0 else default


def env_count(name: str, default: int) -> int:
    return positive_setting(os.environ.get(name), default)


class PerAddress:
    """How many slow things (heads, bodies) each client address has in progress, in this process
    (the event loop is one thread: no lock)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.counts: Counter[str] = Counter()

    def take(self, key: str) -> bool:
        """Count one more for ``key``; False (and nothing counted) when it is at its limit."""
        if self.counts[key] >= self.limit:
            return False
        self.counts[key] += 1
        return True

    def give(self, key: str) -> None:
        self.counts[key] -= 1
        if self.counts[key] <= 0:
            del self.counts[key]


def _header(scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value
    return None


def refusal_answer(path: str, code: str, message: str) -> tuple[bytes, bytes]:
    """The content type and body of a refusal made before Django (here or by ``gupai_site.asgi``):
    the API's error shape under /api/ (a client there reads JSON whatever the answer), plain text
    elsewhere."""
    if path.startswith("/api/"):
        return b"application/json", json.dumps({"errors": [problem("", code, message)], "detail": message}).encode()
    return b"text/plain; charset=utf-8", message.encode()


async def refuse(scope, send, status: int, code: str, message: str, headers: list | None = None) -> None:
    """An answer of our own, the connection closed after it (the rest of the body is not read)."""
    kind, body = refusal_answer(scope["path"], code, message)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


class BodyDeadline:
    """ASGI middleware around the WSGI bridge: see the module's docstring. ``client_of(scope)``
    is the client's address (the proxy's ``X-Forwarded-For`` behind one)."""

    def __init__(self, app, *, client_of, timeout: float | None = None, per_address: int | None = None,
                 body_limit: int | None = None, import_limit: int | None = None) -> None:
        from django.conf import settings

        self.app = app
        self.client_of = client_of
        self.timeout = timeout or env_seconds("REQUEST_BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT, MAX_BODY_TIMEOUT)
        self.bodies = PerAddress(per_address or env_count("SLOW_REQUESTS_PER_ADDRESS", DEFAULT_PER_ADDRESS))
        # Most bodies are whole within the grace, uncounted: many that came at once in one turn
        # of a busy loop are no slow clients (a venue's phones share one address).
        self.grace = min(SLOW_AFTER, self.timeout / 2)
        # Django's own limit (None: none; then the import's is the most anything is read to).
        self.body_limit = body_limit or settings.DATA_UPLOAD_MAX_MEMORY_SIZE or settings.IMPORT_MAX_BYTES
        self.import_limit = import_limit or settings.IMPORT_MAX_BYTES

    def limit_of(self, scope, multipart: bool) -> int:
        if IMPORT_PATHS.match(scope["path"]):
            return self.import_limit + (FORM_ENVELOPE if multipart else 0)
        return self.body_limit

    async def __call__(self, scope, receive, send):
        raw = _header(scope, b"content-length")
        if scope["type"] != "http" or raw is None:
            return await self.app(scope, receive, send)
        # A length past any body reads as the largest: refused by it, as any over its limit.
        declared = parse_whole_number(raw.decode("latin-1"), low=0, high=MAX_ID, clamp=True)
        if not declared:  # nothing to wait for (the server refuses a malformed length itself)
            return await self.app(scope, receive, send)
        multipart = (_header(scope, b"content-type") or b"").lower().startswith(b"multipart/")
        limit = self.limit_of(scope, multipart)
        if declared > limit:
            if multipart:
                return await refuse(scope, send, 413, "too_large", f"The body is too large: at most {limit} bytes.")
            # Django refuses it by its declared length without reading it (as it always did).
            return await self.app(scope, _replay(b"", receive), send)

        client = self.client_of(scope) or "-"
        collecting = asyncio.ensure_future(_collect(receive, declared))
        try:
            done, _ = await asyncio.wait({collecting}, timeout=self.grace)
            if not done and not self.bodies.take(client):
                return await refuse(scope, send, 429, "too_many_requests",
                                    "Too many requests in progress from this address.", [(b"retry-after", b"10")])
            try:
                body = collecting.result() if done else await asyncio.wait_for(collecting, self.timeout - self.grace)
            except TimeoutError:
                return await refuse(scope, send, 408, "request_timeout",
                                    f"The request body did not arrive within {self.timeout:g} s.")
            finally:
                if not done:
                    self.bodies.give(client)
        finally:
            collecting.cancel()   # done already, or the answer given without it
        if body is None:  # the client left: nobody to answer
            return
        scope[BODY] = body   # the WSGI bridge reads it from here (gupai_site.wsgi_bridge)
        return await self.app(scope, _replay(body, receive), send)


async def _collect(receive, declared: int) -> bytes | None:
    """The whole body (at most ``declared`` bytes: the server stops there), or None when the
    client disconnected first."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if not message.get("more_body", False) or size >= declared:
            return b"".join(chunks)


def _replay(body: bytes, receive):
    """A ``receive`` that gives the collected body at once, whole; then the connection's own
    (which only says when the client leaves)."""
    sent = False

    async def replayed():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
