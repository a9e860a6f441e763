"""The OpenAPI schema and the API's real answers agree.

A whole session over HTTP (a director, scorers of two games, idempotent recording, previews,
corrections, confirmation, history, standings, pages, and errors of every status) with every
answer validated by openapi-core against the response that ``/api/schema/`` documents for its
path, method and status. Response objects are closed (``additionalProperties: false``, see
``scoring.api.schema``), so a field sent but not declared fails as well.
"""

from __future__ import annotations

import json
import re
from functools import cache

import pytest
from django.http import HttpResponse
from django.test import Client
from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIResponse
from openapi_core.datatypes import RequestParameters

from ..bodies import JIE_LONG, TAU_NGAU_V1

pytestmark = pytest.mark.django_db

ERRORS_REF = "#/components/schemas/Errors"
#: Every status the session below must meet (and so validate) at least once.
STATUSES = {200, 201, 400, 401, 403, 404, 409, 412, 422, 428}


@cache
def schema() -> dict:
    response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    return response.json()


@cache
def openapi() -> OpenAPI:
    return OpenAPI.from_dict(schema())   # checks the document itself against OpenAPI 3 first


class Sent:
    """The request side of an answer, as openapi-core needs it to find the operation: the
    concrete path, matched against the schema's templates (``{id}``; the Django wrapper would
    offer the URL conf's ``{pk}``)."""

    host_url = "http://testserver"
    body = None
    content_type = "application/json"

    def __init__(self, method: str, path: str):
        self.method = method.lower()
        self.path = path
        self.parameters = RequestParameters()


def problems(method: str, path: str, response) -> list[str]:
    out = []
    for error in openapi().iter_response_errors(Sent(method, path), DjangoOpenAPIResponse(response)):
        details = getattr(error.__cause__, "schema_errors", None) or [error.__cause__ or error]
        out += [f"{method.upper()} {path} {response.status_code}: {type(error).__name__}: {d}" for d in details]
    return out


class Checked:
    """An API client whose every answer is validated against the schema (and counted by status)."""

    def __init__(self, client, seen: set[int]):
        self.client = client
        self.seen = seen

    def call(self, method: str, url: str, data=None, **extra):
        if "content_type" not in extra:
            extra["format"] = "json"
        response = getattr(self.client, method)(url, data, **extra)
        found = problems(method, response.wsgi_request.path, response)
        assert not found, "\n".join(found)
        self.seen.add(response.status_code)
        return response

    def get(self, url, **extra):
        return self.call("get", url, **extra)

    def post(self, url, data=None, **extra):
        return self.call("post", url, data, **extra)

    def put(self, url, data=None, **extra):
        return self.call("put", url, data, **extra)

    def patch(self, url, data=None, **extra):
        return self.call("patch", url, data, **extra)


def codes(response) -> list[tuple[str, str]]:
    return [(e["path"], e["code"]) for e in response.json()["errors"]]


