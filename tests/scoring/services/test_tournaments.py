"""Tournaments: creating, starting, updating, read-only when finished (scoring/services/tournaments.py)."""

from __future__ import annotations

import pytest

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.models import Tournament
from scoring.services.clubs import player_create
from scoring.services.rounds import (
    round_confirm,
    round_correct,
    round_dispute,
    round_record,
    round_void,
)
from scoring.services.tables import session_create, table_create, table_scorer_token_rotate
from scoring.services.tournaments import (
    entry_create,
    tournament_create,
    tournament_finish,
    tournament_start,
    tournament_update,
)

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db





# --- tournaments --------------------------------------------------------------------------------

def test_tournament_create_fills_variant_defaults(club, director_actor):
    t = tournament_create(actor=director_actor, club=club, name="Spring", game="jie_long",
                                   variant={"arms": 2}, chip_value="0.25", currency="eur")
    assert t.status == Tournament.Status.DRAFT
    assert t.variant == {"voluntary_pass": False, "arms": 2, "settlement": "difference"}
    assert str(t.chip_value) == "0.25" and t.currency == "EUR"
    assert not t.require_confirmation and not t.public


def test_tournament_create_refuses_bad_variants_and_games(club, director_actor):
    with pytest.raises(ValidationFailed) as e:
        tournament_create(actor=director_actor, club=club, name="X", game="jie_long",
                                   variant={"arms": 3, "colour": "red"})
    assert {(x["path"], x["code"]) for x in e.value.errors} == {("variant.arms", "bad_variant"),
                                                                ("variant.colour", "unknown_variant")}
    with pytest.raises(ValidationFailed) as e:
        tournament_create(actor=director_actor, club=club, name="X", game="mahjong")
    assert e.value.errors[0]["path"] == "game"
    with pytest.raises(ValidationFailed):
        tournament_create(actor=director_actor, club=club, name="X", game="jie_long", chip_value="-1")


def test_tournament_create_refuses_directors_of_other_clubs(club, other_director):
    with pytest.raises(PermissionDenied):
        tournament_create(actor=Actor(user=other_director), club=club, name="X", game="jie_long")


def test_tournament_status_pipeline(make_setup):
    s = make_setup("jie_long", start=False)
    with pytest.raises(Conflict):
        tournament_finish(actor=s.director_actor, tournament=s.tournament)
    tournament_start(actor=s.director_actor, tournament=s.tournament)
    assert s.tournament.status == "running" and s.tournament.started_at
    with pytest.raises(Conflict):
        tournament_start(actor=s.director_actor, tournament=s.tournament)
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    assert Tournament.objects.get(pk=s.tournament.pk).status == "finished"
    with pytest.raises(Conflict):
        tournament_finish(actor=s.director_actor, tournament=s.tournament)


def test_tournament_start_refuses_scorers(make_setup):
    s = make_setup("jie_long", start=False)
    with pytest.raises(PermissionDenied):
        tournament_start(actor=s.scorer_actor, tournament=s.tournament)


def test_tournament_update(make_setup):
    s = make_setup("jie_long", start=False)
    tournament_update(actor=s.director_actor, tournament=s.tournament, public=False, variant={"arms": 2})
    t = Tournament.objects.get(pk=s.tournament.pk)
    assert not t.public and t.variant["arms"] == 2
    tournament_start(actor=s.director_actor, tournament=t)
    with pytest.raises(Conflict):
        tournament_update(actor=s.director_actor, tournament=t, variant={"arms": 1})
    with pytest.raises(ValidationFailed):
        tournament_update(actor=s.director_actor, tournament=t, game="ding_niu")


def test_finished_tournament_is_read_only(jie_long, club, director_actor):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    player = player_create(actor=director_actor, club=club, name="Late")
    calls = [
        lambda: round_record(actor=s.director_actor, table=s.table, body=JIE_LONG),
        lambda: round_correct(actor=s.director_actor, round=rnd, body=JIE_LONG, reason="x",
                                       expected_revision=1),
        lambda: round_confirm(actor=s.director_actor, round=rnd),
        lambda: round_void(actor=s.director_actor, round=rnd, reason="x"),
        lambda: round_dispute(actor=s.director_actor, round=rnd, message="x"),
        lambda: entry_create(actor=director_actor, tournament=s.tournament, player=player),
        lambda: table_create(actor=director_actor, tournament=s.tournament, name="T9", entries=s.entries),
        lambda: table_scorer_token_rotate(actor=director_actor, table=s.table),
        lambda: tournament_update(actor=director_actor, tournament=s.tournament, public=False),
        lambda: session_create(actor=director_actor, tournament=s.tournament),
    ]
    for call in calls:
        with pytest.raises(Conflict) as e:
            call()
        assert e.value.errors[0]["code"] == "tournament_finished"
