"""Standings: every entry's figures over the counted deals — net, deals played, wins, places,
when it last played.

They are kept exact in the write itself: each service that changes what a deal counts for
applies the difference to the standing rows of the deal's players (``standings_apply``), in
the same transaction. So standings are right the moment a deal commits and depend on no broker.
A full recomputation (``standings_refresh``) checks them and repairs any drift: after bulk
changes, when a tournament finishes, nightly (Celery beat) and in audits.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models import Case, DateTimeField, F, IntegerField, OuterRef, Subquery, Value, When
from django.utils import timezone

from scoring.domain.actors import Actor
from scoring.domain.records import outcomes_by_position
from scoring.domain.standings import Figures, counts_round
from scoring.models import ActionLog, Entry, Round, RoundRevision, Seat, Standing, Tournament
from scoring.selectors.standings import counted_rounds_filter, place_count, tournament_figures
from scoring.services.common import action_log
from scoring.services.events import STANDING_COLUMNS, standing_row


def table_entries(table_id: int) -> list[int]:
    """The entry ids of a table by seat position."""
    return list(Seat.objects.filter(table_id=table_id).order_by("position").values_list("entry_id", flat=True))


def _by_entry(entries: list[int], values: list[int]) -> tuple[str, list]:
    """``CASE entry_id WHEN e THEN v … ELSE 0 END`` (only the non-zero values) and its parameters."""
    whens, params = [], []
    for e, v in zip(entries, values):
        if v:
            whens.append("WHEN %s THEN %s")
            params += [e, v]
    return f"CASE \"entry_id\" {' '.join(whens)} ELSE 0 END", params


def standings_apply(*, tournament: Tournament, entries: list[int], round: Round,
                    revisions: Iterable[tuple[int, RoundRevision]]) -> list[dict]:
    """Add (sign +1) or take out (sign −1) revisions of ``round`` — their nets, wins, places
    and the deal itself — to the standing rows of the table's ``entries`` (by seat position):
    one UPDATE, whatever the number of seats.

    The last deal time only grows when a deal goes in, so it is a ``max`` in the same UPDATE.
    When a deal goes out for good (a void) it is read again from the entries' counted deals, in
    the UPDATE too, after locking the rows: then a deal another table commits meanwhile either
    is seen by that read or comes after it, and its own ``max`` applies on top.

    The UPDATE is written as SQL, not with ``Case``/``When`` expressions: it runs in every deal's
    transaction, and building those expressions cost more than the rest of the statement (a
    ``When(entry_id=…)`` is a whole filter to compile, per seat and per column).

    Returns the rows it changed, as the live events carry them (``services.events.standing_row``),
    read back by the UPDATE itself (``RETURNING``); none when nothing the standings count changed."""
    n = len(entries)
    net, wins = [0] * n, [0] * n
    places = [[0] * n for _ in Standing.PLACES]
    count = 0
    for sign, revision in revisions:
        outcomes = outcomes_by_position(game=tournament.game, leader=revision.body.get("leader"),
                                        seats=revision.result.get("seats", []), n=n)
        for pos, o in enumerate(outcomes):
            net[pos] += sign * o.net
            wins[pos] += sign * o.win
            if o.place is not None:
                places[o.place - 1][pos] += sign
        count += sign
    if count == 0 and not any(net) and not any(wins) and not any(any(p) for p in places):
        return []  # a correction that changed nothing the standings count
    if count < 0:
        _standings_take_out(tournament=tournament, entries=entries, net=net, wins=wins, places=places, count=count)
        return [standing_row(r, place_count(tournament)) for r in Standing.objects.filter(
            tournament=tournament, entry_id__in=entries).order_by("entry_id").values_list(*STANDING_COLUMNS)]
    sets, params = ['"updated_at" = %s'], [connection.ops.adapt_datetimefield_value(timezone.now())]
    for column, deltas in (("total", net), ("wins", wins), *zip(Standing.PLACES, places)):
        if any(deltas):
            case, case_params = _by_entry(entries, deltas)
            sets.append(f'"{column}" = "{column}" + {case}')
            params += case_params
    if count:
        sets.append(f'"rounds_counted" = "rounds_counted" + {int(count)}')
        # The newer of the kept time and this deal's (SQLite's two-argument MAX is GREATEST).
        greatest = "MAX" if connection.vendor == "sqlite" else "GREATEST"
        sets.append(f'"last_deal_at" = {greatest}(COALESCE("last_deal_at", %s), %s)')
        played = connection.ops.adapt_datetimefield_value(round.created_at)
        params += [played, played]
    where = ", ".join(["%s"] * n)
    returning = ", ".join(f'"{c}"' for c in STANDING_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{Standing._meta.db_table}" SET {", ".join(sets)} '
                       f'WHERE "tournament_id" = %s AND "entry_id" IN ({where}) RETURNING {returning}',
                       [*params, tournament.pk, *entries])
        width = place_count(tournament)
        return sorted((standing_row(r, width) for r in cursor.fetchall()), key=lambda r: r["entry"])


def _standings_take_out(*, tournament: Tournament, entries: list[int], net: list[int], wins: list[int],
                        places: list[list[int]], count: int) -> None:
    """A deal leaving the standings for good (a void): rare, so written with the ORM."""
    def by_entry(values: list[int]) -> Case:
        return Case(*[When(entry_id=e, then=Value(v)) for e, v in zip(entries, values) if v],
                    default=Value(0), output_field=IntegerField())

    updates: dict = {"total": F("total") + by_entry(net), "rounds_counted": F("rounds_counted") + count,
                     "updated_at": timezone.now()}
    if any(wins):
        updates["wins"] = F("wins") + by_entry(wins)
    for field, deltas in zip(Standing.PLACES, places):
        if any(deltas):
            updates[field] = F(field) + by_entry(deltas)
    rows = Standing.objects.filter(tournament=tournament, entry_id__in=entries)
    list(rows.select_for_update().values_list("pk", flat=True))
    latest = (Round.objects.filter(counted_rounds_filter(tournament), table__seats__entry_id=OuterRef("entry_id"))
              .order_by("-created_at").values("created_at")[:1])
    updates["last_deal_at"] = Subquery(latest, output_field=DateTimeField())
    rows.update(**updates)


def standings_follow(*, tournament: Tournament, round: Round, entries: list[int] | None, counted_before: bool,
                     before: RoundRevision | None, after: RoundRevision | None) -> list[dict]:
    """Bring the standings along after a deal changed: out with what it counted for before
    (``before``, if it counted), in with what it counts for now (``after``, if it counts).
    Returns the standing rows that moved (``standings_apply``)."""
    counted_now = counts_round(tournament, round)
    revisions = []
    if counted_before and before is not None:
        revisions.append((-1, before))
    if counted_now and after is not None:
        revisions.append((+1, after))
    if len(revisions) == 2 and revisions[0][1].pk == revisions[1][1].pk:
        return []  # the same revision out and in: nothing changes
    if revisions:
        return standings_apply(tournament=tournament,
                               entries=entries if entries is not None else table_entries(round.table_id),
                               round=round, revisions=revisions)
    return []


def standings_refresh(*, tournament: Tournament, actor: Actor | None = None) -> list[Standing]:
    """Recompute every entry's figures from the counted deals (confirmed ones when the
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


