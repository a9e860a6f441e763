"""Access: every page needs a director of the thing's club; another club's things answer 404.

A tournament's referee (``scoring.selectors.access``: the roles) opens the pages marked
``director_required(referees=True)`` only — the referee's page of their tournament and its forms
(``views.director.referee``) — and the home page, which lists their tournaments. Every other
director page answers them 403: before any look-up for a user who directs no club, and by
``require_role`` for a director of another club who referees this tournament."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext

from scoring.domain.errors import NotFound, PermissionDenied
from scoring.models import Club
from scoring.selectors.access import directed_club, is_referee, is_signed_in_user, referee_refusal, require_role
from scoring.selectors.rounds import round_get
from scoring.selectors.sessions import session_get
from scoring.selectors.tables import table_get
from scoring.selectors.tournaments import tournament_get
from scoring.web.auth import actor_from_request


def _forbidden(request, message: str):
    return render(request, "director/forbidden.html", {"message": message}, status=403)


def director_required(view=None, *, referees: bool = False):
    """Login (else the login page), a director (else 403); the view gets the Actor. Domain
    PermissionDenied → 403 page, NotFound → 404. ``referees``: a signed-in user who directs no
    club passes too (a referee: the view looks its tournament up with ``refereed_tournament``)."""
    if view is None:
        return lambda v: director_required(v, referees=referees)

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        actor = actor_from_request(request)
        if not actor.is_director and not (referees and is_signed_in_user(actor)):
            return _forbidden(request, referee_refusal() if is_referee(actor)
                              else gettext("Only tournament directors may open these pages."))
        try:
            return view(request, actor, *args, **kwargs)
        except PermissionDenied as e:
            return _forbidden(request, e.message)
        except NotFound as e:
            raise Http404(e.message) from None

    return login_required(wrapped)


# Another club's things answer 404, like ids that do not exist.

def visible_club(actor, pk) -> Club:
    club = directed_club(actor, pk)   # another club's id costs the same query as an unknown one
    if club is None:
        raise NotFound("No such club.")
    return club


def visible_tournament(actor, pk):
    """A tournament for its directors' pages: 404 without a role in it, 403 for its referee."""
    t = tournament_get(pk)
    require_role(actor, t)
    return t


def refereed_tournament(actor, pk):
    """A tournament for the referee's pages: its directors' and its referees' (else 404); the
    actor's role in it comes along (``role_here``: "director" or "referee")."""
    t = tournament_get(pk)
    t.role_here = require_role(actor, t, "round_dispute_resolve")
    return t


def visible_table(actor, pk):
    table = table_get(pk)
    require_role(actor, table.session.tournament, what="table")
    return table


def visible_session(actor, pk):
    session = session_get(pk)
    require_role(actor, session.tournament, what="session")
    return session


def numbered_session(actor, tournament_id: int, number: int):
    """A tournament's session by its number (the sheet's URLs), its tournament attached; 404 when
    there is none."""
    tournament = visible_tournament(actor, tournament_id)
    session = tournament.sessions.filter(number=number).first()
    if session is None:
        raise Http404
    session.tournament = tournament
    return session


def visible_round(actor, pk):
    rnd = round_get(pk)
    require_role(actor, rnd.table.session.tournament, what="deal")
    return rnd


def errors_by_field(errors: list[dict], fields: tuple[str, ...]) -> dict[str, list[str]]:
    """Service errors by form field (the first part of the path); the rest under ``general``."""
    out: dict[str, list[str]] = {}
    for e in errors:
        head = (e.get("path") or "").split(".")[0].split("[")[0]
        out.setdefault(head if head in fields else "general", []).append(e.get("message", ""))
    return out
