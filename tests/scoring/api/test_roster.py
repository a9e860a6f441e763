"""Roster edits over the API — rename a player, withdraw an entry and enter it again, a late
entry, delete an empty table or a draft tournament — every answer validated against the schema
(``test_schema.Checked``), every refusal with its status and code."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import ActionLog, Entry, Player, Table, Tournament
from scoring.services.clubs import player_create
from scoring.services.rounds import round_record
from scoring.services.tournaments import tournament_finish

from ..bodies import JIE_LONG
from .test_schema import Checked, codes, component, operations

pytestmark = pytest.mark.django_db


@pytest.fixture
def seen():
    return set()


@pytest.fixture
def d(director_client, seen):
    return Checked(director_client, seen)


@pytest.fixture
def stranger(other_director, seen):
    c = APIClient()
    c.force_authenticate(other_director)
    return Checked(c, seen)


def delete(client: Checked, url: str):
    return client.call("delete", url)


def test_rename_a_player(d, jie_long):
    anna = jie_long.entries[0].player
    url = f"/api/v1/players/{anna.pk}/"
    r = d.patch(url, {"name": "Annabel"})
    assert r.status_code == 200 and r.json()["name"] == "Annabel" and r.json()["id"] == anna.pk
    entries = d.get(f"/api/v1/tournaments/{jie_long.tournament.pk}/entries/").json()["results"]
    assert "Annabel" in [e["name"] for e in entries]
    assert d.patch(url, {}).json()["name"] == "Annabel"           # nothing to change: unchanged
    r = d.patch(url, {"name": "Bob"})
    assert r.status_code == 409 and codes(r) == [("name", "exists")]
    r = d.patch(url, {"name": " "})
    assert r.status_code == 400 and codes(r)[0][0] == "name"
    assert d.patch("/api/v1/players/999999/", {"name": "X"}).status_code == 404
    assert ActionLog.objects.filter(action="player_rename").count() == 1


def test_only_a_director_of_the_club_renames(jie_long, stranger, anon_client, scorer_client_for, seen):
    url = f"/api/v1/players/{jie_long.entries[0].player.pk}/"
    assert stranger.patch(url, {"name": "Eve"}).status_code == 404        # another club's: not found
    assert Checked(scorer_client_for(jie_long.token), seen).patch(url, {"name": "Eve"}).status_code == 404
    assert Checked(anon_client, seen).patch(url, {"name": "Eve"}).status_code == 401
    assert Player.objects.get(pk=jie_long.entries[0].player.pk).name == "Anna"


def test_withdraw_and_enter_again(d, jie_long, director_actor, club):
    t, anna = jie_long.tournament, jie_long.entries[0]
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    url = f"/api/v1/tournaments/{t.pk}/entries/{anna.player_id}/"
    r = delete(d, url)
    assert r.status_code == 200 and r.json()["withdrawn"] is True and r.json()["withdrawn_at"]
    r = delete(d, url)
    assert r.status_code == 409 and codes(r) == [("", "already_withdrawn")]
    rows = {row["name"]: row for row in d.get(f"/api/v1/tournaments/{t.pk}/standings/").json()["rows"]}
    assert rows["Anna"]["withdrawn"] is True and rows["Anna"]["deals"] == 1 and rows["Bob"]["withdrawn"] is False
    # entered again: the same entry, its deals with it
    r = d.post(f"/api/v1/tournaments/{t.pk}/entries/", {"player": anna.player_id})
    assert r.status_code == 200 and r.json()["id"] == anna.pk and r.json()["withdrawn"] is False
    assert r.json()["withdrawn_at"] is None
    r = d.post(f"/api/v1/tournaments/{t.pk}/entries/", {"player": anna.player_id})
    assert r.status_code == 409 and codes(r) == [("player", "exists")]
    assert delete(d, f"/api/v1/tournaments/{t.pk}/entries/999999/").status_code == 404
    # a late entry, in the running tournament
    late = player_create(actor=director_actor, club=club, name="Late Lou")
    r = d.post(f"/api/v1/tournaments/{t.pk}/entries/", {"player": late.pk})
    assert r.status_code == 201 and r.json()["withdrawn"] is False
    assert Entry.objects.filter(tournament=t).count() == 5
    # finished: read-only
    tournament_finish(actor=director_actor, tournament=t)
    r = delete(d, url)
    assert r.status_code == 409 and codes(r) == [("", "tournament_finished")]


def test_only_a_director_of_the_club_withdraws(jie_long, stranger, anon_client, scorer_client_for, seen):
    url = f"/api/v1/tournaments/{jie_long.tournament.pk}/entries/{jie_long.entries[0].player_id}/"
    assert delete(stranger, url).status_code == 404
    assert delete(Checked(scorer_client_for(jie_long.token), seen), url).status_code == 404
    assert delete(Checked(anon_client, seen), url).status_code == 401
    assert not Entry.objects.filter(withdrawn_at__isnull=False).exists()


def test_delete_a_table(d, make_setup, scorer_client_for, seen):
    s = make_setup("jie_long")
    scorer = Checked(scorer_client_for(s.token), seen)
    url = f"/api/v1/tables/{s.table.pk}/"
    r = delete(scorer, url)                       # its own scorer link reads it, never deletes it
    assert r.status_code == 403 and Table.objects.filter(pk=s.table.pk).exists()
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    r = delete(d, url)
    assert r.status_code == 409 and codes(r) == [("", "table_has_deals")]
    empty = make_setup("jie_long", names=["W", "X", "Y", "Z"])
    r = delete(d, f"/api/v1/tables/{empty.table.pk}/")
    assert r.status_code == 204 and not r.content
    assert d.get(f"/api/v1/tables/{empty.table.pk}/").status_code == 404
    assert Checked(scorer_client_for(empty.token), seen).get(f"/api/v1/tables/{empty.table.pk}/").status_code == 401
    assert delete(d, f"/api/v1/tables/{empty.table.pk}/").status_code == 404


def test_a_finished_tournaments_table_and_others_tables_stay(d, make_setup, director_actor, stranger,
                                                              anon_client, seen):
    s = make_setup("jie_long")
    url = f"/api/v1/tables/{s.table.pk}/"
    assert delete(stranger, url).status_code == 404
    assert delete(Checked(anon_client, seen), url).status_code == 401
    tournament_finish(actor=director_actor, tournament=s.tournament)
    r = delete(d, url)
    assert r.status_code == 409 and codes(r) == [("", "tournament_finished")]


def test_delete_a_draft_tournament(d, make_setup, stranger, anon_client, seen):
    running = make_setup("jie_long")
    r = delete(d, f"/api/v1/tournaments/{running.tournament.pk}/")
    assert r.status_code == 409 and codes(r) == [("", "tournament_not_draft")]
    draft = make_setup("jie_long", start=False, table_name="Table 2")
    url = f"/api/v1/tournaments/{draft.tournament.pk}/"
    assert delete(stranger, url).status_code == 404
    assert delete(Checked(anon_client, seen), url).status_code == 401
    r = delete(d, url)
    assert r.status_code == 204 and not Tournament.objects.filter(pk=draft.tournament.pk).exists()
    assert d.get(url).status_code == 404
    assert ActionLog.objects.filter(action="tournament_delete", target_id=str(draft.tournament.pk)).exists()


def test_the_new_endpoints_are_documented():
    ops = operations()
    assert {"players_update", "tournaments_entries_withdraw", "tables_delete", "tournaments_delete"} <= set(ops)
    for name in ("players_update", "tournaments_entries_withdraw", "tables_delete", "tournaments_delete"):
        assert {"400", "401", "403", "404", "409", "429"} <= set(ops[name]["responses"]), name
    assert {"200", "201"} <= set(ops["tournaments_entries_create"]["responses"])
    assert component("PatchedPlayerUpdate")["additionalProperties"] is False
    assert "withdrawn" in component("Entry")["required"]


# --- an imported copy never published (a trial restore of a backup) ------------------------------

def _trial_copy(make_setup, director_actor, club, *, rated: bool = False):
    from scoring.selectors.exports import tournament_export
    from scoring.services.exports import tournament_import

    s = make_setup("jie_long")
    round_record(actor=director_actor, table=s.table, body=JIE_LONG)
    return s.tournament, tournament_import(actor=director_actor, club=club, document=tournament_export(s.tournament),
                                           rated=rated)


def test_an_imported_copy_never_published_can_be_deleted(d, make_setup, director_actor, club, stranger):
    from scoring.models import Round, RoundRevision

    original, copy_ = _trial_copy(make_setup, director_actor, club)
    assert copy_.status == "running"
    url = f"/api/v1/tournaments/{copy_.pk}/"
    assert delete(stranger, url).status_code == 404
    r = delete(d, url)
    assert r.status_code == 204 and not Tournament.objects.filter(pk=copy_.pk).exists()
    assert not Round.objects.filter(table__session__tournament_id=copy_.pk).exists()
    assert RoundRevision.objects.filter(round__table__session__tournament=original).count() == 1   # the original stays
    log = ActionLog.objects.get(action=ActionLog.Action.TOURNAMENT_DELETE)
    assert (log.data["id"], log.data["imported"], log.data["deals"], log.data["status"], log.data["rated"]) == (
        copy_.pk, True, 1, "running", False)
    # a non-imported running tournament keeps its refusal
    r = delete(d, f"/api/v1/tournaments/{original.pk}/")
    assert r.status_code == 409 and codes(r) == [("", "tournament_not_draft")]


def test_an_imported_copy_once_published_cannot_be_deleted(d, make_setup, director_actor, club):
    _, copy_ = _trial_copy(make_setup, director_actor, club)
    url = f"/api/v1/tournaments/{copy_.pk}/"
    assert d.call("patch", url, {"public": True}).status_code == 200
    assert d.call("patch", url, {"public": False}).status_code == 200   # private again: it was seen
    r = delete(d, url)
    assert r.status_code == 409 and codes(r) == [("", "tournament_not_draft")]
    assert Tournament.objects.filter(pk=copy_.pk).exists()


def test_deleting_a_rated_copy_takes_its_ratings_with_it(d, make_setup, director_actor, club,
                                                          django_capture_on_commit_callbacks):
    from scoring.models import PlayerRating, RatedDeal, RatingChange
    from scoring.selectors.exports import tournament_export
    from scoring.services.exports import tournament_import
    from scoring.services.ratings import ratings_follow

    def ladder():
        return sorted(PlayerRating.objects.filter(club=club).values_list("player_id", "mu", "sigma", "deals"))

    original, _ = _trial_copy(make_setup, director_actor, club)
    ratings_follow(club=club)
    before = ladder()
    rated = tournament_import(actor=director_actor, club=club, document=tournament_export(original), rated=True)
    ratings_follow(club=club)
    assert RatedDeal.objects.filter(round__table__session__tournament=rated).exists() and ladder() != before
    with django_capture_on_commit_callbacks(execute=True):   # the ratings are rebuilt without it
        assert delete(d, f"/api/v1/tournaments/{rated.pk}/").status_code == 204
    assert not RatingChange.objects.filter(round__table__session__tournament_id=rated.pk).exists()
    assert ActionLog.objects.get(action=ActionLog.Action.TOURNAMENT_DELETE, data__id=rated.pk).data["rated"] is True
    assert ladder() == before
