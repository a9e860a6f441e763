"""The audit box of the director's tournament page: "Run an audit", the latest audit's status and
progress bar, the box alone for the page's polling script while it runs, and the findings when
done. (The polling in a real browser: tests/browser/test_director_audit.py.)"""

from __future__ import annotations

import re

import pytest

from scoring.models import Audit, Standing
from scoring.services.audits import audit_chunk_run, audit_finish, audit_plan, audit_start
from scoring.services.rounds import round_record

from ..bodies import JIE_LONG
from ..services.test_audits import tamper
from ..test_static_assets import inline_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def record(setup, n=1):
    return [round_record(actor=setup.scorer_actor, table=setup.table, body=JIE_LONG) for _ in range(n)]


def test_the_page_offers_an_audit(dclient, jie_long):
    html = dclient.get(f"/director/tournaments/{jie_long.tournament.pk}/").content.decode()
    assert "No audit yet." in html and "Run an audit" in html
    assert f'action="/director/tournaments/{jie_long.tournament.pk}/audits/"' in html
    assert "data-poll" not in html


def test_run_an_audit_and_see_it_pass(dclient, jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    record(s, 3)
    with django_capture_on_commit_callbacks(execute=True):
        response = dclient.post(f"/director/tournaments/{s.tournament.pk}/audits/")
    assert response.status_code == 302
    assert response["Location"] == f"/director/tournaments/{s.tournament.pk}/#audit"
    audit = Audit.objects.get()
    assert (audit.status, audit.requested_label) == ("passed", "director alice")
    html = dclient.get(response["Location"]).content.decode()
    assert "Audit under way" in html   # the message
    assert re.search(r'<progress class="audit-progress" max="3" value="3"', html)
    assert "3 of 3 deals checked: everything holds." in html
    assert "data-poll" not in html and "Run an audit" in html


def test_while_an_audit_runs_the_box_polls_itself(dclient, jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    record(s, 4)
    with django_capture_on_commit_callbacks(execute=False):
        dclient.post(f"/director/tournaments/{s.tournament.pk}/audits/")
    audit = Audit.objects.get()
    box = f"/director/audits/{audit.pk}/"
    html = dclient.get(f"/director/tournaments/{s.tournament.pk}/").content.decode()
    assert f'data-poll="{box}"' in html and "Waiting for a worker" in html and "Run an audit" not in html
    assert '<progress class="audit-progress" aria-label' in html   # no value yet: indeterminate

    audit_plan(audit=Audit.objects.get())
    audit_chunk_run(audit_id=audit.pk, number=1)
    audit_chunk_run(audit_id=audit.pk, number=0)   # the standings: every chunk done
    response = dclient.get(box)
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    fragment = response.content.decode()
    assert fragment.lstrip().startswith('<div class="card audit-box" id="audit-box" data-poll=')
    assert 'max="4" value="4"' in fragment and "4 of 4 deals checked…" in fragment
    assert "<html" not in fragment and inline_code(fragment) == []

    audit_finish(audit=Audit.objects.get())
    fragment = dclient.get(box).content.decode()
    assert "data-poll" not in fragment and "everything holds" in fragment and "Run an audit" in fragment


def test_findings_are_listed_with_their_deals(dclient, jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    rounds = record(s, 2)
    tamper(rounds[1].current_revision, reason="rewritten")
    Standing.objects.filter(entry=s.entries[0]).update(total=5)
    with django_capture_on_commit_callbacks(execute=True):
        dclient.post(f"/director/tournaments/{s.tournament.pk}/audits/")
    html = dclient.get(f"/director/tournaments/{s.tournament.pk}/").content.decode()
    assert "2 of 2 deals checked: 2 findings." in html
    assert f'href="/director/tables/{s.table.pk}/?deal=2#deal-2">Session 1 · Table 1 · deal 2</a>' in html
    assert "Hash chain: the content does not match its hash." in html
    assert "standings</td>" in html and "Standing of Anna" in html
    assert 'class="badge audit-status failed">Failed' in html


def test_other_clubs_audits_are_not_found(client, jie_long, other_director, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        audit = audit_start(actor=jie_long.director_actor, tournament=jie_long.tournament)
    client.force_login(other_director)
    assert client.get(f"/director/audits/{audit.pk}/").status_code == 404
    assert client.post(f"/director/tournaments/{jie_long.tournament.pk}/audits/").status_code == 404
    assert client.get("/director/audits/999999/").status_code == 404
    assert Audit.objects.count() == 1


def test_the_audit_pages_need_a_director(client, jie_long):
    assert client.get("/director/audits/1/").status_code == 302   # to the login page
    assert client.post(f"/director/tournaments/{jie_long.tournament.pk}/audits/").status_code == 302
    assert client.get(f"/director/tournaments/{jie_long.tournament.pk}/audits/").status_code in (302, 405)
    assert not Audit.objects.exists()
