"""POST /api/v1/evaluate/: the stateless rules engine over HTTP. No login, stores nothing."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

import games

from scoring.domain.errors import problem
from scoring.web.rule_messages import translate_result
from scoring.api import serializers as s
from scoring.api.parsers import SafeJSONParser
from scoring.api.schema import ApiAutoSchema

#: A list of records larger than this is refused whole (the engine is fast, but not free).
MAX_BATCH = s.EVALUATE_MAX_BATCH

JIE_LONG = {"game": "jie_long", "seats": ["Anna", "Bob", "Celine", "Dominic"], "points": [2, 12, 34, 18]}
RESULTS = PolymorphicProxySerializer(
    component_name="EngineResults", resource_type_field_name=None, many=False,
    serializers=[s.EngineResultSerializer, s.EngineResultSerializer(many=True)])


class EvaluateView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    parser_classes = [SafeJSONParser]   # records are JSON (ROUND_RECORD.md), not forms
    schema = ApiAutoSchema()
    body_required = True

    @extend_schema(
        operation_id="evaluate",
        summary="Evaluate round records with the rules engine",
        description=(
            "Send one round record (ROUND_RECORD.md) and get the engine's result (200) or its "
            "errors (400, each with a path, code and message). Send a JSON array of records to get a "
            "list of results (200), one per record, in order, each with its own `ok`. Nothing is stored; "
            "no login."
        ),
        request={"application/json": s.EVALUATE_BODY},
        responses={
            200: OpenApiResponse(RESULTS, description="The engine's result for a record, or a list of them for a "
                                                      "list of records."),
            400: OpenApiResponse(s.EngineErrorsSerializer, description="The engine's refusal (`ok` false), or a body "
                                                                       "that is not JSON (no `ok`)."),
        },
        examples=[
            OpenApiExample("Jie Long, points", value=JIE_LONG, request_only=True),
            OpenApiExample("Jie Long, its result", value=games.evaluate(JIE_LONG), response_only=True,
                           status_codes=[200]),
            OpenApiExample("Two seats for four scores", value=games.evaluate({**JIE_LONG, "seats": ["Anna", "Bob"]}),
                           response_only=True, status_codes=[400]),
        ],
        tags=["engine"],
    )
    def post(self, request):
        data = request.data
        if isinstance(data, list):
            if len(data) > MAX_BATCH:
                too_long = problem("", "too_long", gettext("Send at most %(count)s records at once.") % {"count": MAX_BATCH})
                refusal = {"ok": False, "errors": [too_long]}
                return Response(s.EngineErrorsSerializer(refusal).data, status=status.HTTP_400_BAD_REQUEST)
            results = [translate_result(games.evaluate(record)) for record in data]
            return Response(s.EngineResultSerializer(results, many=True).data)
        result = translate_result(games.evaluate(data))
        if not result["ok"]:
            return Response(s.EngineErrorsSerializer(result).data, status=status.HTTP_400_BAD_REQUEST)
        return Response(s.EngineResultSerializer(result).data)
