"""The live feed (``services.events``): one event per committed change, numbered by the
tournament's version, published after commit only — a rolled-back write publishes nothing and
leaves no event — and the older events pruned."""

from __future__ import annotations

import pytest
from django.db import transaction

from scoring.models import Standing, TournamentEvent, TournamentFeed
from scoring.selectors.events import events_after
from scoring.services import events as feed
from scoring.services.rounds import (
    round_confirm,
    round_correct,
    round_dispute,
    round_dispute_resolve,
    round_record,
    round_void,
)
from scoring.services.seating import session_seat
from scoring.services.sessions import session_clock_start, session_clock_stop, session_close, session_reopen

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard(settings):
    """What this process's listeners hear (the path without Redis)."""
    settings.REDIS_URL = ""
    got = []

    def listener(tournament, message):
        got.append((tournament, message))

    feed.listen(listener)
    yield got
    feed.unlisten(listener)


def kinds(tournament) -> list[tuple[int, str]]:
    return list(TournamentEvent.objects.filter(tournament=tournament).order_by("version")
                .values_list("version", "kind"))


def test_published_after_commit_only(jie_long, heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
            assert heard == []                  # stored, not yet told
        assert heard == []                      # committed: told once the callbacks run
    assert callbacks and len(heard) == 1 and heard[0][0] == jie_long.tournament.pk
    assert '"id":1,"event":"deal_recorded"' in heard[0][1]


def test_a_rolled_back_deal_publishes_nothing(jie_long, heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError):
            with transaction.atomic():
                round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
                raise RuntimeError("the request failed after the deal")
    assert callbacks == [] and heard == []
    assert kinds(jie_long.tournament) == []
    assert not TournamentFeed.objects.filter(tournament=jie_long.tournament).exists()


def test_every_change_the_live_pages_show_is_one_event(make_setup, django_capture_on_commit_callbacks):
    s = make_setup("jie_long", require_confirmation=True)
    actor = s.director_actor
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_correct(actor=actor, round=rnd, body=JIE_LONG, reason="typo", expected_revision=1)
    round_confirm(actor=actor, round=rnd)
    round_dispute(actor=s.scorer_actor, round=rnd, message="wrong tile")
    round_dispute_resolve(actor=actor, round=rnd, note="fine")
    round_void(actor=actor, round=rnd, reason="never played")
    session = s.table.session
    session_close(actor=actor, session=session)
    session_reopen(actor=actor, session=session)
    session_seat(actor=actor, tournament=s.tournament, method="random", table_size=4, leftovers="sit_out", seed=1)
    assert kinds(s.tournament) == list(enumerate(
        ["deal_recorded", "deal_corrected", "deal_confirmed", "deal_disputed", "dispute_resolved", "deal_voided",
         "session_closed", "session_reopened", "session_seated"], start=1))
    events = {e.kind: e.data for e in TournamentEvent.objects.filter(tournament=s.tournament)}
    # Confirmation is what makes the deal count here: the confirm event carries the moved rows,
    # the void takes them out again; a dispute moves none.
    anna = s.entries[0].pk
    assert [r["net"] for r in events["deal_confirmed"]["standings"] if r["entry"] == anna] == [58]
    assert [r["net"] for r in events["deal_voided"]["standings"] if r["entry"] == anna] == [0]
    assert events["deal_recorded"]["standings"] == [] and events["deal_disputed"]["disputed"] is True
    assert events["session_seated"] == {"session": 2, "status": "open", "tables": 1, "closed": [1]}


def test_a_deal_event_carries_the_deal_and_the_moved_standings(jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    data = TournamentEvent.objects.get(tournament=jie_long.tournament, version=1).data
    assert {k: data[k] for k in ("round", "table", "table_name", "session", "number", "status", "revision")} == {
        "round": rnd.pk, "table": jie_long.table.pk, "table_name": "Table 1", "session": 1, "number": 1,
        "status": "recorded", "revision": 1}
    assert [(n["seat"], n["entry"]) for n in data["nets"]] == [(i, e.pk) for i, e in enumerate(jie_long.entries)]
    kept = {st.entry_id: (st.total, st.rounds_counted, st.wins) for st in Standing.objects.filter(
        tournament=jie_long.tournament)}
    assert {r["entry"]: (r["net"], r["deals"], r["wins"]) for r in data["standings"]} == kept


def test_versions_are_the_tournaments_own(jie_long, ding_niu):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    assert TournamentFeed.objects.get(tournament=jie_long.tournament).version == 2
    assert events_after(ding_niu.tournament.pk, None) == (0, [])


def test_older_events_are_pruned_and_a_late_client_needs_a_snapshot(jie_long, monkeypatch):
    monkeypatch.setattr(feed, "KEEP", 3)
    monkeypatch.setattr(feed, "PRUNE_EVERY", 2)
    for _ in range(6):
        round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    assert [v for v, _ in kinds(jie_long.tournament)] == [4, 5, 6]    # pruned at 6: up to 3 gone
    assert events_after(jie_long.tournament.pk, 2) == (6, None)       # 3 is no longer kept
    version, events = events_after(jie_long.tournament.pk, 3)
    assert version == 6 and [e["id"] for e in events] == [4, 5, 6]
    assert events_after(jie_long.tournament.pk, 6) == (6, [])
    assert events_after(jie_long.tournament.pk, 9)[1] is None          # ahead of the feed: a snapshot


def test_a_clock_started_or_stopped_is_an_event_with_its_end(jie_long):
    """The room display and the public pages show a new clock at once (issue 30)."""
    session = jie_long.table.session
    started = session_clock_start(actor=jie_long.director_actor, session=session, minutes=30)
    session_clock_stop(actor=jie_long.director_actor, session=session)
    assert kinds(jie_long.tournament) == [(1, "session_clock_started"), (2, "session_clock_stopped")]
    data = [e.data for e in TournamentEvent.objects.filter(tournament=jie_long.tournament).order_by("version")]
    assert data[0]["session"] == 1 and data[0]["status"] == "open" and data[0]["ends_at"].startswith(
        started.clock_ends_at.isoformat()[:19])
    assert data[1] == {"session": 1, "status": "open", "ends_at": None}
