"""Standings and payouts over the API: ``/tournaments/{id}/standings/`` (JSON),
``…/standings.csv`` and ``…/payouts/`` (``?session=N`` for one session).

Readable by the tournament's directors, and by anyone — no login — when the public may see the
tournament (public and started: the public pages' rule, ``models.PUBLICLY_VISIBLE``). A private
tournament or a draft answers 404 to everyone else, like an unknown id.
"""

from __future__ import annotations

import csv
import io
import unicodedata

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from scoring.api.base import READ_ERRORS, ApiView, error_responses
from scoring.api.fields import DateTimeField, OutputSerializer
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import MAX_INT32, parse_whole_number
from scoring.domain.standings import TIE_BREAK_FACTS, TIE_BREAKS
from scoring.models import Tournament
from scoring.selectors.access import require_tournament_readable
from scoring.selectors.payouts import payouts_cached, payouts_made
from scoring.selectors.standings import place_count, standings_table
from scoring.selectors.tournaments import tournament_get

#: Money in the answers: exact decimals as text.
MONEY = {"max_digits": 20, "decimal_places": None, "coerce_to_string": True}


class StandingRowSerializer(OutputSerializer):
    rank = serializers.IntegerField(help_text="1 = best; rows still tied after every tie-break share a rank.")
    tied = serializers.BooleanField(help_text="The rank is shared with another row.")
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    withdrawn = serializers.BooleanField(help_text="The player has withdrawn: their deals still count and their "
                                                   "row stays; they are seated no more.")
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
    PLAIN = ("rank", "tied", "entry", "player", "name", "withdrawn", "deals", "net", "wins", "average_place", "places")

    def to_representation(self, row):
        # The fields above describe the answer (and the schema); a row is written directly, since
        # DRF's field-by-field walk would be most of the time of a read of many rows.
        # tests/scoring/api/test_schema.py checks the answer against the schema.
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
                                           f"`{k}`: {v.order}" for k, v in TIE_BREAK_FACTS.items()) + ".")
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



class TournamentReadView(ApiView):
    permission_classes = [AllowAny]   # who may read is the tournament's to say (public or not)
    pagination_class = None

    def readable_tournament(self, pk) -> Tournament:
        t = tournament_get(pk)
        require_tournament_readable(self.actor, t)
        return t


class TournamentStandingsView(TournamentReadView):
    @extend_schema(operation_id="tournaments_standings", summary="Standings",
                   description="Every entry's counted deals, net, wins, places, average and last deal time, "
                               "ranked by the tournament's `tie_breaks`. Read from the kept standings: a fixed "
                               "number of queries, whatever the number of deals. No login needed for a public "
                               "tournament.",
                   responses={200: StandingsSerializer, **READ_ERRORS}, tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.readable_tournament(pk)
        return Response(StandingsSerializer(standings_table(t)).data)


class CSVRenderer(BaseRenderer):
    """Lets a client ask for ``text/csv``; the view writes the CSV itself, so only an error
    answer is rendered here (as rows ``path, code, message``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["path", "code", "message"])
        for e in (data or {}).get("errors", []) if isinstance(data, dict) else []:
            writer.writerow([e.get("path", ""), e.get("code", ""), cell(e.get("message", ""))])
        return out.getvalue().encode(self.charset)


#: What makes a spreadsheet read a cell as a formula when it starts it; the full-width forms
#: (＝ ＋ － ＠) fold to these (NFKC), and some spreadsheets take them as well.
FORMULA_STARTS = frozenset("=+-@\t\r")
#: Where a spreadsheet may begin a new cell or row inside a text: the separators of CSV dialects
#: (a ";" locale reads this comma file split at each ";") and line breaks.
CELL_SPLITS = frozenset(";,|\t\r\n")


def cell(text: str) -> str:
    """A text for a spreadsheet cell that no spreadsheet runs as a formula (CSV injection). A
    formula sign (``FORMULA_STARTS``, full-width forms included) at the start or right after a
    separator (``CELL_SPLITS`` or a space) marks the text: it gets a leading apostrophe, and each
    sign right after a ``CELL_SPLITS`` character gets one too, since a spreadsheet that splits
    there starts a cell with it. Other texts are kept as they are; numbers never come here
    (a net of -12 stays a number)."""
    out, marked, before = [], False, ""
    for c in text:
        folded = unicodedata.normalize("NFKC", c)[:1] or c
        if folded in FORMULA_STARTS and (not before or before in CELL_SPLITS or before.isspace()):
            marked = True
            if before in CELL_SPLITS:
                out.append("'")
        out.append(c)
        before = folded
    return "'" + "".join(out) if marked else text


def standings_csv(table: dict, places: int) -> str:
    """The standings as CSV, one row per entry, the header first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["rank", "tied", "entry", "player", "name", "deals", "net", "wins", "average_place",
                     *[f"place_{k}" for k in range(1, places + 1)], "last_deal_at", "money"])
    for r in table["rows"]:
        writer.writerow([r["rank"], "yes" if r["tied"] else "", r["entry"], r["player"], cell(r["name"]), r["deals"],
                         r["net"], r["wins"], "" if r["average_place"] is None else r["average_place"],
                         *[r["places"][str(k)] for k in range(1, places + 1)],
                         r["last_deal_at"].isoformat() if r["last_deal_at"] else "", r["money"]])
    return out.getvalue()


