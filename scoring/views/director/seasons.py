"""A club's seasons, the director's: the list and a new season (``/director/clubs/<id>/seasons/``),
and one season (``/director/seasons/<id>/``): its name, slug and publication, and its
tournaments with their weights (added, changed, removed) — all through ``services.seasons``,
each refusal shown at its field."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from scoring.domain.errors import DomainError, NotFound, ValidationFailed
from scoring.domain.inputs import MAX_INT32, parse_whole_number
from scoring.models import Season, Tournament
from scoring.selectors.access import require_club_visible
from scoring.selectors.seasons import season_links, season_list
from scoring.services import seasons as seasons_services
from scoring.views.director.access import director_required, errors_by_field, visible_club
from scoring.web.http import status_of

SEASON_FIELDS = ("name", "slug", "public")


def _season(actor, pk) -> Season:
    """The season, if the actor directs its club (else 404, as an unknown id)."""
    season = Season.objects.select_related("club").filter(pk=pk).first()
    if season is None:
        raise NotFound(gettext("No such season."))
    require_club_visible(actor, season.club, "season")
    return season


def _sent(request) -> dict:
    p = request.POST
    return {"name": p.get("name", ""), "slug": p.get("slug", "").strip(), "public": p.get("public") == "on"}


def _list_page(request, club, *, new=None, errors=None, status=200):
    return render(request, "director/seasons.html", {
        "club": club, "seasons": season_list(club, public_only=False),
        "new": new or {"name": "", "slug": "", "public": False}, "errors": errors or {}}, status=status)


@director_required
@require_http_methods(["GET", "POST"])
def seasons_page(request, actor, club_id: int):
    club = visible_club(actor, club_id)
    if request.method == "GET":
        return _list_page(request, club)
    sent = _sent(request)
    try:
        season = seasons_services.season_create(actor=actor, club=club, **sent)
    except DomainError as e:
        return _list_page(request, club, new=sent, errors=errors_by_field(e.errors, SEASON_FIELDS),
                          status=status_of(e))
    messages.success(request, gettext("Season %(name)s created. Add its tournaments.") % {"name": season.name})
    return redirect("director-season", season.pk)


def _weight_text(weight) -> str:
    """1 rather than 1.000; 1.5 rather than 1.500."""
    return format(weight.normalize(), "f")


def _season_page(request, season, *, settings=None, errors=None, add=None, add_errors=None, weight_errors=None,
                 status=200):
    """``weight_errors``: a weight refused on a tournament's row, {tournament id: (sent, [messages])}."""
    links = season_links(season)
    counted = {link.tournament_id for link in links}
    for link in links:   # a weight refused on its row shows there, as it was sent
        sent, problems = (weight_errors or {}).get(link.tournament_id, (None, []))
        link.shown_weight = _weight_text(link.weight) if sent is None else sent
        link.weight_problems = problems
    return render(request, "director/season.html", {
        "club": season.club, "season": season, "links": links,
        "settings": settings or {"name": season.name, "slug": season.slug, "public": season.public},
        "errors": errors or {},
        "addable": [t for t in Tournament.objects.filter(club=season.club).order_by("-created_at")
                    if t.pk not in counted],
        "add": add or {"tournament": "", "weight": "1"}, "add_errors": add_errors or {}}, status=status)


@director_required
@require_http_methods(["GET", "POST"])
def season_page(request, actor, season_id: int):
    season = _season(actor, season_id)
    if request.method == "GET":
        return _season_page(request, season)
    sent = _sent(request)
    try:
        seasons_services.season_update(actor=actor, season=season, **sent)
    except DomainError as e:
        return _season_page(request, season, settings=sent, errors=errors_by_field(e.errors, SEASON_FIELDS),
                            status=status_of(e))
    messages.success(request, gettext("Season saved."))
    return redirect("director-season", season.pk)


def _club_tournament(season: Season, value) -> Tournament | None:
    pk = parse_whole_number(value, low=1, high=MAX_INT32)
    return None if pk is None else Tournament.objects.filter(pk=pk, club_id=season.club_id).first()


@director_required
@require_POST
def season_tournament_add(request, actor, season_id: int):
    """Add a tournament with its weight, or (``row``: sent from its row) change its weight."""
    season = _season(actor, season_id)
    p = request.POST
    sent = {"tournament": p.get("tournament", ""), "weight": p.get("weight", "").strip()}
    from_row = p.get("row") == "1"
    tournament = _club_tournament(season, sent["tournament"])
    try:
        if tournament is None:
            raise ValidationFailed(gettext("Choose one of the club's tournaments."), path="tournament",
                                   code="required")
        seasons_services.season_tournament_add(actor=actor, season=season, tournament=tournament,
                                               weight=sent["weight"])
    except DomainError as e:
        if from_row and tournament is not None:
            problems = [x["message"] for x in e.errors]
            return _season_page(request, season, weight_errors={tournament.pk: (sent["weight"], problems)},
                                status=status_of(e))
        return _season_page(request, season, add=sent, add_errors=errors_by_field(e.errors, ("tournament", "weight")),
                            status=status_of(e))
    messages.success(request, gettext("%(name)s counts %(weight)s× in the season.")
                     % {"name": tournament.name, "weight": sent["weight"]})
    return redirect(reverse("director-season", args=[season.pk]) + "#tournaments")


@director_required
@require_POST
def season_tournament_remove(request, actor, season_id: int, tournament_id: int):
    season = _season(actor, season_id)
    tournament = _club_tournament(season, str(tournament_id))
    if tournament is None:
        raise NotFound(gettext("No such tournament."))
    seasons_services.season_tournament_remove(actor=actor, season=season, tournament=tournament)
    messages.success(request, gettext("%(name)s left the season.") % {"name": tournament.name})
    return redirect(reverse("director-season", args=[season.pk]) + "#tournaments")
