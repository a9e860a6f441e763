"""Output shapes of the standings and payouts answers (``scoring.api.standings``)."""

from __future__ import annotations

from rest_framework import serializers

from scoring.domain.standings import TIE_BREAKS
from scoring.domain.standings import TIE_BREAK_ORDER
from scoring.api.serializers import DateTimeField, OutputSerializer

MONEY = {"max_digits": 20, "decimal_places": None, "coerce_to_string": True}


class StandingRowSerializer(OutputSerializer):
    rank = serializers.IntegerField(help_text="1 = best; rows still tied after every tie-break share a rank.")
    tied = serializers.BooleanField(help_text="The rank is shared with another row.")
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    deals = serializers.IntegerField(help_text="Counted deals played.")
    net = serializers.IntegerField(help_text="Sum of the nets, in the game's unit (chips or points).")
    wins = serializers.IntegerField(help_text="Deals won: place 1 where the game places the seats (connecting "
                                              "games), a positive net where it does not (Tau Ngau, Da Ling).")
    average_place = serializers.FloatField(allow_null=True, help_text="Sum of places / deals placed (3 decimals); "
                                                                      "null before the first.")
    places = serializers.DictField(child=serializers.IntegerField(),
                                   help_text='How often each place: {"1": firsts, "2": seconds, …}, one key per '
                                             "place the game can give.")
    head_to_head = serializers.IntegerField(required=False, help_text="Only when the ranking reached this "
                                            "tie-break: the net won from the rows tied with this one.")
    last_deal_at = DateTimeField(allow_null=True, help_text="When the entry's latest counted deal was recorded.")
    money = serializers.DecimalField(**MONEY, help_text="net × chip value, exact (payouts round payments).")

    #: Copied as they are; the others are formatted by their fields.
    PLAIN = ("rank", "tied", "entry", "player", "name", "deals", "net", "wins", "average_place", "places")

    def to_representation(self, row):
        # The fields above describe the answer (and the schema); a row is written directly, since
        # DRF's field-by-field walk would be most of the time of a read of many rows.
        # tests/scoring/test_api_schema.py checks the answer against the schema.
        out = {k: row[k] for k in self.PLAIN}
        if "head_to_head" in row:
            out["head_to_head"] = row["head_to_head"]
        fields = self.fields
        last = row["last_deal_at"]
        out["last_deal_at"] = None if last is None else fields["last_deal_at"].to_representation(last)
        out["money"] = fields["money"].to_representation(row["money"])
        return out


class StandingsSerializer(OutputSerializer):
    computed_at = DateTimeField(allow_null=True, help_text="The latest change applied to the standings.")
    stale = serializers.BooleanField(help_text="Always false: standings change in the same transaction as the "
                                               "deals, so they are never behind what a reader can see.")
    tie_breaks = serializers.ListField(child=serializers.ChoiceField(choices=list(TIE_BREAKS)),
                                       help_text="The order of the ranking: " + "; ".join(
                                           f"`{k}`: {v}" for k, v in TIE_BREAK_ORDER.items()) + ".")
    chip_value = serializers.DecimalField(max_digits=10, decimal_places=2)
    currency = serializers.CharField()
    rows = StandingRowSerializer(many=True)


class PayoutPlayerSerializer(OutputSerializer):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    net = serializers.IntegerField(help_text="Chips won (+) or lost (−).")
    money = serializers.DecimalField(**MONEY, help_text="What the player's transfers come to, in the currency's "
                                                        "minor unit.")


class HouseSerializer(OutputSerializer):
    net = serializers.IntegerField()
    money = serializers.DecimalField(**MONEY)


class TransferSerializer(OutputSerializer):
    from_entry = serializers.IntegerField(allow_null=True, help_text="null: the house.")
    from_name = serializers.CharField()
    to_entry = serializers.IntegerField(allow_null=True, help_text="null: the house.")
    to_name = serializers.CharField()
    chips = serializers.IntegerField()
    amount = serializers.DecimalField(**MONEY, help_text="chips × chip value, rounded to the minor unit (half to "
                                                         "even).")


class RoundingPlayerSerializer(OutputSerializer):
    entry = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    exact = serializers.DecimalField(**MONEY, help_text="net × chip value.")
    money = serializers.DecimalField(**MONEY)


class RoundingSerializer(OutputSerializer):
    decimals = serializers.IntegerField(help_text="Digits of the currency's minor unit (ISO 4217; 2 when unknown).")
    remainder = serializers.DecimalField(**MONEY, help_text="How much less (+) or more (−) than the exact "
                                                            "amounts the rounded transfers move in all.")
    players = RoundingPlayerSerializer(many=True, help_text="Everyone whose money differs from net × chip value.")


class PayoutsSerializer(OutputSerializer):
    chip_value = serializers.DecimalField(max_digits=10, decimal_places=2)
    currency = serializers.CharField()
    session = serializers.IntegerField(allow_null=True, help_text="The session settled; null: the whole tournament.")
    players = PayoutPlayerSerializer(many=True)
    house = HouseSerializer(required=False, help_text="Only when something went to the house (Da Ling's casino "
                                                      "chip): its chips and money.")
    transfers = TransferSerializer(many=True, help_text="Who pays whom: at most one fewer than the parties with a "
                                                        "balance; summing exactly to the nets.")
    rounding = RoundingSerializer()
