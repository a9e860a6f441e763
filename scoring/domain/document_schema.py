"""The tournament document's schema, written once as data (pure): every object's keys, each
value's type, range, length, pattern and choices. Everything else reads it:

- ``KEYS`` (the keys of each kind of object, in the order an export writes them) is taken from
  it, and ``domain.document_shape`` checks a document key by key against those keys;
- the API shows it for the import's body and the export's answer (``scoring.api.exports``);
- ``json_schema()`` is the same schema in plain JSON Schema (draft 2020-12), served at
  ``/api/v1/schema/tournament-document.json`` and copied in docs/features/tournament-document.schema.json.

``DOCUMENT_SCHEMA`` is in OpenAPI 3.0's dialect (``"nullable": true``), as drf-spectacular
shows it; ``json_schema()`` turns each ``nullable`` into a ``"null"`` type.

**Version 1** documents (before the whole state was kept) still import: ``FORMAT_1_MEANT`` says
what each key added since means for them (sessions open, nobody withdrawn, no deal late ...),
and ``as_current`` gives a version 1 document those values before its shape is checked.
"""

from __future__ import annotations

import copy
from typing import Any

import games
from scoring.domain.documents import (
    FORMAT,
    ROUND_STATUSES,
    SESSION_STATUSES,
    TOURNAMENT_STATUSES,
    VERSION,
)
from scoring.domain.inputs import (
    DATETIME,
    MAX_ACTOR_LABEL,
    MAX_CURRENCY,
    MAX_ENGINE_VERSION,
    MAX_INT32,
    MAX_NOTE,
    MAX_PLAYER_NAME,
    MAX_SEATS,
    MAX_TABLE_NAME,
    MAX_TOURNAMENT_NAME,
    MAX_USERNAME,
    MIN_SEATS,
    MONEY,
    NAME,
    ecma,
)
from scoring.domain.standings import DEFAULT_TIE_BREAKS, TIE_BREAKS

#: Where the JSON Schema is served (its ``$id``, relative to the site).
SCHEMA_PATH = "/api/v1/schema/tournament-document.json"


def _closed(properties: dict, description: str = "", optional: tuple[str, ...] = ()) -> dict:
    schema = {"type": "object", "properties": properties, "required": [k for k in properties if k not in optional],
              "additionalProperties": False}
    return {**schema, "description": description} if description else schema


def _text(max_length: int, **extra) -> dict:
    return {"type": "string", "maxLength": max_length, **extra}


NAME_PATTERN = ecma(NAME)
ID = {"type": "integer", "minimum": 1, "maximum": MAX_INT32}
SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1}
WHEN = {"type": "string", "pattern": ecma(DATETIME), "description": "ISO 8601 with seconds and the UTC offset."}
WHEN_OR_NULL = {**WHEN, "nullable": True}
FREE = {"type": "object", "additionalProperties": True}
HASH = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
FLAG = {"type": "boolean"}


def _list(item: dict, description: str = "", **extra) -> dict:
    schema = {"type": "array", "items": item, **extra}
    return {**schema, "description": description} if description else schema


