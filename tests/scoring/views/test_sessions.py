"""Sessions on the pages: every page names a table with its session ("Session 2 · Table 1", in
Chinese too); a closed session's scorer page says where each player sits now and keeps an
unsent deal; the director closes, reopens, clocks and seats sessions, records a late deal, and
sees which tables still play when time is up; a player's page and the sheet say where to sit."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.models import Round, Session
from scoring.services.clubs import player_create
from scoring.services.rounds import round_record
from scoring.services.seating import session_seat
from scoring.services.sessions import session_clock_start, session_close
from scoring.services.tables import table_create
from scoring.services.tournaments import entry_create

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db

HANS = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
HANT = {"HTTP_ACCEPT_LANGUAGE": "zh-Hant,zh;q=0.8"}


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def eight(make_setup, club, director_actor):
    """Jie Long: session 1's table of four (Anna, Bob, Celine, Dominic) and four more entries."""
    s = make_setup("jie_long")
    for name in ["Eve", "Fay", "Gil", "Hal"]:
        entry_create(actor=director_actor, tournament=s.tournament,
                     player=player_create(actor=director_actor, club=club, name=name))
    return s


def seat_next(s, **kwargs):
    return session_seat(actor=s.director_actor, tournament=s.tournament, method="random", table_size=4,
                        leftovers="sit_out", seed="7", **kwargs)


