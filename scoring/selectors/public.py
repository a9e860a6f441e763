"""What the public pages read: a public tournament by its slug, a player's deals, a table's
deals a page at a time and those changed after a cursor, and the cheap "version" the live
pages poll.

Only public tournaments that have started are shown; anything else (private, draft, unknown
slug, another tournament's player or table) is NotFound, the same answer for each, so that a
visitor cannot tell a private tournament from none. Nothing private is handed out: no scorer
token or its date, no actor, no dispute message, no void reason.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone
from typing import Any

from django.db.models import Case, Count, Max, OuterRef, Q, Subquery, Value, When
from django.utils import timezone
from django.utils.translation import gettext

from games import get_game
from scoring.domain.errors import NotFound
from scoring.domain.inputs import MAX_ID, parse_whole_number
from scoring.domain.paging import Page, page_window
from scoring.domain.records import nets_by_position
from scoring.domain.replay import line_steps, seat_tiles
from scoring.domain.standings import deal_counts
from scoring.models import PUBLICLY_VISIBLE, Entry, Round, Seat, Session, Substitution, Table, Tournament
from scoring.selectors.common import table_order
from scoring.selectors.rounds import round_detail, round_list
from scoring.selectors.standings import counted_rounds_filter
from scoring.selectors.substitutions import seated_deals, seatings_of
from scoring.selectors.tables import table_seats


def public_tournament(slug: Any) -> Tournament:
    """A tournament anyone may see (``PUBLICLY_VISIBLE``: public, running or finished; its slug
    is unique among those); NotFound for anything else."""
    try:
        return Tournament.objects.select_related("club").filter(PUBLICLY_VISIBLE).get(slug=str(slug))
    except Tournament.DoesNotExist:
        raise NotFound(gettext("No such tournament.")) from None


def _row_id(value: Any) -> int:
    """A row id as given (an int from the URL, or its text); 0, which no row has, for anything
    else, among them ids larger than the database holds (SQLite refuses to compare with them)."""
    return parse_whole_number(str(value), low=1, high=MAX_ID) or 0


def public_entry(tournament: Tournament, player_id: Any) -> Entry:
    """The tournament's entry of this player (by player id); NotFound otherwise."""
    try:
        return Entry.objects.select_related("player").get(tournament=tournament, player_id=_row_id(player_id))
    except Entry.DoesNotExist:
        raise NotFound(gettext("No such player in this tournament.")) from None


def public_table(tournament: Tournament, table_id: Any) -> Table:
    """A table of this tournament; NotFound otherwise."""
    try:
        return Table.objects.select_related("session").get(pk=_row_id(table_id), session__tournament=tournament)
    except Table.DoesNotExist:
        raise NotFound(gettext("No such table in this tournament.")) from None


def public_tables(tournament: Tournament, page: int | None, size: int) -> Page:
    """One page of the tournament's tables (``page``, clamped to the pages there are, of
    ``size``), by session then by number, with their session (two queries: the count, the page)."""
    tables = Table.objects.filter(session__tournament=tournament)
    count = tables.count()
    number, pages, offset = page_window(count, page, size)
    items = list(tables.select_related("session").order_by("session__number", *table_order())[offset:offset + size])
    return Page(items=items, number=number, pages=pages, count=count, size=size)


def _fingerprint(row) -> str:
    raw = "|".join(v.isoformat() if hasattr(v, "isoformat") else str(v) for v in row)
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


def _deals_version(rounds):
    """How many deals there are and the latest change to any of them (every deal write saves
    its Round, which stamps ``updated_at``): two subqueries over ``rounds`` (grouped by the
    outer row)."""
    return {"n": Subquery(rounds.annotate(c=Count("id")).values("c")),
            "latest": Subquery(rounds.annotate(m=Max("updated_at")).values("m"))}


def tournament_version(tournament: Tournament) -> str:
    """Changes whenever a deal of the tournament is recorded, corrected, confirmed, voided or
    disputed, a session of it changes (closed, reopened, its clock started or stopped:
    ``changed_at``) or its clock runs out, or the tournament changes status (one query)."""
    rounds = (Round.objects.filter(table__session__tournament=OuterRef("pk")).order_by()
              .values("table__session__tournament"))
    sessions = Session.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    row = (Tournament.objects.filter(pk=tournament.pk)
           .annotate(**_deals_version(rounds),
                     changed=Subquery(sessions.annotate(m=Max("changed_at")).values("m")),
                     ended=Subquery(sessions.annotate(c=Count("id", filter=Q(clock_ends_at__lte=timezone.now())))
                                    .values("c")))
           .values_list("n", "latest", "changed", "ended").first())
    return _fingerprint(row or ()) + tournament.status


