"""The standings recompute at size (scoring/services/standings.py): missing rows inserted in bulk,
drifted rows written set-based, chunk by chunk, each to its own entry — in a number of queries
that does not grow with the entries (a few more per chunk of changed rows)."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.domain.standings import Figures
from scoring.models import ActionLog, Entry, Player, Seat, Standing, Table
from scoring.selectors.standings import tournament_figures
from scoring.services import standings as standings_services
from scoring.services.standings import standings_refresh

from ..many_deals import add_deals

pytestmark = pytest.mark.django_db


def grow(setup, tables: int) -> list[Table]:
    """``tables`` more tables of four new entries each in the setup's session, as rows (no
    standing rows: the recompute must make them)."""
    club, t = setup.tournament.club, setup.tournament
    players = Player.objects.bulk_create([Player(club=club, name=f"Q{t.pk}-{i}") for i in range(4 * tables)])
    entries = Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in players])
    now = timezone.now()
    made = Table.objects.bulk_create([Table(session=setup.table.session, name=f"B{i}", scorer_token_hash=f"{t.pk:08x}{i:056x}",
                                            scorer_token_created_at=now) for i in range(tables)])
    Seat.objects.bulk_create([Seat(table=tb, position=p, entry=entries[4 * i + p])
                              for i, tb in enumerate(made) for p in range(4)])
    return made


def kept(tournament) -> dict[int, Figures]:
    return {s.entry_id: Figures(s.total, s.rounds_counted, s.wins, tuple(getattr(s, f) for f in Standing.PLACES),
                                s.last_deal_at) for s in Standing.objects.filter(tournament=tournament)}


def drift_everyone(tournament) -> None:
    """Every kept row wrong, each differently (a row written to another entry would show)."""
    Standing.objects.filter(tournament=tournament).update(total=F("entry_id") + 7, wins=F("wins") + 1, place_2=0,
                                                          last_deal_at=timezone.now() - timedelta(days=400))


def test_a_recompute_makes_missing_rows_and_repairs_every_drifted_one(jie_long):
    s = jie_long
    tables = grow(s, 60)   # 244 entries: several chunks on SQLite (its 999 parameters a statement)
    add_deals(s, 300, tables=[s.table, *tables])
    assert standings_refresh(tournament=s.tournament) == 244
    fresh = tournament_figures(s.tournament)
    assert len(fresh) == 244 and kept(s.tournament) == fresh
    drift_everyone(s.tournament)
    standings_refresh(tournament=s.tournament)
    assert kept(s.tournament) == fresh
    repair = ActionLog.objects.filter(action=ActionLog.Action.STANDINGS_REPAIR).latest("pk")
    assert len(repair.data["entries"]) == 244


def test_rows_without_deals_are_written_back_to_nothing(jie_long):
    s = jie_long
    grow(s, 3)   # seated, never played
    standings_refresh(tournament=s.tournament)
    drift_everyone(s.tournament)
    standings_refresh(tournament=s.tournament)
    rows = kept(s.tournament)
    assert len(rows) == 16 and all(f == Figures.none() for f in rows.values())


def queries_of_a_repair(setup, tables: int) -> tuple[int, int]:
    """Queries of a refresh that inserts every new row, then of one that rewrites every row."""
    grow(setup, tables)
    with CaptureQueriesContext(connection) as inserting:
        standings_refresh(tournament=setup.tournament)
    drift_everyone(setup.tournament)
    with CaptureQueriesContext(connection) as updating:
        standings_refresh(tournament=setup.tournament)
    return len(inserting), len(updating)


def test_a_recompute_takes_queries_by_the_chunk_not_by_the_row(make_setup):
    small = queries_of_a_repair(make_setup(), 5)      # 24 entries
    large = queries_of_a_repair(make_setup(), 100)    # 404 entries
    chunk = standings_services._chunk_rows()
    # Inserts go in Django's batches (on SQLite, as many rows as its 999 parameters hold): 380
    # more rows, a few more INSERTs — never one a row.
    assert large[0] - small[0] <= math.ceil(380 / (999 // 14)) + 1
    assert large[1] - small[1] == math.ceil(404 / chunk) - math.ceil(24 / chunk)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the fallback is for SQLite before 3.33")
def test_an_old_sqlite_without_update_from_repairs_the_same(jie_long, monkeypatch):
    from scoring.services import common

    monkeypatch.setattr(common, "_sqlite_update_from", lambda: False)
    s = jie_long
    add_deals(s, 40, tables=[s.table, *grow(s, 30)])
    standings_refresh(tournament=s.tournament)
    drift_everyone(s.tournament)
    standings_refresh(tournament=s.tournament)
    assert kept(s.tournament) == tournament_figures(s.tournament)
