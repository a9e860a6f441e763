"""Input and output shapes of the API. Inputs are parsed here, then handed to services, which
do the real checking; outputs are plain dicts from selectors (the serializers document them)."""

from __future__ import annotations

from rest_framework import serializers

import games

from ..models import Club, Entry, Player, Tournament


class ProblemSerializer(serializers.Serializer):
    path = serializers.CharField(help_text='Where in the request body, like "points[2]" ("" = the whole body).')
    code = serializers.CharField()
    message = serializers.CharField()


class ErrorsSerializer(serializers.Serializer):
    errors = ProblemSerializer(many=True)
    detail = serializers.CharField(required=False)


# --- auth ---------------------------------------------------------------------------------------

class TokenInputSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()


# --- clubs, players -----------------------------------------------------------------------------

class ClubInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True)


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]


class PlayerInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "club", "name", "created_at"]


# --- tournaments, entries -----------------------------------------------------------------------

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


class TournamentUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    variant = serializers.DictField(required=False)
    public = serializers.BooleanField(required=False)
    require_confirmation = serializers.BooleanField(required=False)
    chip_value = serializers.DecimalField(max_digits=10, decimal_places=2, required=False)
    currency = serializers.CharField(max_length=3, required=False, allow_blank=True)


class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = ["id", "club", "name", "slug", "game", "variant", "status", "public", "require_confirmation",
                  "chip_value", "currency", "created_at", "started_at", "finished_at"]


class EntryInputSerializer(serializers.Serializer):
    player = serializers.IntegerField()


class EntrySerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "tournament", "player", "name", "created_at"]


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    rounds_counted = serializers.IntegerField()
    payout = serializers.DecimalField(max_digits=14, decimal_places=2)
    currency = serializers.CharField()
    updated_at = serializers.DateTimeField(allow_null=True)


# --- tables -------------------------------------------------------------------------------------

class TableInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=60)
    entries = serializers.ListField(child=serializers.IntegerField(), help_text="Entry ids in seat order 0..N-1 "
                                    "(counter-clockwise = playing order).")
    session = serializers.IntegerField(required=False, min_value=1,
                                       help_text="Session number; default the latest (session 1 is created if none).")


class SeatTotalSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField(help_text="Sum of the nets of the table's counted deals.")
    rounds = serializers.IntegerField(help_text="Counted deals.")


class TableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    session = serializers.IntegerField(help_text="Session number")
    name = serializers.CharField()
    game = serializers.CharField()
    seats = SeatTotalSerializer(many=True)
    next_round = serializers.DictField(help_text="Defaults for the next deal: number, leader or banker.")
    scorer_token_created_at = serializers.DateTimeField()


class TableCreatedSerializer(TableSerializer):
    scorer_url = serializers.CharField(help_text="The scorer's private link; shown only now.")
    scorer_token = serializers.CharField(help_text="The plain scorer token; shown only now, stored hashed.")


class ScorerTokenSerializer(serializers.Serializer):
    scorer_url = serializers.CharField()
    scorer_token = serializers.CharField()


# --- rounds -------------------------------------------------------------------------------------

class PlayerResultSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    net = serializers.IntegerField()


class RoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["recorded", "confirmed", "voided"])
    counted = serializers.BooleanField()
    disputed = serializers.BooleanField()
    dispute_message = serializers.CharField()
    revision = serializers.IntegerField()
    leader = serializers.IntegerField(required=False, help_text="Connecting games: seat position that led.")
    next_leader = serializers.IntegerField(required=False, allow_null=True)
    banker = serializers.IntegerField(required=False, help_text="Tau Ngau: the banker's seat position.")
    next_banker = serializers.IntegerField(required=False, allow_null=True)
    entered_by = serializers.IntegerField(allow_null=True)
    confirmed_by = serializers.IntegerField(allow_null=True)
    confirmed_by_director = serializers.CharField(allow_null=True)
    void_reason = serializers.CharField()
    record = serializers.JSONField(help_text="The round record exactly as the engine saw it (playing order).")
    result = serializers.JSONField(help_text="The engine's result exactly as returned.")
    players = PlayerResultSerializer(many=True, help_text="The result by table seat position (all per-seat fields).")
    outcome = serializers.JSONField(help_text="Top-level seat indexes of the result as table positions.")
    warnings = ProblemSerializer(many=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class RoundPreviewSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    leader = serializers.IntegerField(required=False)
    banker = serializers.IntegerField(required=False)
    entered_by = serializers.IntegerField(allow_null=True)
    record = serializers.JSONField()
    result = serializers.JSONField()
    players = PlayerResultSerializer(many=True)
    outcome = serializers.JSONField()
    warnings = ProblemSerializer(many=True)
    errors = ProblemSerializer(many=True)


class RevisionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    body = serializers.JSONField()
    record = serializers.JSONField()
    result = serializers.JSONField()
    players = PlayerResultSerializer(many=True)
    outcome = serializers.JSONField()
    engine_version = serializers.CharField()
    actor = serializers.CharField()
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()
    prev_hash = serializers.CharField()
    hash = serializers.CharField()


class ChainSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    checked = serializers.IntegerField()
    first_broken = serializers.IntegerField(allow_null=True)
    problem = serializers.CharField()


class RevisionsSerializer(serializers.Serializer):
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
