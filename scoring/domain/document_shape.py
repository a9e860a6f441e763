"""A tournament document's shape, checked before it is kept for import (pure): what stops it
being kept at all (``storable_problem``: nesting too deep, text no database stores), and its
shape (``check_shape``): each value on its own, as the documented schema
(``domain.document_schema.DOCUMENT_SCHEMA``: its keys are ``KEYS``) says it — every object with exactly its keys
(``unknown_field``, ``required``), every value of its type, range, length, pattern and choices
(``domain.document_values``: ``bad_type``, ``too_long``, ``invalid_choice``, ...), text that can
be stored, real dates in years 1 to 9999 in UTC, free JSON bounded. Quick (no engine, no
hashing): ``services.imports`` refuses a document that breaks it at once, before it is queued,
and the worker's read (``domain.document_reader``) starts with it. A version 1 document is
checked as the current version it means (``document_schema.as_current``).
"""

from __future__ import annotations

from typing import Any, Callable

import games
from scoring.domain.document_schema import KEYS, as_current
from scoring.domain.document_values import (
    a_list,
    an_object,
    fail,
    flag,
    free_json,
    matching,
    name,
    one_of,
    text,
    when,
    whole,
)
from scoring.domain.documents import FORMAT, ROUND_STATUSES, SESSION_STATUSES, TOURNAMENT_STATUSES, VERSIONS
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import (
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
    is_int,
    unstorable,
)
from scoring.domain.standings import TIE_BREAKS


def revision_count(document: Any) -> int:
    """How many revisions a document holds, as far as its shape can be read yet (the total that
    ``read_document`` reports its progress against; nothing is checked here)."""
    rounds = document.get("rounds") if isinstance(document, dict) else None
    if not isinstance(rounds, list):
        return 0
    return sum(len(r["revisions"]) for r in rounds if isinstance(r, dict) and isinstance(r.get("revisions"), list))


#: How deep a document may be nested to be kept until a worker reads it: a real one is some 25
#: levels deep (free JSON is bounded at ``MAX_JSON_DEPTH`` below ``document.rounds[i].revisions[j]``).
MAX_DOCUMENT_DEPTH = 40


