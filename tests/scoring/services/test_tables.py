"""Entries, sessions and tables (scoring/services/tables.py, tournaments.entry_create)."""

from __future__ import annotations

import pytest

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.models import ActionLog, Session, Standing
from scoring.selectors.clubs import club_list_for_user
from scoring.selectors.tables import table_by_scorer_token, table_seats
from scoring.services.clubs import player_create
from scoring.services.tables import session_create, table_create, table_scorer_token_rotate
from scoring.services.tournaments import (
    entry_create,
)

pytestmark = pytest.mark.django_db





# --- entries, sessions, tables ------------------------------------------------------------------

def test_entry_create_and_refusals(make_setup, club, director_actor, other_director):
    s = make_setup("jie_long", start=False)
    other_club = club_list_for_user(other_director).get()
    stranger = player_create(actor=Actor(user=other_director), club=other_club, name="Stranger")
    with pytest.raises(ValidationFailed):
        entry_create(actor=director_actor, tournament=s.tournament, player=stranger)
    with pytest.raises(Conflict):
        entry_create(actor=director_actor, tournament=s.tournament, player=s.entries[0].player)
    assert Standing.objects.filter(tournament=s.tournament).count() == 4


def test_table_create_seats_entries_in_order_and_hashes_the_token(jie_long):
    s = jie_long
    seats = table_seats(s.table)
    assert [x.entry.player.name for x in seats] == s.names
    assert [x.position for x in seats] == [0, 1, 2, 3]
    assert s.table.session.number == 1
    assert s.token not in s.table.scorer_token_hash and len(s.table.scorer_token_hash) == 64
    assert table_by_scorer_token(s.token) == s.table
    assert not ActionLog.objects.filter(data__icontains=s.token).exists()


def test_table_create_refusals(make_setup, director_actor):
    s = make_setup("ding_niu", start=False)
    with pytest.raises(ValidationFailed) as e:
        table_create(actor=director_actor, tournament=s.tournament, name="T2", entries=s.entries[:3])
    assert e.value.errors[0]["code"] == "wrong_player_count"
    with pytest.raises(ValidationFailed) as e:
        table_create(actor=director_actor, tournament=s.tournament, name="T2",
                              entries=[s.entries[0], s.entries[0], s.entries[1], s.entries[2]])
    assert e.value.errors[0]["path"] == "entries[1]"
    with pytest.raises(ValidationFailed) as e:  # already seated in session 1
        table_create(actor=director_actor, tournament=s.tournament, name="T2", entries=s.entries)
    assert e.value.errors[0]["code"] == "already_seated"
    other = make_setup("ding_niu", names=["W", "X", "Y", "Z"], start=False)
    with pytest.raises(ValidationFailed) as e:
        table_create(actor=director_actor, tournament=s.tournament, name="T2", entries=other.entries)
    assert e.value.errors[0]["code"] == "not_found"
    with pytest.raises(PermissionDenied):
        table_create(actor=s.scorer_actor, tournament=s.tournament, name="T2", entries=s.entries)


def test_table_create_in_a_new_session(jie_long, director_actor):
    s = jie_long
    table, token = table_create(actor=director_actor, tournament=s.tournament, name="Table 1",
                                         entries=list(reversed(s.entries)), session=2)
    assert table.session.number == 2 and token != s.token
    assert Session.objects.filter(tournament=s.tournament).count() == 3 - 1
    assert session_create(actor=director_actor, tournament=s.tournament).number == 3


def test_table_scorer_token_rotate_revokes_the_old_token(jie_long, director_actor):
    s = jie_long
    new = table_scorer_token_rotate(actor=director_actor, table=s.table)
    assert new != s.token
    assert table_by_scorer_token(s.token) is None
    assert table_by_scorer_token(new) == s.table
    with pytest.raises(PermissionDenied):
        table_scorer_token_rotate(actor=s.scorer_actor, table=s.table)
