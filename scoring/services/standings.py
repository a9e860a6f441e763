"""Standings: every entry's total over the counted deals.

They are kept exact in the write itself: each service that changes what a deal counts for
applies the difference to the standing rows of the deal's players (``standings_apply``), in
the same transaction. So standings are right the moment a deal commits and depend on no broker.
A full recomputation (``standings_refresh``) checks them and repairs any drift: after bulk
changes, when a tournament finishes, nightly (Celery beat) and in audits.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Case, F, IntegerField, Value, When

from ..actors import Actor
from ..models import ActionLog, Entry, Round, RoundRevision, Seat, Standing, Tournament
from ..records import nets_by_position
from ..selectors.standings import counts_round, tournament_totals
from .common import action_log


def table_entries(table_id: int) -> list[int]:
    """The entry ids of a table by seat position."""
    return list(Seat.objects.filter(table_id=table_id).order_by("position").values_list("entry_id", flat=True))


def standings_apply(*, tournament: Tournament, entries: list[int], revisions: Iterable[tuple[int, RoundRevision]]) -> None:
    """Add (sign +1) or take out (sign −1) deals' nets and counts to the standing rows of the
    table's ``entries`` (by seat position): one UPDATE, whatever the number of seats."""
    delta = [0] * len(entries)
    count = 0
    for sign, revision in revisions:
        nets = nets_by_position(game=tournament.game, body=revision.body, result=revision.result, n=len(entries))
        for pos, net in enumerate(nets):
            delta[pos] += sign * net
        count += sign
    if count == 0 and not any(delta):
        return
    Standing.objects.filter(tournament=tournament, entry_id__in=entries).update(
        total=F("total") + Case(*[When(entry_id=e, then=Value(d)) for e, d in zip(entries, delta)],
                                default=Value(0), output_field=IntegerField()),
        rounds_counted=F("rounds_counted") + count)


def standings_follow(*, tournament: Tournament, round: Round, entries: list[int] | None, counted_before: bool,
                     before: RoundRevision | None, after: RoundRevision | None) -> None:
    """Bring the standings along after a deal changed: out with what it counted for before
    (``before``, if it counted), in with what it counts for now (``after``, if it counts)."""
    counted_now = counts_round(tournament, round)
    revisions = []
    if counted_before and before is not None:
        revisions.append((-1, before))
    if counted_now and after is not None:
        revisions.append((+1, after))
    if len(revisions) == 2 and revisions[0][1].pk == revisions[1][1].pk:
        return  # the same revision out and in: nothing changes
    if revisions:
        standings_apply(tournament=tournament, entries=entries if entries is not None else table_entries(round.table_id),
                        revisions=revisions)


def standings_refresh(*, tournament: Tournament, actor: Actor | None = None) -> list[Standing]:
    """Recompute every entry's total from the counted deals (confirmed ones when the
    tournament requires confirmation, else all but voided) and write what differs. Upkeep that
    changes nothing writes no audit row; a repair (the kept standings had drifted) writes one."""
    actor = actor or Actor.system()
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        rows, repaired = standings_recompute(tournament=tournament)
        if repaired:
            action_log(actor, ActionLog.Action.STANDINGS_REPAIR, tournament, tournament=tournament,
                       data={"entries": repaired})
    return rows


def standings_check_running(*, actor: Actor | None = None) -> int:
    """``standings_refresh`` for every running tournament, each in its own transaction.
    Returns how many were checked."""
    checked = 0
    for tournament in Tournament.objects.filter(status=Tournament.Status.RUNNING).order_by("pk"):
        standings_refresh(tournament=tournament, actor=actor)
        checked += 1
    return checked


def standings_recompute(*, tournament: Tournament) -> tuple[list[Standing], dict]:
    """Write the from-scratch standings inside the caller's transaction (which holds the
    tournament's lock). Returns the rows and what differed: ``{entry id: {"kept", "recomputed"}}``."""
    totals = tournament_totals(tournament)
    kept = {s.entry_id: s for s in Standing.objects.filter(tournament=tournament)}
    rows, differed = [], {}
    for entry_id in Entry.objects.filter(tournament=tournament).values_list("pk", flat=True):
        total, counted = totals.get(entry_id, (0, 0))
        st = kept.get(entry_id)
        if st is None:
            st = Standing.objects.create(tournament=tournament, entry_id=entry_id, total=total, rounds_counted=counted)
        elif (st.total, st.rounds_counted) != (total, counted):
            differed[str(entry_id)] = {"kept": [st.total, st.rounds_counted], "recomputed": [total, counted]}
            st.total, st.rounds_counted = total, counted
            st.save(update_fields=["total", "rounds_counted", "updated_at"])
        rows.append(st)
    return rows, differed
