"""Tournaments: list, create, read, change, start, finish; their entries and tables.
"""


from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

import games
from scoring.api.base import LIST_ERRORS, NO_STORE, READ_ERRORS, WRITE_ERRORS, ApiView
from scoring.api.fields import (
    IdField,
    InputSerializer,
    MoneyField,
    OutputModelSerializer,
    SlugInputField,
    StrictBooleanField,
    TextField,
)
from scoring.api.tables import TableCreatedSerializer, TableInputSerializer, TableSerializer
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import MAX_CURRENCY, MAX_SLUG, MAX_TOURNAMENT_NAME
from scoring.domain.standings import DEFAULT_TIE_BREAKS, TIE_BREAK_FACTS, TIE_BREAKS
from scoring.models import Entry, Player, Tournament
from scoring.models.tournaments import ENTRY_LEVEL_CHOICES
from scoring.selectors.access import require_director
from scoring.selectors.players import has_code
from scoring.selectors.tables import table_detail, table_list
from scoring.selectors.tournaments import entry_list, tournament_list_for_director
from scoring.services.roster import entry_reenter, tournament_delete
from scoring.services.tables import table_create
from scoring.services.tournaments import (
    entry_create,
    tournament_create,
    tournament_finish,
    tournament_start,
    tournament_update,
)
from scoring.web import links

TIE_BREAKS_HELP = (f"The standings' order, most important first: one or more of {', '.join(TIE_BREAKS)} "
                   f"(default {', '.join(DEFAULT_TIE_BREAKS)}); "
                   f"{', '.join(k for k, f in TIE_BREAK_FACTS.items() if not f.may_lead)} cannot come first.")

TOURNAMENT_SLUG_HELP = (
    "The public page's address, `/t/<slug>/` (made from the name when left out). 409 `slug_taken` only when a "
    "tournament of the same club, or one that anyone may see (public and started), has it: other clubs' private "
    "and draft tournaments never count, so whether they exist cannot be learnt from here. Should another "
    "tournament become visible with the slug before this one does, this one gets the next free slug (`-2`, `-3` "
    "…) when it becomes visible (start, or `public` set once started).")


REQUIRE_PROOF_HELP = (
    "Whether players prove who they are with their personal codes: a scorer link then records a deal only "
    "with the enterer's `entered_by_code` and confirms one only with the confirmer's `confirmed_by_code` "
    "(403 `player_proof_required` without it), and the enterer confirming their own deal is refused "
    "(409 `self_confirmation`).")


ENTRY_LEVEL_HELP = (
    "The level of detail a phone starts a deal on when it has none of its own (a phone keeps the level it "
    "last recorded a deal at); one of the game's ways of entering (the catalog's levels: "
    + "; ".join(f"{g.key}: {', '.join(level for level, _ in g.entry.ways_of_entering())}" for g in games.CATALOG.values())
    + "), default the game's first. Another game's level is refused (400 `unknown_level`).")

#: Every game's ways of entering; the service checks the tournament's game.
ENTRY_LEVELS = [level for level, _label in ENTRY_LEVEL_CHOICES]


class TournamentInputSerializer(InputSerializer):
    club = IdField()
    name = TextField(max_length=MAX_TOURNAMENT_NAME)
    game = serializers.ChoiceField(choices=list(games.CATALOG))
    variant = serializers.DictField(required=False, help_text="Rule options (ROUND_RECORD.md §6); defaults fill the rest.")
    slug = SlugInputField(max_length=MAX_SLUG, required=False, allow_blank=True, help_text=TOURNAMENT_SLUG_HELP)
    public = StrictBooleanField(required=False, default=False)
    require_confirmation = StrictBooleanField(required=False, default=False)
    require_proof = StrictBooleanField(required=False, help_text=REQUIRE_PROOF_HELP + " Default: the same as "
                                       "`require_confirmation`.")
    chip_value = MoneyField(required=False, default="0.00")
    currency = TextField(max_length=MAX_CURRENCY, required=False, allow_blank=True)
    tie_breaks = serializers.ListField(child=serializers.ChoiceField(choices=list(TIE_BREAKS)), min_length=1,
                                       required=False, help_text=TIE_BREAKS_HELP)
    entry_level = serializers.ChoiceField(choices=ENTRY_LEVELS, required=False, help_text=ENTRY_LEVEL_HELP)


