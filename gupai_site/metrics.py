"""``GET /metrics`` in Prometheus' text format, readable from loopback or with ``METRICS_TOKEN``.

What it holds:

- requests by view, method and status, with their times (django-prometheus' middleware,
  ``django_http_responses_total_by_status_view_method_total`` and the others);
- ``gupai_deals_recorded_total``: deals recorded, counted when the transaction that wrote their
  ``round_record`` log row commits (a signal: the services know nothing of metrics);
- ``gupai_deals_refused_total{route,status}``: posts of a deal that the site refused (a 4xx
  other than 404/405 from a route that records deals), counted at the web edge;
- ``gupai_event_streams_held``: live events streams held now (``gupai_site.asgi`` counts them);
- ``gupai_queue_length{queue}`` (the Redis list of each Celery queue) and
  ``gupai_replica_lag_seconds``, read when scraped.

Several processes (gunicorn's workers): with ``PROMETHEUS_MULTIPROC_DIR`` set, prometheus_client
keeps each process's values in files there and a scrape adds them up (``gunicorn.conf.py`` empties
the folder at start and marks dead workers). Without it each process answers for itself.

Who may read: a request from a loopback address (``REMOTE_ADDR`` as ``ClientAddressMiddleware``
left it: ``X-Forwarded-For`` only with ``BEHIND_PROXY``), or one with ``Authorization: Bearer
<METRICS_TOKEN>`` (compared in constant time). Anyone else gets the site's 404.
"""

from __future__ import annotations

import hmac
import ipaddress
import os

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
from django.http import Http404, HttpResponse
from django.views.decorators.cache import never_cache
from django_prometheus.middleware import PrometheusAfterMiddleware
from django_prometheus.utils import Time
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Gauge, generate_latest
from prometheus_client.core import GaugeMetricFamily

from gupai_site import health
from scoring.domain.inputs import parse_whole_number

DEALS_RECORDED = Counter("gupai_deals_recorded", "Deals recorded (committed).")
DEALS_REFUSED = Counter("gupai_deals_refused", "Posts of a deal refused (4xx but 404/405).", ["route", "status"])
STREAMS_HELD = Gauge("gupai_event_streams_held", "Live events streams held now.", multiprocess_mode="livesum")

#: The routes that record a deal (the API, the scorer's page, the director's form).
DEAL_ROUTES = frozenset({"api-table-rounds", "scorer-table", "director-table-deal"})
#: Not a refusal of a deal: no such table, or not a way to post one.
NOT_REFUSALS = frozenset({404, 405})


# --- deals ----------------------------------------------------------------------------------------

def _deal_logged(sender, instance, created, **kwargs) -> None:
    from scoring.models import ActionLog

    if created and instance.action == ActionLog.Action.ROUND_RECORD:
        transaction.on_commit(DEALS_RECORDED.inc)


def connect() -> None:
    """Count recorded deals from their log rows (``apps.ready``)."""
    from scoring.models import ActionLog

    post_save.connect(_deal_logged, sender=ActionLog, dispatch_uid="gupai_site.metrics.deals_recorded")


class DealsRefusedMiddleware:
    """Counts the deals refused: a POST to a ``DEAL_ROUTES`` route answered 4xx (not 404/405)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        status = response.status_code
        if request.method == "POST" and match is not None and match.url_name in DEAL_ROUTES \
                and 400 <= status < 500 and status not in NOT_REFUSALS:
            DEALS_REFUSED.labels(route=match.url_name, status=str(status)).inc()
        return response


class RequestsMiddleware(PrometheusAfterMiddleware):
    """django-prometheus' requests by view, method and status (last in ``MIDDLEWARE``), with the
    body's size read from ``Content-Length`` by the site's parser: its own ``int()`` made a 500 of
    a header such as "²" (tests/scoring/test_hostile_parameters.py)."""

    def process_request(self, request):
        self.label_metric(self.metrics.requests_by_method, request, method=self._method(request)).inc()
        self.label_metric(self.metrics.requests_by_transport, request, transport=self._transport(request)).inc()
        if request.headers.get("x-requested-with") == "XMLHttpRequest":
            self.label_metric(self.metrics.requests_ajax, request).inc()
        size = parse_whole_number(request.headers.get("content-length") or "0", low=0, high=2**63 - 1)
        self.label_metric(self.metrics.requests_body_bytes, request).observe(size or 0)
        request.prometheus_after_middleware_event = Time()


# --- read when scraped ----------------------------------------------------------------------------

class ScrapeTimeCollector:
    """Queue lengths and the replica's lag, asked when Prometheus scrapes (each within a second)."""

    def collect(self):
        client = health.redis_client()
        if client is not None:
            lengths = GaugeMetricFamily("gupai_queue_length", "Messages waiting in each Celery queue.",
                                        labels=["queue"])
            try:
                for name in health.queue_names():
                    lengths.add_metric([name], client.llen(name))
            except Exception:  # noqa: BLE001, S110 - Redis away: no lengths, /readyz tells why
                pass
            finally:
                client.close()
            yield lengths
        if health.replica_configured():
            try:
                lag, _ = health.replica_lag()
            except Exception:  # noqa: BLE001 - the replica away: no figure, /readyz tells why
                lag = None
            if lag is not None:
                yield GaugeMetricFamily("gupai_replica_lag_seconds", "The replica's replay lag.", value=lag)


def exposition() -> bytes:
    """Every metric of the site, in Prometheus' text format."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    scraped = CollectorRegistry(auto_describe=False)
    scraped.register(ScrapeTimeCollector())
    return generate_latest(registry) + generate_latest(scraped)


# --- who may read ---------------------------------------------------------------------------------

def from_loopback(address: str | None) -> bool:
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or bool(mapped and mapped.is_loopback)


def has_token(request) -> bool:
    token = settings.METRICS_TOKEN
    if not token:
        return False
    scheme, _, given = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


@never_cache
def metrics(request):
    if request.method not in ("GET", "HEAD") or not (from_loopback(request.META.get("REMOTE_ADDR"))
                                                      or has_token(request)):
        raise Http404
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)
