"""The installed scorer app: /manifest.webmanifest, /sw.js (its headers, its precache list and a
VERSION that follows every file it keeps) and the phone's tables page /s/. The worker itself
runs in tests/browser/test_scorer_offline_app.py."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

from scoring.services.rounds import round_record
from scoring.web.scorer_app import PRECACHED_STATIC, WORKER_SCRIPTS

from ..bodies import JIE_LONG
from ..test_static_assets import inline_code


def worker(client) -> str:
    response = client.get(reverse("service-worker"))
    assert response.status_code == 200
    return response.content.decode()


def constant(script: str, name: str):
    """A ``var NAME = <JSON>;`` of the worker's text."""
    return json.loads(re.search(rf"^var {name} = (.*);$", script, flags=re.M).group(1))


def static_urls(html: str) -> set[str]:
    return set(re.findall(r"""(?:src|href)="(/static/[^"]+)\"""", html))


# --- the manifest ---------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_manifest_makes_the_scorer_pages_an_app(client):
    response = client.get(reverse("web-manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    home = reverse("scorer-home")
    assert home == "/s/"
    assert manifest["name"] == "Gupai Club" and manifest["short_name"]
    assert manifest["start_url"] == manifest["scope"] == manifest["id"] == home
    assert manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"]) and manifest["background_color"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert sizes == {(f"{n}x{n}", purpose) for n in (192, 512) for purpose in ("any", "maskable")}
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        assert finders.find(icon["src"].removeprefix(settings.STATIC_URL if settings.STATIC_URL.startswith("/")
                                                     else "/" + settings.STATIC_URL))


@pytest.mark.django_db
def test_the_manifest_speaks_the_users_language(client):
    manifest = json.loads(client.get(reverse("web-manifest"), HTTP_ACCEPT_LANGUAGE="zh-hans").content)
    assert manifest["name"] == "骨牌俱乐部" and manifest["lang"] == "zh-hans"


# --- the worker -----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_worker_is_served_for_the_scorer_pages_and_never_kept_stale(client):
    response = client.get(reverse("service-worker"))
    assert reverse("service-worker") == "/sw.js"
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/s/"
    # The worker's own script is under the site's CSP: its imports are the site's own files.
    assert "script-src 'self'" in response["Content-Security-Policy"]
    script = response.content.decode()
    assert re.search(r'^var VERSION = "[0-9a-f]{16}";$', script, flags=re.M)
    assert constant(script, "HOME") == "/s/" and constant(script, "PAGES") == ["/s/"]
    assert constant(script, "TIMEOUT_MS") == 4000 and constant(script, "SYNC_TAG") == "gupai-outbox"
    assert '"gupai-static-" + VERSION' in script and '"gupai-pages-" + VERSION' in script
    assert "{%" not in script and "{{" not in script


@pytest.mark.django_db
def test_the_worker_keeps_every_static_file_that_exists_and_loads_its_scripts(client):
    script = worker(client)
    precache = constant(script, "PRECACHE")
    expected = [f"/static/{name}" for name in PRECACHED_STATIC if finders.find(name)]
    assert precache == expected and "/static/vendor/idb/umd.js" in precache
    imported = json.loads(re.search(r"importScripts\.apply\(self, (.*)\);", script).group(1))
    assert imported == [f"/static/{name}" for name in WORKER_SCRIPTS if finders.find(name)]
    assert imported[:2] == ["/static/vendor/idb/umd.js", "/static/js/gupai-db.js"]


@pytest.mark.django_db
def test_every_static_file_a_scorer_page_loads_is_kept(client, jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={**JIE_LONG, "entered_by": 1})
    precache = set(constant(worker(client), "PRECACHE"))
    pages = [f"/s/{jie_long.token}/", f"/s/{jie_long.token}/deals/{rnd.pk}/correct/", "/s/"]
    for page in pages:
        html = client.get(page).content.decode()
        assert static_urls(html) - precache == set(), page


@pytest.mark.django_db
def test_a_precached_files_new_content_is_a_new_version(client, settings, tmp_path):
    before = constant(worker(client), "VERSION")
    assert constant(worker(client), "VERSION") == before  # the same files: the same worker
    (tmp_path / "css").mkdir()
    css = tmp_path / "css" / "site.css"
    css.write_text(open(finders.find("css/site.css"), encoding="utf-8").read() + "\n/* a new release */\n")
    settings.STATICFILES_DIRS = [tmp_path, *settings.STATICFILES_DIRS]
    changed = constant(worker(client), "VERSION")
    assert changed != before
    css.write_text(css.read_text() + "/* and another */\n")
    assert constant(worker(client), "VERSION") not in (before, changed)


@pytest.mark.django_db
def test_the_outbox_is_kept_and_loaded_once_it_exists(client, settings, tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "outbox.js").write_text("self.GupaiOutbox = {drainAll: function () {}};\n")
    before = constant(worker(client), "VERSION")
    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, tmp_path]
    if finders.find("js/outbox.js") != str(tmp_path / "js" / "outbox.js"):
        pytest.skip("the project has its own static/js/outbox.js: the test above covers a change")
    script = worker(client)
    assert "/static/js/outbox.js" in constant(script, "PRECACHE")
    assert "/static/js/outbox.js" in re.search(r"importScripts\.apply\(self, (.*)\);", script).group(1)
    assert constant(script, "VERSION") != before


@pytest.mark.django_db(transaction=True)
def test_every_url_the_worker_keeps_answers(client, live_server):
    script = worker(client)
    for url in [*constant(script, "PRECACHE"), *constant(script, "PAGES")]:
        with urllib.request.urlopen(live_server.url + url, timeout=10) as answer:
            assert answer.status == 200, url


# --- the pages that register it ---------------------------------------------------------------------

def app_head(html: str) -> bool:
    return ('<link rel="manifest" href="/manifest.webmanifest">' in html
            and '<meta name="theme-color" content="#a4161a">' in html
            and 'src="/static/js/sw-register.js" data-worker="/sw.js" data-scope="/s/"' in html)


@pytest.mark.django_db
def test_the_scorer_pages_register_the_app_and_name_their_table(client, jie_long):
    manifest = json.loads(client.get(reverse("web-manifest")).content)
    assert manifest["theme_color"] == "#a4161a"
    html = client.get(f"/s/{jie_long.token}/").content.decode()
    assert app_head(html)
    assert (f'<div id="scorer-table" hidden data-page="/s/{jie_long.token}/" '
            f'data-scope="{jie_long.tournament.pk}:{jie_long.table.pk}"') in html
    assert f'data-tournament="{jie_long.tournament.name}"' in html
    assert '<p class="card warnings" id="storage-warning" role="alert" hidden>' in html
    # idb, then the one place the database is opened, then the registration
    order = [html.index(f'src="/static/{name}"') for name in ("vendor/idb/umd.js", "js/gupai-db.js", "js/sw-register.js")]
    assert order == sorted(order)


@pytest.mark.django_db
def test_a_correction_through_the_link_is_an_app_page_and_the_directors_is_not(client, jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={**JIE_LONG, "entered_by": 1})
    assert app_head(client.get(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/").content.decode())
    client.force_login(jie_long.director)
    director_page = client.get(reverse("director-round-correct", args=[rnd.pk]))
    assert director_page.status_code == 200
    assert "sw-register.js" not in director_page.content.decode()


# --- the phone's tables page --------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_phones_tables_page_is_the_same_for_every_phone(client):
    response = client.get(reverse("scorer-home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "This phone's tables" in html and "Open your table's link or scan its QR code." in html
    assert 'id="phone-tables" hidden' in html and 'data-text-waiting="Deals waiting to be sent from this phone: %(count)s"' in html
    assert app_head(html) and 'src="/static/js/scorer-home.js"' in html
    assert inline_code(html) == []
    assert response["X-Robots-Tag"] == "noindex, nofollow"


@pytest.mark.django_db
def test_the_phones_tables_page_speaks_the_users_language(client):
    html = client.get(reverse("scorer-home"), HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "本機的牌桌" in html and "本機等待傳送的局數：%(count)s" in html