def test_a_whole_session_answers_as_documented(director_client, other_director, anon_client, scorer_client_for,
                                               django_capture_on_commit_callbacks):
    from rest_framework.test import APIClient

    seen: set[int] = set()
    d = Checked(director_client, seen)
    anon = Checked(anon_client, seen)
    stranger_client = APIClient()
    stranger_client.force_authenticate(other_director)
    stranger = Checked(stranger_client, seen)

    # auth, clubs, players (a list of two pages)
    assert anon.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"}).status_code == 200
    assert anon.post("/api/v1/auth/token/", {"username": "alice", "password": "nope"}).status_code == 400
    club = d.post("/api/v1/clubs/", {"name": "Jade Club"}).json()["id"]
    assert d.get("/api/v1/clubs/").json()["count"] == 1
    assert d.get(f"/api/v1/clubs/{club}/").status_code == 200
    players = [d.post(f"/api/v1/clubs/{club}/players/", {"name": n}).json()["id"]
               for n in ["Anna", "Bob", "Celine", "Dominic"]]
    page = d.get(f"/api/v1/clubs/{club}/players/?page_size=3").json()
    assert (page["count"], len(page["results"]), page["previous"]) == (4, 3, None) and page["next"]
    page = d.get(page["next"]).json()
    assert len(page["results"]) == 1 and page["next"] is None and page["previous"]
    assert d.get(f"/api/v1/clubs/{club}/players/?page=9").status_code == 404
    assert d.post(f"/api/v1/clubs/{club}/players/", {"name": ""}).status_code == 400

    # two tournaments: one with a leader (Jie Long), one with a banker (Tau Ngau)
    tables = {}
    for game, variant in [("jie_long", {"settlement": "difference"}), ("tau_ngau", {"settlement": "v1"})]:
        r = d.post("/api/v1/tournaments/", {"club": club, "name": f"{game} open", "game": game, "variant": variant,
                                            "chip_value": "0.10", "currency": "HKD"})
        t = r.json()["id"]
        entries = [d.post(f"/api/v1/tournaments/{t}/entries/", {"player": p}).json()["id"] for p in players]
        assert d.get(f"/api/v1/tournaments/{t}/entries/").json()["count"] == 4
        r = d.post(f"/api/v1/tournaments/{t}/tables/", {"name": "Table 1", "entries": entries})
        tables[game] = {"tournament": t, **r.json()}
        assert d.get(f"/api/v1/tournaments/{t}/tables/").json()["count"] == 1
    jl, tn = tables["jie_long"], tables["tau_ngau"]
    assert d.post(f"/api/v1/tournaments/{jl['tournament']}/entries/", {"player": players[0]}).status_code == 409
    scorer = Checked(scorer_client_for(jl["scorer_token"]), seen)
    assert scorer.post(f"/api/v1/tables/{jl['id']}/rounds/", JIE_LONG).status_code == 409   # still a draft
    for t in (jl, tn):
        assert d.post(f"/api/v1/tournaments/{t['tournament']}/start/").json()["status"] == "running"
    assert d.patch(f"/api/v1/tournaments/{tn['tournament']}/", {"public": True}).json()["public"] is True
    assert d.get(f"/api/v1/tournaments/{tn['tournament']}/").status_code == 200
    assert d.get("/api/v1/tournaments/").json()["count"] == 2
    rotated = d.post(f"/api/v1/tables/{jl['id']}/scorer-token/").json()
    scorer = Checked(scorer_client_for(rotated["scorer_token"]), seen)

    # Jie Long: a deal, the same deal twice under one key, and that key again for another deal
    rounds_url = f"/api/v1/tables/{jl['id']}/rounds/"
    first = scorer.post(rounds_url, {**JIE_LONG, "entered_by": 0}).json()
    assert {"leader", "next_leader"} <= set(first) and "banker" not in first
    a = scorer.post(rounds_url, JIE_LONG, HTTP_IDEMPOTENCY_KEY="k1")
    b = scorer.post(rounds_url, JIE_LONG, HTTP_IDEMPOTENCY_KEY="k1")
    fresh = scorer.get(f"/api/v1/rounds/{a.json()['id']}/")
    assert a.status_code == b.status_code == 201 and b["Idempotent-Replayed"] == "true"
    assert a.json() == b.json() == fresh.json()
    assert scorer.post(rounds_url, {"points": [2, 12, 18, 34]}, HTTP_IDEMPOTENCY_KEY="k1").status_code == 422
    assert scorer.post(rounds_url, {"points": [2, 12, 34, -1]}).status_code == 400
    assert scorer.get(f"{rounds_url}?page_size=2").json()["count"] == 2

    preview = f"/api/v1/tables/{jl['id']}/rounds/preview/"
    assert scorer.post(preview, {"leader": 2, "points": [34, 18, 2, 12]}).json()["ok"] is True
    assert codes(scorer.post(preview, {"points": [2, 12, 34, -1]})) == [("points[3]", "bad_points")]

    # correct with If-Match, confirm, dispute, resolve, void, history
    url = f"/api/v1/rounds/{first['id']}/"
    fix = {"points": [2, 12, 18, 34], "reason": "swapped"}
    assert scorer.put(url, fix).status_code == 428
    assert scorer.put(url, fix, HTTP_IF_MATCH="three").status_code == 400
    assert scorer.put(url, fix, HTTP_IF_MATCH='"1"').json()["revision"] == 2
    assert scorer.put(url, fix, HTTP_IF_MATCH='"1"').status_code == 412
    assert scorer.post(f"{url}confirm/", {"confirmed_by": 0}).status_code == 400
    assert scorer.post(f"{url}confirm/", {"confirmed_by": 2}).json()["status"] == "confirmed"
    assert scorer.put(url, fix, HTTP_IF_MATCH='"2"').status_code == 403
    assert scorer.post(f"{url}dispute/", {"message": "call the referee"}).json()["disputed"] is True
    assert d.post(f"{url}resolve/", {"note": "ok"}).json()["disputed"] is False
    assert d.post(f"{url}void/", {"reason": "misdeal"}).json()["status"] == "voided"
    history = scorer.get(f"{url}revisions/").json()
    assert history["chain"]["ok"] and [r["number"] for r in history["revisions"]] == [1, 2]

    # Tau Ngau: a banker, no leader
    tau = Checked(scorer_client_for(tn["scorer_token"]), seen)
    deal = tau.post(f"/api/v1/tables/{tn['id']}/rounds/", TAU_NGAU_V1).json()
    assert {"banker", "next_banker"} <= set(deal) and "leader" not in deal
    assert "banker" in tau.get(f"/api/v1/tables/{tn['id']}/").json()["next_round"]
    assert tau.post(f"/api/v1/tables/{tn['id']}/rounds/preview/", TAU_NGAU_V1).json()["banker"] == 0

    # standings (the task that totals them runs on commit), then a finished tournament refuses writes
    with django_capture_on_commit_callbacks(execute=True):
        d.post(rounds_url, JIE_LONG)
    standings = d.get(f"/api/v1/tournaments/{jl['tournament']}/standings/").json()
    assert re.fullmatch(r"-?\d+\.\d\d", standings["rows"][0]["money"]) and standings["computed_at"]
    assert d.get(f"/api/v1/tournaments/{jl['tournament']}/payouts/").json()["transfers"]
    assert d.get(f"/api/v1/tournaments/{jl['tournament']}/payouts/?session=1").json()["session"] == 1
    assert d.get(f"/api/v1/tournaments/{jl['tournament']}/payouts/?session=9").status_code == 404
    assert d.get(f"/api/v1/tournaments/{jl['tournament']}/payouts/?session=x").status_code == 400
    assert anon.get(f"/api/v1/tournaments/{tn['tournament']}/standings/").status_code == 200   # public
    assert anon.get(f"/api/v1/tournaments/{tn['tournament']}/payouts/").status_code == 200
    assert anon.get(f"/api/v1/tournaments/{jl['tournament']}/standings/").status_code == 404   # private
    assert d.get(f"/api/v1/tournaments/{jl['tournament']}/standings.csv").status_code == 200
    assert d.post(f"/api/v1/tournaments/{jl['tournament']}/finish/").json()["status"] == "finished"
    assert d.post(rounds_url, JIE_LONG).status_code == 409

    # who may not: nobody, a director of another club, a scorer of another table
    assert anon.get(url).status_code == 401
    assert anon.post("/api/v1/clubs/", {"name": "X"}).status_code == 401
    # what is not yours is not found, like what does not exist (ids of others cannot be probed)
    assert stranger.get(url).status_code == 404
    assert stranger.post(f"/api/v1/clubs/{club}/players/", {"name": "Eve"}).status_code == 404
    assert tau.get(url).status_code == 404
    # what you can see but may not do: refused
    assert tau.post("/api/v1/clubs/", {"name": "X"}).status_code == 403
    assert d.get("/api/v1/rounds/999999/").status_code == 404
    # no <int:pk> route matches: the catch-all answers, as documented for the path it resembles
    assert codes(d.get("/api/v1/tables/abc/")) == [("", "not_found")]

    assert STATUSES <= seen, f"never met: {sorted(STATUSES - seen)}"


