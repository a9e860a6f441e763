"""What seating the next session needs to know (who sat with whom, and who sat out how often),
and a session's sheet: its tables, seats and the links kept while it is open."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Prefetch

from scoring.domain import link_secrets
from scoring.models import ActionLog, Entry, Seat, Session, Table, Tournament
from scoring.selectors.common import table_order


@dataclass
class SeatingHistory:
    #: Every earlier table of the tournament: its entry ids by seat position.
    tables: list[list[int]] = field(default_factory=list)
    #: Entry id → sessions (with tables) in which it had no seat. Entries never seated sat out
    #: every one of them.
    sat_out: dict[int, int] = field(default_factory=dict)
    sessions: int = 0


def seating_history(tournament: Tournament, entry_ids: list[int]) -> SeatingHistory:
    """The history of ``entry_ids`` in the tournament, in one query. Sessions without any table
    do not count as sat out."""
    tables: dict[int, list[int]] = {}
    seated_in: dict[int, set[int]] = {}
    sessions: set[int] = set()
    for table_id, session_id, entry_id in (Seat.objects.filter(table__session__tournament=tournament)
                                           .order_by("table__session__number", "table_id", "position")
                                           .values_list("table_id", "table__session_id", "entry_id")):
        tables.setdefault(table_id, []).append(entry_id)
        seated_in.setdefault(entry_id, set()).add(session_id)
        sessions.add(session_id)
    return SeatingHistory(tables=list(tables.values()),
                          sat_out={e: len(sessions) - len(seated_in.get(e, ())) for e in entry_ids},
                          sessions=len(sessions))


@dataclass
class SheetTable:
    """A table of a session's sheet: its entries by seat, and its link's token when it is kept
    (None: the session is closed or the tournament finished, or the link was never kept)."""

    table: Table
    entries: list[Entry]
    token: str | None


def links_shown(session: Session) -> bool:
    """Whether a session's links may be shown: while it is open and its tournament not finished
    (closing and finishing erase them too; this also covers a row read before that)."""
    return session.status == Session.Status.OPEN and session.tournament.status != Tournament.Status.FINISHED


def kept_token(table: Table) -> str | None:
    """The plain token of a table's link from its kept secret, or None."""
    return link_secrets.unseal(table.scorer_token_secret, secret_key=settings.SECRET_KEY, link_key=settings.LINK_KEY)


def session_sheet_tables(session: Session, *, offset: int = 0, limit: int | None = None) -> list[SheetTable]:
    """The tables of ``session`` by number (Table 1, 2, ...), ``limit`` of them
    from ``offset``, with their seats: two queries whatever the count."""
    tables = (Table.objects.filter(session=session).order_by(*table_order())
              .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("entry__player")
                                         .order_by("position"))))
    tables = tables[offset:offset + limit] if limit is not None else tables[offset:]
    shown = links_shown(session)
    return [SheetTable(t, [s.entry for s in t.seats.all()], kept_token(t) if shown else None) for t in tables]


def session_table_count(session: Session) -> int:
    return Table.objects.filter(session=session).count()


@dataclass
class SessionSeating:
    """How a session was seated, from its ``session_seat`` log row (all empty for a session whose
    tables were made one by one)."""

    method: str = ""
    table_size: int | None = None
    leftovers: str = ""
    seed: str = ""
    sit_outs: list[Entry] = field(default_factory=list)
    #: The numbers of the earlier sessions this seating closed.
    closed: list[int] = field(default_factory=list)


def session_seating(session: Session) -> SessionSeating:
    """Two queries: the log row, the entries who sat out (with their players)."""
    row = (ActionLog.objects.filter(tournament_id=session.tournament_id, action=ActionLog.Action.SESSION_SEAT,
                                    target_model="Session", target_id=str(session.pk))
           .values_list("data", flat=True).first())
    if not row:
        return SessionSeating()
    ids = row.get("sit_outs") or []
    found = {e.pk: e for e in Entry.objects.filter(pk__in=ids).select_related("player")} if ids else {}
    return SessionSeating(method=row.get("method", ""), table_size=row.get("table_size"),
                          leftovers=row.get("leftovers", ""), seed=row.get("seed", ""),
                          sit_outs=[found[e] for e in ids if e in found], closed=row.get("closed") or [])