def text(response) -> str:
    """The page's text, tags dropped and spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


WINDS = ["East", "South", "West", "North"]


def expected_lines(seated) -> dict[str, str]:
    """Name → the line for the wall ("Anna → Session 2 · Table 1, seat East")."""
    out = {}
    for table, _token in seated.tables:
        for position, entry in enumerate(seated.seats[table.pk]):
            name = entry.player.name
            out[name] = f"{name} → Session {seated.session.number} · {table.name}, seat {WINDS[position]}"
    return out


# --- naming a table --------------------------------------------------------------------------------

def test_every_page_names_the_tables_session(client, dclient, jie_long):
    s = jie_long
    assert "<h1>Session 1 · Table 1 " in client.get(f"/s/{s.token}/").content.decode()
    assert "<h1>Session 1 · Table 1 " in dclient.get(f"/director/tables/{s.table.pk}/").content.decode()
    assert "Session 1 · Table 1" in text(dclient.get(f"/director/tournaments/{s.tournament.pk}/"))
    assert "<h1>Session 1 · Table 1</h1>" in client.get(f"/t/{s.tournament.slug}/tables/{s.table.pk}/").content.decode()
    assert "Session 1 · Table 1" in text(client.get(f"/t/{s.tournament.slug}/"))


@pytest.mark.parametrize("headers, label", [(HANS, "第1轮 · 第1桌"), (HANT, "第1輪 · 第1桌")])
def test_the_session_and_table_in_chinese(client, dclient, jie_long, headers, label):
    s = jie_long
    for page in (client.get(f"/s/{s.token}/", **headers), dclient.get(f"/director/tables/{s.table.pk}/", **headers),
                 client.get(f"/t/{s.tournament.slug}/tables/{s.table.pk}/", **headers),
                 client.get(f"/t/{s.tournament.slug}/", **headers)):
        assert label in page.content.decode()


def test_a_name_the_club_typed_is_shown_as_typed(client, make_setup):
    s = make_setup("jie_long", table_name="Table by the window")
    page = client.get(f"/s/{s.token}/", **HANT).content.decode()
    assert "第1輪 · Table by the window" in page


def test_the_wording_lives_in_one_place():
    from django.utils import translation

    from scoring.selectors.sessions import Place
    from scoring.web import presentation as p

    with translation.override("en"):
        assert p.table_name("Table 12") == "Table 12" and p.table_name("Tables 1") == "Tables 1"
        assert p.session_table(2, "Table 1") == "Session 2 · Table 1"
        assert [p.seat_name(i, 4) for i in range(4)] == ["seat East", "seat South", "seat West", "seat North"]
        assert [p.seat_name(i, 3) for i in range(3)] == ["seat 1", "seat 2", "seat 3"]
        place = Place(session=2, table=9, table_name="Table 3", position=0, seats=4)
        assert p.where_now("Chen", place, 2) == "Chen → Session 2 · Table 3, seat East"
        assert p.where_now("Chen", None, 2) == "Chen → sits out session 2"
        assert [p.clock_time(n) for n in (0, 5, 65, 3600, 3725)] == ["0:00", "0:05", "1:05", "1:00:00", "1:02:05"]
    with translation.override("zh-hant"):
        assert p.session_table(2, "Table 1") == "第2輪 · 第1桌"
        assert p.seat_name(0, 4) != "seat East"
    with translation.override("zh-hans"):
        assert p.session_table(2, "Table 1") == "第2轮 · 第1桌"


# --- a closed session's scorer page ------------------------------------------------------------

def test_the_closed_scorer_page_says_where_each_player_sits_now(client, eight):
    s = eight
    seated = seat_next(s)
    response = client.get(f"/s/{s.token}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "This table&#x27;s session has ended" in page or "This table's session has ended" in page
    assert 'name="action" value="submit"' not in page   # no deal form
    lines = expected_lines(seated)
    for name in s.names:
        assert lines[name] in text(response)
    # The draft script reads this table's drafts, read-only.
    assert f'data-draft-readonly data-draft-scope="{s.tournament.pk}:{s.table.pk}"' in page
    assert 'id="unsent-draft" hidden' in page
    assert 'class="proven"' not in page   # the hook: no proven player yet


def test_the_closed_page_in_chinese(client, eight):
    seat_next(eight)
    page = client.get(f"/s/{eight.token}/", **HANT).content.decode()
    assert "第2輪 · 第1桌" in page or "第2輪 · 第2桌" in page
    assert "第1輪 · 第1桌" in page


def test_a_deal_sent_to_a_closed_session_is_refused_with_409(client, jie_long):
    s = jie_long
    session_close(actor=s.director_actor, session=s.table.session)
    data = {"level": "points", "leader": "0", "entered_by": "1", "idem_key": "k", "action": "submit", "number": "1",
            "points_0": "2", "points_1": "12", "points_2": "34", "points_3": "18"}
    response = client.post(f"/s/{s.token}/", data, HTTP_ACCEPT="application/json")
    assert response.status_code == 409
    assert response.json()["status"] == "session_closed" and response.json()["code"] == "session_closed"
    assert Round.objects.count() == 0
    # Without JavaScript: back to the page, the deal shown as sent, not recorded.
    response = client.post(f"/s/{s.token}/", data)
    assert response.status_code == 302
    page = client.get(response["Location"].split("#")[0]).content.decode()
    assert "This link records no more deals." in page
    assert '<section id="unsent-draft" aria-labelledby' in page   # shown, not hidden
    assert 'value="34"' in page
    assert Round.objects.count() == 0


def test_a_closed_sessions_moves_are_not_offered_to_its_scorer(client, jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    session_close(actor=s.director_actor, session=s.table.session)
    page = client.get(f"/s/{s.token}/").content.decode()
    assert f"/deals/{rnd.pk}/confirm/" not in page and f"/deals/{rnd.pk}/correct/" not in page
    refused = client.post(f"/s/{s.token}/deals/{rnd.pk}/confirm/", {"confirmed_by": "2"})
    assert refused.status_code == 409
    correct = client.get(f"/s/{s.token}/deals/{rnd.pk}/correct/")
    assert "This table&#x27;s session has ended" in correct.content.decode()


# --- the director -------------------------------------------------------------------------------

def test_the_director_closes_reopens_and_clocks_a_session(dclient, jie_long):
    s = jie_long
    sid = s.table.session_id
    assert dclient.post(f"/director/sessions/{sid}/close/").status_code == 302
    assert Session.objects.get(pk=sid).status == "closed"
    again = dclient.post(f"/director/sessions/{sid}/close/", follow=True)
    assert "This session is already closed." in again.content.decode()
    refused = dclient.post(f"/director/sessions/{sid}/clock/", {"minutes": "20"}, follow=True)
    assert "reopen it to start its clock" in refused.content.decode()
    assert dclient.post(f"/director/sessions/{sid}/reopen/").status_code == 302
    assert Session.objects.get(pk=sid).status == "open"
    page = dclient.post(f"/director/sessions/{sid}/clock/", {"minutes": "20"}, follow=True).content.decode()
    assert "data-clock" in page and "Time left: 2" in page
    assert Session.objects.get(pk=sid).clock_ends_at is not None
    wrong = dclient.post(f"/director/sessions/{sid}/clock/", {"minutes": "²"}, follow=True).content.decode()
    assert "minutes is a whole number of minutes" in wrong
    assert dclient.post(f"/director/sessions/{sid}/clock/stop/").status_code == 302
    assert Session.objects.get(pk=sid).clock_ends_at is None


def test_another_clubs_director_gets_404(client, jie_long, other_director):
    client.force_login(other_director)
    assert client.post(f"/director/sessions/{jie_long.table.session_id}/close/").status_code == 404
    assert client.get(f"/director/tables/{jie_long.table.pk}/deals/new/").status_code == 404


def test_seating_on_the_page_closes_and_says_so_or_keeps_open(dclient, jie_long):
    t = jie_long.tournament
    form = {"method": "random", "table_size": "4", "leftovers": "sit_out", "seed": "1"}
    page = dclient.get(f"/director/tournaments/{t.pk}/").content.decode()
    assert 'name="keep_open"' in page
    first = dclient.post(f"/director/tournaments/{t.pk}/sessions/new/", {**form, "next_session": "2"}, follow=True)
    assert "Session 1 is closed: its scorer links record no more deals" in first.content.decode()
    second = dclient.post(f"/director/tournaments/{t.pk}/sessions/new/", {**form, "next_session": "3",
                                                                          "keep_open": "on"}, follow=True)
    assert second.status_code == 200 and "is closed: its scorer links" not in second.content.decode()
    assert dict(Session.objects.values_list("number", "status")) == {1: "closed", 2: "open", 3: "open"}


def test_the_sheet_has_a_line_per_player_for_the_wall(dclient, eight):
    s = eight
    form = {"method": "random", "table_size": "4", "leftovers": "sit_out", "seed": "7", "next_session": "2"}
    response = dclient.post(f"/director/tournaments/{s.tournament.pk}/sessions/new/", form, follow=True)
    page = response.content.decode()
    assert 'id="print-wall"' in page and 'id="wall-list"' in page
    wall = text(response).split("where to sit", 1)[1]
    names = ["Anna", "Bob", "Celine", "Dominic", "Eve", "Fay", "Gil", "Hal"]
    positions = [wall.index(f"{n} → Session 2 · Table ") for n in names]
    assert positions == sorted(positions)   # by name
    assert re.search(r"Anna → Session 2 · Table [12], seat (East|South|West|North)", wall)
    assert "<h2>Session 2 · Table 1</h2>" in page
    # ... and the sheet with new links too.
    reprint = dclient.post(f"/director/tournaments/{s.tournament.pk}/sessions/2/sheet/", follow=True)
    assert "Hal → Session 2 · Table " in text(reprint) and 'id="print-wall"' in reprint.content.decode()


def test_the_director_records_a_late_deal(dclient, client, jie_long):
    s = jie_long
    session_close(actor=s.director_actor, session=s.table.session)
    table_page = dclient.get(f"/director/tables/{s.table.pk}/").content.decode()
    assert f"/director/tables/{s.table.pk}/deals/new/" in table_page and "Record a late deal" in table_page
    form = dclient.get(f"/director/tables/{s.table.pk}/deals/new/").content.decode()
    assert 'name="number" value="1"' in form and "recorded as a late deal" in form
    data = {"level": "points", "leader": "0", "number": "1",
            "points_0": "2", "points_1": "12", "points_2": "34", "points_3": "18"}
    preview = dclient.post(f"/director/tables/{s.table.pk}/deals/new/", {**data, "action": "preview"})
    assert preview.status_code == 200 and Round.objects.count() == 0
    saved = dclient.post(f"/director/tables/{s.table.pk}/deals/new/", {**data, "action": "save"})
    assert saved.status_code == 302 and saved["Location"].endswith("#deal-1")
    rnd = Round.objects.get()
    assert rnd.late and not rnd.after_time
    twice = dclient.post(f"/director/tables/{s.table.pk}/deals/new/", {**data, "action": "save"})
    assert twice.status_code == 409 and Round.objects.count() == 1
    assert 'class="badge late"' in dclient.get(f"/director/tables/{s.table.pk}/").content.decode()
    public = client.get(f"/t/{s.tournament.slug}/tables/{s.table.pk}/").content.decode()
    assert 'class="badge late"' in public and "This session has ended." in public


def test_after_time_is_shown_to_the_director(dclient, jie_long):
    s = jie_long
    Session.objects.filter(pk=s.table.session_id).update(clock_started_at=timezone.now() - timedelta(hours=1),
                                                         clock_ends_at=timezone.now() - timedelta(seconds=1))
    s.table.refresh_from_db()
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    assert 'class="badge after-time"' in dclient.get(f"/director/tables/{s.table.pk}/").content.decode()


def test_the_dashboard_lists_the_tables_still_playing_when_time_is_up(dclient, jie_long, director_actor, club):
    s = jie_long
    t = s.tournament
    entries = [entry_create(actor=director_actor, tournament=t, player=player_create(actor=director_actor, club=club,
                                                                                   name=f"Q{i}")) for i in range(4)]
    other, _token = table_create(actor=director_actor, tournament=t, name="Table 2", entries=entries)
    session_clock_start(actor=director_actor, session=s.table.session, minutes=60)
    live = f"/director/tournaments/{t.pk}/live/"
    before = dclient.get(live)
    assert "still playing" not in before.content.decode()
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)   # before the end: still playing after it
    Session.objects.filter(pk=s.table.session_id).update(clock_started_at=timezone.now() - timedelta(hours=1),
                                                         clock_ends_at=timezone.now() - timedelta(seconds=1))
    # Time is up: the live part is new (its version counts the clocks that ran out).
    after = dclient.get(live, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    s.table.refresh_from_db()
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)   # table 1 finished its deal after time
    page = text(dclient.get(f"/director/tournaments/{t.pk}/"))
    playing = page.split("still playing (no deal since):", 1)[1][:40]
    assert "Table 2" in playing and "Table 1" not in playing
    assert other.pk


def test_the_live_pages_change_when_a_session_does(client, dclient, jie_long):
    s = jie_long
    table_live = f"/t/{s.tournament.slug}/tables/{s.table.pk}/live/"
    first = client.get(table_live)
    assert client.get(table_live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    session_clock_start(actor=s.director_actor, session=s.table.session, minutes=10)
    changed = client.get(table_live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and "data-clock" in changed.content.decode()
    board = f"/director/tournaments/{s.tournament.pk}/live/"
    tag = dclient.get(board)["ETag"]
    session_close(actor=s.director_actor, session=s.table.session)
    assert dclient.get(board, HTTP_IF_NONE_MATCH=tag).status_code == 200


# --- the clock on the pages -----------------------------------------------------------------------

def test_the_pages_carry_the_end_and_the_servers_time(client, jie_long):
    s = jie_long
    session = session_clock_start(actor=s.director_actor, session=s.table.session, minutes=15)
    page = client.get(f"/s/{s.token}/").content.decode()
    ends = re.search(r'data-ends-at="([^"]+)"', page).group(1)
    # the clock's own (the <html> carries the server's time too, in ms, for the outbox)
    now = re.search(r'data-clock[^>]*data-server-now="([^"]+)"', page).group(1)
    assert ends == session.clock_ends_at.isoformat(timespec="milliseconds") and ends.endswith("+00:00")
    assert now.endswith("+00:00") and now < ends
    assert "Time left: 1" in page
    assert 'data-time-src="/time/"' in page
    assert "data-clock" in client.get(f"/t/{s.tournament.slug}/tables/{s.table.pk}/").content.decode()
    assert "data-clock" in client.get(f"/t/{s.tournament.slug}/").content.decode()


def test_the_servers_time(client):
    response = client.get("/time/")
    assert response.status_code == 200 and "no-cache" in response["Cache-Control"]
    from datetime import datetime

    said = datetime.fromisoformat(response.json()["now"])
    assert abs((said - timezone.now()).total_seconds()) < 5


# --- where to next ----------------------------------------------------------------------------------

def test_a_players_page_says_where_they_sit_now(client, eight):
    s = eight
    anna = s.entries[0]
    page = text(client.get(f"/t/{s.tournament.slug}/players/{anna.player_id}/"))
    assert "Anna → Session 1 · Table 1, seat East" in page
    seated = seat_next(s)
    assert expected_lines(seated)["Anna"] in text(client.get(f"/t/{s.tournament.slug}/players/{anna.player_id}/"))
    hant = client.get(f"/t/{s.tournament.slug}/players/{anna.player_id}/", **HANT).content.decode()
    assert "Anna → 第2輪 · 第" in hant
