"""A phone that remembers the player who proved themselves on it: a signed cookie per tournament
holding ``<entry id>:<code version>`` (``django.core.signing``: nobody can make one up or move it
to another tournament), HttpOnly, SameSite=Lax, kept for months. A new code or a reset counts
the entry's version up, and the cookie stops proving anything (``selectors.players.remembered_holds``).

With it, the scorer page enters deals as that player with no extra tap, and confirms as them in
one tap on a deal someone else entered.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from scoring.domain.proof import PlayerProof
from scoring.models import Entry, Table
from scoring.selectors.players import entry_seat, remembered_holds

SALT = "scoring.player-proof"
#: About half a year: a club's season; a reset or a new code ends it sooner.
MAX_AGE = 180 * 24 * 3600
#: The scorer links live under /s/: no other page needs the cookie.
PATH = "/s/"


def cookie_name(tournament_id: int) -> str:
    return f"gupai_player_{tournament_id}"


def remembered(request, tournament_id: int) -> tuple[int, int] | None:
    """``(entry id, code version)`` from this phone's cookie for the tournament, if its signature holds."""
    raw = request.get_signed_cookie(cookie_name(tournament_id), default=None, salt=SALT, max_age=MAX_AGE)
    try:
        entry_id, version = (int(x) for x in (raw or "").split(":"))
    except ValueError:
        return None
    return entry_id, version


def remember(request, response, entry: Entry) -> None:
    response.set_signed_cookie(cookie_name(entry.tournament_id), f"{entry.pk}:{entry.code_version}", salt=SALT,
                               max_age=MAX_AGE, path=PATH, httponly=True, samesite="Lax",
                               secure=request.is_secure() or settings.SESSION_COOKIE_SECURE)


def forget(response, tournament_id: int) -> None:
    response.delete_cookie(cookie_name(tournament_id), path=PATH, samesite="Lax")


@dataclass(frozen=True)
class Me:
    """The player this phone remembers, seated at this table, their proof still holding."""

    entry: Entry
    seat: int
    name: str
    proof: PlayerProof


def remembered_player(request, table: Table) -> Me | None:
    """The player this phone remembers for the table's tournament, if they sit at this table and
    their code has not changed since (else None: the page asks "Who are you?")."""
    memory = remembered(request, table.session.tournament_id)
    if memory is None:
        return None
    seat = entry_seat(table, memory[0])
    if seat is None:
        return None
    entry = Entry.objects.select_related("player").get(pk=memory[0])
    if not remembered_holds(entry, memory):
        return None
    return Me(entry=entry, seat=seat, name=entry.player.name, proof=PlayerProof(remembered=memory))
