"""Deals: one, a table's list (a page at a time), a deal's revisions, previews of deals not yet stored."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext

from games import get_game
from scoring.domain.errors import NotFound
from scoring.domain.paging import Page, page_window
from scoring.domain.records import RoundPreview, built_for_revision, result_by_position, round_preview
from scoring.domain.standings import counts_round
from scoring.models import IdempotencyKey, Round, RoundRevision, Seat, Table, Tournament
from scoring.selectors.audits import ChainReport, verify_chain
from scoring.selectors.substitutions import deal_seats
from scoring.selectors.tables import round_defaults, table_seats


def round_get(round_id: Any) -> Round:
    try:
        return Round.objects.select_related("table__session__tournament__club", "current_revision").get(pk=round_id)
    except (Round.DoesNotExist, ValueError, TypeError):
        raise NotFound(gettext("No such round.")) from None


def deal_stored_with_key(table: Table, key: Any) -> bool:
    """Whether a deal sent with this Idempotency-Key is stored for ``table`` (a retry of it gets
    the stored answer)."""
    return isinstance(key, str) and bool(key) and IdempotencyKey.objects.filter(table_id=table.pk, key=key).exists()


def round_of_table(table: Table, round_id: Any) -> Round:
    """A deal of this table; NotFound for any other (a scorer link sees one table only)."""
    rnd = round_get(round_id)
    if rnd.table_id != table.pk:
        raise NotFound(gettext("No such deal at this table."))
    return rnd


def table_round_preview(*, table: Table, body: Any, round: Round | None = None,
                        seats: list[Seat] | None = None, defaults: dict | None = None) -> RoundPreview:
    """Evaluate a body at this table without storing anything. ``round``: the deal being
    corrected (its leader/banker/entered_by are the defaults), None for a new deal.
    ``seats``/``defaults``: already read by the caller."""
    tournament = table.session.tournament
    if round is not None:  # a correction names the players who played the deal
        seats = deal_seats(table, seats if seats is not None else table_seats(table))(round.number)
    seats = seats if seats is not None else table_seats(table)
    if round is not None:
        defaults = {"leader": round.leader, "banker": round.banker, "entered_by": round.entered_by}
    elif defaults is None:
        defaults = round_defaults(table)
    return round_preview(game=tournament.game, variant=tournament.variant, seats=seats, body=body,
                         defaults=defaults)


def revision_detail(revision: RoundRevision, *, seats: list[Seat], game: str) -> dict:
    built = built_for_revision(game=game, record=revision.record, body=revision.body, n=len(seats))
    players, outcome = result_by_position(built=built, result=revision.result, seats=seats)
    return {"number": revision.number, "body": revision.body, "record": revision.record, "result": revision.result,
            "players": players, "outcome": outcome, "engine_version": revision.engine_version,
            "actor": revision.actor_label, "reason": revision.reason, "created_at": revision.created_at,
            "prev_hash": revision.prev_hash, "hash": revision.hash}


def round_detail(rnd: Round, *, seats: list[Seat] | None = None, tournament: Tournament | None = None) -> dict:
    """The API's round: ``id, table, number, status, disputed, dispute_message, revision,
    leader|banker, entered_by, confirmed_by, entered_by_entry, confirmed_by_entry (the entries
    proven with their code, else None), late, after_time, paper_sheet, record, result, players, outcome,
    warnings, created_at, updated_at``. ``record``/``result`` exactly as the engine saw and returned them;
    ``players`` by table seat position."""
    tournament = tournament or rnd.table.session.tournament
    info = get_game(tournament.game)
    seats = seats if seats is not None else deal_seats(rnd.table, table_seats(rnd.table))(rnd.number)
    rev = rnd.current_revision
    built = built_for_revision(game=tournament.game, record=rev.record, body=rev.body, n=len(seats))
    players, outcome = result_by_position(built=built, result=rev.result, seats=seats)
    d: dict[str, Any] = {"id": rnd.pk, "table": rnd.table_id, "number": rnd.number, "status": rnd.status,
                         "counted": counts_round(tournament, rnd),
                         "disputed": rnd.disputed, "dispute_message": rnd.dispute_message,
                         "revision": rev.number}
    if info.has_leader:
        d["leader"] = rnd.leader
        d["next_leader"] = rnd.next_leader
    if info.has_banker:
        d["banker"] = rnd.banker
        d["next_banker"] = rnd.next_banker
    d.update({"entered_by": rnd.entered_by, "confirmed_by": rnd.confirmed_by,
              "entered_by_entry": rnd.entered_by_entry_id, "confirmed_by_entry": rnd.confirmed_by_entry_id,
              "confirmed_by_director": rnd.confirmed_by_user.get_username() if rnd.confirmed_by_user_id else None,
              "void_reason": rnd.void_reason, "late": rnd.late, "after_time": rnd.after_time,
              "paper_sheet": rnd.paper_sheet,
              "record": rev.record, "result": rev.result, "players": players, "outcome": outcome,
              "warnings": [{**w, "path": built.body_path(w.get("path", ""))} for w in rev.result.get("warnings", [])],
              "created_at": rnd.created_at, "updated_at": rnd.updated_at})
    return d


def round_list(table: Table, *, newest_first: bool = False) -> QuerySet[Round]:
    """The table's deals (voided ones too) in order, or newest first, ready for
    ``round_details``: slice or page it first."""
    return (Round.objects.filter(table=table).select_related("current_revision", "confirmed_by_user")
            .order_by("-number" if newest_first else "number"))


def round_details(table: Table, rounds: Iterable[Round], *, seats: list[Seat] | None = None) -> list[dict]:
    """``round_detail`` of some of the table's deals, its seats read once for all (``seats``:
    today's; each deal names the players who played it)."""
    at = deal_seats(table, seats if seats is not None else table_seats(table))
    tournament = table.session.tournament
    return [round_detail(r, seats=at(r.number), tournament=tournament) for r in rounds]


