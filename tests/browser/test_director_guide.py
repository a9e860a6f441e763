"""A club evening in a real browser, from check-in to payouts, as docs/director-guide.md tells it,
and that guide's screenshots.

The director (a laptop) logs in, creates the tournament, enters the players, prints their cards,
starts and seats session 1; at the tables, players on their phones (390 × 844) prove who they
are, enter a deal, confirm another's and call the referee; the director settles the dispute
(with a note) on the tournament page (the console) and starts the clock; time runs out; session 2
is seated (the old links say where to sit now); the director opens the finish's warnings and
finishes; the public pages show the payouts and the standings. Each step the guide shows is a screenshot taken here, named as the guide names it.

By default the screenshots go to a temporary directory (a test run leaves the tree clean);
``GUIDE_SCREENSHOTS=1`` writes them to docs/screenshots/guide/ (``make guide-screenshots``).
The guide may show only what this walk takes: the images it references are exactly the
screenshots taken, and each is in the repository.
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.domain.records import nets_by_position
from scoring.models import Round, Session
from scoring.services.clubs import player_create

from .conftest import assert_no_horizontal_scroll
from .test_sessions import seconds_shown

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "director-guide.md"
GUIDE_SHOTS = ROOT / "docs" / "screenshots" / "guide"
#: The guide's images: ``![alt](screenshots/guide/NN-step.png)``, relative to docs/.
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)")

NAMES = ["Chen", "Li", "Wang", "Zhao", "Liu", "Yang", "Huang", "Zhou"]
#: Jie Long points left in hand, by seat (the deals entered at the tables).
TABLE_1_POINTS = [0, 12, 34, 18]
TABLE_2_POINTS = [9, 0, 21, 5]
TABLE_1_LATE_POINTS = [7, 15, 0, 4]
#: What a player of table 2 tells the referee about its deal 1 (the third seat's points).
DISPUTE = "{name} had 12 points, not 21"
#: The site's address as ``make club`` sets it on a club night: the sheets' links and QR codes
#: name it (a loopback address would add a warning that this evening has no reason to show).
CLUB_SITE = "http://192.168.1.20:8000"


def guide_images() -> set[str]:
    """The images docs/director-guide.md shows, as paths relative to docs/."""
    return set(IMAGE.findall(GUIDE.read_text(encoding="utf-8")))


class Camera:
    """Takes the guide's screenshots (PNG at one pixel per CSS pixel) and remembers their names."""

    def __init__(self, out: Path):
        self.out = out
        self.taken: list[str] = []

    def shoot(self, name: str, target) -> None:
        """``target``: a page (the part of its ``main`` on the screen: not the header, whose
        Chinese brand needs fonts a test machine may lack) or a locator (that part of the page)."""
        assert name not in self.taken, name
        self.taken.append(name)
        path = str(self.out / f"{name}.png")
        if hasattr(target, "goto"):
            box, screen = target.locator("main").bounding_box(), target.viewport_size
            top, left = max(0, box["y"]), max(0, box["x"])
            clip = {"x": left, "y": top, "width": min(screen["width"], box["x"] + box["width"]) - left,
                    "height": min(screen["height"], box["y"] + box["height"]) - top}
            target.screenshot(path=path, clip=clip, animations="disabled", caret="hide")
        else:
            target.screenshot(path=path, animations="disabled", caret="hide")

    def references(self) -> set[str]:
        return {f"screenshots/guide/{name}.png" for name in self.taken}


@pytest.fixture
def camera(tmp_path):
    if os.environ.get("GUIDE_SCREENSHOTS") == "1":
        # Made afresh: a step renamed or dropped leaves no picture behind.
        GUIDE_SHOTS.mkdir(parents=True, exist_ok=True)
        for old in GUIDE_SHOTS.glob("*.png"):
            old.unlink()
        return Camera(GUIDE_SHOTS)
    return Camera(tmp_path)


# --- the walk's steps ---------------------------------------------------------------------------

def go(page, button: str, *, dialog: bool = False, scope=None) -> None:
    """Press a button that loads a page; ``dialog``: accept the question it asks first."""
    if dialog:
        page.once("dialog", lambda d: d.accept())
    with page.expect_navigation():
        (scope or page).get_by_role("button", name=button, exact=True).click()


