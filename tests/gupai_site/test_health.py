"""``/healthz`` and ``/readyz`` (gupai_site/health.py): alive always; ready only while the
database, the replica, Redis and a worker on each queue answer, with the failing part named."""

from __future__ import annotations

import time
import uuid

import pytest
from django.core.cache import cache
from django.db import connections
from kombu import Exchange, Queue

from gupai_site.health import heartbeat_key
from gupai_site.tasks import queue_heartbeat
from tests.integration.stack import free_port

on_postgresql = pytest.mark.skipif(connections["default"].vendor != "postgresql",
                                   reason="replica lag is PostgreSQL's (DATABASE_URL)")


@pytest.fixture
def own_queues():
    """Tasks go through a broker (not eagerly), on queues of this test's own (the cache may be a
    Redis other test processes share): their names."""
    from gupai_site.celery import app

    names = [f"h-{uuid.uuid4().hex[:10]}", f"h-{uuid.uuid4().hex[:10]}-documents"]
    old = (app.conf.task_always_eager, app.conf.task_queues)
    app.conf.task_always_eager = False
    app.conf.task_queues = tuple(Queue(n, Exchange(n), routing_key=n) for n in names)
    yield names
    app.conf.task_always_eager, app.conf.task_queues = old
    cache.delete_many([heartbeat_key(n) for n in names])


def test_healthz_answers_ok_without_the_database(client):
    # No database access is allowed in this test (pytest-django): the probe makes none.
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.content == b"ok"
    assert r["Content-Type"].startswith("text/plain")


def test_ready_with_everything_answering(client, db):
    r = client.get("/readyz")
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["ready"] is True
    checks = body["checks"]
    assert checks["database"]["ok"] is True and checks["database"]["ms"] >= 0
    assert checks["replica"] == {"ok": True, "configured": False}
    assert checks["redis"]["ok"] is True
    # Tasks run in-process here: every queue of gupai_site/queues.py says so.
    assert checks["queues"] == {"celery": {"ok": True, "eager": True}, "documents": {"ok": True, "eager": True}}
    assert r["Cache-Control"].startswith("max-age=0")


def test_not_ready_naming_redis_when_it_does_not_answer(client, db, settings):
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"   # nothing listens there
    started = time.monotonic()
    r = client.get("/readyz")
    assert time.monotonic() - started < 3   # a second's timeout, not a hang
    assert r.status_code == 503
    checks = r.json()["checks"]
    assert checks["redis"]["ok"] is False
    assert "Connection" in checks["redis"]["error"]
    assert checks["database"]["ok"] is True and checks["replica"]["ok"] is True


def test_ready_with_a_fresh_heartbeat_on_each_queue(client, db, own_queues):
    for name in own_queues:
        queue_heartbeat(name)
    r = client.get("/readyz")
    assert r.status_code == 200, r.json()
    queues = r.json()["checks"]["queues"]
    assert set(queues) == set(own_queues)
    assert all(q["ok"] and 0 <= q["heartbeat_age_seconds"] < 5 for q in queues.values())


def test_a_stale_heartbeat_is_not_ready(client, db, own_queues, settings):
    settings.QUEUE_HEARTBEAT_STALE_SECONDS = 90
    fresh, stale = own_queues
    queue_heartbeat(fresh)
    cache.set(heartbeat_key(stale), time.time() - 91, 3600)
    r = client.get("/readyz")
    assert r.status_code == 503
    body = r.json()
    assert body["ready"] is False
    assert body["checks"]["queues"][fresh]["ok"] is True
    assert body["checks"]["queues"][stale]["ok"] is False
    assert body["checks"]["queues"][stale]["heartbeat_age_seconds"] >= 91


def test_a_queue_never_heard_from_is_not_ready(client, db, own_queues):
    queue_heartbeat(own_queues[0])
    r = client.get("/readyz")
    assert r.status_code == 503
    assert r.json()["checks"]["queues"][own_queues[1]] == {"ok": False, "heartbeat_age_seconds": None}


def test_the_replica_is_checked_when_configured(client, replica):
    # The primary as "replica": not in recovery, so nothing to replay (PostgreSQL); SQLite has no lag.
    r = client.get("/readyz")
    assert r.status_code == 200, r.json()
    check = r.json()["checks"]["replica"]
    assert check["ok"] is True
    assert check["lag_seconds"] == 0


@on_postgresql
def test_replica_lag_is_read_from_postgresql(replica):
    from gupai_site.health import replica_lag

    assert replica_lag() == (0.0, False)   # pg_is_in_recovery() is false on a primary


def test_a_replica_lagging_past_the_limit_is_not_ready(client, replica, settings):
    settings.REPLICA_MAX_LAG_SECONDS = 0   # 0 s behind is already too far
    r = client.get("/readyz")
    assert r.status_code == 503
    check = r.json()["checks"]["replica"]
    assert check["ok"] is False
    assert "limit 0 s" in check["error"]


def test_the_beat_schedule_sends_a_heartbeat_to_each_queue(settings):
    from gupai_site.queues import QUEUES

    beats = {e["args"][0]: e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "gupai_site.queue_heartbeat"}
    assert set(beats) == set(QUEUES)
    assert all(e["schedule"] == 30.0 and e["options"] == {"queue": name, "expires": 60.0} for name, e in beats.items())


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics"])
def test_the_probes_are_not_redirected_to_https(client, db, settings, path):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get(path).status_code == 200
    assert client.get("/robots.txt").status_code == 301   # everything else is