def _deeper_than(document: Any, limit: int) -> bool:
    stack = [(document, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        if depth >= limit:
            return True
        stack.extend((v, depth + 1) for v in item if isinstance(v, (dict, list)))
    return False


def storable_problem(document: Any, path: str = "document") -> dict | None:
    """What stops a document from being kept as it is until it is read (``services.imports``):
    nesting deeper than ``MAX_DOCUMENT_DEPTH`` (``too_deep``), or text no database stores
    (``bad_text``); None when it can be kept. Nothing else is checked here. Paths are only
    spelled out for a document found too deep (a first walk counts levels alone)."""
    if not _deeper_than(document, MAX_DOCUMENT_DEPTH):
        return unstorable(document, path)
    stack = [(document, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, (dict, list)) and depth >= MAX_DOCUMENT_DEPTH:
            return {"path": where, "code": "too_deep", "message": f"At most {MAX_DOCUMENT_DEPTH} levels of lists "
                                                                   "and objects."}
        if isinstance(item, dict):
            stack.extend(reversed([(v, f"{where}.{k}", depth + 1) for k, v in item.items()]))
        elif isinstance(item, list):
            stack.extend(reversed([(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(item)]))
    return unstorable(document, path)


# --- the shape ------------------------------------------------------------------------------------
# One check per key of each kind of object (``KEYS``), each on the value alone, as the documented
# schema says it (scoring.domain.document_schema.DOCUMENT_SCHEMA, whence KEYS, with the same limits).

Check = Callable[[Any, str], Any]


def check_shape(document: Any, path: str = "document") -> dict:
    """The document, if its shape is the documented schema's (see the module); else
    ValidationFailed at the first value that breaks it. Nothing that needs another value is
    checked here (ids, the game's rules, the hash chain, the engine, dates a status needs).
    A version 1 document is returned as the current version it means (a copy)."""
    doc = an_object(document, path)
    # A document of another kind (or version) says so, rather than that its keys are wrong.
    _format(doc.get("format"), f"{path}.format")
    _version(doc.get("version"), f"{path}.version")
    if doc["version"] == 1:
        doc, problems = as_current(doc, path)
        if problems:
            raise ValidationFailed(errors=problems[:1])
    return _shaped(doc, path, "document")


def _shaped(value: Any, path: str, kind: str) -> dict:
    obj = an_object(value, path, kind)
    for key, check in _SHAPES[kind].items():
        if key in obj:   # an_object: only an OPTIONAL key may be missing
            check(obj[key], f"{path}.{key}")
    return obj


def _format(value: Any, path: str) -> None:
    if not isinstance(value, str) or value != FORMAT:
        fail(path, "bad_format", f'This is not a tournament document (format "{FORMAT}").')


def _version(value: Any, path: str) -> None:
    if not is_int(value) or value not in VERSIONS:   # is_int: true is no 1
        fail(path, "bad_version", f"Only version {' or '.join(map(str, VERSIONS))} documents can be imported.")


def _game(value: Any, path: str) -> None:
    if not isinstance(value, str) or value not in games.CATALOG:
        fail(path, "unknown_game", f"Unknown game; one of {', '.join(games.CATALOG)}.")


def _seats(value: Any, path: str) -> None:
    """Entry ids, none twice, as many as some game has players (the table's own game: ``_tables``)."""
    seats = a_list(value, path)
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        fail(path, "wrong_player_count", f"A table has {MIN_SEATS} to {MAX_SEATS} seats.")
    for j, eid in enumerate(seats):
        whole(eid, f"{path}[{j}]")
        if eid in seats[:j]:
            fail(f"{path}[{j}]", "already_seated", "This entry already sits at a table of this session.")


def _confirming_seat(value: Any, path: str) -> None:
    """A seat of some table, or null (of the deal's own table: ``_round``)."""
    if value is not None and not is_int(value, 0, MAX_SEATS - 1):
        fail(path, "bad_seat", f"confirmed_by is a seat position (0 to {MAX_SEATS - 1}) or null.")


def _objects(kind: str) -> Check:
    def check(value: Any, path: str) -> list:
        items = a_list(value, path)
        for i, item in enumerate(items):
            _shaped(item, f"{path}[{i}]", kind)
        return items
    return check


def _revisions(value: Any, path: str) -> None:
    if not _objects("revision")(value, path):
        fail(path, "required", "A deal has at least one revision.")


def _free(value: Any, path: str) -> None:
    free_json(an_object(value, path), path)


def _text(max_length: int, *, nullable: bool = False) -> Check:
    def check(value: Any, path: str) -> None:
        if value is not None or not nullable:
            text(value, path, max_length=max_length)
    return check


def _name(max_length: int) -> Check:
    return lambda value, path: name(value, path, max_length=max_length)


def _when(value: Any, path: str) -> None:
    when(value, path)


def _when_or_null(value: Any, path: str) -> None:
    when(value, path, nullable=True)


def _choice(choices: tuple[str, ...]) -> Check:
    return lambda value, path: one_of(value, path, choices)


def _tie_breaks(value: Any, path: str) -> None:
    """Keys of the standings' order, none twice (which may lead is the services' to say)."""
    keys = a_list(value, path)
    if not 1 <= len(keys) <= len(TIE_BREAKS):
        fail(path, "bad_type", f"From 1 to {len(TIE_BREAKS)} tie-breaks.")
    for j, key in enumerate(keys):
        one_of(key, f"{path}[{j}]", TIE_BREAKS)
        if key in keys[:j]:
            fail(f"{path}[{j}]", "duplicate", "This tie-break is listed twice.")


def _seat(value: Any, path: str) -> None:
    if not is_int(value, 0, MAX_SEATS - 1):
        fail(path, "bad_seat", f"A seat position (0 to {MAX_SEATS - 1}) is expected here.")


def _amount(value: Any, path: str) -> None:
    whole(value, path, low=-MAX_INT32)


def _money(value: Any, path: str) -> None:
    matching(value, path, MONEY, 'chip_value is a decimal number as text, like "0.50".')


def _hash(*, first: bool = False) -> Check:
    """A sha256 in lowercase hex (``first``: or empty, as the first revision's ``prev_hash``)."""
    pattern = r"\A(?:[0-9a-f]{64})?\Z" if first else r"\A[0-9a-f]{64}\Z"
    message = "A sha256 hash (64 lowercase hex digits) is expected here" + (", or nothing." if first else ".")
    return lambda value, path: matching(value, path, pattern, message)


_SHAPES: dict[str, dict[str, Check]] = {
    "document": {
        "format": _format, "version": _version, "exported_at": _when,
        "tournament": lambda value, path: _shaped(value, path, "tournament"),
        "players": _objects("player"), "entries": _objects("entry"), "sessions": _objects("session"),
        "tables": _objects("table"), "rounds": _objects("round"), "adjustments": _objects("adjustment"),
        "substitutions": _objects("substitution"),
    },
    "tournament": {
        "name": _name(MAX_TOURNAMENT_NAME), "game": _game, "variant": _free,
        "status": _choice(TOURNAMENT_STATUSES), "public": flag, "require_confirmation": flag, "require_proof": flag,
        "rated": flag, "tie_breaks": _tie_breaks, "chip_value": _money, "currency": _text(MAX_CURRENCY),
        "created_at": _when, "started_at": _when_or_null, "finished_at": _when_or_null,
    },
    "player": {"id": whole, "name": _name(MAX_PLAYER_NAME)},
    "entry": {"id": whole, "player": whole, "withdrawn": flag, "withdrawn_at": _when_or_null},
    "session": {"number": whole, "status": _choice(SESSION_STATUSES), "closed_at": _when_or_null,
                "clock_started_at": _when_or_null, "clock_ends_at": _when_or_null},
    "table": {"id": whole, "session": whole, "name": _name(MAX_TABLE_NAME), "seats": _seats},
    "round": {
        "id": whole, "table": whole, "number": whole, "status": _choice(ROUND_STATUSES),
        "confirmed_by": _confirming_seat, "confirmed_by_director": _text(MAX_USERNAME, nullable=True),
        "confirmed_at": _when_or_null, "void_reason": _text(MAX_NOTE), "disputed": flag,
        "dispute_message": _text(MAX_NOTE), "disputed_at": _when_or_null, "late": flag, "after_time": flag,
        "created_at": _when, "revisions": _revisions,
    },
    "revision": {
        "number": whole, "body": _free, "record": _free, "result": _free,
        "engine_version": _text(MAX_ENGINE_VERSION), "actor": _text(MAX_ACTOR_LABEL), "reason": _text(MAX_NOTE),
        "created_at": _when, "prev_hash": _hash(first=True), "hash": _hash(),
    },
    "adjustment": {"player": whole, "amount": _amount, "reason": _text(MAX_NOTE), "created_at": _when,
                   "by": _text(MAX_ACTOR_LABEL)},
    "substitution": {"table": whole, "seat": _seat, "player": whole, "from_deal": whole},
}
assert {kind: tuple(checks) for kind, checks in _SHAPES.items()} == KEYS   # a check for every key, in order
