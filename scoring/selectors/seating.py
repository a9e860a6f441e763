"""What seating the next session needs to know: who sat with whom, and who sat out how often."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.models import Seat, Tournament


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
