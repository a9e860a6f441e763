"""Paper sheets through a real Celery worker on Redis and PostgreSQL: the director starts the
job on the sheet page, a separate ``celery worker`` process draws it, the box reports it done,
and the PDF downloads with every table's link (which the worker unsealed with the site's keys)."""

from __future__ import annotations

import os
import time

import pytest
from django.conf import settings

from scoring.models import PaperSheetJob
from scoring.selectors.seating import session_sheet_tables
from scoring.services.seating import session_seat
from tests.scoring.bulk import bulk_entries
from tests.scoring.web.test_paper_sheets import needs_poppler, page_images, qr_texts

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI sets it; see docs/install.md, Services)"),
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                       reason="the worker process needs a database it can share: PostgreSQL (DATABASE_URL)"),
]


@needs_poppler
def test_a_started_job_finishes_in_the_worker_and_the_pdf_downloads(celery_worker, client, make_setup, tmp_path):
    s = make_setup("jie_long")
    bulk_entries(s.tournament, 20)
    session = session_seat(actor=s.director_actor, tournament=s.tournament, method="random", table_size=4,
                           leftovers="sit_out").session
    client.force_login(s.director)
    response = client.post(f"/director/tournaments/{s.tournament.pk}/sessions/{session.number}/paper-sheets/",
                           {"languages": ["en", "zh-hant"]})
    assert response.status_code == 302
    job = PaperSheetJob.objects.get(session=session)
    box_url = f"/director/paper-sheets/{job.pk}/box/"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        box = client.get(box_url).content.decode()
        if "data-poll" not in box:
            break
        time.sleep(0.2)
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == ("done", 6, 6), box
    download = f"/director/paper-sheets/{job.pk}/sheets.pdf"
    assert f'href="{download}"' in box
    response = client.get(download)
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    rows = session_sheet_tables(session)
    images = page_images(response.content, tmp_path)
    assert len(images) == 12
    assert [qr_texts(images[2 * n])[0] for n in range(6)] == [f"http://testserver/s/{r.token}/" for r in rows]
