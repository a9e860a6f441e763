"""Reads of seasons: a club's list, one season's tournaments, and its standings (the
tournaments' kept standings weighted and summed, ``scoring.domain.seasons``)."""

from __future__ import annotations

from django.db.models import QuerySet

from scoring.domain.inputs import MAX_ID
from scoring.domain.seasons import Result, season_rows, season_tie_breaks
from scoring.domain.standings import Figures
from scoring.models import PUBLICLY_VISIBLE, Club, Season, SeasonTournament, Standing, Tournament

_KEPT = ("tournament_id", "entry__player_id", "entry__player__name", "total", "rounds_counted", "wins",
         *Standing.PLACES)


def season_list(club: Club | int, *, public_only: bool) -> QuerySet[Season]:
    """A club's seasons (``club``: the club or its id); ``public_only``: those anyone may see.
    An id no row can have has none (asked of no database: SQLite overflows on it)."""
    if isinstance(club, int) and not 0 < club <= MAX_ID:
        return Season.objects.none()
    seasons = Season.objects.filter(club=club)
    return seasons.filter(public=True) if public_only else seasons


def season_links(season: Season, *, public_only: bool = False) -> list[SeasonTournament]:
    """The season's tournaments with their weights, in the order they were added. One query.
    ``public_only``: only those anyone may see (``models.PUBLICLY_VISIBLE``), for readers who do
    not direct the club: a public season must not show a private or draft tournament's name, nor
    count its results in the standings (``season_standings`` reads these links)."""
    links = SeasonTournament.objects.filter(season=season)
    if public_only:
        links = links.filter(tournament__in=Tournament.objects.filter(PUBLICLY_VISIBLE))
    return list(links.select_related("tournament"))


def season_standings(season: Season, *, links: list[SeasonTournament] | None = None,
                     public_only: bool = False) -> dict:
    """``tie_breaks`` (the order ranked by: ``season_tie_breaks``) and ``rows``
    (``scoring.domain.seasons.season_rows``). Reads the kept standings rows (exact with every
    deal), never the deals: two queries whatever the tournaments, players and deals (one given
    ``links``). A player with an entry but no deal yet is listed with zero. ``public_only``: as
    ``season_links`` (ignored when ``links`` are given: they were read so already)."""
    links = season_links(season, public_only=public_only) if links is None else links
    weights = {link.tournament_id: link.weight for link in links}
    results: dict[int, list[Result]] = {tid: [] for tid in weights}
    if weights:
        for v in Standing.objects.filter(tournament_id__in=list(weights)).values(*_KEPT):
            f = Figures(v["total"], v["rounds_counted"], v["wins"], tuple(v[p] for p in Standing.PLACES), None)
            results[v["tournament_id"]].append(Result(v["entry__player_id"], v["entry__player__name"], f))
    tie_breaks = season_tie_breaks([link.tournament.tie_breaks for link in links])
    return {"tie_breaks": tie_breaks, "rows": season_rows(results, weights, tie_breaks)}
