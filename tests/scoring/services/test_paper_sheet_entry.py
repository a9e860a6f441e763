"""``services.paper_sheet_entry``: a sheet's deals recorded in one transaction, in order, or none; its
errors' paths inside the sheet; once per (table, key), concurrent sendings included."""

from __future__ import annotations

import pytest

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, IdempotencyKeyReused, PermissionDenied, ValidationFailed
from scoring.models import ActionLog, IdempotencyKey, Round, RoundRevision
from scoring.services.paper_sheet_entry import paper_sheet_record, paper_sheet_replay

from ..concurrency import run_concurrently

pytestmark = pytest.mark.django_db

GOOD = [{"points": [2, 12, 34, 18]}, {"points": [0, 12, 20, 8]}, {"leader": 2, "points": [10, 6, 0, 6]}]


def test_a_sheets_deals_are_recorded_in_order_by_the_director(jie_long):
    s = jie_long
    done = paper_sheet_record(actor=s.director_actor, table=s.table, bodies=GOOD, key="k1", first_number=1)
    assert not done.replayed and done.numbers == [1, 2, 3]
    deals = list(Round.objects.filter(table=s.table).order_by("number"))
    assert [d.pk for d in deals] == done.rounds
    assert [d.leader for d in deals] == [0, 0, 2]  # the second follows the first deal's winner
    assert all(d.current_revision.number == 1 and d.current_revision.actor_label == s.director_actor.label
               for d in deals)
    assert all(d.paper_sheet and not d.late for d in deals)   # marked: the director confirms them
    logs = ActionLog.objects.filter(action=ActionLog.Action.ROUND_RECORD)
    assert logs.count() == 3 and all(log.data["paper_sheet"] for log in logs)


def test_a_wrong_deal_records_none_and_its_path_is_inside_the_sheet(jie_long):
    s = jie_long
    bodies = [GOOD[0], {"points": [0, 12, 20, 8]}, {"points": [0, 1, 20, 8]}]
    with pytest.raises(ValidationFailed) as e:
        paper_sheet_record(actor=s.director_actor, table=s.table, bodies=bodies, key="k1")
    # The third deal is refused after two were written: all three are undone.
    assert e.value.errors == [{"path": "deals[2].points[1]", "code": "impossible_points",
                               "message": "1 is not possible with the 32-tile set; 0 or 2 are."}]
    assert Round.objects.count() == RoundRevision.objects.count() == IdempotencyKey.objects.count() == 0
    assert ActionLog.objects.filter(action=ActionLog.Action.ROUND_RECORD).count() == 0


def test_a_value_out_of_range_is_refused_at_its_deal_and_seat(tau_ngau):
    s = tau_ngau  # v1: values 1-10
    bodies = [{"banker": 0, "values": [7, None, 1, 9], "stakes": [None, 2, 5, 1]},
              {"values": [3, 11, None, 2], "stakes": [2, None, 5, 1]}]
    with pytest.raises(ValidationFailed) as e:
        paper_sheet_record(actor=s.director_actor, table=s.table, bodies=bodies, key="k1")
    assert [err["path"] for err in e.value.errors] == ["deals[1].values[1]"]
    assert Round.objects.count() == 0


def test_the_same_key_again_records_nothing_more(jie_long):
    s = jie_long
    sent = {"r0-points_0": "2"}
    first = paper_sheet_record(actor=s.director_actor, table=s.table, bodies=GOOD, key="k1", sent=sent,
                               first_number=1)
    again = paper_sheet_record(actor=s.director_actor, table=s.table, bodies=GOOD, key="k1", sent=sent,
                               first_number=1)
    assert again.replayed and again.rounds == first.rounds and again.numbers == [1, 2, 3]
    assert paper_sheet_replay(actor=s.director_actor, table=s.table, key="k1", sent=sent, first_number=1).rounds \
        == first.rounds
    assert paper_sheet_replay(actor=s.director_actor, table=s.table, key="k2", sent=sent, first_number=1) is None
    with pytest.raises(IdempotencyKeyReused):
        paper_sheet_replay(actor=s.director_actor, table=s.table, key="k1", sent={"r0-points_0": "3"},
                           first_number=1)
    with pytest.raises(IdempotencyKeyReused):
        paper_sheet_record(actor=s.director_actor, table=s.table, bodies=GOOD[:1], key="k1", first_number=1)
    assert Round.objects.filter(table=s.table).count() == 3


def test_a_first_number_taken_meanwhile_is_a_conflict(jie_long):
    s = jie_long
    paper_sheet_record(actor=s.director_actor, table=s.table, bodies=GOOD[:1], key="k1", first_number=1)
    with pytest.raises(Conflict) as e:
        paper_sheet_record(actor=s.director_actor, table=s.table, bodies=GOOD[1:], key="k2", first_number=1)
    assert e.value.errors[0]["code"] == "deal_number_taken"
    assert Round.objects.filter(table=s.table).count() == 1


def test_directors_of_the_club_only(jie_long, other_director):
    s = jie_long
    with pytest.raises(PermissionDenied):
        paper_sheet_record(actor=Actor(user=other_director), table=s.table, bodies=GOOD, key="k1")
    with pytest.raises(PermissionDenied):
        paper_sheet_record(actor=s.scorer_actor, table=s.table, bodies=GOOD, key="k1")
    assert Round.objects.count() == 0


@pytest.mark.parametrize("bodies", [[], None, [{"points": [0, 12, 20, 8]}] * 41])
def test_an_empty_or_too_long_sheet_is_refused(jie_long, bodies):
    with pytest.raises(ValidationFailed):
        paper_sheet_record(actor=jie_long.director_actor, table=jie_long.table, bodies=bodies, key="k1")
    assert Round.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_sendings_of_one_sheet_record_it_once(jie_long, slow_engine):
    s = jie_long

    def send(i):
        return paper_sheet_record(actor=s.director_actor, table=s.table, bodies=GOOD[:2], key="same",
                                  sent={"r0-points_0": "2"}, first_number=1)

    a, b = run_concurrently(2, send)
    assert not isinstance(a, Exception), a
    assert not isinstance(b, Exception), b
    assert sorted([a.replayed, b.replayed]) == [False, True] and a.rounds == b.rounds
    assert Round.objects.filter(table=s.table).count() == 2
