"""The players' check-in page, ``/t/<slug>/check-in/``: opened from the room's QR code (the
director's check-in sheet), a player picks their name and types their personal code, and is
checked in for the session about to be seated (``services.checkins.entry_self_check_in``).

Public tournaments that have started only (as every ``/t/`` page; another slug is a 404). A
wrong code changes nothing and says so at the field; wrong codes count against that player as
on the scorer page (``web.throttling.player_code_counted``: the same allowance), and past it the
page answers 429. Never cached: it says who is checked in now.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from scoring.domain import row_scope
from scoring.domain.errors import DomainError, NotFound
from scoring.domain.inputs import MAX_ID, parse_whole_number
from scoring.selectors.checkins import check_in_session, entry_player_id, session_check_ins
from scoring.selectors.public import public_tournament
from scoring.services.checkins import entry_self_check_in
from scoring.web import throttling
from scoring.web.auth import actor_from_request
from scoring.web.http import status_of
from scoring.web.rule_messages import error_message

FIELDS = ("entry", "code")


def _page(request, tournament, *, status: int = 200, form: dict | None = None, errors: dict | None = None,
          done=None):
    session = check_in_session(tournament)
    found = session_check_ins(session) if session is not None else None
    return render(request, "public/check_in.html", {
        "tournament": tournament, "session": session,
        "entries": sorted([e for e, _row in found.checked_in] + found.missing, key=lambda e: e.player.name)
        if found else [],
        "checked_in": {e.pk for e, _row in found.checked_in} if found else set(),
        "form": form or {"entry": None}, "errors": errors or {}, "done": done
    }, status=status)


@never_cache
@require_http_methods(["GET", "POST"])
def check_in_page(request, slug):
    try:
        tournament = public_tournament(slug)
    except NotFound as e:
        raise Http404(e.message) from None
    if request.method == "GET":
        return _page(request, tournament)
    entry_id = parse_whole_number(request.POST.get("entry", ""), low=1, high=MAX_ID)
    code = (request.POST.get("code") or "").strip()
    form = {"entry": entry_id}
    actor = actor_from_request(request)
    row_scope.admit_club(tournament.club_id)   # a check-in is the club's row (row-level security)

    def check_in():
        return entry_self_check_in(actor=actor, tournament=tournament, entry_id=entry_id, code=code)

    try:
        player_id = None if entry_id is None else entry_player_id(tournament, entry_id)
        if player_id is None:
            row, _created = check_in()   # refused at "entry" by the service, nothing counted
        else:
            row, _created = throttling.player_code_counted(request, player_id, check_in)
    except throttling.Limited as e:
        response = _page(request, tournament, status=429, form=form, errors={"code": [e.message]})
        response["Retry-After"] = str(e.retry_after)
        return response
    except DomainError as e:
        errors: dict[str, list[str]] = {}
        for problem in e.errors:
            head = (problem.get("path") or "").split("[")[0]
            errors.setdefault(head if head in FIELDS else "general", []).append(problem.get("message", ""))
        if not e.errors:
            errors["general"] = [error_message(e)]
        return _page(request, tournament, status=status_of(e), form=form, errors=errors)
    return _page(request, tournament, done=row.entry)
