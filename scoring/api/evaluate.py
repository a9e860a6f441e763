"""POST /api/v1/evaluate/: the stateless rules engine over HTTP. No login, stores nothing."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

import games

#: A list of records larger than this is refused whole (the engine is fast, but not free).
MAX_BATCH = 500


class EvaluateView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="evaluate",
        summary="Evaluate round records with the rules engine",
        description=(
            "Send one round record (ROUND_RECORD.md) and get the engine's result (200) or its "
            "errors (400, each with a path, code and message). Send a JSON array of records to get a "
            "list of results (200), one per record, in order. Nothing is stored; no login."
        ),
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
        examples=[OpenApiExample("Jie Long, points", value={
            "game": "jie_long", "seats": ["Anna", "Bob", "Celine", "Dominic"], "points": [2, 12, 34, 18]},
            request_only=True)],
        tags=["engine"],
    )
    def post(self, request):
        data = request.data
        if isinstance(data, list):
            if len(data) > MAX_BATCH:
                return Response({"ok": False, "errors": [{"path": "", "code": "too_long",
                                 "message": f"Send at most {MAX_BATCH} records at once."}]},
                                status=status.HTTP_400_BAD_REQUEST)
            return Response([games.evaluate(record) for record in data])
        result = games.evaluate(data)
        return Response(result, status=status.HTTP_200_OK if result["ok"] else status.HTTP_400_BAD_REQUEST)
