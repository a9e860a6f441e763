"""The check-in pages: the director's (open the next session for check-in, tick players in and
out, who is missing; the console says it too; the seating form seats the checked-in only), the
room's QR sheet, and the players' page ``/t/<slug>/check-in/`` (a name and a personal code; a
wrong code changes nothing and says so at the field; counted like the scorer page's codes)."""

from __future__ import annotations

import re

import pytest

from scoring.models import Seat, SessionCheckIn
from scoring.services.checkins import session_open_ahead
from scoring.services.clubs import player_create
from scoring.services.players import entry_code_issue
from scoring.services.tournaments import entry_create, tournament_create, tournament_start
from scoring.web import links

pytestmark = pytest.mark.django_db

NAMES = ["Ah", "Bo", "Chi", "Di", "En"]


@pytest.fixture
def tournament(club, director_actor):
    t = tournament_create(actor=director_actor, club=club, name="Da Ling night", game="da_ling", public=True)
    for name in NAMES:
        entry_create(actor=director_actor, tournament=t, player=player_create(actor=director_actor, club=club,
                                                                              name=name))
    tournament_start(actor=director_actor, tournament=t)
    return t


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def entry(t, name):
    return t.entries.get(player__name=name)


def test_the_director_opens_check_in_and_ticks_players(dclient, tournament):
    url = f"/director/tournaments/{tournament.pk}/check-in/"
    page = dclient.get(url).content.decode()
    assert 'id="check-in-open"' in page and "Open session 1 for check-in" in page
    dclient.post(f"{url}open/")
    page = dclient.get(url).content.decode()
    assert "Session 1 is open for check-in" in page and "Missing (5)" in page
    ids = [entry(tournament, n).pk for n in NAMES]
    response = dclient.post(url, {"session": "1", "listed": ids, "entries": ids[:3]}, follow=True)
    assert "3 check-ins changed." in response.content.decode()
    assert set(SessionCheckIn.objects.values_list("entry_id", flat=True)) == set(ids[:3])
    assert set(SessionCheckIn.objects.values_list("how", flat=True)) == {"director"}
    page = dclient.get(url).content.decode()
    assert "Missing (2)" in page and re.search(r"Missing \(2\)</h2>\s*<p>Di, En</p>", page)
    dclient.post(url, {"session": "1", "listed": ids, "entries": ids[1:3]})   # Ah unticked
    assert set(SessionCheckIn.objects.values_list("entry_id", flat=True)) == set(ids[1:3])
    # a form drawn for another session changes nothing
    response = dclient.post(url, {"session": "2", "listed": ids, "entries": ids}, follow=True)
    assert "has changed since this page was drawn" in response.content.decode()
    assert SessionCheckIn.objects.count() == 2
    # the console says who is missing
    console = dclient.get(f"/director/tournaments/{tournament.pk}/").content.decode()
    assert re.search(r'id="check-in-missing">Missing \(3\): Ah, Di, En', console)
    assert 'value="checked_in" selected' in console


def test_the_seating_form_seats_the_checked_in_only(dclient, tournament, director_actor):
    session, _ = session_open_ahead(actor=director_actor, tournament=tournament)
    url = f"/director/tournaments/{tournament.pk}/sessions/new/"
    form = {"method": "random", "table_size": "4", "leftovers": "sit_out", "entries": "checked_in", "next_session": "1"}
    response = dclient.post(url, form)
    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r'id="seat-entries-errors"><p class="field-error" role="alert">Only 0 players are checked in '
                     r'for session 1: too few for a table.', page)
    ids = [entry(tournament, n).pk for n in NAMES]
    dclient.post(f"/director/tournaments/{tournament.pk}/check-in/", {"session": "1", "listed": ids,
                                                                      "entries": ids[:4]})
    response = dclient.post(url, form)
    assert response.status_code == 302 and response["Location"].endswith("/sessions/1/sheet/")
    assert set(Seat.objects.filter(table__session=session).values_list("entry_id", flat=True)) == set(ids[:4])


def test_the_director_pages_are_the_clubs_only(client, other_director, tournament):
    client.force_login(other_director)
    for url in ("check-in/", "check-in/sheet/"):
        assert client.get(f"/director/tournaments/{tournament.pk}/{url}").status_code == 404
    assert client.post(f"/director/tournaments/{tournament.pk}/check-in/open/").status_code == 404
    assert not tournament.sessions.exists()


