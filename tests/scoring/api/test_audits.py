"""Replay audits over the API (scoring/api/audits.py): ask for one (202 and its id), follow it,
and who may. Every answer is validated against the OpenAPI schema."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import Audit, Standing
from scoring.services.rounds import round_record

from ..bodies import JIE_LONG
from .test_schema import Checked

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(director_client):
    return Checked(director_client, set())


def test_an_audit_is_accepted_and_runs_to_its_findings(api, jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    for _ in range(3):
        round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    Standing.objects.filter(entry=s.entries[0]).update(total=1)

    with django_capture_on_commit_callbacks(execute=True):
        r = api.post(f"/api/v1/tournaments/{s.tournament.pk}/audits/")
    assert r.status_code == 202
    audit_id = r.json()["id"]
    assert r.json() == {"id": audit_id, "status": "queued", "url": f"/api/v1/audits/{audit_id}/"}
    assert r["Location"] == f"/api/v1/audits/{audit_id}/"

    body = api.get(f"/api/v1/audits/{audit_id}/").json()
    assert body["status"] == "failed" and body["progress"] == {"done": 3, "total": 3}
    assert body["findings_count"] == 1 and body["findings_by_kind"] == {"standings_mismatch": 1}
    (finding,) = body["findings"]
    assert set(finding) == {"kind", "round", "table", "number", "revision", "detail", "stored", "recomputed"}
    assert finding["kind"] == "standings_mismatch"
    assert finding["stored"] == {"entry": s.entries[0].pk, "total": 1, "rounds_counted": 3}
    assert finding["recomputed"] == {"entry": s.entries[0].pk, "total": 174, "rounds_counted": 3}


def test_a_queued_audit_shows_no_progress_yet(api, jie_long, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        audit_id = api.post(f"/api/v1/tournaments/{jie_long.tournament.pk}/audits/").json()["id"]
        # asked for again while queued: the same audit
        assert api.post(f"/api/v1/tournaments/{jie_long.tournament.pk}/audits/").json()["id"] == audit_id
    body = api.get(f"/api/v1/audits/{audit_id}/").json()
    assert body == {**body, "status": "queued", "progress": {"done": 0, "total": 0}, "findings": [],
                    "findings_count": 0, "error": "", "started_at": None, "finished_at": None}


def test_an_engine_version_finding_says_whether_it_agrees(api, jie_long, django_capture_on_commit_callbacks):
    from ..services.test_audits import tamper

    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    tamper(rnd.current_revision, rehash=True, engine_version="0.9.0")
    with django_capture_on_commit_callbacks(execute=True):
        audit_id = api.post(f"/api/v1/tournaments/{jie_long.tournament.pk}/audits/").json()["id"]
    body = api.get(f"/api/v1/audits/{audit_id}/").json()
    assert body["status"] == "passed"
    assert [(f["kind"], f["agrees"], f["round"], f["number"], f["revision"]) for f in body["findings"]] == [
        ("engine_version", True, rnd.pk, 1, 1)]


def test_only_the_clubs_directors_see_its_audits(api, jie_long, other_director, scorer_client_for, anon_client,
                                                django_capture_on_commit_callbacks):
    s = jie_long
    with django_capture_on_commit_callbacks(execute=True):
        audit_id = api.post(f"/api/v1/tournaments/{s.tournament.pk}/audits/").json()["id"]
    stranger_client = APIClient()
    stranger_client.force_authenticate(other_director)
    seen: set[int] = set()
    stranger = Checked(stranger_client, seen)
    scorer = Checked(scorer_client_for(s.token), seen)
    anon = Checked(anon_client, seen)
    for who in (stranger, scorer):
        assert who.post(f"/api/v1/tournaments/{s.tournament.pk}/audits/").status_code == 404
        assert who.get(f"/api/v1/audits/{audit_id}/").status_code == 404
    assert anon.post(f"/api/v1/tournaments/{s.tournament.pk}/audits/").status_code == 401
    assert anon.get(f"/api/v1/audits/{audit_id}/").status_code == 401
    assert api.get("/api/v1/audits/999999/").status_code == 404
    assert api.post("/api/v1/tournaments/999999/audits/").status_code == 404
    assert Audit.objects.count() == 1
