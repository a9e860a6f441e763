"""An uploaded document imported off the request path (``services.imports``): its shape checked at
once (refused: nothing queued, and the worker's read refuses it alike), else kept on a queued row,
imported by the task with the one ``tournament_import``, its progress on the row while the
revisions are checked, then done (the new tournament, private) or failed (the first problem,
nothing stored); the document is dropped either way. A task delivered twice imports once; a
stalled one is taken over; a broker that refuses the task fails the import at once."""

from __future__ import annotations

import copy
import json

import pytest
from django.utils import timezone, translation

from scoring import tasks
from scoring.domain.actors import Actor
from scoring.domain.errors import PermissionDenied, ValidationFailed
from scoring.models import ActionLog, Player, Round, Tournament, TournamentImport
from scoring.selectors.exports import tournament_export
from scoring.selectors.imports import IMPORT_STALE_AFTER, import_detail
from scoring.services import imports as imports_services
from scoring.services import jobs as jobs_services
from scoring.services.imports import tournament_import_queue, tournament_import_run

from .test_exports import as_imported, play, rehash, without_time

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(make_setup):
    """A real export: five deals, seven revisions."""
    return tournament_export(play(make_setup("jie_long")))


def queue(actor, club, document, callbacks, *, run: bool = True) -> TournamentImport:
    with callbacks(execute=run):
        job = tournament_import_queue(actor=actor, club=club, document=document, file_name="t.json")
    job.refresh_from_db()
    return job


def stored_counts() -> tuple[int, int, int]:
    return (Tournament.objects.count(), Round.objects.count(),
            ActionLog.objects.filter(action=ActionLog.Action.TOURNAMENT_IMPORT).count())


