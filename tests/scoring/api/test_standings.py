"""Standings and payouts over the API (scoring/api/standings.py): the answer's shape, the CSV,
who may read (anyone for a public tournament; its directors only, else 404) and the tie-breaks
set on create and update."""

from __future__ import annotations

import csv
import io
import re

import pytest
from rest_framework.test import APIClient

from scoring.services.clubs import player_create
from scoring.services.rounds import round_record
from scoring.services.tournaments import entry_create, tournament_start, tournament_update

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


def url(t, what="standings/"):
    return f"/api/v1/tournaments/{t.pk}/{what}"


@pytest.fixture
def played(jie_long):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    return jie_long


@pytest.fixture
def stranger_client(other_director):
    c = APIClient()
    c.force_authenticate(other_director)
    return c


def test_the_standings_answer(played, director_client):
    body = director_client.get(url(played.tournament)).json()
    assert set(body) == {"computed_at", "stale", "tie_breaks", "chip_value", "currency", "rows"}
    assert body["stale"] is False and body["tie_breaks"] == ["net", "wins", "average_place"]
    assert (body["chip_value"], body["currency"]) == ("0.50", "EUR") and body["computed_at"].endswith("Z")
    first = body["rows"][0]
    assert first == {"rank": 1, "tied": False, "entry": played.entries[0].pk, "player": played.entries[0].player_id,
                     "name": "Anna", "withdrawn": False, "deals": 1, "net": 58, "wins": 1, "average_place": 1.0,
                     "places": {"1": 1, "2": 0, "3": 0, "4": 0}, "last_deal_at": first["last_deal_at"],
                     "money": "29.00"}
    assert [r["name"] for r in body["rows"]] == ["Anna", "Bob", "Dominic", "Celine"]
    assert [r["average_place"] for r in body["rows"]] == [1.0, 2.0, 3.0, 4.0]


def test_standings_of_a_tournament_without_deals(jie_long, director_client):
    body = director_client.get(url(jie_long.tournament)).json()
    assert {(r["rank"], r["tied"], r["deals"], r["average_place"], r["last_deal_at"]) for r in body["rows"]} == {
        (1, True, 0, None, None)}


def test_the_csv(played, director_client, club, director_actor):
    t = played.tournament
    sly = player_create(actor=director_actor, club=club, name="=HYPERLINK(\"http://x\")")
    sly_entry = entry_create(actor=director_actor, tournament=t, player=sly)
    r = director_client.get(url(t, "standings.csv"))
    assert r.status_code == 200 and r["Content-Type"] == "text/csv; charset=utf-8"
    assert r["Content-Disposition"] == f'attachment; filename="{t.slug}-standings.csv"'
    rows = list(csv.reader(io.StringIO(r.content.decode())))
    assert rows[0] == ["rank", "tied", "entry", "player", "name", "deals", "net", "wins", "average_place",
                       "place_1", "place_2", "place_3", "place_4", "last_deal_at", "money"]
    assert rows[1][:13] == ["1", "", str(played.entries[0].pk), str(played.entries[0].player_id), "Anna", "1", "58",
                            "1", "1.0", "1", "0", "0", "0"]
    assert rows[1][14] == "29.00" and rows[1][13].startswith("20")
    (row,) = [row for row in rows if row[2] == str(sly_entry.pk)]
    assert row[4] == "'=HYPERLINK(\"http://x\")"     # never run as a formula
    assert row[5:9] == ["0", "0", "0", ""] and row[13] == ""
    # Asking for CSV: the file; an error comes as CSV too.
    assert director_client.get(url(t, "standings.csv"), HTTP_ACCEPT="text/csv").status_code == 200
    missing = director_client.get("/api/v1/tournaments/999999/standings.csv", HTTP_ACCEPT="text/csv")
    assert missing.status_code == 404 and missing.content.decode().splitlines()[1] == ",not_found,No such tournament."


SLY_NAMES = ["x;=cmd|' /C calc'!A0", "＝1+1", "＋1", "－1", "＠SUM(A1)", "a,=1+1", "T\t=1", "b|@x", "c\r-2",
             "d；＝1", "Jean - Luc"]
