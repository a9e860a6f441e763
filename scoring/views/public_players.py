"""A player's club-wide public page (``/players/<id>/``): their statistics per game and over all,
and their tournaments, counting only the tournaments anyone may see. A player with none answers
404, like an unknown id."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

import games
from scoring.models import Player
from scoring.selectors.player_stats import player_has_public_tournament, player_stats


@require_GET
def club_player_page(request, player_id: int):
    player = Player.objects.filter(pk=player_id).first()
    if player is None or not player_has_public_tournament(player):
        raise Http404(_("No such player."))
    stats = player_stats(player, public_only=True)
    language = get_language() or "en"
    for g in stats["games"]:
        g["game_name"] = games.get_game(g["game"]).name_in(language)
    for t in stats["tournaments"]:
        t["game_name"] = games.get_game(t["game"]).name_in(language)
    return render(request, "public/club_player.html", {"player": player, "stats": stats})
