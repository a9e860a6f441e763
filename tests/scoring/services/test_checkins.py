"""``services.checkins``: a session opened ahead of seating, check-ins by a director and by the
player with their code (idempotent, logged, refused for a wrong entry, a withdrawn one, a seated
or closed session, a wrong code), and seating with ``entries="checked_in"``."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from scoring.models import ActionLog, Seat, Session, SessionCheckIn, Table
from scoring.selectors.checkins import check_in_session, session_check_ins
from scoring.services.checkins import entry_check_in, entry_check_in_undo, entry_self_check_in, session_open_ahead
from scoring.services.clubs import player_create
from scoring.services.players import entry_code_issue
from scoring.services.roster import entry_withdraw
from scoring.services.seating import session_seat
from scoring.services.sessions import session_close
from scoring.services.tournaments import entry_create, tournament_create, tournament_finish, tournament_start

pytestmark = pytest.mark.django_db

NAMES = ["Ah", "Bo", "Chi", "Di", "En", "Fu"]
PLAYER = Actor(ip="10.0.0.9")


@pytest.fixture
def tournament(club, director_actor):
    """Da Ling (2 to 5 players a table), six entries, running, no session yet."""
    t = tournament_create(actor=director_actor, club=club, name="Da Ling night", game="da_ling", public=True)
    for name in NAMES:
        entry_create(actor=director_actor, tournament=t, player=player_create(actor=director_actor, club=club,
                                                                              name=name))
    tournament_start(actor=director_actor, tournament=t)
    return t


def entries(t):
    return list(t.entries.select_related("player").order_by("player__name"))


def logged(action):
    return ActionLog.objects.filter(action=action).count()


def test_a_session_is_opened_ahead_once(tournament, director_actor):
    session, created = session_open_ahead(actor=director_actor, tournament=tournament)
    assert (session.number, created, Table.objects.filter(session=session).exists()) == (1, True, False)
    again, created = session_open_ahead(actor=director_actor, tournament=tournament)
    assert (again.pk, created) == (session.pk, False)
    assert Session.objects.filter(tournament=tournament).count() == 1
    assert ActionLog.objects.get(action="session_create").data == {"number": 1, "ahead_of_seating": True}
    assert check_in_session(tournament) == session


def test_a_seated_session_is_no_check_in_session(tournament, director_actor):
    session_seat(actor=director_actor, tournament=tournament, method="random", table_size=3, leftovers="sit_out")
    assert check_in_session(tournament) is None
    session, created = session_open_ahead(actor=director_actor, tournament=tournament)
    assert (session.number, created) == (2, True)
    # the session being played stays open until the next one is seated
    assert Session.objects.get(tournament=tournament, number=1).status == "open"


def test_a_director_checks_in_once_and_undoes_it(tournament, director_actor, director):
    session, _ = session_open_ahead(actor=director_actor, tournament=tournament)
    ah = entries(tournament)[0]
    row, created = entry_check_in(actor=director_actor, session=session, entry_id=ah.pk)
    assert created and (row.how, row.by, row.entry_id) == ("director", director, ah.pk)
    again, created = entry_check_in(actor=director_actor, session=session, entry_id=ah.pk)
    assert (again.pk, created) == (row.pk, False)
    assert SessionCheckIn.objects.count() == 1 and logged("entry_check_in") == 1
    assert ActionLog.objects.get(action="entry_check_in").data == {"session": 1, "entry": ah.pk, "name": "Ah",
                                                                   "how": "director"}
    found = session_check_ins(session)
    assert [e.pk for e, _ in found.checked_in] == [ah.pk] and len(found.missing) == len(NAMES) - 1
    assert entry_check_in_undo(actor=director_actor, session=session, entry_id=ah.pk) is True
    assert entry_check_in_undo(actor=director_actor, session=session, entry_id=ah.pk) is False
    assert SessionCheckIn.objects.count() == 0 and logged("entry_check_in_undo") == 1


def test_refusals_change_nothing(tournament, club, director_actor):
    session, _ = session_open_ahead(actor=director_actor, tournament=tournament)
    other = tournament_create(actor=director_actor, club=club, name="Other night", game="da_ling")
    stranger = entry_create(actor=director_actor, tournament=other, player=club.players.get(name="Ah"))
    bo = entries(tournament)[1]
    entry_withdraw(actor=director_actor, entry=bo)
    cases = [(stranger.pk, "not_found"), (bo.pk, "withdrawn"), ("7", "bad_type"), (True, "bad_type"),
             (0, "bad_type"), (2**70, "bad_type")]
    for entry_id, code in cases:
        with pytest.raises(ValidationFailed) as e:
            entry_check_in(actor=director_actor, session=session, entry_id=entry_id)
        assert [(x["path"], x["code"]) for x in e.value.errors] == [("entry", code)], entry_id
    with pytest.raises(NotFound):
        entry_check_in_undo(actor=director_actor, session=session, entry_id=stranger.pk)
    assert SessionCheckIn.objects.count() == 0 and logged("entry_check_in") == 0


def test_another_clubs_director_is_refused(tournament, director_actor, other_director):
    session, _ = session_open_ahead(actor=director_actor, tournament=tournament)
    bruno = Actor(user=other_director)
    with pytest.raises(PermissionDenied):
        entry_check_in(actor=bruno, session=session, entry_id=entries(tournament)[0].pk)
    with pytest.raises(PermissionDenied):
        session_open_ahead(actor=bruno, tournament=tournament)
    assert SessionCheckIn.objects.count() == 0


def test_a_seated_or_closed_session_takes_no_check_in(tournament, director_actor):
    seated = session_seat(actor=director_actor, tournament=tournament, method="random", table_size=3,
                          leftovers="sit_out").session
    ah = entries(tournament)[0]
    with pytest.raises(Conflict) as e:
        entry_check_in(actor=director_actor, session=seated, entry_id=ah.pk)
    assert e.value.errors[0]["code"] == "session_seated"
    ahead, _ = session_open_ahead(actor=director_actor, tournament=tournament)
    session_close(actor=director_actor, session=ahead)
    with pytest.raises(Conflict) as e:
        entry_check_in(actor=director_actor, session=ahead, entry_id=ah.pk)
    assert e.value.errors[0]["code"] == "session_closed"
    assert SessionCheckIn.objects.count() == 0


def test_a_player_checks_in_with_their_code(tournament, director_actor):
    session, _ = session_open_ahead(actor=director_actor, tournament=tournament)
    ah, bo = entries(tournament)[:2]
    code = entry_code_issue(actor=director_actor, entry=ah)
    wrong = "0000" if code != "0000" else "1111"
    with pytest.raises(PermissionDenied) as e:
        entry_self_check_in(actor=PLAYER, tournament=tournament, entry_id=ah.pk, code=wrong)
    assert [(x["path"], x["code"]) for x in e.value.errors] == [("code", "wrong_player_code")]
    with pytest.raises(ValidationFailed) as e:
        entry_self_check_in(actor=PLAYER, tournament=tournament, entry_id=ah.pk, code="12")
    assert e.value.errors[0]["code"] == "bad_code"
    with pytest.raises(PermissionDenied) as e:   # no code yet: the director ticks them in
        entry_self_check_in(actor=PLAYER, tournament=tournament, entry_id=bo.pk, code="1234")
    assert e.value.errors[0]["code"] == "player_code_not_set"
    assert SessionCheckIn.objects.count() == 0 and logged("entry_check_in") == 0
    row, created = entry_self_check_in(actor=PLAYER, tournament=tournament, entry_id=ah.pk, code=code)
    assert created and (row.session, row.how, row.by) == (session, "self", None)
    log = ActionLog.objects.get(action="entry_check_in")
    assert log.actor_label == "anonymous, Ah (proven)" and log.ip == "10.0.0.9"
    _, created = entry_self_check_in(actor=PLAYER, tournament=tournament, entry_id=ah.pk, code=code)
    assert not created and SessionCheckIn.objects.count() == 1


def test_no_self_check_in_without_a_session_open_for_it(tournament, director_actor):
    ah = entries(tournament)[0]
    code = entry_code_issue(actor=director_actor, entry=ah)
    with pytest.raises(Conflict) as e:
        entry_self_check_in(actor=PLAYER, tournament=tournament, entry_id=ah.pk, code=code)
    assert e.value.errors[0]["code"] == "no_check_in"
    session_open_ahead(actor=director_actor, tournament=tournament)
    tournament_finish(actor=director_actor, tournament=tournament)
    with pytest.raises(Conflict):
        entry_self_check_in(actor=PLAYER, tournament=tournament, entry_id=ah.pk, code=code)
    assert SessionCheckIn.objects.count() == 0


def test_seating_the_checked_in_fills_the_session_opened_ahead(tournament, director_actor):
    first = session_seat(actor=director_actor, tournament=tournament, method="random", table_size=3,
                         leftovers="sit_out").session
    ahead, _ = session_open_ahead(actor=director_actor, tournament=tournament)
    people = entries(tournament)
    for e in people[:4]:
        entry_check_in(actor=director_actor, session=ahead, entry_id=e.pk)
    entry_withdraw(actor=director_actor, entry=people[3])   # checked in, then withdrew: not seated
    seated = session_seat(actor=director_actor, tournament=tournament, method="random", table_size=3,
                          leftovers="sit_out", entries="checked_in", expected_number=2)
    assert seated.session.pk == ahead.pk and seated.session.number == 2
    assert Session.objects.filter(tournament=tournament).count() == 2
    assert set(Seat.objects.filter(table__session=ahead).values_list("entry_id", flat=True)) == {
        e.pk for e in people[:3]}
    assert seated.sit_outs == [] and seated.closed == [1]
    first.refresh_from_db()
    assert first.status == "closed"
    assert logged("session_create") == 2   # session 1 by its seating, session 2 opened ahead: no third


def test_seating_the_checked_in_without_enough_is_a_field_error(tournament, director_actor):
    with pytest.raises(ValidationFailed) as e:
        session_seat(actor=director_actor, tournament=tournament, method="random", table_size=3,
                     leftovers="sit_out", entries="checked_in")
    assert [(x["path"], x["code"]) for x in e.value.errors] == [("entries", "no_check_in")]
    ahead, _ = session_open_ahead(actor=director_actor, tournament=tournament)
    entry_check_in(actor=director_actor, session=ahead, entry_id=entries(tournament)[0].pk)
    with pytest.raises(ValidationFailed) as e:
        session_seat(actor=director_actor, tournament=tournament, method="random", table_size=3,
                     leftovers="sit_out", entries="checked_in")
    assert [(x["path"], x["code"]) for x in e.value.errors] == [("entries", "too_few_players")]
    assert e.value.errors[0]["message"] == "Only 1 player is checked in for session 1: too few for a table."
    assert not Table.objects.exists() and check_in_session(tournament) == ahead


def test_seating_everyone_still_fills_the_session_opened_ahead(tournament, director_actor):
    ahead, _ = session_open_ahead(actor=director_actor, tournament=tournament)
    seated = session_seat(actor=director_actor, tournament=tournament, method="random", table_size=3,
                          leftovers="sit_out")
    assert seated.session.pk == ahead.pk and Seat.objects.filter(table__session=ahead).count() == len(NAMES)


def test_the_database_holds_one_check_in_per_entry_and_session(tournament, director_actor, director):
    session, _ = session_open_ahead(actor=director_actor, tournament=tournament)
    ah = entries(tournament)[0]
    entry_check_in(actor=director_actor, session=session, entry_id=ah.pk)
    row = SessionCheckIn.objects.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionCheckIn.objects.create(session=session, entry=ah, checked_in_at=row.checked_in_at, how="self")
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionCheckIn.objects.create(session=session, entry=entries(tournament)[1], checked_in_at=row.checked_in_at,
                                      how="self", by=director)
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionCheckIn.objects.create(session=session, entry=entries(tournament)[1], checked_in_at=row.checked_in_at,
                                      how="phone")
