"""Screenshots of the main pages for the README and docs/screenshots.md:
`.venv/bin/python scripts/screenshots.py`.

Starts the site on a temporary SQLite database with the demo (`manage.py load_demo`: two public,
running tournaments with deals at every table), opens the pages in headless Chromium (Playwright
with Debian's chromium, like the browser tests) on a 390 × 844 phone and a 1280 × 800 desktop,
and writes PNGs to docs/screenshots/. Nothing outside the temporary directory is touched but
those files.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
#: Sharp on a phone's screen and in the README (2 px per CSS pixel), still 100–300 KB a picture.
PHONE_OPTIONS = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2}
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")
DEMO_USER, DEMO_PASSWORD = "demo", "gupai-demo"  # scoring/management/commands/load_demo.py


#: Two more deals at the Ding Niu tournament's Table 1, played move by move (the demo's are
#: entered as points or unplayed tiles), so that the table page has a replay to show.
MORE_DEALS = """
from games.simulate import simulate
from scoring.selectors.tables import round_defaults
from scoring.services.rounds import round_record
from scoring.domain.actors import Actor
from scoring.models import Table
from scoring.domain.records import body_from_record
table = Table.objects.get(session__tournament__slug="demo-ding-niu", name="Table 1")
scorer = Actor(table=table, ip="127.0.0.1")
for i, record in enumerate(simulate("ding_niu", deals=2, seed=7, players=4, level="moves")):
    defaults = round_defaults(table)
    body = body_from_record(record, leader=defaults.get("leader") or 0, banker=0)
    body["entered_by"] = i
    round_record(actor=scorer, table=table, body=body)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def manage(env: dict, *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    return done.stdout


def wait_for(url: str, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the site did not answer at {url}")


def shoot(page, name: str, *, full_page: bool = False) -> None:
    path = OUT / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    print(f"{path.relative_to(ROOT)}  {path.stat().st_size // 1024} KB")


def seat(page, position: int):
    return page.locator("fieldset.seat").nth(position)


def main() -> None:
    if not CHROMIUM:
        raise SystemExit("no Chromium: `apt-get install chromium` (or set CHROMIUM_PATH)")
    if shutil.which("fc-list") and not subprocess.run(["fc-list", ":lang=zh"], capture_output=True,
                                                      text=True).stdout.strip():
        raise SystemExit("no Chinese font, the Chinese pages would show boxes: "
                         "`apt-get install fonts-wqy-microhei` (or fonts-noto-cjk)")
    from playwright.sync_api import expect, sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="gupai-shots-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp / 'demo.sqlite3'}",
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "PYTHONUNBUFFERED": "1"}
    manage(env, "migrate", "--noinput")
    out = manage(env, "load_demo", "--base-url", base)
    manage(env, "shell", "-c", MORE_DEALS)
    scorer = re.search(r"Scorer link of [^:]+: (\S+)", out)
    if not scorer:
        raise SystemExit("load_demo printed no scorer link:\n" + out)
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(base + "/")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
            for kind, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
                context = browser.new_context(viewport=viewport, locale="en-GB",
                                              **PHONE_OPTIONS if kind == "phone" else {})
                page = context.new_page()
                page.set_default_timeout(15_000)
                shots(page, expect, kind, base, scorer.group(1))
                context.close()
                # The home page in Simplified Chinese (the browser asks for it, as a phone set to Chinese does).
                context = browser.new_context(viewport=viewport, locale="zh-CN",
                                              **PHONE_OPTIONS if kind == "phone" else {},
                                              extra_http_headers={"Accept-Language": "zh-Hans,zh;q=0.9"})
                context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": base}])
                page = context.new_page()
                page.goto(base + "/")
                shoot(page, f"home-zh-hans-{kind}")
                context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


def shots(page, expect, kind: str, base: str, scorer_url: str) -> None:
    slug = "demo-ding-niu"
    page.goto(f"{base}/t/{slug}/")
    shoot(page, f"standings-{kind}")
    # A player's page: the cumulative net chart.
    page.locator("#standings a").first.click()
    page.wait_for_load_state()
    shoot(page, f"player-chart-{kind}")
    # A table's page: the deals laid out move by move.
    page.goto(f"{base}/t/{slug}/")
    page.get_by_role("link", name="Table 1").first.click()
    page.wait_for_load_state()
    replay = page.locator("[data-replay], .replay").first
    if replay.count():
        replay.evaluate("e => (e.closest('.card') || e).scrollIntoView({block: 'start'})")

    shoot(page, f"table-replay-{kind}")
    # The calculator with a sample deal worked out.
    page.goto(f"{base}/calculator/")
    page.get_by_label("Sample record").select_option(index=1)
    if not page.locator("#record").input_value().strip():  # the sample fills the box by script
        page.wait_for_timeout(300)
    with page.expect_navigation():
        page.get_by_role("button", name="Evaluate").click()
    result = page.locator("#result, #errors").first
    result.evaluate("e => e.scrollIntoView({block: 'start'})")
    shoot(page, f"calculator-{kind}")

    if kind == "phone":
        # The scorer's page: the tile picker open on the first seat, then a preview.
        page.goto(scorer_url)
        page.get_by_role("radio", name="Unplayed tiles").check()
        first = seat(page, 0)
        first.get_by_role("button", name="Tap tiles").click()
        for tile in ("6:3", "5:5"):
            first.locator(f'.palette button[data-tile="{tile}"]').first.click()
        first.scroll_into_view_if_needed()
        shoot(page, "scorer-tile-picker-phone")
        page.goto(scorer_url)
        page.get_by_role("radio", name="Points", exact=True).check()  # the draft kept the tiles level
        for i, points in enumerate([0, 6, 6, 10]):
            seat(page, i).get_by_label("Points", exact=True).fill(str(points))
        page.get_by_label("Led by").select_option(index=1)
        page.get_by_label("Entered by").select_option(index=1)
        page.get_by_role("button", name="Preview", exact=True).click()
        expect(page.locator("#preview")).to_be_visible()
        page.locator("#preview").scroll_into_view_if_needed()
        shoot(page, "scorer-preview-phone")

    # The director's dashboard of the tournament.
    page.goto(f"{base}/director/login/")
    page.get_by_label("Username").fill(DEMO_USER)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Ding Niu open (demo)").first.click()
    page.wait_for_load_state()
    shoot(page, f"director-dashboard-{kind}")
    page.locator("#settings").evaluate("e => e.scrollIntoView({block: 'start'})")
    shoot(page, f"director-settings-{kind}")


if __name__ == "__main__":
    main()
