"""Paper sheets through a real Celery worker on Redis and PostgreSQL: the director starts the
job on the sheet page, a separate ``celery worker`` process draws it, the box reports it done,
and the PDF downloads with every table's link (which the worker unsealed with the site's keys)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid

import pytest
from django.conf import settings

from scoring.models import PaperSheetJob
from scoring.selectors.seating import session_sheet_tables
from scoring.services.seating import session_seat
from tests.integration.stack import ROOT, database_url_of_test_db
from tests.scoring.bulk import bulk_entries
from tests.scoring.web.test_paper_sheets import needs_poppler, page_images, qr_texts

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI sets it; see README, Services)"),
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                       reason="the worker process needs a database it can share: PostgreSQL (DATABASE_URL)"),
]


@pytest.fixture
def sheets_worker(transactional_db):
    """``celery worker`` on a queue of its own, with the site's keys (it unseals the links)."""
    from gupai_site.celery import app

    queue = f"test-{uuid.uuid4().hex[:12]}"
    old = (app.conf.task_always_eager, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    env = dict(os.environ, DATABASE_URL=database_url_of_test_db(), PYTHONUNBUFFERED="1", DEBUG="0",
               SECRET_KEY=settings.SECRET_KEY, LINK_KEY=settings.LINK_KEY, GUPAI_TEST_QUEUE=queue,
               DJANGO_SETTINGS_MODULE="tests.integration.worker_settings")
    log = open(ROOT / "var" / f"celery-{queue}.log", "w") if (ROOT / "var").is_dir() else subprocess.DEVNULL
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "gupai_site", "worker", "--pool=solo", "--concurrency=1",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-Q", queue, "-n", f"{queue}@localhost",
         "--loglevel=INFO"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"celery worker exited early with {proc.returncode}")
            if app.control.ping(destination=[f"{queue}@localhost"], timeout=1.0):
                break
        else:
            pytest.fail("celery worker did not answer within 60 s")
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        app.conf.task_always_eager, app.conf.task_default_queue = old
        if log is not subprocess.DEVNULL:
            log.close()


@needs_poppler
def test_a_started_job_finishes_in_the_worker_and_the_pdf_downloads(sheets_worker, client, make_setup, tmp_path):
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
