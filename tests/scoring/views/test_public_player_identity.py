"""The player's page (``/players/<id>/``) and the phone that knows him across the club's
tournaments (``scoring.web.player_proof``): his seats to come only once this phone proves him
(remembered from a table, or his code typed on the page, counted like one typed at a table);
the phone proven at one tournament's table knows him at the next; a reset hides them on every
phone; "not you?" forgets; the page's queries stay bounded."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.models import Entry
from scoring.services.players import entry_code_issue, entry_code_reset, entry_code_set
from scoring.services.tournaments import tournament_update
from scoring.web.player_proof import cookie_name
from scoring.web.throttling import RATES

pytestmark = pytest.mark.django_db


@pytest.fixture
def a(make_setup):
    return make_setup("jie_long", require_confirmation=True, require_proof=True, table_name="Table 1")


@pytest.fixture
def b(make_setup, a):
    """The club's next tournament, the same players: Anna at "Table 7"."""
    return make_setup("jie_long", require_confirmation=True, require_proof=True, table_name="Table 7")


def page(client, setup):
    return client.get(f"/players/{setup.entries[0].player_id}/")


def prove_on_page(client, setup, code: str):
    return client.post(f"/players/{setup.entries[0].player_id}/prove/", {"code": code})


def prove_at_table(client, setup, code: str, again: str | None = None):
    return client.post(f"/s/{setup.token}/who/", {"seat": "0", "code": code, **({"code_again": again} if again else {})})


def test_the_page_shows_his_seats_only_once_his_code_proves_him_on_this_phone(a, b):
    code = entry_code_issue(actor=a.director_actor, entry=a.entries[0])
    phone = Client()
    r = page(phone, a)
    html = r.content.decode()
    assert r.status_code == 200 and "Is this you?" in html and 'id="my-seats-table"' not in html
    assert "Table 7" not in html and "Bob" not in html   # the statistics are public; the seats are his
    r = prove_on_page(phone, a, "000000" if code != "000000" else "111111")
    assert r.status_code == 403 and "Wrong code for Anna." in r.content.decode()
    r = prove_on_page(phone, a, "12")
    assert r.status_code == 400 and "A personal code is 4 to 6 digits." in r.content.decode()
    r = prove_on_page(phone, a, code)
    assert r.status_code == 302 and r["Location"].endswith("#my-seats")
    cookie = r.cookies[cookie_name(a.tournament.club_id)]
    assert cookie["httponly"] and cookie["path"] == "/" and code not in cookie.value
    r = page(phone, a)
    html = r.content.decode()
    assert 'id="my-seats-table"' in html and "Table 1" in html and "Table 7" in html and "Bob (seat South)" in html
    assert "This phone knows you as <strong>Anna</strong>." in html and r["Cache-Control"] == "private, no-store"
    assert "Table 7" not in page(Client(), a).content.decode()   # another phone: still nothing of his


def test_a_phone_proven_at_one_tournaments_table_knows_him_at_the_next_and_on_his_page(a, b):
    phone = Client()
    assert prove_at_table(phone, a, "4821", "4821").status_code == 302   # his first code, at A
    assert "Entering as <strong>Anna</strong>" in phone.get(f"/s/{b.token}/").content.decode()   # at B: known
    assert 'id="my-seats-table"' in page(phone, a).content.decode()
    # His code, set at A, proves him at B on another phone.
    other = Client()
    assert prove_at_table(other, b, "4821").status_code == 302
    assert "Entering as <strong>Anna</strong>" in other.get(f"/s/{b.token}/").content.decode()


def test_a_reset_makes_every_phone_forget_him(a, b):
    phones = [Client(), Client()]
    code = entry_code_issue(actor=a.director_actor, entry=a.entries[0])
    prove_at_table(phones[0], a, code)
    prove_on_page(phones[1], a, code)
    for phone in phones:
        assert 'id="my-seats-table"' in page(phone, a).content.decode()
    entry_code_reset(actor=b.director_actor, entry=Entry.objects.get(pk=b.entries[0].pk))   # at B
    for phone in phones:
        html = page(phone, a).content.decode()
        assert "Is this you?" in html and 'id="my-seats-table"' not in html
        assert "Who are you?" in phone.get(f"/s/{a.token}/").content.decode()


