"""The console's reads: which session it shows, and the version its live parts are polled
by, which reads no deal."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.domain.errors import NotFound
from scoring.models import Session
from scoring.selectors.dashboards import console_version, shown_session, tournament_dashboard
from scoring.services.clubs import player_create
from scoring.services.rounds import round_dispute, round_record
from scoring.services.sessions import session_clock_start
from scoring.services.tournaments import entry_create, tournament_finish

from ..bodies import JIE_LONG
from ..many_deals import add_deals

pytestmark = pytest.mark.django_db


def _session(number: int, status: str = "open") -> Session:
    return Session(number=number, status=status)


def test_the_console_shows_the_newest_open_session_unless_asked():
    one, two, three = _session(1), _session(2), _session(3, "closed")
    assert shown_session([one, two, three], None) is two
    assert shown_session([one, two, three], 3) is three
    assert shown_session([_session(1, "closed"), three], None) is three   # none open: the newest
    assert shown_session([], None) is None
    with pytest.raises(NotFound):
        shown_session([one, two], 5)


@pytest.mark.parametrize("deals", [30, 3000])
def test_the_console_version_is_one_query_that_reads_no_deal(jie_long, deals):
    add_deals(jie_long, deals)
    with CaptureQueriesContext(connection) as queries:
        console_version(jie_long.tournament)
    (query,) = queries.captured_queries
    assert "scoring_round" not in query["sql"]


def test_the_console_version_changes_with_every_write_and_with_time(jie_long, director_actor, club):
    s = jie_long
    now = timezone.now().replace(second=0)
    seen = [console_version(s.tournament, now=now)]

    def changed(at=now) -> bool:
        s.tournament.refresh_from_db()
        version = console_version(s.tournament, now=at)
        new = version not in seen
        seen.append(version)
        return new

    assert not changed()   # nothing happened
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    assert changed()
    round_dispute(actor=s.scorer_actor, round=rnd, message="check")
    assert changed()
    entry_create(actor=director_actor, tournament=s.tournament,
                 player=player_create(actor=director_actor, club=club, name="Late"))
    assert changed()   # a new row in the standings
    session_clock_start(actor=director_actor, session=s.table.session, minutes=10)
    assert changed()
    assert not changed(now + timedelta(seconds=59))
    assert changed(now + timedelta(minutes=1))   # "last deal 1 minute ago"
    # The clock runs out: nobody writes anything, the version moves on.
    later = now + timedelta(minutes=1)
    assert not changed(later)
    Session.objects.filter(pk=s.table.session_id).update(clock_started_at=later - timedelta(minutes=10),
                                                         clock_ends_at=later - timedelta(seconds=1))
    assert changed(later)
    tournament_finish(actor=director_actor, tournament=s.tournament, disputes_stay=True)
    assert changed(later)


@pytest.mark.parametrize("require_confirmation", [False, True])
def test_unconfirmed_deals_are_told_only_where_only_confirmed_deals_count(make_setup, require_confirmation):
    """Without confirmation required a recorded deal counts as it is: the console counts and
    lists no unconfirmed deal (disputes it still tells)."""
    s = make_setup("jie_long", require_confirmation=require_confirmation)
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    disputed = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_dispute(actor=s.scorer_actor, round=disputed, message="wrong tiles")
    board = tournament_dashboard(s.tournament)
    unconfirmed = 2 if require_confirmation else 0
    assert board["counts"] == {"unconfirmed": unconfirmed, "disputed": 1, "unsettled": 2 if require_confirmation else 1}
    assert [d["number"] for d in board["unsettled"].items] == ([1, 2] if require_confirmation else [2])
    assert board["current"]["tables"][0]["unconfirmed"] == unconfirmed


def test_a_disputed_deal_names_the_players_who_played_it_after_a_substitution(jie_long):
    from scoring.selectors.dashboards import console_live
    from scoring.services.substitutions import table_substitute

    s = jie_long
    disputed = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_dispute(actor=s.scorer_actor, round=disputed, message="the points of seat 1")
    eve = entry_create(actor=s.director_actor, tournament=s.tournament,
                       player=player_create(actor=s.director_actor, club=s.tournament.club, name="Eve"))
    table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=eve.pk)
    shown = console_live(s.tournament)["disputed"].items
    assert [p["name"] for p in shown[0]["players"]][0] == "Anna"   # not Eve, who came after
