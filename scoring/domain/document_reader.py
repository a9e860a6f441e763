"""A tournament document sent for import (``domain.documents`` describes the format), read and
checked. Pure: no queries, no writes; ``services.exports.tournament_import`` stores what this
returns.

``read_document`` refuses the first problem with its path (``document.rounds[3].revisions[1].hash``)
and a code; nothing of a refused document is stored. It reads in two passes:

1. **the shape** (``domain.document_shape.check_shape``): each value on its own, as the
   documented schema says it; quick, so ``services.imports`` also checks it before it queues.
2. **the meaning**, on a document of the right shape (the slow part, the worker's):

   - references: ids that repeat or point nowhere, a table's size for the game, a player seated
     twice in a session, the game's rule options, the seat that confirms a deal;
   - every revision (``domain.document_revisions``): its hash chain, its body and record, that
     its nets sum to zero with the house, and that today's engine gives its result;
   - dates a status needs (``needed_for_status``) and their order (``date_order``): the
     tournament created ≤ started ≤ finished; each deal created no earlier than the tournament
     and no later than its first revision; each revision no earlier than the one before it; a
     withdrawal, a session's closing and its clock no earlier than the tournament; a clock that
     ends after it starts, or no clock at all (``bad_clock``);
   - an entry's ``withdrawn`` agreeing with its ``withdrawn_at``;
   - substitutions (``_substitutions``): a table and seat of the document, a player entered, none
     at a seat before the seat's previous one, nobody twice at the tables of a session once they
     are all made; each deal is then checked with the names of the players who played it;
   - adjustments (``_adjustments``): a player entered, an amount other than 0, a reason, made no
     earlier than the tournament.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable

from games import get_game
from games.seating import seating_from_start
from scoring.domain.document_revisions import check_revision
from scoring.domain.document_shape import check_shape, revision_count
from scoring.domain.document_values import (
    an_object,
    fail,
    moment,
    needed,
    not_before,
)
from scoring.domain.documents import (
    DocAdjustment,
    DocRound,
    DocSession,
    DocTable,
    DocTournament,
    Document,
)
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import blank, unstorable
from scoring.domain.records import is_seat, round_build_record

#: Told ``(revisions checked, revisions in the document)`` after each revision is checked.
Progress = Callable[[int, int], None]


def read_document(document: Any, *, path: str = "document", progress: Progress | None = None) -> Document:
    """The document checked and read, or ValidationFailed at the first problem, with its path:
    its shape first (``check_shape``), then what it means. ``progress``: told how many
    revisions are checked so far (the slow part: each one is evaluated by the engine)."""
    doc = an_object(document, path)
    found = unstorable(doc, path)   # the API's parser refuses these already; a direct caller may not
    if found:
        raise ValidationFailed(errors=[found])
    return _read(check_shape(doc, path), path, progress)   # a version 1 document as the current one it means


# --- the meaning -----------------------------------------------------------------------------------
# Of a document check_shape has passed: every key there, every value of its type.

def _read(doc: dict, path: str, progress: Progress | None) -> Document:
    out = Document(exported_at=doc["exported_at"], tournament=_tournament(doc["tournament"], f"{path}.tournament"))
    _players(out, doc, path)
    _entries(out, doc, path)
    _sessions(out, doc, path)
    tables = _tables(out, doc, path)
    _substitutions(out, doc, path, tables)
    _adjustments(out, doc, path)

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
                         require_confirmation=t["require_confirmation"], require_proof=t["require_proof"],
                         rated=t["rated"], tie_breaks=list(t["tie_breaks"]),
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
        withdrawn = moment(item["withdrawn_at"])
        if item.get("withdrawn", withdrawn is not None) != (withdrawn is not None):
            fail(f"{p}.withdrawn", "withdrawn_mismatch", "withdrawn is true exactly when withdrawn_at is set.")
        not_before(withdrawn, out.tournament.created_at, f"{p}.withdrawn_at", "the tournament was created")
        if withdrawn is not None:
            out.withdrawn[eid] = withdrawn


def _sessions(out: Document, doc: dict, path: str) -> None:
    created = out.tournament.created_at
    for i, item in enumerate(doc["sessions"]):
        p = f"{path}.sessions[{i}]"
        if item["number"] in out.sessions:
            fail(f"{p}.number", "duplicate_number", "Another session has this number.")
        if item["status"] == "closed":
            needed(item["closed_at"], f"{p}.closed_at", "the session is closed")
        session = DocSession(number=item["number"], status=item["status"], closed_at=moment(item["closed_at"]),
                             clock_started_at=moment(item["clock_started_at"]),
                             clock_ends_at=moment(item["clock_ends_at"]))
        not_before(session.closed_at, created, f"{p}.closed_at", "the tournament was created")
        start, end = session.clock_started_at, session.clock_ends_at
        if (start is None) != (end is None):
            fail(f"{p}.clock_ends_at" if end is None else f"{p}.clock_started_at", "bad_clock",
                 "A session's clock has both its start and its end, or neither.")
        not_before(start, created, f"{p}.clock_started_at", "the tournament was created")
        if start is not None and end <= start:
            fail(f"{p}.clock_ends_at", "date_order", "The clock ends after it starts.")
        out.sessions[session.number] = session


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


def _substitutions(out: Document, doc: dict, path: str, tables: dict[int, DocTable]) -> None:
    """Each table's ``seating`` (``games.seating.seating_from_start``, by document entry ids)."""
    entry_of = {pid: eid for eid, pid in out.entries.items()}
    made: dict[int, list[tuple[int, int, int]]] = {}
    for i, item in enumerate(doc["substitutions"]):
        p = f"{path}.substitutions[{i}]"
        table = tables.get(item["table"])
        if table is None:
            fail(f"{p}.table", "not_found", "No table has this id.")
        if item["seat"] >= len(table.seats):
            fail(f"{p}.seat", "bad_seat", f"The table's seats are 0 to {len(table.seats) - 1}.")
        if item["player"] not in entry_of:
            fail(f"{p}.player", "not_found", "No entry has this player id.")
        subs = made.setdefault(table.id, [])
        subs.append((item["seat"], entry_of[item["player"]], item["from_deal"]))
        try:
            seating = seating_from_start(table.seats, subs)
        except ValueError:
            fail(f"{p}.from_deal", "date_order", "A seat's substitutions come in deal order.")
        if seating.changes[-1].entry_out == seating.changes[-1].entry_in:
            fail(f"{p}.player", "same_entry", "This player already holds the seat.")
    seated: set[tuple[int, int]] = set()
    for table in tables.values():
        table.seating = seating_from_start(table.seats, made.get(table.id, ()))
        for eid in table.seating.current:
            if (table.session, eid) in seated:
                fail(f"{path}.substitutions", "already_seated",
                     f"Once substituted, entry {eid} sits twice in session {table.session}.")
            seated.add((table.session, eid))
    out.substitutions = len(doc["substitutions"])


def _adjustments(out: Document, doc: dict, path: str) -> None:
    entry_of = {pid: eid for eid, pid in out.entries.items()}
    for i, item in enumerate(doc["adjustments"]):
        p = f"{path}.adjustments[{i}]"
        if item["player"] not in entry_of:
            fail(f"{p}.player", "not_found", "No entry has this player id.")
        if item["amount"] == 0:
            fail(f"{p}.amount", "zero_amount", "An adjustment of 0 changes nothing.")
        if blank(item["reason"]):
            fail(f"{p}.reason", "required", "An adjustment says why.")
        created_at = moment(item["created_at"])
        not_before(created_at, out.tournament.created_at, f"{p}.created_at", "the tournament was created")
        out.adjustments.append(DocAdjustment(entry_of[item["player"]], item["amount"], item["reason"].strip(),
                                             created_at, item["by"]))


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
    # the players who played this deal, whoever was substituted since
    names = [doc.players[doc.entries[e]] for e in table.seating.at(r["number"])]
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
        disputed_at=moment(r["disputed_at"]), late=r["late"], after_time=r["after_time"], created_at=created_at,
        revisions=read, leader=built.leader,
        banker=built.banker, entered_by=entered_by, next_leader=next_leader, next_banker=next_banker)
