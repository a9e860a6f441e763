"""``/metrics`` (gupai_site/metrics.py): Prometheus' text, from loopback or with the token only;
requests by view and status, deals recorded and refused, streams held."""

from __future__ import annotations

import shutil

import pytest
import redis
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from gupai_site.asgi import build
from scoring.services.rounds import round_record
from tests.integration.stack import RedisServer
from tests.scoring.web.sse import in_a_thread_of_its_own

JIE_LONG = {"points": [2, 12, 34, 18], "leader": 0, "entered_by": 0}


def samples(client) -> dict:
    """Every sample of a scrape: {(name, (sorted labels)): value}."""
    r = client.get("/metrics")
    assert r.status_code == 200
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(r.content.decode()) for s in family.samples}


def test_loopback_reads_the_metrics_in_prometheus_text(client):
    r = client.get("/metrics")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/plain; version=")
    assert b"# TYPE gupai_deals_recorded_total counter" in r.content
    assert client.get("/metrics", REMOTE_ADDR="::1").status_code == 200


@pytest.mark.parametrize("address", ["203.0.113.5", "10.0.0.7", "192.168.1.20"])
def test_another_address_gets_not_found(client, address):
    r = client.get("/metrics", REMOTE_ADDR=address)
    assert r.status_code == 404
    assert b"gupai_" not in r.content


def test_a_forwarded_loopback_address_is_not_believed_without_a_proxy(client):
    r = client.get("/metrics", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert r.status_code == 404


def test_the_token_opens_it_from_anywhere(client, settings):
    settings.METRICS_TOKEN = "a-long-random-metrics-token"
    remote = {"REMOTE_ADDR": "203.0.113.5"}
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer a-long-random-metrics-token", **remote).status_code == 200
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer a-long-random-metrics-tokeN", **remote).status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="a-long-random-metrics-token", **remote).status_code == 404
    assert client.get("/metrics", **remote).status_code == 404


def test_no_token_configured_opens_nothing(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.5", HTTP_AUTHORIZATION="Bearer ").status_code == 404


def test_requests_are_counted_by_view_and_status(client):
    client.get("/healthz")
    key = ("django_http_responses_total_by_status_view_method_total",
           (("method", "GET"), ("status", "200"), ("view", "healthz")))
    before = samples(client).get(key, 0)
    client.get("/healthz")
    assert samples(client)[key] == before + 1


def test_a_recorded_deal_is_counted_once_committed(client, make_setup, django_capture_on_commit_callbacks):
    setup = make_setup("jie_long")
    before = samples(client)[("gupai_deals_recorded_total", ())]
    with django_capture_on_commit_callbacks(execute=True):
        round_record(actor=setup.scorer_actor, table=setup.table, body=JIE_LONG)
    assert samples(client)[("gupai_deals_recorded_total", ())] == before + 1


def test_a_refused_deal_is_counted_by_route_and_status(client, make_setup, scorer_client_for):
    setup = make_setup("jie_long")
    scorer = scorer_client_for(setup.token)
    key = ("gupai_deals_refused_total", (("route", "api-table-rounds"), ("status", "400")))
    before = samples(client).get(key, 0)
    recorded = samples(client)[("gupai_deals_recorded_total", ())]
    r = scorer.post(f"/api/v1/tables/{setup.table.pk}/rounds/", {**JIE_LONG, "points": [1, 2, 3]}, format="json")
    assert r.status_code == 400
    after = samples(client)
    assert after[key] == before + 1
    assert after[("gupai_deals_recorded_total", ())] == recorded


def test_the_replica_lag_is_read_when_scraped(client, replica):
    assert samples(client)[("gupai_replica_lag_seconds", ())] == 0   # the primary as its own replica


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server (Debian's redis-server)")
def test_queue_lengths_are_read_from_redis_when_scraped(client, settings):
    server = RedisServer()
    server.start()
    try:
        settings.REDIS_URL = server.url
        redis.Redis.from_url(server.url).lpush("celery", "a", "b", "c")
        found = samples(client)
    finally:
        server.stop()
    assert found[("gupai_queue_length", (("queue", "celery"),))] == 3
    assert found[("gupai_queue_length", (("queue", "documents"),))] == 0


def held() -> float:
    return REGISTRY.get_sample_value("gupai_event_streams_held")


def test_an_events_stream_is_counted_while_held():
    app = build(lambda environ, start_response: [], threads=1)   # never reached: the stream's route
    seen = []
    before = held()

    async def receive():
        return {"type": "http.disconnect"}

    async def send(message):
        seen.append(held())

    # A POST is answered 405 by the stream's handler at once: held for that moment only.
    scope = {"type": "http", "method": "POST", "path": "/api/v1/tournaments/1/events/", "query_string": b"",
             "headers": [], "client": ("10.0.0.9", 1234), "http_version": "1.1"}
    in_a_thread_of_its_own(app(scope, receive, send))
    assert seen and all(value == before + 1 for value in seen)
    assert held() == before
