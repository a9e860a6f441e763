"""SITE_URL (gupai_site/settings.py): the site's address as phones reach it. Scorer links and
QR codes are built from it whatever Host a request names, and with ALLOWED_HOSTS set Django
refuses a foreign Host outright."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from gupai_site.settings import site_url
from scoring.web import links

SITE = "http://192.168.1.20:8000"


@pytest.mark.parametrize(("raw", "value"), [("", ""), ("  ", ""), (SITE, SITE), (SITE + "/", SITE),
                                            ("https://club.example", "https://club.example"),
                                            ("http://[fd00::20]:8000", "http://[fd00::20]:8000")])
def test_site_url_is_a_scheme_a_host_and_a_port(raw, value):
    assert site_url(raw) == value


@pytest.mark.parametrize("raw", ["192.168.1.20:8000", "ftp://club.example", "http://", "http://x:port",
                                 "http://club.example/gupai", "http://club.example/?a=1", "http://u:p@club.example"])
def test_anything_else_is_refused_at_start(raw):
    with pytest.raises(ImproperlyConfigured, match="SITE_URL"):
        site_url(raw)


def test_links_and_qr_codes_come_from_site_url_whatever_host_says(settings, rf):
    settings.SITE_URL = SITE
    settings.ALLOWED_HOSTS = ["*"]  # even where any Host is let through
    forged = rf.get("/", HTTP_HOST="evil.example")
    assert links.scorer_url("abc", forged) == f"{SITE}/s/abc/"
    assert links.scorer_url("abc") == f"{SITE}/s/abc/"
    assert links.qr_svg(links.scorer_url("abc", forged)) == links.qr_svg(f"{SITE}/s/abc/")
    settings.SITE_URL = ""
    assert links.scorer_url("abc", forged) == "http://evil.example/s/abc/"  # what SITE_URL is there for


@pytest.mark.django_db
def test_a_forged_host_is_refused_when_allowed_hosts_is_set(settings, client):
    settings.ALLOWED_HOSTS = ["192.168.1.20"]
    assert client.get("/", HTTP_HOST="evil.example").status_code == 400
    assert client.get("/", HTTP_HOST="evil.example:8000").status_code == 400
    assert client.get("/", HTTP_HOST="192.168.1.20:8000").status_code == 200



@pytest.mark.django_db
def test_a_host_not_allowed_is_told_the_sites_address(settings, client):
    """``make club`` opened at localhost: a small page says which address to open (400); the API
    keeps its JSON error shape."""
    settings.ALLOWED_HOSTS, settings.SITE_URL = ["192.168.1.20"], "http://192.168.1.20:8000"
    r = client.get("/director/", HTTP_HOST="localhost:8000")
    page = r.content.decode()
    assert r.status_code == 400 and r["Content-Type"].startswith("text/html")
    assert 'Open <a href="http://192.168.1.20:8000/">http://192.168.1.20:8000</a> instead.' in page
    assert "localhost" not in page
    api = client.get("/api/v1/clubs/", HTTP_HOST="localhost:8000")
    assert api.status_code == 400 and api.json()["errors"][0]["code"] == "bad_request"
    settings.SITE_URL = ""
    r = client.get("/", HTTP_HOST="localhost:8000")
    assert r.status_code == 400 and "Open" not in r.content.decode()


@pytest.mark.django_db
def test_the_director_s_link_page_and_the_api_use_site_url(settings, client, director_client, jie_long):
    settings.SITE_URL = SITE
    settings.ALLOWED_HOSTS = ["*"]
    client.force_login(jie_long.director)
    page = client.post(f"/director/tables/{jie_long.table.pk}/rotate/", HTTP_HOST="evil.example").content.decode()
    assert f'{SITE}/s/' in page and "evil.example" not in page
    assert "Phones cannot open these links" not in page
    response = director_client.post(f"/api/v1/tables/{jie_long.table.pk}/scorer-token/", HTTP_HOST="evil.example")
    assert response.status_code in (200, 201), response.content
    assert response.json()["scorer_url"].startswith(f"{SITE}/s/")


@pytest.mark.django_db
def test_a_loopback_site_url_warns_wherever_the_page_was_opened(settings, client, jie_long):
    settings.SITE_URL = "http://127.0.0.1:8000"
    settings.ALLOWED_HOSTS = ["192.168.1.20"]
    client.force_login(jie_long.director)
    page = client.post(f"/director/tables/{jie_long.table.pk}/rotate/", HTTP_HOST="192.168.1.20").content.decode()
    assert "Phones cannot open these links" in page and "make club" in page
    page = client.post(f"/director/tables/{jie_long.table.pk}/rotate/", HTTP_HOST="192.168.1.20",
                       HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "手机打不开这些链接" in page and "<code>make club</code>" in page
