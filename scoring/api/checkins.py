"""Check-in per session over the API (directors of the club only):

- ``POST /api/v1/tournaments/{id}/sessions/ahead/``: open the next session for check-in, ahead
  of seating (no tables yet; the newest one when it is already so);
- ``GET /api/v1/sessions/{id}/check-ins/``: who is checked in, who is missing;
- ``POST /api/v1/sessions/{id}/check-ins/`` ``{"entry": id}``: check an entry in (201; 200 when it
  was already: the same row);
- ``DELETE /api/v1/sessions/{id}/check-ins/{entry_id}/``: undo it (204, also when there was none).

Seating with ``"entries": "checked_in"`` (``scoring.api.seating``) then seats those only.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring.api.base import READ_ERRORS, WRITE_ERRORS, ApiView
from scoring.api.fields import DateTimeField, IdField, InputSerializer, OutputSerializer
from scoring.selectors.checkins import session_check_ins
from scoring.services.checkins import entry_check_in, entry_check_in_undo, session_open_ahead


class CheckInInputSerializer(InputSerializer):
    entry = IdField(help_text="An entry of the session's tournament, not withdrawn.")


class MissingEntrySerializer(OutputSerializer):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()


class CheckInSerializer(MissingEntrySerializer):
    checked_in_at = DateTimeField()
    how = serializers.ChoiceField(choices=["self", "director"], help_text=(
        "`self`: the player, with their personal code (the room's QR code); `director`: ticked by a director."))


class AheadSessionSerializer(OutputSerializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="`open` or `closed` (as the session's own `status`).")
    seated = serializers.BooleanField(help_text="Whether it has tables: check-ins change only before.")


class CheckInsSerializer(OutputSerializer):
    session = AheadSessionSerializer()
    checked_in = CheckInSerializer(many=True, help_text="By name.")
    missing = MissingEntrySerializer(many=True, help_text="The entries not withdrawn who have not checked in, by name.")


def _entry(entry) -> dict:
    return {"entry": entry.pk, "player": entry.player_id, "name": entry.player.name}


def _check_in(entry, row) -> dict:
    return {**_entry(entry), "checked_in_at": row.checked_in_at, "how": row.how}


def _session(session, seated: bool) -> dict:
    return {"id": session.pk, "number": session.number, "status": session.status, "seated": seated}


class TournamentSessionAheadView(ApiView):
    @extend_schema(
        operation_id="tournaments_sessions_ahead", summary="Open the next session for check-in",
        description=("A session with no tables yet, so that players check in before it is seated (201). The "
                     "newest session when it is already so (200, nothing made). Seating "
                     "(`POST /api/v1/tournaments/{id}/sessions/`) then fills this session."),
        request=None, responses={200: AheadSessionSerializer, 201: AheadSessionSerializer, **WRITE_ERRORS},
        tags=["sessions"])
    def post(self, request, pk: int):
        session, created = session_open_ahead(actor=self.actor, tournament=self.tournament(pk))
        return Response(_session(session, False), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class SessionCheckInsView(ApiView):
    pagination_class = None

    @extend_schema(
        operation_id="sessions_check_ins_list", summary="Who is checked in, who is missing",
        responses={200: CheckInsSerializer, **READ_ERRORS}, tags=["sessions"])
    def get(self, request, pk: int):
        found = session_check_ins(self.session(pk))
        return Response(CheckInsSerializer({
            "session": _session(found.session, found.seated),
            "checked_in": [_check_in(e, row) for e, row in found.checked_in],
            "missing": [_entry(e) for e in found.missing]}).data)

    @extend_schema(
        operation_id="sessions_check_ins_create", summary="Check an entry in",
        description=("Idempotent: an entry checked in already answers its check-in (200), with no second row. "
                     "400 `not_found` (an entry of another tournament) or `withdrawn`, at `entry`; 409 "
                     "`session_seated` (the session has tables already) or `session_closed`."),
        request=CheckInInputSerializer, responses={200: CheckInSerializer, 201: CheckInSerializer, **WRITE_ERRORS},
        examples=[OpenApiExample("Check entry 12 in", request_only=True, value={"entry": 12})],
        tags=["sessions"])
    def post(self, request, pk: int):
        session = self.session(pk)
        data = self.parse(CheckInInputSerializer)
        row, created = entry_check_in(actor=self.actor, session=session, entry_id=data["entry"])
        return Response(CheckInSerializer(_check_in(row.entry, row)).data,
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class SessionCheckInView(ApiView):
    @extend_schema(
        operation_id="sessions_check_ins_delete", summary="Undo an entry's check-in",
        description=("204 whether or not it was checked in (nothing changes then). 404 for an entry of another "
                     "tournament; 409 `session_seated` or `session_closed`."),
        request=None, responses={204: None, **WRITE_ERRORS}, tags=["sessions"])
    def delete(self, request, pk: int, entry_id: int):
        entry_check_in_undo(actor=self.actor, session=self.session(pk), entry_id=entry_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
