"""A table's scorer link: its address and its QR code (drawn only when the plain token is
known, right after the link is made: tokens are stored hashed); a tournament's check-in page
(``check_in_url``: the room's QR code)."""

from __future__ import annotations

import io
import ipaddress
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.urls import reverse


def scorer_path(token: str) -> str:
    """The scorer page of a table: ``/s/<token>/``."""
    return reverse("scorer-table", args=[token])


def scorer_url(token: str, request=None) -> str:
    """The full link a phone opens: on the configured site address (``SITE_URL``, which
    ``make club`` sets) when there is one, whatever ``Host`` the request named; else on the
    request's own address (a host ``ALLOWED_HOSTS`` admitted); the path alone without either."""
    path = scorer_path(token)
    if settings.SITE_URL:
        return settings.SITE_URL + path
    return request.build_absolute_uri(path) if request is not None else path


def site_base(request=None) -> str:
    """The address links are built on, as ``scorer_url`` chooses it (``SITE_URL``, else the
    request's scheme and host; empty without either): what a worker that draws links later is
    given, since it has no request."""
    if settings.SITE_URL:
        return settings.SITE_URL
    return request.build_absolute_uri("/").rstrip("/") if request is not None else ""


def scorer_url_on(base: str, token: str) -> str:
    """A table's scorer link on ``base`` (``site_base``)."""
    return base + scorer_path(token)


def check_in_path(tournament) -> str:
    """The players' check-in page of a tournament: ``/t/<slug>/check-in/`` (public tournaments)."""
    return reverse("public-check-in", args=[tournament.slug])


def check_in_url(tournament, request=None) -> str:
    """The full address of the check-in page, as ``scorer_url`` builds it: what the room's QR code
    (the director's check-in sheet, a room display) links to."""
    path = check_in_path(tournament)
    if settings.SITE_URL:
        return settings.SITE_URL + path
    return request.build_absolute_uri(path) if request is not None else path


def qr_svg(url: str, *, scale: int = 4) -> str:
    """An inline SVG QR code of ``url``."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=scale, xmldecl=False, svgns=True, border=2)
    return out.getvalue().decode("utf-8")


def is_loopback(url: str) -> bool:
    """Whether ``url`` names this computer only (localhost, 127.x, ::1): a phone at a table
    cannot open it, so its QR code is no use there."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
