"""Input and output shapes of the API. Inputs are parsed here, then handed to services, which
do the real checking. Every answer is rendered by its output serializer (on a model or a
selector's dict), so the OpenAPI schema describes exactly what is sent."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal

from django.core.serializers.json import DjangoJSONEncoder
from django.core.validators import RegexValidator
from django.db import models
from drf_spectacular.extensions import OpenApiSerializerExtension, OpenApiSerializerFieldExtension
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

import games

from scoring.domain.inputs import MAX_INT32
from scoring.domain.standings import DEFAULT_TIE_BREAKS, TIE_BREAKS
from scoring.models import Club, Entry, Player, Tournament
from scoring.services.rounds import MAX_NOTE


class DateTimeField(serializers.DateTimeField):
    """ISO 8601 to the millisecond, UTC as "Z": what DjangoJSONEncoder writes into the stored
    answer of an idempotent request, so that a replay equals a fresh read of the same deal."""

    def to_representation(self, value):
        if isinstance(value, datetime):
            return DjangoJSONEncoder().default(self.enforce_timezone(value))
        return super().to_representation(value)


# (The base classes here say why in comments: drf-spectacular would take a docstring as the
# description of every schema component made from a subclass.)

class OutputModelSerializer(serializers.ModelSerializer):
    # A model as answered: every field read-only, so always sent and required in the schema.

    serializer_field_mapping = {**serializers.ModelSerializer.serializer_field_mapping,
                                models.DateTimeField: DateTimeField}

    def get_extra_kwargs(self):
        extra = super().get_extra_kwargs()
        for name in self.Meta.fields:
            extra.setdefault(name, {})["read_only"] = True
        return extra


class OutputSerializer(serializers.Serializer):
    # A selector's dict as answered. A field that is not required is left out when the dict has
    # no such key (DRF would send null for a nullable one): "not required" in the schema means
    # "only for some games" (leader, banker, ...).

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if isinstance(instance, Mapping):
            for name, field in self.fields.items():
                if not field.required and field.source not in instance:
                    data.pop(name, None)
        return data


class OpenSerializer(OutputSerializer):
    # The declared fields, plus whatever else the engine's answer holds for the game, sent as is
    # (the schema says additionalProperties: true).

    def to_representation(self, instance):
        data = super().to_representation(instance)
        return {**data, **{k: v for k, v in instance.items() if k not in self.fields}}


class OpenSerializerSchema(OpenApiSerializerExtension):
    target_class = OpenSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return {**schema, "additionalProperties": True}


class ProblemSerializer(OutputSerializer):
    path = serializers.CharField(help_text='Where in the request body, like "points[2]" ("" = the whole body).')
    code = serializers.CharField()
    message = serializers.CharField()


class ErrorsSerializer(OutputSerializer):
    """Every error answer of the API."""

    errors = ProblemSerializer(many=True)
    detail = serializers.CharField(required=False, help_text="The first error's message (answers other than 400).")


# --- inputs -------------------------------------------------------------------------------------
# Input fields take what the schema says and nothing else: JSON strings for text (not numbers
# turned into text), JSON integers for ids, true/false for flags. Text is measured as sent, not
# trimmed first, so that maxLength means what it says; the services strip it afterwards.

#: Whitespace as Python's str.strip() knows it (and so the services), spelled out so that the
#: pattern means the same in Python and in ECMA regular expressions (which have another \s).
WHITESPACE = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
#: Text with something in it besides whitespace (and no NUL, which the JSON parser refuses).
NON_BLANK = rf"\A[^\x00]*[^\x00{WHITESPACE}][^\x00]*\Z"
#: Any text without NUL. (The empty text is allowed apart: drf-spectacular shows it as a oneOf,
#: which is why fields with it have no default "" either: a default must match its schema.)
ANY_TEXT = r"\A[^\x00]+\Z"
#: Ids are 64-bit database keys.
MAX_ID = 2**63 - 1
#: Seats at a table: positions 0..5 (no game has more than six players; the table's game
#: decides how many there are).
MAX_SEATS = max(max(g.player_counts) for g in games.CATALOG.values())
MIN_SEATS = min(min(g.player_counts) for g in games.CATALOG.values())


def ecma(pattern: str) -> str:
    """A Python pattern written to mean the same in ECMA regular expressions (no \\s, \\d, \\w;
    anchored with \\A and \\Z), as the schema shows it: drf-spectacular's spelling."""
    pattern = pattern.encode("ascii", "backslashreplace").decode().replace(r"\x", r"\u00")
    return pattern.replace(r"\A", "^").replace(r"\Z", "$")


