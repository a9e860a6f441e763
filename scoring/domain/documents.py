"""The tournament document: a whole tournament as one JSON object (export and import). Pure: the
format, its hash chain and the checks of a document sent for import; no queries, no writes
(``selectors.exports`` writes documents, ``services.exports`` imports them).

The shape (version 1)::

    {"format": "gupai-club.tournament", "version": 1, "exported_at": "<ISO 8601>",
     "tournament": {"name", "game", "variant", "status", "public", "require_confirmation",
                    "chip_value" ("0.50"), "currency", "created_at", "started_at", "finished_at"},
     "players":  [{"id", "name"}],
     "entries":  [{"id", "player"}],
     "sessions": [{"number"}],
     "tables":   [{"id", "session" (its number), "name", "seats": [entry id by seat position]}],
     "rounds":   [{"id", "table", "number", "status", "confirmed_by", "confirmed_by_director",
                   "confirmed_at", "void_reason", "disputed", "dispute_message", "disputed_at",
                   "created_at", "revisions": [{"number", "body", "record", "result",
                   "engine_version", "actor", "reason", "created_at", "prev_hash", "hash"}]}]}

**Ids are the document's own**, not database ids: players, entries, tables and rounds are numbered
1, 2, ... in the order they are listed (entries by registration, tables by session, rounds by
table and number), and references (``entries[].player``, ``tables[].seats``, ``rounds[].table``)
use them. A round's state that follows from its latest revision (leader, banker, entered_by,
next leader or banker) is not repeated. Datetimes keep their microseconds.

**The hash chain.** A stored revision's hash covers its round's database id
(``chain.revision_hash``), which an import cannot keep. So the document carries, per revision,
the same ``revision_hash`` computed with the **document's** round id, chained through the
document's own ``prev_hash``. The export first verifies every stored chain (a broken one is
refused, never re-hashed into a clean-looking document); the import verifies the document's
chain with the document's ids, then stores the revisions with hashes recomputed for their new
database ids. As document ids are positions, exporting an import gives the same document again,
hashes included, apart from ``exported_at``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

import games
from games import get_game

from scoring.domain.chain import revision_hash
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import (DATETIME, MAX_ACTOR_LABEL, MAX_CURRENCY, MAX_ENGINE_VERSION, MAX_INT32, MAX_NOTE,
                                   MAX_PLAYER_NAME, MAX_TABLE_NAME, MAX_TOURNAMENT_NAME, MAX_USERNAME, MONEY, NAME,
                                   blank, is_int, text_problem, unstorable)
from scoring.domain.records import is_seat, round_build_record

FORMAT = "gupai-club.tournament"
VERSION = 1

TOURNAMENT_STATUSES = ("draft", "running", "finished")
ROUND_STATUSES = ("recorded", "confirmed", "voided")

#: The keys of each object of a document: an export writes every one, and an import wants every
#: one and no other (a misspelt key would otherwise be dropped unseen). The API's schema for an
#: import (``scoring.api.exports``) is built from these.
KEYS = {
    "document": ("format", "version", "exported_at", "tournament", "players", "entries", "sessions", "tables",
                 "rounds"),
    "tournament": ("name", "game", "variant", "status", "public", "require_confirmation", "chip_value", "currency",
                   "created_at", "started_at", "finished_at"),
    "player": ("id", "name"),
    "entry": ("id", "player"),
    "session": ("number",),
    "table": ("id", "session", "name", "seats"),
    "round": ("id", "table", "number", "status", "confirmed_by", "confirmed_by_director", "confirmed_at",
              "void_reason", "disputed", "dispute_message", "disputed_at", "created_at", "revisions"),
    "revision": ("number", "body", "record", "result", "engine_version", "actor", "reason", "created_at",
                 "prev_hash", "hash"),
}
# The strict rules of its values (names, dates and times, the chip value, whole numbers, text
# that can be stored) are scoring.domain.inputs's, which the API's fields share.


def iso(value: datetime | None) -> str | None:
    """A datetime as the document writes it (microseconds kept: they are hashed)."""
    return value.isoformat() if value is not None else None


def document_hash(*, prev_hash: str, round_id: int, revision: dict, created_at: datetime) -> str:
    """The hash of one revision in a document: ``chain.revision_hash`` over the document's round
    id and the revision's content."""
    return revision_hash(prev_hash=prev_hash, round_id=round_id, number=revision["number"], body=revision["body"],
                         record=revision["record"], result=revision["result"],
                         engine_version=revision["engine_version"], actor_label=revision["actor"],
                         reason=revision["reason"], created_at=created_at)


