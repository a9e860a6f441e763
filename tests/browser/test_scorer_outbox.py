"""The phone's outbox (static/js/outbox.js, outbox-view.js, deal-drafts.js) in a real browser at
390×844: the page is loaded, then the network is cut (``set_offline``). Deals entered offline
wait on the phone and are sent once each, in order, when it is back; a deal the server refuses stops its table's queue until it is fixed; a retry racing
the outbox records one deal; confirmations and corrections queue too; a deal queued before the
director closed the session is recorded late; the director sees what the phone holds."""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
import urllib.request
from datetime import datetime

import pytest
from django.test import Client
from playwright.sync_api import Error, expect

from games.simulate import simulate
from scoring.models import ActionLog, Round, Session, Table
from scoring.selectors.audits import audit_chunk_findings, standings_differences
from scoring.services.players import entry_code_set
from scoring.services.sessions import session_close

pytestmark = pytest.mark.django_db(transaction=True)


def link(live_server, token) -> str:
    return f"{live_server.url}/s/{token}/"


def open_table(make_page, live_server, setup):
    page = make_page("phone390")
    page.goto(link(live_server, setup.token))
    page.wait_for_function("window.GupaiOutboxPage !== undefined")
    page.evaluate("GupaiOutboxPage.ready.then(() => true)")
    return page


def jie_long_points(deals: int, seed: int = 5) -> list[list[int]]:
    return [d["points"] for d in simulate("jie_long", deals=deals, seed=seed, level="points")]


def enter(page, points: list[int], number: int) -> None:
    """One deal typed and submitted: the form then shows the next deal."""
    for i, p in enumerate(points):
        page.locator(f'input[name="points_{i}"]').fill(str(p))
    page.get_by_role("button", name="Submit", exact=True).click()
    expect(page.locator("#new-deal-title")).to_have_text(f"Deal {number + 1}")


def queued(page) -> list[dict] | None:
    """What waits in the page's table's outbox; None while the page is being loaded again (it is,
    once its outbox is empty)."""
    try:
        return page.evaluate("window.GupaiOutboxPage ? GupaiOutbox.list(GupaiOutboxPage.scope) : null")
    except Error:
        return None