def message(page, text: str) -> None:
    expect(page.locator(".messages")).to_contain_text(text)


def who_are_you(phone, seats: list[str], name: str, code: str, *, press: bool = True) -> None:
    """The player picks their name and types the code of their card."""
    phone.get_by_label("Your name").select_option(label=f"{seats.index(name) + 1}. {name}")
    phone.get_by_label("Your code (4 to 6 digits)").fill(code)
    if press:
        go(phone, "That's me")
        expect(phone.locator("#who")).to_contain_text(f"Entering as {name}")


def fill_deal(phone, seats: list[str], points: list[int]) -> None:
    for i, (name, p) in enumerate(zip(seats, points)):
        phone.get_by_role("group", name=f"{i + 1}. {name}", exact=True).get_by_label("Points", exact=True).fill(str(p))
    phone.get_by_label("Led by").select_option(label=f"1. {seats[0]}")


def sheet_tables(page, live_server) -> list[dict]:
    """The seating sheet's tables: their seats, and their scorer link made to reach the test's
    server (the sheet names the club's address)."""
    tables = []
    for t in page.locator("article.sheet-table").all():
        link = t.locator(".link-box a").get_attribute("href")
        assert link.startswith(CLUB_SITE + "/s/"), link
        tables.append({"seats": t.locator("ol.seats li").all_inner_texts(),
                       "link": live_server.url + urlsplit(link).path})
    return tables