# ---------------------------------------------------------------------------------------------
# A document read and checked for import

@dataclass
class DocTournament:
    name: str
    game: str
    variant: dict
    status: str
    public: bool
    require_confirmation: bool
    chip_value: Decimal
    currency: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


@dataclass
class DocTable:
    id: int
    session: int
    name: str
    seats: list[int]        # document entry ids by position


@dataclass
class DocRevision:
    number: int
    body: dict
    record: dict
    result: dict
    engine_version: str
    actor: str
    reason: str
    created_at: datetime


@dataclass
class DocRound:
    id: int
    table: int
    number: int
    status: str
    confirmed_by: int | None
    confirmed_by_director: str | None
    confirmed_at: datetime | None
    void_reason: str
    disputed: bool
    dispute_message: str
    disputed_at: datetime | None
    created_at: datetime
    revisions: list[DocRevision]
    # From the latest revision, as the services set them:
    leader: int | None = None
    banker: int | None = None
    entered_by: int | None = None
    next_leader: int | None = None
    next_banker: int | None = None


@dataclass
class Document:
    exported_at: str
    tournament: DocTournament
    players: dict[int, str] = field(default_factory=dict)       # id → name
    entries: dict[int, int] = field(default_factory=dict)       # id → player id, in order
    sessions: list[int] = field(default_factory=list)
    tables: list[DocTable] = field(default_factory=list)
    rounds: list[DocRound] = field(default_factory=list)


def _fail(path: str, code: str, message: str):
    raise ValidationFailed(message, path=path, code=code)


def _object(value: Any, path: str, kind: str | None = None) -> dict:
    """An object; of ``kind`` (``KEYS``): with exactly that kind's keys."""
    if not isinstance(value, dict):
        _fail(path, "bad_type", "An object is expected here.")
    if kind is not None:
        for key in value:
            if key not in KEYS[kind]:
                _fail(f"{path}.{key}", "unknown_field", f"{key} is not a field of this document.")
        for key in KEYS[kind]:
            if key not in value:
                _fail(f"{path}.{key}", "required", "This field is required.")
    return value


def _list(value: Any, path: str) -> list:
    if not isinstance(value, list):
        _fail(path, "bad_type", "A list is expected here.")
    return value


def _int(value: Any, path: str, *, low: int = 1, high: int = MAX_INT32) -> int:
    if not is_int(value, low, high):
        _fail(path, "bad_type", f"A whole number from {low} to {high} is expected here.")
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        _fail(path, "bad_type", "true or false is expected here.")
    return value


def _text(value: Any, path: str, *, max_length: int, required: bool = False) -> str:
    if not isinstance(value, str):
        _fail(path, "bad_type", "Text is expected here.")
    if required and blank(value):
        _fail(path, "required", "This may not be empty.")
    if len(value) > max_length:
        _fail(path, "too_long", f"At most {max_length} characters.")
    why = text_problem(value)
    if why:
        _fail(path, "bad_text", why)
    return value


def _name(value: Any, path: str, *, max_length: int) -> str:
    """A name as the services store it: stripped, not empty."""
    text = _text(value, path, max_length=max_length, required=True)
    if not re.match(NAME, text):   # not blank and storable already: so spaces at an end
        _fail(path, "bad_text", "A name has no leading or trailing spaces.")
    return text


def _when(value: Any, path: str, *, required: bool = True, nullable: bool = False,
          needed_by: str = "") -> datetime | None:
    """A date and time (``DATETIME``). ``nullable``: null is allowed by the format; ``required``
    False: null is fine here (``needed_by`` says what makes it required when it is not)."""
    if value is None and nullable:
        if not required:
            return None
        _fail(path, "needed_for_status", f"A date and time is needed here: {needed_by}.")
    if not isinstance(value, str) or not re.match(DATETIME, value):
        _fail(path, "bad_type", "An ISO 8601 date and time with seconds and its UTC offset is expected here.")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        _fail(path, "bad_datetime", "An ISO 8601 date and time with its UTC offset is expected here.")
    return parsed


