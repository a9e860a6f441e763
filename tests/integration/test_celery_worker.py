"""A real Celery worker on a real Redis, against the test database (PostgreSQL in CI).

The plain test run (no REDIS_URL) runs tasks eagerly in-process; this module proves the same
tasks work through the broker: a separate `celery worker` process picks up the standings check
and repairs what drifted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.db import connection

from scoring.models import ActionLog, Standing
from scoring.services.rounds import round_correct, round_record

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI sets it; see README, Services)"),
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                       reason="the worker process needs a database it can share: PostgreSQL (DATABASE_URL)"),
]


def _database_url_of_test_db() -> str:
    s = connection.settings_dict
    user = s.get("USER") or "postgres"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"


@pytest.fixture
def celery_worker(transactional_db):
    """Start `celery -A gupai_site worker` on a queue of its own (xdist runs several at once)."""
    from gupai_site.celery import app

    queue = f"test-{uuid.uuid4().hex[:12]}"
    old = (app.conf.task_always_eager, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    env = dict(os.environ, DATABASE_URL=_database_url_of_test_db(), PYTHONUNBUFFERED="1",
               SECRET_KEY="integration-test-key", DEBUG="0")
    log = open(ROOT / "var" / f"celery-{queue}.log", "w") if (ROOT / "var").is_dir() else subprocess.DEVNULL
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "gupai_site", "worker", "--pool=solo", "--concurrency=1",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-Q", queue, "-n", f"{queue}@localhost",
         "--loglevel=INFO"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        # Wait until the worker answers a ping on its queue.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"celery worker exited early with {proc.returncode}")
            replies = app.control.ping(destination=[f"{queue}@localhost"], timeout=1.0) or []
            if replies:
                break
        else:
            pytest.fail("celery worker did not answer within 60 s")
        yield SimpleNamespace(app=app, name=f"{queue}@localhost")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        app.conf.task_always_eager, app.conf.task_default_queue = old
        if log is not subprocess.DEVNULL:
            log.close()


def _wait_for(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_the_worker_repairs_standings_that_drifted(celery_worker, make_setup):
    from scoring import tasks

    setup = make_setup("jie_long")
    round_record(actor=setup.scorer_actor, table=setup.table,
                          body={"points": [2, 12, 34, 18], "leader": 0, "entered_by": 0})
    # Exact at commit, without the worker.
    totals = {s.entry.player.name: s.total for s in Standing.objects.filter(tournament=setup.tournament)}
    assert totals == {"Anna": 58, "Bob": 18, "Celine": -70, "Dominic": -6}
    # Someone edits a standing behind the services' back; the worker's check puts it right.
    Standing.objects.filter(entry=setup.entries[0]).update(total=999)
    tasks.standings_refresh.delay(setup.tournament.pk)

    def repaired():
        return Standing.objects.get(entry=setup.entries[0]).total == 58
    assert _wait_for(repaired), "the worker did not repair the standings"
    # The job ran in the worker process (its own count of tasks says so), and the repair is on record.
    stats = celery_worker.app.control.inspect(destination=[celery_worker.name], timeout=5).stats()
    assert stats[celery_worker.name]["total"].get("scoring.standings_refresh", 0) >= 1
    repair = ActionLog.objects.get(action=ActionLog.Action.STANDINGS_REPAIR, tournament=setup.tournament)
    assert repair.actor_label == "system"


def test_the_nightly_check_runs_in_the_worker(celery_worker, make_setup):
    from scoring import tasks

    setup = make_setup("jie_long")
    rnd = round_record(actor=setup.scorer_actor, table=setup.table,
                                body={"points": [2, 12, 34, 18], "leader": 0})
    round_correct(actor=setup.director_actor, round=rnd, body={"points": [12, 2, 34, 18], "leader": 0},
                           reason="Anna and Bob swapped", expected_revision=1)
    assert Standing.objects.get(entry=setup.entries[1]).total == 58
    Standing.objects.filter(tournament=setup.tournament).update(total=0, rounds_counted=0)
    tasks.standings_check.delay()
    assert _wait_for(lambda: Standing.objects.filter(tournament=setup.tournament, entry__player__name="Bob",
                                                     total=58).exists())


def test_tasks_run_in_the_worker_and_return_results(celery_worker):
    from scoring import tasks

    assert tasks.idempotency_keys_cleanup.delay().get(timeout=30) == 0
