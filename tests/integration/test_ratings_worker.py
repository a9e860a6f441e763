"""The club ratings follow a deal through a real Celery worker on Redis (PostgreSQL shared with
the worker process): the deal's write enqueues ``scoring.ratings_follow`` on commit, the worker
rates it, and the ladder and the player's history show it — over the API, as a director reads
them. Polled with a generous timeout: this proves the path, ``bench/ratings.py --visible`` times it."""

from __future__ import annotations

from scoring.models import RatingChange
from scoring.services.rounds import round_record
from tests.integration.stack import wait_for

from .test_celery_worker import pytestmark as worker_marks

pytestmark = worker_marks

TAU_NGAU = {"banker": 0, "hands": [["6:3", "6:1", "3:1", "6:6", "4:4"], ["5:5", "5:5", "6:4", "6:5", "4:1"],
                                   ["6:6", "6:5", "6:4", "5:1", "1:1"], ["1:1", "2:1", "2:2", "3:3", "3:3"]]}


def test_a_deal_recorded_shows_in_the_ladder_and_the_history(celery_worker, make_setup, club,
                                                             director_client):
    jie = make_setup("jie_long")
    tau = make_setup("tau_ngau", variant={"settlement": "v1"})
    first = round_record(actor=jie.scorer_actor, table=jie.table, body={"points": [2, 12, 34, 18]})
    assert wait_for(lambda: RatingChange.objects.filter(round=first).count() == 4, timeout=60), \
        "the worker did not rate the deal"
    session = [round_record(actor=tau.scorer_actor, table=tau.table, body=TAU_NGAU) for _ in range(2)]
    assert wait_for(lambda: RatingChange.objects.filter(round=session[-1]).count() == 4, timeout=60), \
        "the worker did not rate the session"
    assert not RatingChange.objects.filter(round=session[0]).exists()   # the session's one result moved on

    client = director_client
    ladder = client.get(f"/api/v1/clubs/{club.pk}/ratings/").json()["results"]
    assert len(ladder) == 8
    assert ladder[0]["player"]["name"] in {"Anna", "Bank"} and all(row["deals"] == 1 for row in ladder)
    anna = club.players.get(name="Anna")
    (row,) = client.get(f"/api/v1/players/{anna.pk}/ratings/").json()["results"]
    assert (row["deal"]["id"], row["unit"], row["place"]) == (first.pk, "deal", 1)
    bank = club.players.get(name="Bank")
    (row,) = client.get(f"/api/v1/players/{bank.pk}/ratings/").json()["results"]
    assert (row["deal"]["id"], row["unit"], row["unit_deals"]) == (session[-1].pk, "table_session", 2)
