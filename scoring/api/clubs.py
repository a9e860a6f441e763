"""Clubs and their players, and a player's statistics (``/players/{id}/stats/``).
"""


from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from scoring.api.base import LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, ApiView
from scoring.api.fields import (
    DateTimeField,
    InputSerializer,
    OutputModelSerializer,
    OutputSerializer,
    TextField,
)
from scoring.domain.errors import NotFound
from scoring.domain.inputs import MAX_CLUB_NAME, MAX_PLAYER_NAME
from scoring.models import Club, Player
from scoring.selectors.access import is_director_of, require_club_visible, require_director
from scoring.selectors.clubs import club_list_for_user, player_list
from scoring.selectors.common import get_or_404
from scoring.selectors.player_stats import player_has_public_tournament, player_stats
from scoring.services.clubs import club_create, player_create, player_rename


class ClubInputSerializer(InputSerializer):
    # No slug: a new club's is random (services.clubs.club_create); a chosen one refused as taken
    # would tell that another club has it.
    name = TextField(max_length=MAX_CLUB_NAME)


class ClubSerializer(OutputModelSerializer):
    slug = serializers.CharField(read_only=True, help_text="Random for a new club (it tells nothing of its name).")

    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]


class PlayerInputSerializer(InputSerializer):
    name = TextField(max_length=MAX_PLAYER_NAME)


class PlayerUpdateSerializer(InputSerializer):
    name = TextField(max_length=MAX_PLAYER_NAME, required=False,
                     help_text="The new name, everywhere in the club (the deals already recorded keep the name "
                               "they were recorded under). Unique in the club: another player's is refused (409 "
                               "`exists`).")


class PlayerSerializer(OutputModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "club", "name", "created_at"]


class ClubListView(ApiView):
    @extend_schema(operation_id="clubs_list", summary="The clubs I direct",
                   responses={200: ClubSerializer(many=True), **LIST_ERRORS}, tags=["clubs"])
    def get(self, request):
        require_director(self.actor)
        return self.paginated(club_list_for_user(request.user), ClubSerializer)

    @extend_schema(operation_id="clubs_create", summary="Create a club (you become its director)",
                   description="Its slug is random: one made from its name, or a chosen one refused as taken, "
                               "would tell whether another club has that name or slug (a `slug` sent is refused, "
                               "400 `unknown_field`).",
                   request=ClubInputSerializer, responses={201: ClubSerializer, **WRITE_ERRORS}, tags=["clubs"])
    def post(self, request):
        require_director(self.actor)
        data = self.parse(ClubInputSerializer)
        club = club_create(actor=self.actor, name=data["name"])
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubDetailView(ApiView):
    @extend_schema(operation_id="clubs_retrieve", responses={200: ClubSerializer, **READ_ERRORS}, tags=["clubs"])
    def get(self, request, pk: int):
        club = self.club(pk)
        return Response(ClubSerializer(club).data)


class ClubPlayersView(ApiView):
    @extend_schema(operation_id="clubs_players_list", responses={200: PlayerSerializer(many=True), **LIST_ERRORS},
                   tags=["clubs"])
    def get(self, request, pk: int):
        club = self.club(pk)
        return self.paginated(player_list(club), PlayerSerializer)

    @extend_schema(operation_id="clubs_players_create", request=PlayerInputSerializer,
                   responses={201: PlayerSerializer, **WRITE_ERRORS}, tags=["clubs"])
    def post(self, request, pk: int):
        club = self.club(pk)
        data = self.parse(PlayerInputSerializer)
        player = player_create(actor=self.actor, club=club, name=data["name"])
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(ApiView):
    def player(self, pk) -> Player:
        player = get_or_404(Player, pk=pk)
        require_club_visible(self.actor, player.club, "player")
        return player

    @extend_schema(operation_id="players_update", summary="Rename a player (club-wide)",
                   request=PlayerUpdateSerializer, responses={200: PlayerSerializer, **WRITE_ERRORS},
                   tags=["clubs"])
    def patch(self, request, pk: int):
        player = self.player(pk)
        data = self.parse(PlayerUpdateSerializer)
        if "name" in data:
            player = player_rename(actor=self.actor, player=player, name=data["name"])
        return Response(PlayerSerializer(player).data)


