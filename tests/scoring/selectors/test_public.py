"""The public table's selectors: the seats' totals read from the leader and the result's seats
alone agree with the table's running totals; a page of deals, the changes after a cursor."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.models import Round
from scoring.selectors.public import CHANGE_OVERLAP, cursor_of, public_table_changes, public_table_deals, read_cursor
from scoring.selectors.tables import table_running_totals
from scoring.services.rounds import round_confirm, round_record, round_void

from ..bodies import DING_NIU_FULL_LOG, DING_NIU_LED_BY_1, DING_NIU_LED_BY_1_NETS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("confirmation", [False, True])
def test_the_totals_agree_with_the_tables_running_totals(make_setup, director_actor, confirmation):
    s = make_setup("ding_niu", require_confirmation=confirmation)
    led = round_record(actor=s.scorer_actor, table=s.table, body=DING_NIU_LED_BY_1)
    full = round_record(actor=s.scorer_actor, table=s.table, body={**DING_NIU_FULL_LOG, "leader": 0})
    voided = round_record(actor=s.scorer_actor, table=s.table, body=DING_NIU_LED_BY_1)
    round_void(actor=director_actor, round=voided, reason="dealt twice")
    if confirmation:
        round_confirm(actor=director_actor, round=led)
    data = public_table_deals(s.tournament, s.table)
    assert [x["total"] for x in data["seats"]] == [x["total"] for x in table_running_totals(s.table)]
    assert [x["total"] for x in data["seats"]] == (
        DING_NIU_LED_BY_1_NETS if confirmation else [a + b for a, b in zip(DING_NIU_LED_BY_1_NETS, [12, -12, 0, 0])])
    assert data["shown"] == 2 and [d["number"] for d in data["deals"]] == [full.number, led.number]


def test_a_cursor_stays_a_little_behind_now_and_reads_back(jie_long):
    now = timezone.now()
    long_ago = now - timedelta(hours=2)
    assert read_cursor(str(cursor_of(long_ago))) == long_ago
    assert now - CHANGE_OVERLAP <= read_cursor(str(cursor_of(now))) <= timezone.now() - CHANGE_OVERLAP
    assert cursor_of(None) == 0
    for bad in ("", "-1", "x", "9" * 30, None):
        assert read_cursor(bad) is None


def test_changes_after_a_cursor(jie_long):
    first = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={"points": [2, 12, 34, 18]})
    Round.objects.filter(pk=first.pk).update(updated_at=first.updated_at - timedelta(hours=1))
    cursor = read_cursor(str(public_table_deals(jie_long.tournament, jie_long.table)["cursor"]))
    assert public_table_changes(jie_long.tournament, jie_long.table, cursor)["deals"] == []
    second = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={"points": [2, 12, 34, 18]})
    changes = public_table_changes(jie_long.tournament, jie_long.table, cursor)
    assert [d["number"] for d in changes["deals"]] == [second.number] and changes["gone"] == []
    assert changes["reset"] is False and changes["shown"] == 2
