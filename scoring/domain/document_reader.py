"""A tournament document sent for import (``domain.documents`` describes the format), read and
checked. Pure: no queries, no writes; ``services.exports.tournament_import`` stores what this
returns.

``read_document`` refuses the first problem with its path (``document.rounds[3].revisions[1].hash``)
and a code; nothing of a refused document is stored. It reads in two passes:

1. **the shape** (``check_shape``): each value on its own, as the documented schema
   (``scoring.api.exports.DOCUMENT_SCHEMA``) says it: every object with exactly its keys
   (``unknown_field``, ``required``), every value of its type, range, length, pattern and
   choices (``domain.document_values``: ``bad_type``, ``too_long``, ``invalid_choice``, ...),
   text that can be stored, real dates in years 1 to 9999 in UTC, free JSON bounded. Quick (no
   engine, no hashing): ``services.imports`` refuses a document that breaks it at once, before
   it is queued, and a worker's read starts with it.
2. **the meaning**, on a document of the right shape (the slow part, the worker's):

   - references: ids that repeat or point nowhere, a table's size for the game, a player seated
     twice in a session, the game's rule options, the seat that confirms a deal;
   - every revision (``domain.document_revisions``): its hash chain, its body and record, that
     its nets sum to zero with the house, and that today's engine gives its result;
   - dates a status needs (``needed_for_status``) and their order (``date_order``): the
     tournament created ≤ started ≤ finished; each deal created no earlier than the tournament
     and no later than its first revision; each revision no earlier than the one before it.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable

import games
from games import get_game
from scoring.domain.document_revisions import check_revision
from scoring.domain.document_values import (
    a_list,
    an_object,
    fail,
    flag,
    free_json,
    matching,
    moment,
    name,
    needed,
    not_before,
    one_of,
    text,
    when,
    whole,
)
from scoring.domain.documents import (
    FORMAT,
    KEYS,
    ROUND_STATUSES,
    TOURNAMENT_STATUSES,
    VERSION,
    DocRound,
    DocTable,
    DocTournament,
    Document,
)
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import (
    MAX_ACTOR_LABEL,
    MAX_CURRENCY,
    MAX_ENGINE_VERSION,
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
from scoring.domain.records import is_seat, round_build_record

#: Told ``(revisions checked, revisions in the document)`` after each revision is checked.
Progress = Callable[[int, int], None]


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


def read_document(document: Any, *, path: str = "document", progress: Progress | None = None) -> Document:
    """The document checked and read, or ValidationFailed at the first problem, with its path:
    its shape first (``check_shape``), then what it means. ``progress``: told how many
    revisions are checked so far (the slow part: each one is evaluated by the engine)."""
    doc = an_object(document, path)
    found = unstorable(doc, path)   # the API's parser refuses these already; a direct caller may not
    if found:
        raise ValidationFailed(errors=[found])
    check_shape(doc, path)
    return _read(doc, path, progress)


# --- 1. the shape ---------------------------------------------------------------------------------
# One check per key of each kind of object (``KEYS``), each on the value alone, as the documented
# schema says it (scoring.api.exports.DOCUMENT_SCHEMA, built from KEYS and the same limits).

Check = Callable[[Any, str], Any]


def check_shape(document: Any, path: str = "document") -> dict:
    """The document, if its shape is the documented schema's (see the module); else
    ValidationFailed at the first value that breaks it. Nothing that needs another value is
    checked here (ids, the game's rules, the hash chain, the engine, dates a status needs)."""
    doc = an_object(document, path)
    # A document of another kind (or version) says so, rather than that its keys are wrong.
    _format(doc.get("format"), f"{path}.format")
    _version(doc.get("version"), f"{path}.version")
    return _shaped(doc, path, "document")


def _shaped(value: Any, path: str, kind: str) -> dict:
    obj = an_object(value, path, kind)
    for key, check in _SHAPES[kind].items():
        check(obj[key], f"{path}.{key}")
    return obj


def _format(value: Any, path: str) -> None:
    if not isinstance(value, str) or value != FORMAT:
        fail(path, "bad_format", f'This is not a tournament document (format "{FORMAT}").')


def _version(value: Any, path: str) -> None:
    if not is_int(value) or value != VERSION:   # is_int: true is no 1
        fail(path, "bad_version", f"Only version {VERSION} documents can be imported.")


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
        "tables": _objects("table"), "rounds": _objects("round"),
    },
    "tournament": {
        "name": _name(MAX_TOURNAMENT_NAME), "game": _game, "variant": _free,
        "status": _choice(TOURNAMENT_STATUSES), "public": flag, "require_confirmation": flag, "chip_value": _money,
        "currency": _text(MAX_CURRENCY), "created_at": _when, "started_at": _when_or_null,
        "finished_at": _when_or_null,
    },
    "player": {"id": whole, "name": _name(MAX_PLAYER_NAME)},
    "entry": {"id": whole, "player": whole},
    "session": {"number": whole},
    "table": {"id": whole, "session": whole, "name": _name(MAX_TABLE_NAME), "seats": _seats},
    "round": {
        "id": whole, "table": whole, "number": whole, "status": _choice(ROUND_STATUSES),
        "confirmed_by": _confirming_seat, "confirmed_by_director": _text(MAX_USERNAME, nullable=True),
        "confirmed_at": _when_or_null, "void_reason": _text(MAX_NOTE), "disputed": flag,
        "dispute_message": _text(MAX_NOTE), "disputed_at": _when_or_null, "created_at": _when,
        "revisions": _revisions,
    },
    "revision": {
        "number": whole, "body": _free, "record": _free, "result": _free,
        "engine_version": _text(MAX_ENGINE_VERSION), "actor": _text(MAX_ACTOR_LABEL), "reason": _text(MAX_NOTE),
        "created_at": _when, "prev_hash": _hash(first=True), "hash": _hash(),
    },
}
assert {kind: tuple(checks) for kind, checks in _SHAPES.items()} == KEYS   # a check for every key, in order


