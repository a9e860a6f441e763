"""A tournament's entries by player: withdrawing one; players' personal codes (each the club's
player's, good in every tournament of the club): the director issues a fresh one (shown once, for
the player's card) or resets one (the player sets a new one at their next use at a table)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring.api.base import NO_STORE, WRITE_ERRORS, ApiView
from scoring.api.fields import OutputSerializer
from scoring.api.tournaments import EntrySerializer
from scoring.domain.errors import NotFound
from scoring.models import Entry
from scoring.services.players import entry_code_issue, entry_code_reset
from scoring.services.roster import entry_withdraw


class EntryCodeSerializer(OutputSerializer):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField(help_text="The player's new personal code (6 digits), his in every tournament of "
                                           "the club: shown only now, stored hashed. Any earlier code stops "
                                           "working, in every tournament of the club, and so does every phone "
                                           "that remembered the player.")


class EntryView(ApiView):
    def entry(self, pk: int, player_id: int) -> Entry:
        tournament = self.tournament(pk)
        entry = Entry.objects.select_related("player", "tournament__club").filter(
            tournament=tournament, player_id=player_id).first()
        if entry is None:
            raise NotFound("No such player in this tournament.")
        return entry


class EntryDetailView(EntryView):
    @extend_schema(operation_id="tournaments_entries_withdraw", summary="Withdraw a player",
                   description="The player leaves the tournament: their deals keep counting, their standings row "
                               "stays (marked `withdrawn`), seating leaves them out from the next session on; a "
                               "table they sit at now stays as it is. Entering them again (`POST …/entries/`) "
                               "brings them back. Refused in a finished tournament (409 `tournament_finished`) "
                               "and for a player withdrawn already (409 `already_withdrawn`).",
                   request=None, responses={200: EntrySerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def delete(self, request, pk: int, player_id: int):
        entry = entry_withdraw(actor=self.actor, entry=self.entry(pk, player_id))
        return Response(EntrySerializer(entry).data)


class EntryCodeView(EntryView):

    @extend_schema(operation_id="tournaments_entries_code_issue",
                   summary="Issue a player's personal code (shown once, for their card)", request=None,
                   responses={200: EntryCodeSerializer, **WRITE_ERRORS}, tags=["tournaments"])
    def post(self, request, pk: int, player_id: int):
        entry = self.entry(pk, player_id)
        code = entry_code_issue(actor=self.actor, entry=entry)
        body = {"entry": entry.pk, "player": entry.player_id, "name": entry.player.name, "code": code}
        return Response(EntryCodeSerializer(body).data, headers=NO_STORE)

    @extend_schema(operation_id="tournaments_entries_code_reset",
                   summary="Reset a player's personal code (they set a new one at their next use)",
                   description="Forgets the player's code in every tournament of the club, and every phone that "
                               "remembered the player forgets them.", request=None,
                   responses={204: None, **WRITE_ERRORS}, tags=["tournaments"])
    def delete(self, request, pk: int, player_id: int):
        entry_code_reset(actor=self.actor, entry=self.entry(pk, player_id))
        return Response(status=status.HTTP_204_NO_CONTENT)