def test_the_qr_sheet_links_to_the_players_page(dclient, tournament, settings):
    settings.SITE_URL = "http://192.168.1.20:8000"
    page = dclient.get(f"/director/tournaments/{tournament.pk}/check-in/sheet/").content.decode()
    url = f"http://192.168.1.20:8000/t/{tournament.slug}/check-in/"
    assert links.check_in_url(tournament) == url
    assert f"<code>{url}</code>" in page and "<svg" in page and 'id="loopback-warning"' not in page


def test_a_player_checks_in_with_their_code(client, tournament, director_actor):
    url = f"/t/{tournament.slug}/check-in/"
    assert 'id="check-in-closed"' in client.get(url).content.decode()
    session_open_ahead(actor=director_actor, tournament=tournament)
    ah = entry(tournament, "Ah")
    code = entry_code_issue(actor=director_actor, entry=ah)
    wrong = "0000" if code != "0000" else "1111"
    response = client.post(url, {"entry": str(ah.pk), "code": wrong})
    assert response.status_code == 403
    assert re.search(r'id="check-in-code-errors"><p class="field-error" role="alert">Wrong code for Ah\.',
                     response.content.decode())
    assert not SessionCheckIn.objects.exists()
    response = client.post(url, {"entry": str(ah.pk), "code": code})
    assert response.status_code == 200 and "Ah, you are checked in for session 1." in response.content.decode()
    row = SessionCheckIn.objects.get()
    assert (row.entry, row.how, row.by) == (ah, "self", None)
    assert "Ah (checked in)" in client.get(url).content.decode()


def test_the_players_page_refuses_what_it_should(client, tournament, director_actor, club):
    url = f"/t/{tournament.slug}/check-in/"
    session_open_ahead(actor=director_actor, tournament=tournament)
    bo = entry(tournament, "Bo")
    response = client.post(url, {"entry": str(bo.pk), "code": "1234"})   # no code yet
    assert response.status_code == 403 and "ask the director to check you in" in response.content.decode()
    response = client.post(url, {"entry": "²", "code": "1234"})
    assert response.status_code == 400 and 'id="check-in-entry-errors"' in response.content.decode()
    assert not SessionCheckIn.objects.exists()
    private = tournament_create(actor=director_actor, club=club, name="Private night", game="da_ling")
    assert client.get(f"/t/{private.slug}/check-in/").status_code == 404


def test_wrong_codes_are_limited_per_player(client, tournament, director_actor, settings):
    settings.RATE_LIMITS = {"player-code": "2/15m"}
    session_open_ahead(actor=director_actor, tournament=tournament)
    ah = entry(tournament, "Ah")
    code = entry_code_issue(actor=director_actor, entry=ah)
    wrong = "0000" if code != "0000" else "1111"
    url = f"/t/{tournament.slug}/check-in/"
    assert [client.post(url, {"entry": str(ah.pk), "code": wrong}).status_code for _ in range(2)] == [403, 403]
    response = client.post(url, {"entry": str(ah.pk), "code": code})   # the right one, past the allowance
    assert response.status_code == 429 and "Too many wrong codes for this player" in response.content.decode()
    assert not SessionCheckIn.objects.exists()


def test_query_budgets(client, dclient, tournament, director_actor, club, django_assert_max_num_queries):
    session_open_ahead(actor=director_actor, tournament=tournament)
    # the tournament, the check-in session, its check-ins, whether seated, the entries; the
    # visitor's session and user (the page's header)
    pages = [(client, f"/t/{tournament.slug}/check-in/", 7),
             (dclient, f"/director/tournaments/{tournament.pk}/check-in/", 10)]
    for c, url, budget in pages:
        with django_assert_max_num_queries(budget):
            assert c.get(url).status_code == 200
    for n in range(30):
        entry_create(actor=director_actor, tournament=tournament,
                     player=player_create(actor=director_actor, club=club, name=f"Late {n}"))
    for c, url, budget in pages:   # the same with six times the entries
        with django_assert_max_num_queries(budget):
            assert c.get(url).status_code == 200


def test_the_console_keeps_showing_the_session_being_played(dclient, tournament, director_actor):
    from scoring.services.seating import session_seat

    session_seat(actor=director_actor, tournament=tournament, method="random", table_size=5, leftovers="sit_out")
    session_open_ahead(actor=director_actor, tournament=tournament)   # session 2, no tables yet
    console = dclient.get(f"/director/tournaments/{tournament.pk}/")
    assert console.context["current"]["session"].number == 1
    asked = dclient.get(f"/director/tournaments/{tournament.pk}/?session=2")
    assert asked.context["current"]["session"].number == 2
