"""A document's shape (``domain.document_shape.check_shape``): each value on its own, exactly as the
documented schema (``scoring.api.exports.DOCUMENT_SCHEMA``) says it — the same refusals as the
schema, each at its path, plus what a schema cannot say of one value (text that cannot be stored,
a day no calendar has, a moment outside years 1–9999, free JSON too deep or long) — and nothing
that needs another value (ids, the game's rules, hashes, the engine), which the worker checks."""

from __future__ import annotations

import copy

import pytest
from jsonschema import Draft4Validator  # schemathesis's own dependency

from scoring.api.exports import DOCUMENT_SCHEMA
from scoring.domain.document_reader import read_document
from scoring.domain.document_shape import check_shape
from scoring.domain.document_values import free_json
from scoring.domain.documents import FORMAT, MAX_JSON_DEPTH, MAX_JSON_ITEMS, MAX_JSON_TEXT, VERSION
from scoring.domain.errors import ValidationFailed

AT = "2026-11-01T18:00:00+00:00"
REVISION = {"number": 1, "body": {"points": [1, 2]}, "record": {}, "result": {"ok": True},
            "engine_version": "1.0.0", "actor": "director alice", "reason": "", "created_at": AT,
            "prev_hash": "", "hash": "a" * 64}
#: Of the right shape, and of no meaning: the ids point nowhere, the hashes are made up.
DOC = {
    "format": FORMAT, "version": VERSION, "exported_at": AT,
    "tournament": {"name": "Open", "game": "jie_long", "variant": {}, "status": "running", "public": False,
                   "require_confirmation": True, "require_proof": True, "rated": False,
                   "tie_breaks": ["net", "wins"], "chip_value": "0.50", "currency": "EUR", "created_at": AT,
                   "started_at": AT, "finished_at": None},
    "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bo"}],
    "entries": [{"id": 1, "player": 1, "withdrawn_at": None}, {"id": 2, "player": 9, "withdrawn_at": AT}],
    "sessions": [{"number": 1, "status": "closed", "closed_at": AT, "clock_started_at": None,
                  "clock_ends_at": None}],
    "tables": [{"id": 1, "session": 4, "name": "Table 1", "seats": [1, 2, 3, 4]}],
    "rounds": [{"id": 1, "table": 8, "number": 1, "status": "confirmed", "confirmed_by": 5,
                "confirmed_by_director": None, "confirmed_at": None, "void_reason": "", "disputed": False,
                "dispute_message": "", "disputed_at": None, "late": True, "after_time": False, "created_at": AT,
                "revisions": [REVISION, {**REVISION, "number": 7, "prev_hash": "b" * 64}]}],
    # Adjustments and substitutions, of the right shape (what they refer to is the reader's to check).
    "adjustments": [{"player": 1, "amount": -20, "reason": "late arrival", "created_at": AT, "by": "director alice"}],
    "substitutions": [{"table": 1, "seat": 3, "player": 2, "from_deal": 5}],
}


def _draft4(schema):
    """OpenAPI 3.0's ``nullable`` in plain JSON Schema (draft 4, as the fuzz test reads it)."""
    if isinstance(schema, dict):
        out = {k: _draft4(v) for k, v in schema.items() if k != "nullable"}
        return {"anyOf": [out, {"type": "null"}]} if schema.get("nullable") else out
    return [_draft4(x) for x in schema] if isinstance(schema, list) else schema


SCHEMA = Draft4Validator(_draft4(DOCUMENT_SCHEMA))


def refusal(doc) -> tuple[str, str] | None:
    try:
        check_shape(doc)
    except ValidationFailed as e:
        return e.errors[0]["path"], e.errors[0]["code"]
    return None


def test_a_document_of_the_right_shape_passes_whatever_it_means():
    assert SCHEMA.is_valid(DOC) and check_shape(DOC) is DOC
    with pytest.raises(ValidationFailed) as e:   # the worker's read goes on to what it means
        read_document(copy.deepcopy(DOC))
    assert [(x["path"], x["code"]) for x in e.value.errors] == [("document.entries[1].player", "not_found")]


