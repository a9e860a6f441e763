"""A deal in words (scoring.web.presentation): the seats of either Tau Ngau level and Da Ling's winners."""

from __future__ import annotations

import pytest

from scoring.web.presentation import describe_deal, seat_summary


@pytest.mark.parametrize("player, said", [
    ({"bull": ["6:4", "5:5", "3:1"], "value": 7, "best_value": 7, "net": 3}, "bull, 7"),  # the hands level
    ({"bull": None, "value": 0, "best_value": 0, "net": -1}, "no bull"),
    ({"has_bull": True, "value": 7, "net": 3}, "bull, 7"),  # the values level (§3b)
    ({"has_bull": True, "value": 0, "net": 1}, "bull, 0"),  # v2: a bull worth 0 beats no bull
    ({"has_bull": False, "value": 0, "net": -2}, "no bull"),
    ({"points": 6, "unplayed": 1, "place": 1}, "6 pts, 1 left, winner"),
    ({"net": 4}, ""),
])
def test_a_seat_is_summed_up_from_its_result(player, said):
    assert seat_summary("tau_ngau", player) == said


def players(*names):
    return [{"position": i, "name": n, "net": 0} for i, n in enumerate(names)]


def test_da_ling_winners_are_named():
    notes = describe_deal("da_ling", players("P1", "P2", "P3"),
                          {"absolute_winner": None, "group_winners": [2, None, 0], "transfers": []})["notes"]
    assert notes == ["Winner of the 1-tile group: P3", "Winner of the 3-tile group: P1"]
    notes = describe_deal("da_ling", players("P1", "P2", "P3"),
                          {"absolute_winner": 1, "group_winners": [None, None, None], "transfers": []})["notes"]
    assert notes == ["P2 wins outright"]
    # a stored result that names no seat there says nothing about it
    assert describe_deal("da_ling", players("P1"), {"group_winners": [5, True, "x"]})["notes"] == []


def _row(**more):
    return {"deal": {"id": 7, "number": 5, "table": "Table 1", "session": 2, "tournament": 1,
                     "tournament_name": "Open"}, **more}


def test_a_rated_result_is_a_deal_or_a_tables_session():
    from django.utils import translation

    from scoring.web.presentation import rated_result

    assert rated_result(_row()) == "Session 2 · Table 1, deal 5"           # no unit: a deal
    assert rated_result(_row(unit="deal", unit_deals=1)) == "Session 2 · Table 1, deal 5"
    assert rated_result(_row(unit="table_session", unit_deals=14)) == "Session 2 · Table 1 (14 deals)"
    assert rated_result(_row(unit="table_session", unit_deals=1)) == "Session 2 · Table 1 (1 deal)"
    with translation.override("zh-hans"):
        assert rated_result(_row(unit="table_session", unit_deals=14)) == "第2轮 · 第1桌（14 局）"
        assert rated_result(_row()) == "第2轮 · 第1桌，第 5 局"
