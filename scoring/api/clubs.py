"""Clubs and their players.
"""


from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from scoring.selectors.clubs import club_list_for_user, player_list

from scoring.services.clubs import club_create, player_create
from scoring.selectors.access import require_director
from scoring.api import serializers as s
from scoring.api.base import LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, ApiView


class ClubListView(ApiView):
    @extend_schema(operation_id="clubs_list", summary="The clubs I direct",
                   responses={200: s.ClubSerializer(many=True), **LIST_ERRORS}, tags=["clubs"])
    def get(self, request):
        require_director(self.actor)
        return self.paginated(club_list_for_user(request.user), s.ClubSerializer)

    @extend_schema(operation_id="clubs_create", summary="Create a club (you become its director)",
                   request=s.ClubInputSerializer, responses={201: s.ClubSerializer, **WRITE_ERRORS}, tags=["clubs"])
    def post(self, request):
        require_director(self.actor)
        data = self.parse(s.ClubInputSerializer)
        club = club_create(actor=self.actor, name=data["name"], slug=data.get("slug") or None)
        return Response(s.ClubSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubDetailView(ApiView):
    @extend_schema(operation_id="clubs_retrieve", responses={200: s.ClubSerializer, **READ_ERRORS}, tags=["clubs"])
    def get(self, request, pk: int):
        club = self.club(pk)
        return Response(s.ClubSerializer(club).data)


class ClubPlayersView(ApiView):
    @extend_schema(operation_id="clubs_players_list", responses={200: s.PlayerSerializer(many=True), **LIST_ERRORS},
                   tags=["clubs"])
    def get(self, request, pk: int):
        club = self.club(pk)
        return self.paginated(player_list(club), s.PlayerSerializer)

    @extend_schema(operation_id="clubs_players_create", request=s.PlayerInputSerializer,
                   responses={201: s.PlayerSerializer, **WRITE_ERRORS}, tags=["clubs"])
    def post(self, request, pk: int):
        club = self.club(pk)
        data = self.parse(s.PlayerInputSerializer)
        player = player_create(actor=self.actor, club=club, name=data["name"])
        return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)