def table_version(table: Table) -> str:
    """Changes whenever a deal of the table changes, or its session does (as above) (one query)."""
    rounds = Round.objects.filter(table=OuterRef("pk")).order_by().values("table")
    row = (Table.objects.filter(pk=table.pk)
           .annotate(**_deals_version(rounds),
                     ended=Case(When(session__clock_ends_at__lte=timezone.now(), then=Value(1)), default=Value(0)))
           .values_list("n", "latest", "session__changed_at", "ended").first())
    return _fingerprint(row or ())


def player_deals(tournament: Tournament, entry: Entry) -> dict:
    """Every counted deal the entry played, in the order they were recorded: ``deals`` (each
    ``table, table_name, session, number, created_at, net, total`` — ``total`` the running net
    after it) and ``total``. Three queries, whatever the deals (the seats, the substitutions, the
    deals): a table where players were substituted counts only the deals the entry played there."""
    left = Substitution.objects.filter(entry_out=entry).values("table_id")
    seats = list(Seat.objects.filter(Q(table__seats__entry=entry) | Q(table_id__in=left),
                                     table__session__tournament=tournament).distinct()
                 .select_related("table__session").order_by("table_id", "position"))
    by_table: dict[int, list[Seat]] = {}
    for s in seats:
        by_table.setdefault(s.table_id, []).append(s)
    current = {t: [s.entry_id for s in row] for t, row in by_table.items()}
    changed = {t: seating for t, seating in seatings_of(current).items() if seating.changes}
    position = {table_id: next((s.position for s in row if s.entry_id == entry.pk), None)
                for table_id, row in by_table.items()}
    rounds = (Round.objects.filter(table_id__in=list(by_table)).filter(counted_rounds_filter(tournament))
              .order_by("created_at", "id")
              .values_list("table_id", "number", "created_at", "current_revision__body", "current_revision__result"))
    deals, total = [], 0
    for table_id, number, created_at, body, result in rounds:
        row = by_table[table_id]
        at = position[table_id]
        if table_id in changed:
            played = changed[table_id].at(number)
            at = played.index(entry.pk) if entry.pk in played else None
        if at is None:
            continue  # another player sat in the seat for this deal
        net = nets_by_position(game=tournament.game, body=body, result=result, n=len(row))[at]
        total += net
        table = row[0].table
        deals.append({"table": table_id, "table_name": table.name, "session": table.session.number,
                      "number": number, "created_at": created_at, "net": net, "total": total})
    return {"deals": deals, "total": total}


#: How many deals a public table page shows, newest first; older ones are on further pages.
TABLE_PAGE_SIZE = 20
#: A live answer with more changed deals than this (a phone back after a long time offline, a
#: director's bulk change) sends the page's whole list again instead: never more than a page.
LIVE_CHANGES_MOST = TABLE_PAGE_SIZE
#: The cursor handed out never comes closer to now than this, so the deals changed in the last
#: seconds are asked for again: two writes to different deals of a table (a dispute, a new
#: deal) do not share a lock, so the later stamp can commit first; and the app servers' clocks
#: may differ a little. Items are replaced by key, so a deal sent twice does no harm.
CHANGE_OVERLAP = timedelta(seconds=10)

_EPOCH = datetime(1970, 1, 1, tzinfo=dt_timezone.utc)
_MICROSECOND = timedelta(microseconds=1)
#: The largest cursor a datetime can hold (year 9999).
MAX_CURSOR = (datetime.max.replace(tzinfo=dt_timezone.utc) - _EPOCH) // _MICROSECOND


def cursor_of(latest: datetime | None) -> int:
    """What a page hands back (``?after=``) having seen every change up to ``latest``: that time,
    or ``CHANGE_OVERLAP`` before now if that is earlier, in microseconds since 1970; 0 when
    nothing changed yet."""
    if latest is None:
        return 0
    return (min(latest, timezone.now() - CHANGE_OVERLAP) - _EPOCH) // _MICROSECOND


def read_cursor(text: Any) -> datetime | None:
    """The time a cursor from the URL names; None for no cursor or a malformed one."""
    n = parse_whole_number(text, low=0, high=MAX_CURSOR) if isinstance(text, str) else None
    return None if n is None else _EPOCH + n * _MICROSECOND


