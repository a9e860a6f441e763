"""A club's seasons (``/clubs/{id}/seasons/``), one season with its tournaments, weights and
standings (``/seasons/{id}/``), its tournaments added or removed, and its standings as CSV."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from scoring.api.base import LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, ApiView, error_responses
from scoring.api.fields import (
    IdField,
    InputSerializer,
    OutputModelSerializer,
    OutputSerializer,
    SlugInputField,
    StrictBooleanField,
    TextField,
)
from scoring.api.standings import CSV_ERRORS, CSVFormatChecked, cell
from scoring.domain.errors import NotFound
from scoring.domain.inputs import MAX_SLUG, MAX_TOURNAMENT_NAME
from scoring.domain.standings import PLACES, TIE_BREAK_FACTS, TIE_BREAKS
from scoring.models import Season, Tournament
from scoring.selectors.access import directed_club, is_director_of, require_club_visible
from scoring.selectors.common import get_or_404
from scoring.selectors.seasons import season_links, season_list, season_standings
from scoring.services.seasons import season_create, season_tournament_add, season_tournament_remove, season_update

WEIGHT = {"max_digits": 8, "decimal_places": 3}


class SeasonInputSerializer(InputSerializer):
    name = TextField(max_length=MAX_TOURNAMENT_NAME)
    slug = SlugInputField(max_length=MAX_SLUG, required=False, allow_blank=True)
    public = StrictBooleanField(required=False, help_text="Anyone may see the season (page, API, CSV).")


class SeasonUpdateSerializer(InputSerializer):
    name = TextField(max_length=MAX_TOURNAMENT_NAME, required=False)
    slug = SlugInputField(max_length=MAX_SLUG, required=False, allow_blank=True)
    public = StrictBooleanField(required=False)


class SeasonTournamentInputSerializer(InputSerializer):
    tournament = IdField(help_text="One of the season's club's tournaments (another club's: 400 `other_club`).")
    weight = serializers.DecimalField(**WEIGHT, required=False, min_value=Decimal("0.001"),
                                      help_text="How many times its net counts (default 1; a final: 2). Added "
                                                "again, the tournament's weight changes.")


class SeasonSerializer(OutputModelSerializer):
    # A season's slug may be empty (none given): a plain text, not the slug pattern, in the schema.
    slug = serializers.CharField(read_only=True, help_text="A short name for its address, or empty.")

    class Meta:
        model = Season
        fields = ["id", "club", "name", "slug", "public", "created_at"]


class SeasonTournamentSerializer(OutputSerializer):
    tournament = serializers.IntegerField(source="tournament_id")
    name = serializers.CharField(source="tournament.name")
    slug = serializers.CharField(source="tournament.slug")
    game = serializers.CharField(source="tournament.game")
    status = serializers.CharField(source="tournament.status")
    weight = serializers.DecimalField(**WEIGHT)


class SeasonRowSerializer(OutputSerializer):
    rank = serializers.IntegerField(help_text="1 = best; rows still tied after every tie-break share a rank.")
    tied = serializers.BooleanField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    net = serializers.DecimalField(max_digits=30, decimal_places=3,
                                   help_text="Σ weight × the tournament's net, exact.")
    deals = serializers.IntegerField(help_text="Counted deals played, over the season (not weighted).")
    wins = serializers.IntegerField(help_text="Deals won, over the season (not weighted).")
    average_place = serializers.FloatField(allow_null=True)
    places = serializers.DictField(child=serializers.IntegerField(),
                                   help_text='How often each place: {"1": firsts, …, "6": …}.')
    tournaments = serializers.IntegerField(help_text="The season's tournaments the player has an entry in.")


class SeasonStandingsSerializer(OutputSerializer):
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIE_BREAKS)),
        help_text="The tournaments' order when they all share one, else the default; head-to-head is left out "
                  "(it reads one tournament's deals). "
                  + "; ".join(f"`{k}`: {v.order}" for k, v in TIE_BREAK_FACTS.items()))
    rows = SeasonRowSerializer(many=True)


class SeasonDetailSerializer(SeasonSerializer):
    tournaments = SeasonTournamentSerializer(many=True, source="links_read")
    standings = SeasonStandingsSerializer(source="standings_read")

    class Meta(SeasonSerializer.Meta):
        fields = [*SeasonSerializer.Meta.fields, "tournaments", "standings"]


def detail(season: Season, *, public_only: bool) -> dict:
    links = season_links(season, public_only=public_only)
    season.links_read = links
    season.standings_read = season_standings(season, links=links)
    return SeasonDetailSerializer(season).data


def _require_login(request) -> None:
    """401 for an anonymous write (the views let anyone read a public season)."""
    if not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()


class SeasonReadView(ApiView):
    permission_classes = [AllowAny]   # a public season is anyone's to read; writes check the club's directors
    pagination_class = None

    def readable_season(self, pk) -> Season:
        season = get_or_404(Season, pk=pk)
        if not season.public:
            require_club_visible(self.actor, season.club, "season")
        return season

    def public_only(self, season: Season) -> bool:
        """Whether the reader sees only the tournaments anyone may see (not a director of the club)."""
        return not is_director_of(self.actor, season.club)

    def writable_season(self, pk) -> Season:
        _require_login(self.request)
        season = get_or_404(Season, pk=pk)
        require_club_visible(self.actor, season.club, "season")
        return season


class ClubSeasonsView(ApiView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="clubs_seasons_list", summary="A club's seasons",
                   description="Its directors see every season; anyone else (no login needed) the public ones, "
                               "and 404 for a club with none.",
                   responses={200: SeasonSerializer(many=True), **LIST_ERRORS}, tags=["seasons"])
    def get(self, request, pk: int):
        # One query to tell a club that is not the reader's from an unknown id: its public seasons.
        club = directed_club(self.actor, pk)
        seasons = season_list(pk, public_only=club is None)
        if club is None and not seasons.exists():
            raise NotFound("No such club.")
        return self.paginated(seasons, SeasonSerializer)

    @extend_schema(operation_id="clubs_seasons_create", summary="Create a season (directors of the club)",
                   request=SeasonInputSerializer, responses={201: SeasonSerializer, **WRITE_ERRORS}, tags=["seasons"])
    def post(self, request, pk: int):
        _require_login(request)
        club = self.club(pk)
        data = self.parse(SeasonInputSerializer)
        season = season_create(actor=self.actor, club=club, name=data["name"], slug=data.get("slug") or "",
                               public=data.get("public", False))
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonDetailView(SeasonReadView):
    @extend_schema(operation_id="seasons_retrieve", summary="A season, its tournaments and standings",
                   description="The standings sum each player's results over the season's tournaments, each "
                               "tournament's net times its weight, ranked by the tournaments' tie-breaks. Read "
                               "from the kept standings: a fixed number of queries, whatever the deals. No login "
                               "needed for a public season; a reader who does not direct the club sees, and the "
                               "standings count, only its tournaments anyone may see (public and started).",
                   responses={200: SeasonDetailSerializer, **READ_ERRORS}, tags=["seasons"])
    def get(self, request, pk: int):
        season = self.readable_season(pk)
        return Response(detail(season, public_only=self.public_only(season)))

    @extend_schema(operation_id="seasons_update", summary="Rename or publish a season",
                   request=SeasonUpdateSerializer, responses={200: SeasonDetailSerializer, **WRITE_ERRORS},
                   tags=["seasons"])
    def patch(self, request, pk: int):
        season = self.writable_season(pk)
        data = self.parse(SeasonUpdateSerializer)
        season = season_update(actor=self.actor, season=season, **data)
        return Response(detail(season, public_only=False))


class SeasonTournamentsView(SeasonReadView):
    @extend_schema(operation_id="seasons_tournaments_add", summary="Count a tournament in the season",
                   request=SeasonTournamentInputSerializer, responses={200: SeasonDetailSerializer, **WRITE_ERRORS},
                   tags=["seasons"])
    def post(self, request, pk: int):
        season = self.writable_season(pk)
        data = self.parse(SeasonTournamentInputSerializer)
        t = self.tournament(data["tournament"])
        season_tournament_add(actor=self.actor, season=season, tournament=t, weight=data.get("weight", 1))
        return Response(detail(season, public_only=False))


class SeasonTournamentDetailView(SeasonReadView):
    @extend_schema(operation_id="seasons_tournaments_remove", summary="Leave a tournament out of the season",
                   responses={200: SeasonDetailSerializer, **WRITE_ERRORS}, tags=["seasons"])
    def delete(self, request, pk: int, tournament_id: int):
        season = self.writable_season(pk)
        t = Tournament.objects.filter(pk=tournament_id, club_id=season.club_id).first()
        if t is None:
            raise NotFound("No such tournament.")
        season_tournament_remove(actor=self.actor, season=season, tournament=t)
        return Response(detail(season, public_only=False))


def season_csv(table: dict) -> str:
    """The season's standings as CSV, one row per player, the header first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["rank", "tied", "player", "name", "tournaments", "deals", "net", "wins", "average_place",
                     *[f"place_{k}" for k in range(1, len(PLACES) + 1)]])
    for r in table["rows"]:
        writer.writerow([r["rank"], "yes" if r["tied"] else "", r["player"], cell(r["name"]), r["tournaments"],
                         r["deals"], r["net"], r["wins"], "" if r["average_place"] is None else r["average_place"],
                         *[r["places"][str(k)] for k in range(1, len(PLACES) + 1)]])
    return out.getvalue()


class SeasonStandingsCSVView(CSVFormatChecked, SeasonReadView):

    @extend_schema(operation_id="seasons_standings_csv", summary="A season's standings as CSV",
                   description="One row per player (UTF-8, a header row): rank, tied, player, name, tournaments, "
                               "deals, net (weighted, exact), wins, average_place, place_1 … place_6. Names are "
                               "guarded against spreadsheet formulas as in the tournament standings' CSV. As the "
                               "season's standings: only tournaments anyone may see count for a reader who does "
                               "not direct the club.",
                   responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY, description="A CSV file."), **READ_ERRORS, **error_responses(400), **CSV_ERRORS},
                   tags=["seasons"])
    def get(self, request, pk: int):
        season = self.readable_season(pk)
        table = season_standings(season, public_only=self.public_only(season))
        response = HttpResponse(season_csv(table), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{season.slug or f"season-{season.pk}"}-standings.csv"'
        return response

