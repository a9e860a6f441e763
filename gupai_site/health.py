"""``GET /healthz`` and ``GET /readyz``: what a load balancer (haproxy) and an operator ask a node.

- ``/healthz``: 200 ``ok`` whenever the process answers; it touches nothing else (a node whose
  database is away is alive, and restarting it would not bring the database back).
- ``/readyz``: whether this node can serve, as JSON ``{"ready": bool, "checks": {...}}``, 503
  when not, with each failing part's ``ok`` false:

  - ``database``: ``SELECT 1`` on the primary (``ms``);
  - ``replica``: the ``replica`` alias's replay lag in seconds (``lag_seconds``), ready below
    ``REPLICA_MAX_LAG_SECONDS``; ``{"ok": true, "configured": false}`` without one;
  - ``redis``: a ``PING`` (``ms``); ``{"ok": true, "configured": false}`` without ``REDIS_URL``;
  - ``queues``: per Celery queue, the age of the last worker heartbeat
    (``heartbeat_age_seconds``, ``gupai_site.tasks.queue_heartbeat``), ready below
    ``QUEUE_HEARTBEAT_STALE_SECONDS``; ``{"ok": true, "eager": true}`` when tasks run in-process.

Every check gives up within a second or two (socket and statement timeouts), so a Redis or a
database that does not answer makes the node not ready rather than its probe hang.
"""

from __future__ import annotations

import time

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connections, transaction
from django.http import HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

#: Seconds a check's socket or statement may take.
CHECK_TIMEOUT = 1.0
REPLICA = "replica"


def heartbeat_key(queue: str) -> str:
    """The cache key holding the time (``time.time()``) of ``queue``'s last heartbeat."""
    return f"gupai:queue-heartbeat:{queue}"


def queue_names() -> list[str]:
    """The Celery queues the site's tasks go to (``gupai_site.queues``, as the app is configured)."""
    from gupai_site.celery import app

    queues = app.conf.task_queues or ()
    return [q.name for q in queues] or [app.conf.task_default_queue]


def tasks_run_eagerly() -> bool:
    from gupai_site.celery import app

    return bool(app.conf.task_always_eager)


def redis_client() -> redis.Redis | None:
    """A client of ``REDIS_URL`` that gives up within ``CHECK_TIMEOUT`` (None without one)."""
    if not settings.REDIS_URL:
        return None
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=CHECK_TIMEOUT,
                                socket_timeout=CHECK_TIMEOUT, retry_on_timeout=False)


def _timed(fn) -> dict:
    started = time.monotonic()
    try:
        found = fn()
        out = {"ok": True, **(found if isinstance(found, dict) else {})}
    except Exception as e:  # noqa: BLE001 - any failure is the answer: not ready, and why
        out = {"ok": False, "error": f"{type(e).__name__}: {e}"[:200]}
    out["ms"] = round((time.monotonic() - started) * 1000, 1)
    return out


def _query_one(alias: str, sql: str) -> tuple:
    """``sql``'s first row on ``alias``, given ``CHECK_TIMEOUT`` on PostgreSQL (no transaction
    on SQLite, whose transactions here take the write lock: a probe never waits for a writer)."""
    connection = connections[alias]
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return cursor.fetchone()
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        # set_config, not SET: a SET takes no bound value (the site binds values server-side)
        cursor.execute("SELECT set_config('statement_timeout', %s, true)", [f"{int(CHECK_TIMEOUT * 1000)}ms"])
        cursor.execute(sql)
        return cursor.fetchone()


def check_database() -> dict:
    return _timed(lambda: _query_one("default", "SELECT 1"))


#: 0 on a primary (not in recovery) and on a replica that has replayed all it received;
#: else how long ago the last replayed transaction committed on the primary.
REPLICA_LAG_SQL = """
SELECT CASE WHEN NOT pg_is_in_recovery() THEN 0
            WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
            ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()) END,
       pg_is_in_recovery()
"""


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


def replica_lag() -> tuple[float | None, bool]:
    """(lag in seconds, in recovery) of the ``replica`` alias; lag None when it cannot be told
    (a replica that has replayed nothing yet). Raises when the replica does not answer."""
    if connections[REPLICA].vendor != "postgresql":
        return 0.0, False
    lag, in_recovery = _query_one(REPLICA, REPLICA_LAG_SQL)
    return (None if lag is None else max(float(lag), 0.0)), bool(in_recovery)


def check_replica() -> dict:
    if not replica_configured():
        return {"ok": True, "configured": False}

    def lag():
        seconds, in_recovery = replica_lag()
        if seconds is None or seconds >= settings.REPLICA_MAX_LAG_SECONDS:
            raise LagTooLong(seconds)
        return {"lag_seconds": round(seconds, 3), "in_recovery": in_recovery}
    out = _timed(lag)
    out.setdefault("lag_seconds", None)
    return out


class LagTooLong(Exception):
    def __init__(self, seconds: float | None) -> None:
        super().__init__("lag unknown (nothing replayed yet)" if seconds is None else
                         f"{seconds:.1f} s behind (limit {settings.REPLICA_MAX_LAG_SECONDS} s)")


def check_redis() -> dict:
    client = redis_client()
    if client is None:
        return {"ok": True, "configured": False}
    try:
        return _timed(client.ping)
    finally:
        client.close()


def heartbeat_ages(now: float | None = None) -> dict[str, float | None]:
    """Seconds since each queue's last heartbeat (None: never heard). Raises when the cache
    does not answer."""
    now = time.time() if now is None else now
    names = queue_names()
    kept = cache.get_many([heartbeat_key(q) for q in names])
    ages = {}
    for name in names:
        at = kept.get(heartbeat_key(name))
        ages[name] = None if not isinstance(at, (int, float)) else round(max(now - at, 0.0), 1)
    return ages


def check_queues() -> dict:
    if tasks_run_eagerly():
        return {name: {"ok": True, "eager": True} for name in queue_names()}
    try:
        ages = heartbeat_ages()
    except Exception as e:  # noqa: BLE001 - the cache (Redis) away: no heartbeat can be read
        return {name: {"ok": False, "heartbeat_age_seconds": None, "error": f"{type(e).__name__}: {e}"[:200]}
                for name in queue_names()}
    stale = settings.QUEUE_HEARTBEAT_STALE_SECONDS
    return {name: {"ok": age is not None and age < stale, "heartbeat_age_seconds": age} for name, age in ages.items()}


def readiness() -> dict:
    checks = {"database": check_database(), "replica": check_replica(), "redis": check_redis(),
              "queues": check_queues()}
    ready = all(c["ok"] for key, c in checks.items() if key != "queues") and all(
        q["ok"] for q in checks["queues"].values())
    return {"ready": ready, "checks": checks}


@never_cache
@require_safe
def healthz(request):
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")


@never_cache
@require_safe
def readyz(request):
    answer = readiness()
    return JsonResponse(answer, status=200 if answer["ready"] else 503)
