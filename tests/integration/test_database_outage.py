"""PostgreSQL down or restarting, through the real stack (gunicorn, gupai_site/gunicorn.conf.py,
production settings): the API answers a JSON 503 with Retry-After, never an HTML page; the pages
answer the friendly 503 page; and after a restart no request fails on a worker's dead persistent
connection (CONN_HEALTH_CHECKS).

Never the machine's shared PostgreSQL: the first test points gunicorn at a port where nothing
listens, the second starts a cluster of its own (initdb in a temporary folder) and stops it."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

from .stack import ROOT, PostgresCluster, Site, free_port

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                       reason="a PostgreSQL outage, tested where the tests run on PostgreSQL (DATABASE_URL=postgres://…)"),
]

PASSWORD = "alice-secret-1"


def call(site: Site, method: str, path: str, body=None, headers: dict | None = None):
    """``(status, headers with lower-case names, text)``."""
    conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=30)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json", **(headers or {})})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode("utf-8", "replace")
    finally:
        conn.close()


def assert_json_503(status: int, headers: dict, text: str) -> None:
    assert status == 503, (status, text[:500])
    assert headers["content-type"] == "application/json", text[:500]
    assert 1 <= int(headers["retry-after"]) <= 10
    body = json.loads(text)
    assert [(e["path"], e["code"]) for e in body["errors"]] == [("", "database_unavailable")]


def test_the_api_answers_json_503_when_the_database_refuses_connections(tmp_path):
    nowhere = f"postgres://postgres@127.0.0.1:{free_port()}/gupai"  # nothing listens there
    site = Site(redis_url="", workers=2, database_url=nowhere, log_path=tmp_path / "gunicorn.log")
    try:
        for method, path, body, headers in [
            ("GET", "/api/v1/clubs/", None, {"Authorization": "Token 0123456789abcdef"}),
            ("GET", "/api/v1/tables/1/", None, {"Authorization": "Scorer some-scorer-token"}),
            ("POST", "/api/v1/tables/1/rounds/", {"points": [2, 12, 34, 18], "entered_by": 0},
             {"Authorization": "Scorer some-scorer-token", "Idempotency-Key": "k-1"}),
            ("POST", "/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}, {}),
        ] * 2:  # both workers
            assert_json_503(*call(site, method, path, body, headers))
        for path in ["/", "/s/some-scorer-token/"]:
            status, headers, text = call(site, "GET", path, headers={"Accept-Language": "en"})
            assert status == 503 and headers["content-type"].startswith("text/html") and "retry-after" in headers
            assert "Back in a moment" in text and "Traceback" not in text
        assert "Internal Server Error" not in site.log_text()
    finally:
        site.stop()


@pytest.fixture
def cluster():
    reason = PostgresCluster.available()
    if reason:
        pytest.skip(reason)
    pg = PostgresCluster()
    try:
        pg.start()
        yield pg
    finally:
        pg.remove()


def manage(database_url: str, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DEBUG")}
    env.update(DATABASE_URL=database_url, SECRET_KEY="stack-test-key", DEBUG="0")
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_restart_costs_no_request_and_an_outage_answers_503(cluster, tmp_path):
    url = cluster.create_database("gupai_outage")
    manage(url, "migrate", "--noinput")
    manage(url, "create_director", "alice", "--password", PASSWORD)
    # Production's persistent connections (CONN_MAX_AGE 60 outside the tests), two workers.
    site = Site(redis_url="", workers=2, database_url=url, log_path=tmp_path / "gunicorn.log")
    try:
        status, _, text = call(site, "POST", "/api/v1/auth/token/", {"username": "alice", "password": PASSWORD})
        assert status == 200, text
        director = {"Authorization": f"Token {json.loads(text)['token']}"}

        def statuses(n: int) -> list[int]:
            return [call(site, "GET", "/api/v1/clubs/", headers=director)[0] for _ in range(n)]

        assert statuses(8) == [200] * 8  # every worker now holds a connection

        # A restart while nobody asks: each worker's connection is dead when the next request
        # comes. The health check drops it and connects again: no request fails.
        cluster.stop()
        cluster.start()
        assert statuses(8) == [200] * 8, site.log_text()[-3000:]

        # Down: the API answers its JSON 503, the pages their 503 page.
        cluster.stop()
        for _ in range(4):
            assert_json_503(*call(site, "GET", "/api/v1/clubs/", headers=director))
        status, headers, text = call(site, "GET", "/")
        assert status == 503 and "Back in a moment" in text and "retry-after" in headers

        # Back: at once.
        cluster.start()
        assert statuses(8) == [200] * 8
        assert "Internal Server Error" not in site.log_text()
    finally:
        site.stop()
