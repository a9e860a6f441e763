"""The scorer page's outbox, as the server sees it (issue 28): the phone heard on every request of
its link and the size of its outbox noted (at most every 10 s, unless it changed), the ping, deals
drawn while their session was open recorded late after it closed, the link's allowance counted
by the minute a deal was drawn, the number a reused key recorded, the JSON answers of
corrections, confirmations and disputes, and what the director's console shows of it all."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.domain.outbox import as_ms
from scoring.models import ActionLog, Round, Session, Table
from scoring.services.players import entry_code_set
from scoring.services.sessions import session_close
from scoring.services.tournaments import tournament_finish

from ..concurrency import run_concurrently
from .test_scorer import jie_long_points, record, url

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def deal(i: int | str = 1, **extra) -> dict:
    """The deal form as the page's script submits it (a key of its own)."""
    return jie_long_points(action="submit", idem_key=f"deal-{i}", **extra)


def table_updates(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith("UPDATE") and Table._meta.db_table in q["sql"]]


def heard(setup) -> Table:
    return Table.objects.get(pk=setup.table.pk)


# --- heard, and the outbox's size ---------------------------------------------------------------

def test_every_request_of_the_link_notes_the_phone_at_most_every_ten_seconds_unless_its_outbox_changed(
        client, jie_long):
    assert heard(jie_long).phone_heard_at is None and heard(jie_long).phone_outbox == 0
    logged = ActionLog.objects.count()

    def get(**headers):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url(jie_long), **headers).status_code == 200
        return table_updates(ctx.captured_queries)

    assert len(get()) == 1                                     # never heard: written
    first = heard(jie_long).phone_heard_at
    assert first is not None and heard(jie_long).phone_outbox == 0
    assert get(HTTP_X_GUPAI_OUTBOX="0") == []                  # the same, within 10 s: nothing written
    assert len(get(HTTP_X_GUPAI_OUTBOX="3")) == 1              # the outbox changed: written at once
    assert heard(jie_long).phone_outbox == 3
    assert get(HTTP_X_GUPAI_OUTBOX="3") == [] and get() == []  # no header: the size is left as it was
    for nonsense in ("three", "-1", "10001", "²", "3.0", ""):  # ignored, never refused
        assert get(HTTP_X_GUPAI_OUTBOX=nonsense) == []
    assert heard(jie_long).phone_outbox == 3
    Table.objects.filter(pk=jie_long.table.pk).update(phone_heard_at=timezone.now() - timedelta(seconds=11))
    assert len(get(HTTP_X_GUPAI_OUTBOX="3")) == 1              # ten seconds on: written again
    assert heard(jie_long).phone_heard_at > first
    assert ActionLog.objects.count() == logged                 # bookkeeping: no row of the log


def test_the_phone_is_heard_by_its_deals_moves_and_who_are_you_too(client, jie_long):
    rnd = record(jie_long)
    for method, path in (("post", url(jie_long)), ("get", f"/s/{jie_long.token}/deals/{rnd.pk}/correct/"),
                         ("post", f"/s/{jie_long.token}/deals/{rnd.pk}/dispute/"),
                         ("post", f"/s/{jie_long.token}/who/")):
        Table.objects.filter(pk=jie_long.table.pk).update(phone_outbox=0)
        getattr(client, method)(path, {}, HTTP_X_GUPAI_OUTBOX="2")
        assert heard(jie_long).phone_outbox == 2, path


def test_a_conditional_update_writes_once_for_phones_asking_at_once(jie_long):
    """The UPDATE asks again of the row as it is: a second phone that read the table before the
    first wrote it writes nothing (no read-modify-write)."""
    from scoring.selectors.tables import table_by_scorer_token
    from scoring.services.tables import table_phone_heard

    a, b = table_by_scorer_token(jie_long.token), table_by_scorer_token(jie_long.token)
    assert table_phone_heard(table=a, outbox=1) is True
    assert table_phone_heard(table=b, outbox=1) is False      # b still believes it never was
    assert heard(jie_long).phone_outbox == 1


# --- ping ---------------------------------------------------------------------------------------

def test_ping_answers_204_with_nothing_and_the_phone_is_heard(client, jie_long):
    r = client.get(f"/s/{jie_long.token}/ping/", HTTP_X_GUPAI_OUTBOX="4")
    assert r.status_code == 204 and r.content == b""
    assert "no-store" in r["Cache-Control"]
    assert heard(jie_long).phone_outbox == 4 and heard(jie_long).phone_heard_at is not None
    assert client.post(f"/s/{jie_long.token}/ping/").status_code == 405


