"""The ceiling: DRF parses and validates a small body and inserts one row. Everything a real
deal costs beyond this is the service's own work."""

from django.db import transaction
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

    def post(self, request, table: int, writes: int = 1):
        ser = BodySerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        key = request.headers.get("Idempotency-Key", "")[:64]
        if writes == 1:
            row = Row.objects.create(table=table, points=ser.validated_data["points"], key=key)
        else:   # ``writes`` statements in one transaction: what a statement more costs the framework
            with transaction.atomic():
                for _ in range(writes):
                    row = Row.objects.create(table=table, points=ser.validated_data["points"], key=key)
        return Response({"id": row.pk, "table": table, "points": row.points}, status=201)