# --- 2. the meaning -------------------------------------------------------------------------------
# Of a document check_shape has passed: every key there, every value of its type.

def _read(doc: dict, path: str, progress: Progress | None) -> Document:
    out = Document(exported_at=doc["exported_at"], tournament=_tournament(doc["tournament"], f"{path}.tournament"))
    _players(out, doc, path)
    _entries(out, doc, path)
    _sessions(out, doc, path)
    tables = _tables(out, doc, path)

    rounds = doc["rounds"]
    if rounds and out.tournament.status == "draft":
        fail(f"{path}.tournament.status", "draft_with_deals", "A tournament in draft has no deals yet.")
    numbers: set[tuple[int, int]] = set()
    ids: set[int] = set()
    counter = _Counter(progress, revision_count(doc))
    for i, item in enumerate(rounds):
        p = f"{path}.rounds[{i}]"
        rnd = _round(item, p, out, tables, counter)
        if rnd.id in ids:
            fail(f"{p}.id", "duplicate_id", "Another round has this id.")
        if (rnd.table, rnd.number) in numbers:
            fail(f"{p}.number", "duplicate_number", "Another round of this table has this number.")
        ids.add(rnd.id)
        numbers.add((rnd.table, rnd.number))
        out.rounds.append(rnd)
    return out


def _tournament(t: dict, path: str) -> DocTournament:
    game, variant, status = t["game"], t["variant"], t["status"]
    problems = get_game(game).variant_problems(variant)
    if problems:
        fail(f"{path}.{problems[0]['path']}", problems[0]["code"], problems[0]["message"])
    if status != "draft":
        needed(t["started_at"], f"{path}.started_at", "the tournament has started")
    if status == "finished":
        needed(t["finished_at"], f"{path}.finished_at", "the tournament is finished")
    created_at, started_at, finished_at = moment(t["created_at"]), moment(t["started_at"]), moment(t["finished_at"])
    not_before(started_at, created_at, f"{path}.started_at", "the tournament was created")
    not_before(finished_at, started_at or created_at, f"{path}.finished_at",
               "the tournament started" if started_at else "the tournament was created")
    return DocTournament(name=t["name"], game=game, variant=variant, status=status, public=t["public"],
                         require_confirmation=t["require_confirmation"],
                         chip_value=Decimal(t["chip_value"]).quantize(Decimal("0.01")), currency=t["currency"],
                         created_at=created_at, started_at=started_at, finished_at=finished_at)


def _players(out: Document, doc: dict, path: str) -> None:
    names: set[str] = set()
    for i, item in enumerate(doc["players"]):
        p = f"{path}.players[{i}]"
        pid, player = item["id"], item["name"]
        if pid in out.players:
            fail(f"{p}.id", "duplicate_id", "Another player has this id.")
        if player in names:
            fail(f"{p}.name", "duplicate_name", "Another player has this name.")
        out.players[pid] = player
        names.add(player)


def _entries(out: Document, doc: dict, path: str) -> None:
    entered: set[int] = set()
    for i, item in enumerate(doc["entries"]):
        p = f"{path}.entries[{i}]"
        eid, player = item["id"], item["player"]
        if eid in out.entries:
            fail(f"{p}.id", "duplicate_id", "Another entry has this id.")
        if player not in out.players:
            fail(f"{p}.player", "not_found", "No player has this id.")
        if player in entered:
            fail(f"{p}.player", "duplicate_entry", "This player is entered twice.")
        out.entries[eid] = player
        entered.add(player)