def test_the_engine_endpoint_answers_as_documented(anon_client):
    seen: set[int] = set()
    api = Checked(anon_client, seen)
    record = {"game": "jie_long", "seats": ["Anna", "Bob", "Celine", "Dominic"], "points": [2, 12, 34, 18]}
    assert api.post("/api/v1/evaluate/", record).json()["ok"] is True
    assert [r["ok"] for r in api.post("/api/v1/evaluate/", [record, {"game": "chess"}]).json()] == [True, False]
    r = api.post("/api/v1/evaluate/", {**record, "points": [1]})
    assert r.status_code == 400 and r.json()["ok"] is False and codes(r)
    r = api.post("/api/v1/evaluate/", "{not json", content_type="application/json")
    assert r.status_code == 400 and codes(r)[0][1] == "parse_error"
    r = api.post("/api/v1/evaluate/", [record] * 501)
    assert r.status_code == 400 and codes(r) == [("", "too_long")]


def test_every_error_answer_is_documented_with_the_errors_schema():
    operations = {op["operationId"]: (method, op) for path in schema()["paths"].values()
                  for method, op in path.items() if isinstance(op, dict) and "operationId" in op}
    for name, (method, op) in operations.items():
        responses = op["responses"]
        for code, response in responses.items():
            if not code.startswith("2"):
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref == ERRORS_REF or (name == "evaluate" and ref.endswith("/EngineErrors")), (name, code)
        if name in ("evaluate", "tournament_document_schema"):
            continue   # no login: no 401, 403 or 404
        if name == "auth_token":
            must = {"400", "403", "429"}   # no login, but failed logins are limited
        elif name == "auth_token_revoke":
            must = {"401", "403", "429"}   # no body, no object
        else:
            must = {"401", "403", "404", "429"} | ({"400", "409"} if method != "get" else set())
        must |= {"rounds_correct": {"412", "428"}, "tables_rounds_create": {"422"}}.get(name, set())
        assert must <= set(responses), (name, sorted(must - set(responses)))


