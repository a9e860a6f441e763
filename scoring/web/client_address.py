"""The client's address when a reverse proxy is in front (``BEHIND_PROXY=1``), and only then.

Without a proxy, ``X-Forwarded-For`` is whatever the client chose to send: it is ignored and
``REMOTE_ADDR`` (the peer) is the client. With a proxy (which terminates TLS and appends the
address it saw to ``X-Forwarded-For``), ``ClientAddressMiddleware`` puts that address in
``REMOTE_ADDR``, so that everything downstream (actors' ``ip`` in the audit log, rate limits)
reads one trustworthy value from one place. ``PROXY_HOPS`` (default 1) is how many proxies of
ours append to the header: the client is the address that many entries from the right, never
one further left (which the client could have forged).

Here, beside the rest of what reads a request, rather than in ``gupai_site``: the events stream
needs it too, and ``gupai_site`` only wires the site together (its ASGI router, gunicorn's
logger and ``MIDDLEWARE`` use this module). gunicorn's logger imports it before Django's settings
are configured: ``django.conf.settings`` is lazy and read only when the middleware is built.
"""

from __future__ import annotations

import ipaddress
import os

from django.conf import settings

from scoring.domain.inputs import positive_setting

_TRUE = ("1", "true", "yes", "on")


def behind_proxy() -> bool:
    """``BEHIND_PROXY`` from the environment (for gunicorn, which has no Django settings)."""
    return os.environ.get("BEHIND_PROXY", "").strip().lower() in _TRUE


def proxy_hops() -> int:
    return positive_setting(os.environ.get("PROXY_HOPS"), 1)


def client_address(forwarded_for: str | None, remote_addr: str | None, hops: int = 1) -> str | None:
    """The address ``hops`` entries from the right of ``X-Forwarded-For`` when it is a valid IP
    address; else ``remote_addr`` (a missing or malformed header changes nothing)."""
    parts = [p.strip() for p in (forwarded_for or "").split(",") if p.strip()]
    if len(parts) < hops:
        return remote_addr
    candidate = parts[-hops]
    if candidate.startswith("[") and "]" in candidate:  # "[::1]:1234"
        candidate = candidate[1:candidate.index("]")]
    elif candidate.count(":") == 1:  # "1.2.3.4:5678"
        candidate = candidate.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote_addr


class ClientAddressMiddleware:
    """First in ``MIDDLEWARE``: with ``settings.BEHIND_PROXY``, ``REMOTE_ADDR`` becomes the
    client's address from ``X-Forwarded-For``; without it the header is left unread."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.enabled = bool(getattr(settings, "BEHIND_PROXY", False))
        self.hops = int(getattr(settings, "PROXY_HOPS", 1))

    def __call__(self, request):
        if self.enabled:
            meta = request.META
            address = client_address(meta.get("HTTP_X_FORWARDED_FOR"), meta.get("REMOTE_ADDR"), self.hops)
            if address:
                meta["REMOTE_ADDR"] = address
        return self.get_response(request)
