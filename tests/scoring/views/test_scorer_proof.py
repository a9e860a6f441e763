"""The scorer page where the tournament requires proof: "Who are you?", the phone remembering the
player (a signed cookie, forgotten on "not you?" and made void by a reset), deals entered as that
player, confirmed as another with one tap on their phone or their code typed here, the enterer
refused; and the director's player cards, resets and who entered and confirmed each deal."""

from __future__ import annotations

import pytest
from django.core.signing import get_cookie_signer
from django.test import Client

from scoring.models import ActionLog, Entry, Round
from scoring.services.players import entry_code_reset, entry_code_set
from scoring.web.player_proof import SALT, cookie_name

pytestmark = pytest.mark.django_db

DEAL = {"level": "points", "leader": "0", "idem_key": "key-1", "action": "submit", "number": "1",
        "points_0": "2", "points_1": "12", "points_2": "34", "points_3": "18"}


@pytest.fixture
def proof(make_setup):
    return make_setup("jie_long", require_confirmation=True, require_proof=True)


def url(setup, tail: str = "") -> str:
    return f"/s/{setup.token}/{tail}"


def prove(client, setup, seat: int, code: str, again: str | None = None):
    data = {"seat": str(seat), "code": code}
    if again is not None:
        data["code_again"] = again
    return client.post(url(setup, "who/"), data)


def test_a_new_phone_asks_who_you_are_and_offers_no_enterer_dropdown(proof):
    page = Client().get(url(proof)).content.decode()
    assert "Who are you?" in page and 'name="entered_by"' not in page and 'id="new-deal"' not in page
    assert "1. Anna (new code)" in page


def test_a_player_sets_a_code_and_the_phone_remembers_them(proof):
    phone = Client()
    r = prove(phone, proof, 0, "4821", "4829")
    assert r.status_code == 400 and "The two codes differ" in r.content.decode()
    r = prove(phone, proof, 0, "4821", "4821")
    assert r.status_code == 302
    cookie = r.cookies[cookie_name(proof.tournament.club_id)]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/"
    assert int(cookie["max-age"]) > 30 * 24 * 3600 and "4821" not in cookie.value
    page = phone.get(url(proof)).content.decode()
    assert "Entering as <strong>Anna</strong>" in page and "(not you?)" in page and 'id="new-deal"' in page
    assert 'name="entered_by"' not in page
    # The next deal costs no extra tap: entered as Anna, proven.
    r = phone.post(url(proof), DEAL)
    assert r.status_code == 302, r.content
    rnd = Round.objects.get()
    assert rnd.entered_by == 0 and rnd.entered_by_entry_id == proof.entries[0].pk
    assert ActionLog.objects.get(action="entry_code_set").data["by"] == "player"


def test_a_made_up_or_moved_cookie_proves_nothing(proof):
    phone = Client()
    phone.cookies[cookie_name(proof.tournament.club_id)] = f"{proof.entries[0].player_id}:1"   # not signed
    entry_code_set(actor=proof.director_actor, entry=proof.entries[0], code="1111")
    assert "Who are you?" in phone.get(url(proof)).content.decode()
    # Signed for another club's cookie, then moved to this one's: the signature names it.
    other = cookie_name(proof.tournament.club_id + 1)
    phone.cookies[cookie_name(proof.tournament.club_id)] = get_cookie_signer(salt=other + SALT).sign(
        f"{proof.entries[0].player_id}:1")
    assert "Who are you?" in phone.get(url(proof)).content.decode()
    phone.cookies[cookie_name(proof.tournament.club_id)] = get_cookie_signer(
        salt=cookie_name(proof.tournament.club_id) + SALT).sign(f"{proof.entries[0].player_id}:1")
    assert "Entering as <strong>Anna</strong>" in phone.get(url(proof)).content.decode()   # the same, signed here
    phone.cookies[cookie_name(proof.tournament.club_id)] = f"{proof.entries[0].player_id}:1"
    r = phone.post(url(proof), DEAL, HTTP_ACCEPT="application/json")
    assert r.status_code == 403 and r.json()["status"] == "error" and not Round.objects.exists()


