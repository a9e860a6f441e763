"""Deals: read, correct (If-Match), confirm, void, dispute, settle; a deal's revisions.
"""


from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring.api.base import READ_ERRORS, WRITE_ERRORS, ApiView, error_responses, etag_header, limit
from scoring.api.fields import (
    DateTimeField,
    InputSerializer,
    OpenInputSerializer,
    OpenSerializer,
    OutputSerializer,
    PlayerCodeField,
    ProblemSerializer,
    SeatField,
    StrictIntegerField,
    TextField,
    ecma,
)
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import MAX_INT32, MAX_NOTE
from scoring.domain.proof import PlayerProof, code_shape_message, is_code
from scoring.models import Round
from scoring.selectors.audits import round_verify_chain
from scoring.selectors.rounds import round_detail, round_get, round_revisions
from scoring.services.rounds import round_confirm, round_correct, round_dispute, round_dispute_resolve, round_void
from scoring.web import throttling
from scoring.web.http import IF_MATCH, etag, parse_if_match


class PlayerResultSerializer(OpenSerializer):
    """One seat's result: its place at the table, then the engine's per-seat fields for the game."""

    position = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    net = serializers.IntegerField()


class RoundSerializer(OutputSerializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["recorded", "confirmed", "voided"])
    counted = serializers.BooleanField()
    disputed = serializers.BooleanField()
    dispute_message = serializers.CharField()
    revision = serializers.IntegerField()
    leader = serializers.IntegerField(required=False, help_text="Connecting games only: seat position that led.")
    next_leader = serializers.IntegerField(required=False, allow_null=True, help_text="Connecting games only.")
    banker = serializers.IntegerField(required=False, help_text="Tau Ngau only: the banker's seat position.")
    next_banker = serializers.IntegerField(required=False, allow_null=True, help_text="Tau Ngau only.")
    entered_by = serializers.IntegerField(allow_null=True)
    confirmed_by = serializers.IntegerField(allow_null=True)
    entered_by_entry = serializers.IntegerField(
        allow_null=True, help_text="The entry id of the player who entered the deal, when they proved who they are "
                                   "(their `entered_by_code`, or their phone on the scorer page); null when not proven.")
    confirmed_by_entry = serializers.IntegerField(
        allow_null=True, help_text="The entry id of the player who confirmed the deal, when they proved who they "
                                   "are; null when not proven (or confirmed by a director).")
    confirmed_by_director = serializers.CharField(allow_null=True)
    void_reason = serializers.CharField()
    # Not required: a retried request's answer stored before these existed comes back as stored.
    late = serializers.BooleanField(required=False, help_text=(
        "Recorded by a director after the table's session was closed."))
    after_time = serializers.BooleanField(required=False, help_text=(
        "Recorded after the session's clock ran out (the server's time at recording)."))
    paper_sheet = serializers.BooleanField(required=False, help_text=(
        "Typed in by a director from the table's paper score sheet."))
    record = serializers.DictField(help_text="The round record exactly as the engine saw it (playing order).")
    result = serializers.DictField(help_text="The engine's result exactly as returned.")
    players = PlayerResultSerializer(many=True, help_text="The result by table seat position (all per-seat fields).")
    outcome = serializers.DictField(help_text="Top-level seat indexes of the result as table positions.")
    warnings = ProblemSerializer(many=True)
    created_at = DateTimeField()
    updated_at = DateTimeField()

    @classmethod
    def stored(cls, body: dict) -> dict:
        """The answer kept with an Idempotency-Key (``services.idempotency``: ``round_detail``
        written as JSON, dates as DjangoJSONEncoder writes them, which is what ``DateTimeField``
        writes too) as this serializer would write it: its fields, copied by name. Every deal's
        answer is one, and DRF's field-by-field walk was a tenth of the request.
        tests/scoring/api/test_deal_path.py checks that both give the same answer."""
        out: dict[str, Any] = {}
        for name, field in cls._declared_fields.items():
            if name in body:
                out[name] = body[name]
            elif field.required:   # an answer stored in another shape: the fields say what it is
                return cls(body).data
        out["warnings"] = [{k: w[k] for k in ("path", "code", "message")} for w in out["warnings"]]
        return out


