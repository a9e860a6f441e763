"""Redis dies in the middle of an event: deals are still recorded in normal time, standings
stay exact, and once Redis is back the background jobs run again, with nothing to catch up by
hand. The whole stack is real: gunicorn, PostgreSQL, a Redis this test starts and kills."""

from __future__ import annotations

import logging
import shutil

import pytest
from django.conf import settings

from scoring.models import Round, Standing
from scoring.selectors.standings import tournament_totals
from scoring.services.auth import auth_token_obtain

from .stack import RedisServer, Site

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server (Debian's redis-server)"),
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                       reason="gunicorn needs a database it can share with the test: PostgreSQL (DATABASE_URL)"),
]

POINTS = [[2, 12, 34, 18], [12, 2, 34, 18], [34, 18, 2, 12]]


@pytest.fixture
def stack(transactional_db):
    redis = RedisServer()
    redis.start()
    site = Site(redis_url=redis.url)
    try:
        yield redis, site
    finally:
        site.stop()
        redis.stop()


def test_deals_are_recorded_in_normal_time_while_redis_is_down(stack, make_setup):
    redis, site = stack
    setup = make_setup("jie_long")
    url = f"/api/v1/tables/{setup.table.pk}/rounds/"
    scorer = {"Authorization": f"Scorer {setup.token}"}

    def record(i: int, key: str):
        status, body, took = site.request("POST", url, {"points": POINTS[i % 3], "entered_by": 0},
                                          {**scorer, "Idempotency-Key": key})
        assert status == 201, body
        return took

    record(0, "before-1")
    redis.stop()
    took = [record(i, f"down-{i}") for i in range(6)]
    logging.getLogger(__name__).info("deals recorded with Redis down took %s s", ", ".join(f"{t:.3f}" for t in took))
    assert max(took) < 1.0, took
    # A retry during the outage is still answered once.
    assert record(5, "down-5") < 1.0
    status, body, took_read = site.request("GET", f"/api/v1/tables/{setup.table.pk}/", headers=scorer)
    assert status == 200 and took_read < 1.0
    # Finishing enqueues a background check: the publish gives up at once and the finish stands.
    director = {"Authorization": f"Token {auth_token_obtain(username='alice', password='alice-secret-1')}"}
    status, body, took_finish = site.request("POST", f"/api/v1/tournaments/{setup.tournament.pk}/finish/",
                                             headers=director)
    logging.getLogger(__name__).info("the finish with Redis down took %.3f s", took_finish)
    assert status == 200 and body["status"] == "finished" and took_finish < 2.0, (status, body, took_finish)

    assert Round.objects.filter(table=setup.table).count() == 7
    kept = {s.entry_id: (s.total, s.rounds_counted) for s in Standing.objects.filter(tournament=setup.tournament)}
    totals = tournament_totals(setup.tournament)
    assert kept == {e.pk: totals[e.pk] for e in setup.entries}

    redis.start()
    status, body, _ = site.request("GET", f"/api/v1/tournaments/{setup.tournament.pk}/standings/", headers=director)
    assert status == 200
    assert sorted(row["deals"] for row in body["rows"]) == [7] * 4
