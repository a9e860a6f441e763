"""A tournament's referees (scoring/services/referees.py): added and taken away by the club's
directors only, each change in the action log; what a referee then does is logged under their
name, and refused outside their tournament and outside ``REFEREE_MAY``."""

from __future__ import annotations

import pytest

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from scoring.models import ActionLog, TournamentReferee
from scoring.selectors.access import DIRECTOR, REFEREE, tournament_role
from scoring.services.adjustments import adjustment_create, adjustment_delete
from scoring.services.referees import referee_add, referee_remove
from scoring.services.rounds import round_dispute, round_dispute_resolve, round_record, round_void
from scoring.services.sessions import session_close
from scoring.services.substitutions import table_substitute
from scoring.services.tournaments import entry_create, tournament_update
from tests.scoring.bodies import JIE_LONG

pytestmark = pytest.mark.django_db


@pytest.fixture
def rita(jie_long, referee_user):
    referee_add(actor=jie_long.director_actor, tournament=jie_long.tournament, user="rita")
    return Actor(user=referee_user, ip="10.0.0.9")


def test_a_director_adds_and_removes_a_referee_each_logged(jie_long, referee_user):
    t = jie_long.tournament
    ref = referee_add(actor=jie_long.director_actor, tournament=t, user="rita")
    assert (ref.user, ref.added_by) == (referee_user, jie_long.director)
    assert tournament_role(Actor(user=referee_user), t) == REFEREE
    assert tournament_role(jie_long.director_actor, t) == DIRECTOR
    added = ActionLog.objects.get(action="referee_add")
    assert (added.actor_user, added.tournament, added.data["username"]) == (jie_long.director, t, "rita")
    referee_remove(actor=jie_long.director_actor, tournament=t, user_id=referee_user.pk)
    assert not TournamentReferee.objects.exists()
    assert tournament_role(Actor(user=referee_user), t) is None
    removed = ActionLog.objects.get(action="referee_remove")
    assert (removed.actor_user, removed.data["user"]) == (jie_long.director, referee_user.pk)


def test_by_user_id_too(jie_long, referee_user):
    assert referee_add(actor=jie_long.director_actor, tournament=jie_long.tournament, user=referee_user.pk).user \
        == referee_user


@pytest.mark.parametrize(("user", "code"), [("nobody", "not_found"), ("", "required"), ("  ", "required"),
                                            (999_999, "not_found"), (0, "not_found"), (None, "bad_type"),
                                            ("a\x00b", "not_found"), ("x" * 151, "not_found")])
def test_unknown_users_are_refused(jie_long, user, code):
    with pytest.raises(ValidationFailed) as e:
        referee_add(actor=jie_long.director_actor, tournament=jie_long.tournament, user=user)
    assert (e.value.errors[0]["path"], e.value.errors[0]["code"]) == ("user", code)
    assert not TournamentReferee.objects.exists() and not ActionLog.objects.filter(action="referee_add").exists()


def test_twice_or_a_director_of_the_club_is_a_conflict(jie_long, rita):
    with pytest.raises(Conflict) as e:
        referee_add(actor=jie_long.director_actor, tournament=jie_long.tournament, user="rita")
    assert e.value.errors[0]["code"] == "already_referee"
    with pytest.raises(Conflict) as e:
        referee_add(actor=jie_long.director_actor, tournament=jie_long.tournament, user="alice")
    assert e.value.errors[0]["code"] == "already_director"
    assert TournamentReferee.objects.count() == 1


def test_removing_one_who_is_no_referee_is_not_found(jie_long, referee_user):
    with pytest.raises(NotFound):
        referee_remove(actor=jie_long.director_actor, tournament=jie_long.tournament, user_id=referee_user.pk)


def test_a_referee_adds_and_removes_no_referee(jie_long, rita, other_director):
    for call in (lambda: referee_add(actor=rita, tournament=jie_long.tournament, user="bruno"),
                 lambda: referee_remove(actor=rita, tournament=jie_long.tournament, user_id=rita.user.pk)):
        with pytest.raises(PermissionDenied):
            call()
    with pytest.raises(PermissionDenied):   # nor does another club's director
        referee_add(actor=Actor(user=other_director), tournament=jie_long.tournament, user="rita")
    assert TournamentReferee.objects.count() == 1


def test_a_referees_acts_are_logged_under_their_name(jie_long, rita, make_setup):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_dispute(actor=s.scorer_actor, round=rnd, message="a double left")
    round_dispute_resolve(actor=rita, round=rnd, note="the tiles were checked")
    adj = adjustment_create(actor=rita, tournament=s.tournament, entry=s.entries[0], amount=-5, reason="late")
    adjustment_delete(actor=rita, adjustment=adj)
    extra = entry_create(actor=s.director_actor, tournament=s.tournament,
                         player=s.tournament.club.players.create(name="Eve"))
    table_substitute(actor=rita, table=s.table, seat=0, entry=extra.pk)
    logged = ActionLog.objects.filter(actor_user=rita.user).order_by("id")
    assert [row.action for row in logged] == ["round_dispute_resolve", "adjustment_create", "adjustment_delete",
                                              "table_substitute"]
    assert {row.actor_label for row in logged} == {"referee rita"}
    assert {row.ip for row in logged} == {"10.0.0.9"}


def test_a_referee_does_nothing_else(jie_long, rita):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    for call in (lambda: round_void(actor=rita, round=rnd, reason="no"),
                 lambda: session_close(actor=rita, session=s.table.session),
                 lambda: tournament_update(actor=rita, tournament=s.tournament, name="Mine")):
        with pytest.raises((PermissionDenied, NotFound)):
            call()
    assert not ActionLog.objects.filter(actor_user=rita.user).exists()


def test_a_referee_of_one_tournament_is_nobody_in_another(jie_long, rita, make_setup):
    other = make_setup("jie_long")
    rnd = round_record(actor=other.scorer_actor, table=other.table, body=JIE_LONG)
    round_dispute(actor=other.scorer_actor, round=rnd, message="a double left")
    with pytest.raises(PermissionDenied):
        round_dispute_resolve(actor=rita, round=rnd, note="mine?")
    with pytest.raises(PermissionDenied):
        adjustment_create(actor=rita, tournament=other.tournament, entry=other.entries[0], amount=-5, reason="x")
    assert tournament_role(rita, other.tournament) is None


@pytest.mark.parametrize("user_id", [0, -1, 2**63, 10**400, "1", None])
def test_removing_by_an_id_no_row_can_have_is_not_found(jie_long, user_id):
    with pytest.raises(NotFound):
        referee_remove(actor=jie_long.director_actor, tournament=jie_long.tournament, user_id=user_id)
