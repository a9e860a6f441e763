"""Celery's queues by kind, the tasks' time limits and Redis' visibility timeout
(gupai_site/queues.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from gupai_site.celery import app
from gupai_site.queues import BROKER_VISIBILITY_TIMEOUT, QUEUES
from tests.integration.stack import ROOT


def site_tasks() -> dict:
    app.loader.import_default_modules()   # every module's tasks registered
    return {name: task for name, task in app.tasks.items() if name.startswith(("scoring.", "gupai_site."))}


def test_every_task_goes_to_a_queue_of_its_kind(settings):
    routes = settings.CELERY_TASK_ROUTES
    assert set(QUEUES) == {"celery", "ratings", "audits", "documents"}
    assert {q.name for q in settings.CELERY_TASK_QUEUES} == set(QUEUES)
    assert routes["scoring.ratings_follow"] == routes["scoring.ratings_rebuild"] == {"queue": "ratings"}
    assert routes["scoring.audit_chunk"] == routes["scoring.audits_nightly"] == {"queue": "audits"}
    assert routes["scoring.tournament_import_run"] == routes["gupai_site.backup"] == {"queue": "documents"}
    assert "scoring.standings_refresh" not in routes   # a deal's follow-up: the default queue
    assert settings.CELERY_TASK_DEFAULT_QUEUE == "celery"
    tasks = site_tasks()
    assert set(routes) <= set(tasks)   # no route names a task that does not exist


def test_the_visibility_timeout_outlasts_every_tasks_time_limit(settings):
    # With acks_late on Redis, a message still unacknowledged after the visibility timeout is
    # handed to another worker: a task running past it would run twice at once.
    limits = {}
    for name, task in site_tasks().items():
        annotated = settings.CELERY_TASK_ANNOTATIONS.get(name, {}).get("time_limit")
        limits[name] = annotated or task.time_limit or settings.CELERY_TASK_TIME_LIMIT
    assert all(limit for limit in limits.values()), limits   # none runs without a limit
    assert BROKER_VISIBILITY_TIMEOUT > max(limits.values())
    assert max(limits.values()) == 3600   # the backup's


def test_the_broker_is_given_the_visibility_timeout_with_redis():
    # Settings are read once per process: one with REDIS_URL set, as a worker has.
    code = ("import django, json; django.setup(); from gupai_site.celery import app; "
            "print(json.dumps(app.conf.broker_transport_options))")
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:6379/0", "DJANGO_SETTINGS_MODULE": "gupai_site.settings",
           "DEBUG": "1"}
    env.pop("DATABASE_REPLICA_URL", None)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert json.loads(out.strip().splitlines()[-1])["visibility_timeout"] == BROKER_VISIBILITY_TIMEOUT == 7200
