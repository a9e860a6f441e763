"""The director's "Seat the next session" form and the printable sheet it leads to: every table's
seats, link and QR code (never cached, not in the cookies; shown again while the session is open,
a page of tables at a time), a form sent twice seats once, and refusals shown at their fields."""

from __future__ import annotations

import re

import pytest
from django.contrib.sessions.models import Session as SessionRow

from scoring.models import Session, Table
from scoring.selectors.tables import table_by_scorer_token, table_seats
from scoring.services.clubs import player_create
from scoring.services.tournaments import entry_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def add_players(setup, names):
    for name in names:
        player = player_create(actor=setup.director_actor, club=setup.tournament.club, name=name)
        entry_create(actor=setup.director_actor, tournament=setup.tournament, player=player)


def test_the_sheet_links_to_site_url_whatever_host_the_request_named(settings, dclient, make_setup):
    """With SITE_URL (``make club``), a request with another Host still prints links and QR codes
    that phones open at SITE_URL."""
    settings.SITE_URL = "http://192.168.1.20:8000"
    settings.ALLOWED_HOSTS = ["*"]
    s = make_setup("jie_long")
    add_players(s, ["Eve", "Frank", "Grace", "Heidi"])
    response = dclient.post(f"/director/tournaments/{s.tournament.pk}/sessions/new/",
                            {"method": "random", "table_size": "4", "leftovers": "sit_out", "seed": "7",
                             "next_session": "2"}, HTTP_HOST="evil.example", follow=True)
    page = response.content.decode()
    found = re.findall(r'href="(http://192\.168\.1\.20:8000/s/[^"/]+/)"', page)
    assert len(found) == 2 and page.count("<svg") == 2 and "evil.example/s/" not in page
    assert 'id="loopback-warning"' not in page


def test_the_form_offers_what_the_game_allows(dclient, make_setup):
    dn = make_setup("ding_niu")
    page = dclient.get(f"/director/tournaments/{dn.tournament.pk}/").content.decode()
    form = page[page.index('id="seat-session"'):]
    form = form[:form.index("</form>")]
    assert re.findall(r'<option value="(\d)"', form) == ["4"]
    assert "smaller_tables" not in form and 'name="next_session" value="2"' in form   # session 1 has Table 1
    assert "Seat session 2" in form
    tn = make_setup("tau_ngau", variant={"settlement": "v1"})
    page = dclient.get(f"/director/tournaments/{tn.tournament.pk}/").content.decode()
    form = page[page.index('id="seat-session"'):]
    assert re.findall(r'<option value="(\d)"', form[:form.index("</form>")]) == ["3", "4", "5", "6"]
    assert 'value="smaller_tables"' in form


def test_seating_shows_the_sheet_of_links_and_it_opens_again(client, dclient, make_setup):
    s = make_setup("jie_long")
    add_players(s, ["Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy"])
    url = f"/director/tournaments/{s.tournament.pk}/sessions/new/"
    response = dclient.post(url, {"method": "balanced", "table_size": "4", "leftovers": "smaller_tables",
                                  "seed": "42", "next_session": "2"})
    sheet_url = f"/director/tournaments/{s.tournament.pk}/sessions/2/sheet/"
    assert response.status_code == 302 and response["Location"] == sheet_url   # a reload seats nothing
    response = dclient.get(sheet_url)
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    page = response.content.decode()
    session = Session.objects.get(tournament=s.tournament, number=2)
    tables = list(Table.objects.filter(session=session).order_by("pk"))
    assert [t.name for t in tables] == ["Table 1", "Table 2", "Table 3"]
    found = re.findall(r'href="(http://testserver/s/([^"/]+)/)"', page)
    assert len(found) == 3 and page.count("<svg") == 3
    for table, (link, token) in zip(tables, found):
        assert table_by_scorer_token(token) == table
        assert client.get(link).status_code == 200          # the link opens its table's scorer page
        for seat in table_seats(table):
            assert seat.entry.player.name in page
    assert "Session 2 is seated: 3 tables." in page and "seed <code>42</code>" in page
    # the tokens are not in the session nor in the cookies
    kept = " ".join([f"{row.session_data} {row.get_decoded()!r}" for row in SessionRow.objects.all()]
                    + [m.value for m in dclient.cookies.values()])
    assert all(token not in kept for _, token in found)
    # opened again (from the console's "Links sheet"): the same links
    dashboard = dclient.get(f"/director/tournaments/{s.tournament.pk}/?session=2").content.decode()
    assert f'id="links-sheet" href="{sheet_url}"' in dashboard and all(token not in dashboard for _, token in found)
    again = dclient.get(sheet_url).content.decode()
    assert re.findall(r'href="(http://testserver/s/([^"/]+)/)"', again) == found
    assert "Session 2 is seated" not in again
    # the address of the form's answer, opened again, leads back to the form
    again = dclient.get(url)
    assert again.status_code == 302 and again["Location"].endswith("#seat-session")


def test_a_form_sent_twice_seats_once_and_says_so(dclient, make_setup):
    s = make_setup("ding_niu")
    url = f"/director/tournaments/{s.tournament.pk}/sessions/new/"
    form = {"method": "random", "table_size": "4", "leftovers": "sit_out", "next_session": "2"}
    assert dclient.post(url, form).status_code == 302
    response = dclient.post(url, form)
    assert response.status_code == 409
    assert "Session 2 is already seated (was the form sent twice?)" in response.content.decode()
    assert Session.objects.filter(tournament=s.tournament).count() == 2


@pytest.mark.parametrize("form, field, message", [
    ({"table_size": "3"}, "table_size", "Ding Niu"),
    ({"leftovers": "smaller_tables"}, "leftovers", "exactly 4"),
    ({"method": "secret"}, "method", "method is one of"),
])
def test_refusals_are_shown_at_their_fields(dclient, make_setup, form, field, message):
    s = make_setup("ding_niu")
    response = dclient.post(f"/director/tournaments/{s.tournament.pk}/sessions/new/",
                            {"method": "random", "table_size": "4", "leftovers": "sit_out", **form})
    assert response.status_code == 400
    page = response.content.decode()
    assert f'has-error"><label for="seat-{field.replace("_", "-")}"' in page and message in page
    assert Session.objects.filter(tournament=s.tournament).count() == 1


def test_another_clubs_director_gets_404(client, make_setup, other_director):
    s = make_setup("ding_niu")
    client.force_login(other_director)
    response = client.post(f"/director/tournaments/{s.tournament.pk}/sessions/new/",
                           {"method": "random", "table_size": "4", "leftovers": "sit_out"})
    assert response.status_code == 404
    assert Session.objects.filter(tournament=s.tournament).count() == 1
