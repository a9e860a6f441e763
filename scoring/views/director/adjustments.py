"""Adjustments from the director's tournament page: record one (a player, an amount, a reason)
or delete one. A refusal shows the page again with the message at its field (and the answer's
status); a change done redirects to the page, at the adjustments box."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.domain.errors import DomainError
from scoring.domain.inputs import MAX_ID, MAX_TYPED, parse_whole_number
from scoring.models import Adjustment, Entry
from scoring.services import adjustments as adjustments_services
from scoring.views.director.access import director_required, visible_tournament
from scoring.views.director.tournaments import render_dashboard
from scoring.web.http import status_of

#: The field of the form each refusal's path names ("": the whole form).
_FIELDS = {"player": "entry", "amount": "amount", "reason": "reason"}


def _back(tournament):
    return redirect(reverse("director-tournament", args=[tournament.pk]) + "#adjustments")


def _refused(request, actor, tournament, form: dict, errors: dict, status: int):
    return render_dashboard(request, actor, tournament, status=status, adjustment_form=form,
                            adjustment_errors=errors)


def adjustment_posted(request, *, actor, tournament, refused):
    """The adjustment form posted (a director's console or a referee's page): recorded, None;
    refused, ``refused(form, errors, status)`` with the errors at their fields."""
    form = {k: request.POST.get(k, "") for k in ("entry", "amount", "reason")}
    entry_id = parse_whole_number(form["entry"], low=1, high=MAX_ID)
    entry = Entry.objects.select_related("player").filter(pk=entry_id, tournament=tournament).first() \
        if entry_id is not None else None
    if entry is None:
        return refused(form, {"entry": [gettext("Choose a player.")]}, 400)
    amount = parse_whole_number(form["amount"], low=-MAX_TYPED, high=MAX_TYPED, signed=True)
    if amount is None:
        return refused(form, {"amount": [gettext(
            "A whole number of chips or points, from %(low)s to %(high)s: negative for a fine.")
            % {"low": -MAX_TYPED, "high": MAX_TYPED}]}, 400)
    try:
        adjustments_services.adjustment_create(actor=actor, tournament=tournament, entry=entry, amount=amount,
                                               reason=form["reason"])
    except DomainError as e:
        errors: dict = {}
        for problem in e.errors:
            errors.setdefault(_FIELDS.get(problem["path"], "general"), []).append(problem["message"])
        return refused(form, errors, status_of(e))
    return None


@director_required
@require_POST
def adjustment_add(request, actor, tournament_id: int):
    tournament = visible_tournament(actor, tournament_id)
    return adjustment_posted(request, actor=actor, tournament=tournament, refused=lambda form, errors, status: _refused(
        request, actor, tournament, form, errors, status)) or _back(tournament)


@director_required
@require_POST
def adjustment_remove(request, actor, tournament_id: int, adjustment_id: int):
    tournament = visible_tournament(actor, tournament_id)
    adjustment = get_object_or_404(Adjustment.objects.select_related("tournament__club", "entry__player"),
                                   pk=adjustment_id, tournament=tournament)
    try:
        adjustments_services.adjustment_delete(actor=actor, adjustment=adjustment)
    except DomainError as e:
        return _refused(request, actor, tournament, {"entry": "", "amount": "", "reason": ""},
                        {"general": [e.message]}, status_of(e))
    return _back(tournament)