def round_history(table: Table, *, include_voided: bool = True, newest_first: bool = False,
                  offset: int = 0, limit: int | None = None, seats: list[Seat] | None = None) -> list[dict]:
    """The table's deals as ``round_detail`` dicts, in order (or newest first), at most ``limit``
    of them from the ``offset``-th: the slice is taken in the database, so a long table costs
    nothing extra."""
    qs = round_list(table, newest_first=newest_first)
    if not include_voided:
        qs = qs.exclude(status=Round.Status.VOIDED)
    qs = qs[offset:offset + limit] if limit is not None else qs[offset:]
    return round_details(table, qs, seats=seats)


def round_revisions(rnd: Round) -> list[dict]:
    """The full history of a deal, oldest first (see ``revision_detail``)."""
    seats = deal_seats(rnd.table, table_seats(rnd.table))(rnd.number)
    game = rnd.table.session.tournament.game
    return [revision_detail(rev, seats=seats, game=game)
            for rev in RoundRevision.objects.filter(round=rnd).order_by("number")]


def round_revisions_checked(rnd: Round, *, seats: list[Seat] | None = None) -> tuple[list[dict], ChainReport]:
    """A deal's revisions newest first (``revision_detail``, with ``after_dispute``: made after
    its open dispute was raised) and its hash chain checked (``verify_chain``): what the
    director's table page shows of one deal when asked. ``seats``: the table's today; the
    revisions name the players who played the deal."""
    seats = deal_seats(rnd.table, seats if seats is not None else table_seats(rnd.table))(rnd.number)
    revs = list(RoundRevision.objects.filter(round=rnd).order_by("number"))
    game = rnd.table.session.tournament.game
    details = [revision_detail(rev, seats=seats, game=game) for rev in reversed(revs)]
    raised = rnd.disputed_at if rnd.disputed else None
    for rev in details:
        # an open dispute's deal changed since the referee was called: the director is told
        rev["after_dispute"] = bool(raised and rev["created_at"] > raised)
    return details, verify_chain(revs, rnd.current_revision_id)


def round_rows(table: Table, *, newest_first: bool = True, offset: int = 0, limit: int | None = None,
               seats: list[Seat] | None = None) -> list[dict]:
    """The table's deals for its pages: ``round_detail`` dicts plus ``entered_by_name``,
    ``confirmed_by_name`` and ``confirm_options`` (``(position, name)`` of the seats that may
    confirm: all but the one that entered it); newest first unless asked otherwise."""
    rows = round_history(table, newest_first=newest_first, offset=offset, limit=limit, seats=seats)
    for d in rows:
        names = [p["name"] for p in d["players"]]
        d["entered_by_name"] = names[d["entered_by"]] if isinstance(d.get("entered_by"), int) else None
        d["confirmed_by_name"] = names[d["confirmed_by"]] if isinstance(d.get("confirmed_by"), int) else None
        d["confirm_options"] = [(p["position"], p["name"]) for p in d["players"] if p["position"] != d.get("entered_by")]
    return rows


#: Deals on a page of the director's table page.
TABLE_PAGE_SIZE = 20


def table_deals_page(table: Table, asked: int | None, *, seats: list[Seat] | None = None) -> Page:
    """Page ``asked`` (``domain.paging``: clamped; 1 is the newest deals) of the table's deals,
    newest first, as ``round_rows``. Two statements whatever the table's length: its count and
    the page's deals with their current revisions.

    A deal's earlier revisions are read when asked (``round_revisions_checked``); ``revision``,
    its current revision's number, says how many it has (numbered 1, 2, … with none missing,
    which the chain check and the audits hold). No chain is checked here: every revision of
    every deal is walked by the replay audit, in a worker (``services.audits``); a page drawn
    after every confirm must not re-hash the whole table."""
    count = Round.objects.filter(table=table).count()
    number, pages, offset = page_window(count, asked, TABLE_PAGE_SIZE)
    rows = round_rows(table, offset=offset, limit=TABLE_PAGE_SIZE, seats=seats)
    return Page(items=rows, number=number, pages=pages, count=count, size=TABLE_PAGE_SIZE)


def table_page_of(rnd: Round) -> int:
    """The page of ``table_deals_page`` that shows the deal ``rnd`` (a move's answer returns there)."""
    return table_page_of_number(rnd.table_id, rnd.number)


def table_page_of_number(table_id: int, number: int) -> int:
    """The page of ``table_deals_page`` that shows the table's deal numbered ``number``."""
    newer = Round.objects.filter(table_id=table_id, number__gt=number).count()
    return newer // TABLE_PAGE_SIZE + 1


def disputed_rounds(tournament: Tournament) -> QuerySet[Round]:
    return (Round.objects.filter(table__session__tournament=tournament, disputed=True)
            .select_related("table__session__tournament", "current_revision", "confirmed_by_user")
            .order_by("disputed_at"))
