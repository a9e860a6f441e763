"""The seasons' API: a club's list and create, one season's read and changes, its CSV — every
answer checked against the schema."""

import csv
import io
import json

from rest_framework.test import APIClient

from scoring.models import ActionLog, SeasonTournament
from scoring.services.auth import auth_token_obtain
from scoring.services.clubs import club_create
from scoring.services.rounds import round_record
from scoring.services.seasons import season_create, season_tournament_add
from scoring.services.tournaments import tournament_create, tournament_update

from ..bodies import JIE_LONG, JIE_LONG_NETS
from .test_schema import Checked, codes


def stranger_client(other_director):
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {auth_token_obtain(username='bruno', password='bruno-secret-1')}")
    return c


def test_a_season_from_create_to_csv(director_client, anon_client, other_director, club, director_actor, make_setup):
    seen = set()
    d, anon, stranger = Checked(director_client, seen), Checked(anon_client, seen), Checked(
        stranger_client(other_director), seen)
    league, final = make_setup(), make_setup()
    round_record(actor=league.scorer_actor, table=league.table, body=JIE_LONG)
    round_record(actor=final.scorer_actor, table=final.table, body=JIE_LONG)

    url = f"/api/v1/clubs/{club.pk}/seasons/"
    assert anon.get(url).status_code == 404                  # no public season yet: the club is not shown
    assert anon.post(url, {"name": "X"}).status_code == 401
    assert stranger.post(url, {"name": "X"}).status_code == 404
    assert codes(d.post(url, {"name": " "})) == [("name", "blank")]
    assert codes(d.post(url, {"name": "Spring", "colour": "red"})) == [("colour", "unknown_field")]
    r = d.post(url, {"name": "Spring 2026", "slug": "spring-2026"})
    assert r.status_code == 201
    season = r.json()["id"]
    assert d.get(url).json()["count"] == 1

    s_url = f"/api/v1/seasons/{season}/"
    assert anon.get(s_url).status_code == 404                # private
    add = f"{s_url}tournaments/"
    assert d.post(add, {"tournament": league.tournament.pk}).status_code == 200
    body = d.post(add, {"tournament": final.tournament.pk, "weight": "2"}).json()
    assert [(t["tournament"], t["weight"]) for t in body["tournaments"]] == [
        (league.tournament.pk, "1.000"), (final.tournament.pk, "2.000")]
    rows = {r["name"]: r for r in body["standings"]["rows"]}
    for name, net in zip(league.names, JIE_LONG_NETS):
        assert rows[name]["net"] == f"{3 * net:.3f}" and rows[name]["tournaments"] == 2
    assert body["standings"]["rows"][0]["rank"] == 1
    assert codes(d.post(add, {"tournament": league.tournament.pk, "weight": "0"})) == [("weight", "min_value")]
    assert codes(d.post(add, {"tournament": league.tournament.pk, "weight": True})) == [("weight", "invalid")]
    other = club_create(actor=director_actor, name="Second Club")
    elsewhere = tournament_create(actor=director_actor, club=other, name="Elsewhere", game="jie_long")
    assert codes(d.post(add, {"tournament": elsewhere.pk})) == [("tournament", "other_club")]
    assert stranger.post(add, {"tournament": league.tournament.pk}).status_code == 404

    assert d.patch(s_url, {"public": True}).json()["public"] is True
    assert anon.get(url).json()["count"] == 1
    assert anon.get(s_url).json()["standings"]["rows"][0]["rank"] == 1
    assert anon.patch(s_url, {"name": "Mine"}).status_code == 401
    assert stranger.patch(s_url, {"name": "Mine"}).status_code == 404

    response = anon_client.get(f"{s_url}standings.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert 'filename="spring-2026-standings.csv"' in response["Content-Disposition"]
    table = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert {r["name"]: r["net"] for r in table} == {n: f"{3 * net:.3f}" for n, net in zip(league.names, JIE_LONG_NETS)}

    r = d.call("delete", f"{add}{final.tournament.pk}/")
    assert [t["tournament"] for t in r.json()["tournaments"]] == [league.tournament.pk]
    assert codes(d.call("delete", f"{add}{final.tournament.pk}/")) == [("tournament", "not_in_season")]
    assert SeasonTournament.objects.count() == 1
    assert ActionLog.objects.filter(action__startswith="season_").count() == 5
    assert {200, 201, 400, 401, 404, 409} <= seen


def test_a_private_seasons_csv_is_not_found(anon_client, director_client, club):
    season = director_client.post(f"/api/v1/clubs/{club.pk}/seasons/", {"name": "Hidden"}, format="json").json()
    assert anon_client.get(f"/api/v1/seasons/{season['id']}/standings.csv").status_code == 404
    assert director_client.get(f"/api/v1/seasons/{season['id']}/standings.csv").status_code == 200


def test_the_csv_refuses_an_unknown_format(director_client, club):
    season = director_client.post(f"/api/v1/clubs/{club.pk}/seasons/", {"name": "S"}, format="json").json()
    response = director_client.get(f"/api/v1/seasons/{season['id']}/standings.csv?format=xml")
    assert response.status_code == 400
    assert [(e["path"], e["code"]) for e in response.json()["errors"]] == [("format", "bad_format")]


def test_a_public_season_shows_anyone_only_its_public_tournaments(anon_client, director_client, club, director_actor,
                                                                  make_setup):
    """Issue 26: a public season listed its private and draft tournaments by name and counted
    their results. Anyone who does not direct the club sees, and the standings count, only the
    tournaments anyone may see (``models.PUBLICLY_VISIBLE``); its directors still see all."""
    shown = make_setup(names=["Ada", "Ben", "Cai", "Dee"])
    hidden = make_setup(names=["Hal", "Ivy", "Jo", "Kit"])
    draft = make_setup(names=["Lu", "Mo", "Ned", "Oz"], start=False)
    for t in (shown, hidden):
        round_record(actor=t.scorer_actor, table=t.table, body=JIE_LONG)
    tournament_update(actor=director_actor, tournament=hidden.tournament, name="Secret cup", public=False)
    tournament_update(actor=director_actor, tournament=draft.tournament, name="Draft cup")
    tournament_update(actor=director_actor, tournament=shown.tournament, name="Open cup")
    season = season_create(actor=director_actor, club=club, name="Spring", public=True)
    for t in (shown, hidden, draft):
        season_tournament_add(actor=director_actor, season=season, tournament=t.tournament)

    body = anon_client.get(f"/api/v1/seasons/{season.pk}/").json()
    assert [t["name"] for t in body["tournaments"]] == ["Open cup"]
    assert {r["name"] for r in body["standings"]["rows"]} == set(shown.names)
    assert all(r["tournaments"] == 1 for r in body["standings"]["rows"])
    table = list(csv.DictReader(io.StringIO(anon_client.get(f"/api/v1/seasons/{season.pk}/standings.csv")
                                            .content.decode())))
    assert {r["name"] for r in table} == set(shown.names)
    page = anon_client.get(f"/seasons/{season.pk}/").content.decode()
    assert "Open cup" in page and "Ada" in page
    for word in ("Secret cup", "Draft cup", "Hal", "Lu"):
        assert word not in page and word not in json.dumps(body), word

    mine = director_client.get(f"/api/v1/seasons/{season.pk}/").json()     # the club's directors: all of them
    assert [t["name"] for t in mine["tournaments"]] == ["Open cup", "Secret cup", "Draft cup"]
    assert {r["name"] for r in mine["standings"]["rows"]} == {*shown.names, *hidden.names, *draft.names}
