"""POST /api/v1/evaluate/: the stateless rules engine over HTTP. No login, stores nothing."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

import games
from scoring.api.fields import ErrorsSerializer, OpenSerializer, ProblemSerializer
from scoring.api.parsers import SafeJSONParser
from scoring.api.schema import ApiAutoSchema
from scoring.domain.errors import problem
from scoring.web.rule_messages import translate_result

#: A list of records larger than this is refused whole (the engine is fast, but not free).
MAX_BATCH = 500
#: The body: one record, or a list of records (each answered on its own).
EVALUATE_BODY = {
    "oneOf": [
        {"type": "object", "additionalProperties": {},
         "description": "One round record (ROUND_RECORD.md)."},
        {"type": "array", "maxItems": MAX_BATCH, "items": {},
         "description": f"Up to {MAX_BATCH} records; each gets its own result (`ok` false for one that "
                        "is not a record)."},
    ],
}


class EngineResultSerializer(OpenSerializer):
    """The engine's answer for one record (ROUND_RECORD.md): ``ok``, then the result's fields for
    the game, or ``errors``."""

    ok = serializers.BooleanField()
    game = serializers.CharField(required=False)
    format = serializers.IntegerField(required=False, help_text="Version of the result format.")
    warnings = ProblemSerializer(many=True, required=False)
    errors = ProblemSerializer(many=True, required=False, help_text="When ok is false.")


class EngineErrorsSerializer(ErrorsSerializer):
    """The errors answer of the engine endpoint."""

    ok = serializers.BooleanField(required=False, help_text="false when the engine refused the record; absent "
                                                            "when the body could not be read.")


JIE_LONG = {"game": "jie_long", "seats": ["Anna", "Bob", "Celine", "Dominic"], "points": [2, 12, 34, 18]}
RESULTS = PolymorphicProxySerializer(
    component_name="EngineResults", resource_type_field_name=None, many=False,
    serializers=[EngineResultSerializer, EngineResultSerializer(many=True)])


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
        request={"application/json": EVALUATE_BODY},
        responses={
            200: OpenApiResponse(RESULTS, description="The engine's result for a record, or a list of them for a "
                                                      "list of records."),
            400: OpenApiResponse(EngineErrorsSerializer, description="The engine's refusal (`ok` false), or a body "
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
                return Response(EngineErrorsSerializer(refusal).data, status=status.HTTP_400_BAD_REQUEST)
            results = [translate_result(games.evaluate(record)) for record in data]
            return Response(EngineResultSerializer(results, many=True).data)
        result = translate_result(games.evaluate(data))
        if not result["ok"]:
            return Response(EngineErrorsSerializer(result).data, status=status.HTTP_400_BAD_REQUEST)
        return Response(EngineResultSerializer(result).data)
