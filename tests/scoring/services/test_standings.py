"""The kept standings refreshed and repaired (scoring/services/standings.py)."""

from __future__ import annotations

import pytest

from scoring.selectors.standings import standings_for
from scoring.selectors.tables import table_running_totals
from scoring.services.rounds import (
    round_confirm,
    round_record,
    round_void,
)
from scoring.services.standings import standings_refresh

from ..bodies import JIE_LONG, JIE_LONG_NETS

pytestmark = pytest.mark.django_db





# --- standings and housekeeping -----------------------------------------------------------------

def test_standings_refresh_counts_all_but_voided(jie_long):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    r2 = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_void(actor=s.director_actor, round=r2, reason="misdeal")
    standings_refresh(tournament=s.tournament)
    rows = standings_for(s.tournament)
    assert [(r["name"], r["net"], r["deals"]) for r in rows] == [
        ("Anna", 58, 1), ("Bob", 18, 1), ("Dominic", -6, 1), ("Celine", -70, 1)]
    assert str(rows[0]["money"]) == "29.00"


def test_standings_refresh_counts_confirmed_only_when_required(make_setup):
    s = make_setup("jie_long", require_confirmation=True)
    r1 = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    round_confirm(actor=s.scorer_actor, round=r1, confirmed_by=1)
    standings_refresh(tournament=s.tournament)
    assert {r["name"]: r["net"] for r in standings_for(s.tournament)}["Anna"] == 58
    assert [x["total"] for x in table_running_totals(s.table)] == JIE_LONG_NETS
