"""The WSGI bridge under the ASGI router (``gupai_site.wsgi_bridge``), behind the body's deadline:
the body reaches the application whole without going back to the event loop, and the answer's
messages leave in order, a large body piece by piece."""

from __future__ import annotations

import asyncio

from a2wsgi.wsgi import Body

from gupai_site import wsgi_bridge
from gupai_site.body_deadline import BodyDeadline
from gupai_site.wsgi_bridge import WSGIBridge
from tests.scoring.web.sse import in_a_thread_of_its_own


def _post(app, body: bytes):
    """POST ``body`` through the deadline and the bridge; the messages sent."""
    guard = BodyDeadline(WSGIBridge(app, workers=2), client_of=lambda scope: "10.0.0.1", body_limit=10**7,
                         import_limit=10**7, timeout=5, per_address=2)
    scope = {"type": "http", "method": "POST", "path": "/api/v1/evaluate/", "query_string": b"", "http_version": "1.1",
             "headers": [(b"content-length", str(len(body)).encode()), (b"content-type", b"application/json")],
             "client": ("10.0.0.1", 1234), "server": ("127.0.0.1", 8000), "scheme": "http", "root_path": ""}
    pieces = [body[:3], body[3:]]
    sent = []

    async def receive():
        if pieces:
            piece = pieces.pop(0)
            return {"type": "http.request", "body": piece, "more_body": bool(pieces)}
        await asyncio.sleep(3600)

    async def send(message):
        sent.append(message)

    in_a_thread_of_its_own(guard(scope, receive, send))
    return sent


def echo(environ, start_response):
    body = environ["wsgi.input"].read()
    start_response("201 Created", [("Content-Type", "application/json")])
    return [b'{"got":', body, b"}"]


def test_the_body_reaches_the_application_whole_and_the_answer_leaves_in_order(monkeypatch):
    asked = []   # the thread asking the event loop for more of the body (a2wsgi's way)
    more = Body._receive_more_data
    monkeypatch.setattr(Body, "_receive_more_data", lambda self: (self._has_more and asked.append(1)) or more(self))
    sent = _post(echo, b'"a deal"')
    assert asked == []
    assert [m["type"] for m in sent] == ["http.response.start"] + ["http.response.body"] * 4
    assert sent[0]["status"] == 201 and (b"content-type", b"application/json") in sent[0]["headers"]
    assert b"".join(m.get("body", b"") for m in sent[1:]) == b'{"got":"a deal"}'
    assert sent[-1].get("more_body", False) is False


def test_a_large_body_is_handed_over_as_it_comes(monkeypatch):
    monkeypatch.setattr(wsgi_bridge, "FLUSH_AT", 10)
    handed = []

    def large(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        for i in range(5):
            handed.append(i)
            yield b"x" * 8

    sent = _post(large, b"{}")
    assert b"".join(m.get("body", b"") for m in sent[1:]) == b"x" * 40
    assert sent[-1].get("more_body", False) is False


def test_an_application_that_fails_sends_nothing():
    def failing(environ, start_response):
        raise RuntimeError("boom")

    try:
        _post(failing, b"{}")
    except RuntimeError as e:
        assert str(e) == "boom"
    else:
        raise AssertionError("the failure reaches the server, which answers 500")
