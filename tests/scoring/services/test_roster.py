"""Roster edits (``services.roster``, ``services.clubs.player_rename``, late entries): every change
logged, every refusal a 409 with its code, nothing that counts lost."""

from __future__ import annotations

import pytest

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.models import ActionLog, Entry, Player, Round, Seat, Session, Standing, Table, Tournament
from scoring.selectors.standings import standings_for
from scoring.selectors.tables import table_by_scorer_token
from scoring.services.clubs import player_create, player_rename
from scoring.services.roster import entry_reenter, entry_withdraw, table_delete, tournament_delete
from scoring.services.rounds import round_record, round_void
from scoring.services.tables import table_create
from scoring.services.tournaments import entry_create, tournament_finish

from ..bodies import JIE_LONG, JIE_LONG_NETS

pytestmark = pytest.mark.django_db


def code_of(excinfo) -> str:
    return excinfo.value.errors[0]["code"]


# --- renaming a player -------------------------------------------------------------------------

def test_a_rename_is_club_wide_and_logged_with_before_and_after(jie_long, director_actor):
    player = jie_long.entries[0].player
    renamed = player_rename(actor=director_actor, player=player, name="  Annabel ")
    assert renamed.name == player.name == "Annabel" and Player.objects.get(pk=player.pk).name == "Annabel"
    assert "Annabel" in [r["name"] for r in standings_for(jie_long.tournament)]
    log = ActionLog.objects.get(action=ActionLog.Action.PLAYER_RENAME)
    assert (log.target_model, log.target_id, log.tournament) == ("Player", str(player.pk), None)
    assert log.data == {"club": player.club_id, "before": "Anna", "after": "Annabel"}


def test_a_rename_keeps_the_names_of_deals_already_recorded(jie_long, director_actor):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    player_rename(actor=director_actor, player=jie_long.entries[0].player, name="Annabel")
    rnd.refresh_from_db()
    assert rnd.current_revision.record["seats"][0] == "Anna"   # immutable, hash-chained


def test_a_rename_to_another_players_name_is_refused(jie_long, director_actor):
    player = jie_long.entries[0].player
    with pytest.raises(Conflict) as e:
        player_rename(actor=director_actor, player=player, name="Bob")
    assert (e.value.errors[0]["path"], code_of(e)) == ("name", "exists")
    assert Player.objects.get(pk=player.pk).name == "Anna"
    assert not ActionLog.objects.filter(action=ActionLog.Action.PLAYER_RENAME).exists()


def test_the_same_name_again_changes_and_logs_nothing(jie_long, director_actor):
    player_rename(actor=director_actor, player=jie_long.entries[0].player, name="Anna")
    assert not ActionLog.objects.filter(action=ActionLog.Action.PLAYER_RENAME).exists()


@pytest.mark.parametrize("name, code", [("", "required"), ("   ", "required"), ("x" * 101, "too_long"),
                                        ("a\x00b", "bad_text"), (None, "required")])
def test_a_bad_name_is_refused(jie_long, director_actor, name, code):
    with pytest.raises(ValidationFailed) as e:
        player_rename(actor=director_actor, player=jie_long.entries[0].player, name=name)
    assert code_of(e) == code


def test_only_a_director_of_the_club_renames(jie_long, other_director):
    for actor in (Actor(user=other_director), jie_long.scorer_actor):
        with pytest.raises(PermissionDenied):
            player_rename(actor=actor, player=jie_long.entries[0].player, name="Zed")


# --- withdrawing and entering again ------------------------------------------------------------

def test_a_withdrawn_entry_keeps_its_deals_and_its_standing(jie_long, director_actor):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    anna = jie_long.entries[0]
    entry_withdraw(actor=director_actor, entry=anna)
    assert anna.withdrawn_at is not None and Entry.objects.get(pk=anna.pk).is_withdrawn
    rows = {r["name"]: r for r in standings_for(jie_long.tournament)}
    assert (rows["Anna"]["net"], rows["Anna"]["deals"], rows["Anna"]["withdrawn"]) == (JIE_LONG_NETS[0], 1, True)
    assert rows["Bob"]["withdrawn"] is False
    assert Standing.objects.filter(entry=anna).exists() and Seat.objects.filter(entry=anna).exists()
    log = ActionLog.objects.get(action=ActionLog.Action.ENTRY_WITHDRAW)
    assert (log.target_id, log.tournament_id, log.data) == (str(anna.pk), jie_long.tournament.pk,
                                                            {"player": anna.player_id, "name": "Anna"})


