"""The club's rating ladder (the director's: a club has no public page of its own yet) and its
rebuild."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from scoring.domain.ratings import DISPLAY_BASE, DISPLAY_SCALE, PROVISIONAL_DEALS
from scoring.selectors.ratings import club_ladder
from scoring.services import ratings as ratings_services
from scoring.views.director.access import _club, director_required


@director_required
@require_GET
def ratings_page(request, actor, club_id: int):
    club = _club(actor, club_id)
    return render(request, "director/ratings.html", {
        "club": club, "ladder": club_ladder(club), "provisional_deals": PROVISIONAL_DEALS,
        "base": DISPLAY_BASE, "scale": DISPLAY_SCALE})


@director_required
@require_POST
def ratings_rebuild(request, actor, club_id: int):
    club = _club(actor, club_id)
    done = ratings_services.ratings_rebuild(actor=actor, club=club)
    messages.success(request, gettext("Ratings rebuilt from %(count)s deals.") % {"count": done["deals"]})
    return redirect("director-ratings", club.pk)
