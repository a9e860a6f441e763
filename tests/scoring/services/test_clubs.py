"""Clubs and players (scoring/services/clubs.py)."""

from __future__ import annotations

import pytest

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.models import ActionLog
from scoring.services.clubs import club_create, player_create

pytestmark = pytest.mark.django_db





def test_club_create_makes_the_creator_a_director(director_actor, director):
    club = club_create(actor=director_actor, name="Dragon Club")
    assert club.slug == "dragon-club"
    assert list(club.directors.all()) == [director]
    again = club_create(actor=director_actor, name="Dragon Club")
    assert again.slug == "dragon-club-2"
    log = ActionLog.objects.get(action="club_create", target_id=str(club.pk))
    assert log.actor_user == director and log.actor_label == "director alice" and log.ip == "127.0.0.1"


@pytest.mark.parametrize("actor", [Actor(), Actor(ip="1.2.3.4")])
def test_club_create_refuses_anonymous(db, actor):
    with pytest.raises(PermissionDenied):
        club_create(actor=actor, name="Nope")


def test_player_create_and_refusals(club, director_actor, other_director):
    p = player_create(actor=director_actor, club=club, name="Mei")
    assert p.club == club
    with pytest.raises(Conflict):
        player_create(actor=director_actor, club=club, name="Mei")
    with pytest.raises(ValidationFailed):
        player_create(actor=director_actor, club=club, name="   ")
    with pytest.raises(PermissionDenied):
        player_create(actor=Actor(user=other_director), club=club, name="Jun")