def _table_summary(tournament: Tournament, table: Table, seats: list[Seat]) -> dict:
    """``seats`` (position, player, name, total over the counted deals), ``shown`` (the deals
    not voided) and ``cursor`` (the latest change to any deal): one query over every deal."""
    n = len(seats)
    totals = [0] * n
    shown, latest = 0, None
    # Of the body only its leader (the seats' order), of the result only its seats: a full move
    # log is most of a deal's bytes, and this runs for every viewer after every deal.
    rows = Round.objects.filter(table=table).order_by().values_list(
        "status", "current_revision_id", "updated_at", "current_revision__body__leader",
        "current_revision__result__seats")
    for status, revision, updated_at, leader, result_seats in rows:
        latest = updated_at if latest is None or updated_at > latest else latest
        shown += status != Round.Status.VOIDED
        if deal_counts(status=status, has_revision=revision is not None,
                       require_confirmation=tournament.require_confirmation):
            body = {} if leader is None else {"leader": leader}
            result = {"seats": result_seats or []}
            for pos, net in enumerate(nets_by_position(game=tournament.game, body=body, result=result, n=n)):
                totals[pos] += net
    return {"seats": [{"position": s.position, "player": s.entry.player_id, "name": s.entry.player.name,
                       "total": totals[s.position]} for s in seats],
            "shown": shown, "cursor": cursor_of(latest)}


def _public_deals(tournament: Tournament, rounds, seats: list[Seat], at: Callable[[int], list[Seat]]) -> list[dict]:
    """Deals for everyone, each ``number, counted, disputed, late, created_at, stamp`` (its last
    change, in microseconds since 1970), ``players`` (by
    table position: name, net, …), ``outcome``, ``tiles`` (``replay.seat_tiles``) and
    ``replay`` (``replay.line_steps``, a full log only). ``at``: the seats of a deal
    (``substitutions.deal_seats``), each deal naming the players who played it."""
    n = len(seats)
    info = get_game(tournament.game)
    fields = tuple(dict.fromkeys((*info.per_seat_fields, "left_in_hand")))
    deals = []
    for rnd in rounds:
        d = round_detail(rnd, seats=at(rnd.number), tournament=tournament)
        deals.append({"id": d["id"], "number": d["number"], "counted": d["counted"], "created_at": d["created_at"],
                      "late": d["late"], "disputed": d["disputed"],
                      "stamp": (rnd.updated_at - _EPOCH) // _MICROSECOND,
                      "players": d["players"], "outcome": d["outcome"],
                      # The body holds the tiles by table position; the record the moves in playing order.
                      "tiles": seat_tiles(rnd.current_revision.body, fields, n),
                      "replay": line_steps(rnd.current_revision.record)})
    return deals


def public_table_deals(tournament: Tournament, table: Table, page: int = 1, *, clamp: bool = False) -> dict:
    """One page of the table's deals for everyone (voided ones left out), newest first:
    ``seats`` and ``shown`` and ``cursor`` (``_table_summary``), ``deals`` (``_public_deals``),
    ``page`` and ``pages`` (at least 1). A page past the last is NotFound, or the last one with
    ``clamp``. Four queries, whatever the deals (the fourth: the seats' substitutions)."""
    seats = table_seats(table)
    at, history = seated_deals(table, seats)
    summary = {**_table_summary(tournament, table, seats), "history": history}
    pages = max(1, -(-summary["shown"] // TABLE_PAGE_SIZE))
    if page > pages and not clamp:
        raise NotFound(gettext("No such page."))
    page = min(page, pages)
    start = (page - 1) * TABLE_PAGE_SIZE
    rounds = round_list(table, newest_first=True).exclude(status=Round.Status.VOIDED)[start:start + TABLE_PAGE_SIZE]
    return {**summary, "deals": _public_deals(tournament, rounds, seats, at), "page": page, "pages": pages}


def public_table_changes(tournament: Tournament, table: Table, since: datetime, page: int = 1) -> dict:
    """What changed at the table after ``since`` (``read_cursor``): the
    summary as above, ``deals`` changed and not voided (newest first), ``gone`` (the numbers of
    those voided). More than ``LIVE_CHANGES_MOST`` changed: ``public_table_deals`` of ``page``
    (clamped) with ``reset`` true instead."""
    changed = list(round_list(table, newest_first=True).filter(updated_at__gt=since)
                   [:LIVE_CHANGES_MOST + 1])
    if len(changed) > LIVE_CHANGES_MOST:
        return {**public_table_deals(tournament, table, page, clamp=True), "reset": True}
    seats = table_seats(table)
    kept = [r for r in changed if r.status != Round.Status.VOIDED]
    at, history = seated_deals(table, seats)
    summary = {**_table_summary(tournament, table, seats), "history": history}
    # The pagers are live parts of this answer too: without the page and the count they came back empty.
    pages = max(1, -(-summary["shown"] // TABLE_PAGE_SIZE))
    return {**summary, "reset": False, "page": min(page, pages), "pages": pages,
            "deals": _public_deals(tournament, kept, seats, at),
            "gone": [r.number for r in changed if r.status == Round.Status.VOIDED]}
