"""The tournament report on the director's pages: the page with its figures, linked from the
tournament's page; the same as a PDF (an attachment, read back with pdftotext); directors of
the club only."""

from __future__ import annotations

import pytest

from scoring.selectors.standings import standings_for
from scoring.services.rounds import round_correct, round_dispute, round_record, round_void
from tests.scoring.web.test_paper_sheets import needs_poppler, pdf_text

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


def played(s):
    deals = [round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG) for _ in range(3)]
    round_correct(actor=s.director_actor, round=deals[0], body={"leader": 1, "points": [34, 2, 12, 18]},
                  reason="wrong leader", expected_revision=1)
    round_void(actor=s.director_actor, round=deals[1], reason="misdeal")
    round_dispute(actor=s.scorer_actor, round=deals[2], message="check the points")


def test_the_director_sees_the_report_with_its_figures(client, jie_long):
    s = jie_long
    played(s)
    client.force_login(s.director)
    url = f"/director/tournaments/{s.tournament.pk}/report/"
    assert f'href="{url}"' in client.get(f"/director/tournaments/{s.tournament.pk}/").content.decode()
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert s.tournament.name in page
    assert "Deals: 3 recorded, 2 counted; corrections: 1; disputes: 1; voided: 1." in page
    assert "Zero-sum check: players 0 + house 0 = 0 (holds)" in page
    assert "Never audited." in page
    for name in s.names:
        assert name in page
    assert f'href="/director/tournaments/{s.tournament.pk}/report.pdf"' in page


def test_only_the_clubs_directors_get_the_report(client, jie_long, other_director):
    s = jie_long
    for url in (f"/director/tournaments/{s.tournament.pk}/report/",
                f"/director/tournaments/{s.tournament.pk}/report.pdf"):
        anonymous = client.get(url)
        assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
        client.force_login(other_director)
        assert client.get(url).status_code == 404
        client.logout()
    client.force_login(s.director)
    assert client.get("/director/tournaments/999999/report/").status_code == 404


@needs_poppler
def test_the_pdf_names_the_tournament_and_its_top_player(client, jie_long, tmp_path):
    s = jie_long
    played(s)
    client.force_login(s.director)
    response = client.get(f"/director/tournaments/{s.tournament.pk}/report.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["Cache-Control"] == "no-store"
    text = pdf_text(response.content, tmp_path)
    assert s.tournament.name in text
    top = standings_for(s.tournament)[0]["name"]
    assert top == "Bob"   # the corrected deal made Bob the leader
    assert top in text.split(s.tournament.name, 1)[1].split("Payouts")[0]
    assert "holds" in text


@needs_poppler
def test_the_pdf_speaks_the_directors_language(client, jie_long, tmp_path):
    s = jie_long
    played(s)
    client.force_login(s.director)
    response = client.get(f"/director/tournaments/{s.tournament.pk}/report.pdf", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    text = pdf_text(response.content, tmp_path)
    assert s.tournament.name in text and "Anna" in text
    assert "名次" in text and "积分榜" in text and "零和检查" in text
