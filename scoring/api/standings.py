"""Standings and payouts over the API: ``/tournaments/{id}/standings/`` (JSON),
``…/standings.csv`` and ``…/payouts/`` (``?session=N`` for one session).

Readable by the tournament's directors, and by anyone — no login — when the tournament is
public. A private tournament answers 404 to everyone else, like an unknown id.
"""

from __future__ import annotations

import csv
import io

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from scoring.selectors.payouts import payouts_for

from scoring.selectors.standings import place_count, standings_table

from scoring.selectors.tournaments import tournament_get
from scoring.selectors.access import require_club_visible
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import MAX_INT32, parse_whole_number
from scoring.models import Tournament
from scoring.api import standings_serializers as s
from scoring.api.base import READ_ERRORS, ApiView, error_responses


class TournamentReadView(ApiView):
    permission_classes = [AllowAny]   # who may read is the tournament's to say (public or not)
    pagination_class = None

    def readable_tournament(self, pk) -> Tournament:
        t = tournament_get(pk)
        if not t.public:
            require_club_visible(self.actor, t.club, "tournament")
        return t


class TournamentStandingsView(TournamentReadView):
    @extend_schema(operation_id="tournaments_standings", summary="Standings",
                   description="Every entry's counted deals, net, wins, places, average and last deal time, "
                               "ranked by the tournament's `tie_breaks`. Read from the kept standings: a fixed "
                               "number of queries, whatever the number of deals. No login needed for a public "
                               "tournament.",
                   responses={200: s.StandingsSerializer, **READ_ERRORS}, tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.readable_tournament(pk)
        return Response(s.StandingsSerializer(standings_table(t)).data)


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


def cell(text: str) -> str:
    """Text for a spreadsheet cell: one starting like a formula (= + - @, tab, CR) gets a
    leading apostrophe, so that a player's name is never run as one (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


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


class TournamentStandingsCSVView(TournamentReadView):
    renderer_classes = [JSONRenderer, CSVRenderer]

    def initial(self, request, *args, **kwargs):
        # ?format= is one of the documented values; DRF would take an empty one as none at all.
        formats = request.query_params.getlist("format")
        if formats and (len(formats) > 1 or formats[0] not in ("csv", "json")):
            raise ValidationFailed(_("format is csv or json (or left out)."), path="format", code="bad_format")
        super().initial(request, *args, **kwargs)

    @extend_schema(operation_id="tournaments_standings_csv", summary="Standings as CSV",
                   description="The standings' rows as CSV (UTF-8, a header row; names that look like a formula "
                               "start with an apostrophe). Columns: rank, tied, entry, player, name, deals, net, "
                               "wins, average_place, place_1 … place_N (N: the most seats the game has), "
                               "last_deal_at, money.",
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
                   responses={200: s.PayoutsSerializer, **READ_ERRORS, **error_responses(400)},
                   tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.readable_tournament(pk)
        session = session_number(request)
        return Response(s.PayoutsSerializer(payouts_for(t, session=session)).data)
