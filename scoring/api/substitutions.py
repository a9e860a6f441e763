"""Substitutions: another player in a seat of a table from the next deal on, and a table's list."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring.api.base import READ_ERRORS, WRITE_ERRORS, ApiView
from scoring.api.fields import DateTimeField, IdField, InputSerializer, OutputSerializer, SeatField
from scoring.selectors.substitutions import substitution_row, table_substitutions
from scoring.services.substitutions import table_substitute


class SubstitutionInputSerializer(InputSerializer):
    seat = SeatField(help_text="The seat position (0..N-1), as `entered_by` and `confirmed_by` name seats.")
    player = IdField(help_text="The entry id of the player taking the seat (an entry of this tournament).")


class SubstitutionSerializer(OutputSerializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    from_deal = serializers.IntegerField(help_text="The first deal the newcomer plays; the deals before keep "
                                                   "the player who left.")
    entry_out = serializers.IntegerField()
    player_out = serializers.IntegerField()
    name_out = serializers.CharField()
    entry_in = serializers.IntegerField()
    player_in = serializers.IntegerField()
    name_in = serializers.CharField()
    created_at = DateTimeField()
    created_by = serializers.CharField(allow_null=True)


SUBSTITUTE_DOC = (
    "Puts another entry in `seat` from the table's next deal on; the deals before keep their players (their "
    "records, results and standings stay theirs, corrections included). Directors only. Refused: a finished "
    "tournament (409 `tournament_finished`), one not started (409 `tournament_not_running`), a closed session "
    "(409 `session_closed`), a deal at the table not "
    "confirmed yet where only confirmed deals count (409 `round_unconfirmed`), no such seat (400 `bad_seat` at "
    "`seat`), no such entry (400 `not_found` at `player`), a withdrawn entry (400 `withdrawn`) and an entry "
    "already seated at a table of this session (400 `already_seated`).")


class TableSubstitutionsView(ApiView):
    pagination_class = None   # a table has a handful
    referee_auth = ("GET", "POST")

    @extend_schema(operation_id="tables_substitutions_list", summary="A table's substitutions, oldest first",
                   responses={200: SubstitutionSerializer(many=True), **READ_ERRORS}, tags=["tables"])
    def get(self, request, pk: int):
        return Response(SubstitutionSerializer(table_substitutions(self.table(pk, "table_substitute")),
                                               many=True).data)

    @extend_schema(operation_id="tables_substitutions_create", summary="Substitute a player from the next deal on",
                   description=SUBSTITUTE_DOC, request=SubstitutionInputSerializer,
                   examples=[OpenApiExample("Seat 0 taken by entry 12", value={"seat": 0, "player": 12},
                                            request_only=True)],
                   responses={201: SubstitutionSerializer, **WRITE_ERRORS}, tags=["tables"])
    def post(self, request, pk: int):
        table = self.table(pk, "table_substitute")
        data = self.parse(SubstitutionInputSerializer)
        sub = table_substitute(actor=self.actor, table=table, seat=data["seat"], entry=data["player"])
        return Response(SubstitutionSerializer(substitution_row(sub)).data, status=status.HTTP_201_CREATED)
