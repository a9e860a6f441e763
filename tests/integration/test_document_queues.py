"""The long jobs' queue through a real Celery worker (two processes) on Redis and PostgreSQL: one
club's paper sheets for three tournaments are queued before another club's import, and the
import starts while the first club's first job still runs — the club's next jobs wait while its
first one runs (``scoring.tasks.DEFER_SECONDS``), so the worker's other process takes the other
club's import. Before, the import waited for every job queued ahead of it (151 s)."""

from __future__ import annotations

from scoring.domain.actors import Actor
from scoring.models import Club, PaperSheetJob, TournamentImport
from scoring.selectors.exports import tournament_export
from scoring.services.imports import tournament_import_queue
from scoring.services.paper_sheets import paper_sheets_start
from scoring.services.seating import session_seat
from tests.integration import stack
from tests.scoring.bulk import bulk_entries
from tests.scoring.services.test_exports import play

from .test_celery_worker import pytestmark as worker_marks

pytestmark = worker_marks


def test_a_clubs_import_is_not_held_by_another_clubs_paper_sheets(transactional_db, make_setup, other_director):
    document = tournament_export(play(make_setup("jie_long")))
    sessions = []
    for n in range(3):
        s = make_setup("jie_long")
        bulk_entries(s.tournament, 120, prefix=f"P{n}-")   # 30 tables: a job of some seconds
        sessions.append(session_seat(actor=s.director_actor, tournament=s.tournament, method="random",
                                     table_size=4, leftovers="sit_out").session)
    other_club = Club.objects.get(name="Other Club")
    with stack.celery_worker(concurrency=2):
        sheets = [paper_sheets_start(actor=s.director_actor, session=session, languages=["en", "zh-hant"],
                                     base_url="http://club.example") for session in sessions]
        job = tournament_import_queue(actor=Actor(user=other_director), club=other_club, document=document,
                                      file_name="t.json")
        over = ("done", "failed")
        assert stack.wait_for(lambda: all(j.status in over for j in PaperSheetJob.objects.filter(
            pk__in=[s.pk for s in sheets])) and TournamentImport.objects.get(pk=job.pk).status in over,
            timeout=180), "the worker did not finish the jobs"
    job.refresh_from_db()
    sheets = list(PaperSheetJob.objects.filter(pk__in=[s.pk for s in sheets]).order_by("started_at"))
    assert job.status == "done" and all(s.status == "done" for s in sheets), (job.error, [s.reason for s in sheets])
    first, *later = sheets
    # Not behind the club's queued jobs: it starts while the club's first job still runs (without
    # the deferral the worker's other process takes the club's second job, and the import waits
    # for one of the two to end).
    assert job.started_at < first.finished_at, (job.started_at, [(s.started_at, s.finished_at) for s in sheets])
    assert all(s.started_at >= first.finished_at for s in later)   # the club's jobs one at a time