def test_a_field_the_schema_does_not_declare_fails(director_client, jie_long):
    rounds = f"/api/v1/tables/{jie_long.table.pk}/rounds/"
    table = f"/api/v1/tables/{jie_long.table.pk}/"
    director_client.post(rounds, JIE_LONG, format="json")

    def fails(path, body) -> bool:
        return bool(problems("get", path, HttpResponse(json.dumps(body), content_type="application/json")))

    page, detail = director_client.get(rounds).json(), director_client.get(table).json()
    assert not fails(rounds, page) and not fails(table, detail)
    assert fails(rounds, {**page, "surprise": 1})
    assert fails(table, {**detail, "surprise": 1})
    # nested objects are closed as well...
    assert fails(table, {**detail, "next_round": {**detail["next_round"], "surprise": 1}})
    page["results"][0]["surprise"] = 1
    assert fails(rounds, page)
    # ...but a seat's result carries the engine's fields for the game, whatever they are
    del page["results"][0]["surprise"]
    page["results"][0]["players"][0]["bonus"] = 3
    assert not fails(rounds, page)


# ---------------------------------------------------------------------------------------------
# What the schema says of requests is what the server enforces (found by schemathesis,
# tests/scoring/api/test_fuzz_schemathesis.py).

SCORER_OPERATIONS = {"tables_retrieve", "tables_rounds_list", "tables_rounds_create", "tables_rounds_preview",
                     "rounds_retrieve", "rounds_correct", "rounds_confirm", "rounds_dispute", "rounds_revisions"}


def operations() -> dict[str, dict]:
    return {op["operationId"]: op for path in schema()["paths"].values() for op in path.values()
            if isinstance(op, dict) and "operationId" in op}


def component(name: str) -> dict:
    return schema()["components"]["schemas"][name]


def test_only_the_endpoints_a_scorer_link_can_use_advertise_it():
    for name, op in operations().items():
        schemes = {scheme for requirement in op.get("security", []) for scheme in requirement}
        if name in ("evaluate", "auth_token", "tournament_document_schema"):
            assert schemes == set(), name
        elif name in SCORER_OPERATIONS:
            assert schemes == {"tokenAuth", "scorerAuth", "cookieAuth"}, name
        else:
            assert schemes == {"tokenAuth", "cookieAuth"}, name


def test_request_bodies_are_json_and_closed_unless_free_form():
    for name, op in operations().items():
        content = op.get("requestBody", {}).get("content", {})
        assert set(content) <= {"application/json"}, name
    for name in ("ClubInput", "PlayerInput", "TournamentInput", "PatchedTournamentUpdate", "EntryInput", "TableInput",
                 "ConfirmInput", "VoidInput", "DisputeInput", "ResolveInput", "TokenInput"):
        assert component(name)["additionalProperties"] is False, name
    # a deal carries the record's fields for the table's game
    assert component("RoundBody")["additionalProperties"] == {}
    assert component("RoundCorrection")["required"] == ["reason"]
    for name in ("evaluate", "tables_rounds_create", "tables_rounds_preview", "rounds_correct"):
        assert operations()[name]["requestBody"]["required"] is True, name
    evaluate = operations()["evaluate"]["requestBody"]["content"]["application/json"]["schema"]["oneOf"]
    assert [(s["type"], s.get("maxItems")) for s in evaluate] == [("object", None), ("array", 500)]


