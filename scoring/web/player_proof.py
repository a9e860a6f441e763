"""A phone that remembers the player who proved themselves on it: a signed cookie per club
holding ``<player id>:<code version>`` (``django.core.signing``: nobody can make one up or move it
to another club), HttpOnly, SameSite=Lax, kept for months. The player is the club's (his code is
his in every tournament of the club), so the phone knows him at the club's next tournament and
on his page (``/players/<id>/``). A new code or a reset counts the player's version up, and the
cookie stops proving anything (``selectors.players.remembered_holds``).

With it, the scorer page enters deals as that player with no extra tap, and confirms as them in
one tap on a deal someone else entered.

The phone itself is its browser session: ``this_phone`` is a random id kept in the session's
data (on the server), recorded with the deals it enters and the first codes it sets; the
session also keeps every player proven on it in the club (``proven_here``), even after "not
you?". What a code set at first use proves follows from them (``scoring.domain.proof``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace

from django.conf import settings

from scoring.domain.actors import Actor
from scoring.domain.proof import PlayerProof
from scoring.models import Entry, Player, Table
from scoring.selectors.players import entry_seat, player_remembered, remembered_holds
from scoring.selectors.replica import reading

SALT = "scoring.player-proof"
#: About half a year: a club's season; a reset or a new code ends it sooner.
MAX_AGE = 180 * 24 * 3600
#: The scorer links (under /s/) and the players' pages (under /players/) read it.
PATH = "/"


def cookie_name(club_id: int) -> str:
    return f"gupai_player_c{club_id}"


def remembered(request, club_id: int) -> tuple[int, int] | None:
    """``(player id, code version)`` from this phone's cookie for the club, if its signature holds."""
    raw = request.get_signed_cookie(cookie_name(club_id), default=None, salt=SALT, max_age=MAX_AGE)
    try:
        player_id, version = (int(x) for x in (raw or "").split(":"))
    except ValueError:
        return None
    return player_id, version


#: The session's keys: the phone's id, and the players proven on it per club.
PHONE_KEY = "gupai_phone"
PROVEN_KEY = "gupai_proven_c{}"


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


def proven_here(request, club_id: int) -> set[int]:
    """The players proven on this phone in the club: those its session noted, and the one its
    cookie remembers (a cookie outlives a session)."""
    found = {p for p in request.session.get(PROVEN_KEY.format(club_id), []) if isinstance(p, int)}
    memory = remembered(request, club_id)
    if memory is not None:
        found.add(memory[0])
    return found


def remember(request, response, player: Player) -> None:
    """This phone remembers ``player`` (proven on it just now) under his code version."""
    key = PROVEN_KEY.format(player.club_id)
    noted = request.session.get(key, [])
    if player.pk not in noted:
        request.session[key] = [*noted, player.pk]
    response.set_signed_cookie(cookie_name(player.club_id), f"{player.pk}:{player.code_version}", salt=SALT,
                               max_age=MAX_AGE, path=PATH, httponly=True, samesite="Lax",
                               secure=request.is_secure() or settings.SESSION_COOKIE_SECURE)


def forget(response, club_id: int) -> None:
    response.delete_cookie(cookie_name(club_id), path=PATH, samesite="Lax")


@dataclass(frozen=True)
class Me:
    """The player this phone remembers, seated at this table, their proof still holding."""

    entry: Entry
    seat: int
    name: str
    proof: PlayerProof


def remembered_player(request, table: Table) -> Me | None:
    """The player this phone remembers for the table's club, if he sits at this table and his code
    has not changed since (else None: the page asks "Who are you?")."""
    memory = remembered(request, table.session.tournament.club_id)
    if memory is None:
        return None
    entry = (Entry.objects.select_related("player")
             .filter(tournament_id=table.session.tournament_id, player_id=memory[0]).first())
    seat = entry_seat(table, entry.pk) if entry is not None else None
    if seat is None:
        return None
    if not remembered_holds(entry, memory):
        return None
    return Me(entry=entry, seat=seat, name=entry.player.name, proof=PlayerProof(remembered=memory))


def phone_knows(request, player: Player) -> bool:
    """Whether this phone remembers ``player`` (proven at a table or on his page) under his code
    version as it stands: read on the primary, so a reset just made counts at once even on a
    page that reads the replica."""
    memory = remembered(request, player.club_id)
    if memory is None or memory[0] != player.pk:
        return False
    with reading(replica=False):
        fresh = Player.objects.filter(pk=player.pk).first()
        return fresh is not None and player_remembered(fresh, memory)
