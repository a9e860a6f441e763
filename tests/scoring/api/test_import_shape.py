"""``POST /api/v1/tournaments/import/`` refuses a document whose shape breaks the documented schema
(``DOCUMENT_SCHEMA``: keys, types, ranges, lengths, patterns, choices) at once: a 400 with the
first break at its path, as the worker's reader would name it, and nothing queued or stored. Found
by the schemathesis fuzz test (ST201, "Schema-violating request accepted"): such a document was
answered 202 and only failed in the worker. A document of the right shape is still queued (202),
whatever the worker then finds in it."""

from __future__ import annotations

import copy

import pytest
from jsonschema import Draft4Validator  # schemathesis's own dependency

from scoring.api.exports import DOCUMENT_SCHEMA
from scoring.models import ActionLog, Tournament, TournamentImport

from ..services.test_exports import export, followed, import_, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_setup, director_client):
    """The document of a running Jie Long tournament with deals of every kind (two sessions)."""
    s = make_setup("jie_long")
    play(s)
    return export(director_client, s.tournament)


def _draft4(schema):
    """OpenAPI 3.0's ``nullable`` in plain JSON Schema (draft 4, as the fuzz test reads it)."""
    if isinstance(schema, dict):
        out = {k: _draft4(v) for k, v in schema.items() if k != "nullable"}
        return {"anyOf": [out, {"type": "null"}]} if schema.get("nullable") else out
    return [_draft4(x) for x in schema] if isinstance(schema, list) else schema


SCHEMA = Draft4Validator(_draft4(DOCUMENT_SCHEMA))


def _set(where: str, key, value):
    """A change: ``doc[where…][key] = value`` (``where``: keys and indexes split by dots)."""
    def change(doc):
        target = doc
        for part in where.split(".") if where else ():
            target = target[int(part)] if part.isdigit() else target[part]
        target[key] = value
    return change


def _drop(where: str, key):
    def change(doc):
        target = doc
        for part in where.split(".") if where else ():
            target = target[int(part)] if part.isdigit() else target[part]
        del target[key]
    return change


#: name -> (change, path, code): one break of the schema each, in every part of the document.
BREAKS = {
    # the document
    "an unknown key": (_set("", "signature", "x"), "document.signature", "unknown_field"),
    "no sessions": (_drop("", "sessions"), "document.sessions", "required"),
    "version true": (_set("", "version", True), "document.version", "bad_version"),
    "exported at no time": (_set("", "exported_at", None), "document.exported_at", "bad_type"),
    "players not a list": (_set("", "players", {}), "document.players", "bad_type"),
    # the tournament
    "a tournament's unknown key": (_set("tournament", "owner", "x"), "document.tournament.owner", "unknown_field"),
    "a tournament without its game": (_drop("tournament", "game"), "document.tournament.game", "required"),
    "a name too long": (_set("tournament", "name", "N" * 121), "document.tournament.name", "too_long"),
    "a name with a trailing space": (_set("tournament", "name", "Open "), "document.tournament.name", "bad_text"),
    "a status of no kind": (_set("tournament", "status", "paused"), "document.tournament.status",
                            "invalid_choice"),
    "a game of no kind": (_set("tournament", "game", "chess"), "document.tournament.game", "unknown_game"),
    "public as text": (_set("tournament", "public", "yes"), "document.tournament.public", "bad_type"),
    "a chip value as a number": (_set("tournament", "chip_value", 0.5), "document.tournament.chip_value",
                                 "bad_type"),
    "a currency too long": (_set("tournament", "currency", "EURO"), "document.tournament.currency", "too_long"),
    "a variant as a list": (_set("tournament", "variant", []), "document.tournament.variant", "bad_type"),
    "a start without its offset": (_set("tournament", "started_at", "2026-02-03T10:00:00"),
                                   "document.tournament.started_at", "bad_type"),
    # players, entries, sessions
    "a player's unknown key": (_set("players.0", "email", "a@b.c"), "document.players[0].email", "unknown_field"),
    "a player's id 0": (_set("players.1", "id", 0), "document.players[1].id", "bad_type"),
    "a blank player name": (_set("players.2", "name", "  "), "document.players[2].name", "required"),
    "an entry's extra key": (_set("entries.0", "extra", 1), "document.entries[0].extra", "unknown_field"),
    "an entry without its player": (_drop("entries.1", "player"), "document.entries[1].player", "required"),
    "an entry's player as text": (_set("entries.2", "player", "1"), "document.entries[2].player", "bad_type"),
    "a session as text": (_set("", "sessions", ["x"]), "document.sessions[0]", "bad_type"),
    "a session number too large": (_set("sessions.0", "number", 2**31), "document.sessions[0].number", "bad_type"),
    "a session's extra key": (_set("sessions.1", "date", "today"), "document.sessions[1].date", "unknown_field"),
    # tables
    "a table without seats": (_drop("tables.0", "seats"), "document.tables[0].seats", "required"),
    "a table of one seat": (_set("tables.0", "seats", [1]), "document.tables[0].seats", "wrong_player_count"),
    "a table of seven seats": (_set("tables.0", "seats", [1, 2, 3, 4, 5, 6, 7]), "document.tables[0].seats",
                               "wrong_player_count"),
    "an entry twice at one table": (_set("tables.0", "seats", [1, 2, 2]), "document.tables[0].seats[2]",
                                    "already_seated"),
    "a seat as text": (_set("tables.1", "seats", [1, "2", 3]), "document.tables[1].seats[1]", "bad_type"),
    "a table name too long": (_set("tables.1", "name", "T" * 61), "document.tables[1].name", "too_long"),
    # deals
    "a deal's unknown key": (_set("rounds.0", "winner", 2), "document.rounds[0].winner", "unknown_field"),
    "a deal of no status": (_set("rounds.0", "status", "lost"), "document.rounds[0].status", "invalid_choice"),
    "confirmed by seat 6": (_set("rounds.1", "confirmed_by", 6), "document.rounds[1].confirmed_by", "bad_seat"),
    "confirmed by a name too long": (_set("rounds.1", "confirmed_by_director", "d" * 151),
                                     "document.rounds[1].confirmed_by_director", "too_long"),
    "a void reason too long": (_set("rounds.2", "void_reason", "v" * 2001), "document.rounds[2].void_reason",
                               "too_long"),
    "disputed as text": (_set("rounds.3", "disputed", "no"), "document.rounds[3].disputed", "bad_type"),
    "a deal without revisions": (_set("rounds.3", "revisions", []), "document.rounds[3].revisions", "required"),
    # revisions
    "a revision's unknown key": (_set("rounds.0.revisions.0", "signature", "x"),
                                 "document.rounds[0].revisions[0].signature", "unknown_field"),
    "a revision without its reason": (_drop("rounds.0.revisions.1", "reason"),
                                      "document.rounds[0].revisions[1].reason", "required"),
    "a body as a list": (_set("rounds.1.revisions.0", "body", []), "document.rounds[1].revisions[0].body",
                         "bad_type"),
    "a revision number as text": (_set("rounds.1.revisions.0", "number", "1"),
                                  "document.rounds[1].revisions[0].number", "bad_type"),
    "an engine version too long": (_set("rounds.1.revisions.0", "engine_version", "1" * 41),
                                   "document.rounds[1].revisions[0].engine_version", "too_long"),
    "a hash in capitals": (_set("rounds.2.revisions.0", "hash", "A" * 64), "document.rounds[2].revisions[0].hash",
                           "bad_type"),
    "a previous hash cut short": (_set("rounds.0.revisions.1", "prev_hash", "ab"),
                                  "document.rounds[0].revisions[1].prev_hash", "bad_type"),
}


