"""Tables: read, delete an empty one, a new scorer link, and recording a deal (exactly once per
Idempotency-Key) or previewing it.
"""


from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring.api.base import (
    LIST_ERRORS,
    NO_STORE,
    READ_ERRORS,
    WRITE_ERRORS,
    ApiView,
    error_responses,
    etag_header,
    limit,
)
from scoring.api.fields import (
    MAX_SEATS,
    MIN_SEATS,
    DateTimeField,
    ErrorsSerializer,
    IdField,
    InputSerializer,
    OutputSerializer,
    StrictIntegerField,
    TextField,
    UniqueListField,
    ecma,
)
from scoring.api.rounds import (
    ROUND_BODY_DOC,
    ROUND_CREATE_DOC,
    ROUND_EXAMPLE,
    RoundBodySerializer,
    RoundCreateSerializer,
    RoundPreviewSerializer,
    RoundSerializer,
    round_response,
    split_code,
)
from scoring.domain.inputs import MAX_IDEMPOTENCY_KEY, MAX_INT32, MAX_TABLE_NAME, NON_BLANK
from scoring.selectors.rounds import deal_stored_with_key, round_details, round_list, table_round_preview
from scoring.selectors.tables import table_detail
from scoring.services.idempotency import round_record_idempotent
from scoring.services.roster import table_delete
from scoring.services.rounds import round_record
from scoring.services.tables import table_scorer_token_rotate
from scoring.web import links, throttling
from scoring.web.http import etag


class TableInputSerializer(InputSerializer):
    name = TextField(max_length=MAX_TABLE_NAME)
    entries = UniqueListField(child=IdField(), min_length=MIN_SEATS, max_length=MAX_SEATS,
                              help_text="Entry ids in seat order 0..N-1 (counter-clockwise = playing order), "
                                        "as many as the game has players.")
    session = StrictIntegerField(required=False, min_value=1, max_value=MAX_INT32,
                                 help_text="Session number; default the latest (session 1 is created if none).")


class SeatTotalSerializer(OutputSerializer):
    position = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField(help_text="Sum of the nets of the table's counted deals.")
    rounds = serializers.IntegerField(help_text="Counted deals.")


class NextRoundSerializer(OutputSerializer):
    number = serializers.IntegerField()
    entered_by = serializers.IntegerField(allow_null=True)
    leader = serializers.IntegerField(required=False, help_text="Connecting games: who leads by default.")
    banker = serializers.IntegerField(required=False, help_text="Tau Ngau: the banker by default.")


class TableSerializer(OutputSerializer):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    session = serializers.IntegerField(help_text="Session number")
    name = serializers.CharField()
    game = serializers.CharField()
    seats = SeatTotalSerializer(many=True)
    next_round = NextRoundSerializer(help_text="Defaults for the next deal.")
    scorer_token_created_at = DateTimeField()


class TableCreatedSerializer(TableSerializer):
    scorer_url = serializers.CharField(help_text="The scorer's private link; shown only now.")
    scorer_token = serializers.CharField(help_text="The plain scorer token; shown only now, stored hashed.")


class ScorerTokenSerializer(OutputSerializer):
    scorer_url = serializers.CharField()
    scorer_token = serializers.CharField()


