"""What a director's tournament page shows, read in a fixed number of queries."""

from __future__ import annotations

from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone

from scoring.domain.clock import clock_state, still_playing
from scoring.domain.standings import DEFAULT_TIE_BREAKS

from scoring.models import ActionLog, Round, Tournament
from scoring.domain.records import nets_by_position
from scoring.selectors.rounds import disputed_rounds, round_detail
from scoring.domain.standings import TIE_BREAK_LABELS
from scoring.selectors.standings import counted_rounds_filter, standings_for
from scoring.selectors.tables import table_list
from scoring.selectors.tournaments import entry_list


def tournament_dashboard(tournament: Tournament) -> dict:
    """A director's tournament page: ``tournament``, ``disputed`` (round_detail dicts, oldest
    dispute first), ``sessions`` (each ``{"session", "clock"`` (``domain.clock.clock_state``),
    ``"still_playing"`` (the tables of an open session whose time is up that recorded no deal
    since, ``domain.clock.still_playing``), ``"tables": [{"table", "seats" (running totals),
    "rounds", "disputed", "unconfirmed", "last_round", "scorer_token_created_at"}]}``), ``entries``,
    ``unseated`` (entries still playing without a seat in the latest session), ``standings`` (ranked by
    ``tie_breaks``, in words) and ``recent_actions``.

    The number of queries does not grow with tables or deals: seats come prefetched with the
    tables, counts in one aggregate, running totals from one pass over the counted deals.

    The QR code of a scorer link can only be drawn when the plain token is known: right after
    ``table_create`` / ``table_scorer_token_rotate`` (tokens are stored hashed). The dashboard
    offers "rotate" instead."""
    tables = list(table_list(tournament))
    seats_of = {t.pk: sorted(t.seats.all(), key=lambda s: s.position) for t in tables}
    stats = {row["table"]: row for row in Round.objects.filter(table__session__tournament=tournament)
             .values("table").annotate(rounds=Count("id", filter=~Q(status=Round.Status.VOIDED)),
                                       disputed=Count("id", filter=Q(disputed=True)),
                                       unconfirmed=Count("id", filter=Q(status=Round.Status.RECORDED)),
                                       last=Max("number"))}
    last_rounds = {}
    if stats:
        pairs = Q()
        for table_id, row in stats.items():
            pairs |= Q(table_id=table_id, number=row["last"])
        last_rounds = {r.table_id: r for r in Round.objects.filter(pairs)}
    totals = {t.pk: [0] * len(seats_of[t.pk]) for t in tables}
    counted = {t.pk: 0 for t in tables}
    for table_id, body, result in (Round.objects.filter(table__session__tournament=tournament)
                                   .filter(counted_rounds_filter(tournament))
                                   .values_list("table_id", "current_revision__body", "current_revision__result")):
        row = totals[table_id]
        for pos, net in enumerate(nets_by_position(game=tournament.game, body=body, result=result, n=len(row))):
            row[pos] += net
        counted[table_id] += 1
    sessions: dict[int, dict] = {}
    for t in tables:
        st = stats.get(t.pk, {})
        seats = [{"position": s.position, "entry": s.entry_id, "player": s.entry.player_id,
                  "name": s.entry.player.name, "total": totals[t.pk][s.position], "rounds": counted[t.pk]}
                 for s in seats_of[t.pk]]
        sessions.setdefault(t.session.number, {"session": t.session, "tables": []})["tables"].append({
            "table": t, "seats": seats, "rounds": st.get("rounds", 0),
            "disputed": st.get("disputed", 0), "unconfirmed": st.get("unconfirmed", 0),
            "last_round": last_rounds.get(t.pk), "scorer_token_created_at": t.scorer_token_created_at,
        })
    for s in tournament.sessions.all():
        sessions.setdefault(s.number, {"session": s, "tables": []})
    now = timezone.now()
    for group in sessions.values():
        s = group["session"]
        group["clock"] = clock_state(s.clock_started_at, s.clock_ends_at, now)
        # Time is up: the tables of an open session that recorded no deal since (still finishing one).
        group["still_playing"] = [row["table"] for row in group["tables"] if not s.is_closed and still_playing(
            s.clock_ends_at, row["last_round"].created_at if row["last_round"] else None, now)]
    disputed = [round_detail(r, seats=seats_of[r.table_id], tournament=tournament)
                for r in disputed_rounds(tournament)]
    latest = max(sessions) if sessions else None
    seated = {s.entry_id for t in tables if t.session.number == latest for s in seats_of[t.pk]}
    entries = list(entry_list(tournament))
    return {
        "tournament": tournament,
        "disputed": disputed,
        "sessions": [sessions[k] for k in sorted(sessions)],
        "entries": entries,
        "unseated": [e for e in entries if e.pk not in seated and e.withdrawn_at is None],
        "standings": standings_for(tournament, entries=entries),
        "tie_breaks": [TIE_BREAK_LABELS[k] for k in tournament.tie_breaks or DEFAULT_TIE_BREAKS],
        "recent_actions": list(action_log_for(tournament, limit=20)),
    }


def action_log_for(tournament: Tournament, *, limit: int = 100) -> QuerySet[ActionLog]:
    return ActionLog.objects.filter(tournament=tournament).order_by("-created_at", "-id")[:limit]