def test_withdrawing_twice_or_entering_again_one_who_plays_is_refused(jie_long, director_actor):
    anna = jie_long.entries[0]
    with pytest.raises(Conflict) as e:
        entry_reenter(actor=director_actor, entry=anna)
    assert code_of(e) == "not_withdrawn"
    entry_withdraw(actor=director_actor, entry=anna)
    with pytest.raises(Conflict) as e:
        entry_withdraw(actor=director_actor, entry=anna)
    assert code_of(e) == "already_withdrawn"
    entry_reenter(actor=director_actor, entry=anna)
    assert anna.withdrawn_at is None and Entry.objects.get(pk=anna.pk).withdrawn_at is None
    assert ActionLog.objects.filter(action=ActionLog.Action.ENTRY_REENTER, target_id=str(anna.pk)).count() == 1


def test_a_finished_tournament_refuses_withdrawing_and_entering_again(jie_long, director_actor):
    bob = jie_long.entries[1]
    entry_withdraw(actor=director_actor, entry=bob)
    tournament_finish(actor=director_actor, tournament=jie_long.tournament)
    for call, entry in ((entry_withdraw, jie_long.entries[0]), (entry_reenter, bob)):
        with pytest.raises(Conflict) as e:
            call(actor=director_actor, entry=entry)
        assert code_of(e) == "tournament_finished"


def test_only_a_director_of_the_club_withdraws(jie_long, other_director):
    for actor in (Actor(user=other_director), jie_long.scorer_actor):
        with pytest.raises(PermissionDenied):
            entry_withdraw(actor=actor, entry=jie_long.entries[0])
    assert Entry.objects.filter(withdrawn_at__isnull=False).count() == 0


def test_a_withdrawn_entry_cannot_be_given_a_new_table(jie_long, director_actor):
    anna = jie_long.entries[0]
    entry_withdraw(actor=director_actor, entry=anna)
    with pytest.raises(ValidationFailed) as e:
        table_create(actor=director_actor, tournament=jie_long.tournament, name="T2", entries=jie_long.entries,
                     session=2)
    assert [(p["path"], p["code"]) for p in e.value.errors] == [("entries[0]", "withdrawn")]


def test_a_late_entry_joins_a_running_tournament_not_a_finished_one(jie_long, director_actor, club):
    late = player_create(actor=director_actor, club=club, name="Late Lou")
    entry = entry_create(actor=director_actor, tournament=jie_long.tournament, player=late)
    assert entry.tournament.status == "running" and Standing.objects.filter(entry=entry).exists()
    tournament_finish(actor=director_actor, tournament=jie_long.tournament)
    other = player_create(actor=director_actor, club=club, name="Later Lea")
    with pytest.raises(Conflict) as e:
        entry_create(actor=director_actor, tournament=jie_long.tournament, player=other)
    assert code_of(e) == "tournament_finished"


# --- deleting a table --------------------------------------------------------------------------

def test_a_table_without_deals_is_deleted_with_its_seats_and_link(make_setup, director_actor):
    s = make_setup("jie_long")
    table_pk = s.table.pk
    table_delete(actor=director_actor, table=s.table)
    assert not Table.objects.filter(pk=table_pk).exists() and not Seat.objects.filter(table_id=table_pk).exists()
    assert table_by_scorer_token(s.token) is None          # the scorer link died with it
    log = ActionLog.objects.get(action=ActionLog.Action.TABLE_DELETE)
    assert (log.target_id, log.tournament_id) == (str(table_pk), s.tournament.pk)
    assert log.data["name"] == "Table 1" and log.data["session"] == 1
    assert [x["name"] for x in log.data["seats"]] == ["Anna", "Bob", "Celine", "Dominic"]
    assert Entry.objects.filter(tournament=s.tournament).count() == 4   # the entries stay


def test_a_table_with_any_deal_is_kept(jie_long, director_actor):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    round_void(actor=director_actor, round=rnd, reason="misdeal")   # voided: history all the same
    with pytest.raises(Conflict) as e:
        table_delete(actor=director_actor, table=jie_long.table)
    assert code_of(e) == "table_has_deals"
    assert Table.objects.filter(pk=jie_long.table.pk).exists()
    assert not ActionLog.objects.filter(action=ActionLog.Action.TABLE_DELETE).exists()


def test_a_finished_tournaments_table_is_kept(make_setup, director_actor):
    s = make_setup("jie_long")
    tournament_finish(actor=director_actor, tournament=s.tournament)
    with pytest.raises(Conflict) as e:
        table_delete(actor=director_actor, table=s.table)
    assert code_of(e) == "tournament_finished"


def test_only_a_director_of_the_club_deletes_a_table(make_setup, other_director):
    s = make_setup("jie_long")
    for actor in (Actor(user=other_director), s.scorer_actor):
        with pytest.raises(PermissionDenied):
            table_delete(actor=actor, table=s.table)
    assert Table.objects.filter(pk=s.table.pk).exists()


