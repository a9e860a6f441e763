"""A session's paper sheets drawn by a worker (scoring/services/paper_sheets.py; Celery eager
here, a real worker in tests/integration/test_paper_sheets_worker.py): every table in each
language chosen, read back from the PDF (pdftotext, pdftoppm + zxing-cpp); progress on the row;
one job for a double click; the stored PDF deleted when the session closes, a link is replaced,
the tournament finishes, or its hour is up."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone, translation

from scoring.domain.errors import DomainError
from scoring.models import ActionLog, PaperSheetJob
from scoring.selectors.paper_sheets import KEEP, paper_sheet_job_pdf
from scoring.selectors.seating import session_sheet_tables
from scoring.services import jobs as jobs_services
from scoring.services import paper_sheets as paper_sheets_services
from scoring.services.clubs import player_create
from scoring.services.roster import table_delete
from scoring.services.seating import session_seat
from scoring.services.sessions import session_close
from scoring.services.tables import session_scorer_tokens_rotate, table_create, table_scorer_token_rotate
from scoring.services.tournaments import entry_create, tournament_finish
from scoring.web.paper_sheets import session_sheets_pdf
from scoring.web.presentation import session_table
from tests.scoring.web.test_paper_sheets import needs_poppler, page_images, pdf_text, qr_texts

from ..bulk import bulk_entries

pytestmark = pytest.mark.django_db

BASE = "https://club.example"
ALL = ["en", "zh-hans", "zh-hant", "ko"]
#: The page's own words in each language: which language a page was drawn in.
SHEET_WORD = {"en": "paper score sheet", "zh-hans": "纸质记分表", "zh-hant": "紙本記分表", "ko": "종이 기록지"}


def seated(make_setup, players=8):
    """A session of ``players`` + 4 (make_setup's) at tables of four."""
    s = make_setup("jie_long")
    bulk_entries(s.tournament, players)
    done = session_seat(actor=s.director_actor, tournament=s.tournament, method="random", table_size=4,
                        leftovers="sit_out")
    return s, done.session


def start(s, session, capture, languages=("en",), *, run=True):
    with capture(execute=run):
        return paper_sheets_services.paper_sheets_start(actor=s.director_actor, session=session,
                                                        languages=list(languages), base_url=BASE)


def job_of(job) -> PaperSheetJob:
    return PaperSheetJob.objects.get(pk=job.pk)


@needs_poppler
def test_the_job_draws_every_table_in_each_language_chosen(make_setup, tmp_path, django_capture_on_commit_callbacks):
    s, session = seated(make_setup)
    job = job_of(start(s, session, django_capture_on_commit_callbacks, ["ko", "zh-hant", "en", "zh-hans"]))
    assert (job.status, job.done, job.total, job.languages) == ("done", 3, 3, "en,zh-hans,zh-hant,ko")
    pdf = bytes(job.pdf)
    assert job.size == len(pdf) and job.expires_at == job.finished_at + KEEP
    rows = session_sheet_tables(session)
    images = page_images(pdf, tmp_path)
    assert len(images) == len(rows) * len(ALL)
    # Table by table, each in every language in the site's order.
    for t, row in enumerate(rows):
        for k, language in enumerate(ALL):
            page = len(ALL) * t + k + 1
            assert qr_texts(images[page - 1]) == [f"{BASE}/s/{row.token}/"]
            text = pdf_text(pdf, tmp_path, page=page)
            with translation.override(language):
                heading = session_table(session.number, row.table.name)   # "Session 2 · Table 1", "第2轮 · 第1桌", "세션 2 · 1번 테이블"
            assert heading in text and SHEET_WORD[language] in text
            assert all(e.player.name in text for e in row.entries)
    log = ActionLog.objects.get(action=ActionLog.Action.PAPER_SHEETS_START, target_id=str(job.pk))
    assert log.actor_user == s.director and log.data["languages"] == ALL and log.data["tables"] == 3
    assert job.requested_by == s.director and job.requested_ip == "127.0.0.1"


def test_progress_reaches_the_total_table_by_table(make_setup, monkeypatch, django_capture_on_commit_callbacks):
    s, session = seated(make_setup, players=12)
    monkeypatch.setattr(paper_sheets_services, "PROGRESS_EVERY", 0)
    seen = []
    original = paper_sheets_services._Progress.__call__

    def spy(self, done, total):
        original(self, done, total)
        row = PaperSheetJob.objects.get(pk=self.job_id)
        seen.append((row.status, row.done, row.total))

    monkeypatch.setattr(paper_sheets_services._Progress, "__call__", spy)
    job = job_of(start(s, session, django_capture_on_commit_callbacks, ["en", "zh-hans"]))
    assert seen == [("running", n, 4) for n in range(1, 5)]
    assert (job.status, job.done, job.total) == ("done", 4, 4)


def test_progress_is_written_at_most_every_half_second_and_always_the_last(make_setup, monkeypatch,
                                                                           django_capture_on_commit_callbacks):
    s, session = seated(make_setup, players=4)
    job = start(s, session, django_capture_on_commit_callbacks, run=False)
    PaperSheetJob.objects.filter(pk=job.pk).update(status="running", total=5)
    clock = iter([10.0, 10.1, 10.2, 10.7, 11.0])
    monkeypatch.setattr(jobs_services.time, "monotonic", lambda: next(clock))
    report, written = paper_sheets_services._Progress(job.pk), []
    for done in range(1, 6):
        report(done, 5)
        written.append(job_of(job).done)
    assert written == [1, 1, 1, 4, 5]


def test_a_second_start_while_one_runs_returns_it(make_setup, django_capture_on_commit_callbacks):
    s, session = seated(make_setup, players=8)
    first = start(s, session, django_capture_on_commit_callbacks, ["en", "zh-hant"], run=False)
    again = start(s, session, django_capture_on_commit_callbacks, ["zh-hant", "en"], run=False)
    assert again.pk == first.pk
    PaperSheetJob.objects.filter(pk=first.pk).update(status="running", updated_at=timezone.now())
    assert start(s, session, django_capture_on_commit_callbacks, ["en", "zh-hant"], run=False).pk == first.pk
    # Other languages are another job; so is a start once the first is over.
    other = start(s, session, django_capture_on_commit_callbacks, ["en"], run=False)
    assert other.pk != first.pk
    PaperSheetJob.objects.filter(pk=first.pk).update(status="failed", reason="render_failed")
    assert start(s, session, django_capture_on_commit_callbacks, ["en", "zh-hant"], run=False).pk != first.pk
    assert PaperSheetJob.objects.filter(session=session).count() == 3
    assert ActionLog.objects.filter(action=ActionLog.Action.PAPER_SHEETS_START).count() == 3


def test_a_stalled_job_is_replaced_by_a_new_start(make_setup, django_capture_on_commit_callbacks):
    s, session = seated(make_setup, players=4)
    first = start(s, session, django_capture_on_commit_callbacks, run=False)
    PaperSheetJob.objects.filter(pk=first.pk).update(status="running",
                                                     updated_at=timezone.now() - timedelta(minutes=3))
    second = start(s, session, django_capture_on_commit_callbacks)
    assert second.pk != first.pk and job_of(second).status == "done"
    assert (job_of(first).status, job_of(first).reason) == ("failed", "stalled")
    # Its task delivered late finds it over.
    assert paper_sheets_services.paper_sheets_render(job_id=first.pk, render=session_sheets_pdf) is None


def test_only_the_clubs_directors_start_one(make_setup, other_director, django_capture_on_commit_callbacks):
    from scoring.domain.actors import Actor
    s, session = seated(make_setup, players=4)
    with pytest.raises(DomainError):
        paper_sheets_services.paper_sheets_start(actor=Actor(user=other_director), session=session,
                                                 languages=["en"], base_url=BASE)
    assert not PaperSheetJob.objects.exists()


@pytest.mark.parametrize("languages, path", [([], "languages"), (["fr"], "languages[0]"), ("en", "languages"),
                                             (["en", "de"], "languages[1]")])
def test_only_the_sites_languages_are_taken(make_setup, languages, path):
    s, session = seated(make_setup, players=4)
    with pytest.raises(DomainError) as e:
        paper_sheets_services.paper_sheets_start(actor=s.director_actor, session=session, languages=languages,
                                                 base_url=BASE)
    assert e.value.errors[0]["path"] == path
    assert [code for code, _ in settings.LANGUAGES] == ALL


def _done(make_setup, capture, players=8):
    s, session = seated(make_setup, players=players)
    job = job_of(start(s, session, capture))
    assert job.status == "done" and job.pdf
    return s, session, job


def _dropped(job, reason):
    job = job_of(job)
    assert (job.status, job.reason, job.pdf) == ("removed", reason, None)
    assert paper_sheet_job_pdf(job) is None


def test_closing_the_session_deletes_the_pdf(make_setup, django_capture_on_commit_callbacks):
    s, session, job = _done(make_setup, django_capture_on_commit_callbacks)
    session_close(actor=s.director_actor, session=session)
    _dropped(job, "session_closed")


def test_a_new_link_deletes_the_pdf(make_setup, django_capture_on_commit_callbacks):
    s, session, job = _done(make_setup, django_capture_on_commit_callbacks)
    table = session_sheet_tables(session)[1].table
    table_scorer_token_rotate(actor=s.director_actor, table=table)
    _dropped(job, "link_replaced")


def test_new_links_for_every_table_delete_the_pdf(make_setup, django_capture_on_commit_callbacks):
    s, session, job = _done(make_setup, django_capture_on_commit_callbacks)
    session_scorer_tokens_rotate(actor=s.director_actor, session=session)
    _dropped(job, "link_replaced")


def test_a_table_added_to_the_session_deletes_the_pdf(make_setup, django_capture_on_commit_callbacks):
    s, session, job = _done(make_setup, django_capture_on_commit_callbacks)
    late = [entry_create(actor=s.director_actor, tournament=s.tournament,
                         player=player_create(actor=s.director_actor, club=s.tournament.club, name=f"Late {i}"))
            for i in range(4)]
    table_create(actor=s.director_actor, tournament=s.tournament, name="Late table", entries=late,
                 session=session)
    _dropped(job, "tables_changed")


def test_a_table_deleted_from_the_session_deletes_the_pdf(make_setup, django_capture_on_commit_callbacks):
    s, session, job = _done(make_setup, django_capture_on_commit_callbacks)
    table_delete(actor=s.director_actor, table=session_sheet_tables(session)[0].table)
    _dropped(job, "tables_changed")


def test_finishing_the_tournament_deletes_the_pdf(make_setup, django_capture_on_commit_callbacks):
    s, session, job = _done(make_setup, django_capture_on_commit_callbacks)
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    _dropped(job, "tournament_finished")


def test_another_sessions_pdf_stays_when_one_closes(make_setup, django_capture_on_commit_callbacks):
    s, session, job = _done(make_setup, django_capture_on_commit_callbacks)
    earlier = s.tournament.sessions.get(number=1)
    assert earlier.pk != session.pk
    PaperSheetJob.objects.filter(pk=job.pk).update(session=earlier)
    other = job_of(start(s, session, django_capture_on_commit_callbacks))
    table_scorer_token_rotate(actor=s.director_actor, table=session_sheet_tables(session)[0].table)
    assert job_of(job).pdf is not None and job_of(other).pdf is None


def test_a_job_dropped_while_it_draws_keeps_no_pdf(make_setup, django_capture_on_commit_callbacks):
    """A link replaced (or the session closed) while the worker draws: the links drawn are stale,
    and the PDF is never stored."""
    s, session = seated(make_setup, players=8)
    job = start(s, session, django_capture_on_commit_callbacks, run=False)

    def render(**kwargs):
        pdf = session_sheets_pdf(**kwargs)
        table_scorer_token_rotate(actor=s.director_actor, table=kwargs["rows"][0].table)
        return pdf

    paper_sheets_services.paper_sheets_render(job_id=job.pk, render=render)
    _dropped(job, "link_replaced")


def test_the_pdf_is_kept_one_hour_at_most(make_setup, django_capture_on_commit_callbacks):
    s, session, job = _done(make_setup, django_capture_on_commit_callbacks)
    assert KEEP == timedelta(hours=1)
    almost = job.expires_at - timedelta(seconds=1)
    assert paper_sheet_job_pdf(job, now=almost) == bytes(job.pdf)
    assert paper_sheets_services.paper_sheets_expire(now=almost) == 0
    # Past its time the download refuses it at once, before the cleanup has run...
    assert paper_sheet_job_pdf(job, now=job.expires_at) is None
    # ...and the cleanup (Celery beat, every 5 minutes) deletes it.
    assert paper_sheets_services.paper_sheets_expire(now=job.expires_at) == 1
    _dropped(job, "expired")
    entry = next(e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "scoring.paper_sheets_expire")
    assert entry["schedule"] == 300.0


def test_the_expiry_task_deletes_what_is_past_its_time(make_setup, django_capture_on_commit_callbacks):
    from scoring.tasks import paper_sheets_expire
    s, session, job = _done(make_setup, django_capture_on_commit_callbacks)
    PaperSheetJob.objects.filter(pk=job.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert paper_sheets_expire.delay().get() == 1
    _dropped(job, "expired")


def test_a_drawing_that_fails_says_so_and_keeps_nothing(make_setup, django_capture_on_commit_callbacks):
    s, session = seated(make_setup, players=4)
    job = start(s, session, django_capture_on_commit_callbacks, run=False)

    def broken(**kwargs):
        raise RuntimeError("no ink")

    paper_sheets_services.paper_sheets_render(job_id=job.pk, render=broken)
    job = job_of(job)
    assert (job.status, job.reason, job.pdf) == ("failed", "render_failed", None)


def test_a_broker_that_refuses_the_task_fails_the_job_at_once(make_setup, monkeypatch,
                                                              django_capture_on_commit_callbacks):
    from celery import current_app
    s, session = seated(make_setup, players=4)

    def refuse(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(current_app.tasks[paper_sheets_services.TASK], "delay", refuse)
    job = job_of(start(s, session, django_capture_on_commit_callbacks))
    assert (job.status, job.reason) == ("failed", "not_queued")


def test_a_task_delivered_twice_draws_once(make_setup, django_capture_on_commit_callbacks):
    s, session, job = _done(make_setup, django_capture_on_commit_callbacks, players=4)
    assert paper_sheets_services.paper_sheets_render(job_id=job.pk, render=session_sheets_pdf) is None
    assert job_of(job).finished_at == job.finished_at
