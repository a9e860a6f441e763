"""Django's own refusals as pages for people: a request naming a host the site does not answer
to (``DisallowedHost``, e.g. ``localhost`` while ``make club`` serves its LAN address) is told
where the site is, ``SITE_URL``, instead of a bare "Bad Request (400)". Under ``/api/`` the
answer is reshaped into the API's JSON (``scoring.web.api_refusals``)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.shortcuts import render
from django.views import defaults


def bad_request(request, exception=None):
    """handler400: a host not allowed, with SITE_URL set, is pointed at the site's address."""
    if isinstance(exception, DisallowedHost) and settings.SITE_URL:
        # The page names no host of the request (reading it would refuse again): it stands alone.
        return render(request, "wrong_host.html", {"site_url": settings.SITE_URL}, status=400)
    return defaults.bad_request(request, exception)
