"""Who sat where at which deal: a table's seating with its substitutions
(``scoring.domain.substitutions``), the list the API shows, and each seat's history for pages."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Q
from django.utils.translation import gettext

from games.seating import Change, Seating
from scoring.domain.substitutions import seat_history
from scoring.models import Entry, Seat, Substitution, Table


def seatings(*where: Q, **table_filter) -> dict[int, Seating]:
    """Table id → its ``Seating``, for the tables that ``where`` and ``table_filter`` (lookups
    on ``table``, such as ``table__session__tournament=t``) select: two queries, whatever the
    tables."""
    current: dict[int, list[int]] = {}
    for table_id, entry_id in (Seat.objects.filter(*where, **table_filter).order_by("table_id", "position")
                               .values_list("table_id", "entry_id")):
        current.setdefault(table_id, []).append(entry_id)
    return seatings_of(current, Substitution.objects.filter(*where, **table_filter))


def seatings_of(current: dict[int, list[int]], subs=None) -> dict[int, Seating]:
    """The ``Seating`` of tables whose entries by seat now (``current``) are read already: one
    query (``subs``: the Substitution rows to read; default those of these tables)."""
    if subs is None:
        subs = Substitution.objects.filter(table_id__in=list(current))
    changes: dict[int, list[Change]] = {}
    for table_id, *change in (subs.order_by("table_id", "id")
                              .values_list("table_id", "seat", "entry_in_id", "entry_out_id", "from_deal")):
        changes.setdefault(table_id, []).append(Change(*change))
    return {t: Seating(tuple(entries), tuple(changes.get(t, ()))) for t, entries in current.items()}


def table_seating(table_id: int) -> Seating:
    """One table's ``Seating``."""
    return seatings(table_id=table_id).get(table_id, Seating(()))


def deal_seats(table: Table, seats: list[Seat]) -> Callable[[int], list[Seat]]:
    """``number`` → the table's seats at that deal (Seat rows with entry and player, not
    saved): ``seats`` (today's) where nobody was substituted since. One query, none more when
    the table had no substitution."""
    return seated_deals(table, seats)[0]


def seated_deals(table: Table, seats: list[Seat]) -> tuple[Callable[[int], list[Seat]], list[dict]]:
    """``deal_seats`` and the table's seat history (``seat_histories``), from one query."""
    subs = list(Substitution.objects.filter(table=table).select_related("entry_in__player", "entry_out__player")
                .order_by("id"))
    if not subs:
        return (lambda number: seats), []
    seating = Seating(tuple(s.entry_id for s in seats),
                      tuple(Change(s.seat, s.entry_in_id, s.entry_out_id, s.from_deal) for s in subs))
    entries: dict[int, Entry] = {s.entry_id: s.entry for s in seats}
    for sub in subs:
        entries.setdefault(sub.entry_out_id, sub.entry_out)
        entries.setdefault(sub.entry_in_id, sub.entry_in)
    cache: dict[tuple[int, ...], list[Seat]] = {}

    def at(number: int) -> list[Seat]:
        ids = tuple(seating.at(number))
        if ids not in cache:
            cache[ids] = [s if s.entry_id == e else Seat(id=s.id, table_id=s.table_id, position=s.position,
                                                        entry=entries[e])
                          for s, e in zip(seats, ids)]
        return cache[ids]
    names = {pk: e.player.name for pk, e in entries.items()}
    return at, _histories(seating, sorted({s.seat for s in subs}), names)


def _histories(seating: Seating, positions: list[int], names: dict[int, str]) -> list[dict]:
    return [{"position": p, "label": seat_label(p),
             "stints": [{"name": names.get(s.entry, "?"), "first": s.first, "last": s.last}
                        for s in seat_history(seating, p)]} for p in positions]


def substitution_row(sub: Substitution) -> dict:
    """The API's substitution: ``id, table, seat, from_deal``, ``entry_out``/``entry_in`` (with
    ``player_out``/``player_in`` and their names), ``created_at``, ``created_by``."""
    return {"id": sub.pk, "table": sub.table_id, "seat": sub.seat, "from_deal": sub.from_deal,
            "entry_out": sub.entry_out_id, "player_out": sub.entry_out.player_id,
            "name_out": sub.entry_out.player.name,
            "entry_in": sub.entry_in_id, "player_in": sub.entry_in.player_id, "name_in": sub.entry_in.player.name,
            "created_at": sub.created_at,
            "created_by": sub.created_by.get_username() if sub.created_by_id else None}


def table_substitutions(table: Table) -> list[dict]:
    """The table's substitutions, oldest first (``substitution_row``)."""
    return [substitution_row(s) for s in Substitution.objects.filter(table=table)
            .select_related("entry_in__player", "entry_out__player", "created_by").order_by("id")]


def seat_label(position: int) -> str:
    """A seat as the pages name it (positions count from 0, people from 1)."""
    return gettext("Seat %(n)s") % {"n": position + 1}


def seat_histories(tables: list[Table]) -> dict[int, list[dict]]:
    """Table id → its seats with a substitution, each ``{"position", "label", "stints"}``; a
    stint is ``{"name", "first", "last"}`` (``last`` None: still there). Two queries for all
    the tables; tables without a substitution are left out."""
    ids = [t.pk for t in tables]
    subs = list(Substitution.objects.filter(table_id__in=ids).values_list("table_id", "seat"))
    if not subs:
        return {}
    found = seatings(table_id__in=sorted({t for t, _ in subs}))
    names = dict(Entry.objects.filter(pk__in={e for s in found.values() for e in (*s.current, *s.entries())})
                 .values_list("pk", "player__name"))
    return {table_id: _histories(seating, sorted({seat for t, seat in subs if t == table_id}), names)
            for table_id, seating in found.items()}


def substitution_form(table: Table, seats: list[Seat], *, next_deal: int) -> dict:
    """What the director's table page shows of substitutions: ``history`` (``seat_histories``),
    ``open`` (whether the form is offered: the session open, the tournament not finished),
    ``seats`` (position, label, who sits there), ``candidates`` (the tournament's entries not
    withdrawn and not seated in this session, by name) and ``from_deal`` (``next_deal``, the
    table's next deal number: the first the newcomer would play)."""
    tournament = table.session.tournament
    history = seat_histories([table]).get(table.pk, [])
    open_ = not table.session.is_closed and not tournament.is_finished
    if not open_:
        return {"history": history, "open": False}
    candidates = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
                      .exclude(seats__table__session=table.session_id).select_related("player")
                      .order_by("player__name", "pk"))
    return {"history": history, "open": True, "candidates": candidates,
            "seats": [{"position": s.position, "label": seat_label(s.position), "name": s.entry.player.name}
                      for s in seats],
            "from_deal": next_deal}
