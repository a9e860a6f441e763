"""A club's public rating ladder (``/clubs/<id>/ratings/``): shown only when the club says its
ladder is public (``Club.ladder_public``); otherwise 404, like an unknown club."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.domain.ratings import DISPLAY_BASE, PROVISIONAL_DEALS
from scoring.models import Club
from scoring.selectors.rating_pages import ladder_with_moves


@require_GET
def club_ratings_page(request, club_id: int):
    club = Club.objects.filter(pk=club_id, ladder_public=True).first()
    if club is None:
        raise Http404(_("No such club."))
    return render(request, "public/ratings.html", {
        "club": club, "ladder": ladder_with_moves(club), "base": DISPLAY_BASE,
        "provisional_deals": PROVISIONAL_DEALS})
