"""The router's access line (``gupai_site.asgi``) says what happened to a request that got no
answer: 499 when the client left before its body was whole (not a server error), 500 when the
application raised."""

from __future__ import annotations

import logging

from gupai_site.asgi import build
from tests.scoring.web.sse import in_a_thread_of_its_own


def _scope():
    return {"type": "http", "method": "POST", "path": "/api/v1/evaluate/", "query_string": b"",
            "headers": [(b"content-type", b"application/json"), (b"content-length", b"100")],
            "client": ("10.0.0.9", 1234), "http_version": "1.1"}


def _status_logged(app, caplog, messages) -> str:
    queue = list(messages)

    async def receive():
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    async def send(message):
        pass

    with caplog.at_level(logging.INFO, logger="gupai_site.access"):
        try:
            in_a_thread_of_its_own(app(_scope(), receive, send))
        except RuntimeError:
            pass
    line = caplog.records[-1].getMessage()
    return line.split('" ', 1)[1].split(" ", 1)[0]


def test_a_client_that_leaves_mid_body_is_logged_499(caplog):
    app = build(lambda environ, start_response: [], threads=1)   # never reached
    assert _status_logged(app, caplog, [{"type": "http.request", "body": b"{", "more_body": True}]) == "499"


def test_an_application_that_raises_is_logged_500(caplog):
    def broken(environ, start_response):
        raise RuntimeError("broken")

    app = build(broken, threads=1)
    assert _status_logged(app, caplog, [{"type": "http.request", "body": b"x" * 100, "more_body": False}]) == "500"
