"""The ceiling: DRF parses and validates a small body and inserts one row. Everything a real
deal costs beyond this is the service's own work."""

import json
from contextlib import nullcontext

from django.db import connection, transaction
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

    def post(self, request, table: int, writes: int = 1, one: bool = False):
        ser = BodySerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        key = request.headers.get("Idempotency-Key", "")[:64]
        points = ser.validated_data["points"]
        if one:   # ``writes`` rows in one statement (a chain of WITH … INSERTs): the writes without their round trips
            with connection.cursor() as cursor:
                cursor.execute(one_statement(writes), [table, json.dumps(points), key] * writes)
                return Response({"id": cursor.fetchone()[0], "table": table, "points": points}, status=201)
        # One row in autocommit (the ceiling); more, each its statement, in one transaction: what a
        # statement more costs the framework.
        with transaction.atomic() if writes > 1 else nullcontext():
            for _ in range(writes):
                row = Row.objects.create(table=table, points=points, key=key)
        return Response({"id": row.pk, "table": table, "points": row.points}, status=201)


def one_statement(writes: int) -> str:
    insert = (f'INSERT INTO "{Row._meta.db_table}" ("table", "points", "key", "created_at") '
              "VALUES (%s, %s::jsonb, %s, now()) RETURNING \"id\"")
    chain = ", ".join(f"w{i} AS ({insert})" for i in range(writes))
    return f"WITH {chain} SELECT (SELECT id FROM w{writes - 1})"
