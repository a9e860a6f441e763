"""Seasons' writes: directors of the club only, checked fields, one ActionLog row each."""

from decimal import Decimal

import pytest

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.models import ActionLog, Season, SeasonTournament
from scoring.services.clubs import club_create
from scoring.services.seasons import season_create, season_tournament_add, season_tournament_remove, season_update
from scoring.services.tournaments import tournament_create


def test_create_logs_and_refuses_a_stranger(club, director_actor, other_director):
    s = season_create(actor=director_actor, club=club, name=" Spring 2026 ", slug="Spring 2026", public=True)
    assert (s.name, s.slug, s.public) == ("Spring 2026", "spring-2026", True)
    assert ActionLog.objects.filter(action="season_create", target_id=str(s.pk)).count() == 1
    with pytest.raises(PermissionDenied):
        season_create(actor=Actor(user=other_director), club=club, name="Mine")
    with pytest.raises(ValidationFailed) as e:
        season_create(actor=director_actor, club=club, name="  ")
    assert e.value.errors[0]["path"] == "name"
    assert Season.objects.count() == 1


def test_update_changes_what_changed_and_logs_before_and_after(club, director_actor):
    s = season_create(actor=director_actor, club=club, name="Spring")
    s = season_update(actor=director_actor, season=s, name="Summer", public=True)
    assert (s.name, s.public) == ("Summer", True)
    row = ActionLog.objects.get(action="season_update")
    assert row.data == {"name": {"before": "Spring", "after": "Summer"}, "public": {"before": False, "after": True}}
    season_update(actor=director_actor, season=s, name="Summer")
    assert ActionLog.objects.filter(action="season_update").count() == 1   # no change, no row
    with pytest.raises(ValidationFailed) as e:
        season_update(actor=director_actor, season=s, name="", colour="red")
    assert {x["path"] for x in e.value.errors} == {"colour"}
    with pytest.raises(ValidationFailed) as e:
        season_update(actor=director_actor, season=s, name="")
    assert e.value.errors[0]["path"] == "name"
    s.refresh_from_db()
    assert s.name == "Summer"


def test_add_with_a_weight_change_it_and_remove(club, director_actor, make_setup):
    t = make_setup().tournament
    s = season_create(actor=director_actor, club=club, name="Spring")
    link = season_tournament_add(actor=director_actor, season=s, tournament=t)
    assert link.weight == 1
    link = season_tournament_add(actor=director_actor, season=s, tournament=t, weight="1.5")
    assert link.weight == Decimal("1.5")
    assert SeasonTournament.objects.count() == 1
    season_tournament_add(actor=director_actor, season=s, tournament=t, weight="1.500")   # same: no row
    assert ActionLog.objects.filter(action="season_tournament_add").count() == 2
    season_tournament_remove(actor=director_actor, season=s, tournament=t)
    assert not SeasonTournament.objects.exists()
    assert ActionLog.objects.filter(action="season_tournament_remove", tournament=t).count() == 1
    with pytest.raises(Conflict):
        season_tournament_remove(actor=director_actor, season=s, tournament=t)


@pytest.mark.parametrize("weight", [0, -1, "abc", "1.0001", True, None, "NaN", "Infinity", 10**6])
def test_a_bad_weight_is_refused_at_weight(club, director_actor, make_setup, weight):
    t = make_setup().tournament
    s = season_create(actor=director_actor, club=club, name="Spring")
    with pytest.raises(ValidationFailed) as e:
        season_tournament_add(actor=director_actor, season=s, tournament=t, weight=weight)
    assert (e.value.errors[0]["path"], e.value.errors[0]["code"]) == ("weight", "bad_weight")
    assert not SeasonTournament.objects.exists()


def test_another_clubs_tournament_is_refused_at_tournament(club, director_actor):
    other = club_create(actor=director_actor, name="Second Club")
    t = tournament_create(actor=director_actor, club=other, name="Elsewhere", game="jie_long")
    s = season_create(actor=director_actor, club=club, name="Spring")
    with pytest.raises(ValidationFailed) as e:
        season_tournament_add(actor=director_actor, season=s, tournament=t)
    assert (e.value.errors[0]["path"], e.value.errors[0]["code"]) == ("tournament", "other_club")
    assert not SeasonTournament.objects.exists()


def test_only_the_clubs_directors_change_a_season(club, director_actor, other_director, make_setup):
    t = make_setup().tournament
    s = season_create(actor=director_actor, club=club, name="Spring")
    stranger = Actor(user=other_director)
    with pytest.raises(PermissionDenied):
        season_update(actor=stranger, season=s, name="Taken")
    with pytest.raises(PermissionDenied):
        season_tournament_add(actor=stranger, season=s, tournament=t)
    season_tournament_add(actor=director_actor, season=s, tournament=t)
    with pytest.raises(PermissionDenied):
        season_tournament_remove(actor=stranger, season=s, tournament=t)
