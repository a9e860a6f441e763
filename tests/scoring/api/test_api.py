"""The REST API: the whole flow, permissions, read-only finished tournaments, If-Match,
Idempotency-Key, error shapes, and the OpenAPI schema."""

from __future__ import annotations

import pytest

from scoring.models import ActionLog, Round
from scoring.services.clubs import player_create
from scoring.services.rounds import round_record

from ..bodies import JIE_LONG, JIE_LONG_NETS

pytestmark = pytest.mark.django_db


def errors_of(response):
    return [(e["path"], e["code"]) for e in response.json()["errors"]]


def test_director_builds_a_tournament_and_a_scorer_records_it(director_client, scorer_client_for, anon_client,
                                                                 django_capture_on_commit_callbacks):
    c = director_client
    r = c.post("/api/v1/clubs/", {"name": "Jade Club"}, format="json")
    assert r.status_code == 201, r.content
    club = r.json()["id"]
    players = [c.post(f"/api/v1/clubs/{club}/players/", {"name": n}, format="json").json()["id"]
               for n in ["Anna", "Bob", "Celine", "Dominic"]]
    assert len(c.get(f"/api/v1/clubs/{club}/players/").json()["results"]) == 4
    r = c.post("/api/v1/tournaments/", {"club": club, "name": "Jade Open", "game": "jie_long",
                                         "variant": {"settlement": "difference"}, "chip_value": "0.10",
                                         "currency": "HKD"}, format="json")
    assert r.status_code == 201, r.content
    t = r.json()
    assert t["status"] == "draft" and t["variant"]["arms"] == 1
    entries = [c.post(f"/api/v1/tournaments/{t['id']}/entries/", {"player": p}, format="json").json()["id"]
               for p in players]
    r = c.post(f"/api/v1/tournaments/{t['id']}/tables/", {"name": "Table 1", "entries": entries}, format="json")
    assert r.status_code == 201, r.content
    table = r.json()
    token = table["scorer_token"]
    assert table["scorer_url"] == f"http://testserver/s/{token}/"
    assert [s["name"] for s in table["seats"]] == ["Anna", "Bob", "Celine", "Dominic"]
    assert "scorer_token" not in c.get(f"/api/v1/tables/{table['id']}/").json()

    scorer = scorer_client_for(token)
    r = scorer.post(f"/api/v1/tables/{table['id']}/rounds/", {**JIE_LONG, "entered_by": 0}, format="json")
    assert r.status_code == 409 and errors_of(r) == [("", "tournament_not_running")]
    assert c.post(f"/api/v1/tournaments/{t['id']}/start/").json()["status"] == "running"

    r = scorer.post(f"/api/v1/tables/{table['id']}/rounds/", {**JIE_LONG, "entered_by": 0}, format="json")
    assert r.status_code == 201, r.content
    rnd = r.json()
    assert r["ETag"] == '"1"'
    assert {"id", "table", "number", "status", "revision", "leader", "entered_by", "record", "result",
            "players"} <= set(rnd)
    assert (rnd["number"], rnd["status"], rnd["revision"], rnd["leader"], rnd["entered_by"]) == (1, "recorded", 1, 0, 0)
    assert rnd["record"]["seats"] == ["Anna", "Bob", "Celine", "Dominic"] and "leader" not in rnd["record"]
    assert [(p["position"], p["name"], p["net"]) for p in rnd["players"]] == list(
        zip(range(4), ["Anna", "Bob", "Celine", "Dominic"], JIE_LONG_NETS))
    assert all(p["entry"] == e for p, e in zip(rnd["players"], entries))

    r = scorer.get(f"/api/v1/tables/{table['id']}/")
    assert [s["total"] for s in r.json()["seats"]] == JIE_LONG_NETS
    assert r.json()["next_round"] == {"entered_by": None, "number": 2, "leader": 0}
    assert len(scorer.get(f"/api/v1/tables/{table['id']}/rounds/").json()["results"]) == 1
    got = scorer.get(f"/api/v1/rounds/{rnd['id']}/")
    assert got.status_code == 200 and got["ETag"] == '"1"'

    # correction: If-Match required, then checked
    url = f"/api/v1/rounds/{rnd['id']}/"
    fix = {"points": [2, 12, 18, 34], "reason": "swapped"}
    assert scorer.put(url, fix, format="json").status_code == 428
    r = scorer.put(url, fix, format="json", HTTP_IF_MATCH='"1"')
    assert r.status_code == 200, r.content
    assert r.json()["revision"] == 2 and r["ETag"] == '"2"'
    r = scorer.put(url, fix, format="json", HTTP_IF_MATCH='"1"')
    assert r.status_code == 412 and errors_of(r) == [("", "stale_revision")]
    r = scorer.put(url, {"points": [2, 12, 18, 34]}, format="json", HTTP_IF_MATCH='"2"')
    assert r.status_code == 400 and errors_of(r) == [("reason", "required")]

    # confirmation across the table, then only directors may correct
    r = scorer.post(f"{url}confirm/", {"confirmed_by": 0}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("confirmed_by", "same_seat")]
    r = scorer.post(f"{url}confirm/", {"confirmed_by": 2}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "confirmed" and r.json()["confirmed_by"] == 2
    assert scorer.put(url, fix, format="json", HTTP_IF_MATCH='"2"').status_code == 403
    assert c.put(url, {**fix, "reason": "referee"}, format="json", HTTP_IF_MATCH='"2"').status_code == 200

    # dispute, resolve, void, history
    assert scorer.post(f"{url}dispute/", {"message": "call the referee"}, format="json").json()["disputed"]
    assert scorer.post(f"{url}resolve/", {}, format="json").status_code == 403
    assert c.post(f"{url}resolve/", {"note": "ok"}, format="json").json()["disputed"] is False
    assert scorer.post(f"{url}void/", {"reason": "x"}, format="json").status_code == 403
    r = c.post(f"{url}void/", {"reason": "misdeal"}, format="json")
    assert r.json()["status"] == "voided"
    r = scorer.get(f"{url}revisions/")
    assert r.status_code == 200 and r.json()["chain"]["ok"]
    assert [x["number"] for x in r.json()["revisions"]] == [1, 2, 3]
    assert r.json()["revisions"][1]["reason"] == "swapped"
    assert [s["total"] for s in scorer.get(f"/api/v1/tables/{table['id']}/").json()["seats"]] == [0, 0, 0, 0]

    # standings, finish, read-only
    with django_capture_on_commit_callbacks(execute=True):   # the standings task runs on commit
        r = c.post("/api/v1/tables/{}/rounds/".format(table["id"]), JIE_LONG, format="json")
    assert r.status_code == 201
    standings = c.get(f"/api/v1/tournaments/{t['id']}/standings/").json()["rows"]
    assert standings[0]["name"] == "Anna" and standings[0]["net"] == 58 and standings[0]["money"] == "5.80"
    assert c.post(f"/api/v1/tournaments/{t['id']}/finish/").json()["status"] == "finished"
    for response in [
        scorer.post(f"/api/v1/tables/{table['id']}/rounds/", JIE_LONG, format="json"),
        c.post(f"/api/v1/tables/{table['id']}/rounds/", JIE_LONG, format="json"),
        c.put(url, {**fix, "reason": "late"}, format="json", HTTP_IF_MATCH='"3"'),
        c.post(f"{url}dispute/", {"message": "late"}, format="json"),
        c.post(f"/api/v1/tournaments/{t['id']}/entries/", {"player": players[0]}, format="json"),
        c.post(f"/api/v1/tables/{table['id']}/scorer-token/"),
        c.patch(f"/api/v1/tournaments/{t['id']}/", {"public": True}, format="json"),
    ]:
        assert response.status_code == 409 and errors_of(response)[0][1] == "tournament_finished"
    assert c.get(url).status_code == 200
    assert anon_client.get(url).status_code == 401


def test_auth_token_endpoint(director, anon_client):
    r = anon_client.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"}, format="json")
    assert r.status_code == 200 and len(r.json()["token"]) >= 40 and r.json()["expires_in"] == 30 * 24 * 3600
    r = anon_client.post("/api/v1/auth/token/", {"username": "alice", "password": "nope"}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("", "bad_credentials")]


WRITES = [
    ("post", "/api/v1/clubs/"), ("post", "/api/v1/clubs/{club}/players/"), ("post", "/api/v1/tournaments/"),
    ("post", "/api/v1/tournaments/{t}/entries/"), ("post", "/api/v1/tournaments/{t}/start/"),
    ("post", "/api/v1/tournaments/{t}/finish/"), ("post", "/api/v1/tournaments/{t}/tables/"),
    ("post", "/api/v1/tables/{table}/scorer-token/"), ("post", "/api/v1/tables/{table}/rounds/"),
    ("post", "/api/v1/tables/{table}/rounds/preview/"), ("put", "/api/v1/rounds/{round}/"),
    ("post", "/api/v1/rounds/{round}/confirm/"), ("post", "/api/v1/rounds/{round}/void/"),
    ("post", "/api/v1/rounds/{round}/dispute/"), ("post", "/api/v1/rounds/{round}/resolve/"),
    ("patch", "/api/v1/tournaments/{t}/"),
]
READS = ["/api/v1/clubs/", "/api/v1/clubs/{club}/", "/api/v1/clubs/{club}/players/", "/api/v1/tournaments/",
         "/api/v1/tournaments/{t}/", "/api/v1/tournaments/{t}/entries/", "/api/v1/tournaments/{t}/tables/",
         "/api/v1/tables/{table}/", "/api/v1/tables/{table}/rounds/",
         "/api/v1/rounds/{round}/", "/api/v1/rounds/{round}/revisions/"]


@pytest.fixture
def urls(jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    return {"club": jie_long.tournament.club_id, "t": jie_long.tournament.pk, "table": jie_long.table.pk,
            "round": rnd.pk}


def test_anonymous_clients_cannot_read_or_write(anon_client, urls):
    before = (Round.objects.count(), ActionLog.objects.count())
    for method, url in WRITES:
        r = getattr(anon_client, method)(url.format(**urls), JIE_LONG, format="json")
        assert r.status_code == 401, (method, url)
        assert r.json()["errors"][0]["code"] == "not_authenticated" and r.json()["detail"]
    for url in READS:
        assert anon_client.get(url.format(**urls)).status_code == 401, url
    assert (Round.objects.count(), ActionLog.objects.count()) == before


def test_a_scorer_cannot_touch_another_table(jie_long, make_setup, scorer_client_for, urls):
    other = make_setup("jie_long", names=["W", "X", "Y", "Z"])
    scorer = scorer_client_for(other.token)
    before = Round.objects.count()
    # Another table's things are not found, as unknown ids are; lists of a director's own are refused.
    for method, url in WRITES:
        r = getattr(scorer, method)(url.format(**urls), {**JIE_LONG, "reason": "x", "confirmed_by": 1},
                                    format="json", HTTP_IF_MATCH='"1"')
        expected = 403 if url in ("/api/v1/clubs/", "/api/v1/tournaments/") else 404
        assert r.status_code == expected, (method, url, r.content)
    for url in READS:
        expected = 403 if url in ("/api/v1/clubs/", "/api/v1/tournaments/") else 404
        assert scorer.get(url.format(**urls)).status_code == expected, url
    assert Round.objects.count() == before
    # its own table works
    assert scorer.post(f"/api/v1/tables/{other.table.pk}/rounds/", JIE_LONG, format="json").status_code == 201


def test_a_director_of_another_club_cannot_touch_this_one(other_director, anon_client, urls):
    from rest_framework.test import APIClient

    c = APIClient()
    c.force_authenticate(other_director)
    for method, url in WRITES[1:]:
        body = {**JIE_LONG, "reason": "x", "name": "n", "player": 1, "entries": []}
        if url == "/api/v1/tournaments/":   # the club is in the body, which takes its own fields only
            body = {"club": urls["club"], "name": "n", "game": "jie_long"}
        r = getattr(c, method)(url.format(**urls), body, format="json", HTTP_IF_MATCH='"1"')
        assert r.status_code == 404, (method, url, r.content)
    for url in READS:
        if url in ("/api/v1/clubs/", "/api/v1/tournaments/"):
            continue   # their own (empty) lists
        assert c.get(url.format(**urls)).status_code == 404, url
    assert c.get("/api/v1/tournaments/").json()["results"] == []


def test_a_revoked_scorer_link_gets_401(jie_long, director_client, scorer_client_for):
    r = director_client.post(f"/api/v1/tables/{jie_long.table.pk}/scorer-token/")
    assert r.status_code == 200
    new = r.json()["scorer_token"]
    assert scorer_client_for(jie_long.token).get(f"/api/v1/tables/{jie_long.table.pk}/").status_code == 401
    assert scorer_client_for(new).get(f"/api/v1/tables/{jie_long.table.pk}/").status_code == 200


def test_preview_answers_without_storing(jie_long, scorer_client_for):
    scorer = scorer_client_for(jie_long.token)
    url = f"/api/v1/tables/{jie_long.table.pk}/rounds/preview/"
    r = scorer.post(url, {"leader": 2, "points": [34, 18, 2, 12]}, format="json")
    assert r.status_code == 200 and r.json()["ok"]
    assert r.json()["record"]["seats"][0] == "Celine" and r.json()["players"][2]["net"] == 58
    r = scorer.post(url, {"leader": 2, "points": [34, 18, 2, -1]}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("points[3]", "bad_points")]
    r = scorer.post(url, {"game": "ding_niu", "points": [34, 18, 2, 12]}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("game", "set_by_table")]
    assert Round.objects.count() == 0


def test_invalid_round_gives_the_engines_errors(jie_long, scorer_client_for):
    scorer = scorer_client_for(jie_long.token)
    r = scorer.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", {"points": [2, 12, 34, 18], "foo": 1},
                    format="json")
    assert r.status_code == 400 and errors_of(r) == [("foo", "unknown_field")]
    r = scorer.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", "[1, 2]", content_type="application/json")
    assert r.status_code == 400 and errors_of(r) == [("", "not_an_object")]
    r = scorer.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", "{bad json", content_type="application/json")
    assert r.status_code == 400 and errors_of(r)[0][1] == "parse_error"
    assert Round.objects.count() == 0


def test_idempotency_key_over_http(jie_long, scorer_client_for):
    scorer = scorer_client_for(jie_long.token)
    url = f"/api/v1/tables/{jie_long.table.pk}/rounds/"
    a = scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    b = scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    assert a.status_code == b.status_code == 201
    assert a.json() == b.json() and b["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in a
    c = scorer.post(url, {"points": [2, 12, 18, 34]}, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    assert c.status_code == 422 and errors_of(c) == [("", "idempotency_key_reused")]
    assert Round.objects.count() == 1


def test_not_found_is_404_with_errors(director_client):
    r = director_client.get("/api/v1/rounds/999999/")
    assert r.status_code == 404 and errors_of(r) == [("", "not_found")]
    assert director_client.get("/api/v1/tables/999999/").status_code == 404


def test_bad_input_paths(director_client, club):
    r = director_client.post("/api/v1/tournaments/", {"club": club.pk, "name": "X", "game": "chess"}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("game", "invalid_choice")]
    r = director_client.post("/api/v1/tournaments/", {"club": club.pk, "name": "X", "game": "jie_long",
                                                       "variant": {"arms": 5}}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("variant.arms", "bad_variant")]


def test_schema_documents_the_rounds(anon_client):
    r = anon_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert r.status_code == 200
    schema = r.json()
    for path in ["/api/v1/tables/{id}/rounds/", "/api/v1/tables/{id}/rounds/preview/", "/api/v1/rounds/{id}/",
                 "/api/v1/rounds/{id}/confirm/", "/api/v1/rounds/{id}/revisions/", "/api/v1/auth/token/",
                 "/api/v1/evaluate/"]:
        assert path in schema["paths"], path
    assert "scorerAuth" in schema["components"]["securitySchemes"]
    assert "put" in schema["paths"]["/api/v1/rounds/{id}/"]


def test_paths_no_route_matches_answer_a_json_404(director_client, anon_client, urls):
    for method, url in [("get", "/api/v1/tables/abc/"), ("post", "/api/v1/rounds/x/confirm/"),
                        ("get", "/api/v1/nowhere/"), ("delete", "/api/v2/clubs/"), ("get", "/api/")]:
        for client in (director_client, anon_client):
            r = getattr(client, method)(url)
            assert r.status_code == 404 and r["Content-Type"] == "application/json", (method, url)
            assert errors_of(r) == [("", "not_found")]
    # a missing slash is still added first
    r = director_client.get("/api/v1/clubs")
    assert r.status_code == 301 and r["Location"] == "/api/v1/clubs/"


def test_lists_come_in_pages(director_client, director_actor, club):
    for i in range(5):
        player_create(actor=director_actor, club=club, name=f"P{i}")
    url = f"/api/v1/clubs/{club.pk}/players/"
    r = director_client.get(url).json()
    assert (r["count"], r["next"], r["previous"], len(r["results"])) == (5, None, None, 5)
    r = director_client.get(url, {"page_size": 2, "page": 2}).json()
    assert [p["name"] for p in r["results"]] == ["P2", "P3"]
    assert r["next"].endswith("?page=3&page_size=2") and r["previous"].endswith("?page_size=2")
    assert director_client.get(url, {"page": 4, "page_size": 2}).status_code == 404


def test_page_size_is_capped():
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from scoring.api.pagination import Pagination

    def size(query):
        return Pagination().get_page_size(Request(APIRequestFactory().get("/", query)))

    assert (size({}), size({"page_size": 10}), size({"page_size": 5000})) == (50, 10, 200)


# ---------------------------------------------------------------------------------------------
# Bodies and queries are read as the schema documents them (schemathesis found each of these
# answered otherwise; tests/scoring/api/test_fuzz_schemathesis.py).

def test_inputs_take_their_declared_fields_only(director_client, club, jie_long):
    r = director_client.post("/api/v1/clubs/", {"name": "Jade", "colour": "red"}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("colour", "unknown_field")]
    r = director_client.patch(f"/api/v1/tournaments/{jie_long.tournament.pk}/", {"status": "finished"}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("status", "unknown_field")]
    r = director_client.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1", "otp": 1},
                             format="json")
    assert r.status_code == 400 and errors_of(r) == [("otp", "unknown_field")]


@pytest.mark.parametrize("field, value, code", [
    ("name", "   ", "blank"), ("name", "\u3000\t", "blank"), ("name", "", "blank"), ("name", 42, "invalid"),
    ("name", " " + "x" * 119 + " ", "max_length"),   # 121 as sent, though 119 once trimmed
    ("club", 0, "min_value"), ("club", 2**63, "max_value"), ("club", "1", "invalid"), ("club", True, "invalid"),
    ("public", "true", "invalid"), ("public", 1, "invalid"),
    ("chip_value", "-1", "invalid"), ("chip_value", "", "invalid"), ("chip_value", 0.5, "invalid"),
    ("chip_value", "1.234", "invalid"), ("currency", 978, "invalid"), ("slug", " jade", "invalid"),
])
def test_tournament_fields_are_read_strictly(director_client, club, field, value, code):
    body = {"club": club.pk, "name": "Jade Open", "game": "jie_long", field: value}
    r = director_client.post("/api/v1/tournaments/", body, format="json")
    assert r.status_code == 400 and errors_of(r) == [(field, code)], r.content


def test_a_trimmed_name_within_the_limit_is_stored_trimmed(director_client, club):
    r = director_client.post(f"/api/v1/clubs/{club.pk}/players/", {"name": "  Anna  "}, format="json")
    assert r.status_code == 201 and r.json()["name"] == "Anna"


def test_table_entries_are_two_to_six_distinct_ids(director_client, jie_long):
    url = f"/api/v1/tournaments/{jie_long.tournament.pk}/tables/"
    entries = [e.pk for e in jie_long.entries]
    for bad, code in [([entries[0]], "min_length"), (entries * 2, "max_length")]:
        r = director_client.post(url, {"name": "T2", "entries": bad, "session": 2}, format="json")
        assert r.status_code == 400 and errors_of(r) == [("entries", code)]
    r = director_client.post(url, {"name": "T2", "entries": [entries[0], entries[0], entries[1]], "session": 2},
                             format="json")
    assert r.status_code == 400 and errors_of(r) == [("entries[1]", "duplicate_entry")]


def test_page_and_page_size_are_read_strictly(director_client, director_actor, club):
    for i in range(3):
        player_create(actor=director_actor, club=club, name=f"P{i}")
    url = f"/api/v1/clubs/{club.pk}/players/"
    for query, code in [("page=last", "bad_page"), ("page=", "bad_page"), ("page=0", "bad_page"),
                        ("page=1&page=2", "bad_page"), ("page_size=abc", "bad_page_size"),
                        ("page_size=0", "bad_page_size"), ("page_size=-1", "bad_page_size"),
                        ("page_size=null&page_size=null", "bad_page_size"), ("page_size=1.5", "bad_page_size")]:
        r = director_client.get(f"{url}?{query}")
        assert r.status_code == 400 and errors_of(r) == [("", code)], query
    assert director_client.get(f"{url}?page={'9' * 40}").status_code == 404
    assert director_client.get(f"{url}?page_size={'9' * 40}").json()["count"] == 3   # read as 200


def test_the_api_takes_json_only(director_client, anon_client, club):
    r = director_client.post("/api/v1/clubs/", {"name": "Jade"})   # multipart, as a form would send it
    assert r.status_code == 415 and errors_of(r)[0][1] == "unsupported_media_type"
    r = anon_client.post("/api/v1/auth/token/", "username=alice&password=alice-secret-1",
                         content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415
    assert anon_client.post("/api/v1/evaluate/", {"game": "jie_long"}).status_code == 415


def test_a_correction_is_checked_as_documented_before_its_if_match(jie_long, scorer_client_for):
    scorer = scorer_client_for(jie_long.token)
    rnd = scorer.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", JIE_LONG, format="json").json()
    url = f"/api/v1/rounds/{rnd['id']}/"
    # a stale If-Match with a body the schema refuses: the body's 400, not the 412
    r = scorer.put(url, {**JIE_LONG, "entered_by": -1, "reason": "x"}, format="json", HTTP_IF_MATCH='"0"')
    assert r.status_code == 400 and errors_of(r) == [("entered_by", "min_value")]
    r = scorer.put(url, {**JIE_LONG, "reason": " " + "x" * 2000}, format="json", HTTP_IF_MATCH='"1"')
    assert r.status_code == 400 and errors_of(r) == [("reason", "max_length")]
    assert scorer.put(url, {**JIE_LONG, "reason": "x"}, format="json", HTTP_IF_MATCH='"0"').status_code == 412


def test_confirming_names_a_seat_from_0_to_5(jie_long, scorer_client_for):
    scorer = scorer_client_for(jie_long.token)
    rnd = scorer.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", {**JIE_LONG, "entered_by": 0},
                      format="json").json()
    r = scorer.post(f"/api/v1/rounds/{rnd['id']}/confirm/", {"confirmed_by": 6}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("confirmed_by", "max_value")]
    r = scorer.post(f"/api/v1/rounds/{rnd['id']}/confirm/", {"confirmed_by": 5}, format="json")   # a 4-seat table
    assert r.status_code == 400 and errors_of(r) == [("confirmed_by", "bad_seat")]


def test_a_dispute_needs_a_message_and_resolve_needs_no_body(jie_long, scorer_client_for, director_client):
    scorer = scorer_client_for(jie_long.token)
    rnd = scorer.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", JIE_LONG, format="json").json()
    r = scorer.post(f"/api/v1/rounds/{rnd['id']}/dispute/")
    assert r.status_code == 400 and [p for p, _code in errors_of(r)] == ["message"]
    r = scorer.post(f"/api/v1/rounds/{rnd['id']}/dispute/", {"message": "  "}, format="json")
    assert r.status_code == 400 and [p for p, _code in errors_of(r)] == ["message"]
    r = scorer.post(f"/api/v1/rounds/{rnd['id']}/dispute/", {"message": "Bob had 6:6"}, format="json")
    assert r.status_code == 200 and r.json()["dispute_message"] == "Bob had 6:6"
    assert director_client.post(f"/api/v1/rounds/{rnd['id']}/resolve/").json()["disputed"] is False
    r = director_client.post(f"/api/v1/rounds/{rnd['id']}/void/", {"reason": "x" * 2001}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("reason", "max_length")]


def test_logging_in_needs_a_username_and_a_password(anon_client, director):
    r = anon_client.post("/api/v1/auth/token/", {"username": "", "password": ""}, format="json")
    assert r.status_code == 400 and {p for p, _ in errors_of(r)} == {"username", "password"}
    r = anon_client.post("/api/v1/auth/token/", {"username": 5, "password": "alice-secret-1"}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("username", "invalid")]
