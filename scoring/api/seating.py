"""A tournament's sessions over the API: ``GET /api/v1/tournaments/{id}/sessions/`` lists them
(status, clock, tables); ``POST`` seats the next one (and closes the open earlier ones, unless
``keep_open``).

The answer holds every table's scorer link and token (and its QR code for a session of up to
``QR_IN_ANSWER`` tables: drawing 2,500 of them would hold the request for half a minute), so it is
sent with ``Cache-Control: no-store``. The links are kept encrypted while the session is open:
the director's sheet shows them again, and so does a retry with the same ``Idempotency-Key``
(the same session, nothing created).
"""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring.api.base import LIST_ERRORS, NO_STORE, WRITE_ERRORS, ApiView, error_responses
from scoring.api.fields import (
    MAX_SEATS,
    MIN_SEATS,
    IdField,
    InputSerializer,
    OutputSerializer,
    StrictBooleanField,
    StrictIntegerField,
    TextField,
    UniqueListField,
    ecma,
)
from scoring.api.sessions import SessionSerializer
from scoring.domain import seating
from scoring.domain.inputs import MAX_ID, MAX_IDEMPOTENCY_KEY, NON_BLANK
from scoring.selectors.sessions import session_detail, session_list
from scoring.services.seating import CHECKED_IN, MAX_SEED, SeatedSession, session_seat
from scoring.web import links

#: Most entry ids one seating may list (a bound for the body; a club's tournament has far fewer).
MAX_ENTRIES = 1000
#: Sessions of up to this many tables get their QR codes in the answer; larger ones draw them a
#: page at a time on the director's sheet (or from ``scorer_url``).
QR_IN_ANSWER = 50


@extend_schema_field({"oneOf": [
    {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": MAX_ID}, "uniqueItems": True,
     "minItems": 1, "maxItems": MAX_ENTRIES},
    {"type": "string", "enum": [CHECKED_IN]}]})
class EntriesField(serializers.Field):
    """A list of entry ids (each once), or ``"checked_in"``."""

    def to_internal_value(self, data):
        if data == CHECKED_IN:
            return data
        return UniqueListField(child=IdField(), min_length=1, max_length=MAX_ENTRIES).run_validation(data)

    def to_representation(self, value):
        return value


class SeatingInputSerializer(InputSerializer):
    method = serializers.ChoiceField(choices=list(seating.METHODS), help_text=(
        "`random`: a seeded draw; `standings`: strongest together, table by table (table 1 = the leaders); "
        "`balanced`: fewest repeated opponents over the earlier sessions."))
    table_size = StrictIntegerField(min_value=MIN_SEATS, max_value=MAX_SEATS, help_text=(
        "Players per table, one of the game's player counts."))
    leftovers = serializers.ChoiceField(choices=list(seating.LEFTOVERS), help_text=(
        "`sit_out`: every table has `table_size` players, the rest sit out (whoever sat out least so far); "
        "`smaller_tables`: everybody plays, at the fewest tables, sizes as equal as the game allows "
        "(not for a game played by one number of players only)."))
    seed = TextField(required=False, max_length=MAX_SEED, help_text=(
        "The draw: the same seed, entries and history give the same seating. Default: a fresh one "
        "(in the answer)."))
    # Checked again by the service, which reports an entry of another tournament at its index
    # (entries[2]); how many are needed for a table depends on the game and on table_size.
    entries = EntriesField(required=False, help_text=(
        "Entry ids of this tournament who play this session, each once; or `\"checked_in\"`: the entries "
        "checked in for the session opened ahead of seating (`/api/v1/sessions/{id}/check-ins/`; 400 "
        "`no_check_in` when no session is open for check-in, `too_few_players` when too few are in). "
        "Default: every entry not withdrawn."))
    keep_open = StrictBooleanField(required=False, default=False, help_text=(
        "Keep the earlier sessions open (a venue whose sessions overlap). By default seating closes them: "
        "their scorer links stop recording deals."))


class SeatedEntrySerializer(OutputSerializer):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()


class SeatSerializer(SeatedEntrySerializer):
    position = serializers.IntegerField(help_text="0, 1, ... counter-clockwise = playing order.")