def test_ping_of_an_unknown_link_is_404(client, jie_long):
    assert client.get("/s/no-such-link/ping/").status_code == 404


# --- late deals -----------------------------------------------------------------------------------

def close(setup) -> Session:
    session = Session.objects.get(pk=setup.table.session_id)
    session_close(actor=setup.director_actor, session=session)
    session.refresh_from_db()
    return session


def test_a_deal_drawn_while_the_session_was_open_is_recorded_late_after_it_closed(client, jie_long):
    session = close(jie_long)
    drawn = as_ms(session.created_at) + 1000
    r = client.post(url(jie_long), deal(drawn_at=str(drawn)), **JSON)
    assert r.status_code == 201, r.content
    assert r.json()["status"] == "saved" and r.json()["late"] is True and r.json()["number"] == 1
    rnd = Round.objects.get()
    assert rnd.late
    line = ActionLog.objects.get(action="round_record")
    assert line.data["late"] is True and line.data["drawn_at"].startswith(str(session.created_at.year))
    # The director sees it: the late badge on the table's page.
    client.force_login(jie_long.director)
    page = client.get(f"/director/tables/{jie_long.table.pk}/").content.decode()
    assert '<span class="badge late">' in page


def test_up_to_five_seconds_after_the_close_is_still_drawn_while_open(client, jie_long):
    session = close(jie_long)
    r = client.post(url(jie_long), deal(drawn_at=str(as_ms(session.closed_at) + 4000)), **JSON)
    assert r.status_code == 201 and r.json()["late"] is True


@pytest.mark.parametrize("when", ["before it opened", "after it closed", "not said"])
def test_a_deal_drawn_outside_the_sessions_open_time_is_refused_as_before(client, jie_long, when):
    session = close(jie_long)
    drawn = {"before it opened": as_ms(session.created_at) - 60_000,
             "after it closed": as_ms(session.closed_at) + 6000, "not said": None}[when]
    data = deal() if drawn is None else deal(drawn_at=str(drawn))
    r = client.post(url(jie_long), data, **JSON)
    assert r.status_code == 409 and r.json()["status"] == "session_closed"
    assert Round.objects.count() == 0


def test_a_finished_tournament_records_no_late_deal(client, jie_long):
    session = close(jie_long)
    tournament_finish(actor=jie_long.director_actor, tournament=jie_long.tournament)
    r = client.post(url(jie_long), deal(drawn_at=str(as_ms(session.created_at) + 1000)), **JSON)
    assert r.status_code == 409 and r.json()["status"] == "closed"
    assert Round.objects.count() == 0


def test_only_deals_are_late_a_confirmation_or_correction_after_the_close_is_refused(client, jie_long):
    rnd = record(jie_long)
    session = close(jie_long)
    drawn = str(as_ms(session.created_at) + 1000)
    for name, data in (("confirm", {"confirmed_by": "2"}), ("correct", correction())):
        r = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/{name}/", {**data, "drawn_at": drawn}, **JSON)
        assert r.status_code == 409 and r.json() == {"status": "conflict", "code": "session_closed",
                                                     "message": r.json()["message"]}, name
    rnd.refresh_from_db()
    assert rnd.status == "recorded" and rnd.current_revision.number == 1


@pytest.mark.parametrize("drawn_at", ["soon", "-5", "1.5", "99999999999999999999", "١٢٣"])
def test_a_drawn_time_that_is_none_is_refused_at_drawn_at_and_nothing_is_stored(client, jie_long, drawn_at):
    r = client.post(url(jie_long), deal(drawn_at=drawn_at), **JSON)
    assert r.status_code == 400 and r.json()["status"] == "invalid"
    assert "drawn_at" in r.json()["errors"]
    assert Round.objects.count() == 0


def test_a_deal_drawn_in_the_future_is_recorded_and_not_late(client, jie_long):
    r = client.post(url(jie_long), deal(drawn_at=str(as_ms(timezone.now() + timedelta(days=3)))), **JSON)
    assert r.status_code == 201 and "late" not in r.json()


# --- the allowance, counted by the minute a deal was drawn -----------------------------------------

@pytest.fixture
def an_hour_old(jie_long, monkeypatch, settings):
    """The session opened an hour before a moment that stands still for the test (the minute a
    deal drawn "now" counts in is then the same all through), the allowance as shipped: the
    minutes counted here are the drawn ones, chosen by the test, whatever the clock does."""
    settings.RATE_LIMITS = {"round-create": "30/m"}
    moment = timezone.now().replace(second=30, microsecond=0)
    monkeypatch.setattr(timezone, "now", lambda: moment)
    Session.objects.filter(pk=jie_long.table.session_id).update(created_at=moment - timedelta(hours=1))
    return moment


