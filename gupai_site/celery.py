"""The Celery app. Broker and result backend come from REDIS_URL (see settings); without it,
tasks run eagerly in-process, which is enough for a laptop and for plain test runs.

A worker's database connections take ``DB_TASK_STATEMENT_TIMEOUT`` rather than the web's
``DB_STATEMENT_TIMEOUT`` (``use_task_statement_timeout``, on ``worker_init``: before the pool
forks, so every pool's processes connect with it)."""

import os

from celery import Celery
from celery.signals import worker_init, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gupai_site.settings")

app = Celery("gupai_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def use_task_statement_timeout() -> None:
    """From now on, this process's new PostgreSQL connections take the tasks' statement timeout,
    and no lock timeout."""
    from django.conf import settings
    from django.db import connections

    from gupai_site.dbtimeout import with_lock_timeout, with_statement_timeout

    for alias in connections:
        conn = connections[alias]
        # Through PgBouncer the timeouts are its own (gupai_site.operations.through_pgbouncer).
        if conn.vendor == "postgresql" and not (alias == "default" and settings.DATABASE_POOLER):
            options = conn.settings_dict.setdefault("OPTIONS", {})
            # no lock_timeout: a task waits its turn for a lock (a request would answer busy)
            options["options"] = with_lock_timeout(with_statement_timeout(options.get("options", ""),
                                                                          settings.DB_TASK_STATEMENT_TIMEOUT), 0)


@worker_init.connect
def _worker_statement_timeout(**kwargs) -> None:
    from django.db import connections

    use_task_statement_timeout()
    connections.close_all()   # any connection made before (at import) had the web's limit


@worker_process_init.connect
def _child_connections(**kwargs) -> None:
    from django.db import connections

    connections.close_all()   # a forked child never shares its parent's connection