class SeatedTableSerializer(OutputSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seats = SeatSerializer(many=True)
    scorer_url = serializers.CharField(allow_null=True, help_text=(
        "The scorer's private link. Null only in a retry's answer when the session has closed since "
        "(its links are erased then)."))
    scorer_token = serializers.CharField(allow_null=True, help_text=(
        "The plain scorer token (stored hashed, and encrypted while the session is open); null as scorer_url."))
    qr_svg = serializers.CharField(allow_null=True, help_text=(
        f"The link as a QR code (an SVG document) for a session of up to {QR_IN_ANSWER} tables; null for "
        "larger ones (the director's sheet draws them a page at a time)."))


class SeatedSessionSerializer(OutputSerializer):
    tournament = serializers.IntegerField()
    session = serializers.IntegerField(help_text="The new session's number.")
    method = serializers.CharField()
    table_size = serializers.IntegerField()
    leftovers = serializers.CharField()
    seed = serializers.CharField(help_text="The seed drawn with: send it again to get the same seating.")
    tables = SeatedTableSerializer(many=True)
    sit_outs = SeatedEntrySerializer(many=True, help_text="Who sits this session out.")
    closed_sessions = serializers.ListField(child=serializers.IntegerField(), help_text=(
        "The numbers of the earlier sessions this seating closed (none with `keep_open`)."))


def _entry(entry) -> dict:
    return {"entry": entry.pk, "player": entry.player_id, "name": entry.player.name}


def seated_session_data(seated: SeatedSession, request=None) -> dict:
    """The answer to a seating (links absolute when ``request`` is given)."""
    tables = []
    with_qr = len(seated.tables) <= QR_IN_ANSWER
    for table, token in seated.tables:
        url = links.scorer_url(token, request) if token else None
        tables.append({"id": table.pk, "name": table.name,
                       "seats": [{"position": i, **_entry(e)} for i, e in enumerate(seated.seats[table.pk])],
                       "scorer_url": url, "scorer_token": token,
                       "qr_svg": links.qr_svg(url) if url and with_qr else None})
    return {"tournament": seated.session.tournament_id, "session": seated.session.number, "method": seated.method,
            "table_size": seated.table_size, "leftovers": seated.leftovers, "seed": seated.seed,
            "tables": tables, "sit_outs": [_entry(e) for e in seated.sit_outs], "closed_sessions": seated.closed}


class TournamentSessionsView(ApiView):
    @extend_schema(
        operation_id="tournaments_sessions_list", summary="The sessions, their status, clock and tables",
        description="Directors of the club only. Sessions by number; scorer links are never listed.",
        responses={200: SessionSerializer(many=True), **LIST_ERRORS}, tags=["sessions"])
    def get(self, request, pk: int):
        t = self.tournament(pk)
        now = timezone.now()
        return self.paginated(session_list(t), SessionSerializer,
                              detail=lambda sessions: [session_detail(s, now=now) for s in sessions])

    @extend_schema(
        operation_id="tournaments_sessions_seat", summary="Seat the next session (with its scorer links)",
        description=("Creates the next session with its tables, seats and scorer links, all at once or nothing. "
                     "Table sizes come from the game (`table_size` must be one of its player counts). The earlier "
                     "sessions still open are closed (`closed_sessions`) unless `keep_open`. Send an "
                     "`Idempotency-Key` header to make retries safe: the same key and body answer the same "
                     "session again (its tables and links; `Idempotent-Replayed: true`) and create nothing; the "
                     "same key with another body is refused (422 `idempotency_key_reused`)."),
        parameters=[OpenApiParameter("Idempotency-Key", {"type": "string", "minLength": 1,
                                                         "maxLength": MAX_IDEMPOTENCY_KEY,
                                                         "pattern": ecma(NON_BLANK)},
                                     OpenApiParameter.HEADER, required=False,
                                     description=f"1 to {MAX_IDEMPOTENCY_KEY} characters, not only spaces: a new one "
                                                 f"for each seating."),
                    OpenApiParameter("Idempotent-Replayed", str, OpenApiParameter.HEADER, response=[201],
                                     enum=["true"], description="Sent with the answer to a repeated key.")],
        request=SeatingInputSerializer, responses={201: SeatedSessionSerializer, **WRITE_ERRORS,
                                                   **error_responses(422)},
        examples=[OpenApiExample("Balanced, tables of 4", request_only=True,
                                 value={"method": "balanced", "table_size": 4, "leftovers": "sit_out", "seed": "7"})],
        tags=["tables"])
    def post(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(SeatingInputSerializer)
        seated = session_seat(actor=self.actor, tournament=t, method=data["method"],
                              table_size=data["table_size"], leftovers=data["leftovers"],
                              seed=data.get("seed"), entries=data.get("entries"), keep_open=data["keep_open"],
                              idempotency_key=request.headers.get("Idempotency-Key"))
        # Built as SeatedSessionSerializer documents it (2,500 tables through nested serializers
        # would cost more than the seating).
        headers = {**NO_STORE, **({"Idempotent-Replayed": "true"} if seated.replayed else {})}
        return Response(seated_session_data(seated, request), status=status.HTTP_201_CREATED, headers=headers)
