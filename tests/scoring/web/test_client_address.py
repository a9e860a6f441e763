"""The client's address: X-Forwarded-For is believed only with BEHIND_PROXY, and then only the
entry our own proxy wrote (scoring/web/client_address.py)."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from scoring.web.client_address import ClientAddressMiddleware, client_address


@pytest.mark.parametrize("header, hops, expected", [
    ("198.51.100.7", 1, "198.51.100.7"),
    ("6.6.6.6, 198.51.100.7", 1, "198.51.100.7"),  # a forged first entry is not the client
    ("6.6.6.6, 198.51.100.7, 10.0.0.3", 2, "198.51.100.7"),  # two proxies of ours
    ("198.51.100.7", 2, "10.0.0.1"),  # fewer entries than proxies: not from our proxies
    ("2001:db8::1", 1, "2001:db8::1"),
    ("[2001:db8::1]:4711", 1, "2001:db8::1"),
    ("198.51.100.7:4711", 1, "198.51.100.7"),
    ("not-an-address", 1, "10.0.0.1"),
    ("", 1, "10.0.0.1"),
    (None, 1, "10.0.0.1"),
])
def test_client_address(header, hops, expected):
    assert client_address(header, "10.0.0.1", hops) == expected


def seen_address(**meta) -> str:
    seen = {}

    def view(request):
        seen["ip"] = request.META.get("REMOTE_ADDR")
        return HttpResponse()

    ClientAddressMiddleware(view)(RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", **meta))
    return seen["ip"]


def test_without_a_proxy_the_header_is_ignored():
    assert seen_address(HTTP_X_FORWARDED_FOR="6.6.6.6") == "10.0.0.1"


@override_settings(BEHIND_PROXY=True, PROXY_HOPS=1)
def test_behind_a_proxy_the_client_is_the_proxys_entry():
    assert seen_address(HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7") == "198.51.100.7"
    assert seen_address() == "10.0.0.1"


def test_it_runs_before_everything_that_reads_the_address():
    from django.conf import settings

    assert settings.MIDDLEWARE[0] == "scoring.web.client_address.ClientAddressMiddleware"