class RoundPreviewSerializer(OutputSerializer):
    ok = serializers.BooleanField()
    leader = serializers.IntegerField(required=False, help_text="Connecting games only.")
    banker = serializers.IntegerField(required=False, help_text="Tau Ngau only.")
    entered_by = serializers.IntegerField(allow_null=True)
    record = serializers.DictField()
    result = serializers.DictField()
    players = PlayerResultSerializer(many=True)
    outcome = serializers.DictField()
    warnings = ProblemSerializer(many=True)
    errors = ProblemSerializer(many=True)


class RevisionSerializer(OutputSerializer):
    number = serializers.IntegerField()
    body = serializers.DictField(help_text="The request body as understood (leader, banker, entered_by resolved).")
    record = serializers.DictField()
    result = serializers.DictField()
    players = PlayerResultSerializer(many=True)
    outcome = serializers.DictField()
    engine_version = serializers.CharField()
    actor = serializers.CharField()
    reason = serializers.CharField()
    created_at = DateTimeField()
    prev_hash = serializers.CharField()
    hash = serializers.CharField()


class ChainSerializer(OutputSerializer):
    ok = serializers.BooleanField()
    checked = serializers.IntegerField()
    first_broken = serializers.IntegerField(allow_null=True)
    problem = serializers.CharField()


class RevisionsSerializer(OutputSerializer):
    chain = ChainSerializer()
    revisions = RevisionSerializer(many=True)


PROOF_ERRORS_HELP = (
    " A wrong code answers 403 `wrong_player_code`; a player without a code yet 403 `player_code_not_set`. "
    "Wrong codes are limited per player, at every table (5 in 15 minutes by default, each counted before it is "
    "checked; then 429 with Retry-After for that player's code only: other players, and the same player on "
    "their own phone, are not affected).")
ENTERED_BY_CODE_HELP = (
    "The personal code (4 to 6 digits) of the player at `entered_by`, proving who enters the deal. Required of a "
    "scorer link when the tournament has `require_proof` (else 403 `player_proof_required`); when sent, it is "
    "checked anyway and the deal records its enterer as proven (`entered_by_entry`). Never stored." + PROOF_ERRORS_HELP)
CONFIRMED_BY_CODE_HELP = (
    "The personal code of the player at `confirmed_by`, proving who confirms. Required of a scorer link when the "
    "tournament has `require_proof` (else 403 `player_proof_required`). There, the player who entered the deal "
    "cannot confirm it: 409 `self_confirmation`. A code the player set at first use (on the scorer page) "
    "confirms only a deal entered after it was set, from another phone than the one it was set on: else 403 "
    "`code_set_after_deal` or `code_set_on_entering_phone` (a deal entered through the API has no phone "
    "known); a code the director issued confirms any." + PROOF_ERRORS_HELP)


class ConfirmInputSerializer(InputSerializer):
    confirmed_by = SeatField(required=False, allow_null=True,
                             help_text="Seat position of the confirming player (required for scorers; "
                                       "not the seat that entered the deal).")
    confirmed_by_code = PlayerCodeField(required=False, help_text=CONFIRMED_BY_CODE_HELP)


class VoidInputSerializer(InputSerializer):
    reason = TextField(max_length=MAX_NOTE)


class DisputeInputSerializer(InputSerializer):
    message = TextField(max_length=MAX_NOTE, help_text="What is wrong with the deal (required).")


class ResolveInputSerializer(InputSerializer):
    # Optional here (tools that settle in bulk); the director's pages ask for it.
    note = TextField(max_length=MAX_NOTE, required=False, allow_blank=True,
                     help_text="What was decided and why, kept in the action log. Optional over the API; "
                               "the director's pages require it.")


# --- deals as sent ------------------------------------------------------------------------------
# Schema only: the body goes to the services whole (records.round_build_record reads it), as the
# game of the table decides which record fields it has.

