"""A tournament document sent for import (``domain.documents`` describes the format), read and
checked. Pure: no queries, no writes; ``services.exports.tournament_import`` stores what this
returns.

``read_document`` refuses the first problem with its path (``document.rounds[3].revisions[1].hash``)
and a code; nothing of a refused document is stored. Besides the shape (every key, no other,
the types and limits of ``domain.document_values``) it checks:

- references: ids that repeat or point nowhere, a table's size for the game, a player seated
  twice in a session, the game's rule options;
- every revision (``domain.document_revisions``): its hash chain, its body and record, that its
  nets sum to zero with the house, and that today's engine gives its result;
- dates: each in years 1 to 9999 in UTC (``date_out_of_range``), and in order
  (``date_order``): the tournament created ≤ started ≤ finished; each deal created no earlier
  than the tournament and no later than its first revision; each revision no earlier than the
  one before it.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Callable

import games
from games import get_game
from scoring.domain.document_revisions import check_revision
from scoring.domain.document_values import a_list, an_object, fail, flag, free_json, name, not_before, text, when, whole
from scoring.domain.documents import (
    FORMAT,
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
    MAX_CURRENCY,
    MAX_NOTE,
    MAX_PLAYER_NAME,
    MAX_TABLE_NAME,
    MAX_TOURNAMENT_NAME,
    MAX_USERNAME,
    MONEY,
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
    """The document checked and read, or ValidationFailed at the first problem, with its path.
    ``progress``: told how many revisions are checked so far (the slow part: each one is
    evaluated by the engine)."""
    doc = an_object(document, path)
    found = unstorable(doc, path)   # the API's parser refuses these already; a direct caller may not
    if found:
        raise ValidationFailed(errors=[found])
    if doc.get("format") != FORMAT:
        fail(f"{path}.format", "bad_format", f'This is not a tournament document (format "{FORMAT}").')
    if doc.get("version") != VERSION:
        fail(f"{path}.version", "bad_version", f"Only version {VERSION} documents can be imported.")
    an_object(doc, path, "document")
    exported_at = doc.get("exported_at")
    when(exported_at, f"{path}.exported_at")
    out = Document(exported_at=exported_at, tournament=_tournament(doc.get("tournament"), f"{path}.tournament"))
    _players(out, doc, path)
    _entries(out, doc, path)
    _sessions(out, doc, path)
    tables = _tables(out, doc, path)

    rounds = a_list(doc.get("rounds"), f"{path}.rounds")
    if rounds and out.tournament.status == "draft":
        fail(f"{path}.tournament.status", "draft_with_deals", "A tournament in draft has no deals yet.")
    numbers: set[tuple[int, int]] = set()
    ids: set[int] = set()
    counter = _Counter(progress, revision_count(doc))
    for i, item in enumerate(rounds):
        p = f"{path}.rounds[{i}]"
        rnd = _round(an_object(item, p, "round"), p, out, tables, counter)
        if rnd.id in ids:
            fail(f"{p}.id", "duplicate_id", "Another round has this id.")
        if (rnd.table, rnd.number) in numbers:
            fail(f"{p}.number", "duplicate_number", "Another round of this table has this number.")
        ids.add(rnd.id)
        numbers.add((rnd.table, rnd.number))
        out.rounds.append(rnd)
    return out


def _tournament(value: Any, path: str) -> DocTournament:
    t = an_object(value, path, "tournament")
    title = name(t.get("name"), f"{path}.name", max_length=MAX_TOURNAMENT_NAME)
    game = t.get("game")
    if not isinstance(game, str) or game not in games.CATALOG:
        fail(f"{path}.game", "unknown_game", f"Unknown game; one of {', '.join(games.CATALOG)}.")
    variant = t.get("variant")
    if isinstance(variant, dict):
        free_json(variant, f"{path}.variant")
    problems = get_game(game).variant_problems(variant)
    if problems or not isinstance(variant, dict):
        first = problems[0] if problems else {"path": "variant", "code": "bad_type", "message": "An object."}
        fail(f"{path}.{first['path']}", first["code"], first["message"])
    status = t.get("status")
    if status not in TOURNAMENT_STATUSES:
        fail(f"{path}.status", "invalid_choice", f"status is one of {', '.join(TOURNAMENT_STATUSES)}.")
    raw = t.get("chip_value")
    chip_value = Decimal(raw) if isinstance(raw, str) and re.match(MONEY, raw) else None
    if chip_value is None:
        fail(f"{path}.chip_value", "bad_type", 'chip_value is a decimal number as text, like "0.50".')
    currency = text(t.get("currency"), f"{path}.currency", max_length=MAX_CURRENCY)
    created_at = when(t.get("created_at"), f"{path}.created_at")
    started_at = when(t.get("started_at"), f"{path}.started_at", nullable=True, required=status != "draft",
                      needed_by="the tournament has started")
    finished_at = when(t.get("finished_at"), f"{path}.finished_at", nullable=True, required=status == "finished",
                       needed_by="the tournament is finished")
    not_before(started_at, created_at, f"{path}.started_at", "the tournament was created")
    not_before(finished_at, started_at or created_at, f"{path}.finished_at",
               "the tournament started" if started_at else "the tournament was created")
    return DocTournament(name=title, game=game, variant=variant, status=status,
                         public=flag(t.get("public"), f"{path}.public"),
                         require_confirmation=flag(t.get("require_confirmation"), f"{path}.require_confirmation"),
                         chip_value=chip_value.quantize(Decimal("0.01")), currency=currency,
                         created_at=created_at, started_at=started_at, finished_at=finished_at)


def _players(out: Document, doc: dict, path: str) -> None:
    names: set[str] = set()
    for i, item in enumerate(a_list(doc.get("players"), f"{path}.players")):
        p = f"{path}.players[{i}]"
        item = an_object(item, p, "player")
        pid = whole(item.get("id"), f"{p}.id")
        player = name(item.get("name"), f"{p}.name", max_length=MAX_PLAYER_NAME)
        if pid in out.players:
            fail(f"{p}.id", "duplicate_id", "Another player has this id.")
        if player in names:
            fail(f"{p}.name", "duplicate_name", "Another player has this name.")
        out.players[pid] = player
        names.add(player)


def _entries(out: Document, doc: dict, path: str) -> None:
    entered: set[int] = set()
    for i, item in enumerate(a_list(doc.get("entries"), f"{path}.entries")):
        p = f"{path}.entries[{i}]"
        item = an_object(item, p, "entry")
        eid = whole(item.get("id"), f"{p}.id")
        player = whole(item.get("player"), f"{p}.player")
        if eid in out.entries:
            fail(f"{p}.id", "duplicate_id", "Another entry has this id.")
        if player not in out.players:
            fail(f"{p}.player", "not_found", "No player has this id.")
        if player in entered:
            fail(f"{p}.player", "duplicate_entry", "This player is entered twice.")
        out.entries[eid] = player
        entered.add(player)


def _sessions(out: Document, doc: dict, path: str) -> None:
    for i, item in enumerate(a_list(doc.get("sessions"), f"{path}.sessions")):
        p = f"{path}.sessions[{i}]"
        number = whole(an_object(item, p, "session").get("number"), f"{p}.number")
        if number in out.sessions:
            fail(f"{p}.number", "duplicate_number", "Another session has this number.")
        out.sessions.append(number)


def _tables(out: Document, doc: dict, path: str) -> dict[int, DocTable]:
    game = get_game(out.tournament.game)
    tables: dict[int, DocTable] = {}
    table_names: set[tuple[int, str]] = set()
    seated: set[tuple[int, int]] = set()
    for i, item in enumerate(a_list(doc.get("tables"), f"{path}.tables")):
        p = f"{path}.tables[{i}]"
        item = an_object(item, p, "table")
        tid = whole(item.get("id"), f"{p}.id")
        session = whole(item.get("session"), f"{p}.session")
        title = name(item.get("name"), f"{p}.name", max_length=MAX_TABLE_NAME)
        seats = a_list(item.get("seats"), f"{p}.seats")
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
            whole(eid, f"{p}.seats[{j}]")
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
    rid = whole(r.get("id"), f"{path}.id")
    table_id = whole(r.get("table"), f"{path}.table")
    if table_id not in tables:
        fail(f"{path}.table", "not_found", "No table has this id.")
    table = tables[table_id]
    number = whole(r.get("number"), f"{path}.number")
    status = r.get("status")
    if status not in ROUND_STATUSES:
        fail(f"{path}.status", "invalid_choice", f"status is one of {', '.join(ROUND_STATUSES)}.")
    revisions = a_list(r.get("revisions"), f"{path}.revisions")
    if not revisions:
        fail(f"{path}.revisions", "required", "A deal has at least one revision.")
    created_at = when(r.get("created_at"), f"{path}.created_at")
    t = doc.tournament
    not_before(created_at, t.created_at, f"{path}.created_at", "the tournament was created")
    names = [doc.players[doc.entries[e]] for e in table.seats]
    prev, read = "", []
    for j, item in enumerate(revisions):
        p = f"{path}.revisions[{j}]"
        rev, prev = check_revision(an_object(item, p, "revision"), p, number=j + 1, round_id=rid, prev_hash=prev,
                                   game=t.game, variant=t.variant, names=names)
        not_before(rev.created_at, read[-1].created_at if read else created_at, f"{p}.created_at",
                   "the revision before it" if read else "the deal was created")
        read.append(rev)
        counter.one_more()
    n = len(table.seats)
    latest = read[-1]
    built = round_build_record(game=t.game, variant=t.variant, names=names, body=latest.body, defaults={})
    entered_by = built.entered_by
    confirmed_by = r.get("confirmed_by")
    if confirmed_by is not None and not is_seat(confirmed_by, n):
        fail(f"{path}.confirmed_by", "bad_seat", f"confirmed_by is a seat position (0 to {n - 1}) or null.")
    if confirmed_by is not None and confirmed_by == entered_by:
        fail(f"{path}.confirmed_by", "same_seat", "The seat that entered the deal cannot confirm it.")
    director = r.get("confirmed_by_director")
    if director is not None:
        text(director, f"{path}.confirmed_by_director", max_length=MAX_USERNAME)
    confirmed_at = when(r.get("confirmed_at"), f"{path}.confirmed_at", nullable=True,
                        required=status == "confirmed", needed_by="the deal is confirmed")
    next_leader = built.position(latest.result.get("next_leader"))
    next_banker = latest.result.get("next_banker")
    if not all(x is None or is_seat(x, n) for x in (next_leader, next_banker)):   # never from today's engine
        fail(f"{path}.revisions[{len(read) - 1}].result", "bad_result", "The next leader or banker is no seat.")
    return DocRound(
        id=rid, table=table_id, number=number, status=status, confirmed_by=confirmed_by,
        confirmed_by_director=director, confirmed_at=confirmed_at,
        void_reason=text(r.get("void_reason"), f"{path}.void_reason", max_length=MAX_NOTE),
        disputed=flag(r.get("disputed"), f"{path}.disputed"),
        dispute_message=text(r.get("dispute_message"), f"{path}.dispute_message", max_length=MAX_NOTE),
        disputed_at=when(r.get("disputed_at"), f"{path}.disputed_at", nullable=True, required=False),
        created_at=created_at, revisions=read, leader=built.leader, banker=built.banker, entered_by=entered_by,
        next_leader=next_leader, next_banker=next_banker)