def test_a_club_evening_from_check_in_to_payouts(live_server, make_page, club, director_actor, camera, settings):
    settings.SITE_URL = CLUB_SITE
    # The club's regulars are on its roster from earlier evenings; Zhou comes for the first time.
    for name in NAMES[:-1]:
        player_create(actor=director_actor, club=club, name=name)
    director = make_page("desktop")

    # The guide's steps, by number. 1. Log in.
    director.goto(live_server.url + "/director/login/")
    director.get_by_label("Username").fill("alice")
    director.get_by_label("Password").fill("alice-secret-1")
    camera.shoot("01-log-in", director.locator("main"))
    go(director, "Log in")
    expect(director.get_by_role("heading", name="Director", exact=True)).to_be_visible()

    # 2. The club's page: a newcomer, then the evening's tournament.
    with director.expect_navigation():
        director.get_by_role("link", name=club.name, exact=True).click()
    director.get_by_label("Names, one per line").fill("Zhou")
    go(director, "Add players")
    message(director, "Added 1 player: Zhou.")
    form = director.locator("#new-tournament")
    form.get_by_label("Name", exact=True).fill("Friday club night")
    form.get_by_label("Game").select_option(label="Jie Long")
    expect(form.get_by_role("group", name="Rules of Jie Long")).to_be_visible()   # the defaults kept
    form.get_by_label("Only confirmed deals count").check()
    form.get_by_label("Value of a chip or point").fill("0.50")
    form.get_by_label("Currency (3 letters, optional)").fill("EUR")
    camera.shoot("02-new-tournament", form)
    go(director, "Create tournament")
    expect(director.get_by_role("heading", level=1)).to_contain_text("Friday club night")
    tournament = club.tournaments.get(name="Friday club night")
    assert (tournament.game, tournament.require_confirmation, tournament.require_proof, tournament.public) == (
        "jie_long", True, True, True)
    console = director.url

    # 3. Enter the players.
    entries = director.locator("#entries")
    for name in NAMES:
        entries.get_by_label(name, exact=True).check()
    camera.shoot("03-enter-players", entries)
    go(director, "Enter the ticked players")
    message(director, "Entered " + ", ".join(sorted(NAMES)) + ".")

    # 4. Player cards: a code for everyone, shown once.
    go(director, "Player cards (new codes for everyone)", dialog=True)
    expect(director.get_by_role("heading", level=1)).to_contain_text("Player cards")
    cards = {c.locator("h2").inner_text(): c.locator("strong.code").inner_text()
             for c in director.locator("article.player-card").all()}
    assert sorted(cards) == sorted(NAMES) and all(re.fullmatch(r"\d{6}", c) for c in cards.values())
    camera.shoot("04-player-cards", director)

    # 5. Start.
    director.goto(console)
    expect(director.locator("#codes")).not_to_contain_text("not set")
    go(director, "Start the tournament")
    message(director, "The tournament is running: scorers can enter deals.")
    camera.shoot("05-started", director)

    # 6, 7. Seat session 1: the sheet of QR codes.
    seat_form = director.locator("#seat-session")
    seat_form.get_by_label("Seed (optional)").fill("friday")
    camera.shoot("06-seat-session-1", seat_form)
    go(director, "Seat session 1")
    expect(director.get_by_role("heading", level=1)).to_contain_text("session 1")
    tables = sheet_tables(director, live_server)
    assert len(tables) == 2 and sorted(n for t in tables for n in t["seats"]) == sorted(NAMES)
    expect(director.locator(".sheet-table .qr svg")).to_have_count(2)
    expect(director.locator("#loopback-warning")).to_have_count(0)
    camera.shoot("07-qr-sheet", director)
    t1, t2 = tables
    s1, s2 = t1["seats"], t2["seats"]

    # 8. At table 1: the scorer opens the link and proves who they are.
    phone_a = make_page("phone390", device_scale_factor=1)
    phone_a.goto(t1["link"])
    expect(phone_a.get_by_role("heading", name="Who are you?")).to_be_visible()
    who_are_you(phone_a, s1, s1[0], cards[s1[0]], press=False)
    camera.shoot("08-who-are-you", phone_a)
    go(phone_a, "That's me")
    expect(phone_a.locator("#who")).to_contain_text(f"Entering as {s1[0]}")

    # 9. The deal: its preview, then Submit.
    fill_deal(phone_a, s1, TABLE_1_POINTS)
    phone_a.get_by_role("button", name="Preview", exact=True).click()
    preview = phone_a.locator("#preview")
    expect(preview).to_contain_text("Preview — nothing is stored yet")
    expect(preview).to_contain_text(f"{s1[1]} pays {s1[0]} {TABLE_1_POINTS[1]}")
    camera.shoot("09-enter-a-deal", phone_a.locator("#new-deal"))
    go(phone_a, "Submit")
    expect(phone_a.locator("#deal-1")).to_contain_text(f"Entered by {s1[0]}.")
    expect(phone_a.locator("#deal-1").get_by_role("button", name=f"Confirm as {s1[0]}")).to_have_count(0)
    assert_no_horizontal_scroll(phone_a)

    # 10. Another player of the table confirms it on their own phone.
    phone_b = make_page("phone390", device_scale_factor=1)
    phone_b.goto(t1["link"])
    who_are_you(phone_b, s1, s1[1], cards[s1[1]])
    deal = phone_b.locator("#deal-1")
    camera.shoot("10-confirm-on-another-phone", deal)
    go(phone_b, f"Confirm as {s1[1]}", scope=deal)
    expect(deal).to_contain_text(f"Entered by {s1[0]}. proven Confirmed by {s1[1]}. proven")
    first = Round.objects.get(table__session__number=1, table__name="Table 1", number=1)
    assert first.status == "confirmed"
    assert (first.entered_by_entry.player.name, first.confirmed_by_entry.player.name) == (s1[0], s1[1])

    # 11, 12. The director watches the tournament page (the console). At table 2 a deal is entered
    # and a player calls the referee: the page shows it by itself (static/js/live.js).
    director.goto(console)
    disputed = director.locator("#disputed")
    expect(disputed).to_contain_text("No disputes.")
    claim = DISPUTE.format(name=s2[2])
    phone_c = make_page("phone390", device_scale_factor=1)
    phone_c.goto(t2["link"])
    who_are_you(phone_c, s2, s2[0], cards[s2[0]])
    fill_deal(phone_c, s2, TABLE_2_POINTS)
    go(phone_c, "Submit")
    deal = phone_c.locator("#deal-1")
    deal.get_by_text("Call the referee").click()
    deal.get_by_label("What is wrong?").fill(claim)
    camera.shoot("11-call-the-referee", deal)
    go(phone_c, "Dispute", scope=deal)
    message(phone_c, "Deal 1 is flagged for the referee.")
    expect(disputed.get_by_role("heading", name="Disputed deals (1)")).to_be_visible(timeout=15_000)
    expect(disputed).to_contain_text(f"Referee called: {claim}")
    camera.shoot("12-dispute-on-the-tournament-page", disputed)

    # 13. The director checks the tiles with the table: the deal stands. Settled, then confirmed.
    disputed.get_by_label("Your note (required): what you decided and why").fill(
        "Checked the tiles with the table: the deal stands.")
    go(director, "Settle the dispute", scope=disputed)
    message(director, "The dispute about deal 1 of Session 1 · Table 2 is settled.")
    expect(disputed).to_contain_text("No disputes.")
    # Back on the console: the table's card in the grid opens its page.
    card = director.locator("#tables article.table-card").filter(has_text="Table 2")
    with director.expect_navigation():
        card.get_by_role("link", name="Deals and revisions").click()
    deal = director.locator("#deal-1")
    expect(deal.locator(".badge.disputed")).to_have_count(0)
    expect(deal.get_by_label("Confirm (on behalf of)")).to_have_value("")   # the director
    camera.shoot("13-settled-then-confirm", deal)
    go(director, "Confirm", scope=deal)
    message(director, "Deal 1 of Session 1 · Table 2 confirmed.")
    assert Round.objects.get(table__session__number=1, table__name="Table 2", number=1).status == "confirmed"

    # 14. The session clock, in the console's Tables: the shown session (the newest open one), its
    # state and controls, then its tables.
    director.goto(console)
    tables_part = director.locator("#tables")
    expect(tables_part.locator("#session-1")).to_have_text("Session 1")
    tables_part.get_by_label("Clock (minutes)").fill("90")
    go(director, "Start the clock", scope=tables_part)
    expect(tables_part.locator(".session-state [data-clock-text]")).to_contain_text("Time left: 1:29:")
    before = seconds_shown(director)
    director.wait_for_timeout(1100)
    assert seconds_shown(director) < before, "the clock does not count down"
    camera.shoot("14-session-clock", tables_part)
    phone_a.goto(t1["link"])
    expect(phone_a.locator("[data-clock-text]")).to_contain_text("Time left: 1:29:")
    camera.shoot("15-clock-on-a-phone", phone_a)

    # 15. Time is up (the test moves the clock's end to a moment ago rather than wait 90 minutes).
    # Table 1 sends one more deal after the time; table 2 sends none.
    now = timezone.now()
    Session.objects.filter(tournament=tournament, number=1).update(
        clock_started_at=now - timedelta(minutes=90), clock_ends_at=now - timedelta(seconds=1), changed_at=now)
    phone_a.goto(t1["link"])
    expect(phone_a.locator("[data-clock-text]")).to_have_text("Time is up")
    fill_deal(phone_a, s1, TABLE_1_LATE_POINTS)
    go(phone_a, "Submit")
    expect(phone_a.locator("#deal-2")).to_contain_text(f"Entered by {s1[0]}.")
    assert Round.objects.get(table__session__number=1, table__name="Table 1", number=2).after_time
    director.goto(console)
    expect(tables_part.locator("#session-1")).to_have_text("Session 1")
    expect(tables_part.locator(".session-state [data-clock-text]")).to_have_text("Time is up")
    still = tables_part.locator(".session-state .still-playing")
    expect(still).to_have_text("Time is up; still playing (no deal since): Table 2")
    # The grid says it too, on the table's card.
    expect(tables_part.locator("article.table-card .badge.still-playing")).to_have_count(1)
    playing = tables_part.locator("article.table-card").filter(has=director.locator(".badge.still-playing"))
    expect(playing).to_contain_text("Table 2")
    camera.shoot("16-time-is-up", tables_part)

    # 16. Seat session 2: session 1 closes.
    director.locator("#seat-session").get_by_label("Seed (optional)").fill("friday-2")
    go(director, "Seat session 2")
    expect(director.locator("#closed-sessions")).to_contain_text("Session 1 is closed")
    new_tables = sheet_tables(director, live_server)
    assert len(new_tables) == 2 and sorted(n for t in new_tables for n in t["seats"]) == sorted(NAMES)
    expect(director.locator("#wall-list")).to_contain_text(f"{s1[0]} → Session 2 · Table ")
    camera.shoot("17-seat-session-2", director)

    # 17. The old link: "session ended", and where to sit now (the player this phone knows in bold).
    phone_a.goto(t1["link"])
    ended = phone_a.locator("#session-ended")
    expect(ended).to_contain_text("This table's session has ended")
    now_at = next(i for i, t in enumerate(new_tables) if s1[0] in t["seats"]) + 1
    expect(ended.locator("li[aria-current=true]")).to_contain_text(f"{s1[0]} → Session 2 · Table {now_at}, seat ")
    for name in s1[1:]:
        expect(ended).to_contain_text(f"{name} → Session 2 · Table ")
    expect(phone_a.get_by_role("button", name="Submit", exact=True)).to_have_count(0)
    assert_no_horizontal_scroll(phone_a)
    camera.shoot("18-session-ended", phone_a)

    # 18. Finish: the warnings first (Finish opens them; the deals are listed further down). The
    # deal after time is not confirmed: it stops counting.
    director.goto(console)
    # The console now shows session 2; session 1 is one click away, marked closed (the guide's
    # way to a late deal).
    expect(director.locator("#tables nav.tabs a[aria-current=page]")).to_have_text("Session 2")
    expect(director.locator("#tables nav.tabs")).to_contain_text("Session 1 (closed)")
    finish = director.locator("#finish")
    finish.get_by_text("Finish the tournament…").click()
    expect(finish).to_contain_text("1 deal is not confirmed: it does not count, and cannot be confirmed after.")
    expect(finish).to_contain_text("Session 2 is open: finishing closes it.")
    expect(director.locator("#unsettled ul.unsettled li")).to_have_text(["Session 1 · Table 1, deal 2 — not confirmed"])
    camera.shoot("19-finish-warnings", finish)
    go(director, "Finish the tournament", dialog=True, scope=finish)
    message(director, "The tournament is finished and read-only.")
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    late = Round.objects.get(table__session__number=1, table__name="Table 1", number=2)
    assert late.status == "recorded"

    # 19. The public pages: payouts and standings (the two confirmed deals only).
    public = make_page("phone390", device_scale_factor=1)
    public.goto(f"{live_server.url}/t/{tournament.slug}/payouts/")
    expect(public.locator("#transfers li").first).to_contain_text(" pays ")
    nets = {r.locator("td").nth(0).inner_text(): int(r.locator("td").nth(1).inner_text())
            for r in public.locator("#payout-players tbody tr").all()}
    counted = {}
    for rnd in Round.objects.filter(table__session__tournament=tournament, status="confirmed"):
        names = [seat.entry.player.name for seat in rnd.table.seats.order_by("position")]
        rev = rnd.current_revision
        for name, net in zip(names, nets_by_position(game="jie_long", body=rev.body, result=rev.result, n=len(names))):
            counted[name] = counted.get(name, 0) + net
    assert nets == {name: counted.get(name, 0) for name in NAMES}
    assert_no_horizontal_scroll(public)
    camera.shoot("20-payouts", public)
    director.goto(f"{live_server.url}/t/{tournament.slug}/")
    expect(director.get_by_role("heading", level=1)).to_contain_text("Finished")
    camera.shoot("21-public-standings", director)

    # The guide shows exactly these screenshots, and each is in the repository.
    assert guide_images() == camera.references()
    missing = sorted(i for i in camera.references() if not (ROOT / "docs" / i).is_file())
    assert not missing, f"not in the repository (GUIDE_SCREENSHOTS=1 makes them): {missing}"


# Run after the walk (file order), so that GUIDE_SCREENSHOTS=1 checks the pictures just made.
def test_the_guide_shows_only_its_own_screenshots_and_they_are_committed():
    images = guide_images()
    assert images, "the guide shows no screenshot"
    outside = sorted(i for i in images if not re.fullmatch(r"screenshots/guide/\d\d-[a-z0-9-]+\.png", i))
    assert not outside, f"the guide's images are screenshots/guide/NN-step-name.png only: {outside}"
    missing = sorted(i for i in images if not (ROOT / "docs" / i).is_file())
    assert not missing, f"not in the repository (GUIDE_SCREENSHOTS=1 makes them): {missing}"
    unused = sorted({f"screenshots/guide/{p.name}" for p in GUIDE_SHOTS.glob("*.png")} - images)
    assert not unused, f"screenshots the guide no longer shows (delete them): {unused}"
