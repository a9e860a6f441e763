"""A whole tournament as one JSON document, out and back in:
``GET /api/v1/tournaments/{id}/export/`` and ``POST /api/v1/tournaments/import/`` (queued for a
worker, 202, followed at ``GET /api/v1/imports/{id}/``, as the club page's upload is).

The format and its hash chain are described in ``scoring.domain.documents``. Directors of the
tournament's club only (anyone else: 404, like an unknown id).
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

import games
from scoring.api.base import READ_ERRORS, WRITE_ERRORS, ApiView, error_responses
from scoring.api.fields import (
    MAX_SEATS,
    MIN_SEATS,
    DateTimeField,
    IdField,
    InputSerializer,
    OutputSerializer,
    ecma,
)
from scoring.api.parsers import DocumentJSONParser
from scoring.domain.documents import FORMAT, KEYS, ROUND_STATUSES, TOURNAMENT_STATUSES, VERSION
from scoring.domain.inputs import (
    DATETIME,
    MAX_ACTOR_LABEL,
    MAX_CURRENCY,
    MAX_ENGINE_VERSION,
    MAX_INT32,
    MAX_NOTE,
    MAX_PLAYER_NAME,
    MAX_TABLE_NAME,
    MAX_TOURNAMENT_NAME,
    MAX_USERNAME,
    MONEY,
    NAME,
)
from scoring.domain.statuses import IMPORT_STATUSES
from scoring.selectors.access import require_club_visible
from scoring.selectors.exports import tournament_export
from scoring.selectors.imports import import_detail, import_get
from scoring.services.imports import tournament_import_queue
from scoring.web.rule_messages import translate_problems

NULLABLE_TIME = {"allow_null": True, "help_text": "ISO 8601 with microseconds, or null."}


class DocTournamentSerializer(OutputSerializer):
    name = serializers.CharField()
    game = serializers.CharField()
    variant = serializers.DictField()
    status = serializers.CharField(help_text="draft, running or finished.")
    public = serializers.BooleanField()
    require_confirmation = serializers.BooleanField()
    chip_value = serializers.CharField(help_text='A decimal as text, like "0.50".')
    currency = serializers.CharField()
    created_at = serializers.CharField()
    started_at = serializers.CharField(**NULLABLE_TIME)
    finished_at = serializers.CharField(**NULLABLE_TIME)


class DocPlayerSerializer(OutputSerializer):
    id = serializers.IntegerField(help_text="The document's own id.")
    name = serializers.CharField(help_text="Players are matched by name on import.")


class DocEntrySerializer(OutputSerializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField(help_text="A player id of this document.")


class DocSessionSerializer(OutputSerializer):
    number = serializers.IntegerField()


class DocTableSerializer(OutputSerializer):
    id = serializers.IntegerField()
    session = serializers.IntegerField(help_text="The session's number.")
    name = serializers.CharField()
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="Entry ids by seat position.")


class DocRevisionSerializer(OutputSerializer):
    number = serializers.IntegerField()
    body = serializers.DictField()
    record = serializers.DictField()
    result = serializers.DictField()
    engine_version = serializers.CharField()
    actor = serializers.CharField()
    reason = serializers.CharField(allow_blank=True)
    created_at = serializers.CharField()
    prev_hash = serializers.CharField(allow_blank=True)
    hash = serializers.CharField(help_text="sha256 of the revision over the document's round id (scoring.domain.chain).")


class DocRoundSerializer(OutputSerializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="recorded, confirmed or voided.")
    confirmed_by = serializers.IntegerField(allow_null=True)
    confirmed_by_director = serializers.CharField(allow_null=True)
    confirmed_at = serializers.CharField(**NULLABLE_TIME)
    void_reason = serializers.CharField(allow_blank=True)
    disputed = serializers.BooleanField()
    dispute_message = serializers.CharField(allow_blank=True)
    disputed_at = serializers.CharField(**NULLABLE_TIME)
    created_at = serializers.CharField()
    revisions = DocRevisionSerializer(many=True)


class TournamentDocumentSerializer(OutputSerializer):
    format = serializers.ChoiceField(choices=[FORMAT])
    version = serializers.ChoiceField(choices=[VERSION])
    exported_at = serializers.CharField()
    tournament = DocTournamentSerializer()
    players = DocPlayerSerializer(many=True)
    entries = DocEntrySerializer(many=True)
    sessions = DocSessionSerializer(many=True)
    tables = DocTableSerializer(many=True)
    rounds = DocRoundSerializer(many=True)


# --- the document an import reads, as far as a schema can say it -------------------------------
# Its shape, types, limits and enums are checked by scoring.domain.document_shape.check_shape (which
# refuses the same, before the document is queued: 400); what no schema can say is refused by the
# worker's read at its path: ids that repeat or point nowhere, a
# table's size for the game, the game's rule options, the hash chain, that each revision is what
# today's engine makes of its body and sums to zero, dates in range and in order, the depth and
# size of free JSON.

def _closed(properties: dict, description: str = "") -> dict:
    schema = {"type": "object", "properties": properties, "required": list(properties),
              "additionalProperties": False}
    return {**schema, "description": description} if description else schema


def _text(max_length: int, **extra) -> dict:
    return {"type": "string", "maxLength": max_length, **extra}


NAME_PATTERN = ecma(NAME)
ID = {"type": "integer", "minimum": 1, "maximum": MAX_INT32}
WHEN = {"type": "string", "pattern": ecma(DATETIME), "description": "ISO 8601 with seconds and the UTC offset."}
WHEN_OR_NULL = {**WHEN, "nullable": True}
FREE = {"type": "object", "additionalProperties": True}
HASH = {"type": "string", "pattern": "^[0-9a-f]{64}$"}

DOCUMENT_SCHEMA = _closed({
    "format": {"type": "string", "enum": [FORMAT]},
    "version": {"type": "integer", "enum": [VERSION]},
    "exported_at": WHEN,
    "tournament": _closed({
        "name": _text(MAX_TOURNAMENT_NAME, pattern=NAME_PATTERN),
        "game": {"type": "string", "enum": list(games.CATALOG)},
        "variant": {**FREE, "description": "The game's rule options (ROUND_RECORD.md §6)."},
        "status": {"type": "string", "enum": list(TOURNAMENT_STATUSES)},
        "public": {"type": "boolean"},
        "require_confirmation": {"type": "boolean"},
        "chip_value": {"type": "string", "pattern": ecma(MONEY), "description": 'A decimal as text, like "0.50".'},
        "currency": _text(MAX_CURRENCY),
        "created_at": WHEN,
        "started_at": {**WHEN_OR_NULL, "description": "Null only in draft."},
        "finished_at": {**WHEN_OR_NULL, "description": "Null unless finished."},
    }),
    "players": {"type": "array", "items": _closed({
        "id": ID,
        "name": {**_text(MAX_PLAYER_NAME, pattern=NAME_PATTERN), "description": "Matched by name in the club."}})},
    "entries": {"type": "array", "items": _closed({
        "id": ID, "player": {**ID, "description": "A player id of this document."}})},
    "sessions": {"type": "array", "items": _closed({"number": ID})},
    "tables": {"type": "array", "items": _closed({
        "id": ID, "session": {**ID, "description": "A session number of this document."},
        "name": _text(MAX_TABLE_NAME, pattern=NAME_PATTERN),
        "seats": {"type": "array", "items": ID, "minItems": MIN_SEATS, "maxItems": MAX_SEATS, "uniqueItems": True,
                  "description": "Entry ids by seat position, as many as the game has players."}})},
    "rounds": {"type": "array", "items": _closed({
        "id": ID, "table": {**ID, "description": "A table id of this document."}, "number": ID,
        "status": {"type": "string", "enum": list(ROUND_STATUSES)},
        "confirmed_by": {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1, "nullable": True,
                         "description": "The confirming seat (not the one that entered the deal), or null."},
        "confirmed_by_director": {**_text(MAX_USERNAME), "nullable": True},
        "confirmed_at": {**WHEN_OR_NULL, "description": "Not null when confirmed."},
        "void_reason": _text(MAX_NOTE),
        "disputed": {"type": "boolean"},
        "dispute_message": _text(MAX_NOTE),
        "disputed_at": WHEN_OR_NULL,
        "created_at": WHEN,
        "revisions": {"type": "array", "minItems": 1, "items": _closed({
            "number": {**ID, "description": "1, 2, ... in order."},
            "body": FREE, "record": FREE, "result": FREE,
            "engine_version": _text(MAX_ENGINE_VERSION), "actor": _text(MAX_ACTOR_LABEL), "reason": _text(MAX_NOTE),
            "created_at": WHEN,
            "prev_hash": {"type": "string", "pattern": "^(?:[0-9a-f]{64})?$",
                          "description": "The previous revision's hash; empty for the first."},
            "hash": {**HASH, "description": "sha256 of the revision over the document's round id."}})},
    })},
}, "A document as the export answers it.")
assert all(set(KEYS[kind]) == set(schema["properties"]) for kind, schema in (
    ("document", DOCUMENT_SCHEMA), ("tournament", DOCUMENT_SCHEMA["properties"]["tournament"]),
    *((kind, DOCUMENT_SCHEMA["properties"][name]["items"]) for kind, name in (
        ("player", "players"), ("entry", "entries"), ("session", "sessions"), ("table", "tables"),
        ("round", "rounds"))),
    ("revision", DOCUMENT_SCHEMA["properties"]["rounds"]["items"]["properties"]["revisions"]["items"])))


@extend_schema_field(DOCUMENT_SCHEMA)
class DocumentField(serializers.JSONField):
    # Read by scoring.domain.document_shape at once and by document_reader in the worker, which
    # reports the first problem at its path.

    def to_internal_value(self, data):
        return data   # parsed JSON already (DRF's would write all of it out again to check that)


class ImportInputSerializer(InputSerializer):
    club = IdField(help_text="The club that gets the new tournament.")
    document = DocumentField()


class TournamentExportView(ApiView):
    pagination_class = None

    @extend_schema(operation_id="tournaments_export", summary="The whole tournament as one document",
                   description=("Players, entries, sessions, tables and every deal with every revision and its "
                                "hash, numbered with the document's own ids. Scorer links are never in it. "
                                "A deal whose stored history does not verify answers 409."),
                   responses={200: TournamentDocumentSerializer, **READ_ERRORS, **error_responses(409)},
                   tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.tournament(pk)
        return Response(TournamentDocumentSerializer(tournament_export(t)).data)


class ImportStartedSerializer(OutputSerializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
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
                                "it; revision authors are kept as text marked `imported: `. The new tables' "
                                "scorer links are not shown: make new ones."),
                   request=ImportInputSerializer,
                   parameters=[OpenApiParameter("Location", OpenApiTypes.STR, OpenApiParameter.HEADER,
                                                response=[202], required=True, description="The import's URL.")],
                   responses={202: ImportStartedSerializer, **WRITE_ERRORS, **error_responses(413)},
                   tags=["tournaments"])
    def post(self, request):
        data = self.parse(ImportInputSerializer)
        club = self.club(data["club"])
        job = tournament_import_queue(actor=self.actor, club=club, document=data["document"])
        job.refresh_from_db(fields=["status"])   # without a broker it has run already
        url = reverse("api-import", args=[job.pk])
        return Response(ImportStartedSerializer({"id": job.pk, "status": job.status, "url": url}).data,
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
        detail = {**detail, "club": job.club_id, "tournament": made.pk if made is not None else None,
                  "error": translate_problems([detail["error"]])[0] if detail["error"] else None}
        return Response(ImportSerializer(detail).data)
