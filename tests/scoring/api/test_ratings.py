"""The ratings API: a club's ladder, a player's history, a rebuild (scoring/api/ratings.py)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import ActionLog
from scoring.services.ratings import ratings_follow
from scoring.services.rounds import round_record

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(jie_long, club):
    rounds = [round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG) for _ in range(3)]
    ratings_follow(club=club)
    return rounds


def test_the_ladder_ranks_the_club_best_first(director_client, club, rated):
    r = director_client.get(f"/api/v1/clubs/{club.pk}/ratings/")
    assert r.status_code == 200
    rows = r.json()["results"]
    assert r.json()["count"] == 4
    assert [row["player"]["name"] for row in rows] == ["Anna", "Bob", "Dominic", "Celine"]
    assert rows[0]["rank"] == 1 and rows[0]["deals"] == 3 and rows[0]["provisional"] is True
    assert rows[0]["rating"] > rows[-1]["rating"] and rows[0]["uncertainty"] > 0


def test_a_player_history_says_why_it_moved(director_client, club, rated):
    anna = club.players.get(name="Anna")
    r = director_client.get(f"/api/v1/players/{anna.pk}/ratings/")
    assert r.status_code == 200
    rows = r.json()["results"]
    assert [row["deal"]["id"] for row in rows] == [x.pk for x in reversed(rated)]   # newest first
    first = rows[-1]
    assert first["before"] == 1000 and first["after"] > 1000 and first["change"] == first["after"] - 1000
    assert first["place"] == 1 and first["deals"] == 1
    assert sorted(o["name"] for o in first["opponents"]) == ["Bob", "Celine", "Dominic"]
    assert all(o["rating"] == 1000 for o in first["opponents"])
    assert rows[0]["before"] == rows[1]["after"]


def test_a_rebuild_gives_the_same_ladder_and_is_logged(director_client, club, rated,
                                                       django_capture_on_commit_callbacks):
    before = director_client.get(f"/api/v1/clubs/{club.pk}/ratings/").json()
    with django_capture_on_commit_callbacks(execute=True):
        r = director_client.post(f"/api/v1/clubs/{club.pk}/ratings/rebuild/")
    assert r.status_code == 202 and r.json() == {"status": "queued"}
    assert director_client.get(f"/api/v1/clubs/{club.pk}/ratings/").json() == before
    assert ActionLog.objects.filter(action="ratings_rebuild").count() == 1


def test_a_rebuild_runs_in_a_worker_not_in_the_request(director_client, club, rated, monkeypatch,
                                                       django_capture_on_commit_callbacks):
    """The request logs it and enqueues ``scoring.ratings_rebuild`` on commit; it rates nothing
    itself (a rebuild on a request's path held the club's lock: a scorer's deal waited 13 s)."""
    from scoring.services import ratings as ratings_services

    rated_in_request = []
    monkeypatch.setattr(ratings_services, "_rate", lambda *a, **k: rated_in_request.append(1))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        r = director_client.post(f"/api/v1/clubs/{club.pk}/ratings/rebuild/")
    assert r.status_code == 202 and rated_in_request == [] and len(callbacks) == 1
    sent = []
    monkeypatch.setattr("celery.app.task.Task.delay", lambda self, *args: sent.append((self.name, args)))
    callbacks[0]()
    assert sent == [("scoring.ratings_rebuild", (club.pk,))]


def test_only_the_club_directors_read_a_ladder_not_public_or_rebuild(other_director, anon_client, club, rated):
    anna = club.players.get(name="Anna")
    urls = [f"/api/v1/clubs/{club.pk}/ratings/", f"/api/v1/players/{anna.pk}/ratings/"]
    for url in urls:
        assert anon_client.get(url).status_code == 404     # as an unknown id
    assert anon_client.post(f"/api/v1/clubs/{club.pk}/ratings/rebuild/").status_code == 401
    other = APIClient()
    other.force_authenticate(other_director)
    for url in urls:
        assert other.get(url).status_code == 404
    assert other.post(f"/api/v1/clubs/{club.pk}/ratings/rebuild/").status_code == 404
    assert not ActionLog.objects.filter(action="ratings_rebuild").exists()


def test_the_director_leaves_a_tournament_out_of_the_ratings(director_client, jie_long):
    r = director_client.patch(f"/api/v1/tournaments/{jie_long.tournament.pk}/", {"rated": False}, format="json")
    assert r.status_code == 200 and r.json()["rated"] is False
    r = director_client.patch(f"/api/v1/tournaments/{jie_long.tournament.pk}/", {"rated": "no"}, format="json")
    assert r.status_code == 400 and r.json()["errors"][0]["path"] == "rated"


def test_the_ladder_says_each_players_move_and_who_is_new(director_client, club, make_setup):
    first = make_setup("jie_long")
    round_record(actor=first.scorer_actor, table=first.table, body=JIE_LONG)
    second = make_setup("jie_long", names=["Anna", "Bob", "Celine", "Eve"])
    for _ in range(4):
        round_record(actor=second.scorer_actor, table=second.table, body={"points": [12, 2, 34, 18]})
    ratings_follow(club=club)
    rows = {r["player"]["name"]: r for r in director_client.get(f"/api/v1/clubs/{club.pk}/ratings/").json()["results"]}
    assert (rows["Bob"]["rank"], rows["Bob"]["rank_change"], rows["Bob"]["new"]) == (1, 1, False)
    assert (rows["Anna"]["rank"], rows["Anna"]["rank_change"], rows["Anna"]["new"]) == (2, -1, False)
    assert rows["Eve"]["rank_change"] is None and rows["Eve"]["new"] is True


def test_a_public_ladder_is_anyones_and_a_players_history_lists_public_tournaments_only(
        anon_client, director_client, other_director, club, make_setup):
    from scoring.models import Club, Tournament

    private = make_setup("jie_long")
    open_ = make_setup("jie_long")
    hidden = [round_record(actor=private.scorer_actor, table=private.table, body=JIE_LONG) for _ in range(2)]
    shown = [round_record(actor=open_.scorer_actor, table=open_.table, body=JIE_LONG) for _ in range(2)]
    Tournament.objects.filter(pk=private.tournament.pk).update(public=False)
    ratings_follow(club=club)
    Club.objects.filter(pk=club.pk).update(ladder_public=True)
    anna = club.players.get(name="Anna")
    other = APIClient()
    other.force_authenticate(other_director)
    for reader in (anon_client, other):
        ladder = reader.get(f"/api/v1/clubs/{club.pk}/ratings/")
        assert ladder.status_code == 200 and ladder.json()["count"] == 4
        history = reader.get(f"/api/v1/players/{anna.pk}/ratings/")
        assert history.status_code == 200
        assert [r["deal"]["id"] for r in history.json()["results"]] == [x.pk for x in reversed(shown)]
    mine = director_client.get(f"/api/v1/players/{anna.pk}/ratings/").json()["results"]
    assert [r["deal"]["id"] for r in mine] == [x.pk for x in reversed(hidden + shown)]
    assert anon_client.post(f"/api/v1/clubs/{club.pk}/ratings/rebuild/").status_code == 401
    assert other.post(f"/api/v1/clubs/{club.pk}/ratings/rebuild/").status_code == 404


def test_a_history_row_says_what_was_rated(director_client, club, rated, make_setup):
    from ..bodies import TAU_NGAU_V1
    tau = make_setup("tau_ngau", variant={"settlement": "v1"})
    for _ in range(3):
        last = round_record(actor=tau.scorer_actor, table=tau.table, body=TAU_NGAU_V1)
    ratings_follow(club=club)
    anna = club.players.get(name="Anna")
    rows = director_client.get(f"/api/v1/players/{anna.pk}/ratings/").json()["results"]
    assert {(row["unit"], row["unit_deals"]) for row in rows} == {("deal", 1)}
    bank = club.players.get(name="Bank")
    (row,) = director_client.get(f"/api/v1/players/{bank.pk}/ratings/").json()["results"]
    assert (row["unit"], row["unit_deals"], row["deal"]["id"], row["place"]) == ("table_session", 3, last.pk, 1)