def test_a_reset_makes_the_phone_forget_and_not_you_forgets_too(proof):
    phone = Client()
    prove(phone, proof, 0, "4821", "4821")
    entry_code_reset(actor=proof.director_actor, entry=Entry.objects.get(pk=proof.entries[0].pk))
    page = phone.get(url(proof)).content.decode()
    assert "Who are you?" in page and "Entering as" not in page
    r = phone.post(url(proof), DEAL, HTTP_ACCEPT="application/json")
    assert r.status_code == 403 and "Say who you are first" in r.json()["message"]
    prove(phone, proof, 0, "1357", "1357")   # a new code at the next use
    assert "Entering as <strong>Anna</strong>" in phone.get(url(proof)).content.decode()
    r = phone.post(url(proof, "forget-me/"))
    assert r.cookies[cookie_name(proof.tournament.club_id)].value == ""
    assert "Who are you?" in phone.get(url(proof)).content.decode()


def test_confirmed_from_another_phone_in_one_tap_never_by_the_enterer(proof):
    phone_a, phone_b = Client(), Client()
    prove(phone_a, proof, 0, "1111", "1111")
    prove(phone_b, proof, 1, "2222", "2222")
    phone_a.post(url(proof), DEAL)
    rnd = Round.objects.get()
    page_a = phone_a.get(url(proof)).content.decode()
    assert "Confirm as Anna" not in page_a and "Confirm as another player" in page_a
    # On phone A, Anna picks herself and types her code: refused, 409.
    r = phone_a.post(url(proof, f"deals/{rnd.pk}/confirm/"), {"confirmed_by": "0", "confirmed_by_code": "1111"})
    assert r.status_code == 409 and "cannot confirm it" in r.content.decode()
    # A wrong code for Celine typed on A: 403, the code not shown back.
    entry_code_set(actor=proof.director_actor, entry=proof.entries[2], code="3333")
    r = phone_a.post(url(proof, f"deals/{rnd.pk}/confirm/"), {"confirmed_by": "2", "confirmed_by_code": "3330"})
    assert r.status_code == 403 and "Wrong code for Celine." in r.content.decode()
    assert 'value="3330"' not in r.content.decode()
    assert "Confirm as Bob" in phone_b.get(url(proof)).content.decode()
    r = phone_b.post(url(proof, f"deals/{rnd.pk}/confirm/"), {"as_me": "1"})
    assert r.status_code == 302
    rnd.refresh_from_db()
    assert (rnd.status, rnd.confirmed_by, rnd.confirmed_by_entry_id) == ("confirmed", 1, proof.entries[1].pk)


def test_confirmed_with_the_other_players_code_typed_on_the_same_phone(proof):
    phone = Client()
    prove(phone, proof, 0, "1111", "1111")
    entry_code_set(actor=proof.director_actor, entry=proof.entries[3], code="4444")
    phone.post(url(proof), DEAL)
    rnd = Round.objects.get()
    r = phone.post(url(proof, f"deals/{rnd.pk}/confirm/"), {"confirmed_by": "3", "confirmed_by_code": "4444"})
    assert r.status_code == 302
    assert Round.objects.get().confirmed_by_entry_id == proof.entries[3].pk
    # The phone still enters as Anna: typing Dominic's code did not make it his.
    assert "Entering as <strong>Anna</strong>" in phone.get(url(proof)).content.decode()


def test_wrong_codes_on_who_are_you_are_limited_per_player(proof, settings):
    settings.RATE_LIMITS = {"player-code": "5/d"}
    entry_code_set(actor=proof.director_actor, entry=proof.entries[0], code="1111")
    entry_code_set(actor=proof.director_actor, entry=proof.entries[1], code="2222")
    phone = Client()
    for _ in range(5):
        r = prove(phone, proof, 0, "0000")
        assert r.status_code == 403 and "Wrong code for Anna." in r.content.decode()
    r = prove(phone, proof, 0, "1111")
    assert r.status_code == 429 and int(r["Retry-After"]) >= 1
    assert prove(phone, proof, 1, "2222").status_code == 302   # Bob, from the same address


def test_the_correction_form_offers_no_enterer_and_keeps_the_proven_one(proof):
    phone = Client()
    assert prove(phone, proof, 1, "4821", "4821").status_code == 302
    assert phone.post(url(proof), DEAL).status_code == 302
    rnd = Round.objects.get()
    page = phone.get(url(proof, f"deals/{rnd.pk}/correct/")).content.decode()
    assert 'name="entered_by"' not in page and "who is typing?" not in page
    fixed = {k: v for k, v in DEAL.items() if k not in ("idem_key", "number")}
    r = phone.post(url(proof, f"deals/{rnd.pk}/correct/"), {**fixed, "action": "save", "points_2": "30",
                                                            "revision": "1", "reason": "typo"})
    assert r.status_code == 302, r.content.decode()
    rnd.refresh_from_db()
    assert rnd.current_revision.number == 2 and rnd.entered_by == 1 and rnd.entered_by_entry_id == proof.entries[1].pk


