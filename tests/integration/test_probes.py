"""The probes and the metrics as deployed: gunicorn with two workers (``gupai_site/gunicorn.conf.py``),
PostgreSQL, and a Redis this test starts and kills. ``/readyz`` names Redis once it is gone, within
its timeout; ``/metrics`` adds up both workers (``PROMETHEUS_MULTIPROC_DIR``), from a folder
emptied at start."""

from __future__ import annotations

import shutil

import pytest
from django.conf import settings
from prometheus_client.parser import text_string_to_metric_families

from .stack import RedisServer, Site

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server (Debian's redis-server)"),
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                       reason="gunicorn needs a database it can share with the test: PostgreSQL (DATABASE_URL)"),
]


@pytest.fixture
def stack(transactional_db, tmp_path):
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    (metrics_dir / "counter_999999.db").write_bytes(b"an earlier run's counts")
    redis = RedisServer()
    redis.start()
    site = Site(redis_url=redis.url, extra_env={"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)})
    try:
        yield redis, site, metrics_dir
    finally:
        site.stop()
        redis.stop()


def test_readyz_names_redis_once_it_is_gone(stack):
    redis, site, _ = stack
    status, body, _ = site.request("GET", "/readyz")
    assert body["checks"]["redis"]["ok"] is True and body["checks"]["database"]["ok"] is True
    redis.stop()
    status, body, took = site.request("GET", "/readyz")
    assert status == 503
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True
    assert took < 5   # the checks' own timeouts, not a hang
    assert site.request("GET", "/healthz")[:2] == (200, "ok")


def test_metrics_add_up_both_workers(stack):
    _, site, metrics_dir = stack
    assert not (metrics_dir / "counter_999999.db").exists()   # emptied when gunicorn started
    for _ in range(40):
        assert site.request("GET", "/healthz")[0] == 200
    status, text, _ = site.request("GET", "/metrics")
    assert status == 200
    counts = {tuple(sorted(s.labels.items())): s.value
              for family in text_string_to_metric_families(text) for s in family.samples
              if s.name == "django_http_responses_total_by_status_view_method_total"}
    assert counts[(("method", "GET"), ("status", "200"), ("view", "healthz"))] == 40
    assert "gupai_queue_length" in text