class DocumentedRegexValidator(RegexValidator):
    """A pattern the schema shows (drf-spectacular reads ``regex.pattern``). NUL is left to DRF's
    own validator, so that text with NUL gets one error, not two."""

    def __call__(self, value):
        if "\x00" not in str(value):
            super().__call__(value)


class InputSerializer(serializers.Serializer):
    # A request body: the declared fields and no others (code "unknown_field", as the engine and
    # the services say it), so that the schema can close it (additionalProperties: false) and a
    # misspelt field is not silently ignored.

    def to_internal_value(self, data):
        unknown = {}
        if isinstance(data, Mapping):
            unknown = {key: [ErrorDetail(f"{key} is not a field of this request.", code="unknown_field")]
                       for key in data if key not in self.fields}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as e:
            if unknown and isinstance(e.detail, Mapping):
                raise serializers.ValidationError({**e.detail, **unknown}) from None
            raise
        if unknown:
            raise serializers.ValidationError(unknown)
        return value


class StrictCharField(serializers.CharField):
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class TextField(StrictCharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        if not kwargs.get("allow_blank", False):
            kwargs.setdefault("min_length", 1)
        super().__init__(**kwargs)
        if self.allow_blank:
            self.validators.append(DocumentedRegexValidator(ANY_TEXT))
        else:
            self.validators.append(DocumentedRegexValidator(NON_BLANK, message="This field may not be blank.",
                                                            code="blank"))


class SlugInputField(serializers.SlugField):
    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, (int, float)) or (
                isinstance(data, float) and not data.is_integer()):
            self.fail("invalid")
        return super().to_internal_value(data)


class IdField(StrictIntegerField):
    def __init__(self, **kwargs):
        super().__init__(min_value=1, max_value=MAX_ID, **kwargs)


class SeatField(StrictIntegerField):
    def __init__(self, **kwargs):
        super().__init__(min_value=0, max_value=MAX_SEATS - 1, **kwargs)


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class UniqueListField(serializers.ListField):
    """A list without repeats (the schema says uniqueItems; the service refuses repeats)."""


class UniqueListFieldSchema(OpenApiSerializerFieldExtension):
    target_class = UniqueListField

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        return {**schema, "uniqueItems": True}


class MoneyField(serializers.DecimalField):
    """An amount as a string of digits with up to two decimals ("0.50"), from 0 to 99999999.99."""

    PATTERN = r"\A[0-9]{1,8}(?:\.[0-9]{1,2})?\Z"

    def __init__(self, **kwargs):
        super().__init__(max_digits=10, decimal_places=2, min_value=Decimal(0), **kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str) or not re.match(self.PATTERN, data):
            self.fail("invalid")
        return super().to_internal_value(data)


class MoneyFieldSchema(OpenApiSerializerFieldExtension):
    target_class = MoneyField

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        return {**schema, "pattern": ecma(MoneyField.PATTERN)}


# --- auth ---------------------------------------------------------------------------------------

class TokenInputSerializer(InputSerializer):
    # Any text without NUL (spaces can be a password): a wrong one is the credentials' refusal.
    username = StrictCharField(min_length=1, trim_whitespace=False, validators=[DocumentedRegexValidator(ANY_TEXT)])
    password = StrictCharField(min_length=1, trim_whitespace=False, validators=[DocumentedRegexValidator(ANY_TEXT)],
                               style={"input_type": "password"})


class TokenOutputSerializer(OutputSerializer):
    token = serializers.CharField(help_text="Shown only now: only its hash is stored.")
    expires_in = serializers.IntegerField(help_text="Seconds until it stops working.")


class RevokedSerializer(OutputSerializer):
    revoked = serializers.IntegerField(help_text="How many tokens stopped working.")


# --- clubs, players -----------------------------------------------------------------------------

class ClubInputSerializer(InputSerializer):
    name = TextField(max_length=120)
    slug = SlugInputField(max_length=80, required=False, allow_blank=True)


class ClubSerializer(OutputModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]


