"""Pages and JSON travel gzipped to clients that accept it (GZipMiddleware, gupai_site/settings.py),
and the live fragments still answer 304 to the weakened ETag a gzipped answer carries."""

from __future__ import annotations

import gzip

import pytest
from django.conf import settings

from scoring.services.rounds import round_record

from ..scoring.bodies import JIE_LONG

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def pages(setup) -> dict[str, str]:
    return {"scorer page": f"/s/{setup.token}/", "public standings": f"/t/{setup.tournament.slug}/",
            "public table": f"/t/{setup.tournament.slug}/tables/{setup.table.pk}/", "home": "/"}


def test_pages_are_gzipped_for_a_client_that_accepts_it(client, jie_long):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    for name, url in pages(jie_long).items():
        plain = client.get(url)
        packed = client.get(url, **GZIP)
        assert plain.status_code == packed.status_code == 200, name
        assert not plain.has_header("Content-Encoding"), name
        assert packed["Content-Encoding"] == "gzip", name
        assert "Accept-Encoding" in packed["Vary"], name  # a shared cache keeps both answers apart
        page = gzip.decompress(packed.content).decode()
        assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>"), name
        # Much smaller: half at most, a quarter for the long scorer page (here 31 kB → 4.5 kB); a
        # short page carries gzip's header and Django's up to 100 random bytes.
        most = 0.25 if name == "scorer page" else 0.5
        assert len(packed.content) < len(plain.content) * most, (name, len(plain.content), len(packed.content))


def test_json_is_gzipped_too(client, jie_long):
    url = f"/api/v1/tournaments/{jie_long.tournament.pk}/standings/"
    plain = client.get(url)
    packed = client.get(url, **GZIP)
    assert plain.status_code == packed.status_code == 200
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content


def test_the_live_fragments_answer_304_to_the_weak_tag_of_a_gzipped_answer(client, jie_long, director):
    public = f"/t/{jie_long.tournament.slug}/live/"
    table = f"/t/{jie_long.tournament.slug}/tables/{jie_long.table.pk}/live/"
    dashboard = f"/director/tournaments/{jie_long.tournament.pk}/live/"
    client.force_login(director)
    tags = {}
    for url in (public, table, dashboard):
        first = client.get(url, **GZIP)
        assert first.status_code == 200 and first["Content-Encoding"] == "gzip", url
        tags[url] = first["ETag"]
        assert tags[url].startswith('W/"'), url  # GZipMiddleware weakened it
        # What static/js/live.js sends back: the tag as it came.
        assert client.get(url, HTTP_IF_NONE_MATCH=tags[url], **GZIP).status_code == 304, url
        assert client.get(url, HTTP_IF_NONE_MATCH=tags[url]).status_code == 304, url  # and without gzip
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    for url in (public, table, dashboard):
        again = client.get(url, HTTP_IF_NONE_MATCH=tags[url], **GZIP)
        assert again.status_code == 200 and again["ETag"] != tags[url], url


def test_gzip_comes_after_whitenoise_and_before_what_reads_a_body():
    """WhiteNoise answers static files itself (collectstatic compressed them); every middleware
    below GZip sees the page before it is compressed."""
    order = settings.MIDDLEWARE
    gzip_at = order.index("django.middleware.gzip.GZipMiddleware")
    assert order.index("whitenoise.middleware.WhiteNoiseMiddleware") < gzip_at
    # The client's address is set first of all: it reads no body.
    readers = [m for m in order if m.startswith(("csp.", "django.contrib.", "scoring."))
               and m != "scoring.web.client_address.ClientAddressMiddleware"]
    assert gzip_at < min(order.index(m) for m in readers)