#: Where a spreadsheet may cut a line of this file into cells: the file's own commas, and the
#: separators of other locales and import settings.
SPLITTERS = [",", ";", "\t", "|"]


def test_no_cell_of_the_csv_starts_like_a_formula_whatever_splits_it(played, director_client, club,
                                                                     director_actor):
    """Issue 16: a name with a formula after a ";" (a spreadsheet of a ";" locale splits there)
    or in full-width signs was written as it was."""
    import unicodedata

    t = played.tournament
    for name in SLY_NAMES:
        entry_create(actor=director_actor, tournament=t, player=player_create(actor=director_actor, club=club,
                                                                               name=name))
    text = director_client.get(url(t, "standings.csv")).content.decode()
    number = re.compile(r"-?\d+(\.\d+)?")
    for splitter in SPLITTERS:   # the most naive reader: rows at every line break, no quoting
        for line in re.split(r"[\r\n]+", text):
            for c in (part.strip(' "') for part in line.split(splitter)):
                first = unicodedata.normalize("NFKC", c)[:1]
                assert first not in ("=", "+", "-", "@") or number.fullmatch(c), (splitter, c)
    names = {r[4] for r in csv.reader(io.StringIO(text))}
    assert {"'x;'=cmd|' /C calc'!A0", "'＝1+1", "'－1", "'a,'=1+1", "'T\t'=1", "'b|'@x", "'c\r'-2", "'d；'＝1",
            "'Jean - Luc", "Anna"} <= names
    # Numbers stay numbers: a negative net is written as it is.
    rows = {r[4]: r for r in csv.reader(io.StringIO(text))}
    assert int(rows["Celine"][6]) < 0 and f",{rows['Celine'][6]}," in text


def test_the_payouts_answer(played, director_client):
    body = director_client.get(url(played.tournament, "payouts/")).json()
    assert set(body) == {"chip_value", "currency", "session", "players", "transfers", "rounding"}
    assert body["transfers"][0] == {"from_entry": played.entries[2].pk, "from_name": "Celine",
                                    "to_entry": played.entries[0].pk, "to_name": "Anna", "chips": 58,
                                    "amount": "29.00"}
    assert body["players"][0] == {"entry": played.entries[0].pk, "player": played.entries[0].player_id,
                                  "name": "Anna", "net": 58, "money": "29.00"}
    assert body["rounding"] == {"decimals": 2, "remainder": "0.00", "players": []}
    session = director_client.get(url(played.tournament, "payouts/?session=1")).json()
    assert session["session"] == 1 and session["transfers"] == body["transfers"]
    # Found by fuzzing: the schema's limits (1 to 2**31 - 1, once), and no other.
    for bad in ("0", "x", "-1", "1.5", "²", "9" * 12, "", "01", "2147483648", "1&session=1"):
        r = director_client.get(url(played.tournament, f"payouts/?session={bad}"))
        assert r.status_code == 400 and r.json()["errors"] == [
            {"path": "session", "code": "bad_session", "message": r.json()["errors"][0]["message"]}], bad
    assert director_client.get(url(played.tournament, "payouts/?session=2")).status_code == 404
    assert director_client.get(url(played.tournament, "payouts/?session=2147483647")).status_code == 404


def test_the_csv_asks_for_a_known_format_and_a_bad_id_is_a_json_404(played, director_client):
    # Found by fuzzing: "?format=" was taken as no format at all, and an id no <int:pk> matches
    # was redirected (301, APPEND_SLASH) instead of answering 404.
    for fmt in ("csv", "json"):
        assert director_client.get(url(played.tournament, f"standings.csv?format={fmt}")).status_code == 200
    for bad in ("", "csv&format=json"):
        r = director_client.get(url(played.tournament, f"standings.csv?format={bad}"))
        assert r.status_code == 400 and r.json()["errors"][0]["path"] == "format", bad
        assert r.json()["errors"][0]["code"] == "bad_format"
    for path in ("null,null", "abc", "-1"):
        r = director_client.get(f"/api/v1/tournaments/{path}/standings.csv")
        assert r.status_code == 404 and r.json()["errors"][0]["code"] == "not_found", path