def read_document(document: Any, *, path: str = "document") -> Document:
    """The document checked and read, or ValidationFailed at the first problem, with its path
    (``document.rounds[3].revisions[1].hash``)."""
    doc = _object(document, path)
    found = unstorable(doc, path)   # the API's parser refuses these already; a direct caller may not
    if found:
        raise ValidationFailed(errors=[found])
    if doc.get("format") != FORMAT:
        _fail(f"{path}.format", "bad_format", f'This is not a tournament document (format "{FORMAT}").')
    if doc.get("version") != VERSION:
        _fail(f"{path}.version", "bad_version", f"Only version {VERSION} documents can be imported.")
    _object(doc, path, "document")
    exported_at = doc.get("exported_at")
    _when(exported_at, f"{path}.exported_at")
    out = Document(exported_at=exported_at, tournament=_tournament(doc.get("tournament"), f"{path}.tournament"))
    game = get_game(out.tournament.game)

    names: set[str] = set()
    for i, item in enumerate(_list(doc.get("players"), f"{path}.players")):
        p = f"{path}.players[{i}]"
        item = _object(item, p, "player")
        pid = _int(item.get("id"), f"{p}.id")
        name = _name(item.get("name"), f"{p}.name", max_length=MAX_PLAYER_NAME)
        if pid in out.players:
            _fail(f"{p}.id", "duplicate_id", "Another player has this id.")
        if name in names:
            _fail(f"{p}.name", "duplicate_name", "Another player has this name.")
        out.players[pid] = name
        names.add(name)

    entered: set[int] = set()
    for i, item in enumerate(_list(doc.get("entries"), f"{path}.entries")):
        p = f"{path}.entries[{i}]"
        item = _object(item, p, "entry")
        eid = _int(item.get("id"), f"{p}.id")
        player = _int(item.get("player"), f"{p}.player")
        if eid in out.entries:
            _fail(f"{p}.id", "duplicate_id", "Another entry has this id.")
        if player not in out.players:
            _fail(f"{p}.player", "not_found", "No player has this id.")
        if player in entered:
            _fail(f"{p}.player", "duplicate_entry", "This player is entered twice.")
        out.entries[eid] = player
        entered.add(player)

    for i, item in enumerate(_list(doc.get("sessions"), f"{path}.sessions")):
        p = f"{path}.sessions[{i}]"
        number = _int(_object(item, p, "session").get("number"), f"{p}.number")
        if number in out.sessions:
            _fail(f"{p}.number", "duplicate_number", "Another session has this number.")
        out.sessions.append(number)

    tables: dict[int, DocTable] = {}
    table_names: set[tuple[int, str]] = set()
    seated: set[tuple[int, int]] = set()
    for i, item in enumerate(_list(doc.get("tables"), f"{path}.tables")):
        p = f"{path}.tables[{i}]"
        item = _object(item, p, "table")
        tid = _int(item.get("id"), f"{p}.id")
        session = _int(item.get("session"), f"{p}.session")
        name = _name(item.get("name"), f"{p}.name", max_length=MAX_TABLE_NAME)
        seats = _list(item.get("seats"), f"{p}.seats")
        if tid in tables:
            _fail(f"{p}.id", "duplicate_id", "Another table has this id.")
        if session not in out.sessions:
            _fail(f"{p}.session", "not_found", "No session has this number.")
        if (session, name) in table_names:
            _fail(f"{p}.name", "duplicate_name", "Another table of this session has this name.")
        wrong = game.player_count_error(len(seats))
        if wrong:
            _fail(f"{p}.seats", "wrong_player_count", wrong)
        for j, eid in enumerate(seats):
            _int(eid, f"{p}.seats[{j}]")
            if eid not in out.entries:
                _fail(f"{p}.seats[{j}]", "not_found", "No entry has this id.")
            if (session, eid) in seated:
                _fail(f"{p}.seats[{j}]", "already_seated", "This entry already sits at a table of this session.")
            seated.add((session, eid))
        tables[tid] = DocTable(tid, session, name, list(seats))
        table_names.add((session, name))
    out.tables = list(tables.values())

    rounds = _list(doc.get("rounds"), f"{path}.rounds")
    if rounds and out.tournament.status == "draft":
        _fail(f"{path}.tournament.status", "draft_with_deals", "A tournament in draft has no deals yet.")
    numbers: set[tuple[int, int]] = set()
    ids: set[int] = set()
    for i, item in enumerate(rounds):
        p = f"{path}.rounds[{i}]"
        rnd = _round(_object(item, p, "round"), p, out, tables)
        if rnd.id in ids:
            _fail(f"{p}.id", "duplicate_id", "Another round has this id.")
        if (rnd.table, rnd.number) in numbers:
            _fail(f"{p}.number", "duplicate_number", "Another round of this table has this number.")
        ids.add(rnd.id)
        numbers.add((rnd.table, rnd.number))
        out.rounds.append(rnd)
    return out


