"""Export and import in the browser (``views.director.imports``): the dashboard's download (the
API's export as a file), the club page's upload imported by the task with its progress polled, the
new tournament private and marked "imported" on its dashboard and in the club's list, a refused
document's first problem with its path and nothing stored, too large or not JSON refused on the
form, and another club's director answered 404. (In a real browser:
tests/browser/test_director_import.py.)"""

from __future__ import annotations

import copy
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from scoring import tasks
from scoring.models import ActionLog, Player, Round, RoundRevision, Tournament, TournamentImport
from scoring.selectors.imports import IMPORT_STALE_AFTER
from scoring.services import imports as imports_services
from scoring.services.tournaments import tournament_finish
from scoring.web.rule_messages import translate_message

from ..services.test_exports import export, play, rehash, without_time
from ..test_static_assets import inline_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def dclient(director_client, client, director):
    client.force_login(director)
    return client


@pytest.fixture
def played(make_setup):
    return play(make_setup("jie_long"))


def download(client, tournament):
    return client.get(f"/director/tournaments/{tournament.pk}/download/")


def post_file(client, club, content, name: str = "t.json"):
    body = content if isinstance(content, bytes) else json.dumps(content).encode()
    return client.post(f"/director/clubs/{club.pk}/imports/", {"document": SimpleUploadedFile(name, body)})


@pytest.fixture
def upload(django_capture_on_commit_callbacks):
    """Post a file, and let the upload's commit send the task (run in-process: no REDIS_URL)."""
    def send(client, club, content, name: str = "t.json"):
        with django_capture_on_commit_callbacks(execute=True):
            return post_file(client, club, content, name)
    return send


def stored() -> tuple[int, int, int]:
    return Tournament.objects.count(), Round.objects.count(), Player.objects.count()


# --- the download -------------------------------------------------------------------------------

def test_the_download_is_the_apis_export_as_a_file(dclient, director_client, played):
    response = download(dclient, played)
    assert response.status_code == 200
    date = response.json()["exported_at"][:10]
    assert response["Content-Disposition"] == f'attachment; filename="{played.slug}-{date}.json"'
    assert response["Cache-Control"] == "no-store"
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert without_time(response.json()) == without_time(export(director_client, played))


def test_the_dashboard_offers_the_download(dclient, played):
    html = dclient.get(f"/director/tournaments/{played.pk}/").content.decode()
    assert f'href="/director/tournaments/{played.pk}/download/" download>Download (JSON)</a>' in html
    assert 'class="badge imported"' not in html   # made here, not imported


def test_a_deal_that_does_not_verify_is_not_downloaded(dclient, played):
    from ..services.test_audits import tamper

    tamper(RoundRevision.objects.filter(round__table__session__tournament=played).first(), reason="changed")
    response = download(dclient, played)
    assert response.status_code == 302 and response["Location"] == f"/director/tournaments/{played.pk}/#audit"
    assert "does not verify" in dclient.get(response["Location"]).content.decode()


# --- the upload ---------------------------------------------------------------------------------

def test_an_upload_is_imported_and_lands_on_the_new_tournament_private_and_marked(dclient, played, club, upload):
    document = download(dclient, played).json()
    response = upload(dclient, club, document)
    job = TournamentImport.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/director/imports/{job.pk}/"
    assert job.status == "done"   # no REDIS_URL: the task ran in-process once the upload was kept
    new = job.tournament
    assert not new.public and new.status == "running" and new.name == played.name

    landing = dclient.get(response["Location"])
    assert landing.status_code == 302 and landing["Location"] == f"/director/tournaments/{new.pk}/#export"
    html = dclient.get(landing["Location"]).content.decode()
    assert f"Tournament {new.name} imported. It is private until you publish it." in html
    assert ('<span class="badge imported">imported</span> This tournament came from a file: it is private until you '
            'publish it. <a href="#settings">Publish…</a>') in html
    assert 'name="public" id="s-public">' in html   # what publishes a running one

    club_page = dclient.get(f"/director/clubs/{club.pk}/").content.decode()
    mine = re.search(rf'<li><a href="/director/tournaments/{new.pk}/">[^<]*</a>(.*?)</li>', club_page).group(1)
    assert '<span class="badge imported">imported</span>' in mine and "private" in mine
    theirs = re.search(rf'<li><a href="/director/tournaments/{played.pk}/">[^<]*</a>(.*?)</li>', club_page).group(1)
    assert "imported" not in theirs   # the same name, told apart by the mark


