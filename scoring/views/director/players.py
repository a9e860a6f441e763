"""Players' personal codes on the director's pages: the printable sheet of player cards (a fresh
code for everyone, or for one player), and a reset (the player sets a new code at their next use).

The plain codes exist only in the answer to the POST that issued them (``Cache-Control:
no-store``), as the scorer links do: printed or handed over then, never shown again."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.domain.errors import DomainError
from scoring.models import Entry
from scoring.services import players as players_services
from scoring.views.director.access import director_required, visible_tournament


def _cards(request, tournament, cards):
    response = render(request, "director/player_cards.html", {
        "tournament": tournament, "cards": [{"name": e.player.name, "code": code} for e, code in cards]})
    response["Cache-Control"] = "no-store"
    return response


def _refused(request, tournament, error: DomainError):
    messages.error(request, error.message)
    return redirect(reverse("director-tournament", args=[tournament.pk]) + "#codes")


def _entry(tournament, entry_id: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player", "tournament__club"), pk=entry_id,
                             tournament=tournament)


@director_required
@require_POST
def player_cards(request, actor, tournament_id: int):
    """Every player's card with a fresh code (any earlier code stops working)."""
    tournament = visible_tournament(actor, tournament_id)
    try:
        cards = players_services.entry_codes_issue(actor=actor, tournament=tournament)
    except DomainError as e:
        return _refused(request, tournament, e)
    return _cards(request, tournament, cards)


@director_required
@require_POST
def player_card(request, actor, tournament_id: int, entry_id: int):
    """One player's card with a fresh code."""
    tournament = visible_tournament(actor, tournament_id)
    entry = _entry(tournament, entry_id)
    try:
        code = players_services.entry_code_issue(actor=actor, entry=entry)
    except DomainError as e:
        return _refused(request, tournament, e)
    return _cards(request, tournament, [(entry, code)])


@director_required
@require_POST
def player_code_reset(request, actor, tournament_id: int, entry_id: int):
    tournament = visible_tournament(actor, tournament_id)
    entry = _entry(tournament, entry_id)
    try:
        players_services.entry_code_reset(actor=actor, entry=entry)
    except DomainError as e:
        return _refused(request, tournament, e)
    messages.success(request, gettext("%(name)s's code is reset: they set a new one at their next deal.")
                     % {"name": entry.player.name})
    return redirect(reverse("director-tournament", args=[tournament.pk]) + "#codes")
