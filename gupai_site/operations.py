"""The settings of running the site beyond one process (``gupai_site.settings`` imports them): the
replica, the probes, the metrics and the backups. See docs/reliability.md.

DATABASE_REPLICA_URL   a streaming replica of DATABASE_URL: the ``replica`` database alias, which
                       the public pages read (``scoring.selectors.replica``); /readyz reports its lag
DATABASE_POOLER        ``pgbouncer`` when DATABASE_URL is a PgBouncer in transaction mode: no
                       server-side cursors, no prepared statements, and the statement and lock
                       timeouts left to PgBouncer's ``connect_query`` (it refuses libpq ``options``)
REPLICA_MAX_LAG_SECONDS   /readyz is not ready while the replica lags more (default 30)
QUEUE_HEARTBEAT_STALE_SECONDS   a queue whose last worker heartbeat is older is not ready (default 90)
DB_CONNECT_TIMEOUT   PostgreSQL: seconds a new connection may take (default 5)
METRICS_TOKEN        /metrics answers ``Authorization: Bearer <token>`` from anywhere (without
                     it, only requests from loopback)
PROMETHEUS_MULTIPROC_DIR  prometheus_client's multiprocess mode for gunicorn's workers
                     (gupai_site/gunicorn.conf.py)
BACKUP_DIR           where ``manage.py backup`` writes (default backups/ in the project)
BACKUP_KEEP          days a backup is kept (default 14)
MEDIA_ROOT           the stored files a backup takes too (default media/ in the project)
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from gupai_site.dbtimeout import with_lock_timeout, with_statement_timeout
from scoring.domain.inputs import number_setting

__all__ = ["BACKUP_DIR", "BACKUP_KEEP_DAYS", "DATABASE_POOLER", "DATABASE_REPLICA_URL", "DATABASE_ROUTERS", "DB_CONNECT_TIMEOUT", "MEDIA_ROOT",
           "METRICS_TOKEN", "QUEUE_HEARTBEAT_STALE_SECONDS", "REPLICA_MAX_LAG_SECONDS", "SECURE_REDIRECT_EXEMPT"]

BASE_DIR = Path(__file__).resolve().parent.parent

#: A streaming replica (the ``replica`` alias): read explicitly, never by a generic read/write
#: split; /readyz reports its lag.
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "").strip()
#: The public pages' reads inside ``reading(replica=True)`` go there; nothing else does.
DATABASE_ROUTERS = ["scoring.selectors.replica.ReplicaRouter"]
#: What DATABASE_URL reaches: PostgreSQL itself ("") or PgBouncer in transaction mode.
DATABASE_POOLER = os.environ.get("DATABASE_POOLER", "").strip().lower()
if DATABASE_POOLER not in ("", "pgbouncer"):
    raise ImproperlyConfigured(f"DATABASE_POOLER must be pgbouncer or empty, not {DATABASE_POOLER!r}")
#: /readyz is ready only while the replica's replay is less than this far behind (seconds).
REPLICA_MAX_LAG_SECONDS = number_setting("REPLICA_MAX_LAG_SECONDS", os.environ.get("REPLICA_MAX_LAG_SECONDS"), 30)
#: A PostgreSQL server that does not answer fails a new connection after this many seconds
#: (libpq waits for ever by default): /readyz and the requests hear "unavailable" in time.
DB_CONNECT_TIMEOUT = number_setting("DB_CONNECT_TIMEOUT", os.environ.get("DB_CONNECT_TIMEOUT"), 5, low=1)

#: A queue is ready while its workers' last heartbeat (gupai_site.tasks.queue_heartbeat, sent by
#: beat every 30 s) is younger than this (seconds).
QUEUE_HEARTBEAT_STALE_SECONDS = number_setting("QUEUE_HEARTBEAT_STALE_SECONDS",
                                               os.environ.get("QUEUE_HEARTBEAT_STALE_SECONDS"), 90, low=1)
#: /metrics from anywhere with ``Authorization: Bearer <METRICS_TOKEN>``; from loopback without.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()
#: The load balancer and Prometheus ask these over plain http on the node itself.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]

BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", "").strip() or BASE_DIR / "backups")
BACKUP_KEEP_DAYS = number_setting("BACKUP_KEEP", os.environ.get("BACKUP_KEEP"), 14, low=1)
#: The files the default storage keeps (the site keeps its documents in the database today;
#: ``manage.py backup`` takes this folder too, whatever it holds).
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", "").strip() or BASE_DIR / "media")


def replica_databases(url: str, *, testing: bool) -> dict:
    """``{"replica": its settings}`` when ``url`` names one (in tests: the default database
    itself, MIRROR), else nothing."""
    if not url:
        return {}
    replica = dj_database_url.parse(url, conn_max_age=0 if testing else 60, conn_health_checks=True)
    replica["TEST"] = {"MIRROR": "default"}
    return {"replica": replica}


def postgresql_options(databases: dict, *, statement_timeout: float, lock_timeout: float,
                       pooler: str = DATABASE_POOLER) -> None:
    """Every PostgreSQL alias of ``databases`` on the site's backend (``gupai_site.postgresql``),
    with the web's statement and lock timeouts,
    ``DB_CONNECT_TIMEOUT`` unless its URL says otherwise, no server-side cursors, and values bound
    by the server with statements prepared (reached directly); the default one made fit for
    PgBouncer when ``pooler`` (``DATABASE_POOLER``) says it is one."""
    for name, alias in databases.items():
        if alias["ENGINE"] == "django.db.backends.postgresql":   # its health check without a round trip
            alias["ENGINE"] = "gupai_site.postgresql"
        if name == "default" and pooler and alias["ENGINE"].endswith("postgresql"):
            through_pgbouncer(alias)
        elif alias["ENGINE"].endswith("postgresql"):
            options = alias.setdefault("OPTIONS", {})
            options["options"] = with_lock_timeout(with_statement_timeout(options.get("options", ""),
                                                                          statement_timeout), lock_timeout)
            options.setdefault("connect_timeout", DB_CONNECT_TIMEOUT)
            # Values bound by the server, so that psycopg prepares a statement run often and
            # PostgreSQL plans it once a connection (gupai_site.row_security.ScopedServerCursor).
            options.setdefault("server_side_binding", True)
            options.setdefault("prepare_threshold", 5)   # Django's default is None: never
            # No server-side cursors (``iterator()`` reads in chunks client-side): a named cursor takes no
            # row scope before its statement (row_security.py), nor does PgBouncer's transaction mode keep one.
            alias["DISABLE_SERVER_SIDE_CURSORS"] = True


def through_pgbouncer(alias: dict) -> None:
    """A database alias served by PgBouncer in transaction mode, where each transaction may meet
    another server connection: no server-side cursors (a cursor lives past its transaction), no
    prepared statements (psycopg prepares a query run five times, on one server connection), and
    no libpq ``options`` (PgBouncer refuses the startup parameter: the web's statement and lock
    timeouts are its ``connect_query``'s, scripts/cluster.py)."""
    alias["DISABLE_SERVER_SIDE_CURSORS"] = True
    options = alias.setdefault("OPTIONS", {})
    options["prepare_threshold"] = None
    options.pop("options", None)
    options.setdefault("connect_timeout", DB_CONNECT_TIMEOUT)