READS = ["standings/", "standings.csv", "payouts/", "payouts/?session=1"]


def test_anyone_reads_a_public_tournament(played, anon_client, stranger_client, scorer_client_for):
    assert played.tournament.public
    for what in READS:
        for client in (anon_client, stranger_client, scorer_client_for(played.token)):
            assert client.get(url(played.tournament, what)).status_code == 200, what


def test_a_private_tournament_is_its_directors_alone(played, anon_client, stranger_client, director_client,
                                                     scorer_client_for):
    t = played.tournament
    tournament_update(actor=played.director_actor, tournament=t, public=False)
    for what in READS:
        assert director_client.get(url(t, what)).status_code == 200, what
        for client in (anon_client, stranger_client, scorer_client_for(played.token)):
            r = client.get(url(t, what))
            assert r.status_code == 404 and r.json()["errors"][0]["code"] == "not_found", what
        # Like an id that does not exist.
        assert anon_client.get(f"/api/v1/tournaments/999999/{what}").status_code == 404


def test_a_public_draft_is_its_directors_alone_as_on_the_public_pages(make_setup, anon_client, stranger_client,
                                                                        director_client, client):
    """Issue 16: a public draft's standings were readable over the API while its public page was
    404. Both follow one rule now (``models.PUBLICLY_VISIBLE``)."""
    draft = make_setup("jie_long", start=False)
    t = draft.tournament
    assert t.public and t.status == "draft"
    assert client.get(f"/t/{t.slug}/").status_code == 404
    for what in READS:
        assert director_client.get(url(t, what)).status_code == 200, what
        for reader in (anon_client, stranger_client):
            r = reader.get(url(t, what))
            assert r.status_code == 404 and r.json()["errors"][0]["code"] == "not_found", what
    tournament_start(actor=draft.director_actor, tournament=t)
    assert client.get(f"/t/{t.slug}/").status_code == 200
    for what in READS:
        assert anon_client.get(url(t, what)).status_code == 200, what


def test_reads_only(played, anon_client, director_client):
    assert anon_client.post(url(played.tournament), {}, format="json").status_code == 405
    assert director_client.delete(url(played.tournament, "payouts/")).status_code == 405


def test_tie_breaks_on_create_and_update(director_client, club):
    r = director_client.post("/api/v1/tournaments/", {"club": club.pk, "name": "Ties", "game": "ding_niu",
                                                      "tie_breaks": ["wins", "head_to_head"]}, format="json")
    assert r.status_code == 201 and r.json()["tie_breaks"] == ["wins", "head_to_head"]
    t = r.json()["id"]
    r = director_client.patch(f"/api/v1/tournaments/{t}/", {"tie_breaks": ["deals", "net"]}, format="json")
    assert r.status_code == 200 and r.json()["tie_breaks"] == ["deals", "net"]
    r = director_client.patch(f"/api/v1/tournaments/{t}/", {"tie_breaks": ["net", "luck"]}, format="json")
    assert r.status_code == 400 and r.json()["errors"][0]["path"] == "tie_breaks[1]"
    r = director_client.post("/api/v1/tournaments/", {"club": club.pk, "name": "Default", "game": "ding_niu"},
                             format="json")
    assert r.json()["tie_breaks"] == ["net", "wins", "average_place"]


def test_payouts_are_answered_from_the_cache_until_a_deal_changes_them(played, anon_client,
                                                                       django_assert_num_queries):
    """Anyone may ask as often as they like: a repeated GET reads the tournament and the payouts'
    version, nothing more (not the 10,000 rows of a big tournament); a new deal answers anew."""
    path = url(played.tournament, "payouts/")
    first = anon_client.get(path).json()
    one = anon_client.get(path + "?session=1").json()
    with django_assert_num_queries(2):   # the tournament, the version
        assert anon_client.get(path).json() == first
    with django_assert_num_queries(2):   # not the session's deals again
        assert anon_client.get(path + "?session=1").json() == one
    round_record(actor=played.scorer_actor, table=played.table, body=JIE_LONG)
    again = anon_client.get(path).json()
    assert again != first and again["players"][0]["net"] == 2 * first["players"][0]["net"]
