"""The site as one ASGI application (``gunicorn -c gupai_site/gunicorn.conf.py gupai_site.asgi``
with ``gupai_site.asgi_worker.UvicornWorker``, or ``uvicorn gupai_site.asgi:application``):

- ``GET /api/v1/tournaments/{id}/events/`` → the events stream, a native async handler
  (``scoring.web.event_stream``): thousands of held connections per process, none holding a thread;
- everything else → Django's WSGI application through a2wsgi (``gupai_site.wsgi_bridge``), in its own
  pool of ``WSGI_THREADS`` threads (Django's own ASGI handler would run every sync view in one
  thread per process, which would serialise the scorers' writes).

Here too, before either: gunicorn's limits on a request's head (``gunicorn.conf.py``: a request
line over 8190 bytes answers 414, more than 100 header fields or one over 8190 bytes 431 —
uvicorn sets none of its own; JSON in the API's error shape under /api/,
``gupai_site.body_deadline.refusal_answer``),
and the access log in gunicorn's combined format with the time taken, scorer tokens masked
(``gupai_site.asgi_worker`` puts it in gunicorn's access log).
"""

from __future__ import annotations

import logging
import os
import re
import time

from django.core.wsgi import get_wsgi_application

from gupai_site.body_deadline import BodyDeadline, refusal_answer
from gupai_site.wsgi_bridge import WSGIBridge
from scoring.domain.inputs import MAX_ID, parse_whole_number, positive_setting
from scoring.web.client_address import behind_proxy, client_address, proxy_hops

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gupai_site.settings")

#: The events route: everything else goes to Django.
#: ASCII digits: ``\d`` also takes "١" (which ``int`` reads as 1), where Django's ``<int:pk>`` does not.
EVENTS_PATH = re.compile(r"^/api/v1/tournaments/([0-9]{1,18})/events/$")
LIMIT_REQUEST_LINE = 8190
LIMIT_REQUEST_FIELDS = 100
LIMIT_REQUEST_FIELD_SIZE = 8190

access_log = logging.getLogger("gupai_site.access")


def _threads() -> int:
    return positive_setting(os.environ.get("WSGI_THREADS"), 4)


def _head_refusal(scope) -> tuple[int, str, str] | None:
    """(status, code, message) of a head over gunicorn's limits, or None."""
    line = len(scope["method"]) + len(scope.get("raw_path") or scope["path"].encode()) + 11
    if scope.get("query_string"):
        line += len(scope["query_string"]) + 1
    if line > LIMIT_REQUEST_LINE:
        return 414, "uri_too_long", "Request-URI Too Long"
    headers = scope.get("headers", [])
    if len(headers) > LIMIT_REQUEST_FIELDS or any(len(k) + len(v) + 2 > LIMIT_REQUEST_FIELD_SIZE for k, v in headers):
        return 431, "headers_too_large", "Request Header Fields Too Large"
    return None


def _client_of(scope) -> str | None:
    client = (scope.get("client") or (None,))[0]
    if behind_proxy():
        forwarded = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-forwarded-for"), None)
        return client_address(forwarded, client, proxy_hops())
    return client


def _log_access(scope, status: int, size: int, started: float) -> None:
    if not access_log.isEnabledFor(logging.INFO):
        return
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    client = _client_of(scope) or "-"
    query = scope.get("query_string", b"").decode("latin-1")
    target = (scope.get("raw_path") or scope["path"].encode()).decode("latin-1") + (f"?{query}" if query else "")
    when = time.strftime("[%d/%b/%Y:%H:%M:%S %z]", time.localtime())
    # The message is whole text: the masking filter reads it (gupai_site/logmask.py).
    access_log.info('%s - - %s "%s %s HTTP/%s" %s %s "%s" "%s" %dms', client, when, scope["method"], target,
                    scope.get("http_version", "1.1"), status, size or "-", headers.get("referer", "-"),
                    headers.get("user-agent", "-"), (time.monotonic() - started) * 1000)


def build(wsgi_app, *, threads: int | None = None):
    """The router around ``wsgi_app`` (the tests build one around theirs)."""
    # The body is read in the event loop under a deadline before a thread is taken (body_deadline).
    wsgi = BodyDeadline(WSGIBridge(wsgi_app, workers=threads or _threads()), client_of=_client_of)
    # Django is set up by now (get_wsgi_application): the stream's modules may import models.
    from gupai_site.metrics import STREAMS_HELD
    from scoring.web import event_stream

    async def application(scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    event_stream.stop_hubs()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        started = time.monotonic()
        answered = {"status": 0, "size": 0}

        async def logged_send(message):
            if message["type"] == "http.response.start":
                answered["status"] = message["status"]
            elif message["type"] == "http.response.body":
                answered["size"] += len(message.get("body", b""))
            await send(message)

        try:
            refusal = _head_refusal(scope)
            match = EVENTS_PATH.match(scope["path"])
            if refusal is not None:
                content_type, body = refusal_answer(scope["path"], *refusal[1:])
                await logged_send({"type": "http.response.start", "status": refusal[0],
                                   "headers": [(b"content-type", content_type), (b"connection", b"close")]})
                await logged_send({"type": "http.response.body", "body": body})
            elif match:
                STREAMS_HELD.inc()   # for /metrics (gupai_site.metrics), while the stream is held
                try:
                    await event_stream.tournament_events(scope, receive, logged_send,
                                                         parse_whole_number(match[1], low=0, high=MAX_ID))
                finally:
                    STREAMS_HELD.dec()
            else:
                await wsgi(scope, receive, logged_send)
        except BaseException:
            answered["failed"] = True
            raise
        finally:
            # Nothing answered and nothing raised: the client left first (a body that never came
            # whole), logged as 499 as nginx does, not as a server error.
            status = answered["status"] or (500 if answered.get("failed") else 499)
            _log_access(scope, status, answered["size"], started)

    return application


application = build(get_wsgi_application())