def _tournament(value: Any, path: str) -> DocTournament:
    t = _object(value, path, "tournament")
    name = _name(t.get("name"), f"{path}.name", max_length=MAX_TOURNAMENT_NAME)
    game = t.get("game")
    if not isinstance(game, str) or game not in games.CATALOG:
        _fail(f"{path}.game", "unknown_game", f"Unknown game; one of {', '.join(games.CATALOG)}.")
    variant = t.get("variant")
    problems = get_game(game).variant_problems(variant)
    if problems or not isinstance(variant, dict):
        first = problems[0] if problems else {"path": "variant", "code": "bad_type", "message": "An object."}
        _fail(f"{path}.{first['path']}", first["code"], first["message"])
    status = t.get("status")
    if status not in TOURNAMENT_STATUSES:
        _fail(f"{path}.status", "invalid_choice", f"status is one of {', '.join(TOURNAMENT_STATUSES)}.")
    raw = t.get("chip_value")
    chip_value = Decimal(raw) if isinstance(raw, str) and re.match(MONEY, raw) else None
    if chip_value is None:
        _fail(f"{path}.chip_value", "bad_type", 'chip_value is a decimal number as text, like "0.50".')
    currency = _text(t.get("currency"), f"{path}.currency", max_length=MAX_CURRENCY)
    started_at = _when(t.get("started_at"), f"{path}.started_at", nullable=True, required=status != "draft",
                       needed_by="the tournament has started")
    finished_at = _when(t.get("finished_at"), f"{path}.finished_at", nullable=True, required=status == "finished",
                        needed_by="the tournament is finished")
    return DocTournament(name=name, game=game, variant=variant, status=status,
                         public=_bool(t.get("public"), f"{path}.public"),
                         require_confirmation=_bool(t.get("require_confirmation"), f"{path}.require_confirmation"),
                         chip_value=chip_value.quantize(Decimal("0.01")), currency=currency,
                         created_at=_when(t.get("created_at"), f"{path}.created_at"), started_at=started_at,
                         finished_at=finished_at)


