"""A session's paper score sheets on the director's pages: one PDF, a page per table, each with
its table's scorer link as a QR code (decoded from the page as poppler draws it) and its name and
players; directors of the club only, never cached; a closed session's sheets carry no link."""

from __future__ import annotations

import pytest

from scoring.selectors.seating import session_sheet_tables
from scoring.services.seating import session_seat
from scoring.services.sessions import session_close
from tests.scoring.web.test_paper_sheets import needs_poppler, page_images, pdf_text, qr_texts

from ..bulk import bulk_entries

pytestmark = pytest.mark.django_db


def seated(make_setup, game="jie_long", players=12):
    s = make_setup(game)
    bulk_entries(s.tournament, players)
    done = session_seat(actor=s.director_actor, tournament=s.tournament, method="random", table_size=4,
                        leftovers="sit_out")
    return s, done.session


@needs_poppler
def test_the_director_downloads_every_tables_sheet_with_its_link(client, make_setup, tmp_path):
    s, session = seated(make_setup)
    client.force_login(s.director)
    sheet = client.get(f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/sheet/").content.decode()
    url = f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/sheets.pdf"
    assert f'href="{url}"' in sheet
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "no-store"
    assert response["Content-Disposition"].startswith("attachment;")
    rows = session_sheet_tables(session)
    images = page_images(response.content, tmp_path)
    assert len(images) == len(rows) == 4
    for n, (row, image) in enumerate(zip(rows, images), start=1):
        assert qr_texts(image) == [f"http://testserver/s/{row.token}/"]
        text = pdf_text(response.content, tmp_path, page=n)
        assert row.table.name in text
        for entry in row.entries:
            assert entry.player.name in text


def test_only_the_clubs_directors_get_the_sheets(client, make_setup, other_director):
    s, session = seated(make_setup, players=4)
    url = f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/sheets.pdf"
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    client.force_login(other_director)
    assert client.get(url).status_code == 404
    client.force_login(s.director)
    assert client.get(f"/director/tournaments/{s.tournament.pk}/sessions/9/sheets.pdf").status_code == 404
    assert client.post(url).status_code == 405


@needs_poppler
def test_a_closed_sessions_sheets_carry_no_link(client, make_setup, tmp_path):
    s, session = seated(make_setup, players=8)
    session_close(actor=s.director_actor, session=session)
    client.force_login(s.director)
    response = client.get(f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/sheets.pdf")
    assert response.status_code == 200
    assert [qr_texts(i) for i in page_images(response.content, tmp_path)] == [[], [], []]
    assert "No scorer link shown" in pdf_text(response.content, tmp_path)


@needs_poppler
def test_the_sheets_speak_the_directors_language(client, make_setup, tmp_path):
    s, session = seated(make_setup, game="tau_ngau", players=4)
    client.force_login(s.director)
    response = client.get(f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/sheets.pdf",
                          HTTP_ACCEPT_LANGUAGE="zh-Hant")
    text = pdf_text(response.content, tmp_path)
    assert "第1桌" in text and "鬥牛" in text and "莊家" in text