class PlayerInputSerializer(InputSerializer):
    name = TextField(max_length=100)


class PlayerSerializer(OutputModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "club", "name", "created_at"]


# --- tournaments, entries -----------------------------------------------------------------------

TIE_BREAKS_HELP = (f"The standings' order, most important first: one or more of {', '.join(TIE_BREAKS)} "
                   f"(default {', '.join(DEFAULT_TIE_BREAKS)}); head_to_head cannot come first.")


TOURNAMENT_SLUG_HELP = (
    "The public page's address, `/t/<slug>/` (made from the name when left out). 409 `slug_taken` only when a "
    "tournament of the same club, or one that anyone may see (public and started), has it: other clubs' private "
    "and draft tournaments never count, so whether they exist cannot be learnt from here. Should another "
    "tournament become visible with the slug before this one does, this one gets the next free slug (`-2`, `-3` "
    "…) when it becomes visible (start, or `public` set once started).")


class TournamentInputSerializer(InputSerializer):
    club = IdField()
    name = TextField(max_length=120)
    game = serializers.ChoiceField(choices=list(games.CATALOG))
    variant = serializers.DictField(required=False, help_text="Rule options (ROUND_RECORD.md §6); defaults fill the rest.")
    slug = SlugInputField(max_length=80, required=False, allow_blank=True, help_text=TOURNAMENT_SLUG_HELP)
    public = StrictBooleanField(required=False, default=False)
    require_confirmation = StrictBooleanField(required=False, default=False)
    chip_value = MoneyField(required=False, default="0.00")
    currency = TextField(max_length=3, required=False, allow_blank=True)
    tie_breaks = serializers.ListField(child=serializers.ChoiceField(choices=list(TIE_BREAKS)), min_length=1,
                                       required=False, help_text=TIE_BREAKS_HELP)


class TournamentUpdateSerializer(InputSerializer):
    name = TextField(max_length=120, required=False)
    variant = serializers.DictField(required=False)
    public = StrictBooleanField(required=False)
    require_confirmation = StrictBooleanField(required=False)
    chip_value = MoneyField(required=False)
    currency = TextField(max_length=3, required=False, allow_blank=True)
    tie_breaks = serializers.ListField(child=serializers.ChoiceField(choices=list(TIE_BREAKS)), min_length=1,
                                       required=False, help_text=TIE_BREAKS_HELP)


class TournamentSerializer(OutputModelSerializer):
    tie_breaks = serializers.ListField(child=serializers.ChoiceField(choices=list(TIE_BREAKS)), read_only=True,
                                       help_text=TIE_BREAKS_HELP)

    class Meta:
        model = Tournament
        fields = ["id", "club", "name", "slug", "game", "variant", "status", "public", "require_confirmation",
                  "chip_value", "currency", "tie_breaks", "created_at", "started_at", "finished_at"]


class EntryInputSerializer(InputSerializer):
    player = IdField()


class EntrySerializer(OutputModelSerializer):
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Entry
        fields = ["id", "tournament", "player", "name", "created_at"]


# --- tables -------------------------------------------------------------------------------------

class TableInputSerializer(InputSerializer):
    name = TextField(max_length=60)
    entries = UniqueListField(child=IdField(), min_length=MIN_SEATS, max_length=MAX_SEATS,
                              help_text="Entry ids in seat order 0..N-1 (counter-clockwise = playing order), "
                                        "as many as the game has players.")
    session = StrictIntegerField(required=False, min_value=1, max_value=MAX_INT32,
                                 help_text="Session number; default the latest (session 1 is created if none).")


class SeatTotalSerializer(OutputSerializer):
    position = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField(help_text="Sum of the nets of the table's counted deals.")
    rounds = serializers.IntegerField(help_text="Counted deals.")


class NextRoundSerializer(OutputSerializer):
    number = serializers.IntegerField()
    entered_by = serializers.IntegerField(allow_null=True)
    leader = serializers.IntegerField(required=False, help_text="Connecting games: who leads by default.")
    banker = serializers.IntegerField(required=False, help_text="Tau Ngau: the banker by default.")


class TableSerializer(OutputSerializer):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    session = serializers.IntegerField(help_text="Session number")
    name = serializers.CharField()
    game = serializers.CharField()
    seats = SeatTotalSerializer(many=True)
    next_round = NextRoundSerializer(help_text="Defaults for the next deal.")
    scorer_token_created_at = DateTimeField()


