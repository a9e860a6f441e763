"""The moves a deal's row offers on the scorer page and the director's pages (those
``lifecycle.round_moves_allowed`` allows), and a refused move shown at its row: a too-long
reason, message or note is refused under its input, what was typed kept, nothing stored."""

from __future__ import annotations

import re

import pytest

from scoring.domain.inputs import MAX_NOTE
from scoring.models import Round
from scoring.services.rounds import round_confirm, round_dispute, round_void

from .test_scorer import jie_long_points, record, url

pytestmark = pytest.mark.django_db

TOO_LONG = "x" * (MAX_NOTE + 1)


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def deal_card(page: str, number: int) -> str:
    return re.search(rf'<article class="card deal[^"]*" id="deal-{number}">.*?</article>', page, flags=re.S).group(0)


def offered(card: str) -> set[str]:
    """The moves a deal's card offers, by the address of their link or form."""
    return set(re.findall(r'/deals/\d+/(correct|confirm|dispute|void|resolve)/', card))


# --- what each row offers -------------------------------------------------------------------------

def test_the_scorer_page_offers_what_a_scorer_may_do(client, jie_long):
    recorded, confirmed, disputed, voided = (record(jie_long) for _ in range(4))
    round_confirm(actor=jie_long.director_actor, round=confirmed)
    round_dispute(actor=jie_long.scorer_actor, round=disputed, message="check")
    round_void(actor=jie_long.director_actor, round=voided, reason="misdeal")
    page = client.get(url(jie_long)).content.decode()
    assert offered(deal_card(page, recorded.number)) == {"correct", "confirm", "dispute"}
    assert offered(deal_card(page, confirmed.number)) == {"dispute"}
    assert offered(deal_card(page, disputed.number)) == set()  # the referee is called: the director settles it
    assert offered(deal_card(page, voided.number)) == set()


def test_the_director_pages_offer_what_a_director_may_do(dclient, jie_long):
    recorded, confirmed, disputed, voided = (record(jie_long) for _ in range(4))
    round_confirm(actor=jie_long.director_actor, round=confirmed)
    round_dispute(actor=jie_long.scorer_actor, round=disputed, message="check")
    round_void(actor=jie_long.director_actor, round=voided, reason="misdeal")
    page = dclient.get(f"/director/tables/{jie_long.table.pk}/").content.decode()
    assert offered(deal_card(page, recorded.number)) == {"correct", "confirm", "void"}
    assert offered(deal_card(page, confirmed.number)) == {"correct", "void"}
    assert offered(deal_card(page, disputed.number)) == {"correct", "confirm", "void", "resolve"}
    assert offered(deal_card(page, voided.number)) == set()
    dashboard = dclient.get(f"/director/tournaments/{jie_long.tournament.pk}/").content.decode()
    assert f"/director/deals/{disputed.pk}/resolve/" in dashboard


# --- a too-long note, refused under its input -----------------------------------------------------

def test_a_too_long_dispute_message_from_the_scorer_page(client, jie_long):
    rnd = record(jie_long)
    response = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/dispute/", {"message": TOO_LONG})
    assert response.status_code == 400
    card = deal_card(response.content.decode(), rnd.number)
    form = re.search(r'<details open>.*?</details>', card, flags=re.S).group(0)
    assert f'value="{TOO_LONG}"' in form and 'aria-invalid="true"' in form
    assert f'<p class="field-error" id="dispute-{rnd.pk}-error" role="alert">The message has at most 2000 ' \
           "characters.</p>" in form
    rnd.refresh_from_db()
    assert not rnd.disputed and rnd.dispute_message == ""


def test_a_too_long_correction_reason_from_the_scorer_page(client, jie_long):
    rnd = record(jie_long)
    data = jie_long_points(action="save", points_2="30", revision="1", reason=TOO_LONG)
    response = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/", data)
    assert response.status_code == 400
    field = re.search(r'<div class="field has-error">\s*<label for="f-reason">.*?</div>',
                      response.content.decode(), flags=re.S).group(0)
    assert f'value="{TOO_LONG}"' in field and "The reason has at most 2000 characters." in field
    rnd.refresh_from_db()
    assert rnd.current_revision.number == 1


def test_a_too_long_void_reason_from_the_director_page(dclient, jie_long):
    rnd = record(jie_long)
    response = dclient.post(f"/director/deals/{rnd.pk}/void/", {"reason": TOO_LONG})
    assert response.status_code == 400
    card = deal_card(response.content.decode(), rnd.number)
    form = re.search(r'<details open>.*?</details>', card, flags=re.S).group(0)
    assert f'name="reason" type="text" maxlength="2000" required value="{TOO_LONG}"' in form
    assert f'id="void-{rnd.pk}-error" role="alert">The reason has at most 2000 characters.' in form
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.RECORDED and rnd.void_reason == ""


def test_a_too_long_settling_note_from_the_director_page(dclient, jie_long):
    rnd = record(jie_long)
    round_dispute(actor=jie_long.scorer_actor, round=rnd, message="check")
    response = dclient.post(f"/director/deals/{rnd.pk}/resolve/", {"note": TOO_LONG})
    assert response.status_code == 400
    card = deal_card(response.content.decode(), rnd.number)
    assert f'name="note" type="text" maxlength="2000" value="{TOO_LONG}"' in card
    assert f'id="note-{rnd.pk}-error" role="alert">The note has at most 2000 characters.' in card
    rnd.refresh_from_db()
    assert rnd.disputed


def test_a_refusal_of_no_input_stays_at_the_top_of_the_deal(dclient, jie_long):
    """A move refused for the deal's state (not for what was typed): the card above the moves."""
    rnd = record(jie_long)
    round_void(actor=jie_long.director_actor, round=rnd, reason="misdeal")
    response = dclient.post(f"/director/deals/{rnd.pk}/void/", {"reason": "again"})
    assert response.status_code == 409
    card = deal_card(response.content.decode(), rnd.number)
    assert '<div class="card errors" role="alert"><p class="field-error">This deal is already voided.</p></div>' in card
