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
    assert list(club.directors.all()) == [director]
    again = club_create(actor=director_actor, name="Dragon Club")
    assert again.slug != club.slug      # random, never made from the name (tests/scoring/api/test_club_privacy.py)
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


def test_club_ratings_update_sets_and_logs(club, director_actor, jie_long):
    from scoring.models import RatingChange
    from scoring.services.clubs import club_ratings_update
    from scoring.services.ratings import ratings_follow
    from scoring.services.rounds import round_record

    from ..bodies import JIE_LONG

    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    ratings_follow(club=club)
    assert RatingChange.objects.filter(club=club).count() == 4
    club_ratings_update(actor=director_actor, club=club, ladder_public=True,
                        unrated_games=["tau_ngau", "jie_long", "jie_long"])
    club.refresh_from_db()
    assert club.ladder_public is True and club.unrated_games == ["jie_long", "tau_ngau"]   # catalog order, once
    log = ActionLog.objects.get(action="club_ratings_update", target_id=str(club.pk))
    assert log.data == {"settings": {"ladder_public": True, "unrated_games": ["jie_long", "tau_ngau"]},
                        "before": {"ladder_public": False, "unrated_games": []}}
    # the same again changes and logs nothing
    club_ratings_update(actor=director_actor, club=club, ladder_public=True, unrated_games=["jie_long", "tau_ngau"])
    assert ActionLog.objects.filter(action="club_ratings_update").count() == 1


def test_club_ratings_update_enqueues_the_follow_only_when_the_games_change(club, director_actor, monkeypatch,
                                                                              django_capture_on_commit_callbacks):
    from scoring.services.clubs import club_ratings_update

    with django_capture_on_commit_callbacks() as callbacks:
        club_ratings_update(actor=director_actor, club=club, ladder_public=True, unrated_games=[])
    assert callbacks == []
    sent = []
    from celery import current_app
    monkeypatch.setattr(current_app.tasks["scoring.ratings_follow"], "apply_async", lambda a, **kw: sent.append(tuple(a)))
    with django_capture_on_commit_callbacks(execute=True):
        club_ratings_update(actor=director_actor, club=club, ladder_public=True, unrated_games=["ding_niu"])
    assert sent == [(club.pk,)]


@pytest.mark.parametrize("games, code", [(["jie_long", "chess"], "unknown_game"), ("jie_long", "invalid"),
                                         ([3], "invalid")])
def test_club_ratings_update_refuses_a_bad_game_at_the_field(club, director_actor, games, code):
    from scoring.services.clubs import club_ratings_update

    with pytest.raises(ValidationFailed) as e:
        club_ratings_update(actor=director_actor, club=club, ladder_public=True, unrated_games=games)
    assert e.value.errors[0]["path"] == "unrated_games" and e.value.errors[0]["code"] == code
    club.refresh_from_db()
    assert club.ladder_public is False and club.unrated_games == []
    assert not ActionLog.objects.filter(action="club_ratings_update").exists()


def test_club_ratings_update_is_the_directors(club, other_director):
    from scoring.services.clubs import club_ratings_update

    with pytest.raises(PermissionDenied):
        club_ratings_update(actor=Actor(user=other_director), club=club, ladder_public=True, unrated_games=[])
    club.refresh_from_db()
    assert club.ladder_public is False
