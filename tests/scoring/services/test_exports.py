"""A tournament as one document (``scoring.domain.documents``): export, import into a new tournament,
and export again gives the document as imported (private, its authors marked "imported: ",
no confirming director, hashes recomputed over those; then exactly the same on every further
round trip, apart from the export time); the imported deals keep their histories (chains
verifying over their new ids) and the standings are a recomputation. A document whose hashes or
content do not verify is refused at the first bad path, and nothing is created. Over HTTP, every
answer is checked against the OpenAPI schema. The attacks of issue 16 (an old engine version,
dates out of range or order, junk, names): ``test_import_checks.py``."""

from __future__ import annotations

import copy
import json
from datetime import datetime

import pytest
from django.test import TestCase
from rest_framework.test import APIClient

from scoring.domain import documents
from scoring.domain.actors import Actor
from scoring.domain.errors import ValidationFailed
from scoring.models import ActionLog, Player, Round, RoundRevision, Table, Tournament
from scoring.selectors.audits import round_verify_chain
from scoring.selectors.exports import tournament_export
from scoring.selectors.standings import standings_for
from scoring.services.exports import tournament_import
from scoring.services.rounds import (
    round_confirm,
    round_correct,
    round_dispute,
    round_dispute_resolve,
    round_record,
    round_void,
)
from scoring.services.seating import session_seat
from scoring.services.standings import standings_refresh
from scoring.services.tournaments import tournament_create, tournament_finish

from ..api.test_schema import problems
from ..bodies import DING_NIU_LED_BY_1, TAU_NGAU_V1

pytestmark = pytest.mark.django_db

DA_LING = {"table": ["6:5", "2:1"], "groups": [[["2:2"], ["4:2", "6:5"], ["6:6", "5:5", "3:3"]],
                                               [["3:1"], ["6:6", "1:1"], ["6:4", "3:3", "2:2"]]]}
#: Two different deals a table of the game can record (the second also serves as a correction).
DEALS = {
    "jie_long": ({"leader": 0, "points": [2, 12, 34, 18]}, {"leader": 0, "points": [2, 12, 18, 34]}),
    "ding_niu": (DING_NIU_LED_BY_1, {"leader": 0, "points": [0, 6, 6, 10]}),
    "tau_ngau": (TAU_NGAU_V1, {**TAU_NGAU_V1, "banker": 1}),
    "da_ling": (DA_LING, {**DA_LING, "table": ["6:5", "3:1"]}),
}
SETUPS = {"tau_ngau": {"variant": {"settlement": "v1"}}, "da_ling": {"names": ["P1", "P2"]}}


def play(setup, *, finish: bool = False):
    """Deals of every kind: corrected (by the scorer, then by a director after confirmation),
    confirmed, disputed and settled, voided, disputed and left open; then a second session."""
    d, sc, table = setup.director_actor, setup.scorer_actor, setup.table
    first, second = DEALS[setup.tournament.game]
    r1 = round_record(actor=sc, table=table, body={**first, "entered_by": 0})
    round_correct(actor=sc, round=r1, body={**second, "entered_by": 0}, reason="swapped two hands",
                           expected_revision=1)
    round_confirm(actor=sc, round=r1, confirmed_by=1)
    round_correct(actor=d, round=r1, body={**first, "entered_by": 0}, reason="the referee's ruling",
                           expected_revision=2)
    r2 = round_record(actor=sc, table=table, body={**second, "entered_by": 1})
    round_dispute(actor=sc, round=r2, message="wrong tiles?")
    round_dispute_resolve(actor=d, round=r2, note="they were right")
    round_confirm(actor=d, round=r2)
    r3 = round_record(actor=sc, table=table, body=first)
    round_void(actor=d, round=r3, reason="misdeal")
    r4 = round_record(actor=sc, table=table, body={**second, "entered_by": 1})
    round_dispute(actor=sc, round=r4, message="call the referee")
    seated = session_seat(actor=d, tournament=setup.tournament, method="balanced",
                                   table_size=len(setup.entries), leftovers="sit_out", seed="2")
    table2, _ = seated.tables[0]
    round_record(actor=d, table=table2, body={**first, "entered_by": 0})
    if finish:
        tournament_finish(actor=d, tournament=setup.tournament, disputes_stay=True)
    return setup.tournament