DOCUMENT_SCHEMA = _closed({
    "format": {"type": "string", "enum": [FORMAT]},
    "version": {"type": "integer", "enum": [VERSION],
                "description": f"{VERSION}: what an export writes. Version 1 documents (without the keys added "
                               "since) still import: see docs/features/export-import.md."},
    "exported_at": WHEN,
    "tournament": _closed({
        "name": _text(MAX_TOURNAMENT_NAME, pattern=NAME_PATTERN),
        "game": {"type": "string", "enum": list(games.CATALOG)},
        "variant": {**FREE, "description": "The game's rule options (ROUND_RECORD.md §6)."},
        "status": {"type": "string", "enum": list(TOURNAMENT_STATUSES)},
        "public": {**FLAG, "description": "As it was; an import is private whatever this says."},
        "require_confirmation": {**FLAG, "description": "Only confirmed deals count."},
        "require_proof": {**FLAG, "description": "Players prove who they are with their codes to record and "
                                                 "confirm deals."},
        "rated": {**FLAG, "description": "As it was; an import is rated only when its director asks for it."},
        "tie_breaks": _list({"type": "string", "enum": list(TIE_BREAKS)}, "The standings' order, most important "
                            "first.", minItems=1, maxItems=len(TIE_BREAKS), uniqueItems=True),
        "chip_value": {"type": "string", "pattern": ecma(MONEY), "description": 'A decimal as text, like "0.50".'},
        "currency": _text(MAX_CURRENCY),
        "created_at": WHEN,
        "started_at": {**WHEN_OR_NULL, "description": "Null only in draft."},
        "finished_at": {**WHEN_OR_NULL, "description": "Null unless finished."},
    }),
    "players": _list(_closed({
        "id": ID,
        "name": {**_text(MAX_PLAYER_NAME, pattern=NAME_PATTERN), "description": "Matched by name in the club."}})),
    "entries": _list(_closed({
        "id": ID, "player": {**ID, "description": "A player id of this document."},
        "withdrawn": {**FLAG, "description": "Whether the player withdrew (true exactly when withdrawn_at is "
                                             "set). May be left out: withdrawn_at says it."},
        "withdrawn_at": {**WHEN_OR_NULL, "description": "When the player withdrew; null: playing (seated by the "
                                                        "next seating)."}}, optional=("withdrawn",))),
    "sessions": _list(_closed({
        "number": ID,
        "status": {"type": "string", "enum": list(SESSION_STATUSES),
                   "description": "closed: its scorer links record nothing more."},
        "closed_at": {**WHEN_OR_NULL, "description": "Not null when closed."},
        "clock_started_at": {**WHEN_OR_NULL, "description": "The session's clock: both times, or neither."},
        "clock_ends_at": {**WHEN_OR_NULL, "description": "After clock_started_at."}})),
    "tables": _list(_closed({
        "id": ID, "session": {**ID, "description": "A session number of this document."},
        "name": _text(MAX_TABLE_NAME, pattern=NAME_PATTERN),
        "seats": _list(ID, "Entry ids by seat position, as the table was made (before any substitution), as "
                           "many as the game has players.", minItems=MIN_SEATS,
                       maxItems=MAX_SEATS, uniqueItems=True)})),
    "rounds": _list(_closed({
        "id": ID, "table": {**ID, "description": "A table id of this document."}, "number": ID,
        "status": {"type": "string", "enum": list(ROUND_STATUSES)},
        "confirmed_by": {**SEAT, "nullable": True,
                         "description": "The confirming seat (not the one that entered the deal), or null."},
        "confirmed_by_director": {**_text(MAX_USERNAME), "nullable": True},
        "confirmed_at": {**WHEN_OR_NULL, "description": "Not null when confirmed."},
        "void_reason": _text(MAX_NOTE),
        "disputed": FLAG,
        "dispute_message": _text(MAX_NOTE),
        "disputed_at": WHEN_OR_NULL,
        "late": {**FLAG, "description": "Recorded by a director after its session was closed."},
        "after_time": {**FLAG, "description": "Recorded once the session's clock had run out."},
        "created_at": WHEN,
        "revisions": _list(_closed({
            "number": {**ID, "description": "1, 2, ... in order."},
            "body": FREE, "record": FREE, "result": FREE,
            "engine_version": _text(MAX_ENGINE_VERSION), "actor": _text(MAX_ACTOR_LABEL), "reason": _text(MAX_NOTE),
            "created_at": WHEN,
            "prev_hash": {"type": "string", "pattern": "^(?:[0-9a-f]{64})?$",
                          "description": "The previous revision's hash; empty for the first."},
            "hash": {**HASH, "description": "sha256 of the revision over the document's round id."}}),
            minItems=1)})),
    "adjustments": _list(_closed({
        "player": {**ID, "description": "A player id of this document."},
        "amount": {"type": "integer", "minimum": -MAX_INT32, "maximum": MAX_INT32,
                   "description": "Chips added to (or, negative, taken from) the player's total, outside any deal."},
        "reason": _text(MAX_NOTE),
        "created_at": WHEN,
        "by": {**_text(MAX_ACTOR_LABEL), "description": "Who made it, as text (an import marks it `imported: `)."}},
    ), "The adjustments in force (fines and bonuses outside the deals; a deleted one is left out), in the "
       "order made: each adds its amount to the player's net."),
    "substitutions": _list(_closed({
        "table": {**ID, "description": "A table id of this document."},
        "seat": {**SEAT, "description": "The seat position taken over."},
        "player": {**ID, "description": "A player id of this document: who plays the seat from then on."},
        "from_deal": {**ID, "description": "The first deal number at that table the substitute plays."}},
    ), "Players replaced at a seat part-way through a session, in the order made: from from_deal on the seat is "
       "the player's, the deals before keep whoever held it (the table's seats, then the earlier substitutions)."),
}, "A whole tournament, as the export writes it (scoring/domain/documents.py).")


