"""A session's paper score sheets on the director's pages: one PDF, a page per table, each with
its table's scorer link as a QR code (decoded from the page as poppler draws it) and its name and
players; directors of the club only, never cached; a closed session's sheets carry no link. A
handful of tables is drawn in the request; "Print paper sheets" has a worker draw any session in
the languages chosen, its box showing the progress, then the download."""

from __future__ import annotations

import pytest

from scoring.models import PaperSheetJob
from scoring.selectors.seating import session_sheet_tables, session_table_count
from scoring.services.seating import session_seat
from scoring.services.sessions import session_close
from scoring.views.director.paper_sheets import SYNC_MAX_TABLES
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
    assert not PaperSheetJob.objects.exists()   # drawn in the request, stored nowhere
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


# --- "Print paper sheets": a worker draws the session (Celery eager here) ---------------------

def _start(client, s, session, capture, *, run=True, **data):
    with capture(execute=run):
        return client.post(f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/paper-sheets/", data,
                           **({"HTTP_ACCEPT_LANGUAGE": data.pop("accept")} if "accept" in data else {}))


@needs_poppler
def test_the_director_prints_through_the_worker_and_downloads_the_pdf(client, make_setup, tmp_path,
                                                                     django_capture_on_commit_callbacks):
    s, session = seated(make_setup, players=8)
    client.force_login(s.director)
    sheet = f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/sheet/"
    page = client.get(sheet).content.decode()
    assert 'id="paper-sheets"' in page and 'name="languages" value="zh-hant"' in page
    response = _start(client, s, session, django_capture_on_commit_callbacks, languages=["en", "zh-hans"])
    assert response.status_code == 302 and response["Location"] == sheet + "#paper-sheets"
    job = PaperSheetJob.objects.get()
    assert (job.status, job.languages, job.base_url) == ("done", "en,zh-hans", "http://testserver")
    page = client.get(sheet).content.decode()
    download = f"/director/paper-sheets/{job.pk}/sheets.pdf"
    assert f'href="{download}"' in page and "Kept until" in page
    box = client.get(f"/director/paper-sheets/{job.pk}/box/")
    assert box["Cache-Control"] == "no-store" and f'href="{download}"' in box.content.decode()
    assert "data-poll" not in box.content.decode()   # over: the page stops asking
    response = client.get(download)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "no-store" and response["Content-Disposition"].startswith("attachment;")
    rows = session_sheet_tables(session)
    images = page_images(response.content, tmp_path)
    assert len(images) == 2 * len(rows) == 6
    assert qr_texts(images[2]) == qr_texts(images[3]) == [f"http://testserver/s/{rows[1].token}/"]


def test_the_box_polls_while_the_job_runs_and_shows_its_progress(client, make_setup,
                                                                 django_capture_on_commit_callbacks):
    s, session = seated(make_setup, players=8)
    client.force_login(s.director)
    _start(client, s, session, django_capture_on_commit_callbacks, run=False, languages=["en"])
    job = PaperSheetJob.objects.get()
    PaperSheetJob.objects.filter(pk=job.pk).update(status="running", done=2, total=3)
    box = client.get(f"/director/paper-sheets/{job.pk}/box/").content.decode()
    assert f'data-poll="/director/paper-sheets/{job.pk}/box/"' in box
    assert 'max="3" value="2"' in box and "Drawing the tables: 2 of 3" in box
    # A double click finds the same job.
    client.post(f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/paper-sheets/",
                {"languages": ["en"]})
    assert PaperSheetJob.objects.count() == 1


def test_no_language_ticked_means_the_pages_language(client, make_setup, django_capture_on_commit_callbacks):
    s, session = seated(make_setup, players=4)
    client.force_login(s.director)
    _start(client, s, session, django_capture_on_commit_callbacks, accept="zh-Hans")
    assert PaperSheetJob.objects.get().languages == "zh-hans"


def test_a_failed_job_says_so(client, make_setup, django_capture_on_commit_callbacks):
    s, session = seated(make_setup, players=4)
    client.force_login(s.director)
    _start(client, s, session, django_capture_on_commit_callbacks, languages=["en"])
    job = PaperSheetJob.objects.get()
    PaperSheetJob.objects.filter(pk=job.pk).update(status="failed", reason="render_failed", pdf=None)
    box = client.get(f"/director/paper-sheets/{job.pk}/box/").content.decode()
    assert 'role="alert"' in box and "could not be drawn" in box
    response = client.get(f"/director/paper-sheets/{job.pk}/sheets.pdf")
    assert response.status_code == 302 and response["Location"].endswith("#paper-sheets")


