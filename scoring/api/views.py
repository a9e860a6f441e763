"""The REST API (thin: parse, authorise, call a service or selector, answer).

Errors always come as ``{"errors": [{"path", "code", "message"}]}`` (paths relative to the
request body), plus ``detail`` for authentication/permission/not-found answers.
"""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import links, selectors, services
from ..actors import require_director, require_director_of, require_table_access
from ..auth import ScorerAuthentication, actor_from_request, client_ip
from ..errors import ValidationFailed
from ..http import etag, parse_if_match
from ..models import Club, Player, Round, Tournament
from . import serializers as s

ERRORS = OpenApiResponse(s.ErrorsSerializer, description="`{\"errors\": [{\"path\", \"code\", \"message\"}]}`")
COMMON_ERRORS = {400: ERRORS, 401: ERRORS, 403: ERRORS, 404: ERRORS, 409: ERRORS}


def _json(data):
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


class ApiView(APIView):
    authentication_classes = [TokenAuthentication, ScorerAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]

    @property
    def actor(self):
        return actor_from_request(self.request)

    def parse(self, serializer_class):
        ser = serializer_class(data=self.request.data)
        ser.is_valid(raise_exception=True)
        return ser.validated_data


def _tournament(pk) -> Tournament:
    return selectors.tournament_get(pk)


def _table_data(table, request=None) -> dict:
    return {"id": table.pk, "tournament": table.session.tournament_id, "session": table.session.number,
            "name": table.name, "game": table.session.tournament.game,
            "seats": selectors.table_running_totals(table), "next_round": selectors.round_defaults(table),
            "scorer_token_created_at": table.scorer_token_created_at}


# ------------------------------------------------------------------------------------------------
# Auth

class AuthTokenView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(operation_id="auth_token", summary="Get a director's API token",
                   description="Send `{\"username\", \"password\"}`; use the answer as `Authorization: Token <token>`.",
                   request=s.TokenInputSerializer, responses={200: s.TokenOutputSerializer, 400: ERRORS, 403: ERRORS},
                   tags=["auth"])
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        token = services.auth_token_obtain(username=data.get("username"), password=data.get("password"),
                                           ip=client_ip(request))
        return Response({"token": token})


# ------------------------------------------------------------------------------------------------
# Clubs and players

