"""Tournaments: list, create, read, change, start, finish; their entries and tables.
"""


from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from scoring.selectors.tables import table_detail, table_list

from scoring.selectors.tournaments import entry_list, tournament_list_for_director

from scoring.services.tables import table_create

from scoring.services.tournaments import entry_create, tournament_create, tournament_finish, tournament_start, tournament_update

from scoring.web import links
from scoring.selectors.access import require_director
from scoring.domain.errors import ValidationFailed
from scoring.models import Player
from scoring.api import serializers as s
from scoring.api.base import LIST_ERRORS, NO_STORE, READ_ERRORS, WRITE_ERRORS, ApiView


class TournamentListView(ApiView):
    @extend_schema(operation_id="tournaments_list", summary="Tournaments of the clubs I direct",
                   responses={200: s.TournamentSerializer(many=True), **LIST_ERRORS}, tags=["tournaments"])
    def get(self, request):
        require_director(self.actor)
        return self.paginated(tournament_list_for_director(request.user), s.TournamentSerializer)

    @extend_schema(operation_id="tournaments_create", request=s.TournamentInputSerializer,
                   responses={201: s.TournamentSerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def post(self, request):
        require_director(self.actor)
        data = self.parse(s.TournamentInputSerializer)
        club = self.club(data.pop("club"))
        t = tournament_create(actor=self.actor, club=club, slug=data.pop("slug", None) or None, **data)
        return Response(s.TournamentSerializer(t).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(ApiView):
    @extend_schema(operation_id="tournaments_retrieve", responses={200: s.TournamentSerializer, **READ_ERRORS},
                   tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.tournament(pk)
        return Response(s.TournamentSerializer(t).data)

    @extend_schema(operation_id="tournaments_update", request=s.TournamentUpdateSerializer,
                   responses={200: s.TournamentSerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def patch(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(s.TournamentUpdateSerializer)
        t = tournament_update(actor=self.actor, tournament=t, **data)
        return Response(s.TournamentSerializer(t).data)


class TournamentStartView(ApiView):
    @extend_schema(operation_id="tournaments_start", summary="draft → running", request=None,
                   responses={200: s.TournamentSerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def post(self, request, pk: int):
        t = tournament_start(actor=self.actor, tournament=self.tournament(pk))
        return Response(s.TournamentSerializer(t).data)


class TournamentFinishView(ApiView):
    @extend_schema(operation_id="tournaments_finish", summary="running → finished (read-only)",
                   request=s.FinishInputSerializer, responses={200: s.TournamentSerializer, **WRITE_ERRORS},
                   tags=["tournaments"])
    def post(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(s.FinishInputSerializer)
        t = tournament_finish(actor=self.actor, tournament=t, disputes_stay=data["disputes_stay"])
        return Response(s.TournamentSerializer(t).data)


class TournamentEntriesView(ApiView):
    @extend_schema(operation_id="tournaments_entries_list",
                   responses={200: s.EntrySerializer(many=True), **LIST_ERRORS}, tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.tournament(pk)
        return self.paginated(entry_list(t), s.EntrySerializer)

    @extend_schema(operation_id="tournaments_entries_create", request=s.EntryInputSerializer,
                   responses={201: s.EntrySerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def post(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(s.EntryInputSerializer)
        player = Player.objects.filter(pk=data["player"], club=t.club).first()
        if player is None:
            raise ValidationFailed("No such player in this club.", path="player", code="not_found")
        entry = entry_create(actor=self.actor, tournament=t, player=player)
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class TournamentTablesView(ApiView):
    @extend_schema(operation_id="tournaments_tables_list", responses={200: s.TableSerializer(many=True), **LIST_ERRORS},
                   tags=["tables"])
    def get(self, request, pk: int):
        t = self.tournament(pk)
        return self.paginated(table_list(t), s.TableSerializer,
                              detail=lambda tables: [table_detail(table) for table in tables])

    @extend_schema(operation_id="tournaments_tables_create",
                   summary="Create a table (the scorer link is in this answer only)",
                   request=s.TableInputSerializer, responses={201: s.TableCreatedSerializer, **WRITE_ERRORS},
                   tags=["tables"])
    def post(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(s.TableInputSerializer)
        table, token = table_create(actor=self.actor, tournament=t, name=data["name"],
                                             entries=data["entries"], session=data.get("session"))
        body = {**table_detail(table), "scorer_url": links.scorer_url(token, request), "scorer_token": token}
        return Response(s.TableCreatedSerializer(body).data, status=status.HTTP_201_CREATED, headers=NO_STORE)