def test_without_proof_required_the_page_is_as_before(make_setup):
    s = make_setup("jie_long", require_confirmation=True)
    page = Client().get(url(s)).content.decode()
    assert "Who are you?" not in page and 'name="entered_by"' in page and 'id="new-deal"' in page


def test_the_director_prints_cards_resets_codes_and_sees_who_proved(proof, client, director):
    client.force_login(director)
    page = client.get(f"/director/tournaments/{proof.tournament.pk}/").content.decode()
    assert 'id="codes"' in page and "Players and their codes" in page
    r = client.post(f"/director/tournaments/{proof.tournament.pk}/player-cards/")
    assert r.status_code == 200 and r["Cache-Control"] == "no-store"
    cards = r.context["cards"]
    assert [c["name"] for c in cards] == ["Anna", "Bob", "Celine", "Dominic"]
    assert all(c["code"] in r.content.decode() for c in cards)
    phone = Client()
    assert prove(phone, proof, 0, cards[0]["code"]).status_code == 302
    phone.post(url(proof), DEAL)
    table_page = client.get(f"/director/tables/{proof.table.pk}/").content.decode()
    assert "Entered by Anna." in table_page and "proven" in table_page
    rnd = Round.objects.get(table=proof.table)
    revisions = client.get(f"/director/deals/{rnd.pk}/revisions/").content.decode()
    assert "entered by Anna (proven)" in revisions   # the revision's actor, on the deal's revisions
    anna = proof.entries[0]
    r = client.post(f"/director/tournaments/{proof.tournament.pk}/entries/{anna.pk}/card/")
    assert r.status_code == 200 and len(r.context["cards"]) == 1
    r = client.post(f"/director/tournaments/{proof.tournament.pk}/entries/{anna.pk}/code-reset/")
    assert r.status_code == 302 and not Entry.objects.select_related("player").get(pk=anna.pk).player.code_hash


def test_the_settings_form_switches_proof(proof, client, director):
    client.force_login(director)
    r = client.post(f"/director/tournaments/{proof.tournament.pk}/settings/",
                    {"name": proof.tournament.name, "public": "on", "require_confirmation": "on", "chip_value": "0.50",
                     "currency": "EUR", "tie_break_0": "net"})
    assert r.status_code == 302
    proof.tournament.refresh_from_db()
    assert proof.tournament.require_proof is False


def _between(page: str, start: str, end: str) -> str:
    at = page.index(start)
    return page[at:page.index(end, at)]


def test_the_confirm_list_leaves_out_the_enterer_and_a_wrong_code_stays_beside_it(proof):
    import re

    phone = Client()
    prove(phone, proof, 0, "1111", "1111")
    entry_code_set(actor=proof.director_actor, entry=proof.entries[2], code="3333")
    phone.post(url(proof), DEAL)
    rnd = Round.objects.get()
    select = _between(phone.get(url(proof)).content.decode(), f'<select id="confirm-{rnd.pk}"', "</select>")
    assert "Anna" not in select and "Bob" in select and "Celine" in select   # Anna entered it
    r = phone.post(url(proof, f"deals/{rnd.pk}/confirm/"), {"confirmed_by": "2", "confirmed_by_code": "3330"})
    page = r.content.decode()
    assert r.status_code == 403
    confirm = _between(page, f'action="/s/{proof.token}/deals/{rnd.pk}/confirm/"', "</form>")
    referee = _between(page, f'action="/s/{proof.token}/deals/{rnd.pk}/dispute/"', "</form>")
    assert "Wrong code for Celine." in confirm and "Wrong code for Celine." not in referee
    assert 'aria-invalid' not in referee
    assert re.search(r'<option value="2" selected>3\. Celine</option>', confirm)   # still Celine
    # the box that holds the form is open; the referee's is not
    assert re.search(r"<details open><summary>Confirm as another player", page)
    assert not re.search(r"<details open><summary>Call the referee", page)