def test_an_upload_is_queued_then_imported_by_the_task(document, director_actor, club,
                                                       django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as sent:
        job = tournament_import_queue(actor=director_actor, club=club, document=document, file_name="t.json")
    job.refresh_from_db()
    assert (job.status, job.checked, job.total, job.file_name) == ("queued", 0, 7, "t.json")
    assert job.document == document and job.requested_label == "director alice"
    log = ActionLog.objects.get(action=ActionLog.Action.TOURNAMENT_IMPORT_QUEUE)
    assert log.data == {"import": job.pk, "file_name": "t.json", "revisions": 7, "rated": False} and log.ip == "127.0.0.1"
    assert len(sent) == 1 and Tournament.objects.count() == 1   # only the exported one, so far

    sent[0]()   # the commit sends the task (eager here: it runs at once)
    job.refresh_from_db()
    assert (job.status, job.checked, job.total, job.error, job.document) == ("done", 7, 7, None, None)
    t = job.tournament
    assert t.club == club and not t.public and t.name == document["tournament"]["name"]
    assert without_time(tournament_export(t)) == without_time(as_imported(document))
    imported = ActionLog.objects.get(action=ActionLog.Action.TOURNAMENT_IMPORT, tournament=t)
    assert imported.actor_label == "director alice" and imported.ip == "127.0.0.1"
    assert job.finished_at and job.started_at


def test_the_checks_report_their_progress_on_the_row(document, director_actor, club, monkeypatch,
                                                     django_capture_on_commit_callbacks):
    monkeypatch.setattr(imports_services, "PROGRESS_EVERY", 0)
    seen = []
    original = imports_services._Progress.__call__

    def spy(self, checked, total):
        original(self, checked, total)
        row = TournamentImport.objects.get(pk=self.import_id)
        seen.append((row.status, row.checked, row.total, import_detail(row)["storing"]))

    monkeypatch.setattr(imports_services._Progress, "__call__", spy)
    job = queue(director_actor, club, document, django_capture_on_commit_callbacks)
    assert [s[1] for s in seen] == [1, 2, 3, 4, 5, 6, 7]
    assert {s[0] for s in seen} == {"running"} and {s[2] for s in seen} == {7}
    assert [s[3] for s in seen] == [False] * 6 + [True]   # all checked: the tournament is being stored
    assert job.status == "done"


def test_progress_is_written_at_most_every_half_second_and_always_the_last(monkeypatch, document, director_actor,
                                                                           club, django_capture_on_commit_callbacks):
    job = queue(director_actor, club, document, django_capture_on_commit_callbacks, run=False)
    clock = iter([10.0, 10.1, 10.2, 10.7, 10.8, 10.9, 11.0])
    monkeypatch.setattr(jobs_services.time, "monotonic", lambda: next(clock))
    report, written = imports_services._Progress(job.pk), []
    for checked in range(1, 8):
        report(checked, 7)
        written.append(TournamentImport.objects.get(pk=job.pk).checked)
    assert written == [1, 1, 1, 4, 4, 4, 7]


def test_a_refused_document_stores_nothing_and_keeps_its_first_problem(document, director_actor, club,
                                                                       django_capture_on_commit_callbacks):
    doc = copy.deepcopy(document)
    doc["rounds"][1]["revisions"][0]["result"]["seats"][0]["net"] += 1
    doc = rehash(doc)   # hashes anyone can compute: the forged net is what is refused
    before, players = stored_counts(), Player.objects.count()
    with translation.override("zh-hans"):   # the row keeps English whatever the page's language
        job = queue(director_actor, club, doc, django_capture_on_commit_callbacks)
    assert job.status == "failed" and job.document is None and job.tournament is None
    assert job.error["path"] == "document.rounds[1].revisions[0].result"
    assert job.error["code"] == "not_zero_sum" and job.error["message"].startswith("The nets sum to ")
    assert stored_counts() == before and Player.objects.count() == players


def test_only_a_director_of_the_club_may_upload(document, other_director, club):
    with pytest.raises(PermissionDenied):
        tournament_import_queue(actor=Actor(user=other_director), club=club, document=document)
    assert not TournamentImport.objects.exists()


@pytest.mark.parametrize("junk, path, code", [
    ({"format": "x\x00"}, "document.format", "bad_text"),
    (json.loads("[" * 50 + "]" * 50), "document" + "[0]" * 40, "too_deep"),
])
def test_what_cannot_be_kept_is_refused_at_once(director_actor, club, junk, path, code):
    with pytest.raises(ValidationFailed) as e:
        tournament_import_queue(actor=director_actor, club=club, document=junk)
    assert (e.value.errors[0]["path"], e.value.errors[0]["code"]) == (path, code)
    assert not TournamentImport.objects.exists()


@pytest.mark.parametrize("change, path, code", [
    (lambda d: d["entries"][0].update(extra=1), "document.entries[0].extra", "unknown_field"),
    (lambda d: d.update(sessions=["x"]), "document.sessions[0]", "bad_type"),
    (lambda d: d["rounds"][2].pop("status"), "document.rounds[2].status", "required"),
    (lambda d: d["rounds"][0]["revisions"][1].update(hash="0" * 63), "document.rounds[0].revisions[1].hash",
     "bad_type"),
])
def test_a_shape_the_schema_refuses_is_refused_at_once_as_the_worker_would(document, director, director_actor, club,
                                                                          change, path, code):
    """``check_shape`` before the row: nothing queued, nothing logged. It is also the worker's first
    pass: a row kept before this check (an upload of an earlier release) fails at the same place."""
    doc = copy.deepcopy(document)
    change(doc)
    with pytest.raises(ValidationFailed) as e:
        tournament_import_queue(actor=director_actor, club=club, document=doc)
    assert [(x["path"], x["code"]) for x in e.value.errors] == [(path, code)]
    assert not TournamentImport.objects.exists()
    assert not ActionLog.objects.filter(action=ActionLog.Action.TOURNAMENT_IMPORT_QUEUE).exists()

    kept = TournamentImport.objects.create(club=club, document=doc, total=7, requested_by=director,
                                           updated_at=timezone.now())
    before = stored_counts()
    job = tournament_import_run(import_id=kept.pk)
    assert (job.status, job.error["path"], job.error["code"]) == ("failed", path, code)
    assert stored_counts() == before


def test_a_director_who_lost_the_club_meanwhile_is_refused_by_the_import(document, director, director_actor, club,
                                                                        django_capture_on_commit_callbacks):
    job = queue(director_actor, club, document, django_capture_on_commit_callbacks, run=False)
    club.directors.remove(director)
    tournament_import_run(import_id=job.pk)
    job.refresh_from_db()
    assert job.status == "failed" and job.error["code"] == "permission_denied"


def test_a_task_delivered_twice_imports_once(document, director_actor, club, django_capture_on_commit_callbacks):
    job = queue(director_actor, club, document, django_capture_on_commit_callbacks)
    before = stored_counts()
    assert tasks.tournament_import_run(job.pk) == ""   # done already: nothing to do
    assert tasks.tournament_import_run(10**9) == ""     # no such import
    assert stored_counts() == before


def test_a_running_import_is_left_alone_until_it_stalls(document, director_actor, club,
                                                        django_capture_on_commit_callbacks):
    job = queue(director_actor, club, document, django_capture_on_commit_callbacks, run=False)
    TournamentImport.objects.filter(pk=job.pk).update(status="running", checked=3)   # another worker's
    assert tournament_import_run(import_id=job.pk) is None
    assert import_detail(TournamentImport.objects.get(pk=job.pk))["active"]

    TournamentImport.objects.filter(pk=job.pk).update(updated_at=timezone.now() - IMPORT_STALE_AFTER * 2)
    detail = import_detail(TournamentImport.objects.get(pk=job.pk))
    assert detail["stalled"] and not detail["active"]   # the page stops polling and says so
    assert tournament_import_run(import_id=job.pk).status == "done"   # the task delivered again takes it over
    assert Tournament.objects.filter(name=document["tournament"]["name"]).count() == 2


def test_a_broker_that_refuses_the_task_fails_the_import_at_once(document, director_actor, club, monkeypatch,
                                                                 django_capture_on_commit_callbacks):
    def refuse(*args):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.tournament_import_run, "delay", refuse)
    job = queue(director_actor, club, document, django_capture_on_commit_callbacks)
    assert job.status == "failed" and job.error["code"] == "not_queued" and job.document is None


def test_an_unexpected_error_fails_the_import_and_stores_nothing(document, director_actor, club, monkeypatch,
                                                                 django_capture_on_commit_callbacks):
    def boom(**kwargs):
        raise KeyError("surprise")

    monkeypatch.setattr(imports_services, "tournament_import", boom)
    before = stored_counts()
    job = queue(director_actor, club, document, django_capture_on_commit_callbacks)
    assert (job.status, job.error["code"]) == ("failed", "import_failed")
    assert stored_counts() == before
