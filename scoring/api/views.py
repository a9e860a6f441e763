"""The REST API (thin: parse, authorise, call a service or selector, render with the output
serializer).

Errors always come as ``{"errors": [{"path", "code", "message"}]}`` (paths relative to the
request body), plus ``detail`` for answers other than 400 (``errors.api_exception_handler``).
Lists come in pages: ``{"count", "next", "previous", "results"}``.
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from .. import links, selectors, services, throttling
from ..actors import require_club_visible, require_director, require_director_of, require_table_visible
from ..auth import DirectorTokenAuthentication, ScorerAuthentication, actor_from_request, client_ip
from ..errors import ValidationFailed
from ..http import IF_MATCH, etag, parse_if_match
from ..models import Club, Player, Round, Table, Tournament
from . import serializers as s
from .parsers import SafeJSONParser
from .schema import ApiAutoSchema

ERRORS = OpenApiResponse(s.ErrorsSerializer, description="`{\"errors\": [{\"path\", \"code\", \"message\"}]}`, "
                                                         "plus `detail` for answers other than 400.")


def error_responses(*codes: int) -> dict:
    return {code: ERRORS for code in codes}


#: What an authenticated read may answer besides 200: not logged in, not yours, no such thing or
#: page, too many unknown tokens from this address.
READ_ERRORS = error_responses(401, 403, 404, 429)
#: ... and a list: also a bad ``page`` or ``page_size``.
LIST_ERRORS = error_responses(400, 401, 403, 404, 429)
#: ... and a write: bad input, or a state that refuses it (a finished tournament, ...).
WRITE_ERRORS = error_responses(400, 401, 403, 404, 409, 429)


def etag_header(code: int) -> OpenApiParameter:
    return OpenApiParameter("ETag", str, OpenApiParameter.HEADER, response=[code], required=True,
                            description='The revision of the deal, like `"2"`: send it as If-Match to correct it.')


class ApiView(APIView):
    authentication_classes = [DirectorTokenAuthentication, ScorerAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]
    #: JSON only: the bodies are nested (lists of ids, rule options, deals), which forms cannot say.
    parser_classes = [SafeJSONParser]
    schema = ApiAutoSchema()
    #: Whether a table's scorer link may use this endpoint (else directors only). A scorer link
    #: is still authenticated everywhere, so that it gets 403 (or 404 for others' objects)
    #: rather than 401; the schema shows the scorer scheme only where it can succeed.
    scorer_auth = False
    #: The schema shows the page envelope for every GET documented as a list (``many=True``), so a
    #: view that answers a plain list sets None.
    pagination_class = api_settings.DEFAULT_PAGINATION_CLASS

    @property
    def actor(self):
        return actor_from_request(self.request)

    # Objects by id. One the caller may not see answers 404 like an unknown id, so that ids of
    # other clubs and tables cannot be told apart from ids that do not exist.

    def club(self, pk) -> Club:
        club = selectors.get_or_404(Club, pk=pk)
        require_club_visible(self.actor, club, "club")
        return club

    def tournament(self, pk) -> Tournament:
        t = selectors.tournament_get(pk)
        require_club_visible(self.actor, t.club, "tournament")
        return t

    def table(self, pk) -> Table:
        """A scorer link's own table comes with its authentication, unread again."""
        own = self.request.auth
        if isinstance(own, Table) and str(own.pk) == str(pk):
            return own
        table = selectors.table_get(pk)
        require_table_visible(self.actor, table)
        return table

    def round(self, pk) -> Round:
        rnd = selectors.round_get(pk)
        require_table_visible(self.actor, rnd.table, "round")
        return rnd

    def parse(self, serializer_class):
        ser = serializer_class(data=self.request.data)
        ser.is_valid(raise_exception=True)
        return ser.validated_data

    def paginated(self, items, serializer_class, detail=None) -> Response:
        """One page of ``items`` (a queryset or a list) as ``{count, next, previous, results}``.
        ``detail``: turns the page's items into what ``serializer_class`` renders, so that costly
        reads are made for one page only."""
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(items, self.request, view=self)
        if detail is not None:
            page = detail(page)
        return paginator.get_paginated_response(serializer_class(page, many=True).data)