class RoundBodySerializer(OpenInputSerializer):
    """A deal: the round record (ROUND_RECORD.md) of the table's game without ``game``,
    ``variant`` and ``seats``, per-seat lists by table position."""

    leader = SeatField(required=False, allow_null=True,
                       help_text="Connecting games: the seat position that led (default: the previous deal's "
                                 "next_leader).")
    banker = SeatField(required=False, allow_null=True,
                       help_text="Tau Ngau: the banker's seat position (default: the previous deal's next_banker).")
    entered_by = SeatField(required=False, allow_null=True, help_text="The seat position of the player entering it.")


class RoundCreateSerializer(RoundBodySerializer):
    """A new deal, optionally naming the deal number it records."""

    entered_by_code = PlayerCodeField(required=False, help_text=ENTERED_BY_CODE_HELP)
    number = StrictIntegerField(required=False, min_value=1, max_value=MAX_INT32,
                                help_text="The deal number the sender is recording (the table's next one). "
                                          "If another device recorded that number meanwhile, the deal is refused "
                                          "(409, code `deal_number_taken`) instead of being recorded as the next "
                                          "one. Leave it out to record the next deal, whatever its number.")


class RoundCorrectionSerializer(RoundBodySerializer):
    """A corrected deal, with the reason for the correction."""

    reason = TextField(max_length=MAX_NOTE, help_text="Why the deal is corrected.")


ROUND_BODY_DOC = (
    "The round record (ROUND_RECORD.md) **without** `game`, `variant` and `seats` (the table knows them). "
    "Per-seat lists are by table seat position. Add `leader` (connecting games: the seat position that led; "
    "default the previous deal's `next_leader`) or `banker` (Tau Ngau; default the previous deal's "
    "`next_banker`), and `entered_by` (the seat position of the player entering it)."
)
#: Recording adds the enterer's proof.
ROUND_CREATE_DOC = ROUND_BODY_DOC + (
    " With `entered_by_code`, the enterer's personal code: required of a scorer link when the tournament has "
    "`require_proof`.")
ROUND_EXAMPLE = OpenApiExample("Jie Long, points", value={"leader": 0, "entered_by": 1, "points": [2, 12, 34, 18]},
                               request_only=True)


def split_code(data: Any, field: str) -> tuple[Any, PlayerProof | None]:
    """The body without the player's code at ``field``, and the proof it makes (None when not
    sent). The code is never part of what is stored, nor of an Idempotency-Key's fingerprint."""
    if not isinstance(data, dict) or field not in data:
        return data, None
    code = data[field]
    if not is_code(code):
        raise ValidationFailed(code_shape_message(), path=field, code="bad_code")
    return {k: v for k, v in data.items() if k != field}, PlayerProof(code=code)


def round_response(rnd: Round, code=status.HTTP_200_OK) -> Response:
    rnd = round_get(rnd.pk)
    return Response(RoundSerializer(round_detail(rnd)).data, status=code,
                    headers={"ETag": etag(rnd.current_revision.number)})


