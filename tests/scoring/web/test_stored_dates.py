"""Issue 16: a stored date can always be read back. The first and last moments a ``datetime``
holds, stored in a deal and its tournament and read in a time zone that cannot hold them
(year 0 in New York, year 10000 in Shanghai), made the public table page answer 500 and the API
400 on every read (``scoring.web.times``). Every page and answer reading them works, and so does
an audit; and an audit that meets a value no reader can take names it (``test_audit_errors.py``)."""

from __future__ import annotations

from datetime import datetime
from datetime import timezone as dt_timezone

import pytest
from django.utils import timezone

from scoring.api.fields import DateTimeField
from scoring.models import Audit, Round, Tournament
from scoring.services.rounds import round_dispute, round_record
from scoring.templatetags.times import when

from ..services.test_audits import run_audit

pytestmark = pytest.mark.django_db

FIRST = datetime(1, 1, 1, tzinfo=dt_timezone.utc)
LAST = datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=dt_timezone.utc)
#: A zone west of Greenwich (the first moment is year 0 there) and one east (the last is 10000).
ZONES = ["America/New_York", "Asia/Shanghai"]


@pytest.fixture
def extreme(jie_long, monkeypatch, request):
    """A deal, its revisions and its tournament stored at ``request.param`` (as a service would
    write them if the clock said so: revisions cannot be changed once written)."""
    moment = request.param
    s = jie_long
    with monkeypatch.context() as m:
        m.setattr(timezone, "now", lambda: moment)
        rnd = round_record(actor=s.scorer_actor, table=s.table, body={"leader": 0, "points": [2, 12, 34, 18]})
        round_dispute(actor=s.scorer_actor, round=rnd, message="check")
    Round.objects.filter(pk=rnd.pk).update(confirmed_at=moment)
    Tournament.objects.filter(pk=s.tournament.pk).update(created_at=moment, started_at=moment)
    return s, rnd, moment


def reads(s, rnd) -> list[tuple[str, str]]:
    t = s.tournament
    public = [f"/t/{t.slug}/", f"/t/{t.slug}/tables/{s.table.pk}/", f"/t/{t.slug}/tables/{s.table.pk}/live/",
              f"/t/{t.slug}/live/", f"/t/{t.slug}/players/{s.entries[0].player_id}/", f"/t/{t.slug}/payouts/", "/"]
    api = [f"/api/v1/tournaments/{t.pk}/export/", f"/api/v1/tables/{s.table.pk}/rounds/", f"/api/v1/rounds/{rnd.pk}/",
           f"/api/v1/rounds/{rnd.pk}/revisions/", f"/api/v1/tournaments/{t.pk}/standings/",
           f"/api/v1/tournaments/{t.pk}/standings.csv", f"/api/v1/tournaments/{t.pk}/", "/api/v1/tournaments/"]
    pages = [f"/director/tournaments/{t.pk}/", f"/director/tables/{s.table.pk}/", "/director/"]
    return [("anon", u) for u in public] + [("api", u) for u in api] + [("page", u) for u in pages]


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("extreme", [FIRST, LAST], indirect=True, ids=["first", "last"])
def test_every_reader_takes_the_first_and_last_moments(extreme, zone, settings, anon_client, director_client,
                                                       client, django_capture_on_commit_callbacks):
    s, rnd, moment = extreme
    settings.TIME_ZONE = zone
    client.force_login(s.director)
    clients = {"anon": anon_client, "api": director_client, "page": client}
    answers = {url: clients[who].get(url).status_code for who, url in reads(s, rnd)}
    assert answers == {url: 200 for url in answers}
    revisions = director_client.get(f"/api/v1/rounds/{rnd.pk}/revisions/").json()["revisions"]
    # shown in the zone where it can be, else in UTC: never a refusal
    assert datetime.fromisoformat(revisions[0]["created_at"]) == moment.replace(microsecond=moment.microsecond // 1000
                                                                                * 1000)
    audit = run_audit(s, django_capture_on_commit_callbacks)
    assert audit.status == Audit.Status.PASSED and audit.error == ""


@pytest.mark.parametrize("zone, moment, shown", [
    ("America/New_York", FIRST, "0001-01-01 00:00"),         # year 0 there: UTC
    ("Asia/Shanghai", LAST, "9999-12-31 23:59"),              # year 10000 there: UTC
    ("America/New_York", LAST, "9999-12-31 18:59"),           # in the zone where it can be
    ("Asia/Shanghai", datetime(2026, 2, 3, 10, 0, tzinfo=dt_timezone.utc), "2026-02-03 18:00"),
])
def test_the_when_filter_shows_local_time_or_utc(zone, moment, shown):
    with timezone.override(zone):
        assert when(moment, "Y-m-d H:i") == shown
        assert DateTimeField().to_representation(moment)[:16].replace("T", " ") == shown


def test_the_when_filter_takes_what_date_takes():
    assert when(None, "H:i") == "" and when("", "H:i") == ""
