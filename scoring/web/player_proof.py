"""A phone that remembers the player who proved themselves on it: a signed cookie per tournament
holding ``<entry id>:<code version>`` (``django.core.signing``: nobody can make one up or move it
to another tournament), HttpOnly, SameSite=Lax, kept for months. A new code or a reset counts
the entry's version up, and the cookie stops proving anything (``selectors.players.remembered_holds``).

With it, the scorer page enters deals as that player with no extra tap, and confirms as them in
one tap on a deal someone else entered.

The phone itself is its browser session: ``this_phone`` is a random id kept in the session's
data (on the server), recorded with the deals it enters and the first codes it sets; the
session also keeps every player proven on it (``proven_here``), even after "not you?". What a
code set at first use proves follows from them (``scoring.domain.proof``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace

from django.conf import settings

from scoring.domain.actors import Actor
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


#: The session's keys: the phone's id, and the entries proven on it per tournament.
PHONE_KEY = "gupai_phone"
PROVEN_KEY = "gupai_proven_{}"


def this_phone(request) -> str:
    """This phone's id (made on first need): what tells the phone that entered a deal from the one
    a code was set on. A phone that clears its cookies is a new phone (docs/director-guide.md)."""
    phone = request.session.get(PHONE_KEY)
    if not isinstance(phone, str) or not phone:
        phone = request.session[PHONE_KEY] = secrets.token_urlsafe(18)
    return phone


def on_this_phone(request, actor: Actor) -> Actor:
    """``actor`` acting from this phone (recorded with a deal it enters or a first code it sets)."""
    return replace(actor, phone=this_phone(request))


def proven_here(request, tournament_id: int) -> set[int]:
    """The entries proven on this phone in the tournament: those its session noted, and the one its
    cookie remembers (a cookie outlives a session)."""
    found = {e for e in request.session.get(PROVEN_KEY.format(tournament_id), []) if isinstance(e, int)}
    memory = remembered(request, tournament_id)
    if memory is not None:
        found.add(memory[0])
    return found


def remember(request, response, entry: Entry) -> None:
    key = PROVEN_KEY.format(entry.tournament_id)
    noted = request.session.get(key, [])
    if entry.pk not in noted:
        request.session[key] = [*noted, entry.pk]
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