#: A client that asks for CSV (Accept: text/csv, ?format=csv) gets an error as CSV too: a header
#: row "path,code,message" and one row per error.
CSV_ERRORS = {(code, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY, description="The errors as CSV rows.")
              for code in (400, *READ_ERRORS)}


class CSVFormatChecked:
    """A view answering CSV (or JSON): ``?format=`` is one of the documented values (DRF would
    take an empty one as none at all). Mixed in before the view's base class."""

    renderer_classes = [JSONRenderer, CSVRenderer]

    def initial(self, request, *args, **kwargs):
        formats = request.query_params.getlist("format")
        if formats and (len(formats) > 1 or formats[0] not in ("csv", "json")):
            raise ValidationFailed(_("format is csv or json (or left out)."), path="format", code="bad_format")
        super().initial(request, *args, **kwargs)


class TournamentStandingsCSVView(CSVFormatChecked, TournamentReadView):

    @extend_schema(operation_id="tournaments_standings_csv", summary="Standings as CSV",
                   description="The standings' rows as CSV (UTF-8, a header row). A name holding a formula sign "
                               "(= + - @, tab, CR, or their full-width forms) at its start or after a separator "
                               "(; , | a space or a line break) starts with an apostrophe, and a sign right after "
                               "; , | a tab or a line break gets one before it too, so that no spreadsheet runs it, "
                               "whatever it splits cells on. Numbers are left as they are. Columns: rank, tied, "
                               "entry, player, name, deals, net, wins, average_place, place_1 … place_N (N: the "
                               "most seats the game has), last_deal_at, money.",
                   responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY, description="A CSV file."),
                              **READ_ERRORS, **error_responses(400), **CSV_ERRORS},
                   tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.readable_tournament(pk)
        body = standings_csv(standings_table(t), place_count(t))
        response = HttpResponse(body, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{t.slug}-standings.csv"'
        return response


def session_number(request) -> int | None:
    """``?session=`` as the schema says it: once, digits from 1 up to the largest stored number.
    (A larger one is refused rather than looked up: no session can have it.)"""
    values = request.query_params.getlist("session")
    if not values:
        return None
    number = parse_whole_number(values[0], low=1, high=MAX_INT32, canonical=True)
    if len(values) > 1 or number is None:
        raise ValidationFailed(_("session must be one session number: digits, from 1 to %(max)d.") % {"max": MAX_INT32},
                               path="session", code="bad_session")
    return number


class TournamentPayoutsView(TournamentReadView):
    @extend_schema(operation_id="tournaments_payouts", summary="Payouts: who pays whom",
                   description="The settle-up list: each player's net and money, and the fewest transfers the "
                               "settle-up finds (at most one fewer than the players with a balance), summing "
                               "exactly to the nets. Money is in the currency's minor unit; `rounding` shows "
                               "every difference rounding makes. `?session=N`: that session's deals only.",
                   parameters=[OpenApiParameter("session", {"type": "integer", "minimum": 1, "maximum": MAX_INT32},
                                                OpenApiParameter.QUERY, required=False,
                                                description="A session number (digits, from 1): settle that session "
                                                            "alone. One that does not exist answers 404.")],
                   responses={200: PayoutsSerializer, **READ_ERRORS, **error_responses(400)},
                   tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.readable_tournament(pk)
        session = session_number(request)
        # The serialized answer is cached too: at 10,000 players it costs as much as the payouts.
        return Response(payouts_cached(t, session=session, kind="api", make=lambda: dict(
            PayoutsSerializer(payouts_made(t, session=session)).data)))