class ClubListView(ApiView):
    @extend_schema(operation_id="clubs_list", summary="The clubs I direct", responses={200: s.ClubSerializer(many=True)},
                   tags=["clubs"])
    def get(self, request):
        require_director(self.actor)
        return Response(s.ClubSerializer(selectors.club_list_for_user(request.user), many=True).data)

    @extend_schema(operation_id="clubs_create", summary="Create a club (you become its director)",
                   request=s.ClubInputSerializer, responses={201: s.ClubSerializer, **COMMON_ERRORS}, tags=["clubs"])
    def post(self, request):
        require_director(self.actor)
        data = self.parse(s.ClubInputSerializer)
        club = services.club_create(actor=self.actor, name=data["name"], slug=data.get("slug") or None)
        return Response(s.ClubSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubDetailView(ApiView):
    @extend_schema(operation_id="clubs_retrieve", responses={200: s.ClubSerializer, **COMMON_ERRORS}, tags=["clubs"])
    def get(self, request, pk: int):
        club = selectors.get_or_404(Club, pk=pk)
        require_director_of(self.actor, club)
        return Response(s.ClubSerializer(club).data)


class ClubPlayersView(ApiView):
    @extend_schema(operation_id="clubs_players_list", responses={200: s.PlayerSerializer(many=True), **COMMON_ERRORS},
                   tags=["clubs"])
    def get(self, request, pk: int):
        club = selectors.get_or_404(Club, pk=pk)
        require_director_of(self.actor, club)
        return Response(s.PlayerSerializer(selectors.player_list(club), many=True).data)

    @extend_schema(operation_id="clubs_players_create", request=s.PlayerInputSerializer,
                   responses={201: s.PlayerSerializer, **COMMON_ERRORS}, tags=["clubs"])
    def post(self, request, pk: int):
        club = selectors.get_or_404(Club, pk=pk)
        require_director_of(self.actor, club)
        data = self.parse(s.PlayerInputSerializer)
        player = services.player_create(actor=self.actor, club=club, name=data["name"])
        return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


# ------------------------------------------------------------------------------------------------
# Tournaments

class TournamentListView(ApiView):
    @extend_schema(operation_id="tournaments_list", summary="Tournaments of the clubs I direct",
                   responses={200: s.TournamentSerializer(many=True)}, tags=["tournaments"])
    def get(self, request):
        require_director(self.actor)
        return Response(s.TournamentSerializer(selectors.tournament_list_for_director(request.user), many=True).data)

    @extend_schema(operation_id="tournaments_create", request=s.TournamentInputSerializer,
                   responses={201: s.TournamentSerializer, **COMMON_ERRORS}, tags=["tournaments"])
    def post(self, request):
        require_director(self.actor)
        data = self.parse(s.TournamentInputSerializer)
        club = selectors.get_or_404(Club, pk=data.pop("club"))
        t = services.tournament_create(actor=self.actor, club=club, slug=data.pop("slug", None) or None, **data)
        return Response(s.TournamentSerializer(t).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(ApiView):
    @extend_schema(operation_id="tournaments_retrieve", responses={200: s.TournamentSerializer, **COMMON_ERRORS},
                   tags=["tournaments"])
    def get(self, request, pk: int):
        t = _tournament(pk)
        require_director_of(self.actor, t.club)
        return Response(s.TournamentSerializer(t).data)

    @extend_schema(operation_id="tournaments_update", request=s.TournamentUpdateSerializer,
                   responses={200: s.TournamentSerializer, **COMMON_ERRORS}, tags=["tournaments"])
    def patch(self, request, pk: int):
        t = _tournament(pk)
        require_director_of(self.actor, t.club)
        data = self.parse(s.TournamentUpdateSerializer)
        t = services.tournament_update(actor=self.actor, tournament=t, **data)
        return Response(s.TournamentSerializer(t).data)


class TournamentStartView(ApiView):
    @extend_schema(operation_id="tournaments_start", summary="draft → running", request=None,
                   responses={200: s.TournamentSerializer, **COMMON_ERRORS}, tags=["tournaments"])
    def post(self, request, pk: int):
        t = services.tournament_start(actor=self.actor, tournament=_tournament(pk))
        return Response(s.TournamentSerializer(t).data)


class TournamentFinishView(ApiView):
    @extend_schema(operation_id="tournaments_finish", summary="running → finished (read-only)", request=None,
                   responses={200: s.TournamentSerializer, **COMMON_ERRORS}, tags=["tournaments"])
    def post(self, request, pk: int):
        t = services.tournament_finish(actor=self.actor, tournament=_tournament(pk))
        return Response(s.TournamentSerializer(t).data)


class TournamentEntriesView(ApiView):
    @extend_schema(operation_id="tournaments_entries_list", responses={200: s.EntrySerializer(many=True), **COMMON_ERRORS},
                   tags=["tournaments"])
    def get(self, request, pk: int):
        t = _tournament(pk)
        require_director_of(self.actor, t.club)
        return Response(s.EntrySerializer(selectors.entry_list(t), many=True).data)

    @extend_schema(operation_id="tournaments_entries_create", request=s.EntryInputSerializer,
                   responses={201: s.EntrySerializer, **COMMON_ERRORS}, tags=["tournaments"])
    def post(self, request, pk: int):
        t = _tournament(pk)
        require_director_of(self.actor, t.club)
        data = self.parse(s.EntryInputSerializer)
        player = Player.objects.filter(pk=data["player"], club=t.club).first()
        if player is None:
            raise ValidationFailed("No such player in this club.", path="player", code="not_found")
        entry = services.entry_create(actor=self.actor, tournament=t, player=player)
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class TournamentStandingsView(ApiView):
    @extend_schema(operation_id="tournaments_standings", responses={200: s.StandingSerializer(many=True), **COMMON_ERRORS},
                   tags=["tournaments"])
    def get(self, request, pk: int):
        t = _tournament(pk)
        require_director_of(self.actor, t.club)
        return Response(_json(selectors.standings_for(t)))


class TournamentTablesView(ApiView):
    @extend_schema(operation_id="tournaments_tables_list", responses={200: s.TableSerializer(many=True), **COMMON_ERRORS},
                   tags=["tables"])
    def get(self, request, pk: int):
        t = _tournament(pk)
        require_director_of(self.actor, t.club)
        return Response(_json([_table_data(table) for table in selectors.table_list(t)]))

    @extend_schema(operation_id="tournaments_tables_create",
                   summary="Create a table (the scorer link is in this answer only)",
                   request=s.TableInputSerializer, responses={201: s.TableCreatedSerializer, **COMMON_ERRORS},
                   tags=["tables"])
    def post(self, request, pk: int):
        t = _tournament(pk)
        require_director_of(self.actor, t.club)
        data = self.parse(s.TableInputSerializer)
        table, token = services.table_create(actor=self.actor, tournament=t, name=data["name"],
                                             entries=data["entries"], session=data.get("session"))
        body = {**_table_data(table), "scorer_url": links.scorer_url(token, request), "scorer_token": token}
        return Response(_json(body), status=status.HTTP_201_CREATED)


# ------------------------------------------------------------------------------------------------
# Tables

class TableDetailView(ApiView):
    @extend_schema(operation_id="tables_retrieve", summary="A table, with each seat's running total",
                   responses={200: s.TableSerializer, **COMMON_ERRORS}, tags=["tables"])
    def get(self, request, pk: int):
        table = selectors.table_get(pk)
        require_table_access(self.actor, table)
        return Response(_json(_table_data(table)))


class TableScorerTokenView(ApiView):
    @extend_schema(operation_id="tables_scorer_token_rotate", summary="Replace the scorer link (the old one stops working)",
                   request=None, responses={200: s.ScorerTokenSerializer, **COMMON_ERRORS}, tags=["tables"])
    def post(self, request, pk: int):
        table = selectors.table_get(pk)
        token = services.table_scorer_token_rotate(actor=self.actor, table=table)
        return Response({"scorer_url": links.scorer_url(token, request), "scorer_token": token})


ROUND_BODY_DOC = (
    "The round record (ROUND_RECORD.md) **without** `game`, `variant` and `seats` (the table knows them). "
    "Per-seat lists are by table seat position. Add `leader` (connecting games: the seat position that led; "
    "default the previous deal's `next_leader`) or `banker` (Tau Ngau; default the previous deal's "
    "`next_banker`), and `entered_by` (the seat position of the player entering it)."
)
ROUND_EXAMPLE = OpenApiExample("Jie Long, points", value={"leader": 0, "entered_by": 1, "points": [2, 12, 34, 18]},
                               request_only=True)


class TableRoundsView(ApiView):
    @extend_schema(operation_id="tables_rounds_list", responses={200: s.RoundSerializer(many=True), **COMMON_ERRORS},
                   tags=["rounds"])
    def get(self, request, pk: int):
        table = selectors.table_get(pk)
        require_table_access(self.actor, table)
        return Response(_json(selectors.round_history(table)))

    @extend_schema(
        operation_id="tables_rounds_create", summary="Record a deal", description=ROUND_BODY_DOC + (
            " Send an `Idempotency-Key` header to make retries safe: the same key and body return the first "
            "answer; the same key with another body is refused (422). Keys are kept at least 24 hours."),
        request=OpenApiTypes.OBJECT, examples=[ROUND_EXAMPLE],
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
        responses={201: s.RoundSerializer, 422: ERRORS, **COMMON_ERRORS}, tags=["rounds"])
    def post(self, request, pk: int):
        table = selectors.table_get(pk)
        key = request.headers.get("Idempotency-Key")
        if key is not None:
            outcome = services.round_record_idempotent(actor=self.actor, table=table, body=request.data, key=key)
            headers = {"ETag": etag(outcome.body.get("revision", 1))}
            if outcome.replayed:
                headers["Idempotent-Replayed"] = "true"
            return Response(outcome.body, status=outcome.status, headers=headers)
        rnd = services.round_record(actor=self.actor, table=table, body=request.data)
        rnd = selectors.round_get(rnd.pk)
        return Response(_json(selectors.round_detail(rnd)), status=status.HTTP_201_CREATED,
                        headers={"ETag": etag(rnd.current_revision.number)})


class TableRoundPreviewView(ApiView):
    @extend_schema(operation_id="tables_rounds_preview", summary="Evaluate a deal without storing it",
                   description=ROUND_BODY_DOC, request=OpenApiTypes.OBJECT, examples=[ROUND_EXAMPLE],
                   responses={200: s.RoundPreviewSerializer, **COMMON_ERRORS}, tags=["rounds"])
    def post(self, request, pk: int):
        table = selectors.table_get(pk)
        require_table_access(self.actor, table)
        preview = selectors.table_round_preview(table=table, body=request.data)
        if not preview.ok:
            return Response({"errors": preview.errors}, status=status.HTTP_400_BAD_REQUEST)
        return Response(_json(preview.as_dict()))


# ------------------------------------------------------------------------------------------------
# Rounds

def _round_for(view: ApiView, pk) -> Round:
    rnd = selectors.round_get(pk)
    require_table_access(view.actor, rnd.table)
    return rnd


def _round_response(rnd: Round, code=status.HTTP_200_OK) -> Response:
    rnd = selectors.round_get(rnd.pk)
    return Response(_json(selectors.round_detail(rnd)), status=code, headers={"ETag": etag(rnd.current_revision.number)})


class RoundDetailView(ApiView):
    @extend_schema(operation_id="rounds_retrieve", summary="A deal (ETag: its revision)",
                   responses={200: s.RoundSerializer, **COMMON_ERRORS}, tags=["rounds"])
    def get(self, request, pk: int):
        return _round_response(_round_for(self, pk))

    @extend_schema(
        operation_id="rounds_correct", summary="Correct a deal (a new revision)",
        description=ROUND_BODY_DOC + ' Add a top-level `reason`, and send `If-Match: "<revision>"` with the revision '
        "you are correcting: a stale one gets 412, none 428. Scorers may correct until the deal is confirmed.",
        request=OpenApiTypes.OBJECT,
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=True)],
        responses={200: s.RoundSerializer, 412: ERRORS, 428: ERRORS, **COMMON_ERRORS}, tags=["rounds"])
    def put(self, request, pk: int):
        rnd = _round_for(self, pk)
        body = request.data
        reason = body.get("reason") if isinstance(body, dict) else None
        rnd = services.round_correct(actor=self.actor, round=rnd, body=body, reason=reason,
                                     expected_revision=parse_if_match(request.headers.get("If-Match")))
        return _round_response(rnd)