def test_a_deleted_pdf_is_gone_and_the_box_says_why(client, make_setup, django_capture_on_commit_callbacks):
    s, session = seated(make_setup, players=4)
    client.force_login(s.director)
    _start(client, s, session, django_capture_on_commit_callbacks, languages=["en"])
    job = PaperSheetJob.objects.get()
    session_close(actor=s.director_actor, session=session)
    response = client.get(f"/director/paper-sheets/{job.pk}/sheets.pdf")
    assert response.status_code == 302 and response["Content-Type"] != "application/pdf"
    box = client.get(f"/director/paper-sheets/{job.pk}/box/").content.decode()
    assert "Deleted: the session was closed" in box and "sheets.pdf" not in box


def test_another_clubs_director_gets_404_for_the_job(client, make_setup, other_director,
                                                     django_capture_on_commit_callbacks):
    s, session = seated(make_setup, players=4)
    client.force_login(s.director)
    _start(client, s, session, django_capture_on_commit_callbacks, languages=["en"])
    job = PaperSheetJob.objects.get()
    client.force_login(other_director)
    assert client.get(f"/director/paper-sheets/{job.pk}/sheets.pdf").status_code == 404
    assert client.get(f"/director/paper-sheets/{job.pk}/box/").status_code == 404
    assert client.post(f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/paper-sheets/",
                       {"languages": ["en"]}).status_code == 404
    assert PaperSheetJob.objects.count() == 1
    client.logout()
    anonymous = client.get(f"/director/paper-sheets/{job.pk}/sheets.pdf")
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]


def test_a_large_session_is_not_drawn_in_the_request(client, make_setup):
    s, session = seated(make_setup, players=4 * SYNC_MAX_TABLES)
    assert session_table_count(session) == SYNC_MAX_TABLES + 1
    client.force_login(s.director)
    sheet = f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/sheet/"
    assert "sheets.pdf" not in client.get(sheet).content.decode()
    response = client.get(f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/sheets.pdf")
    assert response.status_code == 302 and response["Location"] == sheet + "#paper-sheets"
    assert "Print paper sheets" in client.get(sheet).content.decode()


@pytest.mark.parametrize("status, reason, says", [
    ("failed", "not_queued", "no worker could take it"),
    ("failed", "render_failed", "could not be drawn"),
    ("failed", "stalled", "its worker stopped answering"),
    ("removed", "session_closed", "the session was closed"),
    ("removed", "link_replaced", "link was replaced, so these sheets carried a dead one"),
    ("removed", "tables_changed", "a table was added to the session or deleted from it"),
    ("removed", "tournament_finished", "the tournament is finished"),
    ("removed", "expired", "kept one hour at most"),
])
def test_the_box_says_why_there_is_no_pdf(client, make_setup, django_capture_on_commit_callbacks, status, reason,
                                          says):
    s, session = seated(make_setup, players=4)
    client.force_login(s.director)
    _start(client, s, session, django_capture_on_commit_callbacks, run=False, languages=["en"])
    job = PaperSheetJob.objects.get()
    PaperSheetJob.objects.filter(pk=job.pk).update(status=status, reason=reason)
    box = client.get(f"/director/paper-sheets/{job.pk}/box/").content.decode()
    assert says in box and "sheets.pdf" not in box and "data-poll" not in box


def test_a_stalled_job_says_so_and_stops_polling(client, make_setup, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone
    s, session = seated(make_setup, players=4)
    client.force_login(s.director)
    _start(client, s, session, django_capture_on_commit_callbacks, run=False, languages=["en"])
    job = PaperSheetJob.objects.get()
    PaperSheetJob.objects.filter(pk=job.pk).update(status="running", updated_at=timezone.now() - timedelta(minutes=3))
    box = client.get(f"/director/paper-sheets/{job.pk}/box/").content.decode()
    assert "the worker may have stopped" in box and "data-poll" not in box


def test_the_links_are_on_the_site_address_when_one_is_set(client, make_setup, settings,
                                                           django_capture_on_commit_callbacks):
    settings.SITE_URL = "http://192.168.1.20:8000"
    s, session = seated(make_setup, players=4)
    client.force_login(s.director)
    _start(client, s, session, django_capture_on_commit_callbacks, languages=["en"])
    assert PaperSheetJob.objects.get().base_url == "http://192.168.1.20:8000"


def test_the_print_form_speaks_the_pages_language(client, make_setup):
    s, session = seated(make_setup, players=4)
    client.force_login(s.director)
    page = client.get(f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/sheet/",
                      HTTP_ACCEPT_LANGUAGE="zh-Hant").content.decode()
    assert "列印紙本記分表" in page and 'value="zh-hant" checked' in page and 'value="en" checked' not in page