def wait_for(check, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not reached in time"
        time.sleep(0.05)


def assert_stored_in_order(setup, deals: list[list[int]]) -> None:
    rounds = list(Round.objects.filter(table=setup.table).order_by("id"))
    assert [r.number for r in rounds] == list(range(1, len(deals) + 1))
    assert [r.current_revision.body["points"] for r in rounds] == deals
    assert audit_chunk_findings(tournament_id=setup.tournament.pk, first_round=rounds[0].pk,
                                last_round=rounds[-1].pk) == []
    assert standings_differences(setup.tournament) == []


def test_25_deals_entered_offline_are_sent_once_each_in_order(live_server, make_page, make_setup):
    s = make_setup("jie_long")
    page = open_table(make_page, live_server, s)
    page.get_by_label("Entered by").select_option(label="1. Anna")
    deals = jie_long_points(25)
    page.context.set_offline(True)
    for n, points in enumerate(deals, start=1):
        enter(page, points, n)
    waiting = page.locator("#deals [data-outbox-item]")
    expect(waiting).to_have_count(25)
    expect(waiting.first).to_have_text("Deal 25 — waiting to send")
    expect(page.locator("#deals")).to_contain_text("Deal 1 — waiting to send")
    assert [i["number"] for i in queued(page)] == list(range(1, 26))
    assert Round.objects.count() == 0

    with page.expect_navigation(timeout=30_000):  # every deal sent: the page as the server has them
        page.context.set_offline(False)
    expect(page.locator("#new-deal-title")).to_have_text("Deal 26")
    expect(page.locator("#deals [data-outbox-item]")).to_have_count(0)
    assert queued(page) == []
    assert_stored_in_order(s, deals)
    # The enterer chosen for the first deal went with every deal queued after it.
    assert set(Round.objects.values_list("entered_by", flat=True)) == {0}


def test_a_refused_deal_stops_the_queue_until_it_is_fixed(live_server, make_page, make_setup):
    s = make_setup("jie_long")
    page = open_table(make_page, live_server, s)
    page.get_by_label("Entered by").select_option(label="1. Anna")
    deals = jie_long_points(5, seed=7)
    page.context.set_offline(True)
    for n, points in enumerate(deals, start=1):
        enter(page, points, n)
    # Deal 3 holds a value no deal can have (as if typed on a phone that let it through).
    page.evaluate("""async () => {
        const item = (await GupaiOutbox.list(GupaiOutboxPage.scope)).find(i => i.number === 3);
        item.fields = item.fields.map(([n, v]) => [n, n === "points_1" ? "-7" : v]);
        await GupaiOutbox.update(item);
    }""")
    page.context.set_offline(False)
    error = page.locator("#new-deal").locator(".field-error")
    expect(error).to_be_visible(timeout=15_000)
    expect(page.locator('input[name="points_1"]')).to_have_attribute("aria-invalid", "true")
    expect(page.locator('input[name="points_1"]')).to_have_value("-7")
    expect(page.locator("#new-deal-title")).to_have_text("Deal 3")
    expect(page.locator("#draft-status")).to_contain_text("Deal 3 was refused by the server")
    expect(page.locator("#deals")).to_contain_text("Deal 4 — waiting to send")
    expect(page.locator("#deals")).to_contain_text("Deal 5 — waiting to send")
    assert list(Round.objects.order_by("number").values_list("number", flat=True)) == [1, 2]
    # The phone told the server what it holds: the director's table page says so.
    wait_for(lambda: Table.objects.get(pk=s.table.pk).phone_outbox == 3)
    director = Client()
    director.force_login(s.director)
    assert "3 deals waiting on the phone" in director.get(f"/director/tables/{s.table.pk}/").content.decode()

    with page.expect_navigation(timeout=20_000):
        page.locator('input[name="points_1"]').fill(str(deals[2][1]))
        page.get_by_role("button", name="Submit", exact=True).click()
    expect(page.locator("#new-deal-title")).to_have_text("Deal 6")
    assert_stored_in_order(s, deals)


def test_a_deal_queued_while_the_session_was_open_is_recorded_late_after_it_closed(live_server, make_page,
                                                                                  make_setup):
    s = make_setup("jie_long")
    page = open_table(make_page, live_server, s)
    page.get_by_label("Entered by").select_option(label="1. Anna")
    deals = jie_long_points(2, seed=3)
    page.context.set_offline(True)
    for n, points in enumerate(deals, start=1):
        enter(page, points, n)
    drawn = [item["drawnAt"] for item in queued(page)]
    session_close(actor=s.director_actor, session=Session.objects.get(pk=s.table.session_id))
    page.context.set_offline(False)
    wait_for(lambda: Round.objects.filter(table=s.table).count() == 2)
    rounds = list(Round.objects.filter(table=s.table).order_by("number"))
    assert [r.current_revision.body["points"] for r in rounds] == deals
    assert all(r.late for r in rounds)
    # The time each deal was drawn on the phone (server time), as its outbox sent it.
    logged = ActionLog.objects.filter(action="round_record").order_by("id")
    sent = [datetime.fromisoformat(line.data["drawn_at"]) for line in logged]
    assert [round(d.timestamp() * 1000) for d in sent] == [round(ms) for ms in drawn]
    director = Client()
    director.force_login(s.director)
    assert '<span class="badge late">' in director.get(f"/director/tables/{s.table.pk}/").content.decode()


def post_form(url: str, fields: list[list[str]], cookies: list[dict]) -> dict:
    """The form's fields posted from outside the page (as a retry from the phone's browser would
    be), with the page's cookies: the server's JSON answer."""
    request = urllib.request.Request(
        url, data=urllib.parse.urlencode([tuple(f) for f in fields]).encode(), method="POST",
        headers={"Accept": "application/json",
                 "Cookie": "; ".join(f"{c['name']}={c['value']}" for c in cookies)})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_the_same_key_sent_by_the_outbox_and_a_retry_records_one_deal(live_server, make_page, make_setup):
    s = make_setup("jie_long")
    page = open_table(make_page, live_server, s)
    page.get_by_label("Entered by").select_option(label="1. Anna")
    for i, p in enumerate([2, 12, 34, 18]):
        page.locator(f'input[name="points_{i}"]').fill(str(p))
    item = page.evaluate("""async () => {
        const form = document.querySelector("form[data-deal-drafts]");
        const body = new FormData(form);
        body.set("action", "submit");
        const item = {key: body.get("idem_key"), kind: "deal", url: form.getAttribute("action"),
                      number: 1, fields: [...body.entries()], scope: GupaiOutboxPage.scope,
                      page: GupaiOutboxPage.page};
        await GupaiOutbox.add(item);
        return {url: new URL(item.url, location.href).href, fields: item.fields};
    }""")
    expect(page.locator("#deals")).to_contain_text("Deal 1 — waiting to send")
    retried, cookies = {}, page.context.cookies()
    retry = threading.Thread(target=lambda: retried.update(post_form(item["url"], item["fields"], cookies)))
    # The page's outbox and the retry send the same key at once; once the outbox has emptied the
    # page loads again, as the server has the deal (a navigation the test waits for).
    with page.expect_navigation(timeout=30_000):
        retry.start()
        page.evaluate("GupaiOutboxPage.drain()")
        retry.join(30)
    assert retried["status"] == "saved"
    assert Round.objects.count() == 1
    expect(page.locator("#new-deal-title")).to_have_text("Deal 2")
    assert queued(page) == []


def test_a_confirmation_with_a_wrong_code_typed_offline_is_refused_at_its_field(live_server, make_page, make_setup):
    names = ["Chen", "Li", "Wang", "Zhao"]
    s = make_setup("jie_long", names=names, require_confirmation=True, require_proof=True)
    entry_code_set(actor=s.director_actor, entry=s.entries[0], code="1357")
    entry_code_set(actor=s.director_actor, entry=s.entries[1], code="2468")
    page = open_table(make_page, live_server, s)
    page.get_by_label("Your name").select_option(label="1. Chen")
    page.get_by_label("Your code (4 to 6 digits)").fill("1357")
    with page.expect_navigation():
        page.get_by_role("button", name="That's me").click()
    page.wait_for_function("window.GupaiOutboxPage !== undefined")
    page.context.set_offline(True)
    enter(page, [2, 12, 34, 18], 1)
    with page.expect_navigation(timeout=20_000):
        page.context.set_offline(False)
    deal = page.locator("#deal-1")
    expect(deal).to_contain_text("Entered by Chen.")  # the player proven on this phone stays proven

    page.context.set_offline(True)
    deal.get_by_text("Confirm as another player").click()
    deal.get_by_label("Confirm as", exact=True).select_option(label="2. Li")
    deal.get_by_label("Their code").fill("9999")
    deal.get_by_role("button", name="Confirm", exact=True).click()
    expect(deal).to_contain_text("Confirmation waiting to send")
    page.context.set_offline(False)
    code = deal.get_by_label("Their code")
    expect(code).to_have_attribute("aria-invalid", "true", timeout=15_000)
    expect(deal.locator(".field-error")).to_be_visible()
    assert Round.objects.get().status == "recorded"

    code.fill("2468")  # fixed: sent again in its place
    with page.expect_navigation(timeout=20_000):
        deal.get_by_role("button", name="Confirm", exact=True).click()
    expect(page.locator("#deal-1")).to_contain_text("Confirmed by Li.")
    rnd = Round.objects.get()
    assert (rnd.status, rnd.confirmed_by_entry_id) == ("confirmed", s.entries[1].pk)


def test_a_correction_saved_offline_is_applied_when_the_network_is_back(live_server, make_page, make_setup):
    s = make_setup("jie_long")
    page = open_table(make_page, live_server, s)
    page.get_by_label("Entered by").select_option(label="1. Anna")
    with page.expect_navigation():
        for i, p in enumerate([2, 12, 34, 18]):
            page.locator(f'input[name="points_{i}"]').fill(str(p))
        page.get_by_role("button", name="Submit", exact=True).click()
    with page.expect_navigation():
        page.locator("#deal-1").get_by_role("link", name="Correct").click()
    page.wait_for_function("window.GupaiOutboxPage !== undefined")
    # The worker controls the page and keeps the table's page: the correction, queued, goes back to it.
    # (Taken over once its worker is active: the page asks, sw-register.js; on a busy machine
    # the worker's install, which fetches every file it keeps, takes a while.)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    wait_for(lambda: page.evaluate(f"caches.match('/s/{s.token}/').then((kept) => !!kept)"))
    page.context.set_offline(True)
    page.locator('input[name="points_3"]').fill("20")
    page.get_by_label("Why is it corrected?").fill("misread")
    with page.expect_navigation():  # back to the table's page, from the worker
        page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#deal-1")).to_contain_text("Correction waiting to send")
    assert Round.objects.get().current_revision.body["points"] == [2, 12, 34, 18]
    page.context.set_offline(False)
    wait_for(lambda: Round.objects.get().current_revision.body["points"] == [2, 12, 34, 20])
    assert Round.objects.get().current_revision.number == 2
    wait_for(lambda: queued(page) == [])


def test_the_storage_warning_shows_only_when_the_browser_refuses_to_keep_waiting_deals(live_server, make_page,
                                                                                     make_setup):
    s = make_setup("jie_long")
    page = open_table(make_page, live_server, s)
    page.get_by_label("Entered by").select_option(label="1. Anna")
    warning = page.locator("#storage-warning")
    # The browser's answer to navigator.storage.persist(), as sw-register.js announces it.
    announce = ("p => { GupaiDB.persisted = p; "
                "window.dispatchEvent(new CustomEvent('gupai-storage', {detail: {persisted: p}})); }")
    page.evaluate(announce, False)
    expect(warning).to_be_hidden()  # refused, but nothing waits
    page.context.set_offline(True)
    enter(page, jie_long_points(1)[0], 1)
    expect(warning).to_be_visible()
    page.evaluate(announce, True)  # kept: no warning, deals waiting or not
    expect(warning).to_be_hidden()
    page.evaluate(announce, False)
    expect(warning).to_be_visible()
    page.context.set_offline(False)
    wait_for(lambda: Round.objects.filter(table=s.table).count() == 1)


def test_a_key_the_server_already_stored_for_another_deal_says_which_and_leaves_the_outbox(live_server, make_page,
                                                                                          make_setup):
    from scoring.services.idempotency import round_record_idempotent

    s = make_setup("jie_long")
    page = open_table(make_page, live_server, s)
    page.get_by_label("Entered by").select_option(label="1. Anna")
    page.context.set_offline(True)
    enter(page, [2, 12, 34, 18], 1)
    key = queued(page)[0]["key"]
    # The same key reached the server earlier with other hands (the answer was lost, the copy
    # on the phone changed since): the server keeps its deal, and the phone its word for it.
    round_record_idempotent(actor=s.scorer_actor, table=s.table, key=key,
                            body={"entered_by": 0, "points": [4, 12, 34, 18]})
    page.context.set_offline(False)
    expect(page.locator("#outbox-status")).to_contain_text("Already recorded as deal 1.")
    assert queued(page) == []
    assert [r.current_revision.body["points"] for r in Round.objects.filter(table=s.table)] == [[4, 12, 34, 18]]
