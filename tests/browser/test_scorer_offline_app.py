"""The installed scorer app in a real browser (Chromium at 390×844, touch, a profile on disk):
a scorer page opened once opens again with no network, after a reload and after the browser
is closed and opened again; the phone's tables page lists it; an update of the service worker
takes over whole (its caches, the page and its files of one version) and leaves IndexedDB as
it was. The live server's address is http://localhost:<port>, a secure context: service
workers run there as over https."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from urllib.parse import urlsplit

import pytest
from django.contrib.staticfiles import finders
from playwright.sync_api import expect

from scoring.services.rounds import round_record

from ..scoring.bodies import DING_NIU_LED_BY_1
from .conftest import BROWSER_ARGS, CHROMIUM, PHONE_390

pytestmark = pytest.mark.django_db(transaction=True)


def open_profile(playwright, profile, **options):
    """The phone's browser, started on its profile (its caches, its IndexedDB, its worker)."""
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=BROWSER_ARGS, viewport=PHONE_390,
        device_scale_factor=2, is_mobile=True, has_touch=True, service_workers="allow", **options)
    context.set_default_timeout(15_000)
    return context


@pytest.fixture
def phone_profile(playwright, tmp_path):
    """``start(**options)``: the phone's browser on one profile, started again as often as asked;
    each one closed after the test."""
    started = []

    def start(**options):
        context = open_profile(playwright, tmp_path / "profile", **options)
        started.append(context)
        return context, context.pages[0] if context.pages else context.new_page()

    yield start
    for context in started:
        context.close()


def eventually(check, timeout=15.0):
    """``check()``'s first true value within ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > end:
            assert value, "not within the time allowed"
            return value
        time.sleep(0.2)


CONTROLLED = """() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller ? true
    : new Promise(done => navigator.serviceWorker.addEventListener("controllerchange", () => done(true))))"""
KEPT = "path => caches.match(path, {ignoreVary: true}).then(found => !!found)"
CACHES = "() => caches.keys().then(names => names.sort())"


def worker_version(live_server) -> str:
    with urllib.request.urlopen(f"{live_server.url}/sw.js", timeout=10) as answer:
        return re.search(r'^var VERSION = "([0-9a-f]+)";$', answer.read().decode(), flags=re.M).group(1)


def opened_online(page, url: str) -> None:
    """The scorer page opened with the network: the worker runs it and has kept it."""
    page.goto(url)
    assert page.evaluate(CONTROLLED)
    eventually(lambda: page.evaluate(KEPT, urlsplit(url).path))
    eventually(lambda: page.evaluate("() => GupaiDB.open().then(db => db.count('tables'))"))


def test_a_scorer_page_opened_once_opens_with_no_network(live_server, phone_profile, make_setup):
    s = make_setup("ding_niu")
    link = f"{live_server.url}/s/{s.token}/"
    context, page = phone_profile()
    opened_online(page, link)
    version = worker_version(live_server)
    assert page.evaluate(CACHES) == [f"gupai-pages-{version}", f"gupai-static-{version}"]

    context.set_offline(True)
    # Recorded meanwhile by the director: the page the phone shows is its kept copy, not the server's.
    round_record(actor=s.director_actor, table=s.table, body=DING_NIU_LED_BY_1)
    page.reload()
    expect(page.get_by_role("heading", name="Deal 1", exact=True)).to_be_visible()
    expect(page.get_by_text("No deals yet.")).to_be_visible()
    expect(page.get_by_role("heading", name="Deal 2", exact=True)).to_have_count(0)
    expect(page.locator("form.deal-form[data-deal-drafts]").first).to_be_visible()
    expect(page.get_by_role("button", name="Submit", exact=True)).to_be_enabled()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(250, 247, 242)"  # its CSS too
    context.close()

    context, page = phone_profile(offline=True)
    assert page.goto(link).from_service_worker
    expect(page.get_by_role("heading", name="Deal 1", exact=True)).to_be_visible()
    expect(page.get_by_text("No deals yet.")).to_be_visible()
    expect(page.get_by_role("button", name="Submit", exact=True)).to_be_visible()
    assert page.evaluate("() => fetch('/s/').then(() => 'online', () => 'offline')") == "offline"

    page.goto(f"{live_server.url}/s/")
    expect(page.get_by_role("heading", name="This phone's tables")).to_be_visible()
    listed = page.locator("#phone-tables li")
    expect(listed).to_have_count(1)
    expect(listed.get_by_role("link", name=s.table.name)).to_have_attribute("href", f"/s/{s.token}/")
    expect(listed).to_contain_text(s.tournament.name)
    expect(listed).to_contain_text("Nothing waiting to be sent.")
    expect(page.locator("#no-tables")).to_be_hidden()


@pytest.fixture
def new_release(settings, tmp_path):
    """``release()``: the site's stylesheet changes (a new rule at its end), as a new release of
    the site would change it: the static folder ahead of the project's."""
    folder = tmp_path / "release"
    (folder / "css").mkdir(parents=True)

    def release():
        original = open(finders.find("css/site.css"), encoding="utf-8").read()
        (folder / "css" / "site.css").write_text(original + "\n.release-two { --release: 2; }\n")
        settings.STATICFILES_DIRS = [folder, *settings.STATICFILES_DIRS]

    return release


