"""Adjustments (scoring/services/adjustments.py): a fine or bonus outside the deals moves the
player's net at once, is kept in the audit log, refused where it must be, and a deletion keeps it."""

from __future__ import annotations

import pytest

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, IdempotencyKeyReused, PermissionDenied, ValidationFailed
from scoring.models import ActionLog, Adjustment, Standing, TournamentEvent
from scoring.selectors.standings import standings_for
from scoring.services.adjustments import adjustment_create, adjustment_create_once, adjustment_delete
from scoring.services.rounds import round_record
from scoring.services.standings import standings_recompute
from scoring.services.tournaments import tournament_finish

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


def _net(setup, i):
    return Standing.objects.get(entry=setup.entries[i]).total


def test_a_fine_moves_the_net_and_nothing_else(jie_long):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    before = Standing.objects.get(entry=s.entries[0])
    adj = adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[0], amount=-20,
                            reason="  late arrival ")
    after = Standing.objects.get(entry=s.entries[0])
    assert (adj.amount, adj.reason, adj.created_by_label) == (-20, "late arrival", s.director_actor.label)
    assert after.total == before.total - 20
    assert (after.rounds_counted, after.wins, after.place_1) == (before.rounds_counted, before.wins, before.place_1)
    assert standings_recompute(tournament=s.tournament)[1] == {}   # a rebuild agrees


def test_each_write_is_logged_with_the_whole_adjustment_and_published(jie_long):
    s = jie_long
    adj = adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[1], amount=15,
                            reason="chip miscount")
    adjustment_delete(actor=s.director_actor, adjustment=adj)
    logs = list(ActionLog.objects.filter(target_model="Adjustment").order_by("id"))
    assert [r.action for r in logs] == ["adjustment_create", "adjustment_delete"]
    assert logs[0].data["amount"] == 15 and logs[0].data["reason"] == "chip miscount"
    assert logs[0].data["player"] == s.entries[1].player_id and logs[1].data["deleted_at"]
    kinds = list(TournamentEvent.objects.filter(tournament=s.tournament).values_list("kind", "data"))
    assert [k for k, _ in kinds] == ["adjustment_recorded", "adjustment_deleted"]
    assert kinds[0][1]["standings"][0]["net"] == 15 and kinds[1][1]["standings"][0]["net"] == 0


def test_a_deletion_takes_it_out_and_keeps_the_row(jie_long):
    s = jie_long
    adj = adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[0], amount=-10,
                            reason="phone at the table")
    adjustment_delete(actor=s.director_actor, adjustment=adj)
    kept = Adjustment.objects.get(pk=adj.pk)
    assert kept.deleted_at is not None and kept.deleted_by == s.director
    assert _net(s, 0) == 0
    assert standings_recompute(tournament=s.tournament)[1] == {}
    with pytest.raises(Conflict) as e:
        adjustment_delete(actor=s.director_actor, adjustment=kept)
    assert e.value.errors[0]["code"] == "already_deleted"


def test_the_ranking_follows(jie_long):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)   # Anna 58, Bob 18
    adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[0], amount=-50,
                      reason="slow play")
    assert [r["name"] for r in standings_for(s.tournament)][:2] == ["Bob", "Anna"]


@pytest.mark.parametrize(("amount", "code"), [(0, "zero_amount"), ("5", "bad_type"), (1.5, "bad_type"),
                                               (True, "bad_type"), (10_000_000, "out_of_range")])
def test_the_amount_is_a_whole_non_zero_number(jie_long, amount, code):
    with pytest.raises(ValidationFailed) as e:
        adjustment_create(actor=jie_long.director_actor, tournament=jie_long.tournament, entry=jie_long.entries[0],
                          amount=amount, reason="x")
    assert (e.value.errors[0]["code"], e.value.errors[0]["path"]) == (code, "amount")
    assert not Adjustment.objects.exists()


@pytest.mark.parametrize(("reason", "code"), [("", "required"), ("   ", "required"), (None, "required"),
                                               ("x" * 2001, "too_long"), ("a\x00b", "bad_text")])
def test_a_reason_is_required(jie_long, reason, code):
    with pytest.raises(ValidationFailed) as e:
        adjustment_create(actor=jie_long.director_actor, tournament=jie_long.tournament, entry=jie_long.entries[0],
                          amount=5, reason=reason)
    assert (e.value.errors[0]["code"], e.value.errors[0]["path"]) == (code, "reason")


def test_only_the_clubs_director_and_only_its_players(jie_long, ding_niu, other_director):
    s = jie_long
    with pytest.raises(PermissionDenied):
        adjustment_create(actor=Actor(user=other_director), tournament=s.tournament, entry=s.entries[0], amount=5,
                          reason="x")
    with pytest.raises(PermissionDenied):
        adjustment_create(actor=s.scorer_actor, tournament=s.tournament, entry=s.entries[0], amount=5, reason="x")
    with pytest.raises(ValidationFailed) as e:
        adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=ding_niu.entries[0], amount=5,
                          reason="x")
    assert (e.value.errors[0]["code"], e.value.errors[0]["path"]) == ("not_found", "player")


def test_refused_in_a_draft_and_in_a_finished_tournament(make_setup):
    draft = make_setup("jie_long", start=False)
    with pytest.raises(Conflict) as e:
        adjustment_create(actor=draft.director_actor, tournament=draft.tournament, entry=draft.entries[0],
                          amount=5, reason="x")
    assert e.value.errors[0]["code"] == "tournament_not_running"
    s = make_setup("jie_long")
    adj = adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[0], amount=5,
                            reason="bonus")
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    for call in (lambda: adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[0],
                                           amount=5, reason="x"),
                 lambda: adjustment_delete(actor=s.director_actor, adjustment=adj)):
        with pytest.raises(Conflict) as e:
            call()
        assert e.value.errors[0]["code"] == "tournament_finished"
    assert _net(s, 0) == 5 and Adjustment.objects.filter(deleted_at__isnull=True).count() == 1


def test_an_idempotency_key_makes_it_once(jie_long):
    s = jie_long
    args = dict(actor=s.director_actor, tournament=s.tournament, entry=s.entries[0], amount=-5, reason="late")
    first, replayed = adjustment_create_once(**args, key="k1")
    again, replayed_again = adjustment_create_once(**args, key="k1")
    assert (replayed, replayed_again, again.pk) == (False, True, first.pk)
    assert _net(s, 0) == -5 and Adjustment.objects.count() == 1
    with pytest.raises(IdempotencyKeyReused):
        adjustment_create_once(**{**args, "amount": -6}, key="k1")
