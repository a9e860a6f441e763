"""The tournament report (scoring/selectors/report.py): its counts equal what the test did —
deals recorded, one corrected, one voided, one disputed — the zero-sum check holds (with the
house where the game has one), and the latest audit's verdict is there; a bounded read."""

from __future__ import annotations

import pytest

import games
from games.simulate import simulate
from scoring.domain.records import body_from_record
from scoring.selectors.report import tournament_report
from scoring.selectors.standings import standings_for
from scoring.services.audits import audit_start
from scoring.services.rounds import round_correct, round_dispute, round_dispute_resolve, round_record, round_void
from scoring.services.tables import table_create

from ..bodies import JIE_LONG, JIE_LONG_NETS

pytestmark = pytest.mark.django_db


def played(s):
    """Four deals: the first corrected twice, the second voided, the third disputed."""
    deals = [round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG) for _ in range(4)]
    round_correct(actor=s.director_actor, round=deals[0], body={"leader": 1, "points": [34, 2, 12, 18]},
                  reason="wrong leader", expected_revision=1)
    round_correct(actor=s.director_actor, round=deals[0], body=JIE_LONG, reason="back", expected_revision=2)
    round_void(actor=s.director_actor, round=deals[1], reason="misdeal")
    round_dispute(actor=s.scorer_actor, round=deals[2], message="check the points")
    return deals


def test_the_counts_are_what_was_done_and_zero_sum_holds(jie_long):
    s = jie_long
    played(s)
    report = tournament_report(s.tournament)
    assert report["counts"] == {"deals": 4, "counted": 3, "voided": 1, "open_disputes": 1, "disputes": 1,
                                "corrections": 2, "house": 0}
    assert report["standings"] == standings_for(s.tournament)
    assert {r["name"]: r["net"] for r in report["standings"]} == {
        n: 3 * net for n, net in zip(s.names, JIE_LONG_NETS)}
    assert report["zero_sum"] == {"players": 0, "house": 0, "total": 0, "ok": True, "adjustments": 0}
    assert sum(p["net"] for p in report["payouts"]["players"]) == 0 and report["payouts"]["transfers"]
    assert report["audit"] is None


def test_a_resolved_dispute_still_counts_as_raised(jie_long):
    s = jie_long
    deals = played(s)
    round_dispute_resolve(actor=s.director_actor, round=deals[2], note="points right")
    counts = tournament_report(s.tournament)["counts"]
    assert (counts["disputes"], counts["open_disputes"]) == (1, 0)


def test_a_second_table_counts_too_and_the_read_is_bounded(jie_long, django_assert_max_num_queries,
                                                            django_capture_on_commit_callbacks):
    s = jie_long
    played(s)
    table, _ = table_create(actor=s.director_actor, tournament=s.tournament, name="Table 2", entries=s.entries,
                            session=2)
    for _ in range(5):
        round_record(actor=s.director_actor, table=table, body=JIE_LONG)
    with django_capture_on_commit_callbacks(execute=True):
        audit_start(actor=s.director_actor, tournament=s.tournament)
    # Standings 1, counts 3, payouts 2 (its version, then a cache miss), audit 2, rating changes 1,
    # adjustments 1: whatever the deals.
    with django_assert_max_num_queries(10):
        report = tournament_report(s.tournament)
    assert (report["counts"]["deals"], report["counts"]["counted"]) == (9, 8)


def test_the_house_closes_the_zero_sum(make_setup):
    s = make_setup("da_ling", variant={"casino_chip": True})
    record = next(r for r in simulate("da_ling", deals=2000, seed=11, players=4, variant={"casino_chip": True})
                  if games.evaluate(r)["absolute_winner"] is not None)   # DL-11: the absolute winner pays 1
    round_record(actor=s.scorer_actor, table=s.table, body=body_from_record(record))
    zs = tournament_report(s.tournament)["zero_sum"]
    assert zs == {"players": -1, "house": 1, "total": 0, "ok": True, "adjustments": 0}


def test_a_standing_that_drifted_from_its_deals_fails_the_check(jie_long):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    s.tournament.standings.filter(entry=s.entries[0]).update(total=1000)
    zs = tournament_report(s.tournament)["zero_sum"]
    assert not zs["ok"] and zs["total"] == 1000 - JIE_LONG_NETS[0]


def test_the_latest_audits_verdict(jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    played(s)
    with django_capture_on_commit_callbacks(execute=True):
        audit_start(actor=s.director_actor, tournament=s.tournament)
    audit = tournament_report(s.tournament)["audit"]
    assert (audit["status"], audit["problems"], audit["zero_sum_findings"]) == ("passed", 0, 0)
    assert audit["done"] == audit["total"] > 0


def test_the_zero_sum_check_states_the_adjustments_apart(jie_long):
    """The deals still sum to 0 (with the house); the adjustments are listed with their total."""
    from scoring.services.adjustments import adjustment_create

    s = jie_long
    played(s)
    adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[0], amount=-30,
                      reason="late arrival")
    adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[1], amount=10,
                      reason="best sportsmanship")
    report = tournament_report(s.tournament)
    zs = report["zero_sum"]
    assert (zs["players"], zs["house"], zs["total"], zs["ok"], zs["adjustments"]) == (0, 0, 0, True, -20)
    assert sum(r["net"] for r in report["standings"]) == -20
    assert [(a["name"], a["amount"], a["reason"]) for a in report["adjustments"]] == [
        ("Anna", -30, "late arrival"), ("Bob", 10, "best sportsmanship")]