def test_an_upload_shows_its_progress_while_the_task_runs(dclient, played, club, monkeypatch,
                                                         django_capture_on_commit_callbacks, upload):
    document = download(dclient, played).json()
    with django_capture_on_commit_callbacks(execute=False) as held:
        response = post_file(dclient, club, document)
    job = TournamentImport.objects.get()
    box = f"/director/imports/{job.pk}/box/"
    page = dclient.get(response["Location"]).content.decode()
    assert f'data-poll="{box}"' in page and "Waiting for a worker…" in page and 'type="file"' not in page
    assert "Imports under way: " in dclient.get(f"/director/clubs/{club.pk}/").content.decode()

    seen = {}
    monkeypatch.setattr(imports_services, "PROGRESS_EVERY", 0)
    original = imports_services._Progress.__call__

    def look(self, checked, total):   # the page's poller, asking while the worker checks
        original(self, checked, total)
        seen[checked] = dclient.get(box)

    monkeypatch.setattr(imports_services._Progress, "__call__", look)
    assert len(held) == 1
    held[0]()   # the commit sends the task
    middle, last = seen[3], seen[7]
    assert middle["Cache-Control"] == "no-store"
    fragment = middle.content.decode()
    assert fragment.lstrip().startswith(f'<div class="card import-box" id="import-box" data-poll="{box}"')
    assert 'max="7" value="3"' in fragment and "Checking revisions: 3 of 7…" in fragment
    assert "<html" not in fragment and inline_code(fragment) == []
    assert "All 7 revisions checked: storing the tournament…" in last.content.decode()

    done = dclient.get(box).content.decode()
    assert "data-poll=" not in done and f'data-poll-go="/director/imports/{job.pk}/"' in done
    new = TournamentImport.objects.get().tournament
    assert f'Imported as <a href="/director/tournaments/{new.pk}/">{new.name}</a>' in done


