"""A scorer's token never reaches gunicorn's log: the real server with its real configuration
(gupai_site/gunicorn.conf.py), a scorer page and what its browser asks for after it (the CSS
with the page as referer), a link that no longer works (Django's "Not Found" warning), and the
API with the token in its Authorization header. Every request is in the log, masked.

gunicorn runs in a process of its own and must see the test's data: PostgreSQL (as CI runs it),
or the test's SQLite file."""

from __future__ import annotations

import http.client
import re

import pytest
from django.conf import settings

from scoring.services.tables import table_scorer_token_rotate

from .stack import Site

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith(("postgresql", "sqlite3")),
                       reason="gunicorn needs a database it can share with the test"),
]


def get(site: Site, path: str, headers: dict | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.read().decode("utf-8", "replace")
    finally:
        conn.close()


@pytest.fixture
def site(transactional_db, tmp_path):
    site = Site(redis_url="", workers=1, log_path=tmp_path / "gunicorn.log", extra_env={"LOG_LEVEL": "info"})
    try:
        yield site
    finally:
        site.stop()


def test_scorer_tokens_are_masked_in_gunicorns_log(site, make_setup):
    setup = make_setup("jie_long")
    token = setup.token
    page = f"/s/{token}/"
    status, html = get(site, page)
    assert status == 200 and "Anna" in html
    referer = f"http://127.0.0.1:{site.port}{page}"
    assert get(site, "/static/css/site.css", {"Referer": referer})[0] == 200
    assert get(site, f"/s/{token}")[0] == 301  # APPEND_SLASH
    old = token
    new = table_scorer_token_rotate(actor=setup.director_actor, table=setup.table)
    assert get(site, f"/s/{old}/deals/1/correct/")[0] == 404  # Django logs "Not Found: <path>"
    assert get(site, f"/api/v1/tables/{setup.table.pk}/", {"Authorization": f"Scorer {new}"})[0] == 200
    site.stop()  # flushes and closes the log

    log = site.log_text()
    for secret in (old, new):
        assert secret not in log
        assert secret[:6] not in log and secret[-6:] not in log  # nothing of it
    assert '"GET /s/****/ HTTP/1.1" 200' in log
    assert re.search(rf'"GET /static/css/site.css HTTP/1.1" 200 \S+ "http://127\.0\.0\.1:{site.port}/s/\*{{4}}/"',
                     log), "the referer, masked"
    assert '"GET /s/**** HTTP/1.1" 301' in log
    assert '"GET /s/****/deals/1/correct/ HTTP/1.1" 404' in log
    assert "Not Found: /s/****/deals/1/correct/" in log
    assert f'"GET /api/v1/tables/{setup.table.pk}/ HTTP/1.1" 200' in log