def _kinds(schema: dict) -> dict[str, dict]:
    props = schema["properties"]
    rounds = props["rounds"]["items"]
    return {"document": schema, "tournament": props["tournament"], "player": props["players"]["items"],
            "entry": props["entries"]["items"], "session": props["sessions"]["items"],
            "table": props["tables"]["items"], "round": rounds,
            "revision": rounds["properties"]["revisions"]["items"],
            "adjustment": props["adjustments"]["items"], "substitution": props["substitutions"]["items"]}


#: The keys of each object of a document, from the schema: an export writes every one, in this
#: order, and an import wants every one and no other (a misspelt key would otherwise be dropped
#: unseen).
KEYS: dict[str, tuple[str, ...]] = {kind: tuple(s["properties"]) for kind, s in _kinds(DOCUMENT_SCHEMA).items()}

#: Keys a version 2 document may leave out, with what leaving one out means (from the object
#: itself): an export writes them all.
OPTIONAL: dict[str, dict[str, Any]] = {
    "entry": {"withdrawn": lambda e: e.get("withdrawn_at") is not None},
}

#: The keys added by version 2, with what a version 1 document meant by leaving them out (a
#: callable: from the object itself). ``require_proof`` was on exactly when confirmation was
#: (``tournament_create``'s default then); sessions were imported open.
FORMAT_1_MEANT: dict[str, dict[str, Any]] = {
    "document": {"adjustments": lambda d: [], "substitutions": lambda d: []},
    "tournament": {"require_proof": lambda t: t.get("require_confirmation", False), "rated": lambda t: True,
                   "tie_breaks": lambda t: list(DEFAULT_TIE_BREAKS)},
    "entry": {"withdrawn": lambda e: False, "withdrawn_at": lambda e: None},
    "session": {"status": lambda s: "open", "closed_at": lambda s: None, "clock_started_at": lambda s: None,
                "clock_ends_at": lambda s: None},
    "round": {"late": lambda r: False, "after_time": lambda r: False},
}
#: Version 1's keys: today's, less the ones added since.
KEYS_1 = {kind: tuple(k for k in keys if k not in FORMAT_1_MEANT.get(kind, {})) for kind, keys in KEYS.items()
          if kind not in ("adjustment", "substitution")}
#: Where each kind of object sits in a document (for ``as_current``).
_LISTS = {"entry": "entries", "session": "sessions", "round": "rounds"}


def as_current(doc: dict, path: str = "document") -> tuple[dict, list[dict]]:
    """A version 1 document as a current one: each key added since given what version 1 meant by
    its absence (``FORMAT_1_MEANT``), in the current order. Returns it, and the problems found:
    a key of a later version in it (``unknown_field``), at its path; the rest of its shape is
    ``check_shape``'s. The document itself is not changed (a copy is)."""
    problems: list[dict] = []

    def upgrade(obj: Any, kind: str, where: str) -> Any:
        if not isinstance(obj, dict):
            return obj
        for key in obj:
            if key in FORMAT_1_MEANT[kind]:
                problems.append({"path": f"{where}.{key}", "code": "unknown_field",
                                 "message": f"{key} is not a field of a version 1 document."})
        added = {k: make(obj) for k, make in FORMAT_1_MEANT[kind].items() if k not in obj}
        merged = {**obj, **added}
        return {**{k: merged[k] for k in KEYS[kind] if k in merged}, **{k: v for k, v in obj.items()
                                                                         if k not in KEYS[kind]}}

    out = upgrade(dict(doc), "document", path)
    out["version"] = VERSION
    out["tournament"] = upgrade(out.get("tournament"), "tournament", f"{path}.tournament")
    for kind, name in _LISTS.items():
        items = out.get(name)
        if isinstance(items, list):
            out[name] = [upgrade(item, kind, f"{path}.{name}[{i}]") for i, item in enumerate(items)]
    return out, problems


def json_schema() -> dict:
    """``DOCUMENT_SCHEMA`` in plain JSON Schema (draft 2020-12): what the site serves at
    ``SCHEMA_PATH``. OpenAPI's ``nullable`` becomes a ``"null"`` type."""

    def plain(schema: Any) -> Any:
        if isinstance(schema, list):
            return [plain(x) for x in schema]
        if not isinstance(schema, dict):
            return schema
        out = {k: plain(v) for k, v in schema.items() if k != "nullable"}
        if schema.get("nullable"):
            out["type"] = [schema["type"], "null"]
        return out

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_PATH,
            "title": "Gupai Club tournament document", **plain(copy.deepcopy(DOCUMENT_SCHEMA))}