# --- deleting a draft tournament ---------------------------------------------------------------

def test_a_draft_is_deleted_and_its_log_rows_stay_named(make_setup, director_actor):
    s = make_setup("jie_long", start=False)
    t = s.tournament
    pk, players = t.pk, set(Player.objects.values_list("pk", flat=True))
    earlier = list(ActionLog.objects.filter(tournament=t).order_by("id").values_list("id", flat=True))
    assert earlier   # created, entries, session, table
    tournament_delete(actor=director_actor, tournament=t)
    assert not Tournament.objects.filter(pk=pk).exists()
    assert not Entry.objects.filter(tournament_id=pk).exists() and not Session.objects.filter(tournament_id=pk).exists()
    assert set(Player.objects.values_list("pk", flat=True)) == players   # the club keeps its players
    log = ActionLog.objects.get(action=ActionLog.Action.TOURNAMENT_DELETE)
    assert (log.target_model, log.target_id, log.tournament) == ("Tournament", str(pk), None)
    assert {k: log.data[k] for k in ("id", "name", "slug", "club", "entries", "sessions")} == {
        "id": pk, "name": t.name, "slug": t.slug, "club": t.club_id, "entries": 4, "sessions": 1}
    assert log.data["log"] == earlier
    assert ActionLog.objects.filter(pk__in=earlier).count() == len(earlier)   # none lost, unlinked
    assert not ActionLog.objects.filter(pk__in=earlier, tournament__isnull=False).exists()


def test_a_started_tournament_is_not_deleted(jie_long, director_actor):
    with pytest.raises(Conflict) as e:
        tournament_delete(actor=director_actor, tournament=jie_long.tournament)
    assert code_of(e) == "tournament_not_draft"
    tournament_finish(actor=director_actor, tournament=jie_long.tournament)
    with pytest.raises(Conflict) as e:
        tournament_delete(actor=director_actor, tournament=jie_long.tournament)
    assert code_of(e) == "tournament_not_draft"
    assert Tournament.objects.filter(pk=jie_long.tournament.pk).exists()


def test_a_draft_with_deals_is_not_deleted(make_setup, director_actor):
    """No service makes one (deals need a running tournament); should one exist, its deals stay."""
    s = make_setup("jie_long")
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    Tournament.objects.filter(pk=s.tournament.pk).update(status="draft")
    s.tournament.status = "draft"
    with pytest.raises(Conflict) as e:
        tournament_delete(actor=director_actor, tournament=s.tournament)
    assert code_of(e) == "tournament_has_deals"
    assert Round.objects.filter(table=s.table).count() == 1


def test_only_a_director_of_the_club_deletes_a_tournament(make_setup, other_director):
    s = make_setup("jie_long", start=False)
    with pytest.raises(PermissionDenied):
        tournament_delete(actor=Actor(user=other_director), tournament=s.tournament)
    assert Tournament.objects.filter(pk=s.tournament.pk).exists()


# --- a renamed player's tournament still moves by export and import ------------------------------

def test_a_renamed_players_tournament_exports_and_imports(make_setup, director_actor, director_client, club):
    """Deals recorded before a rename keep the old name in their records (immutable); the import
    checks each record under the names it was recorded with (``document_revisions.recorded_names``)."""
    from scoring.models import RoundRevision

    from .test_exports import export, imported, play

    s = make_setup("jie_long")
    play(s)
    player_rename(actor=director_actor, player=s.entries[1].player, name="Roberto")
    round_record(actor=s.director_actor, table=s.table, body=JIE_LONG)     # recorded under the new name
    doc = export(director_client, s.tournament)
    copy = imported(director_client, club, doc)
    records = [r.record["seats"] for r in RoundRevision.objects.filter(round__table__session__tournament=copy)
               .order_by("round__number", "number")]
    assert ["Bob" in seats for seats in records] == [True] * (len(records) - 1) + [False]
    assert "Roberto" in records[-1]
    assert "Roberto" in [e.player.name for e in copy.entries.select_related("player")]


def test_a_record_naming_no_usable_seats_is_still_refused(make_setup, director_client, club):
    from .test_exports import export, play, refused, rehash

    s = make_setup("jie_long")
    play(s)
    doc = export(director_client, s.tournament)
    seats = doc["rounds"][0]["revisions"][0]["record"]["seats"]
    seats[1] = seats[0]                                                     # two seats, one name
    assert refused(director_client, club, rehash(doc)) == [
        ("document.rounds[0].revisions[0].record", "record_mismatch")]
