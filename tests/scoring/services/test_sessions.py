"""Sessions first-class (services): closed and reopened, seating the next one closes the earlier
ones (or keeps them open), a closed session's scorer link records and changes nothing while a
director records a late deal, and the clock marks deals recorded after time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.models import ActionLog, Round, Session
from scoring.services.clubs import player_create
from scoring.services.rounds import round_confirm, round_correct, round_dispute, round_record
from scoring.services.seating import session_seat
from scoring.services.sessions import session_clock_start, session_clock_stop, session_close, session_reopen
from scoring.services.tournaments import entry_create, tournament_finish

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


def code(caught) -> str:
    return caught.value.errors[0]["code"]


def seat_next(s, **kwargs):
    return session_seat(actor=s.director_actor, tournament=s.tournament, method="random", table_size=4,
                        leftovers="sit_out", seed="7", **kwargs)


def test_a_session_is_open_until_closed_and_can_be_reopened(jie_long):
    s = jie_long
    session = s.table.session
    assert session.status == "open" and session.closed_at is None
    closed = session_close(actor=s.director_actor, session=session)
    assert closed.status == "closed" and closed.closed_at is not None
    with pytest.raises(Conflict) as caught:
        session_close(actor=s.director_actor, session=session)
    assert code(caught) == "session_already_closed"
    opened = session_reopen(actor=s.director_actor, session=session)
    assert opened.status == "open" and opened.closed_at is None
    with pytest.raises(Conflict) as caught:
        session_reopen(actor=s.director_actor, session=session)
    assert code(caught) == "session_already_open"
    assert list(ActionLog.objects.filter(action__in=["session_close", "session_reopen"])
                .order_by("id").values_list("action", flat=True)) == ["session_close", "session_reopen"]


def test_only_directors_move_a_session_and_not_once_finished(jie_long):
    s = jie_long
    with pytest.raises(PermissionDenied):
        session_close(actor=s.scorer_actor, session=s.table.session)
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    with pytest.raises(Conflict) as caught:
        session_close(actor=s.director_actor, session=s.table.session)
    assert code(caught) == "tournament_finished"


def test_seating_the_next_session_closes_the_earlier_ones(jie_long):
    seated = seat_next(jie_long)
    assert seated.closed == [1]
    assert dict(Session.objects.values_list("number", "status")) == {1: "closed", 2: "open"}
    log = ActionLog.objects.get(action="session_seat")
    assert log.data["closed"] == [1]
    assert ActionLog.objects.filter(action="session_close").count() == 1
    third = seat_next(jie_long)
    assert third.closed == [2]   # session 1 was closed already


def test_keep_open_leaves_the_earlier_sessions_open(jie_long):
    seated = seat_next(jie_long, keep_open=True)
    assert seated.closed == []
    assert dict(Session.objects.values_list("number", "status")) == {1: "open", 2: "open"}
    with pytest.raises(ValidationFailed) as caught:
        seat_next(jie_long, keep_open="yes")
    assert caught.value.errors[0]["path"] == "keep_open"


def test_a_closed_session_refuses_its_scorer_link(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    session_close(actor=s.director_actor, session=s.table.session)
    s.table.refresh_from_db()
    with pytest.raises(Conflict) as caught:
        round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    assert code(caught) == "session_closed"
    with pytest.raises(Conflict) as caught:
        round_correct(actor=s.scorer_actor, round=rnd, body=JIE_LONG, reason="typo", expected_revision=1)
    assert code(caught) == "session_closed"
    with pytest.raises(Conflict) as caught:
        round_confirm(actor=s.scorer_actor, round=rnd, confirmed_by=1)
    assert code(caught) == "session_closed"
    # A director still may: corrections, confirmations, and a late deal.
    round_correct(actor=s.director_actor, round=rnd, body=JIE_LONG, reason="typo", expected_revision=1)
    round_confirm(actor=s.director_actor, round=rnd)
    late = round_record(actor=s.director_actor, table=s.table, body=JIE_LONG)
    assert late.late and not late.after_time and late.number == 2
    assert not Round.objects.get(pk=rnd.pk).late
    assert ActionLog.objects.filter(action="round_record").order_by("id").last().data["late"] is True


def test_a_closed_sessions_scorer_may_still_call_the_referee(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    session_close(actor=s.director_actor, session=s.table.session)
    assert round_dispute(actor=s.scorer_actor, round=rnd, message="wrong points").disputed


def test_the_clock_starts_stops_and_marks_deals_after_time(jie_long):
    s = jie_long
    session = session_clock_start(actor=s.director_actor, session=s.table.session, minutes=30)
    assert session.clock_ends_at - session.clock_started_at == timedelta(minutes=30)
    on_time = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    assert not on_time.after_time
    # The clock ran out: a deal recorded now is accepted, and marked.
    Session.objects.filter(pk=session.pk).update(clock_started_at=timezone.now() - timedelta(minutes=31),
                                                 clock_ends_at=timezone.now() - timedelta(minutes=1))
    s.table.refresh_from_db()
    late = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    assert late.after_time and not late.late
    stopped = session_clock_stop(actor=s.director_actor, session=session)
    assert stopped.clock_ends_at is None and stopped.clock_started_at is None
    with pytest.raises(Conflict) as caught:
        session_clock_stop(actor=s.director_actor, session=session)
    assert code(caught) == "no_clock"
    assert {"session_clock_start", "session_clock_stop"} <= set(ActionLog.objects.values_list("action", flat=True))


@pytest.mark.parametrize("minutes", [0, -5, 24 * 60 + 1, "30", 2.5, True, None])
def test_the_clock_takes_whole_minutes(jie_long, minutes):
    with pytest.raises(ValidationFailed) as caught:
        session_clock_start(actor=jie_long.director_actor, session=jie_long.table.session, minutes=minutes)
    assert caught.value.errors[0]["path"] == "minutes"


def test_a_closed_session_has_no_clock_to_start(jie_long):
    s = jie_long
    session_close(actor=s.director_actor, session=s.table.session)
    with pytest.raises(Conflict) as caught:
        session_clock_start(actor=s.director_actor, session=s.table.session, minutes=10)
    assert code(caught) == "session_closed"


def test_a_late_deal_is_counted_like_any_other(jie_long, club):
    """Late and after time are marks for the director: the deal counts (the director decides)."""
    s = jie_long
    session_close(actor=s.director_actor, session=s.table.session)
    round_record(actor=s.director_actor, table=s.table, body=JIE_LONG)
    from scoring.selectors.standings import standings_for
    assert sum(row["net"] for row in standings_for(s.tournament)) == 0
    assert {row["net"] for row in standings_for(s.tournament)} != {0}


@pytest.fixture
def eight(make_setup, club, director_actor):
    """Jie Long: session 1's table of four, four more entries."""
    s = make_setup("jie_long")
    for name in ["Eve", "Fay", "Gil", "Hal"]:
        entry_create(actor=director_actor, tournament=s.tournament,
                     player=player_create(actor=director_actor, club=club, name=name))
    return s


def test_where_everybody_sits_now(eight):
    from scoring.selectors.sessions import seats_now

    assert seats_now(eight.tournament).session == 1
    seated = seat_next(eight)
    now = seats_now(eight.tournament)
    assert now.session == 2 and len(now.places) == 8
    for table, token in seated.tables:
        for position, entry in enumerate(seated.seats[table.pk]):
            place = now.places[entry.pk]
            assert (place.session, place.table, place.table_name, place.position, place.seats) == (
                2, table.pk, table.name, position, 4)
