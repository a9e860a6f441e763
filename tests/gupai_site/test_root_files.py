"""What the site answers robots and browsers (gupai_site/root_files.py): /robots.txt, /favicon.ico
and the icon of every page, noindex on scorer and director pages (header and meta), and a meta
description on every page."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from gupai_site.root_files import DISALLOWED_PREFIXES

pytestmark = pytest.mark.django_db

ROBOTS_META = '<meta name="robots" content="noindex, nofollow">'
DESCRIPTION = re.compile(r'<meta name="description" content="([^"]+)">')


def private_pages(setup) -> dict[str, str]:
    """(The director's pages need a login, the login page none: it comes last.)"""
    return {"scorer page": f"/s/{setup.token}/", "a scorer link not valid": "/s/not-a-token/",
            "director home": "/director/", "dashboard": f"/director/tournaments/{setup.tournament.pk}/",
            "director table": f"/director/tables/{setup.table.pk}/", "director login": "/director/login/"}


def public_pages(setup) -> dict[str, str]:
    t = setup.tournament
    return {"home": "/", "calculator": "/calculator/", "standings": f"/t/{t.slug}/",
            "payouts": f"/t/{t.slug}/payouts/", "player": f"/t/{t.slug}/players/{setup.entries[0].player_id}/",
            "table": f"/t/{t.slug}/tables/{setup.table.pk}/"}


def test_robots_txt_keeps_crawlers_off_scorer_links_the_director_and_the_api(client, jie_long):
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    lines = response.content.decode().splitlines()
    assert "User-agent: *" in lines and "Allow: /" in lines
    disallowed = [line.removeprefix("Disallow: ") for line in lines if line.startswith("Disallow: ")]
    assert {"/s/", "/director/", "/api/"} <= set(disallowed)
    # The prefixes are where those pages really are ...
    assert reverse("scorer-table", args=[jie_long.token]).startswith("/s/")
    assert reverse("director-home") == "/director/" and reverse("director-login").startswith("/director/")
    assert reverse("schema").startswith("/api/") and reverse("api-docs").startswith("/api/")
    # ... and no public page is under one.
    for url in public_pages(jie_long).values():
        assert not url.startswith(DISALLOWED_PREFIXES), url
    assert client.post("/robots.txt").status_code == 405


def test_favicon_ico_is_answered_with_the_sites_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/img/favicon.ico"
    found = finders.find("img/favicon.ico")
    assert found, "static/img/favicon.ico is missing: run scripts/favicon.py"
    with open(found, "rb") as f:
        assert f.read(4) == b"\x00\x00\x01\x00"  # an icon file


def test_every_page_names_the_svg_icon(client, jie_long):
    for name, url in {**public_pages(jie_long), **private_pages(jie_long)}.items():
        page = client.get(url, follow=True).content.decode()  # the director's: the login page
        assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">' in page, name
        assert '<link rel="icon" href="/static/img/favicon.ico" sizes="32x32">' in page, name
    for path in ("img/favicon.svg", "img/favicon.ico", "img/apple-touch-icon.png"):
        assert finders.find(path), path


def test_scorer_and_director_pages_say_noindex_and_public_ones_do_not(client, jie_long, director):
    client.force_login(director)
    for name, url in private_pages(jie_long).items():
        if name == "director login":
            client.logout()
        response = client.get(url)
        assert response["X-Robots-Tag"] == "noindex, nofollow", name
        if response.content:  # not a redirect
            assert response.content.decode().count(ROBOTS_META) == 1, name
    # A live fragment and a redirect (to the login page) are covered by the header too.
    assert client.get(f"/director/tournaments/{jie_long.tournament.pk}/live/")["X-Robots-Tag"] == "noindex, nofollow"
    client.logout()
    assert client.get("/director/")["X-Robots-Tag"] == "noindex, nofollow"
    for name, url in public_pages(jie_long).items():
        response = client.get(url)
        assert response.status_code == 200, name
        assert not response.has_header("X-Robots-Tag"), name
        assert 'name="robots"' not in response.content.decode(), name


def test_every_page_has_a_description_and_the_public_ones_their_own(client, jie_long, director):
    t = jie_long.tournament
    seen = {}
    client.force_login(director)
    for name, url in {**public_pages(jie_long), **private_pages(jie_long)}.items():
        if name == "director login":
            client.logout()
        found = DESCRIPTION.findall(client.get(url).content.decode())
        assert len(found) == 1, name
        seen[name] = found[0]
    assert seen["standings"] == f"Live standings of {t.name}"
    assert seen["payouts"].startswith(f"Payouts of {t.name}")
    assert seen["table"].startswith(f"The deals of Session 1 · {jie_long.table.name} at {t.name}")
    assert seen["player"].startswith(f"Every deal of {jie_long.names[0]} at {t.name}")
    assert seen["calculator"] != seen["home"] == seen["scorer page"]  # the default
    assert "domino" in seen["home"]


def test_the_description_is_translated_and_escaped(client, make_setup, director_actor):
    from scoring.services.tournaments import tournament_update

    s = make_setup("jie_long")
    tournament_update(actor=director_actor, tournament=s.tournament, name='The "Big" <Open>')
    page = client.get(f"/t/{s.tournament.slug}/").content.decode()
    assert '<meta name="description" content="Live standings of The &quot;Big&quot; &lt;Open&gt;">' in page
    client.cookies["django_language"] = "zh-hans"
    page = client.get(f"/t/{s.tournament.slug}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    description = DESCRIPTION.search(page).group(1)
    assert "Live standings" not in description and "Big" in description
