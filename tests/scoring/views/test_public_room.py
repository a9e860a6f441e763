"""The room display (``/t/<slug>/room/``, scoring/views/public_room.py): seen as the public pages
are, and by the club's directors for a private tournament; where everybody sits by name; the
clock's warning and its end; the live parts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.models import Session
from scoring.services.rounds import round_record
from scoring.services.sessions import session_clock_start, session_clock_stop
from scoring.services.tournaments import tournament_update
from scoring.web import links

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


def room(t) -> str:
    return f"/t/{t.slug}/room/"


def test_the_public_sees_a_public_tournaments_room_display(jie_long, client):
    r = client.get(room(jie_long.tournament))
    assert r.status_code == 200
    html = r.content.decode()
    assert "Session 1 · where to sit" in html
    assert f'data-live-src="/t/{jie_long.tournament.slug}/room/live/"' in html
    assert f'data-live-events="/api/v1/tournaments/{jie_long.tournament.pk}/events/"' in html
    # the QR code of the players' check-in page, in the corner
    assert links.qr_svg(f"http://testserver/t/{jie_long.tournament.slug}/check-in/", scale=4) in html


def test_no_check_in_qr_once_the_tournament_is_finished_or_private(jie_long, client, director):
    t = jie_long.tournament
    tournament_update(actor=jie_long.director_actor, tournament=t, public=False)
    client.force_login(director)
    page = client.get(room(t)).content.decode()
    assert "data-check-in-qr" not in page and "<svg" not in page   # its check-in page would be 404


def test_a_private_tournament_is_404_for_the_public_and_shown_to_its_director(
        jie_long, client, director, other_director):
    t = jie_long.tournament
    tournament_update(actor=jie_long.director_actor, tournament=t, public=False)
    assert client.get(room(t)).status_code == 404
    assert client.get(room(t) + "live/").status_code == 404
    client.force_login(other_director)       # a director of another club: as the public
    assert client.get(room(t)).status_code == 404
    client.force_login(director)
    page = client.get(room(t))
    assert page.status_code == 200
    assert f"/t/{t.slug}/</span>" not in page.content.decode()   # no address of a page nobody else sees
    assert client.get(room(t) + "live/").status_code == 200


def test_a_draft_is_404_for_the_public_as_its_public_page(make_setup, client, director):
    t = make_setup("jie_long", start=False).tournament
    assert client.get(f"/t/{t.slug}/").status_code == 404
    assert client.get(room(t)).status_code == 404
    client.force_login(director)
    assert client.get(room(t)).status_code == 200


def test_an_unknown_slug_is_404(db, client):
    assert client.get("/t/nothing-here/room/").status_code == 404


def test_everybody_is_listed_by_name_with_table_and_seat(make_setup, client):
    s = make_setup("jie_long", names=["dora", "Bob", "anna", "Carl"])
    html = client.get(room(s.tournament)).content.decode()
    seats = html[html.index("room-seat-list"):html.index("</ol>", html.index("room-seat-list"))]
    order = [seats.index(f'"room-name">{n}<') for n in ("anna", "Bob", "Carl", "dora")]
    assert order == sorted(order)
    assert '"room-name">Bob</span> <span class="room-where">Table 1 · seat 2</span>' in seats


def test_the_latest_deals_and_the_top_rows(jie_long, client):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    html = client.get(room(jie_long.tournament)).content.decode()
    assert "Session 1 · Table 1 · Deal 1" in html
    assert 'Anna <b class="plus">+58</b>' in html
    assert '<td class="room-name">Anna</td><td class="num net plus">58</td>' in html


def _clock(s, left: timedelta):
    """The session's clock set to end ``left`` from now (negative: run out)."""
    now = timezone.now()
    Session.objects.filter(pk=s.table.session_id).update(clock_started_at=now - timedelta(hours=2),
                                                         clock_ends_at=now + left)