def test_not_you_forgets_him_on_this_phone(a):
    phone = Client()
    code = entry_code_issue(actor=a.director_actor, entry=a.entries[0])
    prove_on_page(phone, a, code)
    r = phone.post(f"/players/{a.entries[0].player_id}/forget/")
    assert r.status_code == 302 and r.cookies[cookie_name(a.tournament.club_id)].value == ""
    assert "Is this you?" in page(phone, a).content.decode()


def test_a_legacy_entry_code_does_not_prove_him_on_his_page(a):
    """A code from before codes belonged to the player proves him at its tournament's table only."""
    from scoring.domain import code_hashes
    from scoring.selectors.players import code_keys
    Entry.objects.filter(pk=a.entries[0].pk).update(legacy_code_hash=code_hashes.code_hash("2468", key=code_keys()[0]))
    r = prove_on_page(Client(), a, "2468")
    assert r.status_code == 403 and "has no personal code yet" in r.content.decode()
    assert prove_at_table(Client(), a, "2468").status_code == 302


def test_seats_of_a_private_tournament_show_only_to_his_phone_and_closed_or_finished_ones_not_at_all(a, b):
    tournament_update(actor=b.director_actor, tournament=b.tournament, public=False)
    phone = Client()
    code = entry_code_issue(actor=a.director_actor, entry=a.entries[0])
    assert "Table 7" not in page(Client(), a).content.decode()
    prove_on_page(phone, a, code)
    assert "Table 7" in page(phone, a).content.decode()
    from scoring.services.tournaments import tournament_finish
    tournament_finish(actor=b.director_actor, tournament=b.tournament)
    html = page(phone, a).content.decode()
    assert "Table 7" not in html and "Table 1" in html


def test_a_player_with_nothing_public_has_no_page_to_prove_on(a):
    tournament_update(actor=a.director_actor, tournament=a.tournament, public=False)
    entry_code_set(actor=a.director_actor, entry=a.entries[0], code="1111")
    assert page(Client(), a).status_code == 404
    assert prove_on_page(Client(), a, "1111").status_code == 404   # nothing told about who exists


def test_wrong_codes_on_the_page_and_at_tables_share_one_allowance(a, b, settings):
    settings.RATE_LIMITS = {group: rate.split("/")[0] + "/d" for group, rate in RATES.items()}
    allowance = int(RATES["player-code"].split("/")[0])
    code = entry_code_issue(actor=a.director_actor, entry=a.entries[0])
    wrong = "000000" if code != "000000" else "111111"
    for n in range(allowance):
        r = (prove_on_page(Client(), a, wrong) if n % 2 else prove_at_table(Client(), b, wrong))
        assert r.status_code == 403
    assert prove_on_page(Client(), a, code).status_code == 429   # even the right code, past the allowance
    assert prove_at_table(Client(), a, code).status_code == 429


#: Without proof: the player and his club, whether he has a public tournament, his statistics
#: (entries, seats, substitutions, deals). Proven: also his code version read on the primary,
#: his seats, the players at those tables, and the phone's session (its messages).
PAGE = 6
PAGE_PROVEN = PAGE + 4


def test_the_page_costs_the_same_queries_for_one_seat_or_many(a, b, make_setup, django_assert_num_queries):
    phone = Client()
    code = entry_code_issue(actor=a.director_actor, entry=a.entries[0])
    with django_assert_num_queries(PAGE):
        page(Client(), a)
    prove_on_page(phone, a, code)
    with django_assert_num_queries(PAGE_PROVEN):
        page(phone, a)
    for n in range(3):
        make_setup("jie_long", require_proof=True, table_name=f"Table {20 + n}")
    with django_assert_num_queries(PAGE_PROVEN):
        assert "Table 22" in page(phone, a).content.decode()