class RoundDetailView(ApiView):
    scorer_auth = True

    @extend_schema(operation_id="rounds_retrieve", summary="A deal (ETag: its revision)", parameters=[etag_header(200)],
                   responses={200: RoundSerializer, **READ_ERRORS}, tags=["rounds"])
    def get(self, request, pk: int):
        return round_response(self.round(pk))

    @extend_schema(
        operation_id="rounds_correct", summary="Correct a deal (a new revision)",
        description=ROUND_BODY_DOC + ' Add a top-level `reason`, and send `If-Match: "<revision>"` with the revision '
        "you are correcting: a stale one gets 412, none 428. Scorers may correct until the deal is confirmed; "
        "a disputed deal only a director changes (409 `round_disputed` to a scorer link).",
        request=RoundCorrectionSerializer,
        examples=[OpenApiExample("Jie Long, two scores swapped", request_only=True,
                                 value={"leader": 0, "points": [2, 12, 18, 34], "reason": "Two scores swapped"})],
        parameters=[OpenApiParameter("If-Match", {"type": "string", "pattern": ecma(IF_MATCH.pattern)},
                                     OpenApiParameter.HEADER, required=True,
                                     description='The revision being corrected, as its ETag (`"2"`) or bare (`2`).',
                                     examples=[OpenApiExample("The first revision", value='"1"')]),
                    etag_header(200)],
        responses={200: RoundSerializer, **WRITE_ERRORS, **error_responses(412, 428)}, tags=["rounds"])
    def put(self, request, pk: int):
        rnd = self.round(pk)
        body = request.data
        reason = body.get("reason") if isinstance(body, dict) else None
        if isinstance(body, dict):
            # What the schema says of the body (RoundCorrection: seat positions, the reason as
            # sent), checked before the If-Match precondition; the rest is the engine's.
            RoundCorrectionSerializer(data=body).is_valid(raise_exception=True)
        rnd = round_correct(actor=self.actor, round=rnd, body=body, reason=reason,
                                     expected_revision=parse_if_match(request.headers.get("If-Match")))
        return round_response(rnd)


ROUND_CHANGED = {"parameters": [etag_header(200)], "responses": {200: RoundSerializer, **WRITE_ERRORS},
                 "tags": ["rounds"]}


class RoundConfirmView(ApiView):
    scorer_auth = True

    @extend_schema(operation_id="rounds_confirm", summary="Confirm a deal (another player than its enterer)",
                   description="A scorer link names the confirming seat; where the tournament requires proof, "
                               "with that player's `confirmed_by_code`.", request=ConfirmInputSerializer,
                   **ROUND_CHANGED)
    def post(self, request, pk: int):
        rnd = self.round(pk)
        data = self.parse(ConfirmInputSerializer)
        seat = data.get("confirmed_by")
        proof = PlayerProof(code=data["confirmed_by_code"]) if "confirmed_by_code" in data else None
        rnd = limit(lambda: throttling.player_code_guarded(
            request, rnd.table, seat, proof,
            lambda: round_confirm(actor=self.actor, round=rnd, confirmed_by=seat, proof=proof)))
        return round_response(rnd)


class RoundVoidView(ApiView):
    @extend_schema(operation_id="rounds_void", summary="Void a deal (directors)", request=VoidInputSerializer,
                   **ROUND_CHANGED)
    def post(self, request, pk: int):
        rnd = self.round(pk)
        # the service refuses a scorer link: 409 round_disputed on a disputed deal, else 403
        data = self.parse(VoidInputSerializer)
        return round_response(round_void(actor=self.actor, round=rnd, reason=data["reason"]))


class RoundDisputeView(ApiView):
    scorer_auth = True

    @extend_schema(operation_id="rounds_dispute", summary="Call the referee", request=DisputeInputSerializer,
                   **ROUND_CHANGED)
    def post(self, request, pk: int):
        rnd = self.round(pk)
        data = self.parse(DisputeInputSerializer)
        return round_response(round_dispute(actor=self.actor, round=rnd, message=data["message"]))


class RoundResolveView(ApiView):
    referee_auth = ("POST",)

    @extend_schema(operation_id="rounds_resolve", summary="Settle a dispute (directors and the tournament's referees)", request=ResolveInputSerializer,
                   **ROUND_CHANGED)
    def post(self, request, pk: int):
        rnd = self.round(pk, "round_dispute_resolve")
        data = self.parse(ResolveInputSerializer)
        return round_response(round_dispute_resolve(actor=self.actor, round=rnd, note=data.get("note", "")))


class RoundRevisionsView(ApiView):
    scorer_auth = True

    @extend_schema(operation_id="rounds_revisions", summary="The full history of a deal, with the hash chain check",
                   responses={200: RevisionsSerializer, **READ_ERRORS}, tags=["rounds"])
    def get(self, request, pk: int):
        rnd = self.round(pk)
        return Response(RevisionsSerializer({"chain": round_verify_chain(rnd),
                                             "revisions": round_revisions(rnd)}).data)
