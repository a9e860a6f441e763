"""A whole tournament as one JSON document, out and back in:
``GET /api/v1/tournaments/{id}/export/`` and ``POST /api/v1/tournaments/import/`` (queued for a
worker, 202, followed at ``GET /api/v1/imports/{id}/``, as the club page's upload is).

The format and its hash chain are described in ``scoring.domain.documents``. Directors of the
tournament's club only (anyone else: 404, like an unknown id). The document's JSON Schema is
public: ``GET /api/v1/schema/tournament-document.json``.
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.base import READ_ERRORS, WRITE_ERRORS, ApiView, error_responses
from scoring.api.fields import (
    DateTimeField,
    IdField,
    InputSerializer,
    OutputSerializer,
    StrictBooleanField,
)
from scoring.api.parsers import DocumentJSONParser
from scoring.api.schema import ApiAutoSchema
from scoring.domain.document_schema import DOCUMENT_SCHEMA, json_schema
from scoring.domain.statuses import IMPORT_STATUSES
from scoring.selectors.access import require_club_visible
from scoring.selectors.exports import tournament_export
from scoring.selectors.imports import import_detail, import_get
from scoring.services.imports import tournament_import_queue
from scoring.web.rule_messages import translate_problems

# --- the document, as far as a schema can say it -----------------------------------------------
# DOCUMENT_SCHEMA (scoring.domain.document_schema) is both the export's answer and the import's
# document. Its shape, types, limits and enums are checked by scoring.domain.document_shape.check_shape
# (which refuses the same, before the document is queued: 400); what no schema can say is refused by
# the worker's read at its path: ids that repeat or point nowhere, a table's size for the game, the
# game's rule options, the hash chain, that each revision is what today's engine makes of its body
# and sums to zero, dates in range and in order, the depth and size of free JSON.


@extend_schema_field(DOCUMENT_SCHEMA)
class DocumentField(serializers.JSONField):
    # Read by scoring.domain.document_shape at once and by document_reader in the worker, which
    # reports the first problem at its path.

    def to_internal_value(self, data):
        return data   # parsed JSON already (DRF's would write all of it out again to check that)


class ImportInputSerializer(InputSerializer):
    club = IdField(help_text="The club that gets the new tournament.")
    document = DocumentField()
    rated = StrictBooleanField(required=False, default=False, help_text=(
        "Whether the new tournament's deals count in the club's ratings. Not unless asked: a backup restored "
        "would otherwise count every result again."))


class TournamentExportView(ApiView):
    pagination_class = None

    @extend_schema(operation_id="tournaments_export", summary="The whole tournament as one document",
                   description=("The whole tournament's state (version 2): its settings, players, entries "
                                "(withdrawn or not), sessions (open or closed, with their clocks), tables and "
                                "every deal (late, after time) with every revision and its hash, numbered with "
                                "the document's own ids. No secret is ever in it: no scorer link, no player "
                                "code, no hash of one. "
                                "A deal whose stored history does not verify answers 409."),
                   responses={200: OpenApiResponse(DOCUMENT_SCHEMA, description="The tournament document."),
                              **READ_ERRORS, **error_responses(409)},
                   tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.tournament(pk)
        return Response(tournament_export(t))


class ImportStartedSerializer(OutputSerializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    rated = serializers.BooleanField(help_text="Whether the new tournament will count in the club's ratings.")
    url = serializers.CharField(help_text="Where to follow it: GET /api/v1/imports/{id}/.")


# Written out, as sessions.ClockField: a nested serializer that may be null is an allOf with
# "nullable" beside it, which OpenAPI 3.0 validators do not read as nullable.
@extend_schema_field({
    "type": "object", "nullable": True, "additionalProperties": False, "required": ["path", "code", "message"],
    "properties": {"path": {"type": "string", "description": "Where in the request body, like "
                                                             "`document.rounds[3].revisions[1].hash`."},
                   "code": {"type": "string"}, "message": {"type": "string"}},
    "description": "The document's first problem, when the import failed; else null."})
class ImportProblemField(serializers.Field):
    def __init__(self, **kwargs):
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value):
        return {"path": value.get("path", ""), "code": value.get("code", ""), "message": value.get("message", "")}


class ImportSerializer(OutputSerializer):
    id = serializers.IntegerField()
    club = serializers.IntegerField()
    status = serializers.ChoiceField(choices=IMPORT_STATUSES, help_text=(
        "`done`: `tournament` is the new tournament; `failed`: `error` says the document's first problem, and "
        "nothing was stored."))
    rated = serializers.BooleanField(help_text="Whether the new tournament counts in the club's ratings.")
    checked = serializers.IntegerField(help_text="Revisions checked so far.")
    total = serializers.IntegerField(help_text="Revisions in the document.")
    storing = serializers.BooleanField(help_text="Every revision checked: the tournament is being stored.")
    stalled = serializers.BooleanField(help_text="Running without progress for a while: its worker died; the task "
                                                 "delivered again takes it over.")
    error = ImportProblemField()
    tournament = serializers.IntegerField(allow_null=True, help_text="The new tournament's id, once done.")
    created_at = DateTimeField()


class TournamentImportView(ApiView):
    pagination_class = None
    # The one body larger than Django's limit: read up to settings.IMPORT_MAX_BYTES (16 MB).
    parser_classes = [DocumentJSONParser]

    @extend_schema(operation_id="tournaments_import", summary="A new tournament from an exported document",
                   description=("Takes the document for a worker to import (202, with the import's URL to "
                                "follow: `GET /api/v1/imports/{id}/`), as the club page's upload does: a "
                                "document of thousands of deals takes longer than a request should. A document "
                                "whose shape breaks the schema below (a key missing or unknown, a value of the "
                                "wrong type, range, length, pattern or choice) is refused at once (400, at its "
                                "path, like `document.entries[0].extra` `unknown_field`), and nothing is queued. "
                                "The body may "
                                "be up to `IMPORT_MAX_MB` (16 MB; larger: 413). Players are matched by name in "
                                "the club (or created). The document's hashes "
                                "must verify, and every revision is re-evaluated by today's engine whatever "
                                "`engine_version` it names: its result must be the engine's (`result_mismatch`, "
                                "`engine_result_differs`) and its nets must sum to zero with the house "
                                "(`not_zero_sum`); dates must fall in years 1–9999 in UTC (`date_out_of_range`) "
                                "and in order (`date_order`); free JSON is bounded (`too_deep`, `too_long`). What "
                                "needs one value alone (a date's range, free JSON's bounds, text no database "
                                "stores) is refused at once too; any other first problem fails the import with "
                                "its path, like "
                                "`document.rounds[3].revisions[1].hash` (the import's `error`), and nothing is "
                                "stored. The new "
                                "tournament is private whatever the document says, until its director publishes "
                                "it, and counts in the club's ratings only with `\"rated\": true` (a backup "
                                "restored would otherwise count every result again); revision authors are kept "
                                "as text marked `imported: `. Everything else is restored as it was: settings, "
                                "sessions open or closed with their clocks, withdrawals, late and after-time "
                                "deals. Version 1 documents still import. The new tables' scorer links are not "
                                "shown: make new ones. A copy that was never published may be deleted "
                                "(`DELETE /api/v1/tournaments/{id}/`). The document's JSON Schema: "
                                "`GET /api/v1/schema/tournament-document.json`."),
                   request=ImportInputSerializer,
                   parameters=[OpenApiParameter("Location", OpenApiTypes.STR, OpenApiParameter.HEADER,
                                                response=[202], required=True, description="The import's URL.")],
                   responses={202: ImportStartedSerializer, **WRITE_ERRORS, **error_responses(413)},
                   tags=["tournaments"])
    def post(self, request):
        data = self.parse(ImportInputSerializer)
        club = self.club(data["club"])
        job = tournament_import_queue(actor=self.actor, club=club, document=data["document"], rated=data["rated"])
        job.refresh_from_db(fields=["status"])   # without a broker it has run already
        url = reverse("api-import", args=[job.pk])
        return Response(ImportStartedSerializer({"id": job.pk, "status": job.status, "rated": job.rated,
                                                 "url": url}).data,
                        status=status.HTTP_202_ACCEPTED, headers={"Location": url})


class ImportDetailView(ApiView):
    pagination_class = None

    @extend_schema(operation_id="imports_retrieve", summary="An import's status and progress",
                   responses={200: ImportSerializer, **READ_ERRORS}, tags=["tournaments"])
    def get(self, request, pk: int):
        job = import_get(pk)
        require_club_visible(self.actor, job.club, "import")
        detail = import_detail(job)
        made = detail["tournament"]
        detail = {**detail, "club": job.club_id, "rated": job.rated, "tournament": made.pk if made is not None else None,
                  "error": translate_problems([detail["error"]])[0] if detail["error"] else None}
        return Response(ImportSerializer(detail).data)


#: The schema changes only with the site's code: a day in any cache.
SCHEMA_CACHE = "public, max-age=86400"


class DocumentSchemaView(APIView):
    """The tournament document's JSON Schema (``scoring.domain.document_schema.json_schema``):
    public, for anyone who reads or writes documents (a verifier, another site)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    schema = ApiAutoSchema()

    @extend_schema(operation_id="tournament_document_schema", summary="The tournament document's JSON Schema",
                   description=("The JSON Schema (draft 2020-12) of what `GET /api/v1/tournaments/{id}/export/` "
                                "answers and `POST /api/v1/tournaments/import/` takes as `document` (version 2). "
                                "The same definitions check every import's shape. No login; cacheable."),
                   responses={200: OpenApiResponse({"type": "object", "additionalProperties": True},
                                                   description="A JSON Schema.")},
                   tags=["tournaments"])
    def get(self, request):
        return Response(json_schema(), headers={"Cache-Control": SCHEMA_CACHE})
