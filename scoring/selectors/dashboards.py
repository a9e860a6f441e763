"""What a director's tournament page (the console) shows: the same size, in the same number of
queries, at 10 deals or 10,000. The tables are one session's (the newest open one unless
another is asked for); the long lists (disputes, unsettled deals, recent actions) come a page at
a time; the tournament's figures are counts."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db.models import Count, Exists, Max, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain.clock import clock_state, still_playing
from scoring.domain.errors import NotFound
from scoring.domain.outbox import is_silent
from scoring.domain.paging import Page, page_window
from scoring.domain.standings import DEFAULT_TIE_BREAKS, tie_break_labels
from scoring.models import ActionLog, Round, RoundRevision, Seat, Session, Substitution, Table, Tournament
from scoring.selectors.adjustments import with_adjustment_lines
from scoring.selectors.common import table_order
from scoring.selectors.rounds import disputed_rounds, revision_detail, round_detail
from scoring.selectors.standings import standings_for
from scoring.selectors.substitutions import deal_seats, seat_histories
from scoring.selectors.tournaments import entry_list, tournament_unsettled_deals, unconfirmed_filter

#: Rows a page of the console's long lists: the deals a finish leaves unsettled, recent actions.
PAGE_SIZE = 20
#: Disputes a page: each shows its deal and a settle form.
DISPUTES_PAGE_SIZE = 10


def shown_session(sessions: list[Session], number: int | None) -> Session | None:
    """The session whose tables the console shows (``sessions`` by number): session ``number``
    (NotFound when there is none such), else the newest open one that has tables (a session
    opened for check-in, not seated yet, is shown when asked for or when no other is open), else
    the newest open one, else the newest; None before any. ``seated``: annotated by
    ``console_live`` (a session without it counts as seated)."""
    if number is not None:
        for s in sessions:
            if s.number == number:
                return s
        raise NotFound(gettext("No such session."))
    open_ones = [s for s in sessions if not s.is_closed]
    seated = [s for s in open_ones if getattr(s, "seated", True)]
    return (seated or open_ones or sessions or [None])[-1]


def _table_counts(tournament: Tournament) -> dict[int, dict]:
    """Each table's deals (not voided), open disputes, unconfirmed and unsettled deals (those a
    finish leaves as they are: unconfirmed where only confirmed deals count, or disputed) and when its latest deal was recorded:
    one aggregate, a row per table that has deals."""
    # (named apart from the deal's own fields: an annotation called "disputed" would stand for
    # the field in the filters that follow it)
    unconfirmed = unconfirmed_filter(tournament)
    rows = (Round.objects.filter(table__session__tournament=tournament).order_by().values("table")
            .annotate(n_rounds=Count("id", filter=~Q(status=Round.Status.VOIDED)),
                      n_disputed=Count("id", filter=Q(disputed=True)),
                      n_unconfirmed=Count("id", filter=unconfirmed),
                      # a voided deal is never disputed (voiding settles the dispute)
                      n_unsettled=Count("id", filter=unconfirmed | Q(disputed=True)),
                      last_at=Max("created_at")))
    return {row["table"]: {"rounds": row["n_rounds"], "disputed": row["n_disputed"],
                           "unconfirmed": row["n_unconfirmed"], "unsettled": row["n_unsettled"],
                           "last_at": row["last_at"]} for row in rows}


def _table_rows(session: Session | None, counts: dict[int, dict], now: datetime) -> dict | None:
    """The shown session's grid: ``{"session", "clock", "still_playing" (its tables whose time is
    up that recorded no deal since), "tables": [{"table", "seats" (position, name), "history" (the
    seats where players were substituted: ``substitutions.seat_histories``), "rounds",
    "disputed", "unconfirmed", "last_deal_at", "minutes_since" (whole minutes since the latest
    deal, None before any), "still_playing", "scorer_token_created_at", "heard_minutes" (whole
    minutes since the table's phone was last heard, None before it was), "outbox" (how many items
    it said its outbox held), "silent" (an open session's table whose phone was heard, but not for
    more than ``outbox.SILENT_AFTER``)}]}``; None without a session."""
    if session is None:
        return None
    seats = Prefetch("seats", queryset=Seat.objects.select_related("entry__player").order_by("position"))
    # whether a table had a substitution comes with the tables: the histories are read only then
    tables = list(Table.objects.filter(session=session).select_related("session").prefetch_related(seats)
                  .annotate(substituted=Exists(Substitution.objects.filter(table=OuterRef("pk"))))
                  .order_by(*table_order()))
    histories = seat_histories([t for t in tables if t.substituted])
    rows = []
    for t in tables:
        c = counts.get(t.pk, {})
        last_at = c.get("last_at")
        rows.append({
            "table": t, "seats": [{"position": s.position, "name": s.entry.player.name} for s in t.seats.all()],
            "history": histories.get(t.pk, []),
            "rounds": c.get("rounds", 0), "disputed": c.get("disputed", 0), "unconfirmed": c.get("unconfirmed", 0),
            "last_deal_at": last_at,
            "minutes_since": None if last_at is None else max(0, int((now - last_at).total_seconds()) // 60),
            # Time is up: an open session's tables that recorded no deal since (still finishing one).
            "still_playing": not session.is_closed and still_playing(session.clock_ends_at, last_at, now),
            "scorer_token_created_at": t.scorer_token_created_at,
            # The phone, as it last said (the outbox of a scorer page: issue 28); no query, the
            # table's own columns.
            "heard_minutes": None if t.phone_heard_at is None
            else max(0, int((now - t.phone_heard_at).total_seconds()) // 60),
            "outbox": t.phone_outbox,
            "silent": not session.is_closed and is_silent(t.phone_heard_at, now=now),
        })
    return {"session": session, "clock": clock_state(session.clock_started_at, session.clock_ends_at, now),
            "still_playing": [r["table"] for r in rows if r["still_playing"]], "tables": rows}


def _disputes_page(tournament: Tournament, count: int, asked: int | None) -> Page:
    """Open disputes, oldest first, a page of ``round_detail`` dicts each with ``table_obj`` (its
    Table, session read) and ``_since_dispute``'s ``at_dispute`` and ``since_dispute``. The seats
    of every table with an open dispute come in one query, the page's revisions in another; each
    deal names the players who played it (a table's substitutions read only where it had one)."""
    number, pages, offset = page_window(count, asked, DISPUTES_PAGE_SIZE)
    # whether the deal's table had a substitution comes with the deal: its players are read only then
    substituted = Exists(Substitution.objects.filter(table=OuterRef("table_id")))
    rounds = list(disputed_rounds(tournament).annotate(substituted=substituted)[offset:offset + DISPUTES_PAGE_SIZE])
    seats: dict[int, list[Seat]] = {}
    for s in (Seat.objects.filter(table__session__tournament=tournament, table__rounds__disputed=True).distinct()
              .select_related("entry__player").order_by("table_id", "position")):
        seats.setdefault(s.table_id, []).append(s)
    # Every revision of the page's deals, in one query (a subquery of the same page, so that the
    # page costs the same with or without disputes on it).
    revisions: dict[int, list[RoundRevision]] = {}
    page_ids = disputed_rounds(tournament).values("pk")[offset:offset + DISPUTES_PAGE_SIZE]
    for rev in RoundRevision.objects.filter(round__in=page_ids).order_by("round_id", "number"):
        revisions.setdefault(rev.round_id, []).append(rev)
    items = []
    at: dict[int, Callable[[int], list[Seat]]] = {}   # a substituted table's seating, read once however many of its deals
    for r in rounds:
        table_seats = seats.get(r.table_id, [])
        if r.substituted:   # the players who played this deal
            if r.table_id not in at:
                at[r.table_id] = deal_seats(r.table, table_seats)
            table_seats = at[r.table_id](r.number)
        items.append({**round_detail(r, seats=table_seats, tournament=tournament), "table_obj": r.table,
                      **_since_dispute(r, revisions.get(r.pk, []), seats=table_seats, game=tournament.game)})
    return Page(items, number, pages, count, DISPUTES_PAGE_SIZE)


def _since_dispute(rnd: Round, revisions: list[RoundRevision], *, seats: list[Seat], game: str) -> dict:
    """What the referee is shown of a deal corrected after the dispute was raised: ``at_dispute``
    (``revision_detail`` of the revision the players disputed, None when it is still the
    current one) and ``since_dispute`` (each later revision's ``number, actor, reason,
    created_at``): a director judges the claim against the deal as it was, not as it became."""
    raised = rnd.disputed_at
    before = [rev for rev in revisions if raised is None or rev.created_at <= raised]
    after = [rev for rev in revisions if raised is not None and rev.created_at > raised]
    if not after or not before:
        return {"at_dispute": None, "since_dispute": []}
    return {"at_dispute": revision_detail(before[-1], seats=seats, game=game),
            "since_dispute": [{"number": rev.number, "actor": rev.actor_label, "reason": rev.reason,
                               "created_at": rev.created_at} for rev in after]}


def console_live(tournament: Tournament, *, session: int | None = None, disputes_page: int | None = None,
                 entries: list | None = None, now: datetime | None = None) -> dict:
    """The console's live parts: ``tournament``, ``sessions`` (every session by number, for the
    switcher), ``current`` (``_table_rows`` of ``shown_session(session)``), ``counts``
    (the tournament's ``unconfirmed``, ``disputed`` and ``unsettled`` deals), ``disputed`` (a
    ``Page`` of open disputes), ``standings`` (ranked, with their adjustments), ``tie_breaks``
    (in words).

    Ten queries, nine given ``entries`` (the tournament's, with their players), whatever the
    deals: sessions, counts by table, the shown session's tables and their seats, a page of
    disputes, the seats of the disputed tables, their revisions, the standings, the adjustments."""
    now = now or timezone.now()
    sessions = list(Session.objects.filter(tournament=tournament)
                    .annotate(seated=Exists(Table.objects.filter(session=OuterRef("pk")))).order_by("number"))
    current = shown_session(sessions, session)
    by_table = _table_counts(tournament)
    counts = {k: sum(row[k] for row in by_table.values()) for k in ("unconfirmed", "disputed", "unsettled")}
    return {
        "tournament": tournament,
        "sessions": sessions,
        "current": _table_rows(current, by_table, now),
        "counts": counts,
        "disputed": _disputes_page(tournament, counts["disputed"], disputes_page),
        "standings": with_adjustment_lines(standings_for(tournament, entries=entries), tournament),
        "tie_breaks": tie_break_labels(tournament.tie_breaks or DEFAULT_TIE_BREAKS),
    }


def tournament_dashboard(tournament: Tournament, *, session: int | None = None, disputes_page: int | None = None,
                         deals_page: int | None = None, actions_page: int | None = None,
                         now: datetime | None = None) -> dict:
    """The director's tournament page: ``console_live`` and ``entries``, ``unseated`` (entries
    without a seat in the newest session), ``unsettled`` (a ``Page`` of
    ``tournament_unsettled_deals``) and ``recent_actions`` (a ``Page`` of the log, newest
    first). Pages are asked by number (None: the first) and clamped to the list.

    A fixed number of queries (``console_live``'s, the entries, a page of unsettled deals, the
    log's count and a page of it) whatever the deals, tables or sessions.

    The QR code of a scorer link can only be drawn when the plain token is known: right after
    ``table_create`` / ``table_scorer_token_rotate`` (tokens are stored hashed). The console
    offers "rotate" instead."""
    newest = Session.objects.filter(tournament=tournament).order_by("-number").values("pk")[:1]
    entries = list(entry_list(tournament).annotate(
        seated=Exists(Seat.objects.filter(entry=OuterRef("pk"), table__session=Subquery(newest)))))
    data = console_live(tournament, session=session, disputes_page=disputes_page, entries=entries, now=now)
    number, pages, offset = page_window(data["counts"]["unsettled"], deals_page, PAGE_SIZE)
    unsettled = Page(tournament_unsettled_deals(tournament, offset=offset, limit=PAGE_SIZE), number, pages,
                     data["counts"]["unsettled"], PAGE_SIZE)
    logged = action_log_for(tournament)
    count = logged.count()
    number, pages, offset = page_window(count, actions_page, PAGE_SIZE)
    return {
        **data,
        "entries": entries,
        "unseated": [e for e in entries if not e.seated and e.withdrawn_at is None],
        "unsettled": unsettled,
        "recent_actions": Page(list(logged[offset:offset + PAGE_SIZE]), number, pages, count, PAGE_SIZE),
    }


def console_version(tournament: Tournament, *, now: datetime | None = None) -> str:
    """Changes whenever what the console's live parts show may have: one query that reads no
    deal, so that it costs the same at 10 deals or 10,000 (polled every few seconds by every
    console open). Every write logs a line with its tournament, in the write's transaction (the
    services do; ``tests/scoring/services/test_logged.py``): the newest line's id, found through
    the log's tournament index, stands for every deal, session, table, entry and settings change.
    Time does the rest: how many of its sessions' clocks have run out by ``now``, and the minute
    itself (the grid says how long ago each table's last deal was, and its phone last heard).
    The phones' outboxes are bookkeeping, not logged: what their open tables hold in all is read
    too (a table's tables, no deal)."""
    now = now or timezone.now()
    newest = ActionLog.objects.filter(tournament=OuterRef("pk")).order_by("-id").values("id")[:1]
    ended = (Session.objects.filter(tournament=OuterRef("pk"), clock_ends_at__lte=now).order_by()
             .values("tournament").annotate(c=Count("id")).values("c"))
    held = (Table.objects.filter(session__tournament=OuterRef("pk"), session__status=Session.Status.OPEN).order_by()
            .values("session__tournament").annotate(n=Sum("phone_outbox")).values("n"))
    row = (Tournament.objects.filter(pk=tournament.pk)
           .annotate(newest=Subquery(newest), ended=Subquery(ended), held=Subquery(held))
           .values_list("status", "newest", "ended", "held").first())
    status, newest_id, ended_count, held_count = row or ("", None, None, None)
    return f"{status}-{newest_id or 0}-{ended_count or 0}-{held_count or 0}-{int(now.timestamp()) // 60}"


def action_log_for(tournament: Tournament, *, limit: int | None = None) -> QuerySet[ActionLog]:
    """The tournament's log, newest first (at most ``limit`` lines)."""
    qs = ActionLog.objects.filter(tournament=tournament).order_by("-created_at", "-id")
    return qs if limit is None else qs[:limit]


def tournament_disputes(tournament: Tournament, *, page: int | None = None) -> Page:
    """The open disputes alone, a page as the console shows them (``_disputes_page``): the
    referee's page. One query more for the count."""
    count = disputed_rounds(tournament).count()
    return _disputes_page(tournament, count, page)