class TableCreatedSerializer(TableSerializer):
    scorer_url = serializers.CharField(help_text="The scorer's private link; shown only now.")
    scorer_token = serializers.CharField(help_text="The plain scorer token; shown only now, stored hashed.")


class ScorerTokenSerializer(OutputSerializer):
    scorer_url = serializers.CharField()
    scorer_token = serializers.CharField()


# --- rounds -------------------------------------------------------------------------------------

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
    confirmed_by_director = serializers.CharField(allow_null=True)
    void_reason = serializers.CharField()
    record = serializers.DictField(help_text="The round record exactly as the engine saw it (playing order).")
    result = serializers.DictField(help_text="The engine's result exactly as returned.")
    players = PlayerResultSerializer(many=True, help_text="The result by table seat position (all per-seat fields).")
    outcome = serializers.DictField(help_text="Top-level seat indexes of the result as table positions.")
    warnings = ProblemSerializer(many=True)
    created_at = DateTimeField()
    updated_at = DateTimeField()


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


class FinishInputSerializer(InputSerializer):
    disputes_stay = StrictBooleanField(
        required=False, default=False,
        help_text="With disputes open, finishing is refused (400, `open_disputes`) unless this is true: a "
                  "finished tournament can no longer settle them.")


class ConfirmInputSerializer(InputSerializer):
    confirmed_by = SeatField(required=False, allow_null=True,
                             help_text="Seat position of the confirming player (required for scorers; "
                                       "not the seat that entered the deal).")


class VoidInputSerializer(InputSerializer):
    reason = TextField(max_length=MAX_NOTE)


class DisputeInputSerializer(InputSerializer):
    message = TextField(max_length=MAX_NOTE, help_text="What is wrong with the deal (required).")


class ResolveInputSerializer(InputSerializer):
    note = TextField(max_length=MAX_NOTE, required=False, allow_blank=True)


# --- deals as sent ------------------------------------------------------------------------------
# Schema only: the body goes to the services whole (records.round_build_record reads it), as the
# game of the table decides which record fields it has.

class OpenInputSerializer(serializers.Serializer):
    # The declared fields, plus the record's fields for the table's game (additionalProperties).
    pass


class OpenInputSerializerSchema(OpenApiSerializerExtension):
    target_class = OpenInputSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return {**schema, "additionalProperties": {}}


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

    number = StrictIntegerField(required=False, min_value=1, max_value=MAX_INT32,
                                help_text="The deal number the sender is recording (the table's next one). "
                                          "If another device recorded that number meanwhile, the deal is refused "
                                          "(409, code `deal_number_taken`) instead of being recorded as the next "
                                          "one. Leave it out to record the next deal, whatever its number.")


class RoundCorrectionSerializer(RoundBodySerializer):
    """A corrected deal, with the reason for the correction."""

    reason = TextField(max_length=MAX_NOTE, help_text="Why the deal is corrected.")


#: The body of POST /api/v1/evaluate/: one record, or a list of records (each answered on its own).
EVALUATE_MAX_BATCH = 500
EVALUATE_BODY = {
    "oneOf": [
        {"type": "object", "additionalProperties": {},
         "description": "One round record (ROUND_RECORD.md)."},
        {"type": "array", "maxItems": EVALUATE_MAX_BATCH, "items": {},
         "description": f"Up to {EVALUATE_MAX_BATCH} records; each gets its own result (`ok` false for one that "
                        "is not a record)."},
    ],
}


# --- the engine ---------------------------------------------------------------------------------

class EngineResultSerializer(OpenSerializer):
    """The engine's answer for one record (ROUND_RECORD.md): ``ok``, then the result's fields for
    the game, or ``errors``."""

    ok = serializers.BooleanField()
    game = serializers.CharField(required=False)
    format = serializers.IntegerField(required=False, help_text="Version of the result format.")
    warnings = ProblemSerializer(many=True, required=False)
    errors = ProblemSerializer(many=True, required=False, help_text="When ok is false.")


class EngineErrorsSerializer(ErrorsSerializer):
    """The errors answer of the engine endpoint."""

    ok = serializers.BooleanField(required=False, help_text="false when the engine refused the record; absent "
                                                            "when the body could not be read.")