#: What ``rated`` means, wherever it is shown.
RATED_HELP = "Whether the tournament's deals count in the club's ratings (default true)."


class TournamentUpdateSerializer(InputSerializer):
    name = TextField(max_length=MAX_TOURNAMENT_NAME, required=False)
    variant = serializers.DictField(required=False)
    public = StrictBooleanField(required=False)
    require_confirmation = StrictBooleanField(required=False)
    require_proof = StrictBooleanField(required=False, help_text=REQUIRE_PROOF_HELP + " May change any time "
                                       "before the finish.")
    rated = StrictBooleanField(required=False, help_text=RATED_HELP + " May change any time, after the finish too "
                               "(alone); the ratings follow.")
    chip_value = MoneyField(required=False)
    currency = TextField(max_length=MAX_CURRENCY, required=False, allow_blank=True)
    tie_breaks = serializers.ListField(child=serializers.ChoiceField(choices=list(TIE_BREAKS)), min_length=1,
                                       required=False, help_text=TIE_BREAKS_HELP)
    entry_level = serializers.ChoiceField(choices=ENTRY_LEVELS, required=False,
                                          help_text=ENTRY_LEVEL_HELP + " May change any time before the finish.")


class TournamentSerializer(OutputModelSerializer):
    tie_breaks = serializers.ListField(child=serializers.ChoiceField(choices=list(TIE_BREAKS)), read_only=True,
                                       help_text=TIE_BREAKS_HELP)
    require_proof = serializers.BooleanField(read_only=True, help_text=REQUIRE_PROOF_HELP)
    rated = serializers.BooleanField(read_only=True, help_text=RATED_HELP)
    entry_level = serializers.ChoiceField(choices=ENTRY_LEVELS, source="start_level", read_only=True,
                                          help_text=ENTRY_LEVEL_HELP)

    class Meta:
        model = Tournament
        fields = ["id", "club", "name", "slug", "game", "variant", "status", "public", "require_confirmation",
                  "require_proof", "rated", "entry_level", "chip_value", "currency", "tie_breaks", "created_at", "started_at", "finished_at"]


class FinishInputSerializer(InputSerializer):
    disputes_stay = StrictBooleanField(
        required=False, default=False,
        help_text="With disputes open, finishing is refused (400, `open_disputes`) unless this is true: a "
                  "finished tournament can no longer settle them.")


class EntryInputSerializer(InputSerializer):
    player = IdField()


class EntrySerializer(OutputModelSerializer):
    name = serializers.CharField(source="player.name")
    has_code = serializers.SerializerMethodField(help_text="Whether the player's personal code is set (the code "
                                                           "itself is never shown again).")
    withdrawn = serializers.SerializerMethodField(help_text="Whether the player has withdrawn: their deals still "
                                                            "count, seating leaves them out.")

    class Meta:
        model = Entry
        fields = ["id", "tournament", "player", "name", "has_code", "withdrawn", "withdrawn_at", "created_at"]

    def get_has_code(self, entry) -> bool:
        return has_code(entry)

    def get_withdrawn(self, entry) -> bool:
        return entry.withdrawn_at is not None


