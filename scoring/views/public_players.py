"""A player's club-wide public page (``/players/<id>/``): their statistics per game and over all,
and their tournaments, counting only the tournaments anyone may see. A player with none answers
404, like an unknown id — unless their club's ladder is public and they are on it.

When the club's ladder is public (``Club.ladder_public``) the page also shows the player's
rating: the chart of its path over every rated result (numbers only: the rating the ladder shows
takes in every rated tournament, private ones too), and why it moved, result by result, newest
first — those of public tournaments only (a private tournament's results stay its directors').

What is the player's own is shown only on a phone that proves him (``web.player_proof``: it
remembers him from a table or from this page, under his code version; or he types his code
here, counted like a code at a table): his seats to come, in the open sessions of every
tournament of his club, public or not. A reset of his code hides them on every phone."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

import games
from scoring.domain import row_scope
from scoring.domain.errors import DomainError
from scoring.domain.inputs import MAX_INT32, parse_whole_number
from scoring.domain.paging import Page
from scoring.domain.ratings import Rating
from scoring.models import Player, PlayerRating
from scoring.selectors.player_stats import player_has_public_tournament, player_stats
from scoring.selectors.players import player_upcoming_seats, proven_player
from scoring.selectors.rating_pages import rating_path, visible_history
from scoring.selectors.replica import on_replica
from scoring.views.scorer import limited_or_invalid
from scoring.web import throttling
from scoring.web.charts import rating_chart
from scoring.web.http import status_of
from scoring.web.player_proof import forget, phone_knows, remember
from scoring.web.presentation import seat_name
from scoring.web.rule_messages import error_message

#: Rated results a page of "why it moved".
HISTORY_PAGE_SIZE = 20


def _rating(request, player: Player, current: PlayerRating) -> dict:
    path = rating_path(player)
    name = player.name
    rating = Rating(current.mu, current.sigma, current.deals)
    ratings = [p["rating"] for p in path]
    chart = rating_chart(
        [(p["rating"], p["uncertainty"]) for p in path], chart_id="rating-chart",
        title=_("Rating of %(name)s") % {"name": name},
        desc=(ngettext("%(name)s's rating after each of %(count)s rated result: %(rating)s now, lowest %(low)s, "
                       "highest %(high)s; the band is ± the uncertainty.",
                       "%(name)s's rating after each of %(count)s rated results: %(rating)s now, lowest %(low)s, "
                       "highest %(high)s; the band is ± the uncertainty.", len(path))
              % {"name": name, "count": len(path), "rating": rating.display,
                 "low": min(ratings, default=rating.display), "high": max(ratings, default=rating.display)}),
        x_label=_("Rated results"), y_label=_("Rating"))
    rows = visible_history(player, public_only=True)
    asked = parse_whole_number(request.GET.get("history_page"), low=1, high=MAX_INT32)
    return {
        "rating": rating.display, "uncertainty": rating.uncertainty, "deals": rating.deals,
        "provisional": rating.provisional,
        # Built and escaped by scoring.web.charts (every text in it goes through html.escape).
        "chart": mark_safe(chart),  # noqa: S308
        "history": Page.of(rows, asked, HISTORY_PAGE_SIZE),
    }


def _shown_player(player_id: int) -> tuple[Player, PlayerRating | None]:
    """The player and his rating as his page shows them, or 404: unknown, or nothing public."""
    player = Player.objects.select_related("club").filter(pk=player_id).first()
    if player is None:
        raise Http404(_("No such player."))
    current = (PlayerRating.objects.filter(club_id=player.club_id, player=player).first()
               if player.club.ladder_public else None)
    if current is None and not player_has_public_tournament(player):
        raise Http404(_("No such player."))
    return player, current


@require_GET
@on_replica   # a public page: its reads on the replica (selectors.replica)
def club_player_page(request, player_id: int):
    player, current = _shown_player(player_id)
    return _page(request, player, current)


def _page(request, player: Player, current: PlayerRating | None, *, prove: dict | None = None, status: int = 200):
    """The page; ``prove``: the code form as sent and its errors."""
    known = phone_knows(request, player)
    stats = player_stats(player, public_only=True)
    language = get_language() or "en"
    for g in stats["games"]:
        g["game_name"] = games.get_game(g["game"]).name_in(language)
    for t in stats["tournaments"]:
        t["game_name"] = games.get_game(t["game"]).name_in(language)
    response = render(request, "public/club_player.html", {
        "player": player, "stats": stats, "rating": _rating(request, player, current) if current else None,
        "known": known, "prove": prove or {},
        "seats": _his_seats(player) if known else []}, status=status)
    if known:   # what is his: kept by no cache between the phone and the site
        response["Cache-Control"] = "private, no-store"
    return response


def _his_seats(player: Player) -> list[dict]:
    """His seats to come (for a phone that proves him), read in his club's scope: a private
    tournament's rows are his club's under row-level security (``domain.row_scope``), and these
    are his own."""
    with row_scope.within(row_scope.of_clubs([player.club_id])):
        seats = player_upcoming_seats(player)
    return [{**s, "seat": seat_name(s["position"], s["seats"]),
             "others": [{"seat": seat_name(p, s["seats"]), "name": n} for p, n in s["others"]]} for s in seats]


@never_cache
@require_POST
@limited_or_invalid
def prove_player(request, player_id: int):
    """"Is this you?": the player types his code on his page; this phone then remembers him (as a
    table's "Who are you?" does) and the page shows what is his. A wrong code is counted against
    him (``throttling.player_code_counted``), wherever it is typed."""
    player, current = _shown_player(player_id)
    code = (request.POST.get("code") or "").strip()
    try:
        throttling.player_code_counted(request, player.pk, lambda: proven_player(player, code))
    except DomainError as e:
        return _page(request, player, current, prove={"errors": [error_message(e)]}, status=status_of(e))
    response = redirect(reverse("public-club-player", args=[player.pk]) + "#my-seats")
    remember(request, response, player)
    messages.success(request, _("Hello %(name)s: this phone knows you now.") % {"name": player.name})
    return response


@never_cache
@require_POST
def forget_player(request, player_id: int):
    """"Not you?": this phone forgets the player it remembers in his club."""
    player, _current = _shown_player(player_id)
    response = redirect(reverse("public-club-player", args=[player.pk]))
    forget(response, player.club_id)
    return response
