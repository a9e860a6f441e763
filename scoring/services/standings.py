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
from scoring.models import ActionLog, Entry, Round, RoundRevision, Seat, Standing, Substitution, Tournament
from scoring.selectors.standings import counted_rounds_filter, last_deals, place_count, tournament_figures
from scoring.selectors.substitutions import table_seating
from scoring.services.common import action_log, update_chunk_rows, update_from_values
from scoring.services.events import STANDING_COLUMNS, standing_row


def table_entries(table_id: int, *, number: int | None = None) -> list[int]:
    """The entry ids of a table by seat position: now, or at deal ``number`` (the players who
    played it, whoever was substituted since)."""
    if number is not None:
        return table_seating(table_id).at(number)
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
    if Substitution.objects.filter(table__session__tournament=tournament).exists():
        last = last_deals(tournament, entries)
        updates["last_deal_at"] = Case(*[When(entry_id=e, then=Value(t)) for e, t in last.items()],
                                       default=Value(None), output_field=DateTimeField())
    else:
        latest = (Round.objects.filter(counted_rounds_filter(tournament), table__seats__entry_id=OuterRef("entry_id"))
                  .order_by("-created_at").values("created_at")[:1])
        updates["last_deal_at"] = Subquery(latest, output_field=DateTimeField())
    rows.update(**updates)


def standings_follow(*, tournament: Tournament, round: Round, entries: list[int], counted_before: bool,
                     before: RoundRevision | None, after: RoundRevision | None) -> list[dict]:
    """Bring the standings along after a deal changed: out with what it counted for before
    (``before``, if it counted), in with what it counts for now (``after``, if it counts).
    ``entries``: the table's, by seat (every caller has them already). Returns the standing
    rows that moved (``standings_apply``)."""
    counted_now = counts_round(tournament, round)
    revisions = []
    if counted_before and before is not None:
        revisions.append((-1, before))
    if counted_now and after is not None:
        revisions.append((+1, after))
    if len(revisions) == 2 and revisions[0][1].pk == revisions[1][1].pk:
        return []  # the same revision out and in: nothing changes
    if revisions:
        return standings_apply(tournament=tournament, entries=entries, round=round, revisions=revisions)
    return []


def standings_refresh(*, tournament: Tournament, actor: Actor | None = None) -> int:
    """Recompute every entry's figures from the counted deals (confirmed ones when the
    tournament requires confirmation, else all but voided) and write what differs. Upkeep that
    changes nothing writes no audit row; a repair (the kept standings had drifted) writes one.
    Returns how many entries have a standing row."""
    actor = actor or Actor.system()
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        count, repaired = standings_recompute(tournament=tournament)
        if repaired:
            action_log(actor, ActionLog.Action.STANDINGS_REPAIR, tournament, tournament=tournament,
                       data={"entries": repaired})
    return count


def standings_check_running(*, actor: Actor | None = None) -> int:
    """``standings_refresh`` for every running tournament, each in its own transaction.
    Returns how many were checked."""
    checked = 0
    for tournament in Tournament.objects.filter(status=Tournament.Status.RUNNING).order_by("pk"):
        standings_refresh(tournament=tournament, actor=actor)
        checked += 1
    return checked


#: The columns a recompute writes, beside ``entry_id`` (``updated_at`` is the recompute's time).
_FIGURE_COLUMNS = ("total", "rounds_counted", "wins", *Standing.PLACES, "last_deal_at")

def _figure_values(figures: Figures) -> tuple:
    return (figures.net, figures.deals, figures.wins, *figures.places, figures.last_deal_at)


def standings_recompute(*, tournament: Tournament) -> tuple[int, dict]:
    """Write the from-scratch standings inside the caller's transaction (which holds the
    tournament's lock). Returns how many entries have a row and what differed: ``{entry id:
    {"kept": {field: value}, "recomputed": {field: value}}}``, naming only the fields that
    differed.

    Set-based, so that its cost grows with the rows, never with their square: missing rows are
    inserted in bulk, and the rows that differ are written in chunks of one ``UPDATE … FROM
    (VALUES …)`` each (``_write_figures``) — not Django's ``bulk_update``, whose single ``CASE
    WHEN id = … THEN …`` per column PostgreSQL evaluates row by row against every branch
    (8,800 rows: 19½ minutes). A fixed number of queries whatever the entries, a few more per
    thousands of changed rows."""
    figures = tournament_figures(tournament)
    kept = {row[0]: row[1:] for row in Standing.objects.filter(tournament=tournament)
            .values_list("entry_id", *_FIGURE_COLUMNS)}
    new, changed, differed = [], [], {}
    entries = list(Entry.objects.filter(tournament=tournament).values_list("pk", flat=True))
    n_places = len(Standing.PLACES)
    for entry_id in entries:
        fresh = figures.get(entry_id, Figures.none())
        row = kept.get(entry_id)
        if row is None:
            new.append(Standing(tournament=tournament, entry_id=entry_id,
                                **dict(zip(_FIGURE_COLUMNS, _figure_values(fresh)))))
            continue
        old = Figures(row[0], row[1], row[2], tuple(row[3:3 + n_places]), row[3 + n_places])
        if old != fresh:
            diff = [k for k in Figures._fields if getattr(old, k) != getattr(fresh, k)]
            differed[str(entry_id)] = {"kept": {k: getattr(old, k) for k in diff},
                                       "recomputed": {k: getattr(fresh, k) for k in diff}}
            changed.append((entry_id, fresh))
    if new:
        Standing.objects.bulk_create(new, batch_size=2000)
    if changed:
        _write_figures(tournament, changed)
    return len(entries), differed


def _write_figures(tournament: Tournament, changed: list[tuple[int, Figures]]) -> None:
    """The changed rows, set-based (``services.common.update_from_values``): one ``UPDATE …
    FROM (VALUES …)`` a chunk, each row matched by its entry through the index."""
    update_from_values(Standing, key="entry", columns=_FIGURE_COLUMNS,
                       rows=[(entry_id, *_figure_values(f)) for entry_id, f in changed],
                       set_also={"updated_at": timezone.now()}, where={"tournament": tournament.pk})


def _chunk_rows() -> int:
    """Rows one UPDATE of the recompute writes."""
    return update_chunk_rows(1 + len(_FIGURE_COLUMNS))
