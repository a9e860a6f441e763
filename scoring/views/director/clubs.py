"""The director's home, clubs and their players, and creating a tournament."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext
from django.views.decorators.http import require_GET, require_POST

import games
from scoring.domain.errors import DomainError, PermissionDenied
from scoring.selectors.clubs import club_list_for_user, player_list
from scoring.selectors.imports import imports_under_way
from scoring.selectors.referees import tournaments_refereed_by
from scoring.selectors.tournaments import tournament_list_for_club, tournament_list_for_director
from scoring.services import clubs as clubs_services
from scoring.services import tournaments as tournaments_services
from scoring.views.director.access import director_required, errors_by_field, visible_club
from scoring.web import tournament_form
from scoring.web.http import status_of


@director_required(referees=True)
@require_GET
def home(request, actor):
    """A director's clubs and tournaments, and the tournaments they referee; a referee who directs
    nothing sees those only (a signed-in user who is neither: 403)."""
    return _home(request, actor)


def _home(request, actor, *, club_errors=None, club_name="", status=200):
    refereed = list(tournaments_refereed_by(request.user))
    if not actor.is_director:
        if not refereed:
            raise PermissionDenied(gettext("Only tournament directors may open these pages."))
        return render(request, "director/home.html", {"refereed": refereed, "director": False}, status=status)
    return render(request, "director/home.html", {
        "clubs": club_list_for_user(request.user),
        "tournaments": tournament_list_for_director(request.user),
        "club_errors": club_errors or {}, "club_name": club_name, "refereed": refereed, "director": True,
    }, status=status)


@director_required
@require_POST
def club_create(request, actor):
    name = request.POST.get("name", "")
    try:
        club = clubs_services.club_create(actor=actor, name=name)
    except DomainError as e:
        return _home(request, actor, club_errors=errors_by_field(e.errors, ("name",)), club_name=name,
                     status=status_of(e))
    messages.success(request, gettext("Club %(name)s created.") % {"name": club.name})
    return redirect("director-club", club.pk)


def render_club_page(request, actor, club, *, status=200, **extra):
    ctx = {
        "club": club,
        "players": player_list(club),
        "tournaments": tournament_list_for_club(club),
        "game_choices": [(g.key, g.name_in(get_language() or "en")) for g in games.CATALOG.values()],
        "t": {"name": "", "game": "", "variant": {}, "public": True, "require_confirmation": False,
              "chip_value": "0", "currency": ""},
        "t_errors": {}, "player_names": "", "player_errors": [],
        "imports": imports_under_way(club), "import_problem": None,
    }
    ctx.update(extra)
    # Every game's rule options; the chosen game's are sent (static/js/site.js hides the rest).
    chosen = ctx["t"]["game"] or next(iter(games.CATALOG))
    ctx["rule_sets"] = [
        {"game": g.key, "name": g.name_in(get_language() or "en"), "chosen": g.key == chosen,
         "fields": tournament_form.variant_fields(g.key, ctx["t"]["variant"] if g.key == chosen else {},
                                        ctx["t_errors"] if g.key == chosen else {}, prefix=f"variant-{g.key}")}
        for g in games.CATALOG.values()]
    return render(request, "director/club.html", ctx, status=status)


@director_required
@require_GET
def club_page(request, actor, club_id: int):
    return render_club_page(request, actor, visible_club(actor, club_id))


@director_required
@require_POST
def players_add(request, actor, club_id: int):
    """One player per line; each is its own service call, so good names are added even when
    another line is refused (the refused lines stay in the box with the reason)."""
    club = visible_club(actor, club_id)
    names = [n.strip() for n in (request.POST.get("names") or "").splitlines() if n.strip()]
    added, refused, errors = [], [], []
    for name in names:
        try:
            clubs_services.player_create(actor=actor, club=club, name=name)
        except DomainError as e:
            refused.append(name)
            errors.append(gettext("%(name)s: %(problem)s") % {"name": name, "problem": e.message})
        else:
            added.append(name)
    if not names:
        errors.append(gettext("Type at least one name."))
    if added:
        messages.success(request, ngettext("Added %(count)d player: %(names)s.", "Added %(count)d players: %(names)s.",
                                           len(added)) % {"count": len(added), "names": ", ".join(added)})
    if errors:
        return render_club_page(request, actor, club, player_names="\n".join(refused), player_errors=errors, status=400)
    return redirect(reverse("director-club", args=[club.pk]) + "#players")


@director_required
@require_POST
def tournament_create(request, actor, club_id: int):
    club = visible_club(actor, club_id)
    p = request.POST
    game = p.get("game", "")
    t = {"name": p.get("name", ""), "game": game,
         "variant": tournament_form.variant_from_post(game, p, prefix=f"variant-{game}") if game in games.CATALOG else {},
         "public": p.get("public") == "on", "require_confirmation": p.get("require_confirmation") == "on",
         "chip_value": p.get("chip_value", "") or "0", "currency": p.get("currency", "")}
    try:
        tournament = tournaments_services.tournament_create(
            actor=actor, club=club, name=t["name"], game=game, variant=t["variant"], public=t["public"],
            require_confirmation=t["require_confirmation"], chip_value=t["chip_value"], currency=t["currency"])
    except DomainError as e:
        return render_club_page(request, actor, club, t=t, t_errors=tournament_form.setting_errors(e.errors), status=status_of(e))
    messages.success(request, gettext("Tournament %(name)s created. Add entries and tables, then start it.")
                     % {"name": tournament.name})
    return redirect("director-tournament", tournament.pk)
