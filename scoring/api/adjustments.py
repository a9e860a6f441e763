"""Adjustments (a fine, a bonus, a chip correction outside the deals): ``GET`` / ``POST
/api/v1/tournaments/{id}/adjustments/`` and ``DELETE /api/v1/adjustments/{id}/``. Directors of
the club and the tournament's referees only; the services say what counts and what is refused (``services.adjustments``)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring.api.base import LIST_ERRORS, WRITE_ERRORS, ApiView, error_responses
from scoring.api.fields import IdField, InputSerializer, OutputModelSerializer, StrictIntegerField, TextField, ecma
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import MAX_IDEMPOTENCY_KEY, MAX_NOTE, MAX_TYPED, NON_BLANK
from scoring.models import Adjustment, Entry
from scoring.selectors.access import require_role
from scoring.selectors.adjustments import adjustment_get, adjustment_list
from scoring.services.adjustments import adjustment_create, adjustment_create_once, adjustment_delete

_UNIT = "in the tournament's unit: whole chips or points, as the deals' nets"


class AdjustmentInputSerializer(InputSerializer):
    player = IdField(help_text="The player's id (as in `entries/`): a player entered in this tournament.")
    amount = StrictIntegerField(min_value=-MAX_TYPED, max_value=MAX_TYPED,
                                help_text=f"Added to the player's net, {_UNIT}: a fine is negative, a bonus "
                                          "positive; not 0 (`zero_amount`).")
    reason = TextField(max_length=MAX_NOTE, help_text="Why: shown with the adjustment on the standings and in "
                                                      "the report.")


class AdjustmentSerializer(OutputModelSerializer):
    player = serializers.IntegerField(source="entry.player_id")
    name = serializers.CharField(source="entry.player.name")
    created_by = serializers.CharField(source="created_by_label", help_text="Who recorded it.")
    amount = serializers.IntegerField(help_text=f"Added to the player's net, {_UNIT}.")

    class Meta:
        model = Adjustment
        fields = ["id", "tournament", "entry", "player", "name", "amount", "reason", "created_at", "created_by",
                  "deleted_at"]


class TournamentAdjustmentsView(ApiView):
    referee_auth = ("GET", "POST")
    @extend_schema(operation_id="tournaments_adjustments_list", summary="The adjustments in force",
                   description="Fines, bonuses and chip corrections outside the deals, oldest first (deleted ones "
                               "are left out: the audit log keeps them).",
                   responses={200: AdjustmentSerializer(many=True), **LIST_ERRORS}, tags=["tournaments"])
    def get(self, request, pk: int):
        return self.paginated(adjustment_list(self.tournament(pk, "adjustment_create")), AdjustmentSerializer)

    @extend_schema(
        operation_id="tournaments_adjustments_create", summary="Record a fine, a bonus or a chip correction",
        description="Adds `amount` to the player's net at once (standings, payouts, the live pages); it is no deal "
                    "(deals played, wins and places stay) and ratings never count it. Not zero-sum: a fine goes to "
                    "the house, a bonus comes from it. A running tournament only (409 `tournament_not_running`, "
                    "`tournament_finished`); `amount` 0 is refused (400 `zero_amount`), a player not in the "
                    "tournament too (400 `not_found` at `player`). Send an `Idempotency-Key` header to make "
                    "retries safe: the same key and body answer the same adjustment "
                    "(`Idempotent-Replayed: true`); the same key with another body is refused (422 "
                    "`idempotency_key_reused`).",
        parameters=[OpenApiParameter("Idempotency-Key", {"type": "string", "minLength": 1,
                                                         "maxLength": MAX_IDEMPOTENCY_KEY,
                                                         "pattern": ecma(NON_BLANK)},
                                     OpenApiParameter.HEADER, required=False,
                                     description=f"1 to {MAX_IDEMPOTENCY_KEY} characters, not only spaces: a new one "
                                                 f"for each adjustment."),
                    OpenApiParameter("Idempotent-Replayed", str, OpenApiParameter.HEADER, response=[201],
                                     enum=["true"], description="Sent with the answer to a repeated key.")],
        request=AdjustmentInputSerializer, responses={201: AdjustmentSerializer, **WRITE_ERRORS,
                                                      **error_responses(422)},
        examples=[OpenApiExample("A fine", request_only=True,
                                 value={"player": 7, "amount": -10, "reason": "Late arrival"})],
        tags=["tournaments"])
    def post(self, request, pk: int):
        t = self.tournament(pk, "adjustment_create")
        data = self.parse(AdjustmentInputSerializer)
        entry = Entry.objects.select_related("player").filter(tournament=t, player_id=data["player"]).first()
        if entry is None:
            raise ValidationFailed("No such player in this tournament.", path="player", code="not_found")
        args = dict(actor=self.actor, tournament=t, entry=entry, amount=data["amount"], reason=data["reason"])
        key = request.headers.get("Idempotency-Key")
        replayed = False
        if key is None:
            adjustment = adjustment_create(**args)
        else:
            adjustment, replayed = adjustment_create_once(**args, key=key)
        headers = {"Idempotent-Replayed": "true"} if replayed else {}
        return Response(AdjustmentSerializer(adjustment).data, status=status.HTTP_201_CREATED, headers=headers)


class AdjustmentDetailView(ApiView):
    referee_auth = ("DELETE",)
    @extend_schema(operation_id="adjustments_delete", summary="Delete an adjustment (kept in the audit log)",
                   description="It stops counting at once (the standings and payouts move back); its row stays, "
                               "marked deleted, and the audit log keeps the whole adjustment. A running tournament "
                               "only (409 `tournament_not_running`, `tournament_finished`); twice: 409 "
                               "`already_deleted`.",
                   request=None, responses={204: None, **WRITE_ERRORS}, tags=["tournaments"])
    def delete(self, request, pk: int):
        adjustment = adjustment_get(pk)
        require_role(self.actor, adjustment.tournament, "adjustment_delete", what="adjustment")
        adjustment_delete(actor=self.actor, adjustment=adjustment)
        return Response(status=status.HTTP_204_NO_CONTENT)