class BestSessionSerializer(OutputSerializer):
    tournament = serializers.IntegerField()
    tournament_name = serializers.CharField()
    slug = serializers.CharField()
    session = serializers.IntegerField(help_text="The session's number in its tournament.")
    net = serializers.IntegerField()
    deals = serializers.IntegerField()


class StatsFiguresSerializer(OutputSerializer):
    deals = serializers.IntegerField(help_text="Counted deals played.")
    sessions = serializers.IntegerField(help_text="Sessions with at least one counted deal.")
    average_place = serializers.FloatField(allow_null=True, help_text="Sum of places / deals placed (3 decimals); "
                                                                      "null when no deal placed the player.")
    firsts = serializers.IntegerField(help_text="Deals at place 1 (ties share a place; Tau Ngau and Da Ling "
                                                "place the seats by net, as the standings do).")
    wins = serializers.IntegerField(help_text="Deals won by the game's rule (as in the standings).")
    net = serializers.IntegerField(help_text="Sum of the nets, in each game's unit.")
    chips_won = serializers.IntegerField(help_text="Sum of the positive nets.")
    chips_lost = serializers.IntegerField(help_text="Sum of the negative nets, as a positive number.")
    best_session = BestSessionSerializer(allow_null=True, help_text="The session with the largest net.")
    suanzhang = serializers.DictField(child=serializers.IntegerField(), required=False,
                                      help_text="Ding Niu: `caused` (the player's SuanZhang) and `suffered` "
                                                "(another seat's SuanZhang that made the player pay).")
    bulls = serializers.DictField(child=serializers.IntegerField(), required=False,
                                  help_text="Tau Ngau deals entered with hands: `hands`, `possible` (a bull could "
                                            "be made), `found` (a bull was made), `best_found` (the best bull), "
                                            "`suboptimal` (the engine's warnings of a worse declaration).")
    banker = serializers.DictField(child=serializers.IntegerField(), required=False,
                                   help_text="Tau Ngau: deals as banker, the net in them, and how many were won.")
    must_play = serializers.DictField(child=serializers.IntegerField(), required=False,
                                      help_text="Connecting games: deals entered as full logs and the player's "
                                                "`must_play` warnings in them.")


class GameStatsSerializer(StatsFiguresSerializer):
    game = serializers.CharField()
    game_name = serializers.CharField()


class StatsTournamentSerializer(OutputSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    game = serializers.CharField()
    status = serializers.CharField()
    publicly_visible = serializers.BooleanField()
    started_at = DateTimeField(allow_null=True)
    deals = serializers.IntegerField()
    net = serializers.IntegerField()


class StatsPlayerSerializer(OutputSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PlayerStatsSerializer(OutputSerializer):
    player = StatsPlayerSerializer()
    public_only = serializers.BooleanField(help_text="Only tournaments anyone may see are counted (a reader who "
                                                     "does not direct the player's club).")
    overall = StatsFiguresSerializer()
    games = GameStatsSerializer(many=True)
    tournaments = StatsTournamentSerializer(many=True, help_text="Newest first.")


class PlayerStatsView(ApiView):
    permission_classes = [AllowAny]   # the public sees what its public tournaments show
    pagination_class = None

    @extend_schema(operation_id="players_stats", summary="A player's statistics",
                   description="Per game and over all, from the stored results of the player's counted deals: "
                               "deals, sessions, average place, firsts, nets, the best session, and each game's "
                               "own figures. A director of the player's club sees every tournament; anyone else "
                               "(no login needed) only the tournaments anyone may see, and 404 for a player "
                               "with none. A fixed number of queries, whatever the number of deals.",
                   responses={200: PlayerStatsSerializer, **READ_ERRORS}, tags=["clubs"])
    def get(self, request, pk: int):
        player = get_or_404(Player, pk=pk)
        if is_director_of(self.actor, player.club):
            return Response(PlayerStatsSerializer(player_stats(player, public_only=False)).data)
        if not player_has_public_tournament(player):
            raise NotFound("No such player.")
        return Response(PlayerStatsSerializer(player_stats(player, public_only=True)).data)
