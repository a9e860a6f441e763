"""Slow clients hold no thread: request bodies that never finish (``Content-Length: 100000``, then
``{`` and nothing more) and heads that never finish, held open against the real gunicorn with
the site's configuration (one worker, its 2 threads as deployed), while a scorer records deals
and public pages load in normal time. The stalled ones are answered 408 and closed after their
deadline (short here: ``REQUEST_BODY_TIMEOUT`` / ``REQUEST_HEAD_TIMEOUT``). Needs PostgreSQL
(the site shares the test's database), not Redis."""

from __future__ import annotations

import logging
import socket
import time

import pytest
from django.conf import settings

from .stack import Site

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                       reason="gunicorn needs a database it can share with the test: PostgreSQL (DATABASE_URL)"),
]

DEADLINE = 4.0
FAST = 2.0
POINTS = [[2, 12, 34, 18], [12, 2, 34, 18], [34, 18, 2, 12]]
log = logging.getLogger(__name__)


@pytest.fixture
def site(transactional_db, tmp_path):
    site = Site(redis_url="", workers=1, log_path=tmp_path / "gunicorn.log",
                extra_env={"REQUEST_BODY_TIMEOUT": str(DEADLINE), "REQUEST_HEAD_TIMEOUT": str(DEADLINE),
                           "GUNICORN_THREADS": "2", "SLOW_REQUESTS_PER_ADDRESS": "8"})
    try:
        yield site
    finally:
        site.stop()


def _open(site: Site, source: str, data: bytes) -> socket.socket:
    """A connection from ``source`` (any 127.x.y.z is this machine) that sends ``data`` and stops."""
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(10)
    s.connect(("127.0.0.1", site.port))
    s.sendall(data)
    return s


def stalled_body(site: Site, source: str) -> socket.socket:
    return _open(site, source, b"POST /api/v1/evaluate/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                               b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")


def partial_head(site: Site, source: str) -> socket.socket:
    return _open(site, source, b"POST /api/v1/evaluate/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")


def still_waiting(s: socket.socket) -> bool:
    """No answer yet and not closed."""
    s.setblocking(False)
    try:
        s.recv(1, socket.MSG_PEEK)  # an answer, or b"": closed
        return False
    except BlockingIOError:
        return True
    finally:
        s.setblocking(True)


def answer(s: socket.socket) -> bytes:
    """Everything the server writes until it closes the connection."""
    s.settimeout(DEADLINE + 10)
    out = b""
    while chunk := s.recv(65536):
        out += chunk
    return out


def usual_traffic(site: Site, setup, keys: str) -> list[float]:
    """A scorer's deals and public pages, each answered as usual; their times."""
    url = f"/api/v1/tables/{setup.table.pk}/rounds/"
    scorer = {"Authorization": f"Scorer {setup.token}"}
    took = []
    for i in range(3):
        status, body, t = site.request("POST", url, {"points": POINTS[i], "entered_by": 0},
                                       {**scorer, "Idempotency-Key": f"{keys}-{i}"}, timeout=FAST + 3)
        assert status == 201, body
        took.append(t)
        for path in ("/", f"/t/{setup.tournament.slug}/"):
            status, _, t = site.request("GET", path, timeout=FAST + 3)
            assert status == 200, path
            took.append(t)
    return took


def test_stalled_bodies_and_heads_hold_no_thread(site, make_setup):
    setup = make_setup("jie_long")
    site.request("GET", "/")  # the worker's first request (Django's URLs, templates) out of the figures

    # Four stalled bodies (two threads' worth twice over) and three partial heads.
    opened = time.monotonic()
    bodies = [stalled_body(site, "127.0.0.2") for _ in range(4)]
    heads = [partial_head(site, "127.0.0.3") for _ in range(3)]
    time.sleep(0.3)
    took = usual_traffic(site, setup, "four")
    log.info("with 4 stalled bodies held open: deals and pages took %s s", ", ".join(f"{t:.3f}" for t in took))
    assert max(took) < FAST, took
    assert time.monotonic() - opened < DEADLINE and all(still_waiting(s) for s in bodies + heads)

    for s in bodies:
        got = answer(s)
        assert got.startswith(b"HTTP/1.1 408 ") and b'"code": "request_timeout"' in got, got
    for s in heads:
        assert answer(s).startswith(b"HTTP/1.1 408 ")
    waited = time.monotonic() - opened
    assert DEADLINE - 0.5 < waited < DEADLINE + 3, waited

    # Forty, each from an address of its own; and one address's stalled bodies beyond eight are
    # refused at once.
    opened = time.monotonic()
    bodies = [stalled_body(site, f"127.0.1.{n}") for n in range(1, 41)]
    crowd = [stalled_body(site, "127.0.0.4") for _ in range(10)]
    heads = [partial_head(site, "127.0.0.5") for _ in range(10)]
    time.sleep(0.3)
    took = usual_traffic(site, setup, "forty")
    log.info("with 40 stalled bodies held open: deals and pages took %s s", ", ".join(f"{t:.3f}" for t in took))
    assert max(took) < FAST, took
    assert time.monotonic() - opened < DEADLINE and all(still_waiting(s) for s in bodies)

    crowd_answers = [answer(s) for s in crowd]
    assert sum(a.startswith(b"HTTP/1.1 429 ") for a in crowd_answers) == 2, crowd_answers
    assert sum(a.startswith(b"HTTP/1.1 408 ") for a in crowd_answers) == 8, crowd_answers
    # Partial heads beyond eight from one address: closed at once, without an answer.
    head_answers = [answer(s) for s in heads]
    assert sorted(a[:12] for a in head_answers) == [b""] * 2 + [b"HTTP/1.1 408"] * 8, head_answers
    for s in bodies:
        assert answer(s).startswith(b"HTTP/1.1 408 ")
    for s in bodies + crowd + heads:
        s.close()

    # A client that leaves in the middle of its body costs nothing: the site still answers.
    s = stalled_body(site, "127.0.0.6")
    s.close()
    status, _, took_after = site.request("GET", "/", timeout=FAST + 3)
    assert status == 200 and took_after < FAST