def test_an_outbox_of_deals_drawn_over_three_minutes_drains_at_once_but_a_minute_holds_thirty(
        client, jie_long, an_hour_old):
    minute = as_ms(an_hour_old - timedelta(minutes=30)) // 60_000 * 60_000
    # 45 deals drawn over three minutes (15 a minute), sent in one go: more than the link's 30 a
    # minute arrive in one minute, and every one is recorded.
    for i in range(45):
        r = client.post(url(jie_long), deal(i, drawn_at=str(minute + (i // 15) * 60_000 + i * 100)), **JSON)
        assert r.status_code == 201, (i, r.content)
    # 31 deals drawn within one minute: the 31st is refused, whenever it is sent.
    later = minute + 10 * 60_000
    for i in range(30):
        assert client.post(url(jie_long), deal(f"b{i}", drawn_at=str(later + i)), **JSON).status_code == 201
    r = client.post(url(jie_long), deal("b30", drawn_at=str(later + 59_000)), **JSON)
    assert r.status_code == 429 and r.json()["status"] == "error" and r.json()["code"] == "throttled"
    assert int(r["Retry-After"]) >= 1
    assert Round.objects.count() == 75
    # The minute after it has its own thirty.
    assert client.post(url(jie_long), deal("c", drawn_at=str(later + 60_000)), **JSON).status_code == 201


def test_a_deal_drawn_in_the_future_counts_in_the_minute_it_arrives(client, jie_long, an_hour_old):
    future = str(as_ms(an_hour_old + timedelta(days=1)))
    for i in range(30):
        assert client.post(url(jie_long), deal(i, drawn_at=future), **JSON).status_code == 201
    # now's minute is full: a deal drawn now is refused like one more from the future
    assert client.post(url(jie_long), deal("now", drawn_at=str(as_ms(an_hour_old))), **JSON).status_code == 429
    assert client.post(url(jie_long), deal("more", drawn_at=future), **JSON).status_code == 429
    # and one drawn before the session opened counts in its first minute, not refused here
    early = str(as_ms(an_hour_old - timedelta(hours=5)))
    assert client.post(url(jie_long), deal("early", drawn_at=early), **JSON).status_code == 201


# --- a key reused, the same key twice ---------------------------------------------------------------

def test_a_key_reused_for_another_deal_says_which_deal_it_recorded(client, jie_long):
    assert client.post(url(jie_long), deal("k"), **JSON).json()["number"] == 1
    r = client.post(url(jie_long), deal("k", points_0="4", points_1="10"), **JSON)
    assert r.status_code == 409 and r.json()["status"] == "key_reused" and r.json()["number"] == 1
    assert Round.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_key_sent_twice_at_once_records_one_deal(jie_long, slow_engine):
    """A retry racing the outbox: both answered "saved", one of them a replay, one deal."""
    drawn = str(as_ms(timezone.now()))

    def post(i):
        return Client().post(url(jie_long), deal("same", drawn_at=drawn), **JSON)

    answers = run_concurrently(2, post)
    assert not any(isinstance(a, Exception) for a in answers), answers
    assert [a.status_code for a in answers] == [201, 201]
    assert sorted(a.json()["replayed"] for a in answers) == [False, True]
    assert {a.json()["number"] for a in answers} == {1}
    assert Round.objects.filter(table=jie_long.table).count() == 1


# --- corrections, confirmations, disputes answered in JSON -------------------------------------------

def move(client, setup, rnd, name: str, data: dict):
    return client.post(f"/s/{setup.token}/deals/{rnd.pk}/{name}/", data, **JSON)


def correction(**extra) -> dict:
    return jie_long_points(**{"action": "save", "reason": "typo", "revision": "1", "points_0": "4", "points_1": "10",
                              **extra})


def test_a_correction_answers_saved_invalid_or_conflict(client, jie_long):
    rnd = record(jie_long)
    r = move(client, jie_long, rnd, "correct", correction(points_2="lots", reason=""))
    assert r.status_code == 400 and r.json()["status"] == "invalid"
    assert "points_2" in r.json()["errors"] and r.json()["message"]
    r = move(client, jie_long, rnd, "correct", correction(reason=""))
    assert r.status_code == 400 and list(r.json()["errors"]) == ["reason"]
    r = move(client, jie_long, rnd, "correct", correction(revision="5"))
    assert r.status_code == 409 and r.json()["status"] == "conflict" and r.json()["code"] == "stale_revision"
    r = move(client, jie_long, rnd, "correct", correction())
    assert r.status_code == 200 and r.json() == {"status": "saved", "number": 1}
    rnd.refresh_from_db()
    assert rnd.current_revision.number == 2
    # The same form without JSON: as ever, a redirect.
    r = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/", correction(revision="2"))
    assert r.status_code == 302


def test_a_confirmation_and_a_dispute_answer_saved_conflict_or_invalid(client, jie_long):
    rnd = record(jie_long)
    r = move(client, jie_long, rnd, "dispute", {"message": "  "})
    assert r.status_code == 400 and r.json()["status"] == "invalid" and "message" in r.json()["errors"]
    assert move(client, jie_long, rnd, "confirm", {"confirmed_by": "2"}).json() == {"status": "saved", "number": 1}
    r = move(client, jie_long, rnd, "confirm", {"confirmed_by": "2"})
    assert r.status_code == 409 and r.json()["status"] == "conflict" and r.json()["code"] == "already_confirmed"
    assert move(client, jie_long, rnd, "dispute", {"message": "wrong winner"}).json() == {"status": "saved",
                                                                                          "number": 1}
    rnd.refresh_from_db()
    assert rnd.status == "confirmed" and rnd.disputed


def test_a_wrong_code_typed_offline_is_refused_at_confirmed_by_code(make_setup):
    proof = make_setup("jie_long", require_confirmation=True, require_proof=True)
    phone = Client()
    phone.post(f"/s/{proof.token}/who/", {"seat": "0", "code": "1111", "code_again": "1111"})
    phone.post(url(proof), {**deal(), "entered_by": ""})
    rnd = Round.objects.get()
    entry_code_set(actor=proof.director_actor, entry=proof.entries[2], code="3333")
    r = move(phone, proof, rnd, "confirm", {"confirmed_by": "2", "confirmed_by_code": "3330"})
    assert r.status_code == 403 and r.json()["status"] == "error" and r.json()["code"] == "wrong_player_code"
    assert list(r.json()["errors"]) == ["confirmed_by_code"] and "3330" not in r.content.decode()
    r = move(phone, proof, rnd, "confirm", {"confirmed_by": "2", "confirmed_by_code": "3333"})
    assert r.status_code == 200 and r.json()["status"] == "saved"


# --- the page, and the director's console --------------------------------------------------------------

def test_the_scorer_pages_carry_the_servers_clock(client, jie_long):
    before = as_ms(timezone.now())
    page = client.get(url(jie_long)).content.decode()
    now = int(page.split('data-server-now="', 1)[1].split('"', 1)[0])
    assert before <= now <= as_ms(timezone.now())
    rnd = record(jie_long)
    assert "data-server-now=" in client.get(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/").content.decode()


def test_the_console_says_when_each_phone_was_heard_what_it_holds_and_which_is_silent(client, jie_long):
    now = timezone.now()
    Table.objects.filter(pk=jie_long.table.pk).update(phone_heard_at=now - timedelta(minutes=7), phone_outbox=3)
    client.force_login(jie_long.director)
    page = client.get(f"/director/tournaments/{jie_long.tournament.pk}/").content.decode()
    card = page.split('<article class="card table-card', 1)[1].split("</article>", 1)[0]
    assert card.startswith(" warnings") and '<span class="badge silent">silent</span>' in card
    assert "Phone last heard 7 min ago" in card and "3 deals waiting on the phone" in card
    Table.objects.filter(pk=jie_long.table.pk).update(phone_heard_at=now - timedelta(seconds=20), phone_outbox=0)
    card = client.get(f"/director/tournaments/{jie_long.tournament.pk}/").content.decode() \
        .split('<article class="card table-card', 1)[1].split("</article>", 1)[0]
    assert "Phone last heard under a minute ago" in card and "silent" not in card and "waiting" not in card
    Table.objects.filter(pk=jie_long.table.pk).update(phone_heard_at=None)
    assert "Phone not heard yet" in client.get(f"/director/tournaments/{jie_long.tournament.pk}/").content.decode()
    # The table's own page says it too.
    Table.objects.filter(pk=jie_long.table.pk).update(phone_heard_at=now - timedelta(minutes=2), phone_outbox=1)
    page = client.get(f"/director/tables/{jie_long.table.pk}/").content.decode()
    assert "Phone last heard 2\xa0minutes ago" in page and "1 deal waiting on the phone" in page


def test_a_closed_sessions_tables_say_nothing_of_phones(client, jie_long):
    Table.objects.filter(pk=jie_long.table.pk).update(phone_heard_at=timezone.now() - timedelta(hours=1))
    close(jie_long)
    client.force_login(jie_long.director)
    page = client.get(f"/director/tournaments/{jie_long.tournament.pk}/?session=1").content.decode()
    assert "Phone last heard" not in page and "badge silent" not in page
