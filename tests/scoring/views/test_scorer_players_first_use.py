"""Proof that holds at first use, on the scorer page as phones use it (each ``Client`` is one phone:
its own browser session and cookies). A phone that entered a deal cannot then choose another
player's first code and confirm as them; a code set at first use confirms only deals entered after
it, from another phone; a director's code confirms any; a phone that proved one player sets no
other's first code; wrong codes are counted per player, whichever table they are typed at."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.models import Entry, Round
from scoring.services.players import entry_code_issue
from scoring.services.tables import table_create

from .test_scorer_proof import DEAL, prove, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def proof(make_setup):
    """Proof required, no cards issued: every code is set at first use."""
    return make_setup("jie_long", require_confirmation=True, require_proof=True)


def confirm(phone, setup, rnd, **data):
    return phone.post(url(setup, f"deals/{rnd.pk}/confirm/"), data)


def test_the_phone_that_entered_a_deal_cannot_set_another_players_first_code_and_confirm_as_them(proof):
    """The attack as it was: enter a deal as Anna, open "Who are you?", set Bob's first code,
    confirm as Bob. Each step is refused now; the deal stays unconfirmed."""
    phone = Client()
    assert prove(phone, proof, 0, "1111", "1111").status_code == 302          # Anna, her first code
    assert phone.post(url(proof), DEAL).status_code == 302                     # Anna's deal
    rnd = Round.objects.get()
    assert rnd.entered_by_entry_id == proof.entries[0].pk and rnd.entered_on
    # "Not you?", then Bob's first code from the same phone: refused, and Bob still has none.
    phone.post(url(proof, "forget-me/"))
    r = prove(phone, proof, 1, "2222", "2222")
    assert r.status_code == 403 and "This phone already speaks for another player" in r.content.decode()
    assert not Entry.objects.select_related("player").get(pk=proof.entries[1].pk).player.code_hash
    # The same phone with its cookies cleared is a new phone to us: it may set Bob's code...
    phone.cookies.clear()
    assert prove(phone, proof, 1, "2222", "2222").status_code == 302
    # ... which still confirms nothing entered before it, one tap or typed.
    r = confirm(phone, proof, rnd, as_me="1")
    assert r.status_code == 403 and "set their code after this deal was entered" in r.content.decode()
    r = confirm(Client(), proof, rnd, confirmed_by="1", confirmed_by_code="2222")
    assert r.status_code == 403 and "set their code after this deal was entered" in r.content.decode()
    assert Round.objects.get().status == "recorded"


def test_a_first_code_set_on_the_phone_that_then_enters_the_deal_does_not_confirm_it(proof):
    """The attack turned round: choose Bob's first code first, then enter as Anna (her card)."""
    code = entry_code_issue(actor=proof.director_actor, entry=proof.entries[0])
    phone = Client()
    assert prove(phone, proof, 1, "2222", "2222").status_code == 302          # "Bob"
    phone.post(url(proof, "forget-me/"))
    assert prove(phone, proof, 0, code).status_code == 302                     # Anna's card: proving is not setting
    assert phone.post(url(proof), dict(DEAL, idem_key="key-2")).status_code == 302
    rnd = Round.objects.get()
    r = confirm(phone, proof, rnd, confirmed_by="1", confirmed_by_code="2222")
    assert r.status_code == 403 and "set on the phone that entered this deal" in r.content.decode()
    assert Round.objects.get().status == "recorded"


def test_a_first_code_set_before_the_deal_on_another_phone_confirms(proof):
    phone_a, phone_b = Client(), Client()
    assert prove(phone_a, proof, 0, "1111", "1111").status_code == 302
    assert prove(phone_b, proof, 1, "2222", "2222").status_code == 302
    assert prove(Client(), proof, 2, "3333", "3333").status_code == 302       # Celine, on her phone
    phone_a.post(url(proof), DEAL)
    first = Round.objects.get()
    assert confirm(phone_b, proof, first, as_me="1").status_code == 302        # Bob, one tap on his phone
    first.refresh_from_db()
    assert (first.status, first.confirmed_by_entry_id) == ("confirmed", proof.entries[1].pk)
    # Celine's code, set on her own phone before the deal, typed on Anna's phone passed across.
    phone_a.post(url(proof), dict(DEAL, idem_key="key-2", number="2"))
    second = Round.objects.get(number=2)
    assert confirm(phone_a, proof, second, confirmed_by="2", confirmed_by_code="3333").status_code == 302
    assert Round.objects.get(number=2).confirmed_by_entry_id == proof.entries[2].pk


def test_a_directors_code_confirms_even_issued_after_the_deal_on_the_entering_phone(proof):
    phone = Client()
    prove(phone, proof, 0, "1111", "1111")
    phone.post(url(proof), DEAL)
    rnd = Round.objects.get()
    card = entry_code_issue(actor=proof.director_actor, entry=proof.entries[3])   # Dominic's card, now
    assert confirm(phone, proof, rnd, confirmed_by="3", confirmed_by_code=card).status_code == 302
    rnd.refresh_from_db()
    assert (rnd.status, rnd.confirmed_by_entry_id) == ("confirmed", proof.entries[3].pk)


def test_a_phone_that_proved_one_player_cannot_set_anothers_first_code(proof):
    card = entry_code_issue(actor=proof.director_actor, entry=proof.entries[0])
    phone = Client()
    assert prove(phone, proof, 0, card).status_code == 302                     # Anna, by her card
    r = prove(phone, proof, 1, "2222", "2222")
    assert r.status_code == 403 and "This phone already speaks for another player" in r.content.decode()
    # Nor after "not you?": the phone has still spoken for Anna.
    phone.post(url(proof, "forget-me/"))
    assert prove(phone, proof, 1, "2222", "2222").status_code == 403
    # A phone that set one first code sets no second one either.
    other = Client()
    assert prove(other, proof, 2, "3333", "3333").status_code == 302
    assert prove(other, proof, 3, "4444", "4444").status_code == 403
    assert [bool(e.player.code_hash) for e in Entry.objects.select_related("player").filter(tournament=proof.tournament).order_by("pk")] == [
        True, False, True, False]
    # Bob, on a phone of his own, sets his.
    assert prove(Client(), proof, 1, "2222", "2222").status_code == 302


def test_wrong_codes_are_counted_per_player_across_tables(proof, settings):
    settings.RATE_LIMITS = {"player-code": "5/d"}   # a day's window: no test straddles two
    entry_code_issue(actor=proof.director_actor, entry=proof.entries[0])
    bob_code = entry_code_issue(actor=proof.director_actor, entry=proof.entries[1])
    # Anna sits at a second table (the next session), at another seat.
    order = [proof.entries[2], proof.entries[3], proof.entries[0], proof.entries[1]]
    _table, token = table_create(actor=proof.director_actor, tournament=proof.tournament, name="Table 9",
                                 entries=order, session=2)
    phone = Client()
    for _ in range(3):
        assert prove(phone, proof, 0, "000000").status_code == 403
    second = Client()
    for _ in range(2):
        r = second.post(f"/s/{token}/who/", {"seat": "2", "code": "000000"})
        assert r.status_code == 403 and "Wrong code for Anna." in r.content.decode()
    # Her five are used up, at either table.
    assert second.post(f"/s/{token}/who/", {"seat": "2", "code": "000000"}).status_code == 429
    assert prove(phone, proof, 0, "000000").status_code == 429
    # Bob is not touched, at either table.
    assert second.post(f"/s/{token}/who/", {"seat": "3", "code": bob_code}).status_code == 302
