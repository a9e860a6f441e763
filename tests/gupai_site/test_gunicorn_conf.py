"""gupai_site/gunicorn.conf.py: gunicorn's own limits on a request's head, set explicitly, as
gunicorn reads them and as a client meets them (the real server)."""

from __future__ import annotations

import http.client
import runpy
from pathlib import Path

import pytest
from gunicorn.config import Config

from tests.gupai_site.test_security import production_env
from tests.integration.stack import Site

CONF = Path(__file__).resolve().parents[2] / "gupai_site" / "gunicorn.conf.py"


def test_the_limits_are_set_and_taken_by_gunicorn():
    values = runpy.run_path(str(CONF))
    cfg = Config()
    for name in ("limit_request_line", "limit_request_fields", "limit_request_field_size"):
        cfg.set(name, values[name])
    assert (cfg.limit_request_line, cfg.limit_request_fields, cfg.limit_request_field_size) == (8190, 100, 8190)
    assert cfg.limit_request_line > Config().limit_request_line  # above gunicorn's default, 4094


@pytest.fixture
def site(tmp_path):
    env = production_env(tmp_path, SECURE_SSL_REDIRECT="0")
    site = Site(redis_url="", workers=1, database_url=env.pop("DATABASE_URL"), extra_env=env,
                log_path=tmp_path / "gunicorn.log")
    yield site
    site.stop()


def status_of(site: Site, path: str, headers: dict[str, str] | None = None) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=30)
    try:
        conn.putrequest("GET", path, skip_host=True)
        conn.putheader("Host", "example.org")
        for name, value in (headers or {}).items():
            conn.putheader(name, value)
        conn.endheaders()
        return conn.getresponse().status
    finally:
        conn.close()


def test_a_client_meets_them_only_far_beyond_real_requests(site):
    line = len("GET  HTTP/1.1")
    assert status_of(site, "/" + "a" * (6000 - line) + "/") == 404  # past gunicorn's default: Django answers
    assert status_of(site, "/" + "a" * (8190 - line) + "/") == 414  # the line limit
    assert status_of(site, "/no/", {f"X-Field-{i}": "1" for i in range(80)}) == 404
    assert status_of(site, "/no/", {f"X-Field-{i}": "1" for i in range(120)}) == 431
    assert status_of(site, "/no/", {"X-Long": "b" * 8000}) == 404
    assert status_of(site, "/no/", {"X-Long": "b" * 9000}) == 431


def test_a_count_that_is_no_number_is_the_default(monkeypatch):
    """"²" passed str.isdigit and then failed int(): gunicorn did not start."""
    monkeypatch.setenv("PORT", "²")
    monkeypatch.setenv("GUNICORN_WORKERS", "٣")
    monkeypatch.setenv("WEB_CONCURRENCY", "1e3")
    values = runpy.run_path(str(CONF))
    assert values["bind"] == ["0.0.0.0:8000"] and 1 <= values["workers"] <= 8
