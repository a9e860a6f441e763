"""The ceiling: DRF parses and validates a small body and inserts one row. Everything a real
deal costs beyond this is the service's own work."""

from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Row


class BodySerializer(serializers.Serializer):
    points = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=1000), min_length=2,
                                   max_length=6)


class BaselineView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    def post(self, request, table: int):
        ser = BodySerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        row = Row.objects.create(table=table, points=ser.validated_data["points"],
                                 key=request.headers.get("Idempotency-Key", "")[:64])
        return Response({"id": row.pk, "table": table, "points": row.points}, status=201)