def test_a_stalled_import_stops_polling_and_says_so(dclient, played, club, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        post_file(dclient, club, download(dclient, played).json())
    job = TournamentImport.objects.get()
    TournamentImport.objects.filter(pk=job.pk).update(status="running", checked=2,
                                                      updated_at=job.created_at - IMPORT_STALE_AFTER)
    fragment = dclient.get(f"/director/imports/{job.pk}/box/").content.decode()
    assert "data-poll" not in fragment and "the worker may have stopped" in fragment
    assert 'type="file"' in fragment   # upload it again


def test_a_refused_document_shows_its_first_problem_and_stores_nothing(dclient, played, club, upload):
    document = download(dclient, played).json()
    document["rounds"][2]["revisions"][0]["hash"] = "0" * 64
    before, logged = stored(), ActionLog.objects.filter(action=ActionLog.Action.TOURNAMENT_IMPORT).count()
    response = upload(dclient, club, document)
    job = TournamentImport.objects.get()
    assert (job.status, job.document, job.tournament) == ("failed", None, None)
    page = dclient.get(response["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "Not imported: nothing was stored." in html and "data-poll" not in html
    assert "The revision does not match its hash." in html
    assert "Where: deal no. 3 › revision 1 › hash" in html
    assert "<code>document.rounds[2].revisions[0].hash</code> · <code>hash_mismatch</code>" in html
    assert 'type="file"' in html   # try again
    fragment = dclient.get(f"/director/imports/{job.pk}/box/").content.decode()
    assert "The revision does not match its hash." in fragment and 'type="file"' in fragment   # as the poll sees it
    assert stored() == before
    assert ActionLog.objects.filter(action=ActionLog.Action.TOURNAMENT_IMPORT).count() == logged


def test_a_refused_document_in_chinese(dclient, played, club, upload):
    document = rehash(copy.deepcopy(download(dclient, played).json()))
    document["tournament"]["variant"]["arms"] = 7
    response = upload(dclient, club, document)
    dclient.cookies["django_language"] = "zh-hans"
    html = dclient.get(response["Location"]).content.decode()
    assert "<code>document.tournament.variant.arms</code> · <code>bad_variant</code>" in html
    assert "比赛 › variant › arms" in html and "arms must be 1 or 2." not in html
    with translation.override("zh-hans"):   # the engine's code: its own sentence, by rule_messages
        assert translate_message("bad_variant", "arms must be 1 or 2.") in html


@pytest.mark.parametrize("content, code, words", [
    (b"{not json", 400, "This file is not a JSON document (line 1, column 2)."),
    (b"[NaN]", 400, "This file is not a JSON document."),
    (b"\xff\xfe{}", 400, "This file is not text (UTF-8)."),
    (b'{"format": "x\\u0000"}', 400, "<code>document.format</code> · <code>bad_text</code>"),
])
def test_what_is_no_document_is_refused_on_the_form(dclient, club, content, code, words, upload):
    response = upload(dclient, club, content)
    assert response.status_code == code
    html = response.content.decode()
    assert words in html and 'id="import"' in html and 'role="alert"' in html
    assert not TournamentImport.objects.exists()


def test_the_forms_own_words_stay_in_chinese(dclient, club, upload):
    dclient.cookies["django_language"] = "zh-hans"
    html = upload(dclient, club, b"{not json").content.decode()
    assert "这个文件不是 JSON 文档（第 1 行，第 2 列）。" in html


def test_a_shape_the_schema_refuses_is_shown_at_once_on_the_form(dclient, played, club, upload):
    """Checked before the upload is queued (``document_shape.check_shape``): the club page again,
    the problem at its path, no import row, nothing stored."""
    document = download(dclient, played).json()
    document["sessions"] = ["x"]
    before = stored()
    response = upload(dclient, club, document)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="import"' in html and 'role="alert"' in html
    assert "An object is expected here." in html
    assert "Where: session no. 1" in html and "<code>document.sessions[0]</code> · <code>bad_type</code>" in html
    assert not TournamentImport.objects.exists() and stored() == before


def test_a_shape_refused_at_once_in_chinese(dclient, played, club, upload):
    document = download(dclient, played).json()
    document["entries"][0]["extra"] = 1
    dclient.cookies["django_language"] = "zh-hans"
    html = upload(dclient, club, document).content.decode()
    assert "<code>document.entries[0].extra</code> · <code>unknown_field</code>" in html
    assert "比赛文件中没有这个字段。" in html and "第 1 位参赛者 › extra" in html
    assert "is not a field of this document" not in html
    assert not TournamentImport.objects.exists()


def test_a_bom_is_fine(dclient, played, club, upload):
    body = json.dumps(download(dclient, played).json()).encode("utf-8-sig")
    upload(dclient, club, body)
    assert TournamentImport.objects.get().status == "done"


def test_no_file_is_refused_on_the_form(dclient, club):
    response = dclient.post(f"/director/clubs/{club.pk}/imports/", {})
    assert response.status_code == 400 and "Choose a file exported from a tournament (.json)." in response.content.decode()


def test_a_file_too_large_is_a_413_on_the_form(dclient, played, club, settings, upload):
    body = download(dclient, played).content
    settings.IMPORT_MAX_BYTES = len(body) - 1
    response = upload(dclient, club, body)
    assert response.status_code == 413
    assert f"This file has {len(body)} bytes; at most {len(body) - 1} can be imported." in response.content.decode()
    assert not TournamentImport.objects.exists()
    settings.IMPORT_MAX_BYTES = len(body)
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(body) // 2   # the import's own limit, not every request's
    assert upload(dclient, club, body).status_code == 302


def test_form_fields_beyond_the_body_limit_are_a_400_not_a_500(director, club, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100   # counts the form's fields; the file has its own check above
    client = Client(raise_request_exception=False)
    client.force_login(director)
    response = client.post(f"/director/clubs/{club.pk}/imports/",
                           {"note": "x" * 1000, "document": SimpleUploadedFile("t.json", b"{}")})
    assert response.status_code == 400 and not TournamentImport.objects.exists()


def test_the_upload_needs_the_forms_csrf_token(director, club):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    response = post_file(client, club, {"format": "gupai-club.tournament"})
    assert response.status_code == 403 and not TournamentImport.objects.exists()


def test_a_finished_import_is_published_from_its_page(dclient, played, club, director_actor, upload):
    tournament_finish(actor=director_actor, tournament=played, disputes_stay=True)
    upload(dclient, club, download(dclient, played).json())
    new = TournamentImport.objects.get().tournament
    html = dclient.get(f"/director/tournaments/{new.pk}/").content.decode()
    assert "it is private until you publish it." in html and ">Publish</button>" in html
    dclient.post(f"/director/tournaments/{new.pk}/settings/", {"public": "on"})
    new.refresh_from_db()
    assert new.public
    html = dclient.get(f"/director/tournaments/{new.pk}/").content.decode()
    assert ('<span class="badge imported">imported</span> This tournament came from a file; it is published.' in html
            and ">Publish</button>" not in html)


# --- who may -------------------------------------------------------------------------------------

def test_another_clubs_director_gets_404s(client, other_director, dclient, played, club, upload):
    upload(dclient, club, download(dclient, played).json())
    job = TournamentImport.objects.get()
    client.force_login(other_director)
    assert download(client, played).status_code == 404
    assert client.get(f"/director/imports/{job.pk}/").status_code == 404
    assert client.get(f"/director/imports/{job.pk}/box/").status_code == 404
    assert upload(client, club, {"format": "gupai-club.tournament"}).status_code == 404
    assert TournamentImport.objects.count() == 1
    assert dclient.get("/director/imports/999999/").status_code == 404


def test_visitors_are_sent_to_the_login(client, played, club):
    response = download(client, played)
    assert response.status_code == 302 and response["Location"].startswith("/director/login/")


def test_the_task_runs_the_import_by_its_id(dclient, played, club, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        post_file(dclient, club, download(dclient, played).json())
    job = TournamentImport.objects.get()
    assert tasks.tournament_import_run(job.pk) == "done"


def test_the_upload_rates_the_import_only_when_ticked(dclient, played, club, django_capture_on_commit_callbacks):
    document = download(dclient, played).json()
    form = dclient.get(f"/director/clubs/{club.pk}/").content.decode()
    assert '<input type="checkbox" name="rated">' in form   # off unless ticked
    for ticked in (False, True):
        data = {"document": SimpleUploadedFile("t.json", json.dumps(document).encode()),
                **({"rated": "on"} if ticked else {})}
        with django_capture_on_commit_callbacks(execute=True):
            dclient.post(f"/director/clubs/{club.pk}/imports/", data)
        job = TournamentImport.objects.order_by("-pk").first()
        assert job.status == "done" and job.rated is ticked and job.tournament.rated is ticked
        page = dclient.get(f"/director/tournaments/{job.tournament.pk}/").content.decode()
        assert ("Not rated: its deals do not count" in page) is not ticked