def _round(r: dict, path: str, doc: Document, tables: dict[int, DocTable]) -> DocRound:
    rid = _int(r.get("id"), f"{path}.id")
    table_id = _int(r.get("table"), f"{path}.table")
    if table_id not in tables:
        _fail(f"{path}.table", "not_found", "No table has this id.")
    table = tables[table_id]
    number = _int(r.get("number"), f"{path}.number")
    status = r.get("status")
    if status not in ROUND_STATUSES:
        _fail(f"{path}.status", "invalid_choice", f"status is one of {', '.join(ROUND_STATUSES)}.")
    revisions = _list(r.get("revisions"), f"{path}.revisions")
    if not revisions:
        _fail(f"{path}.revisions", "required", "A deal has at least one revision.")
    names = [doc.players[doc.entries[e]] for e in table.seats]
    prev, read = "", []
    for j, item in enumerate(revisions):
        rev, prev = _revision(_object(item, f"{path}.revisions[{j}]", "revision"), f"{path}.revisions[{j}]", number=j + 1,
                              round_id=rid, prev_hash=prev, doc=doc, names=names)
        read.append(rev)
    n = len(table.seats)
    latest = read[-1]
    built = round_build_record(game=doc.tournament.game, variant=doc.tournament.variant, names=names,
                               body=latest.body, defaults={})
    entered_by = built.entered_by
    confirmed_by = r.get("confirmed_by")
    if confirmed_by is not None and not is_seat(confirmed_by, n):
        _fail(f"{path}.confirmed_by", "bad_seat", f"confirmed_by is a seat position (0 to {n - 1}) or null.")
    if confirmed_by is not None and confirmed_by == entered_by:
        _fail(f"{path}.confirmed_by", "same_seat", "The seat that entered the deal cannot confirm it.")
    director = r.get("confirmed_by_director")
    if director is not None:
        _text(director, f"{path}.confirmed_by_director", max_length=MAX_USERNAME)
    confirmed_at = _when(r.get("confirmed_at"), f"{path}.confirmed_at", nullable=True,
                         required=status == "confirmed", needed_by="the deal is confirmed")
    next_leader = built.position(latest.result.get("next_leader"))
    next_banker = latest.result.get("next_banker")
    if not all(x is None or is_seat(x, n) for x in (next_leader, next_banker)):   # an older engine's answer
        _fail(f"{path}.revisions[{len(read) - 1}].result", "bad_result", "The next leader or banker is no seat.")
    return DocRound(
        id=rid, table=table_id, number=number, status=status, confirmed_by=confirmed_by,
        confirmed_by_director=director, confirmed_at=confirmed_at,
        void_reason=_text(r.get("void_reason"), f"{path}.void_reason", max_length=MAX_NOTE),
        disputed=_bool(r.get("disputed"), f"{path}.disputed"),
        dispute_message=_text(r.get("dispute_message"), f"{path}.dispute_message", max_length=MAX_NOTE),
        disputed_at=_when(r.get("disputed_at"), f"{path}.disputed_at", nullable=True, required=False),
        created_at=_when(r.get("created_at"), f"{path}.created_at"), revisions=read,
        leader=built.leader, banker=built.banker, entered_by=entered_by, next_leader=next_leader,
        next_banker=next_banker)


def _revision(r: dict, path: str, *, number: int, round_id: int, prev_hash: str, doc: Document,
              names: list[str]) -> tuple[DocRevision, str]:
    """One revision checked: its place in the chain, its hash, then that its content is what the
    engine makes of it (a document can be hashed by anyone, so the hash alone proves nothing
    about the content)."""
    if r.get("number") != number:
        _fail(f"{path}.number", "bad_number", f"Revision {number} is expected here.")
    for key in ("body", "record", "result"):
        _object(r.get(key), f"{path}.{key}")
    rev = DocRevision(number=number, body=r["body"], record=r["record"], result=r["result"],
                      engine_version=_text(r.get("engine_version"), f"{path}.engine_version",
                                           max_length=MAX_ENGINE_VERSION),
                      actor=_text(r.get("actor"), f"{path}.actor", max_length=MAX_ACTOR_LABEL),
                      reason=_text(r.get("reason"), f"{path}.reason", max_length=MAX_NOTE),
                      created_at=_when(r.get("created_at"), f"{path}.created_at"))
    if r.get("prev_hash") != prev_hash:
        _fail(f"{path}.prev_hash", "broken_chain", "This is not the hash of the previous revision.")
    expected = document_hash(prev_hash=prev_hash, round_id=round_id, revision=r, created_at=rev.created_at)
    if r.get("hash") != expected:
        _fail(f"{path}.hash", "hash_mismatch", "The revision does not match its hash.")
    t = doc.tournament
    built = round_build_record(game=t.game, variant=t.variant, names=names, body=rev.body, defaults={})
    if built.errors or built.body != rev.body:
        _fail(f"{path}.body", "bad_body", "This is not a deal's body as stored.")
    if built.record != rev.record:
        _fail(f"{path}.record", "record_mismatch", "The record does not follow from the body and the table.")
    if rev.result.get("ok") is not True:
        _fail(f"{path}.result", "bad_result", "The result of a stored deal says ok.")
    if rev.engine_version == games.ENGINE_VERSION:
        # The same engine must say the same again (older engines' answers are kept as they were).
        again = json.loads(json.dumps(games.evaluate(rev.record)))
        if again != rev.result:
            _fail(f"{path}.result", "result_mismatch", "The engine does not give this result for this record.")
    seats = rev.result.get("seats")
    nets = [seat.get("net") if isinstance(seat, dict) else None for seat in seats] if isinstance(seats, list) else []
    if len(nets) != len(names) or not all(isinstance(x, int) and not isinstance(x, bool) for x in nets):
        _fail(f"{path}.result", "bad_result", "The result has a whole net for every seat.")
    return rev, r["hash"]