class NotFoundView(APIView):
    """Any other path under /api/ (``/api/v1/tables/abc/``, which no ``<int:pk>`` matches): a
    404 in the errors shape rather than Django's HTML page. Not in the schema (no methods)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        raise exceptions.NotFound()


# ------------------------------------------------------------------------------------------------
# Auth

def limit(call):
    """Run a throttling call; past the limit, DRF's 429 with Retry-After (and our errors body)."""
    try:
        call()
    except throttling.Limited as e:
        raise exceptions.Throttled(wait=e.retry_after, detail=e.message) from None


class AuthTokenView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    parser_classes = [SafeJSONParser]

    @extend_schema(operation_id="auth_token", summary="Get a director's API token",
                   description="Send `{\"username\", \"password\"}`; use the answer as `Authorization: Token <token>`. "
                               "Each call makes a new token, shown only now; it expires (`expires_in` seconds). "
                               "Failed logins are limited per account and per address (429 with Retry-After).",
                   request=s.TokenInputSerializer,
                   responses={200: s.TokenOutputSerializer, **error_responses(400, 403, 429)},
                   tags=["auth"])
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        username, address = data.get("username"), client_ip(request) or "unknown"
        account = username.lower()[:150] if isinstance(username, str) else ""
        limit(lambda: throttling.check(request, "login-address", address))
        limit(lambda: throttling.check(request, "login-account", account))
        try:
            credentials = s.TokenInputSerializer(data=request.data)
            credentials.is_valid(raise_exception=True)
            token = services.auth_token_obtain(**credentials.validated_data, ip=address)
        except (ValidationFailed, exceptions.ValidationError):
            throttling.count(request, "login-address", address)
            throttling.count(request, "login-account", account)
            raise
        return Response(s.TokenOutputSerializer({"token": token,
                                                 "expires_in": int(settings.API_TOKEN_TTL.total_seconds())}).data)


class AuthTokenRevokeView(ApiView):
    @extend_schema(operation_id="auth_token_revoke", summary="Log out everywhere",
                   description="Every API token of the calling director stops working at once.",
                   request=None, responses={200: s.RevokedSerializer, **error_responses(401, 403, 429)}, tags=["auth"])
    def post(self, request):
        revoked = services.auth_tokens_revoke(actor=self.actor)
        return Response(s.RevokedSerializer({"revoked": revoked}).data)


# ------------------------------------------------------------------------------------------------
# Clubs and players

class ClubListView(ApiView):
    @extend_schema(operation_id="clubs_list", summary="The clubs I direct",
                   responses={200: s.ClubSerializer(many=True), **LIST_ERRORS}, tags=["clubs"])
    def get(self, request):
        require_director(self.actor)
        return self.paginated(selectors.club_list_for_user(request.user), s.ClubSerializer)

    @extend_schema(operation_id="clubs_create", summary="Create a club (you become its director)",
                   request=s.ClubInputSerializer, responses={201: s.ClubSerializer, **WRITE_ERRORS}, tags=["clubs"])
    def post(self, request):
        require_director(self.actor)
        data = self.parse(s.ClubInputSerializer)
        club = services.club_create(actor=self.actor, name=data["name"], slug=data.get("slug") or None)
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
        return self.paginated(selectors.player_list(club), s.PlayerSerializer)

    @extend_schema(operation_id="clubs_players_create", request=s.PlayerInputSerializer,
                   responses={201: s.PlayerSerializer, **WRITE_ERRORS}, tags=["clubs"])
    def post(self, request, pk: int):
        club = self.club(pk)
        data = self.parse(s.PlayerInputSerializer)
        player = services.player_create(actor=self.actor, club=club, name=data["name"])
        return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


# ------------------------------------------------------------------------------------------------
# Tournaments