@pytest.mark.parametrize("case", sorted(BREAKS))
def test_a_shape_the_schema_refuses_is_refused_at_once_at_its_path(played, director_client, club, case):
    change, path, code = BREAKS[case]
    doc = copy.deepcopy(played)
    change(doc)
    assert not SCHEMA.is_valid(doc)   # a real break of the documented schema
    tournaments = Tournament.objects.count()
    response = import_(director_client, club, doc)   # its answer checked against the OpenAPI schema
    assert response.status_code == 400, response.content
    assert [(e["path"], e["code"]) for e in response.json()["errors"]] == [(path, code)]
    assert not TournamentImport.objects.exists()
    assert not ActionLog.objects.filter(action=ActionLog.Action.TOURNAMENT_IMPORT_QUEUE).exists()
    assert Tournament.objects.count() == tournaments


def test_the_fuzzers_case_sessions_as_text_and_entries_with_extra_keys(played, director_client, club):
    """ST201 as it was found: a valid club, entries with keys of their own, sessions as text."""
    doc = copy.deepcopy(played)
    doc["entries"] = [{**e, "seat": 0} for e in doc["entries"]]
    doc["sessions"] = ["x"]
    response = import_(director_client, club, doc)
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": "document.entries[0].seat", "code": "unknown_field",
                                          "message": "seat is not a field of this document."}]
    assert not TournamentImport.objects.exists()


def test_a_document_of_the_right_shape_is_still_queued(played, director_client, club):
    assert SCHEMA.is_valid(played)
    job = followed(director_client, import_(director_client, club, played))
    assert job["status"] == "done" and TournamentImport.objects.count() == 1


def test_what_only_the_worker_finds_is_still_queued_and_fails_there(played, director_client, club):
    """A reference that points nowhere is no shape break: 202, and the worker fails the import."""
    doc = copy.deepcopy(played)
    doc["entries"][0]["player"] = 999
    assert SCHEMA.is_valid(doc)
    job = followed(director_client, import_(director_client, club, doc))
    assert (job["status"], job["error"]["path"], job["error"]["code"]) == (
        "failed", "document.entries[0].player", "not_found")
    assert TournamentImport.objects.count() == 1
