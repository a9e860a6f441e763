"""A real Celery worker on a real Redis, against the test database (PostgreSQL in CI).

The plain test run (no REDIS_URL) runs tasks eagerly in-process; this module proves the same
tasks work through the broker: a separate `celery worker` process picks up the standings check
and repairs what drifted.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from scoring.models import ActionLog, Standing
from scoring.services.rounds import round_correct, round_record
from tests.integration.stack import wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI sets it; see docs/install.md, Services)"),
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                       reason="the worker process needs a database it can share: PostgreSQL (DATABASE_URL)"),
]


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
    assert wait_for(repaired), "the worker did not repair the standings"
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
    assert wait_for(lambda: Standing.objects.filter(tournament=setup.tournament, entry__player__name="Bob",
                                                     total=58).exists())


def test_tasks_run_in_the_worker_and_return_results(celery_worker):
    from scoring import tasks

    assert tasks.idempotency_keys_cleanup.delay().get(timeout=30) == 0
