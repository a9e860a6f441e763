"""A club's public rating ladder (``/clubs/<id>/ratings/``): shown only when the club says its
ladder is public (``Club.ladder_public``); otherwise 404, like an unknown club. 100 players a
page (``?page=``)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.domain.inputs import MAX_INT32, parse_whole_number
from scoring.domain.paging import Page
from scoring.domain.ratings import DISPLAY_BASE, PROVISIONAL_DEALS
from scoring.models import Club
from scoring.selectors.rating_pages import ladder_with_moves
from scoring.selectors.replica import on_replica

#: Players a page of the public ladder (a public page stays light, as the standings' 100).
LADDER_PAGE_SIZE = 100


@require_GET
@on_replica   # a public page: its reads on the replica (selectors.replica)
def club_ratings_page(request, club_id: int):
    club = Club.objects.filter(pk=club_id, ladder_public=True).first()
    if club is None:
        raise Http404(_("No such club."))
    ladder = ladder_with_moves(club)
    rows = ladder["rows"]
    page = Page.of(rows, parse_whole_number(request.GET.get("page"), low=1, high=MAX_INT32), LADDER_PAGE_SIZE)
    return render(request, "public/ratings.html", {
        "club": club, "ladder": {**ladder, "rows": page}, "page": page, "base": DISPLAY_BASE,
        "provisional_deals": PROVISIONAL_DEALS})
