"""A club's ratings: the ladder, a player's history (why each deal moved the rating), a rebuild.

Readable by the club's directors, and by anyone (no login) when the club's ladder is public
(``Club.ladder_public``): then a player's history lists, for readers other than the directors,
only the results of tournaments anyone may see (``models.PUBLICLY_VISIBLE``). A club whose
ladder is not public answers 404 to everyone else, like an unknown id. The rebuild is the
directors'.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from games.places import RATING_UNITS
from scoring.api.base import LIST_ERRORS, WRITE_ERRORS, ApiView
from scoring.domain.errors import NotFound
from scoring.models import Club, Player
from scoring.selectors.access import directed_club, is_director_of
from scoring.selectors.common import get_or_404
from scoring.selectors.rating_pages import ladder_with_moves, visible_history
from scoring.services.ratings import ratings_rebuild_queue


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
    rank_change = serializers.IntegerField(allow_null=True, help_text=(
        "Places gained since the ladder just before the club's latest rated tournament (its first rated "
        "result): +1 up one place, -1 down one, 0 the same; null for a player not on that ladder."))
    new = serializers.BooleanField(help_text="Not on the ladder before the club's latest rated tournament.")


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
    status = serializers.ChoiceField(choices=["queued"], help_text="A worker rebuilds the ratings; the ladder shows "
                                                                  "them once it is done.")


def _readable(actor, club: Club, what: str) -> bool:
    """Whether ``actor`` directs ``club``; else NotFound unless its ladder is public."""
    if is_director_of(actor, club):
        return True
    if not club.ladder_public:
        raise NotFound(f"No such {what}.")
    return False


class ClubRatingsView(ApiView):
    permission_classes = [AllowAny]   # the club says whether its ladder is public

    @extend_schema(operation_id="clubs_ratings_list", summary="The club's rating ladder, best first",
                   description="The club's directors; anyone (no login needed) when the club's ladder is public.",
                   responses={200: LadderRowSerializer(many=True), **LIST_ERRORS}, tags=["ratings"])
    def get(self, request, pk: int):
        # The same queries for a club whose ladder is not public as for an unknown id.
        club = directed_club(self.actor, pk) or get_or_404(Club, pk=pk, ladder_public=True)
        return self.paginated(ladder_with_moves(club)["rows"], LadderRowSerializer)


class ClubRatingsRebuildView(ApiView):
    @extend_schema(operation_id="clubs_ratings_rebuild", summary="Rebuild the club's ratings from scratch",
                   description="Answers at once; a worker rebuilds them (the rebuild holds the club's ratings "
                               "while it rates every deal).",
                   request=None, responses={202: RebuildSerializer, **WRITE_ERRORS}, tags=["ratings"])
    def post(self, request, pk: int):
        ratings_rebuild_queue(actor=self.actor, club=self.club(pk))
        return Response({"status": "queued"}, status=202)


class PlayerRatingsView(ApiView):
    permission_classes = [AllowAny]   # as the club's ladder: public or its directors'

    @extend_schema(operation_id="players_ratings_list", summary="A player's rated results (deals or table sessions), newest first",
                   description="The club's directors see every rated result; anyone else (no login needed), when "
                               "the club's ladder is public, those of tournaments anyone may see.",
                   responses={200: RatingChangeSerializer(many=True), **LIST_ERRORS}, tags=["ratings"])
    def get(self, request, pk: int):
        player = get_or_404(Player, pk=pk)
        director = _readable(self.actor, player.club, "player")
        return self.paginated(visible_history(player, public_only=not director), RatingChangeSerializer)
