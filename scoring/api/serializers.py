"""Input and output shapes of the API. Inputs are parsed here, then handed to services, which
do the real checking. Every answer is rendered by its output serializer (on a model or a
selector's dict), so the OpenAPI schema describes exactly what is sent."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

import games

from ..models import DEFAULT_TIE_BREAKS, TIE_BREAKS, Club, Entry, Player, Tournament


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


# --- auth ---------------------------------------------------------------------------------------

class TokenInputSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


class TokenOutputSerializer(OutputSerializer):
    token = serializers.CharField(help_text="Shown only now: only its hash is stored.")
    expires_in = serializers.IntegerField(help_text="Seconds until it stops working.")


class RevokedSerializer(OutputSerializer):
    revoked = serializers.IntegerField(help_text="How many tokens stopped working.")


# --- clubs, players -----------------------------------------------------------------------------

class ClubInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True)


class ClubSerializer(OutputModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]


class PlayerInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)


class PlayerSerializer(OutputModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "club", "name", "created_at"]


# --- tournaments, entries -----------------------------------------------------------------------

TIE_BREAKS_HELP = (f"The standings' order, most important first: one or more of {', '.join(TIE_BREAKS)} "
                   f"(default {', '.join(DEFAULT_TIE_BREAKS)}); head_to_head cannot come first.")


class TournamentInputSerializer(serializers.Serializer):
    club = serializers.IntegerField()
    name = serializers.CharField(max_length=120)
    game = serializers.ChoiceField(choices=list(games.CATALOG))
    variant = serializers.DictField(required=False, help_text="Rule options (ROUND_RECORD.md §6); defaults fill the rest.")
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True)
    public = serializers.BooleanField(required=False, default=False)
    require_confirmation = serializers.BooleanField(required=False, default=False)
    chip_value = serializers.DecimalField(max_digits=10, decimal_places=2, required=False, default=0)
    currency = serializers.CharField(max_length=3, required=False, allow_blank=True, default="")
    tie_breaks = serializers.ListField(child=serializers.CharField(), required=False, help_text=TIE_BREAKS_HELP)


class TournamentUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    variant = serializers.DictField(required=False)
    public = serializers.BooleanField(required=False)
    require_confirmation = serializers.BooleanField(required=False)
    chip_value = serializers.DecimalField(max_digits=10, decimal_places=2, required=False)
    currency = serializers.CharField(max_length=3, required=False, allow_blank=True)
    tie_breaks = serializers.ListField(child=serializers.CharField(), required=False, help_text=TIE_BREAKS_HELP)


class TournamentSerializer(OutputModelSerializer):
    tie_breaks = serializers.ListField(child=serializers.ChoiceField(choices=list(TIE_BREAKS)), read_only=True,
                                       help_text=TIE_BREAKS_HELP)

    class Meta:
        model = Tournament
        fields = ["id", "club", "name", "slug", "game", "variant", "status", "public", "require_confirmation",
                  "chip_value", "currency", "tie_breaks", "created_at", "started_at", "finished_at"]


class EntryInputSerializer(serializers.Serializer):
    player = serializers.IntegerField()


class EntrySerializer(OutputModelSerializer):
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Entry
        fields = ["id", "tournament", "player", "name", "created_at"]


# --- tables -------------------------------------------------------------------------------------

class TableInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=60)
    entries = serializers.ListField(child=serializers.IntegerField(), help_text="Entry ids in seat order 0..N-1 "
                                    "(counter-clockwise = playing order).")
    session = serializers.IntegerField(required=False, min_value=1,
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


class ConfirmInputSerializer(serializers.Serializer):
    confirmed_by = serializers.IntegerField(required=False, allow_null=True,
                                            help_text="Seat position of the confirming player (required for scorers; "
                                                      "not the seat that entered the deal).")


class VoidInputSerializer(serializers.Serializer):
    reason = serializers.CharField()


class DisputeInputSerializer(serializers.Serializer):
    message = serializers.CharField(required=False, allow_blank=True, default="")


class ResolveInputSerializer(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, default="")


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
