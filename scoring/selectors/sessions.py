"""Sessions: one by id, a tournament's list with its tables and seats, and where everybody sits
in the newest session."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Prefetch, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain.clock import clock_state
from scoring.domain.errors import NotFound
from scoring.models import Seat, Session, Table, Tournament
from scoring.selectors.common import table_order


def session_get(session_id: Any) -> Session:
    try:
        return Session.objects.select_related("tournament__club").get(pk=session_id)
    except (Session.DoesNotExist, ValueError, TypeError):
        raise NotFound(gettext("No such session.")) from None


def session_list(tournament: Tournament) -> QuerySet[Session]:
    """The tournament's sessions by number, each with its tables and their seats (prefetched:
    three queries for a page, whatever the tables)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("entry__player").order_by("position"))
    tables = Prefetch("tables", queryset=Table.objects.prefetch_related(seats).order_by(*table_order()))
    return Session.objects.filter(tournament=tournament).prefetch_related(tables).order_by("number")


def session_detail(session: Session, *, now: datetime | None = None) -> dict:
    """The API's session: ``id, number, status, closed_at, clock`` (``clock_state``: started_at,
    ends_at, seconds_left; null without a clock) and ``tables`` (id, name, seats with player
    names). Reads the tables and seats unless ``session_list`` prefetched them."""
    now = now or timezone.now()
    clock = clock_state(session.clock_started_at, session.clock_ends_at, now)
    return {"id": session.pk, "number": session.number, "status": session.status, "closed_at": session.closed_at,
            "clock": None if clock is None else {k: clock[k] for k in ("started_at", "ends_at", "seconds_left")},
            "tables": [{"id": t.pk, "name": t.name,
                        "seats": [{"position": s.position, "entry": s.entry_id, "player": s.entry.player_id,
                                   "name": s.entry.player.name} for s in t.seats.all()]}
                       for t in session.tables.all()]}


@dataclass(frozen=True)
class Place:
    """Where an entry sits: session number, table (id, name), seat position, players at the table."""

    session: int
    table: int
    table_name: str
    position: int
    seats: int


@dataclass
class SeatsNow:
    """The newest session that has tables (its number; None before any) and each seated entry's
    place in it; an entry not in ``places`` sits that session out."""

    session: int | None = None
    places: dict[int, Place] = field(default_factory=dict)


def seats_now(tournament: Tournament) -> SeatsNow:
    """Where everybody sits in the tournament's newest session that has tables (one query)."""
    newest = (Session.objects.filter(tournament=tournament, tables__isnull=False).order_by("-number")
              .values("pk")[:1])
    rows = list(Seat.objects.filter(table__session=Subquery(newest))
                .values_list("entry_id", "position", "table_id", "table__name", "table__session__number"))
    sizes: dict[int, int] = {}
    for _entry, _position, table_id, _name, _number in rows:
        sizes[table_id] = sizes.get(table_id, 0) + 1
    out = SeatsNow(session=rows[0][4] if rows else None)
    for entry_id, position, table_id, name, number in rows:
        out.places[entry_id] = Place(session=number, table=table_id, table_name=name, position=position,
                                     seats=sizes[table_id])
    return out
