"""Shared look-ups (scoring.selectors.common): tables are listed by number wherever they are listed."""

from __future__ import annotations

import pytest

from scoring.selectors.dashboards import tournament_dashboard
from scoring.selectors.public import public_tables
from scoring.selectors.roster import roster_for
from scoring.selectors.seating import session_sheet_tables
from scoring.selectors.sessions import session_list
from scoring.selectors.tables import table_list
from scoring.services.clubs import player_create
from scoring.services.tables import table_create
from scoring.services.tournaments import entry_create, tournament_start

pytestmark = pytest.mark.django_db


def test_tables_are_listed_by_number_not_as_made(make_setup, club, director_actor):
    """Table 10 made first (or Table 1 deleted and made anew last): every list still reads 1, 2, 10."""
    s = make_setup("da_ling", names=["A1", "A2"], table_name="Table 10", start=False)
    for name in ("Table 2", "Table 1"):
        entries = [entry_create(actor=director_actor, tournament=s.tournament,
                                player=player_create(actor=director_actor, club=club, name=f"{name} {k}"))
                   for k in range(2)]
        table_create(actor=director_actor, tournament=s.tournament, name=name, entries=entries)
    tournament_start(actor=director_actor, tournament=s.tournament)
    order = ["Table 1", "Table 2", "Table 10"]
    session = s.table.session
    assert [t.name for t in table_list(s.tournament)] == order
    assert [t.name for t in session_list(s.tournament)[0].tables.all()] == order
    assert [row.table.name for row in session_sheet_tables(session)] == order
    assert [t.name for t in public_tables(s.tournament, 1, 10).items] == order
    assert [row["table"].name for row in roster_for(s.tournament)["tables"]] == order
    board = tournament_dashboard(s.tournament)
    assert [row["table"].name for row in board["current"]["tables"]] == order
