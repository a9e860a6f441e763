"""A whole tournament as one JSON document, out and back in:
``GET /api/v1/tournaments/{id}/export/`` and ``POST /api/v1/tournaments/import/``.

The format and its hash chain are described in ``scoring.documents``. Directors of the
tournament's club only (anyone else: 404, like an unknown id).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from .. import selectors, services
from ..documents import FORMAT, VERSION
from .serializers import OutputSerializer, TournamentSerializer
from .views import READ_ERRORS, WRITE_ERRORS, ApiView, error_responses

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
    hash = serializers.CharField(help_text="sha256 of the revision over the document's round id (scoring.chain).")


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


class ImportInputSerializer(serializers.Serializer):
    club = serializers.IntegerField(help_text="The club that gets the new tournament.")
    document = serializers.DictField(help_text="A document as the export answers it.")


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
        return Response(TournamentDocumentSerializer(selectors.tournament_export(t)).data)


class TournamentImportView(ApiView):
    @extend_schema(operation_id="tournaments_import", summary="A new tournament from an exported document",
                   description=("Players are matched by name in the club (or created). The document's hashes "
                                "must verify; the first problem answers 400 at its path, like "
                                "`document.rounds[3].revisions[1].hash`. The new tables' scorer links are not "
                                "shown: make new ones."),
                   request=ImportInputSerializer, responses={201: TournamentSerializer, **WRITE_ERRORS},
                   tags=["tournaments"])
    def post(self, request):
        data = self.parse(ImportInputSerializer)
        club = self.club(data["club"])
        t = services.tournament_import(actor=self.actor, club=club, document=request.data["document"])
        return Response(TournamentSerializer(t).data, status=status.HTTP_201_CREATED)
