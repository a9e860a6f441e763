"""Clubs and their players.
"""


from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from scoring.api.base import LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, ApiView
from scoring.api.fields import InputSerializer, OutputModelSerializer, SlugInputField, TextField
from scoring.domain.inputs import MAX_CLUB_NAME, MAX_PLAYER_NAME, MAX_SLUG
from scoring.models import Club, Player
from scoring.selectors.access import require_club_visible, require_director
from scoring.selectors.clubs import club_list_for_user, player_list
from scoring.selectors.common import get_or_404
from scoring.services.clubs import club_create, player_create, player_rename


class ClubInputSerializer(InputSerializer):
    name = TextField(max_length=MAX_CLUB_NAME)
    slug = SlugInputField(max_length=MAX_SLUG, required=False, allow_blank=True)


class ClubSerializer(OutputModelSerializer):
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
                   request=ClubInputSerializer, responses={201: ClubSerializer, **WRITE_ERRORS}, tags=["clubs"])
    def post(self, request):
        require_director(self.actor)
        data = self.parse(ClubInputSerializer)
        club = club_create(actor=self.actor, name=data["name"], slug=data.get("slug") or None)
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
