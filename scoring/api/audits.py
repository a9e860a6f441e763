"""Replay audits over the API: ask for one (202, it runs in the background) and follow it.

Thin, like ``views``: authorise, call ``audit_start`` or ``audits_selectors.audit_detail``,
render with the serializers below. An audit of another club's tournament answers 404, like an
id that does not exist; so does one asked for with a scorer link (directors only).
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring.api.base import READ_ERRORS, WRITE_ERRORS, ApiView
from scoring.api.fields import DateTimeField, OutputSerializer
from scoring.domain.statuses import AUDIT_STATUSES
from scoring.selectors import audits as audits_selectors
from scoring.selectors.access import require_club_visible
from scoring.services.audits import audit_start

KINDS = ("result_mismatch", "hash_chain", "zero_sum", "standings_mismatch", "engine_version")


class AuditProgressSerializer(OutputSerializer):
    done = serializers.IntegerField(help_text="Deals checked so far.")
    total = serializers.IntegerField(help_text="Deals to check (0 until the audit is planned).")


class AuditFindingSerializer(OutputSerializer):
    kind = serializers.ChoiceField(choices=KINDS, help_text=(
        "`result_mismatch`: today's engine gives another result than the one stored; `hash_chain`: a revision's "
        "hash, its link to the previous one or the deal's current revision does not hold; `zero_sum`: a stored "
        "result's nets (with the house's take) do not sum to 0; `standings_mismatch`: a kept standing differs from a "
        "recomputation; `engine_version`: the revision was stored by another engine version (see `agrees`)."))
    round = serializers.IntegerField(allow_null=True, help_text="The deal's id (null: standings).")
    table = serializers.IntegerField(allow_null=True)
    number = serializers.IntegerField(allow_null=True, help_text="The deal's number at its table.")
    revision = serializers.IntegerField(allow_null=True, help_text="The revision number.")
    detail = serializers.CharField()
    stored = serializers.JSONField(allow_null=True, help_text="What is stored: for results, the fields that differ.")
    recomputed = serializers.JSONField(allow_null=True, help_text="What the check computed instead.")
    agrees = serializers.BooleanField(required=False, help_text="`engine_version` only: whether today's engine "
                                                                "still gives the stored result.")


class AuditSerializer(OutputSerializer):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    status = serializers.ChoiceField(choices=AUDIT_STATUSES, help_text=(
        "`failed`: at least one finding is a problem (every kind but an `engine_version` that agrees), or a "
        "check could not run or the audit gave up (`error`)."))
    progress = AuditProgressSerializer()
    engine_version = serializers.CharField(help_text="The engine that re-evaluated the records.")
    created_at = DateTimeField()
    started_at = DateTimeField(allow_null=True)
    finished_at = DateTimeField(allow_null=True)
    error = serializers.CharField(help_text=(
        "What could not be checked (one line a deal whose check raised: the deal, its round id and the cause), "
        "or why the audit gave up; else empty."))
    findings = AuditFindingSerializer(many=True, help_text=(
        f"In the order found, at most {audits_selectors.MAX_FINDINGS_SHOWN}."))
    findings_count = serializers.IntegerField(help_text="All findings, including any not sent.")
    findings_by_kind = serializers.DictField(child=serializers.IntegerField())


class AuditStartedSerializer(OutputSerializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    url = serializers.CharField(help_text="Where to follow it: GET /api/v1/audits/{id}/.")


class TournamentAuditsView(ApiView):
    pagination_class = None

    @extend_schema(
        operation_id="tournaments_audits_create", summary="Run a replay audit (in the background)",
        description="Re-evaluates every stored revision with the current engine, verifies every deal's hash chain, "
                    "checks that each deal's nets sum to zero (with the house) and that the kept standings equal a "
                    "recomputation. It changes nothing. While an audit of the tournament is queued or running, "
                    "that one is answered.",
        request=None,
        parameters=[OpenApiParameter("Location", OpenApiTypes.STR, OpenApiParameter.HEADER, response=[202],
                                     required=True, description="The audit's URL.")],
        responses={202: AuditStartedSerializer, **WRITE_ERRORS}, tags=["audits"])
    def post(self, request, pk: int):
        audit = audit_start(actor=self.actor, tournament=self.tournament(pk))
        url = reverse("api-audit", args=[audit.pk])
        return Response(AuditStartedSerializer({"id": audit.pk, "status": audit.status, "url": url}).data,
                        status=status.HTTP_202_ACCEPTED, headers={"Location": url})


class AuditDetailView(ApiView):
    pagination_class = None

    @extend_schema(operation_id="audits_retrieve", summary="An audit's status, progress and findings",
                   responses={200: AuditSerializer, **READ_ERRORS}, tags=["audits"])
    def get(self, request, pk: int):
        audit = audits_selectors.audit_get(pk)
        require_club_visible(self.actor, audit.tournament.club, "audit")
        return Response(AuditSerializer(audits_selectors.audit_detail(audit)).data)
