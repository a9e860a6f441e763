"""The body's deadline and limits (``gupai_site.body_deadline``) around a stand-in for the WSGI
bridge; the real stack with stalled clients is tests/integration/test_slow_clients.py."""

from __future__ import annotations

import asyncio
import json

from django.urls import reverse

from gupai_site.body_deadline import IMPORT_PATHS, BodyDeadline, PerAddress, env_seconds
from tests.scoring.web.sse import in_a_thread_of_its_own


def _scope(path="/api/v1/evaluate/", length=None, kind=b"application/json", client="10.0.0.1"):
    headers = [(b"content-type", kind)]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    return {"type": "http", "method": "POST", "path": path, "headers": headers, "client": (client, 1234)}


class Bridge:
    """Records what reached it: the body it read."""

    def __init__(self):
        self.bodies = []

    async def __call__(self, scope, receive, send):
        message = await receive()
        self.bodies.append(message["body"])
        assert message["more_body"] is False
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def _run(guard, scope, messages, *, hold=False):
    """``messages`` then (``hold``) nothing more, as a stalled client; the answer's messages."""
    sent = []
    queue = list(messages)

    async def receive():
        if queue:
            return queue.pop(0)
        if hold:
            await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    in_a_thread_of_its_own(guard(scope, receive, send))
    return sent


def _guard(bridge, **kw):
    return BodyDeadline(bridge, client_of=lambda scope: scope["client"][0], body_limit=1000, import_limit=5000,
                        **{"timeout": 0.2, "per_address": 2, **kw})


def test_a_body_is_collected_whole_then_replayed():
    bridge = Bridge()
    sent = _run(_guard(bridge), _scope(length=7), [
        {"type": "http.request", "body": b"{\"a\"", "more_body": True},
        {"type": "http.request", "body": b":1}", "more_body": False}])
    assert bridge.bodies == [b'{"a":1}'] and sent[0]["status"] == 200


def test_a_stalled_body_answers_408_in_json_under_the_api_and_never_reaches_the_bridge():
    bridge = Bridge()
    sent = _run(_guard(bridge), _scope(length=1000), [{"type": "http.request", "body": b"{",
                                                            "more_body": True}], hold=True)
    assert bridge.bodies == []
    assert sent[0]["status"] == 408 and (b"connection", b"close") in sent[0]["headers"]
    error = json.loads(sent[1]["body"])
    assert error["errors"][0]["code"] == "request_timeout" and set(error["errors"][0]) == {"path", "code", "message"}
    sent = _run(_guard(bridge), _scope(path="/director/login/", length=10), [], hold=True)
    assert sent[0]["status"] == 408 and sent[1]["body"].startswith(b"The request body")


def test_a_client_that_leaves_mid_body_is_dropped():
    bridge = Bridge()
    assert _run(_guard(bridge), _scope(length=10), [{"type": "http.request", "body": b"{", "more_body": True}]) == []
    assert bridge.bodies == []


def test_a_body_declared_over_its_routes_limit_reaches_django_unread():
    """Django refuses it by its declared length, as it always did (413 in the API)."""
    bridge = Bridge()
    _run(_guard(bridge), _scope(length=1001), [], hold=True)
    _run(_guard(bridge), _scope(path="/api/v1/tournaments/import/", length=5001), [], hold=True)
    assert bridge.bodies == [b"", b""]
    # The import takes more than other routes; a form's upload a little more (its envelope).
    sent = _run(_guard(bridge), _scope(path="/api/v1/tournaments/import/", length=3000), [
        {"type": "http.request", "body": b"x" * 3000, "more_body": False}])
    assert sent[0]["status"] == 200 and len(bridge.bodies[-1]) == 3000


def test_a_form_upload_over_the_import_limit_answers_413_unread():
    bridge = Bridge()
    sent = _run(_guard(bridge), _scope(path="/director/clubs/3/imports/", length=5000 + 70 * 1024,
                                       kind=b"multipart/form-data; boundary=x"), [], hold=True)
    assert sent[0]["status"] == 413 and bridge.bodies == []


def test_bodies_without_a_length_pass_through():
    bridge = Bridge()
    _run(_guard(bridge), _scope(), [{"type": "http.request", "body": b"", "more_body": False}])
    assert bridge.bodies == [b""]


def test_at_most_n_bodies_in_progress_per_address():
    bridge = Bridge()
    guard = _guard(bridge, timeout=0.3)
    answers = []

    async def one(client):
        async def receive():
            await asyncio.sleep(3600)

        async def send(message):
            if message["type"] == "http.response.start":
                answers.append((client, message["status"]))

        await guard(_scope(length=10, client=client), receive, send)

    async def main():
        await asyncio.gather(*(one("10.0.0.1") for _ in range(3)), one("10.0.0.2"))

    in_a_thread_of_its_own(main())
    assert sorted(answers) == [("10.0.0.1", 408), ("10.0.0.1", 408), ("10.0.0.1", 429), ("10.0.0.2", 408)]
    assert guard.bodies.counts == {}


def test_bodies_that_come_whole_are_not_counted_however_many_come_at_once():
    """A venue's phones share one address: twenty deals arriving in one turn of a busy loop, each
    body whole with its head, are no slow clients (the limit, 2 here, counted them all before)."""
    bridge = Bridge()
    guard = _guard(bridge)
    answers = []

    async def one(i):
        async def receive():
            return {"type": "http.request", "body": b"%02d" % i, "more_body": False}

        async def send(message):
            if message["type"] == "http.response.start":
                answers.append(message["status"])

        await guard(_scope(length=2), receive, send)

    async def main():
        await asyncio.gather(*(one(i) for i in range(20)))

    in_a_thread_of_its_own(main())
    assert answers == [200] * 20 and sorted(bridge.bodies) == [b"%02d" % i for i in range(20)]
    assert guard.bodies.counts == {}


def test_per_address_counts():
    tally = PerAddress(1)
    assert tally.take("a") and not tally.take("a") and tally.take("b")
    tally.give("a")
    assert tally.take("a")


def test_deadline_from_the_environment(monkeypatch):
    monkeypatch.setenv("REQUEST_BODY_TIMEOUT", "2.5")
    assert env_seconds("REQUEST_BODY_TIMEOUT", 10, 30) == 2.5
    for raw, expected in (("600", 30), ("0", 10), ("soon", 10), ("", 10)):
        monkeypatch.setenv("REQUEST_BODY_TIMEOUT", raw)
        assert env_seconds("REQUEST_BODY_TIMEOUT", 10, 30) == expected


def test_the_import_routes_are_the_sites():
    assert IMPORT_PATHS.match(reverse("api-tournament-import"))
    assert IMPORT_PATHS.match(reverse("director-import-upload", args=[42]))
    assert not IMPORT_PATHS.match(reverse("api-evaluate"))
