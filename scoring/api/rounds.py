"""Deals: read, correct (If-Match), confirm, void, dispute, settle; a deal's revisions.
"""


from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response

from scoring.selectors.audits import round_verify_chain

from scoring.selectors.rounds import round_detail, round_get, round_revisions

from scoring.services.rounds import round_confirm, round_correct, round_dispute, round_dispute_resolve, round_void
from scoring.selectors.access import require_director_of
from scoring.web.http import IF_MATCH, etag, parse_if_match
from scoring.models import Round
from scoring.api import serializers as s
from scoring.api.base import READ_ERRORS, WRITE_ERRORS, ApiView, error_responses, etag_header

ROUND_BODY_DOC = (
    "The round record (ROUND_RECORD.md) **without** `game`, `variant` and `seats` (the table knows them). "
    "Per-seat lists are by table seat position. Add `leader` (connecting games: the seat position that led; "
    "default the previous deal's `next_leader`) or `banker` (Tau Ngau; default the previous deal's "
    "`next_banker`), and `entered_by` (the seat position of the player entering it)."
)
ROUND_EXAMPLE = OpenApiExample("Jie Long, points", value={"leader": 0, "entered_by": 1, "points": [2, 12, 34, 18]},
                               request_only=True)


def _round_response(rnd: Round, code=status.HTTP_200_OK) -> Response:
    rnd = round_get(rnd.pk)
    return Response(s.RoundSerializer(round_detail(rnd)).data, status=code,
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
        rnd = round_correct(actor=self.actor, round=rnd, body=body, reason=reason,
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
        return _round_response(round_confirm(actor=self.actor, round=rnd, confirmed_by=data.get("confirmed_by")))


class RoundVoidView(ApiView):
    @extend_schema(operation_id="rounds_void", summary="Void a deal (directors)", request=s.VoidInputSerializer,
                   **ROUND_CHANGED)
    def post(self, request, pk: int):
        rnd = self.round(pk)
        require_director_of(self.actor, rnd.table.session.tournament.club)
        data = self.parse(s.VoidInputSerializer)
        return _round_response(round_void(actor=self.actor, round=rnd, reason=data["reason"]))


class RoundDisputeView(ApiView):
    scorer_auth = True

    @extend_schema(operation_id="rounds_dispute", summary="Call the referee", request=s.DisputeInputSerializer,
                   **ROUND_CHANGED)
    def post(self, request, pk: int):
        rnd = self.round(pk)
        data = self.parse(s.DisputeInputSerializer)
        return _round_response(round_dispute(actor=self.actor, round=rnd, message=data["message"]))


class RoundResolveView(ApiView):
    @extend_schema(operation_id="rounds_resolve", summary="Settle a dispute (directors)", request=s.ResolveInputSerializer,
                   **ROUND_CHANGED)
    def post(self, request, pk: int):
        rnd = self.round(pk)
        require_director_of(self.actor, rnd.table.session.tournament.club)
        data = self.parse(s.ResolveInputSerializer)
        return _round_response(round_dispute_resolve(actor=self.actor, round=rnd, note=data.get("note", "")))


class RoundRevisionsView(ApiView):
    scorer_auth = True

    @extend_schema(operation_id="rounds_revisions", summary="The full history of a deal, with the hash chain check",
                   responses={200: s.RevisionsSerializer, **READ_ERRORS}, tags=["rounds"])
    def get(self, request, pk: int):
        rnd = self.round(pk)
        return Response(s.RevisionsSerializer({"chain": round_verify_chain(rnd),
                                               "revisions": round_revisions(rnd)}).data)
