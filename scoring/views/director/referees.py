"""A tournament's referees from the director's tournament page: add one (an existing user, by
username), take one away (``services.referees``). A refusal shows the page again with the
message at the form (and the answer's status); a change done redirects to the page, at the
referees box. Directors of the club only: a referee gets 403 (``visible_tournament``)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.domain.errors import DomainError
from scoring.services import referees as referees_services
from scoring.views.director.access import director_required, visible_tournament
from scoring.views.director.tournaments import render_dashboard
from scoring.web.http import status_of


def _back(tournament):
    return redirect(reverse("director-tournament", args=[tournament.pk]) + "#referees")


@director_required
@require_POST
def referees_add(request, actor, tournament_id: int):
    tournament = visible_tournament(actor, tournament_id)
    username = request.POST.get("username", "")
    try:
        referee = referees_services.referee_add(actor=actor, tournament=tournament, user=username)
    except DomainError as e:
        return render_dashboard(request, actor, tournament, status=status_of(e), referee_username=username,
                                referee_errors=[err.get("message", "") for err in e.errors] or [e.message])
    messages.success(request, gettext("%(name)s is now a referee of this tournament.")
                     % {"name": referee.user.get_username()})
    return _back(tournament)


@director_required
@require_POST
def referees_remove(request, actor, tournament_id: int, user_id: int):
    tournament = visible_tournament(actor, tournament_id)
    try:
        referees_services.referee_remove(actor=actor, tournament=tournament, user_id=user_id)
    except DomainError as e:
        return render_dashboard(request, actor, tournament, status=status_of(e),
                                referee_errors=[err.get("message", "") for err in e.errors] or [e.message])
    messages.success(request, gettext("The referee was taken away."))
    return _back(tournament)