class RoundConfirmView(ApiView):
    @extend_schema(operation_id="rounds_confirm", request=s.ConfirmInputSerializer,
                   responses={200: s.RoundSerializer, **COMMON_ERRORS}, tags=["rounds"])
    def post(self, request, pk: int):
        rnd = _round_for(self, pk)
        data = self.parse(s.ConfirmInputSerializer)
        return _round_response(services.round_confirm(actor=self.actor, round=rnd, confirmed_by=data.get("confirmed_by")))


class RoundVoidView(ApiView):
    @extend_schema(operation_id="rounds_void", summary="Void a deal (directors)", request=s.VoidInputSerializer,
                   responses={200: s.RoundSerializer, **COMMON_ERRORS}, tags=["rounds"])
    def post(self, request, pk: int):
        rnd = _round_for(self, pk)
        require_director_of(self.actor, rnd.table.session.tournament.club)
        data = self.parse(s.VoidInputSerializer)
        return _round_response(services.round_void(actor=self.actor, round=rnd, reason=data["reason"]))


class RoundDisputeView(ApiView):
    @extend_schema(operation_id="rounds_dispute", summary="Call the referee", request=s.DisputeInputSerializer,
                   responses={200: s.RoundSerializer, **COMMON_ERRORS}, tags=["rounds"])
    def post(self, request, pk: int):
        rnd = _round_for(self, pk)
        data = self.parse(s.DisputeInputSerializer)
        return _round_response(services.round_dispute(actor=self.actor, round=rnd, message=data["message"]))


class RoundResolveView(ApiView):
    @extend_schema(operation_id="rounds_resolve", summary="Settle a dispute (directors)", request=s.ResolveInputSerializer,
                   responses={200: s.RoundSerializer, **COMMON_ERRORS}, tags=["rounds"])
    def post(self, request, pk: int):
        rnd = _round_for(self, pk)
        require_director_of(self.actor, rnd.table.session.tournament.club)
        data = self.parse(s.ResolveInputSerializer)
        return _round_response(services.round_dispute_resolve(actor=self.actor, round=rnd, note=data["note"]))


class RoundRevisionsView(ApiView):
    @extend_schema(operation_id="rounds_revisions", summary="The full history of a deal, with the hash chain check",
                   responses={200: s.RevisionsSerializer, **COMMON_ERRORS}, tags=["rounds"])
    def get(self, request, pk: int):
        rnd = _round_for(self, pk)
        return Response(_json({"chain": selectors.round_verify_chain(rnd).as_dict(),
                               "revisions": selectors.round_revisions(rnd)}))
