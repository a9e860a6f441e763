"""Who sat where at which deal: a table's seating with its substitutions
(``scoring.domain.substitutions``), the list the API shows, and each seat's history for pages."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext

from scoring.domain.substitutions import Change, Seating, seat_history
from scoring.models import Entry, Seat, Substitution, Table


def seatings(**table_filter) -> dict[int, Seating]:
    """Table id → its ``Seating``, for the tables that ``table_filter`` (lookups on ``table``,
    such as ``table__session__tournament=t``) selects: two queries, whatever the tables."""
    current: dict[int, list[int]] = {}
    for table_id, entry_id in (Seat.objects.filter(**table_filter).order_by("table_id", "position")
                               .values_list("table_id", "entry_id")):
        current.setdefault(table_id, []).append(entry_id)
    changes: dict[int, list[Change]] = {}
    for table_id, *change in (Substitution.objects.filter(**table_filter).order_by("table_id", "id")
                              .values_list("table_id", "seat", "entry_in_id", "entry_out_id", "from_deal")):
        changes.setdefault(table_id, []).append(Change(*change))
    return {t: Seating(tuple(entries), tuple(changes.get(t, ()))) for t, entries in current.items()}


def table_seating(table_id: int) -> Seating:
    """One table's ``Seating``."""
    return seatings(table_id=table_id).get(table_id, Seating(()))


def deal_seats(table: Table, seats: list[Seat]) -> Callable[[int], list[Seat]]:
    """``number`` → the table's seats at that deal (Seat rows with entry and player, not
    saved): ``seats`` (today's) where nobody was substituted since. One query, none when the
    table had no substitution."""
    subs = list(Substitution.objects.filter(table=table).select_related("entry_out__player").order_by("id"))
    if not subs:
        return lambda number: seats
    seating = Seating(tuple(s.entry_id for s in seats),
                      tuple(Change(s.seat, s.entry_in_id, s.entry_out_id, s.from_deal) for s in subs))
    entries: dict[int, Entry] = {s.entry_id: s.entry for s in seats}
    entries.update({s.entry_out_id: s.entry_out for s in subs})
    cache: dict[tuple[int, ...], list[Seat]] = {}

    def at(number: int) -> list[Seat]:
        ids = tuple(seating.at(number))
        if ids not in cache:
            cache[ids] = [s if s.entry_id == e else Seat(id=s.id, table_id=s.table_id, position=s.position,
                                                        entry=entries[e])
                          for s, e in zip(seats, ids)]
        return cache[ids]
    return at


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
    out: dict[int, list[dict]] = {}
    for table_id, seating in found.items():
        for position in sorted({seat for t, seat in subs if t == table_id}):
            stints = [{"name": names.get(s.entry, "?"), "first": s.first, "last": s.last}
                      for s in seat_history(seating, position)]
            out.setdefault(table_id, []).append({"position": position, "label": seat_label(position),
                                                 "stints": stints})
    return out
