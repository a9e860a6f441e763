"""The scorer page answered to its script (deal-drafts.js, JSON) and without it (redirects): the
deal number it records, a number taken meanwhile, a replaced link, the banker's seat, disputes."""

from __future__ import annotations

import pytest

from scoring.models import Round
from scoring.services.tables import table_scorer_token_rotate

from .test_scorer import field_block, jie_long_points, jie_long_tiles, record, url

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def test_preview_answers_json_with_the_preview_and_stores_nothing(client, jie_long):
    r = client.post(url(jie_long), jie_long_points(number="1"), **JSON)
    assert r.status_code == 200 and r.json()["status"] == "preview"
    assert "Celine pays Anna 32" in r.json()["html"]
    assert Round.objects.count() == 0


def test_errors_answer_json_by_field(client, jie_long):
    r = client.post(url(jie_long), jie_long_points(action="submit", points_2="lots"), **JSON)
    assert r.status_code == 400 and r.json()["status"] == "invalid"
    assert "points_2" in r.json()["errors"]


def test_submit_answers_saved_once_per_key(client, jie_long):
    first = client.post(url(jie_long), jie_long_points(action="submit", number="1"), **JSON)
    again = client.post(url(jie_long), jie_long_points(action="submit", number="1"), **JSON)
    assert first.status_code == again.status_code == 201
    assert first.json()["status"] == again.json()["status"] == "saved"
    assert not first.json()["replayed"] and again.json()["replayed"]
    assert first.json()["redirect"] == url(jie_long) + "?saved=1#saved"
    assert Round.objects.count() == 1
    page = client.get(first.json()["redirect"]).content.decode()
    assert 'id="saved"' in page and "Deal 1 is saved" in page and "Deal 2" in page


def test_a_number_recorded_from_another_phone_is_refused_with_both_deals(client, jie_long):
    record(jie_long)  # the other phone's deal 1
    r = client.post(url(jie_long), jie_long_points(action="submit", number="1", idem_key="mine"), **JSON)
    assert r.status_code == 409 and r.json()["status"] == "taken" and r.json()["next"] == 2
    html = r.json()["html"]
    assert "already recorded from another phone" in html and 'data-record-next="2"' in html
    assert "Celine pays Anna 32" in html  # mine, next to the other one
    assert Round.objects.count() == 1
    # on purpose, as the next deal
    r = client.post(url(jie_long), jie_long_points(action="submit", number="2", idem_key="mine2"), **JSON)
    assert r.status_code == 201 and r.json()["number"] == 2


def test_without_javascript_a_taken_number_is_said_and_nothing_is_stored(client, jie_long):
    record(jie_long)
    r = client.post(url(jie_long), jie_long_points(action="submit", number="1"))
    assert r.status_code == 302
    page = client.get(r["Location"]).content.decode()
    assert "Deal 1 was already recorded at this table" in page
    assert 'name="number" value="2"' in page and 'value="34"' in page  # the form kept, for deal 2
    assert Round.objects.count() == 1


def test_a_replaced_link_answers_json_404(client, jie_long):
    table_scorer_token_rotate(actor=jie_long.director_actor, table=jie_long.table)
    r = client.post(url(jie_long), jie_long_points(action="submit", number="1"), **JSON)
    assert r.status_code == 404 and r.json()["status"] == "link_invalid"
    assert "replaced by the director" in r.json()["message"]


def test_the_page_keys_drafts_by_tournament_and_table_and_has_no_director_links(client, jie_long):
    page = client.get(url(jie_long)).content.decode()
    assert f'data-draft-scope="{jie_long.tournament.pk}:{jie_long.table.pk}"' in page
    assert 'data-number="1"' in page and "deal-drafts.js" in page
    assert "/director/" not in page and "Director login" not in page


def test_the_banker_seat_says_banker(client, tau_ngau):
    page = client.get(url(tau_ngau)).content.decode()
    legends = [line for line in page.splitlines() if "<legend>" in line and "banker" in line]
    assert len(legends) == 1 and f"1. {tau_ngau.names[0]}" in legends[0]


def test_a_dispute_needs_a_message(client, jie_long):
    rnd = record(jie_long)
    r = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/dispute/", {"message": "  "})
    assert r.status_code == 400 and "Say what is wrong" in r.content.decode()
    rnd.refresh_from_db()
    assert not rnd.disputed


def test_field_block_still_finds_fields(client, jie_long):
    assert 'name="points_0"' in field_block(client.get(url(jie_long)).content.decode(), "points_0")


# --- one flow, two answers ------------------------------------------------------------------------

def test_a_closed_table_is_said_both_ways(client, jie_long):
    from scoring.services.tournaments import tournament_finish

    tournament_finish(actor=jie_long.director_actor, tournament=jie_long.tournament)
    r = client.post(url(jie_long), jie_long_points(action="submit", number="1"), **JSON)
    assert r.status_code == 409 and r.json()["status"] == "closed" and "finished" in r.json()["message"]
    r = client.post(url(jie_long), jie_long_points(action="submit", number="1"))
    assert r.status_code == 302 and "This tournament is finished; it is read-only." in client.get(r["Location"]).content.decode()
    assert Round.objects.count() == 0


def test_a_form_without_its_key_is_out_of_date_both_ways(client, jie_long):
    r = client.post(url(jie_long), jie_long_points(action="submit", idem_key=""), **JSON)
    assert r.status_code == 400 and r.json() == {"status": "error",
                                                 "message": "This form is out of date: reload the page."}
    r = client.post(url(jie_long), jie_long_points(action="submit", idem_key=""))
    assert r.status_code == 302
    assert "This form is out of date: check it and submit again." in client.get(r["Location"]).content.decode()
    assert Round.objects.count() == 0


def test_a_key_used_for_another_deal_is_said_both_ways(client, jie_long):
    assert client.post(url(jie_long), jie_long_points(action="submit"), **JSON).status_code == 201
    r = client.post(url(jie_long), jie_long_points(action="submit", points_0="0"), **JSON)
    assert r.status_code == 409 and r.json()["status"] == "key_reused"
    r = client.post(url(jie_long), jie_long_points(action="submit", points_0="0"))
    page = client.get(r["Location"]).content.decode()
    assert "already recorded a deal" in page and 'name="idem_key" value="key-1"' not in page  # a new key
    assert Round.objects.count() == 1


def test_an_engine_refusal_at_submit_is_said_both_ways(client, jie_long):
    r = client.post(url(jie_long), jie_long_tiles(action="submit", tiles_1="6:4 6:4 6:4 6:4 6:4"), **JSON)
    assert r.status_code == 400 and r.json()["status"] == "invalid" and "tiles_1" in r.json()["errors"]
    r = client.post(url(jie_long), jie_long_tiles(action="submit", tiles_1="6:4 6:4 6:4 6:4 6:4"))
    assert "has-error" in field_block(client.get(r["Location"]).content.decode(), "tiles_1")
    assert Round.objects.count() == 0