def export(director_client, tournament) -> dict:
    response = director_client.get(f"/api/v1/tournaments/{tournament.pk}/export/")
    found = problems("get", response.wsgi_request.path, response)
    assert not found, "\n".join(found)
    assert response.status_code == 200, response.content
    return response.json()


def import_(client, club, document):
    """POST the document; its commit sends the import's task, run in-process (no REDIS_URL)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post("/api/v1/tournaments/import/", {"club": club.pk, "document": document}, format="json")
    found = problems("post", response.wsgi_request.path, response)
    assert not found, "\n".join(found)
    return response


def followed(client, response) -> dict:
    """The import a 202 answered, as its URL answers it now."""
    assert response.status_code == 202, response.content
    assert response["Location"] == response.json()["url"]
    job = client.get(response.json()["url"])
    found = problems("get", job.wsgi_request.path, job)
    assert not found, "\n".join(found)
    return job.json()


def imported(client, club, document) -> Tournament:
    """The tournament an import of ``document`` made."""
    job = followed(client, import_(client, club, document))
    assert job["status"] == "done", job
    return Tournament.objects.get(pk=job["tournament"])


def refused(client, club, document) -> list[tuple[str, str]]:
    """The problem a failed import names: [(path, code)]."""
    job = followed(client, import_(client, club, document))
    assert job["status"] == "failed" and job["tournament"] is None, job
    return [(job["error"]["path"], job["error"]["code"])]


def without_time(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k != "exported_at"}


def as_imported(doc: dict, *, rated: bool = False) -> dict:
    """What an import keeps of a document, as its export shows it: private, rated only when asked,
    every author (of a revision, of an adjustment) marked as imported, no confirming director (a name is nobody here), hashes
    recomputed over that."""
    doc = copy.deepcopy(doc)
    doc["tournament"]["public"] = False
    doc["tournament"]["rated"] = rated
    for r in doc["rounds"]:
        r["confirmed_by_director"] = None
        for rev in r["revisions"]:
            rev["actor"] = documents.imported_label(rev["actor"])
    for a in doc.get("adjustments", []):
        a["by"] = documents.imported_label(a["by"])
    return rehash(doc)


def by_name(tournament) -> dict:
    return {r["name"]: (r["net"], r["deals"]) for r in standings_for(tournament)}


# --- the round trip -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", sorted(DEALS))
def test_export_import_export_gives_the_same_document(make_setup, director_client, club, game):
    original = play(make_setup(game, **SETUPS.get(game, {})), finish=game == "jie_long")
    doc = export(director_client, original)
    assert doc["format"] == documents.FORMAT and doc["version"] == 2
    assert len(doc["rounds"]) == 5 and [len(r["revisions"]) for r in doc["rounds"]][:2] == [3, 1]
    assert {r["status"] for r in doc["rounds"]} == {"recorded", "confirmed", "voided"}

    copy_ = imported(director_client, club, doc)
    assert copy_.pk != original.pk and copy_.slug != original.slug and copy_.status == original.status
    again = export(director_client, copy_)
    assert doc["tournament"]["public"] and not copy_.public   # private until its director publishes it
    assert without_time(again) == without_time(as_imported(doc))
    # ... and from then on the round trip is exact
    copy2 = imported(director_client, club, again)
    assert without_time(export(director_client, copy2)) == without_time(again)

    # every imported deal's stored chain verifies over its new id; the standings are recomputed
    rounds = Round.objects.filter(table__session__tournament=copy_)
    assert rounds.count() == 5
    assert all(round_verify_chain(r).ok for r in rounds)
    assert not (set(RoundRevision.objects.filter(round__in=rounds).values_list("hash", flat=True))
                & set(RoundRevision.objects.filter(round__table__session__tournament=original)
                      .values_list("hash", flat=True)))   # the stored hashes cover the new ids
    assert by_name(copy_) == by_name(original)
    assert standings_refresh(tournament=copy_) and not ActionLog.objects.filter(
        action=ActionLog.Action.STANDINGS_REPAIR, tournament=copy_).exists()
    log = ActionLog.objects.get(action=ActionLog.Action.TOURNAMENT_IMPORT, tournament=copy_)
    assert log.data["rounds"] == 5 and log.data["players_created"] == []   # the club's players, by name


def test_the_document_holds_no_scorer_link_and_new_tables_get_hidden_ones(make_setup, director_client, club):
    s = make_setup("jie_long")
    play(s)
    doc = export(director_client, s.tournament)
    text = json.dumps(doc)
    assert s.token not in text and s.table.scorer_token_hash not in text
    copy_ = imported(director_client, club, doc)
    hashes = set(Table.objects.filter(session__tournament=copy_).values_list("scorer_token_hash", flat=True))
    assert len(hashes) == 2 and s.table.scorer_token_hash not in hashes


def test_only_confirmed_deals_count_after_import_too(make_setup, director_client, club):
    s = make_setup("ding_niu", require_confirmation=True)
    play(s)
    doc = export(director_client, s.tournament)
    copy_ = imported(director_client, club, doc)
    assert copy_.require_confirmation and by_name(copy_) == by_name(s.tournament)
    assert sum(n for _, n in by_name(copy_).values()) == 2 * 4   # two confirmed deals, four players each


def test_another_clubs_import_creates_the_players(make_setup, director_client, other_director):
    s = make_setup("tau_ngau", variant={"settlement": "v1"})
    play(s)
    doc = export(director_client, s.tournament)
    club = other_director.clubs.get()
    copy_ = tournament_import(actor=Actor(user=other_director), club=club, document=doc)
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == sorted(s.names)
    assert by_name(copy_) == by_name(s.tournament)
    again = tournament_export(copy_)
    # the confirming director of one club is nobody in the other (nor in the same one: a name in
    # a document proves nothing), the authors are marked as imported, the copy is private
    assert any(r["confirmed_by_director"] for r in doc["rounds"])
    assert without_time(again) == without_time(as_imported(doc))


def test_an_empty_tournament_round_trips(club, director_actor, director_client):
    t = tournament_create(actor=director_actor, club=club, name="Nothing yet", game="ce_deng")
    doc = export(director_client, t)
    assert (doc["players"], doc["sessions"], doc["rounds"]) == ([], [], [])
    copy_ = tournament_import(actor=director_actor, club=club, document=doc)
    assert without_time(tournament_export(copy_)) == without_time(as_imported(doc))


# --- refusals -----------------------------------------------------------------------------------

@pytest.fixture
def played(make_setup, director_client):
    s = make_setup("jie_long")
    play(s)
    return export(director_client, s.tournament)


def rehash(doc: dict) -> dict:
    """Recompute every hash of the document, as anyone can: a tamperer who knows the format."""
    for r in doc["rounds"]:
        prev = ""
        for rev in r["revisions"]:
            rev["prev_hash"] = prev
            rev["hash"] = prev = documents.document_hash(prev_hash=prev, round_id=r["id"], revision=rev,
                                                         created_at=datetime.fromisoformat(rev["created_at"]))
    return doc


def _set_points(doc, value):
    rev = doc["rounds"][1]["revisions"][0]
    rev["body"]["points"][0] = value
    rev["record"]["points"][0] = value


def _swap_nets(result):
    seats = result["seats"]
    seats[0]["net"], seats[1]["net"] = seats[1]["net"], seats[0]["net"]
    assert seats[0]["net"] != seats[1]["net"]


TAMPERING = {
    "a hash changed": (lambda d: d["rounds"][0]["revisions"][2].__setitem__("hash", "0" * 64),
                       "document.rounds[0].revisions[2].hash", "hash_mismatch"),
    "points changed, hash kept": (lambda d: d["rounds"][1]["revisions"][0]["body"]["points"].__setitem__(0, 0),
                                  "document.rounds[1].revisions[0].hash", "hash_mismatch"),
    "the author changed": (lambda d: d["rounds"][3]["revisions"][0].__setitem__("actor", "director mallory"),
                           "document.rounds[3].revisions[0].hash", "hash_mismatch"),
    "a revision moved to another deal": (lambda d: d["rounds"][1].__setitem__("revisions",
                                                                             d["rounds"][4]["revisions"]),
                                         "document.rounds[1].revisions[0].hash", "hash_mismatch"),
    "a broken link": (lambda d: d["rounds"][0]["revisions"][1].__setitem__("prev_hash", "f" * 64),
                      "document.rounds[0].revisions[1].prev_hash", "broken_chain"),
    "a revision left out": (lambda d: d["rounds"][0]["revisions"].pop(0),
                            "document.rounds[0].revisions[0].number", "bad_number"),
    # Hashes prove nothing on their own: a document re-hashed after a change is checked against
    # what the engine makes of its content.
    "points changed, re-hashed": (lambda d: rehash(_set_points(d, 0) or d),
                                  "document.rounds[1].revisions[0].result", "result_mismatch"),
    # Issue 16: a net that breaks the deal's balance is named for what it is, before the engine
    # is asked (it used to answer result_mismatch here).
    "a net changed, re-hashed": (lambda d: rehash(d["rounds"][1]["revisions"][0]["result"]["seats"][0]
                                                  .__setitem__("net", 999) or d),
                                 "document.rounds[1].revisions[0].result", "not_zero_sum"),
    "two nets swapped, re-hashed": (lambda d: rehash(_swap_nets(d["rounds"][1]["revisions"][0]["result"]) or d),
                                    "document.rounds[1].revisions[0].result", "result_mismatch"),
    "a record that is not the body's, re-hashed": (
        lambda d: rehash(d["rounds"][1]["revisions"][0]["record"]["points"].__setitem__(0, 7) or d),
        "document.rounds[1].revisions[0].record", "record_mismatch"),
}


@pytest.mark.parametrize("case", sorted(TAMPERING))
def test_a_tampered_document_is_refused_at_its_first_bad_path(played, director_client, club, case):
    change, path, code = TAMPERING[case]
    doc = copy.deepcopy(played)
    change(doc)
    before = (Tournament.objects.count(), Round.objects.count(), ActionLog.objects.exclude(
        action=ActionLog.Action.TOURNAMENT_IMPORT_QUEUE).count())
    assert refused(director_client, club, doc) == [(path, code)]
    assert (Tournament.objects.count(), Round.objects.count(), ActionLog.objects.exclude(
        action=ActionLog.Action.TOURNAMENT_IMPORT_QUEUE).count()) == before


BAD = {
    "not an object": (lambda d: [1], "document", "bad_type"),
    "another format": (lambda d: d.__setitem__("format", "csv"), "document.format", "bad_format"),
    "a later version": (lambda d: d.__setitem__("version", 3), "document.version", "bad_version"),
    "an unknown game": (lambda d: d["tournament"].__setitem__("game", "chess"), "document.tournament.game",
                        "unknown_game"),
    "a bad rule option": (lambda d: d["tournament"]["variant"].__setitem__("settlement", "x"),
                          "document.tournament.variant.settlement", "bad_variant"),
    "a bad date": (lambda d: d["tournament"].__setitem__("created_at", "yesterday"),
                   "document.tournament.created_at", "bad_type"),
    # found by fuzzing: the schema's shape, no more and no less
    "no such day": (lambda d: d["tournament"].__setitem__("created_at", "2026-02-30T10:00:00+00:00"),
                    "document.tournament.created_at", "bad_datetime"),
    "a date without its offset": (lambda d: d["tournament"].__setitem__("created_at", "2026-02-03T10:00:00"),
                                  "document.tournament.created_at", "bad_type"),
    "a chip value as an exponent": (lambda d: d["tournament"].__setitem__("chip_value", "1e3"),
                                    "document.tournament.chip_value", "bad_type"),
    "an unknown key": (lambda d: d["rounds"][0]["revisions"][0].__setitem__("signature", "x"),
                       "document.rounds[0].revisions[0].signature", "unknown_field"),
    "a missing key": (lambda d: d["tournament"].pop("public") and None,
                      "document.tournament.public", "required"),
    "a started tournament without its start": (lambda d: d["tournament"].__setitem__("started_at", None),
                                               "document.tournament.started_at", "needed_for_status"),
    "two players of one name": (lambda d: d["players"][1].__setitem__("name", d["players"][0]["name"]),
                                "document.players[1].name", "duplicate_name"),
    "an entry of nobody": (lambda d: d["entries"][2].__setitem__("player", 99), "document.entries[2].player",
                           "not_found"),
    "a table of three at Jie Long is fine, of one is not": (lambda d: d["tables"][1].__setitem__("seats", [1]),
                                                            "document.tables[1].seats", "wrong_player_count"),
    "a table in no session": (lambda d: d["tables"][0].__setitem__("session", 9), "document.tables[0].session",
                              "not_found"),
    "a player twice at one session": (lambda d: d["tables"][0]["seats"].__setitem__(1, 1),
                                      "document.tables[0].seats[1]", "already_seated"),
    "a deal at no table": (lambda d: d["rounds"][2].__setitem__("table", 7), "document.rounds[2].table",
                           "not_found"),
    "confirmed by who entered it": (lambda d: d["rounds"][1].__setitem__("confirmed_by", 1),
                                    "document.rounds[1].confirmed_by", "same_seat"),
    "confirmed at no time": (lambda d: d["rounds"][0].__setitem__("confirmed_at", None),
                             "document.rounds[0].confirmed_at", "needed_for_status"),
    "text a database cannot store": (lambda d: d["players"][0].__setitem__("name", "An\x00na"),
                                     "document.players[0].name", "bad_text"),
    "deals in a draft": (lambda d: d["tournament"].__setitem__("status", "draft"), "document.tournament.status",
                         "draft_with_deals"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_document_is_refused_at_its_path(played, director_client, club, case):
    change, path, code = BAD[case]
    doc = copy.deepcopy(played)
    doc = change(doc) or doc
    response = import_(director_client, club, doc)
    if response.status_code == 400:   # what no upload can even keep is refused at once (unstorable text)
        assert [(e["path"], e["code"]) for e in response.json()["errors"]] == [(path, code)]
    else:
        job = followed(director_client, response)
        assert job["status"] == "failed" and [(job["error"]["path"], job["error"]["code"])] == [(path, code)]
    assert Tournament.objects.count() == 1


def test_a_failure_late_in_the_import_leaves_nothing(played, director_actor, other_director, monkeypatch):
    from scoring.services import exports

    def boom(**kw):
        raise ValidationFailed("boom")

    monkeypatch.setattr(exports, "standings_recompute", boom)
    club = other_director.clubs.get()
    with pytest.raises(ValidationFailed):
        tournament_import(actor=Actor(user=other_director), club=club, document=played)
    assert Tournament.objects.count() == 1 and not Player.objects.filter(club=club).exists()


# --- who may ------------------------------------------------------------------------------------

def test_only_the_clubs_directors(make_setup, director_client, anon_client, other_director, scorer_client_for,
                                  club):
    from rest_framework.test import APIClient

    s = make_setup("ding_niu")
    url = f"/api/v1/tournaments/{s.tournament.pk}/export/"
    stranger = APIClient()
    stranger.force_authenticate(other_director)
    assert anon_client.get(url).status_code == 401
    assert stranger.get(url).status_code == 404                       # like an unknown id
    assert scorer_client_for(s.token).get(url).status_code == 404
    assert director_client.get("/api/v1/tournaments/999999/export/").status_code == 404
    doc = export(director_client, s.tournament)
    assert import_(stranger, club, doc).status_code == 404            # not their club
    assert import_(scorer_client_for(s.token), club, doc).status_code == 404
    assert Tournament.objects.count() == 1


def test_a_stored_history_that_does_not_verify_is_not_exported(make_setup, director_client):
    s = make_setup("jie_long")
    play(s)
    rnd = Round.objects.filter(table=s.table).order_by("number").first()
    first = RoundRevision.objects.get(round=rnd, number=1)
    Round.objects.filter(pk=rnd.pk).update(current_revision=first)   # as if someone rewound the deal
    response = director_client.get(f"/api/v1/tournaments/{s.tournament.pk}/export/")
    found = problems("get", response.wsgi_request.path, response)
    assert not found, "\n".join(found)
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "chain_broken"


@pytest.mark.parametrize("extra, path, code", [
    ({"club": "1"}, "club", "invalid"),            # an id is a JSON number, as the schema says
    ({"signed": True}, "signed", "unknown_field"),
])
def test_the_import_body_is_what_the_schema_says(played, director_client, club, extra, path, code):
    # Found by fuzzing: the club's id as text and unknown fields were taken.
    body = {"club": club.pk, "document": played, **extra}
    response = director_client.post("/api/v1/tournaments/import/", body, format="json")
    assert response.status_code == 400
    assert [(e["path"], e["code"]) for e in response.json()["errors"]] == [(path, code)]
    assert Tournament.objects.count() == 1


def test_an_export_matches_the_import_schema(played, director_client):
    # What the export writes is what the import's schema allows (the schema is scoring.domain.documents').
    from jsonschema import Draft4Validator  # schemathesis's own dependency

    from scoring.api.exports import DOCUMENT_SCHEMA

    def draft4(schema):   # OpenAPI 3.0's "nullable" in plain JSON Schema
        if isinstance(schema, dict):
            out = {k: draft4(v) for k, v in schema.items() if k != "nullable"}
            if schema.get("nullable"):
                out = {"anyOf": [out, {"type": "null"}]}
            return out
        return [draft4(x) for x in schema] if isinstance(schema, list) else schema

    assert list(Draft4Validator(draft4(DOCUMENT_SCHEMA)).iter_errors(played)) == []


def test_the_import_takes_a_body_up_to_its_own_limit_not_djangos(played, director_client, club, settings):
    """docs/features/export-import.md, "Size": the import's body may be up to IMPORT_MAX_MB (16 MB),
    where every other request keeps Django's 2.5 MB; larger answers 413 in the API's shape, naming
    the import's limit."""
    body = json.dumps({"club": club.pk, "document": played}).encode()
    assert settings.IMPORT_MAX_BYTES == 16_000_000 and settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 2_621_440
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(body) // 2
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = director_client.post("/api/v1/tournaments/import/", body, content_type="application/json")
    assert followed(director_client, response)["status"] == "done"
    settings.IMPORT_MAX_BYTES = len(body) - 1
    response = director_client.post("/api/v1/tournaments/import/", body, content_type="application/json")
    assert response.status_code == 413 and response.json()["errors"] == [
        {"path": "", "code": "too_large", "message": f"The body is too large: at most {len(body) - 1} bytes."}]
    assert Tournament.objects.count() == 2
    # Every other route keeps Django's limit.
    response = director_client.post("/api/v1/evaluate/", body, content_type="application/json")
    assert response.status_code == 413


def test_the_import_answers_at_once_and_is_followed_at_its_url(played, director_client, club, other_director):
    with TestCase.captureOnCommitCallbacks(execute=False):   # no worker yet: the import is queued
        response = director_client.post("/api/v1/tournaments/import/", {"club": club.pk, "document": played},
                                         format="json")
    assert response.status_code == 202 and response.json()["status"] == "queued"
    job = director_client.get(response.json()["url"]).json()
    assert (job["status"], job["checked"], job["total"], job["tournament"], job["error"]) == (
        "queued", 0, sum(len(r["revisions"]) for r in played["rounds"]), None, None)
    stranger = APIClient()
    stranger.force_authenticate(other_director)
    assert stranger.get(response.json()["url"]).status_code == 404   # another club's import
    assert director_client.get("/api/v1/imports/99999/").status_code == 404
