"""A session's paper sheets drawn by a real Celery worker: 100 tables in 3 languages, on PostgreSQL + Redis.

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/<yours> BENCH_REDIS_URL=redis://127.0.0.1:6379/<n> \\
        .venv/bin/python bench/sheets.py [--tables 100] [--runs 3]

Builds a running Jie Long tournament of ``4 × --tables`` players (half of them with Chinese
names) seated at tables of four (``session_seat``: each table's link kept), starts ``celery
worker`` (solo pool) on Redis, and times each run as the director meets it: from the POST of
"Print paper sheets" with English, Simplified and Traditional Chinese (Django's test client,
logged in) until the job's box, polled every 0.2 s as the page does, no longer asks again
(done); then downloads the PDF and checks its pages (``--tables`` × 3).

The baseline beside it, in the same run: the same session's rows read and the same pages drawn
in this process (``web.paper_sheets.session_sheets_pdf``), nothing queued, reported or stored:
the drawing alone. Printed as a ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.stack import bench_env, prepare_database, start_worker  # noqa: E402

ENV = bench_env(redis="redis://127.0.0.1:6379/2")
LANGUAGES = ["en", "zh-hans", "zh-hant"]
WORKER = "bench-sheets"


def build(tables: int):
    """A running tournament of ``4 × tables`` players seated in one session at tables of four."""
    from scoring.domain.actors import Actor
    from scoring.models import Entry, Player
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create
    from scoring.services.seating import session_seat
    from scoring.services.tournaments import tournament_create, tournament_start

    stamp = int(time.time() * 1000)
    director = director_create(username=f"sheets{stamp}", password="bench-secret-1")
    actor = Actor(user=director)
    club = club_create(actor=actor, name=f"Sheets bench {stamp}")
    t = tournament_create(actor=actor, club=club, name=f"Sheets {stamp}", game="jie_long")
    names = [f"陈伟{i:03d}" if i % 2 else f"Player {i:03d}" for i in range(4 * tables)]
    players = Player.objects.bulk_create([Player(club=club, name=n) for n in names], batch_size=5000)
    Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in players], batch_size=5000)
    tournament_start(actor=actor, tournament=t)
    seated = session_seat(actor=actor, tournament=t, method="random", table_size=4, leftovers="sit_out")
    return t, director, seated.session


def page_count(pdf: bytes) -> int:
    """Its pages, as poppler's ``pdfinfo`` reads them."""
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        info = subprocess.run(["pdfinfo", f.name], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[1] for line in info.splitlines() if line.startswith("Pages:")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    prepare_database(ENV)
    import django

    django.setup()
    from django.test import Client

    from scoring.models import PaperSheetJob
    from scoring.selectors.seating import session_sheet_tables
    from scoring.web.paper_sheets import session_sheets_pdf

    began = time.perf_counter()
    t, director, session = build(args.tables)
    print(f"PostgreSQL {ENV['DATABASE_URL'].rsplit('/', 1)[1]}, Redis {ENV['REDIS_URL'].rsplit('/', 1)[1]}: "
          f"{args.tables} tables seated in {time.perf_counter() - began:.1f} s; languages {', '.join(LANGUAGES)}")
    client = Client()
    client.force_login(director)
    start_url = f"/director/tournaments/{t.pk}/sessions/{session.number}/paper-sheets/"

    def floor(base_url: str) -> float:
        began = time.perf_counter()
        session_sheets_pdf(tournament=t, session=session, rows=session_sheet_tables(session),
                           base_url=base_url, languages=LANGUAGES)
        return time.perf_counter() - began

    worker = start_worker(ENV, WORKER)
    jobs, floors = [], []
    try:
        for run in range(args.runs):
            began = time.perf_counter()
            response = client.post(start_url, {"languages": LANGUAGES})
            answered = time.perf_counter() - began
            assert response.status_code == 302, response.status_code
            job = PaperSheetJob.objects.filter(session=session).defer("pdf").latest("id")
            box = f"/director/paper-sheets/{job.pk}/box/"
            while "data-poll" in client.get(box).content.decode():
                time.sleep(0.2)
            took = time.perf_counter() - began
            job.refresh_from_db(fields=["status", "done", "total", "size", "started_at", "finished_at"])
            assert (job.status, job.done, job.total) == ("done", args.tables, args.tables), job.status
            pdf = client.get(f"/director/paper-sheets/{job.pk}/sheets.pdf").content
            pages = page_count(pdf)
            assert pages == 3 * args.tables, pages
            # The baseline right after, under the same load.
            base = floor(job.base_url)   # the links the worker drew
            jobs.append(took)
            floors.append(base)
            print(f"run {run + 1}: start → done {took:5.2f} s (POST answered in {answered * 1000:.0f} ms; the "
                  f"worker's render {(job.finished_at - job.started_at).total_seconds():5.2f} s); {pages} pages, "
                  f"{len(pdf) / 1e6:.2f} MB;  baseline {base:5.2f} s, ratio {took / base:4.2f}")
    finally:
        worker.terminate()
        worker.wait(10)
    job_s, floor_s = statistics.median(jobs), statistics.median(floors)
    print(f"baseline: the same rows read and {3 * args.tables} pages drawn in this process, nothing stored: "
          f"median {floor_s:5.2f} s")
    print(f"job, start → done (real worker): median {job_s:5.2f} s;  job / baseline = {job_s / floor_s:4.2f}")


if __name__ == "__main__":
    main()