class TournamentListView(ApiView):
    @extend_schema(operation_id="tournaments_list", summary="Tournaments of the clubs I direct",
                   responses={200: TournamentSerializer(many=True), **LIST_ERRORS}, tags=["tournaments"])
    def get(self, request):
        require_director(self.actor)
        return self.paginated(tournament_list_for_director(request.user), TournamentSerializer)

    @extend_schema(operation_id="tournaments_create", request=TournamentInputSerializer,
                   responses={201: TournamentSerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def post(self, request):
        require_director(self.actor)
        data = self.parse(TournamentInputSerializer)
        club = self.club(data.pop("club"))
        t = tournament_create(actor=self.actor, club=club, slug=data.pop("slug", None) or None, **data)
        return Response(TournamentSerializer(t).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(ApiView):
    @extend_schema(operation_id="tournaments_retrieve", responses={200: TournamentSerializer, **READ_ERRORS},
                   tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.tournament(pk)
        return Response(TournamentSerializer(t).data)

    @extend_schema(operation_id="tournaments_update", request=TournamentUpdateSerializer,
                   responses={200: TournamentSerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def patch(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(TournamentUpdateSerializer)
        t = tournament_update(actor=self.actor, tournament=t, **data)
        return Response(TournamentSerializer(t).data)

    @extend_schema(operation_id="tournaments_delete", summary="Delete a draft tournament",
                   description="With its entries, sessions and tables; its players stay in the club. A tournament "
                               "that has started is refused (409 `tournament_not_draft`).",
                   request=None, responses={204: None, **WRITE_ERRORS}, tags=["tournaments"])
    def delete(self, request, pk: int):
        tournament_delete(actor=self.actor, tournament=self.tournament(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentStartView(ApiView):
    @extend_schema(operation_id="tournaments_start", summary="draft → running", request=None,
                   responses={200: TournamentSerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def post(self, request, pk: int):
        t = tournament_start(actor=self.actor, tournament=self.tournament(pk))
        return Response(TournamentSerializer(t).data)


class TournamentFinishView(ApiView):
    @extend_schema(operation_id="tournaments_finish", summary="running → finished (read-only)",
                   request=FinishInputSerializer, responses={200: TournamentSerializer, **WRITE_ERRORS},
                   tags=["tournaments"])
    def post(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(FinishInputSerializer)
        t = tournament_finish(actor=self.actor, tournament=t, disputes_stay=data["disputes_stay"])
        return Response(TournamentSerializer(t).data)


class TournamentEntriesView(ApiView):
    @extend_schema(operation_id="tournaments_entries_list",
                   responses={200: EntrySerializer(many=True), **LIST_ERRORS}, tags=["tournaments"])
    def get(self, request, pk: int):
        t = self.tournament(pk)
        return self.paginated(entry_list(t), EntrySerializer)

    @extend_schema(operation_id="tournaments_entries_create", summary="Enter a player (also late, or again)",
                   description="A draft or a running tournament (a late entry is seated from the next session on). "
                               "A player who withdrew is entered again: the same entry, with its deals (200); one "
                               "entered already is refused (409 `exists`).",
                   request=EntryInputSerializer,
                   responses={201: EntrySerializer, 200: EntrySerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def post(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(EntryInputSerializer)
        player = Player.objects.filter(pk=data["player"], club=t.club).first()
        if player is None:
            raise ValidationFailed("No such player in this club.", path="player", code="not_found")
        withdrawn = (Entry.objects.select_related("player", "tournament__club")
                     .filter(tournament=t, player=player, withdrawn_at__isnull=False).first())
        if withdrawn is not None:
            entry = entry_reenter(actor=self.actor, entry=withdrawn)
            return Response(EntrySerializer(entry).data)
        entry = entry_create(actor=self.actor, tournament=t, player=player)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class TournamentTablesView(ApiView):
    @extend_schema(operation_id="tournaments_tables_list", responses={200: TableSerializer(many=True), **LIST_ERRORS},
                   tags=["tables"])
    def get(self, request, pk: int):
        t = self.tournament(pk)
        return self.paginated(table_list(t), TableSerializer,
                              detail=lambda tables: [table_detail(table) for table in tables])

    @extend_schema(operation_id="tournaments_tables_create",
                   summary="Create a table (the scorer link is in this answer only)",
                   request=TableInputSerializer, responses={201: TableCreatedSerializer, **WRITE_ERRORS},
                   tags=["tables"])
    def post(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(TableInputSerializer)
        table, token = table_create(actor=self.actor, tournament=t, name=data["name"],
                                             entries=data["entries"], session=data.get("session"))
        body = {**table_detail(table), "scorer_url": links.scorer_url(token, request), "scorer_token": token}
        return Response(TableCreatedSerializer(body).data, status=status.HTTP_201_CREATED, headers=NO_STORE)
