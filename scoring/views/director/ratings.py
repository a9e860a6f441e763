"""The club's rating ladder as its directors see it (with each player's move since the latest
rated tournament), the club's ratings settings (public ladder, games left out) and the rebuild
(asked for here, done by a worker)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET, require_POST

import games
from scoring.domain.errors import DomainError
from scoring.domain.ratings import DISPLAY_BASE, DISPLAY_SCALE, PROVISIONAL_DEALS
from scoring.selectors.rating_pages import ladder_with_moves
from scoring.services import clubs as clubs_services
from scoring.services import ratings as ratings_services
from scoring.views.director.access import director_required, errors_by_field, visible_club
from scoring.web.http import status_of


def _page(request, club, *, settings=None, errors=None, status=200):
    language = get_language() or "en"
    settings = settings or {"ladder_public": club.ladder_public, "unrated_games": list(club.unrated_games)}
    return render(request, "director/ratings.html", {
        "club": club, "ladder": ladder_with_moves(club), "provisional_deals": PROVISIONAL_DEALS,
        "base": DISPLAY_BASE, "scale": DISPLAY_SCALE, "settings": settings, "errors": errors or {},
        "game_choices": [(g.key, g.name_in(language), g.key in settings["unrated_games"])
                         for g in games.CATALOG.values()]}, status=status)


@director_required
@require_GET
def ratings_page(request, actor, club_id: int):
    return _page(request, visible_club(actor, club_id))


@director_required
@require_POST
def ratings_settings(request, actor, club_id: int):
    club = visible_club(actor, club_id)
    sent = {"ladder_public": request.POST.get("ladder_public") == "on",
            "unrated_games": request.POST.getlist("unrated_games")}
    try:
        clubs_services.club_ratings_update(actor=actor, club=club, **sent)
    except DomainError as e:
        return _page(request, club, settings=sent, errors=errors_by_field(e.errors, tuple(sent)),
                     status=status_of(e))
    messages.success(request, gettext("Ratings settings saved."))
    return redirect(reverse("director-ratings", args=[club.pk]) + "#settings")


@director_required
@require_POST
def ratings_rebuild(request, actor, club_id: int):
    club = visible_club(actor, club_id)
    ratings_services.ratings_rebuild_queue(actor=actor, club=club)
    messages.success(request, gettext("Ratings rebuild started: the ladder shows it once it is done, "
                                      "in a few seconds for most clubs."))
    return redirect("director-ratings", club.pk)
