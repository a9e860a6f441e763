"""A club's ratings: the ladder, a player's history (why each deal moved the rating), a rebuild.

Readable as the club's players are (``api-club-players``): by the club's directors only.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from games.places import RATING_UNITS
from scoring.api.base import LIST_ERRORS, WRITE_ERRORS, ApiView
from scoring.models import Player
from scoring.selectors.access import require_club_visible
from scoring.selectors.common import get_or_404
from scoring.selectors.ratings import club_ladder, player_history
from scoring.services.ratings import ratings_rebuild


class NamedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class LadderRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 = best; equal ratings share the rank.")
    player = NamedSerializer()
    rating = serializers.IntegerField(help_text="1000 + 40 × openskill's ordinal (μ − 3σ): 1000 for a new player.")
    uncertainty = serializers.IntegerField(help_text="40 × σ, in the rating's points.")
    deals = serializers.IntegerField(help_text="Rated results: deals, and table sessions where the game rates "
                                               "sessions (Tau Ngau).")
    provisional = serializers.BooleanField(help_text="Fewer than 10 rated results.")


class OpponentSerializer(NamedSerializer):
    rating = serializers.IntegerField(help_text="The opponent's rating before the deal.")


class DealRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    table = serializers.CharField()
    session = serializers.IntegerField()
    tournament = serializers.IntegerField()
    tournament_name = serializers.CharField()


class RatingChangeSerializer(serializers.Serializer):
    deal = DealRefSerializer(help_text="The deal that keys the result: the deal itself, or a table session's latest.")
    unit = serializers.ChoiceField(choices=list(RATING_UNITS),
                                   help_text="What was rated: one deal, or a table's session by its net over it.")
    unit_deals = serializers.IntegerField(help_text="Counted deals the result stands for (1 for a deal).")
    place = serializers.IntegerField()
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    change = serializers.IntegerField()
    uncertainty = serializers.IntegerField(help_text="After the deal.")
    deals = serializers.IntegerField(help_text="The player's rated results after this one.")
    opponents = OpponentSerializer(many=True)


class RebuildSerializer(serializers.Serializer):
    deals = serializers.IntegerField(help_text="Deals rated.")


class ClubRatingsView(ApiView):
    @extend_schema(operation_id="clubs_ratings_list", summary="The club's rating ladder, best first",
                   responses={200: LadderRowSerializer(many=True), **LIST_ERRORS}, tags=["ratings"])
    def get(self, request, pk: int):
        return self.paginated(club_ladder(self.club(pk)), LadderRowSerializer)


class ClubRatingsRebuildView(ApiView):
    @extend_schema(operation_id="clubs_ratings_rebuild", summary="Rebuild the club's ratings from scratch",
                   request=None, responses={200: RebuildSerializer, **WRITE_ERRORS}, tags=["ratings"])
    def post(self, request, pk: int):
        done = ratings_rebuild(actor=self.actor, club=self.club(pk))
        return Response({"deals": done["deals"]})


class PlayerRatingsView(ApiView):
    @extend_schema(operation_id="players_ratings_list", summary="A player's rated results (deals or table sessions), newest first",
                   responses={200: RatingChangeSerializer(many=True), **LIST_ERRORS}, tags=["ratings"])
    def get(self, request, pk: int):
        player = get_or_404(Player, pk=pk)
        require_club_visible(self.actor, player.club, "player")   # as api-player
        return self.paginated(player_history(player), RatingChangeSerializer)