HAS_RELEASE_TWO = """() => [...document.styleSheets].some(sheet =>
    [...sheet.cssRules].some(rule => rule.selectorText === ".release-two"))"""


def test_an_update_takes_over_whole_and_keeps_the_outbox(live_server, phone_profile, make_setup, new_release):
    s = make_setup("ding_niu")
    link = f"{live_server.url}/s/{s.token}/"
    context, page = phone_profile()
    opened_online(page, link)
    old = worker_version(live_server)
    item = {"key": "k-waiting", "seq": 1, "scope": f"{s.tournament.pk}:{s.table.pk}", "page": f"/s/{s.token}/",
            "url": f"/s/{s.token}/", "kind": "deal", "number": 1, "fields": [["points_0", "12"]],
            "drawnAt": 1, "state": "waiting"}
    page.evaluate("item => GupaiDB.open().then(db => db.put('outbox', item))", item)

    assert not page.evaluate(HAS_RELEASE_TWO)
    new_release()
    new = worker_version(live_server)
    assert new != old
    page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
    eventually(lambda: page.evaluate(CACHES) == [f"gupai-pages-{new}", f"gupai-static-{new}"], timeout=30)
    script = page.evaluate("() => navigator.serviceWorker.controller.scriptURL")
    assert script == f"{live_server.url}/sw.js"
    # The table's page was fetched anew into the new version's cache before the old ones went.
    assert page.evaluate(f"() => caches.open('gupai-pages-{new}').then(c => c.match('/s/{s.token}/')).then(r => !!r)")

    context.set_offline(True)
    page.reload()
    # The page of the new version, offline, shows the deal still waiting in the outbox.
    expect(page.locator("#waiting-1")).to_have_text("Deal 1 — waiting to send")
    assert page.evaluate(HAS_RELEASE_TWO)  # the page's stylesheet is the new version's
    kept = page.evaluate("() => GupaiDB.open().then(db => db.get('outbox', 'k-waiting'))")
    assert kept == item
    assert json.loads(json.dumps(page.evaluate("() => GupaiDB.open().then(db => db.getAll('tables'))")))[0]["page"] \
        == f"/s/{s.token}/"


def test_an_update_that_cannot_fetch_everything_leaves_the_old_version_whole(live_server, phone_profile, make_setup,
                                                                            new_release):
    s = make_setup("ding_niu")
    context, page = phone_profile()
    opened_online(page, f"{live_server.url}/s/{s.token}/")
    old = worker_version(live_server)
    new_release()
    new = worker_version(live_server)
    # The new stylesheet cannot be fetched (the network failing mid-update): the install fails.
    context.route(re.compile(r"/static/css/site\.css$"), lambda route: route.abort())
    failed = page.evaluate("""() => navigator.serviceWorker.getRegistration().then(r => r.update()).then(
        r => new Promise(done => { const w = r.installing; if (!w) return done("no install");
            w.addEventListener("statechange", () => w.state === "redundant" && done("redundant")); }))""")
    assert failed == "redundant"  # the new worker is dropped, with the caches it began to fill
    eventually(lambda: page.evaluate(CACHES) == [f"gupai-pages-{old}", f"gupai-static-{old}"])
    context.unroute(re.compile(r"/static/css/site\.css$"))
    context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", name="Deal 1", exact=True)).to_be_visible()
    assert not page.evaluate(HAS_RELEASE_TWO)  # the old version's page and its old stylesheet

    context.set_offline(False)
    page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
    eventually(lambda: page.evaluate(CACHES) == [f"gupai-pages-{new}", f"gupai-static-{new}"], timeout=30)
