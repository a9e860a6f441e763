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


def _rated(s):
    from scoring.services.ratings import ratings_follow

    for _ in range(2):
        round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    ratings_follow(club=s.tournament.club)
    from scoring.selectors.rating_pages import tournament_rating_changes
    return {r["player"]["name"]: r for r in tournament_rating_changes(s.tournament)}


def test_the_report_shows_each_players_rating_before_and_after(client, make_setup):
    earlier = make_setup("jie_long")
    _rated(earlier)                      # the players come to the second tournament rated already
    s = make_setup("jie_long")
    rows = _rated(s)
    client.force_login(s.director)
    page = client.get(f"/director/tournaments/{s.tournament.pk}/report/").content.decode()
    section = page.split('id="report-ratings"', 1)[1].split("</section>", 1)[0]
    anna, celine = rows["Anna"], rows["Celine"]
    assert anna["before"] > 1000 and anna["change"] > 0 > celine["change"]
    assert (f"<td>Anna</td><td class=\"num\">{anna['before']}</td><td class=\"num\">{anna['after']}</td>"
            f"<td class=\"num plus\">+{anna['change']}</td>") in section
    assert f"<td class=\"num minus\">{celine['change']}</td>" in section
    assert section.index("Anna") < section.index("Celine")      # biggest gain first


def test_an_unrated_tournament_has_no_rating_changes(client, jie_long):
    from scoring.models import Tournament

    Tournament.objects.filter(pk=jie_long.tournament.pk).update(rated=False)
    _rated(jie_long)
    client.force_login(jie_long.director)
    page = client.get(f"/director/tournaments/{jie_long.tournament.pk}/report/").content.decode()
    assert 'id="report-ratings"' not in page and "Rating changes" not in page


@needs_poppler
def test_the_pdf_lists_the_rating_changes(client, jie_long, tmp_path):
    rows = _rated(jie_long)
    client.force_login(jie_long.director)
    text = pdf_text(client.get(f"/director/tournaments/{jie_long.tournament.pk}/report.pdf").content, tmp_path)
    part = text.split("Rating changes", 1)[1]
    for name, r in rows.items():
        assert name in part and str(r["after"]) in part and f"{r['change']:+d}" in part
    assert str(rows["Anna"]["before"]) == "1000" and "1000" in part


@needs_poppler
def test_the_report_lists_the_adjustments_and_their_total(client, jie_long, tmp_path):
    from scoring.services.adjustments import adjustment_create

    s = jie_long
    played(s)
    adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[0], amount=-20,
                      reason="late arrival")
    client.force_login(s.director)
    page = client.get(f"/director/tournaments/{s.tournament.pk}/report/").content.decode()
    assert "Zero-sum check: players 0 + house 0 = 0 (holds)" in page
    assert "Adjustments total -20" in page and "late arrival" in page
    text = pdf_text(client.get(f"/director/tournaments/{s.tournament.pk}/report.pdf").content, tmp_path)
    assert "Adjustments total -20" in text and "late arrival" in text


@needs_poppler
def test_a_withdrawn_player_is_marked_on_the_report_its_pdf_and_the_public_standings(client, jie_long, tmp_path):
    from scoring.services.roster import entry_withdraw

    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    entry_withdraw(actor=s.director_actor, entry=s.entries[1])
    public = client.get(f"/t/{s.tournament.slug}/").content.decode()
    assert public.count('<span class="badge withdrawn">withdrawn</span>') == 1
    row = [r for r in public.split("<tr") if ">Bob</a>" in r][0]
    assert "withdrawn" in row
    client.force_login(s.director)
    page = client.get(f"/director/tournaments/{s.tournament.pk}/report/").content.decode()
    assert "<td>Bob <span class=\"badge withdrawn\">withdrawn</span></td>" in page
    pdf = client.get(f"/director/tournaments/{s.tournament.pk}/report.pdf").content
    assert "Bob (withdrawn)" in pdf_text(pdf, tmp_path) and "Anna (withdrawn)" not in pdf_text(pdf, tmp_path)