@pytest.mark.parametrize("change, path, code", [
    (lambda d: d.pop("rounds"), "document.rounds", "required"),
    (lambda d: d["entries"][0].update(extra=1), "document.entries[0].extra", "unknown_field"),
    (lambda d: d.update(sessions=["x"]), "document.sessions[0]", "bad_type"),
    (lambda d: d.update(format="csv", extra=1), "document.format", "bad_format"),   # before its keys
    (lambda d: d.update(version=1.0), "document.version", "bad_version"),
    (lambda d: d["tournament"].update(status="Running"), "document.tournament.status", "invalid_choice"),
    (lambda d: d["tournament"].update(chip_value="0.505"), "document.tournament.chip_value", "bad_type"),
    (lambda d: d["tables"][0].update(seats=[1, 2, 1]), "document.tables[0].seats[2]", "already_seated"),
    (lambda d: d["rounds"][0].update(confirmed_by=-1), "document.rounds[0].confirmed_by", "bad_seat"),
    (lambda d: d["rounds"][0].update(disputed_at="2026-11-01"), "document.rounds[0].disputed_at", "bad_type"),
    (lambda d: d["rounds"][0]["revisions"][1].update(hash="a" * 63), "document.rounds[0].revisions[1].hash",
     "bad_type"),
    (lambda d: d["rounds"][0]["revisions"][1].update(prev_hash=None), "document.rounds[0].revisions[1].prev_hash",
     "bad_type"),
])
def test_a_shape_the_schema_refuses_is_refused_at_its_path(change, path, code):
    doc = copy.deepcopy(DOC)
    change(doc)
    assert not SCHEMA.is_valid(doc)
    assert refusal(doc) == (path, code)


@pytest.mark.parametrize("change, path, code", [
    (lambda d: d["players"][0].update(name="An\x00n"), "document.players[0].name", "bad_text"),
    (lambda d: d["tournament"].update(currency="\x00"), "document.tournament.currency", "bad_text"),
    (lambda d: d["tournament"].update(created_at="2026-02-30T10:00:00+00:00"), "document.tournament.created_at",
     "bad_datetime"),
    (lambda d: d.update(exported_at="0001-01-01T00:30:00+01:00"), "document.exported_at", "date_out_of_range"),
    (lambda d: d["rounds"][0]["revisions"][0]["record"].update(log="x" * 2001),
     "document.rounds[0].revisions[0].record.log", "too_long"),
])
def test_what_no_schema_says_of_one_value_is_refused_too(change, path, code):
    doc = copy.deepcopy(DOC)
    change(doc)
    assert refusal(doc) == (path, code)


def test_free_json_too_deep_is_refused_at_its_depth():
    doc = copy.deepcopy(DOC)
    deep: list = []
    for _ in range(MAX_JSON_DEPTH):
        deep = [deep]
    doc["tournament"]["variant"] = {"x": deep}
    assert refusal(doc) == ("document.tournament.variant.x" + "[0]" * (MAX_JSON_DEPTH - 1), "too_deep")


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize("fine, too_much, path, code", [
    ({"x": _nested(MAX_JSON_DEPTH - 1)}, {"x": _nested(MAX_JSON_DEPTH)}, "v.x" + "[0]" * (MAX_JSON_DEPTH - 1),
     "too_deep"),
    ({"x": [0] * MAX_JSON_ITEMS}, {"x": [0] * (MAX_JSON_ITEMS + 1)}, "v.x", "too_long"),
    ({"x": [{"t": "x" * MAX_JSON_TEXT}]}, {"x": [{"t": "x" * (MAX_JSON_TEXT + 1)}]}, "v.x[0].t", "too_long"),
    ({"x": {"k" * MAX_JSON_TEXT: 1}}, {"x": {"k" * (MAX_JSON_TEXT + 1): 1}}, "v.x", "too_long"),
    ("x" * MAX_JSON_TEXT, "x" * (MAX_JSON_TEXT + 1), "v", "too_long"),
])
def test_free_json_up_to_each_bound_and_one_past_it(fine, too_much, path, code):
    """Its quick walk (without paths) and the one that names the place agree at every bound."""
    assert free_json(fine, "v") is fine
    with pytest.raises(ValidationFailed) as e:
        free_json(too_much, "v")
    assert [(x["path"], x["code"]) for x in e.value.errors] == [(path, code)]


# --- the shape is the schema: one value changed anywhere ----------------------------------------

