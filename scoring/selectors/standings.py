"""Which deals count, the tournament's totals, standings and payouts."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Q

from ..models import Entry, Round, Seat, Standing, Tournament
from ..records import nets_by_position
from .tournaments import entry_list


def counts_round(tournament: Tournament, rnd: Round) -> bool:
    """A deal counts unless voided; with ``require_confirmation`` only once confirmed."""
    if rnd.status == Round.Status.VOIDED:
        return False
    if tournament.require_confirmation:
        return rnd.status == Round.Status.CONFIRMED
    return True


def counted_rounds_filter(tournament: Tournament) -> Q:
    """``counts_round`` as a query filter."""
    if tournament.require_confirmation:
        return Q(status=Round.Status.CONFIRMED)
    return ~Q(status=Round.Status.VOIDED)


def tournament_totals(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """entry id → (total, deals counted) over every counted deal of the tournament."""
    out: dict[int, list[int]] = {}
    seats_by_table: dict[int, list[int]] = {}
    for table_id, entry_id in (Seat.objects.filter(table__session__tournament=tournament)
                               .order_by("table_id", "position").values_list("table_id", "entry_id")):
        seats_by_table.setdefault(table_id, []).append(entry_id)
    rounds = (Round.objects.filter(table__session__tournament=tournament).filter(counted_rounds_filter(tournament))
              .values_list("table_id", "current_revision__body", "current_revision__result"))
    for table_id, body, result in rounds:
        entries = seats_by_table.get(table_id, [])
        for pos, net in enumerate(nets_by_position(game=tournament.game, body=body, result=result, n=len(entries))):
            acc = out.setdefault(entries[pos], [0, 0])
            acc[0] += net
            acc[1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def standings_for(tournament: Tournament, *, entries: list[Entry] | None = None) -> list[dict]:
    """Rows ``rank, entry, player, name, total, rounds_counted, payout, currency, updated_at``
    by total (best first); ``payout`` = total × chip value. Entries without a Standing row yet
    count 0. Ties share a rank. ``entries``: the tournament's entries if already read."""
    standings = {s.entry_id: s for s in Standing.objects.filter(tournament=tournament)}
    rows = []
    for e in entries if entries is not None else entry_list(tournament):
        st = standings.get(e.pk)
        total = st.total if st else 0
        rows.append({"entry": e.pk, "player": e.player_id, "name": e.player.name, "total": total,
                     "rounds_counted": st.rounds_counted if st else 0,
                     "payout": (Decimal(total) * tournament.chip_value).quantize(Decimal("0.01")),
                     "currency": tournament.currency, "updated_at": st.updated_at if st else None})
    rows.sort(key=lambda r: (-r["total"], r["name"]))
    rank, prev = 0, None
    for i, r in enumerate(rows, start=1):
        if r["total"] != prev:
            rank, prev = i, r["total"]
        r["rank"] = rank
    return rows


def payouts_for(tournament: Tournament) -> list[dict]:
    """What each entry wins (+) or pays (-) in money: ``name, total, payout, currency``
    (total × the tournament's chip value), best first."""
    return [{"entry": r["entry"], "name": r["name"], "total": r["total"], "payout": r["payout"],
             "currency": r["currency"]} for r in standings_for(tournament)]