class TournamentListView(ApiView):
    @extend_schema(operation_id="tournaments_list", summary="Tournaments of the clubs I direct",
                   responses={200: s.TournamentSerializer(many=True), **LIST_ERRORS}, tags=["tournaments"])
    def get(self, request):
        require_director(self.actor)
        return self.paginated(selectors.tournament_list_for_director(request.user), s.TournamentSerializer)

    @extend_schema(operation_id="tournaments_create", request=s.TournamentInputSerializer,
                   responses={201: s.TournamentSerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def post(self, request):
        require_director(self.actor)
        data = self.parse(s.TournamentInputSerializer)
        club = self.club(data.pop("club"))
        t = services.tournament_create(actor=self.actor, club=club, slug=data.pop("slug", None) or None, **data)
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
        t = services.tournament_update(actor=self.actor, tournament=t, **data)
        return Response(s.TournamentSerializer(t).data)


class TournamentStartView(ApiView):
    @extend_schema(operation_id="tournaments_start", summary="draft → running", request=None,
                   responses={200: s.TournamentSerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def post(self, request, pk: int):
        t = services.tournament_start(actor=self.actor, tournament=self.tournament(pk))
        return Response(s.TournamentSerializer(t).data)


class TournamentFinishView(ApiView):
    @extend_schema(operation_id="tournaments_finish", summary="running → finished (read-only)",
                   request=s.FinishInputSerializer, responses={200: s.TournamentSerializer, **WRITE_ERRORS},
                   tags=["tournaments"])
    def post(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(s.FinishInputSerializer)
        t = services.tournament_finish(actor=self.actor, tournament=t, disputes_stay=data["disputes_stay"])
        return Response(s.TournamentSerializer(t).data)


class TournamentEntriesView(ApiView):
    @extend_schema(operation_id="tournaments_entries_list",
                   responses={200: s.EntrySerializer(many=True), **LIST_ERRORS}, tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.tournament(pk)
        return self.paginated(selectors.entry_list(t), s.EntrySerializer)

    @extend_schema(operation_id="tournaments_entries_create", request=s.EntryInputSerializer,
                   responses={201: s.EntrySerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def post(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(s.EntryInputSerializer)
        player = Player.objects.filter(pk=data["player"], club=t.club).first()
        if player is None:
            raise ValidationFailed("No such player in this club.", path="player", code="not_found")
        entry = services.entry_create(actor=self.actor, tournament=t, player=player)
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class TournamentTablesView(ApiView):
    @extend_schema(operation_id="tournaments_tables_list", responses={200: s.TableSerializer(many=True), **LIST_ERRORS},
                   tags=["tables"])
    def get(self, request, pk: int):
        t = self.tournament(pk)
        return self.paginated(selectors.table_list(t), s.TableSerializer,
                              detail=lambda tables: [selectors.table_detail(table) for table in tables])

    @extend_schema(operation_id="tournaments_tables_create",
                   summary="Create a table (the scorer link is in this answer only)",
                   request=s.TableInputSerializer, responses={201: s.TableCreatedSerializer, **WRITE_ERRORS},
                   tags=["tables"])
    def post(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(s.TableInputSerializer)
        table, token = services.table_create(actor=self.actor, tournament=t, name=data["name"],
                                             entries=data["entries"], session=data.get("session"))
        body = {**selectors.table_detail(table), "scorer_url": links.scorer_url(token, request), "scorer_token": token}
        return Response(s.TableCreatedSerializer(body).data, status=status.HTTP_201_CREATED)


# ------------------------------------------------------------------------------------------------
# Tables

class TableDetailView(ApiView):
    scorer_auth = True

    @extend_schema(operation_id="tables_retrieve", summary="A table, with each seat's running total",
                   responses={200: s.TableSerializer, **READ_ERRORS}, tags=["tables"])
    def get(self, request, pk: int):
        table = self.table(pk)
        return Response(s.TableSerializer(selectors.table_detail(table)).data)


class TableScorerTokenView(ApiView):
    @extend_schema(operation_id="tables_scorer_token_rotate", summary="Replace the scorer link (the old one stops working)",
                   request=None, responses={200: s.ScorerTokenSerializer, **WRITE_ERRORS}, tags=["tables"])
    def post(self, request, pk: int):
        table = self.table(pk)
        token = services.table_scorer_token_rotate(actor=self.actor, table=table)
        return Response(s.ScorerTokenSerializer({"scorer_url": links.scorer_url(token, request),
                                                 "scorer_token": token}).data)


ROUND_BODY_DOC = (
    "The round record (ROUND_RECORD.md) **without** `game`, `variant` and `seats` (the table knows them). "
    "Per-seat lists are by table seat position. Add `leader` (connecting games: the seat position that led; "
    "default the previous deal's `next_leader`) or `banker` (Tau Ngau; default the previous deal's "
    "`next_banker`), and `entered_by` (the seat position of the player entering it)."
)
ROUND_EXAMPLE = OpenApiExample("Jie Long, points", value={"leader": 0, "entered_by": 1, "points": [2, 12, 34, 18]},
                               request_only=True)


class TableRoundsView(ApiView):
    scorer_auth = True
    body_required = True

    @extend_schema(operation_id="tables_rounds_list", responses={200: s.RoundSerializer(many=True), **LIST_ERRORS},
                   tags=["rounds"])
    def get(self, request, pk: int):
        table = self.table(pk)
        return self.paginated(selectors.round_list(table), s.RoundSerializer,
                              detail=lambda rounds: selectors.round_details(table, rounds))

    @extend_schema(
        operation_id="tables_rounds_create", summary="Record a deal", description=ROUND_BODY_DOC + (
            " Send an `Idempotency-Key` header to make retries safe: the same key and body return the first "
            "answer; the same key with another body is refused (422). Keys are kept at least 24 hours. "
            "The key is checked first: a retry of a deal already recorded gets its stored answer even when it "
            "names its `number`."),
        request=s.RoundCreateSerializer, examples=[ROUND_EXAMPLE],
        parameters=[OpenApiParameter("Idempotency-Key", {"type": "string", "minLength": 1,
                                                         "maxLength": services.MAX_IDEMPOTENCY_KEY,
                                                         "pattern": s.ecma(s.NON_BLANK)},
                                     OpenApiParameter.HEADER, required=False,
                                     description="1 to 255 characters, not only spaces: a new one for each deal."),
                    etag_header(201),
                    OpenApiParameter("Idempotent-Replayed", str, OpenApiParameter.HEADER, response=[201],
                                     enum=["true"], description="Sent with the stored answer to a repeated key.")],
        responses={201: s.RoundSerializer, **WRITE_ERRORS, **error_responses(422)}, tags=["rounds"])
    def post(self, request, pk: int):
        table = self.table(pk)
        if self.actor.is_scorer:
            limit(lambda: throttling.hit(request, "round-create", str(table.pk)))
        key = request.headers.get("Idempotency-Key")
        if key is None:
            rnd = services.round_record(actor=self.actor, table=table, body=request.data)
            return _round_response(rnd, status.HTTP_201_CREATED)
        outcome = services.round_record_idempotent(actor=self.actor, table=table, body=request.data, key=key)
        # The stored first answer, rendered as a fresh read of the deal is: the same body both times.
        body = s.RoundSerializer(outcome.body).data
        headers = {"ETag": etag(body["revision"])}
        if outcome.replayed:
            headers["Idempotent-Replayed"] = "true"
        return Response(body, status=outcome.status, headers=headers)


class TableRoundPreviewView(ApiView):
    scorer_auth = True
    body_required = True

    @extend_schema(operation_id="tables_rounds_preview", summary="Evaluate a deal without storing it",
                   description=ROUND_BODY_DOC, request=s.RoundBodySerializer, examples=[ROUND_EXAMPLE],
                   responses={200: s.RoundPreviewSerializer, **WRITE_ERRORS}, tags=["rounds"])
    def post(self, request, pk: int):
        table = self.table(pk)
        preview = selectors.table_round_preview(table=table, body=request.data)
        if not preview.ok:
            return Response(s.ErrorsSerializer({"errors": preview.errors}).data, status=status.HTTP_400_BAD_REQUEST)
        return Response(s.RoundPreviewSerializer(preview.as_dict()).data)


# ------------------------------------------------------------------------------------------------
# Rounds

def _round_response(rnd: Round, code=status.HTTP_200_OK) -> Response:
    rnd = selectors.round_get(rnd.pk)
    return Response(s.RoundSerializer(selectors.round_detail(rnd)).data, status=code,
                    headers={"ETag": etag(rnd.current_revision.number)})


class RoundDetailView(ApiView):
    scorer_auth = True

    @extend_schema(operation_id="rounds_retrieve", summary="A deal (ETag: its revision)", parameters=[etag_header(200)],
                   responses={200: s.RoundSerializer, **READ_ERRORS}, tags=["rounds"])
    def get(self, request, pk: int):
        return _round_response(self.round(pk))

    @extend_schema(
        operation_id="rounds_correct", summary="Correct a deal (a new revision)",
        description=ROUND_BODY_DOC + ' Add a top-level `reason`, and send `If-Match: "<revision>"` with the revision '
        "you are correcting: a stale one gets 412, none 428. Scorers may correct until the deal is confirmed.",
        request=s.RoundCorrectionSerializer,
        examples=[OpenApiExample("Jie Long, two scores swapped", request_only=True,
                                 value={"leader": 0, "points": [2, 12, 18, 34], "reason": "Two scores swapped"})],
        parameters=[OpenApiParameter("If-Match", {"type": "string", "pattern": s.ecma(IF_MATCH.pattern)},
                                     OpenApiParameter.HEADER, required=True,
                                     description='The revision being corrected, as its ETag (`"2"`) or bare (`2`).',
                                     examples=[OpenApiExample("The first revision", value='"1"')]),
                    etag_header(200)],
        responses={200: s.RoundSerializer, **WRITE_ERRORS, **error_responses(412, 428)}, tags=["rounds"])
    def put(self, request, pk: int):
        rnd = self.round(pk)
        body = request.data
        reason = body.get("reason") if isinstance(body, dict) else None
        if isinstance(body, dict):
            # What the schema says of the body (RoundCorrection: seat positions, the reason as
            # sent), checked before the If-Match precondition; the rest is the engine's.
            s.RoundCorrectionSerializer(data=body).is_valid(raise_exception=True)
        rnd = services.round_correct(actor=self.actor, round=rnd, body=body, reason=reason,
                                     expected_revision=parse_if_match(request.headers.get("If-Match")))
        return _round_response(rnd)


ROUND_CHANGED = {"parameters": [etag_header(200)], "responses": {200: s.RoundSerializer, **WRITE_ERRORS},
                 "tags": ["rounds"]}


class RoundConfirmView(ApiView):
    scorer_auth = True

    @extend_schema(operation_id="rounds_confirm", request=s.ConfirmInputSerializer, **ROUND_CHANGED)
    def post(self, request, pk: int):
        rnd = self.round(pk)
        data = self.parse(s.ConfirmInputSerializer)
        return _round_response(services.round_confirm(actor=self.actor, round=rnd, confirmed_by=data.get("confirmed_by")))


class RoundVoidView(ApiView):
    @extend_schema(operation_id="rounds_void", summary="Void a deal (directors)", request=s.VoidInputSerializer,
                   **ROUND_CHANGED)
    def post(self, request, pk: int):
        rnd = self.round(pk)
        require_director_of(self.actor, rnd.table.session.tournament.club)
        data = self.parse(s.VoidInputSerializer)
        return _round_response(services.round_void(actor=self.actor, round=rnd, reason=data["reason"]))


class RoundDisputeView(ApiView):
    scorer_auth = True

    @extend_schema(operation_id="rounds_dispute", summary="Call the referee", request=s.DisputeInputSerializer,
                   **ROUND_CHANGED)
    def post(self, request, pk: int):
        rnd = self.round(pk)
        data = self.parse(s.DisputeInputSerializer)
        return _round_response(services.round_dispute(actor=self.actor, round=rnd, message=data["message"]))


class RoundResolveView(ApiView):
    @extend_schema(operation_id="rounds_resolve", summary="Settle a dispute (directors)", request=s.ResolveInputSerializer,
                   **ROUND_CHANGED)
    def post(self, request, pk: int):
        rnd = self.round(pk)
        require_director_of(self.actor, rnd.table.session.tournament.club)
        data = self.parse(s.ResolveInputSerializer)
        return _round_response(services.round_dispute_resolve(actor=self.actor, round=rnd, note=data.get("note", "")))


class RoundRevisionsView(ApiView):
    scorer_auth = True

    @extend_schema(operation_id="rounds_revisions", summary="The full history of a deal, with the hash chain check",
                   responses={200: s.RevisionsSerializer, **READ_ERRORS}, tags=["rounds"])
    def get(self, request, pk: int):
        rnd = self.round(pk)
        return Response(s.RevisionsSerializer({"chain": selectors.round_verify_chain(rnd),
                                               "revisions": selectors.round_revisions(rnd)}).data)