#: What a schema cannot say of one value (OpenAPI 3.0): the codes a schema-valid document may still
#: be refused with by the shape (the fuzz test's DOCUMENTED_REFUSALS name them too).
BEYOND_THE_SCHEMA = {"bad_text", "bad_datetime", "date_out_of_range", "too_deep", "too_long"}
VALUES = [None, True, False, 0, 1, 4, 5, 6, -1, 2**31 - 1, 2**31, 1.0, 0.5, "", " ", "x", "Ann", "Ann ", "x\x00",
          "d" * 151, AT, "2026-02-30T10:00:00+00:00", "0001-01-01T00:30:00+01:00", "2026-11-01T18:00:00",
          "0.50", "1e3", "a" * 64, "A" * 64, "draft", "voided", "jie_long", "gupai-club.tournament", [], [1], [1, 2],
          [1, 2, 3, 4, 5, 6, 7], [1, 1], ["x"], {}, {"number": 1}, {"id": 1, "player": 1}]


def _places(value, path=()):
    """Every place in a document: the path to each value, the document's own keys first."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, item in items:
        yield (*path, key)
        yield from _places(item, (*path, key))


PLACES = list(_places(DOC))


def _changed(place: tuple, how: str, value=None) -> dict:
    doc = copy.deepcopy(DOC)
    *where, key = place
    target = doc
    for part in where:
        target = target[part]
    if how == "set":
        target[key] = value
    elif how == "drop":
        target.pop(key)
    elif isinstance(target, dict):   # "add": a key of its own
        target["zz"] = value
    else:                            # ... or an item before this one
        target.insert(key, value)
    return doc


def _path(place: tuple) -> str:
    return "document" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in place)


def test_the_shape_refuses_what_the_schema_refuses_and_no_more():
    """Every place of the document, each value of ``VALUES`` put there (and the place dropped, a
    key or an item added beside it): refused by the shape exactly when the schema refuses it (but
    for ``BEYOND_THE_SCHEMA``), and at that place."""
    changes = [(place, "set", value) for place in PLACES for value in VALUES]
    changes += [(place, how, "x") for place in PLACES for how in ("drop", "add")]
    wrong = []
    for place, how, value in changes:
        if place == ("version",) and value == 1:
            continue   # a version 1 document without the keys added since: test_a_version_1_document_...
        doc = _changed(place, how, value)
        found = refusal(doc)
        at = _path(place[:-1] + ("zz",) if how == "add" and isinstance(place[-1], str) else place)
        if found and found[1] == "already_seated":   # a seat twice: named at its second place
            at = _path(place[:-1])
        if SCHEMA.is_valid(doc):
            ok = found is None or (found[1] in BEYOND_THE_SCHEMA and found[0].startswith(at))
        else:
            ok = found is not None and found[0].startswith(at)
        if not ok:
            wrong.append((place, how, value, found))
    assert not wrong, wrong[:5]


def test_a_version_1_document_is_checked_as_the_version_2_it_means():
    """Format 1 documents still import: the keys added since read as version 1 meant them
    (``document_schema.FORMAT_1_MEANT``); a key of a later version in one is unknown there."""
    from scoring.domain.document_schema import KEYS_1

    v1 = copy.deepcopy(DOC)
    v1["version"] = 1
    for key in ("adjustments", "substitutions"):
        v1.pop(key)
    for kind, obj in (("tournament", v1["tournament"]), *(("entry", e) for e in v1["entries"]),
                      *(("session", x) for x in v1["sessions"]), *(("round", r) for r in v1["rounds"])):
        for key in list(obj):
            if key not in KEYS_1[kind]:
                obj.pop(key)
    shaped = check_shape(v1)
    assert shaped is not v1 and v1["version"] == 1   # read as a copy
    assert shaped["version"] == VERSION and SCHEMA.is_valid(shaped)
    assert shaped["tournament"]["require_proof"] is True   # as confirmation was (tournament_create's default)
    assert shaped["tournament"]["tie_breaks"] == ["net", "wins", "average_place"]
    assert [e["withdrawn_at"] for e in shaped["entries"]] == [None, None]
    assert shaped["sessions"] == [{"number": 1, "status": "open", "closed_at": None, "clock_started_at": None,
                                   "clock_ends_at": None}]
    assert (shaped["rounds"][0]["late"], shaped["rounds"][0]["after_time"]) == (False, False)
    assert (shaped["adjustments"], shaped["substitutions"]) == ([], [])
    v1["rounds"][0]["late"] = True
    assert refusal(v1) == ("document.rounds[0].late", "unknown_field")
    v1["rounds"][0].pop("late")
    v1["sessions"][0]["extra"] = 1
    assert refusal(v1) == ("document.sessions[0].extra", "unknown_field")