def _kept_figures(st: Standing) -> Figures:
    return Figures(net=st.total, deals=st.rounds_counted, wins=st.wins,
                   places=tuple(getattr(st, f) for f in Standing.PLACES), last_deal_at=st.last_deal_at)


def _store(st: Standing, figures: Figures) -> None:
    st.total, st.rounds_counted, st.wins, st.last_deal_at = (figures.net, figures.deals, figures.wins,
                                                             figures.last_deal_at)
    for field, value in zip(Standing.PLACES, figures.places):
        setattr(st, field, value)


def standings_recompute(*, tournament: Tournament) -> tuple[list[Standing], dict]:
    """Write the from-scratch standings inside the caller's transaction (which holds the
    tournament's lock). Returns the rows and what differed: ``{entry id: {"kept": {field:
    value}, "recomputed": {field: value}}}``, naming only the fields that differed."""
    figures = tournament_figures(tournament)
    kept = {s.entry_id: s for s in Standing.objects.filter(tournament=tournament)}
    rows, changed, differed = [], [], {}
    now = timezone.now()
    for entry_id in Entry.objects.filter(tournament=tournament).values_list("pk", flat=True):
        fresh = figures.get(entry_id, Figures.none())
        st = kept.get(entry_id)
        if st is None:
            st = Standing(tournament=tournament, entry_id=entry_id)
            _store(st, fresh)
            st.save(force_insert=True)
        else:
            old = _kept_figures(st)
            if old != fresh:
                diff = [k for k in Figures._fields if getattr(old, k) != getattr(fresh, k)]
                differed[str(entry_id)] = {"kept": {k: getattr(old, k) for k in diff},
                                           "recomputed": {k: getattr(fresh, k) for k in diff}}
                _store(st, fresh)
                st.updated_at = now
                changed.append(st)
        rows.append(st)
    if changed:
        Standing.objects.bulk_update(changed, ["total", "rounds_counted", "wins", *Standing.PLACES, "last_deal_at",
                                               "updated_at"])
    return rows, differed
