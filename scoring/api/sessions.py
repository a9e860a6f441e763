"""A session's status and clock: ``POST /api/v1/sessions/{id}/close/``, ``.../reopen/``,
``POST`` / ``DELETE .../clock/``; its serializers (also the list ``GET
/api/v1/tournaments/{id}/sessions/``, in ``scoring.api.seating``). Directors of the club only."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response

from scoring.api.base import WRITE_ERRORS, ApiView
from scoring.api.fields import DateTimeField, InputSerializer, OutputSerializer, StrictIntegerField
from scoring.domain.inputs import MAX_CLOCK_MINUTES
from scoring.selectors.sessions import session_detail
from scoring.services.sessions import session_clock_start, session_clock_stop, session_close, session_reopen


class SessionSeatSerializer(OutputSerializer):
    position = serializers.IntegerField(help_text="0, 1, ... counter-clockwise = playing order.")
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()


class SessionTableSerializer(OutputSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seats = SessionSeatSerializer(many=True)


class ClockSerializer(OutputSerializer):
    started_at = DateTimeField()
    ends_at = DateTimeField(help_text="When the time is up (UTC, the server's clock).")
    seconds_left = serializers.IntegerField(help_text="Whole seconds left when this answer was made; 0: time is up.")


_WHEN = {"type": "string", "format": "date-time"}


# Written out: a nested serializer that may be null is an allOf with "nullable" beside it, which
# OpenAPI 3.0 validators do not read as nullable.
@extend_schema_field({
    "type": "object", "nullable": True, "additionalProperties": False,
    "required": ["started_at", "ends_at", "seconds_left"],
    "properties": {"started_at": _WHEN, "ends_at": {**_WHEN, "description": "When the time is up (UTC, the server's "
                                                                             "clock)."},
                   "seconds_left": {"type": "integer", "minimum": 0,
                                    "description": "Whole seconds left when this answer was made; 0: time is up."}},
    "description": "The session's clock; null without one."})
class ClockField(serializers.Field):
    def __init__(self, **kwargs):
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value):
        return dict(ClockSerializer(value).data)


class SessionSerializer(OutputSerializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["open", "closed"], help_text=(
        "`closed`: its scorer links record and change no deals (409 `session_closed`); a director may still "
        "record a late deal."))
    closed_at = DateTimeField(allow_null=True)
    clock = ClockField(allow_null=True)
    tables = SessionTableSerializer(many=True)


class ClockInputSerializer(InputSerializer):
    minutes = StrictIntegerField(min_value=1, max_value=MAX_CLOCK_MINUTES, help_text=(
        "The clock ends this many minutes from now (the server's time); a running clock starts over."))


def _answer(session) -> Response:
    return Response(SessionSerializer(session_detail(session)).data)


class SessionCloseView(ApiView):
    @extend_schema(operation_id="sessions_close", summary="open → closed", request=None,
                   description="Its scorer links stop recording deals (409 `session_closed`). 409 "
                               "`session_already_closed` when it is closed.",
                   responses={200: SessionSerializer, **WRITE_ERRORS}, tags=["sessions"])
    def post(self, request, pk: int):
        return _answer(session_close(actor=self.actor, session=self.session(pk)))


class SessionReopenView(ApiView):
    @extend_schema(operation_id="sessions_reopen", summary="closed → open", request=None,
                   description="409 `session_already_open` when it is open.",
                   responses={200: SessionSerializer, **WRITE_ERRORS}, tags=["sessions"])
    def post(self, request, pk: int):
        return _answer(session_reopen(actor=self.actor, session=self.session(pk)))


class SessionClockView(ApiView):
    @extend_schema(operation_id="sessions_clock_start", summary="Start the session's clock",
                   description="409 `session_closed` for a closed session.",
                   request=ClockInputSerializer, responses={200: SessionSerializer, **WRITE_ERRORS},
                   examples=[OpenApiExample("Ninety minutes", request_only=True, value={"minutes": 90})],
                   tags=["sessions"])
    def post(self, request, pk: int):
        session = self.session(pk)
        data = self.parse(ClockInputSerializer)
        return _answer(session_clock_start(actor=self.actor, session=session, minutes=data["minutes"]))

    @extend_schema(operation_id="sessions_clock_stop", summary="Take the clock off the session",
                   description="409 `no_clock` when it has none.",
                   request=None, responses={200: SessionSerializer, **WRITE_ERRORS}, tags=["sessions"])
    def delete(self, request, pk: int):
        return _answer(session_clock_stop(actor=self.actor, session=self.session(pk)))