def test_inputs_document_their_limits():
    name = component("ClubInput")["properties"]["name"]
    assert (name["minLength"], name["maxLength"]) == (1, 120) and name["pattern"]
    tournament = component("TournamentInput")["properties"]
    assert (tournament["club"]["minimum"], tournament["club"]["maximum"]) == (1, 2**63 - 1)
    assert tournament["chip_value"]["pattern"] == r"^[0-9]{1,8}(?:\.[0-9]{1,2})?$"
    table = component("TableInput")["properties"]
    assert (table["entries"]["minItems"], table["entries"]["maxItems"], table["entries"]["uniqueItems"]) == (2, 6, True)
    assert table["session"]["maximum"] == 2**31 - 1
    assert (component("ConfirmInput")["properties"]["confirmed_by"]["minimum"],
            component("ConfirmInput")["properties"]["confirmed_by"]["maximum"]) == (0, 5)
    assert component("VoidInput")["properties"]["reason"]["maxLength"] == 2000
    token = component("TokenInput")["properties"]
    assert token["username"]["minLength"] == token["password"]["minLength"] == 1
    for name in ("clubs_list", "tables_rounds_list"):
        for parameter in operations()[name]["parameters"]:
            if parameter["name"] in ("page", "page_size"):
                assert parameter["schema"]["minimum"] == 1
        assert "400" in operations()[name]["responses"]


def header(operation: str, name: str) -> dict:
    return next(p for p in operations()[operation]["parameters"] if p["in"] == "header" and p["name"] == name)


@pytest.mark.parametrize("text", ["a", " a ", "\u3000x", "\ufeff", "é", " ", "\t\n", "\u3000", "\x1c", "\x85",
                                  "\u00a0\u2000\u200a", "\u2028\u2029\u202f\u205f", "", "a\x00"])
def test_the_non_blank_pattern_means_what_the_server_does(text):
    """The schema's pattern, read by an ECMA-style engine (jsonschema-rs, as validating clients
    and schemathesis do), agrees with the server: text with something besides whitespace."""
    import jsonschema_rs

    from scoring.api.clubs import ClubInputSerializer

    documented = component("ClubInput")["properties"]["name"]
    schema_says = jsonschema_rs.validator_for({"type": "string", **documented}).is_valid(text)
    server_says = ClubInputSerializer(data={"name": text}).is_valid()
    assert schema_says == server_says == (bool(text.strip()) and "\x00" not in text and len(text) <= 120)


@pytest.mark.parametrize("value", ['"3"', 'W/"3"', "3", ' "3"\t', "*", '""3""', '"3', "3 4", '"-1"', '"３"',
                                   '"' + "9" * 21 + '"', ""])
def test_the_if_match_pattern_means_what_the_server_does(value):
    import jsonschema_rs

    from scoring.domain.errors import ValidationFailed
    from scoring.web.http import parse_if_match

    schema_says = jsonschema_rs.validator_for(header("rounds_correct", "If-Match")["schema"]).is_valid(value)
    try:
        server_says = parse_if_match(value) is not None
    except ValidationFailed:
        server_says = False
    assert schema_says == server_says


@pytest.mark.parametrize("key", ["k1", " k ", "x" * 255, "", "   ", "\t", "x" * 256])
def test_the_idempotency_key_schema_means_what_the_server_does(jie_long, key):
    import jsonschema_rs

    from scoring.domain.errors import ValidationFailed
    from scoring.services.idempotency import round_record_idempotent

    schema_says = jsonschema_rs.validator_for(header("tables_rounds_create", "Idempotency-Key")["schema"]).is_valid(key)
    try:
        round_record_idempotent(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG, key=key)
        server_says = True
    except ValidationFailed:
        server_says = False
    assert schema_says == server_says == (0 < len(key) <= 255 and bool(key.strip()))


@pytest.mark.parametrize("username", ["alice", " ", "al\x00ice", ""])
def test_the_login_fields_say_what_the_server_refuses(username):
    """Found by schemathesis: a NUL in the username was allowed by the schema, refused (400) by
    the server."""
    import jsonschema_rs

    from scoring.api.tokens import TokenInputSerializer

    schema_says = jsonschema_rs.validator_for(component("TokenInput")).is_valid({"username": username, "password": "p"})
    server_says = TokenInputSerializer(data={"username": username, "password": "p"}).is_valid()
    assert schema_says == server_says == (username != "" and "\x00" not in username)
