"""A season's public page (``/seasons/<id>/``): its standings and its tournaments with their
weights. A season its club keeps private answers 404, like an unknown id. Only the tournaments
anyone may see are listed and counted, whoever reads (the page is the public's; directors manage
the season on theirs)."""

from __future__ import annotations

from decimal import Decimal

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

import games
from scoring.domain.standings import tie_break_labels
from scoring.models import Season
from scoring.selectors.replica import on_replica
from scoring.selectors.seasons import season_links, season_standings


def plain(number: Decimal) -> str:
    """A weight or weighted net without trailing zeros: 2, 1.5, -35."""
    return f"{number.normalize():f}"


@require_GET
@on_replica   # a public page: its reads on the replica (selectors.replica)
def season_page(request, pk: int):
    season = Season.objects.filter(pk=pk, public=True).select_related("club").first()
    if season is None:
        raise Http404(_("No such season."))
    links = season_links(season, public_only=True)
    table = season_standings(season, links=links)
    language = get_language() or "en"
    tournaments = [{"name": link.tournament.name, "slug": link.tournament.slug,
                    "public": link.tournament.publicly_visible,
                    "game_name": games.get_game(link.tournament.game).name_in(language),
                    "weight": plain(link.weight)} for link in links]
    for r in table["rows"]:
        r["net_shown"] = plain(r["net"])
    return render(request, "public/season.html", {
        "season": season, "tournaments": tournaments, "rows": table["rows"],
        "tie_breaks": tie_break_labels(table["tie_breaks"])})