def test_the_clock_warns_at_five_minutes_and_says_when_time_is_up(jie_long, client):
    session_clock_start(actor=jie_long.director_actor, session=jie_long.table.session, minutes=60)
    html = client.get(room(jie_long.tournament)).content.decode()
    assert 'data-warn-at="300" data-text-warn="5 minutes left"' in html
    assert 'data-clock-alert role="alert" hidden>' in html
    _clock(jie_long, timedelta(minutes=4))
    html = client.get(room(jie_long.tournament)).content.decode()
    assert 'role="alert">5 minutes left</strong>' in html and "warn" in html
    _clock(jie_long, -timedelta(seconds=1))
    html = client.get(room(jie_long.tournament)).content.decode()
    assert 'role="alert">Time is up</strong>' in html


def test_the_scorer_page_warns_too(jie_long, client):
    _clock(jie_long, timedelta(minutes=4))
    html = client.get(f"/s/{jie_long.token}/").content.decode()
    assert 'role="alert">5 minutes left</strong>' in html
    _clock(jie_long, -timedelta(seconds=1))
    assert 'role="alert">Time is up</strong>' in client.get(f"/s/{jie_long.token}/").content.decode()


def test_the_live_parts_change_with_a_clock_started_or_stopped(jie_long, client):
    live = room(jie_long.tournament) + "live/"
    first = client.get(live)
    assert first.status_code == 200 and 'data-live-part="room-clock"' in first.content.decode()
    tag = first["ETag"]
    assert client.get(live, HTTP_IF_NONE_MATCH=tag).status_code == 304
    session_clock_start(actor=jie_long.director_actor, session=jie_long.table.session, minutes=30)
    started = client.get(live, HTTP_IF_NONE_MATCH=tag)
    assert started.status_code == 200 and "data-clock" in started.content.decode()
    session_clock_stop(actor=jie_long.director_actor, session=jie_long.table.session)
    stopped = client.get(live, HTTP_IF_NONE_MATCH=started["ETag"])
    assert stopped.status_code == 200 and "data-clock" not in stopped.content.decode()


def test_the_directors_console_links_to_it(jie_long, client, director):
    client.force_login(director)
    html = client.get(f"/director/tournaments/{jie_long.tournament.pk}/").content.decode()
    assert f'href="/t/{jie_long.tournament.slug}/room/"' in html


def test_the_room_display_in_chinese(jie_long, client):
    session_clock_start(actor=jie_long.director_actor, session=jie_long.table.session, minutes=4)
    html = client.get(room(jie_long.tournament), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "第 1 轮 · 座位安排" in html and "Table 1 · 2 号座" in html and "还剩 5 分钟" in html
    assert "剩余时间" in html and "最新牌局" in html
    html = client.get(room(jie_long.tournament), HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "第 1 輪 · 座位安排" in html and "還剩 5 分鐘" in html


def test_the_top_eight_rows_and_a_page_of_seats_every_8_seconds(make_setup, client):
    """As docs/director-guide.md#the-room-display and docs/features/public-pages.md say."""
    s = make_setup("jie_long", names=[f"P{i:02d}" for i in range(4)])
    from scoring.services.clubs import player_create
    from scoring.services.tables import table_create
    from scoring.services.tournaments import entry_create

    actor, t = s.director_actor, s.tournament
    entries = [entry_create(actor=actor, tournament=t, player=player_create(actor=actor, club=t.club, name=f"Q{i}"))
               for i in range(8)]
    table_create(actor=actor, tournament=t, name="Table 2", entries=entries[:4])
    table_create(actor=actor, tournament=t, name="Table 3", entries=entries[4:])
    html = client.get(room(t)).content.decode()
    standings = html[html.index('class="room-table"'):html.index("</table>", html.index('class="room-table"'))]
    assert standings.count("<tr data-entry=") == 8
    assert html.count('<span class="room-where">') == 12   # every seated player
    assert 'data-room-every="8000"' in html