def _sessions(out: Document, doc: dict, path: str) -> None:
    for i, item in enumerate(doc["sessions"]):
        if item["number"] in out.sessions:
            fail(f"{path}.sessions[{i}].number", "duplicate_number", "Another session has this number.")
        out.sessions.append(item["number"])


def _tables(out: Document, doc: dict, path: str) -> dict[int, DocTable]:
    game = get_game(out.tournament.game)
    tables: dict[int, DocTable] = {}
    table_names: set[tuple[int, str]] = set()
    seated: set[tuple[int, int]] = set()
    for i, item in enumerate(doc["tables"]):
        p = f"{path}.tables[{i}]"
        tid, session, title, seats = item["id"], item["session"], item["name"], item["seats"]
        if tid in tables:
            fail(f"{p}.id", "duplicate_id", "Another table has this id.")
        if session not in out.sessions:
            fail(f"{p}.session", "not_found", "No session has this number.")
        if (session, title) in table_names:
            fail(f"{p}.name", "duplicate_name", "Another table of this session has this name.")
        wrong = game.player_count_error(len(seats))
        if wrong:
            fail(f"{p}.seats", "wrong_player_count", wrong)
        for j, eid in enumerate(seats):
            if eid not in out.entries:
                fail(f"{p}.seats[{j}]", "not_found", "No entry has this id.")
            if (session, eid) in seated:
                fail(f"{p}.seats[{j}]", "already_seated", "This entry already sits at a table of this session.")
            seated.add((session, eid))
        tables[tid] = DocTable(tid, session, title, list(seats))
        table_names.add((session, title))
    out.tables = list(tables.values())
    return tables


class _Counter:
    """Counts the revisions checked for a ``progress`` callback (none: counts nothing)."""

    def __init__(self, progress: Progress | None, total: int):
        self.progress, self.total, self.done = progress, total, 0

    def one_more(self) -> None:
        if self.progress is not None:
            self.done += 1
            self.progress(self.done, self.total)


def _round(r: dict, path: str, doc: Document, tables: dict[int, DocTable], counter: _Counter) -> DocRound:
    rid, table_id, status = r["id"], r["table"], r["status"]
    if table_id not in tables:
        fail(f"{path}.table", "not_found", "No table has this id.")
    table = tables[table_id]
    created_at = moment(r["created_at"])
    t = doc.tournament
    not_before(created_at, t.created_at, f"{path}.created_at", "the tournament was created")
    names = [doc.players[doc.entries[e]] for e in table.seats]
    prev, read = "", []
    for j, item in enumerate(r["revisions"]):
        p = f"{path}.revisions[{j}]"
        rev, prev = check_revision(item, p, number=j + 1, round_id=rid, prev_hash=prev, game=t.game,
                                   variant=t.variant, names=names)
        not_before(rev.created_at, read[-1].created_at if read else created_at, f"{p}.created_at",
                   "the revision before it" if read else "the deal was created")
        read.append(rev)
        counter.one_more()
    n = len(table.seats)
    latest = read[-1]
    built = round_build_record(game=t.game, variant=t.variant, names=names, body=latest.body, defaults={})
    entered_by = built.entered_by
    confirmed_by = r["confirmed_by"]
    if confirmed_by is not None and not is_seat(confirmed_by, n):
        fail(f"{path}.confirmed_by", "bad_seat", f"confirmed_by is a seat position (0 to {n - 1}) or null.")
    if confirmed_by is not None and confirmed_by == entered_by:
        fail(f"{path}.confirmed_by", "same_seat", "The seat that entered the deal cannot confirm it.")
    if status == "confirmed":
        needed(r["confirmed_at"], f"{path}.confirmed_at", "the deal is confirmed")
    next_leader = built.position(latest.result.get("next_leader"))
    next_banker = latest.result.get("next_banker")
    if not all(x is None or is_seat(x, n) for x in (next_leader, next_banker)):   # never from today's engine
        fail(f"{path}.revisions[{len(read) - 1}].result", "bad_result", "The next leader or banker is no seat.")
    return DocRound(
        id=rid, table=table_id, number=r["number"], status=status, confirmed_by=confirmed_by,
        confirmed_by_director=r["confirmed_by_director"], confirmed_at=moment(r["confirmed_at"]),
        void_reason=r["void_reason"], disputed=r["disputed"], dispute_message=r["dispute_message"],
        disputed_at=moment(r["disputed_at"]), created_at=created_at, revisions=read, leader=built.leader,
        banker=built.banker, entered_by=entered_by, next_leader=next_leader, next_banker=next_banker)
