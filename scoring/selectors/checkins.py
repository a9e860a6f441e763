"""Check-ins: the session players check in for, and who is in and who is missing."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef

from scoring.models import Entry, Session, SessionCheckIn, Table, Tournament


def check_in_session(tournament: Tournament) -> Session | None:
    """The session players check in for: the tournament's newest session when it is open and has
    no tables yet (opened ahead of seating, ``services.checkins.session_open_ahead``); None
    otherwise (one query)."""
    newest = (Session.objects.filter(tournament=tournament)
              .annotate(seated=Exists(Table.objects.filter(session=OuterRef("pk")))).order_by("-number").first())
    if newest is None or newest.seated or newest.status != Session.Status.OPEN:
        return None
    return newest


@dataclass
class CheckIns:
    """``checked_in``: ``(entry, check-in)`` by name; ``missing``: the entries not withdrawn who
    have not checked in, by name. A withdrawn entry is in neither."""

    session: Session
    seated: bool = False
    checked_in: list[tuple[Entry, SessionCheckIn]] = field(default_factory=list)
    missing: list[Entry] = field(default_factory=list)


def session_check_ins(session: Session) -> CheckIns:
    """Who is checked in for ``session`` and who is missing, and whether it is seated (three queries)."""
    rows = {c.entry_id: c for c in SessionCheckIn.objects.filter(session=session)}
    out = CheckIns(session=session, seated=Table.objects.filter(session=session).exists())
    entries = (Entry.objects.filter(tournament_id=session.tournament_id, withdrawn_at__isnull=True)
               .select_related("player").order_by("player__name"))
    for entry in entries:
        if entry.pk in rows:
            out.checked_in.append((entry, rows[entry.pk]))
        else:
            out.missing.append(entry)
    return out


def checked_in_ids(session: Session) -> set[int]:
    """The entries checked in for ``session`` that have not withdrawn since (one query)."""
    return set(SessionCheckIn.objects.filter(session=session, entry__withdrawn_at__isnull=True)
               .values_list("entry_id", flat=True))


def entry_player_id(tournament: Tournament, entry_id: int) -> int | None:
    """The player of ``tournament``'s entry ``entry_id`` (whose wrong codes are counted), or None."""
    return Entry.objects.filter(pk=entry_id, tournament=tournament).values_list("player_id", flat=True).first()
