"""A session's sheet on the director's pages: the seating form sent twice (its key) seats once and
shows the same sheet; the sheet opened again shows the same links while the session is open and
none once it is closed; only the tournament's directors see it; a page of it is bounded."""

from __future__ import annotations

import re

import pytest

from scoring.models import ActionLog, IdempotencyKey, Seat, Session, Table
from scoring.services.seating import session_seat
from scoring.services.sessions import session_close

from ..bodies import JIE_LONG
from ..bulk import bulk_entries

pytestmark = pytest.mark.django_db

LINK = re.compile(r'href="(http://testserver/s/([^"/]+)/)"')


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def counts() -> tuple[int, ...]:
    return (Session.objects.count(), Table.objects.count(), Seat.objects.count(), ActionLog.objects.count(),
            IdempotencyKey.objects.count())


def drawn_form(dclient, tournament) -> dict:
    """The seating form as the console draws it (hidden fields included)."""
    page = dclient.get(f"/director/tournaments/{tournament.pk}/").content.decode()
    form = page[page.index('id="seat-session"'):]
    form = form[:form.index("</form>")]
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    assert len(hidden["idempotency_key"]) >= 20
    return {**hidden, "method": "random", "table_size": "4", "leftovers": "sit_out"}


def test_the_form_sent_twice_seats_once_and_shows_the_same_sheet(dclient, make_setup):
    s = make_setup("jie_long")
    bulk_entries(s.tournament, 8)
    form = drawn_form(dclient, s.tournament)
    url = f"/director/tournaments/{s.tournament.pk}/sessions/new/"
    first = dclient.post(url, form, follow=True)
    after = counts()
    again = dclient.post(url, form, follow=True)       # the answer was lost: sent again
    assert counts() == after and Session.objects.filter(tournament=s.tournament).count() == 2
    assert again.redirect_chain == first.redirect_chain
    assert "This form was sent already: session 2 was seated then" in again.content.decode()
    assert LINK.findall(again.content.decode()) == LINK.findall(first.content.decode())
    assert len(LINK.findall(first.content.decode())) == 3


def test_the_same_key_with_another_form_is_refused_at_the_form(dclient, make_setup):
    s = make_setup("jie_long")
    bulk_entries(s.tournament, 8)
    form = drawn_form(dclient, s.tournament)
    url = f"/director/tournaments/{s.tournament.pk}/sessions/new/"
    dclient.post(url, form)
    after = counts()
    refused = dclient.post(url, {**form, "method": "balanced", "next_session": "3"})
    page = refused.content.decode()
    assert refused.status_code == 422 and "already used with a different request" in page
    assert counts() == after
    assert form["idempotency_key"] not in page      # the form drawn again has a new key
    assert dclient.post(url, drawn_form(dclient, s.tournament)).status_code == 302   # a new form seats


def test_a_closed_sessions_sheet_shows_no_links_and_its_links_still_refuse_deals(dclient, client, make_setup):
    s = make_setup("jie_long")
    bulk_entries(s.tournament, 8)
    seated = session_seat(actor=s.director_actor, tournament=s.tournament, method="random", table_size=4,
                          leftovers="sit_out")
    sheet_url = f"/director/tournaments/{s.tournament.pk}/sessions/2/sheet/"
    assert len(LINK.findall(dclient.get(sheet_url).content.decode())) == 3
    session_close(actor=s.director_actor, session=seated.session)
    page = dclient.get(sheet_url).content.decode()
    assert not LINK.findall(page) and "<svg" not in page and 'id="sheet-closed"' in page
    assert all(token not in page for _, token in seated.tables) and 'id="new-links"' not in page
    assert all(e.player.name in page for entries in seated.seats.values() for e in entries)
    # New links for a closed session are refused: they would record nothing and not be kept.
    refused = dclient.post(sheet_url, follow=True).content.decode()
    assert "This session is closed" in refused and not LINK.findall(refused)
    # The old links, as before: their page opens, a deal is refused.
    table, token = seated.tables[0]
    r = client.post(f"/api/v1/tables/{table.pk}/rounds/", JIE_LONG, content_type="application/json",
                    HTTP_AUTHORIZATION=f"Scorer {token}")
    assert r.status_code == 409 and r.json()["errors"][0]["code"] == "session_closed"


def test_only_the_tournaments_directors_see_the_sheet(client, make_setup, other_director, django_user_model):
    s = make_setup("jie_long")
    url = f"/director/tournaments/{s.tournament.pk}/sessions/1/sheet/"
    before = Table.objects.get(pk=s.table.pk).scorer_token_hash
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    client.force_login(other_director)
    assert client.get(url).status_code == 404 and client.post(url).status_code == 404
    stranger = django_user_model.objects.create_user(username="mallory", password="mallory-secret-1")
    client.force_login(stranger)
    for response in (client.get(url), client.post(url)):
        assert response.status_code in (403, 404) and s.token not in response.content.decode()
    assert Table.objects.get(pk=s.table.pk).scorer_token_hash == before     # no new links made either
    client.force_login(s.director)
    assert s.token in client.get(url).content.decode()


def test_a_page_of_the_sheet_is_bounded(dclient, make_setup, monkeypatch):
    """Tables a page at a time, their QR codes drawn for that page only; the pages together show
    every table's link once."""
    from scoring.views.director import sessions as views

    monkeypatch.setattr(views, "SHEET_PAGE", 2)
    s = make_setup("jie_long")
    bulk_entries(s.tournament, 20)
    seated = session_seat(actor=s.director_actor, tournament=s.tournament, method="random", table_size=4,
                          leftovers="sit_out")
    url = f"/director/tournaments/{s.tournament.pk}/sessions/2/sheet/"
    shown = []
    for number, expected in ((1, 2), (2, 2), (3, 2), (4, 0)):
        page = dclient.get(f"{url}?page={number}").content.decode()
        if number == 4:   # past the last page: the last page
            assert LINK.findall(page) == shown[-2:] and 'rel="next"' not in page
            continue
        assert page.count("<svg") == expected and len(LINK.findall(page)) == expected
        shown += LINK.findall(page)
        assert f"{(number - 1) * 2 + 1}–{(number - 1) * 2 + expected} of 6" in page
    assert [token for _, token in shown] == [token for _, token in seated.tables]


def test_a_page_of_a_large_sheet_stays_small(dclient, make_setup):
    """120 tables: the first page draws 50 QR codes, whatever the session's size."""
    s = make_setup("jie_long")
    bulk_entries(s.tournament, 476)     # and the setup's 4: 120 tables
    session_seat(actor=s.director_actor, tournament=s.tournament, method="random", table_size=4, leftovers="sit_out")
    page = dclient.get(f"/director/tournaments/{s.tournament.pk}/sessions/2/sheet/").content.decode()
    assert page.count("<svg") == 50 and len(LINK.findall(page)) == 50
    assert "1–50 of 120" in page and len(page.encode()) < 400_000