class TableDetailView(ApiView):
    scorer_auth = ("GET",)   # its scorer link reads the table; only a director deletes it

    @extend_schema(operation_id="tables_retrieve", summary="A table, with each seat's running total",
                   responses={200: TableSerializer, **READ_ERRORS}, tags=["tables"])
    def get(self, request, pk: int):
        table = self.table(pk)
        return Response(TableSerializer(table_detail(table)).data)

    @extend_schema(operation_id="tables_delete", summary="Delete a table without deals",
                   description="With its seats; its scorer link stops working. A table with any deal (voided "
                               "ones too) is refused (409 `table_has_deals`), as is one of a finished tournament "
                               "(409 `tournament_finished`).",
                   request=None, responses={204: None, **WRITE_ERRORS}, tags=["tables"])
    def delete(self, request, pk: int):
        table_delete(actor=self.actor, table=self.table(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TableScorerTokenView(ApiView):
    @extend_schema(operation_id="tables_scorer_token_rotate", summary="Replace the scorer link (the old one stops working)",
                   request=None, responses={200: ScorerTokenSerializer, **WRITE_ERRORS}, tags=["tables"])
    def post(self, request, pk: int):
        table = self.table(pk)
        token = table_scorer_token_rotate(actor=self.actor, table=table)
        return Response(ScorerTokenSerializer({"scorer_url": links.scorer_url(token, request),
                                               "scorer_token": token}).data, headers=NO_STORE)


class TableRoundsView(ApiView):
    scorer_auth = True
    body_required = True

    @extend_schema(operation_id="tables_rounds_list", responses={200: RoundSerializer(many=True), **LIST_ERRORS},
                   tags=["rounds"])
    def get(self, request, pk: int):
        table = self.table(pk)
        return self.paginated(round_list(table), RoundSerializer,
                              detail=lambda rounds: round_details(table, rounds))

    @extend_schema(
        operation_id="tables_rounds_create", summary="Record a deal", description=ROUND_CREATE_DOC + (
            " Send an `Idempotency-Key` header to make retries safe: the same key and body return the first "
            "answer; the same key with another body is refused (422). Keys are kept at least 24 hours. "
            "The key is checked first: a retry of a deal already recorded gets its stored answer even when it "
            "names its `number`."),
        request=RoundCreateSerializer, examples=[ROUND_EXAMPLE],
        parameters=[OpenApiParameter("Idempotency-Key", {"type": "string", "minLength": 1,
                                                         "maxLength": MAX_IDEMPOTENCY_KEY,
                                                         "pattern": ecma(NON_BLANK)},
                                     OpenApiParameter.HEADER, required=False,
                                     description=f"1 to {MAX_IDEMPOTENCY_KEY} characters, not only spaces: a new one "
                                                 f"for each deal."),
                    etag_header(201),
                    OpenApiParameter("Idempotent-Replayed", str, OpenApiParameter.HEADER, response=[201],
                                     enum=["true"], description="Sent with the stored answer to a repeated key.")],
        responses={201: RoundSerializer, **WRITE_ERRORS, **error_responses(422)}, tags=["rounds"])
    def post(self, request, pk: int):
        table = self.table(pk)
        key = request.headers.get("Idempotency-Key")
        body, proof = split_code(request.data, "entered_by_code")
        # A retry of a stored deal is answered from the store: it is not one more deal (nor a guess).
        # The service says which it is under the key's insert (``count_new``); only a typed code,
        # counted before the service runs, needs to know it first.
        stored = proof is not None and proof.typed and deal_stored_with_key(table, key)
        actor = self.actor
        seat = body.get("entered_by") if isinstance(body, dict) else None

        def count_new():
            if actor.is_scorer:
                limit(lambda: throttling.hit(request, "round-create", str(table.pk)))

        def guarded(call):
            return limit(lambda: throttling.player_code_guarded(request, table, seat, None if stored else proof,
                                                                call))

        if key is None:
            count_new()
            rnd = guarded(lambda: round_record(actor=actor, table=table, body=body, proof=proof))
            return round_response(rnd, status.HTTP_201_CREATED)
        outcome = guarded(lambda: round_record_idempotent(actor=actor, table=table, body=body, key=key,
                                                          proof=proof, before_new=count_new))
        # The stored first answer, rendered as a fresh read of the deal is: the same body both times.
        body = RoundSerializer.stored(outcome.body)
        headers = {"ETag": etag(body["revision"])}
        if outcome.replayed:
            headers["Idempotent-Replayed"] = "true"
        return Response(body, status=outcome.status, headers=headers)


class TableRoundPreviewView(ApiView):
    scorer_auth = True
    body_required = True

    @extend_schema(operation_id="tables_rounds_preview", summary="Evaluate a deal without storing it",
                   description=ROUND_BODY_DOC, request=RoundBodySerializer, examples=[ROUND_EXAMPLE],
                   responses={200: RoundPreviewSerializer, **WRITE_ERRORS}, tags=["rounds"])
    def post(self, request, pk: int):
        table = self.table(pk)
        preview = table_round_preview(table=table, body=request.data)
        if not preview.ok:
            return Response(ErrorsSerializer({"errors": preview.errors}).data, status=status.HTTP_400_BAD_REQUEST)
        return Response(RoundPreviewSerializer(preview.as_dict()).data)
