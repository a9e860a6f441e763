"""The quick levels on the scorer page (ROUND_RECORD §3b Tau Ngau ``values``, §4b Da Ling
``winners``): tapped in as rows of buttons, recorded, described, corrected at their level; and
what the next deal starts from (the banker, the banker's seat without a stake)."""

from __future__ import annotations

import re

import pytest

from scoring.models import Round

from .test_scorer import field_block, followed, record, url

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}

#: ROUND_RECORD §3b's worked example at a table Bank, Six, One, NoBull (v2).
VALUES = {"level": "values", "banker": "0", "entered_by": "1", "idem_key": "tn-v", "action": "preview",
          "value_0": "7", "value_1": "none", "value_2": "0", "value_3": "9",
          "stake_1": "2", "stake_2": "5", "stake_3": "1"}


@pytest.fixture
def tau_ngau_v2(make_setup):
    return make_setup("tau_ngau")


@pytest.fixture
def da_ling(make_setup):
    return make_setup("da_ling", names=["P1", "P2", "P3"])


def checked(page: str, name: str) -> list[str]:
    """The values of the checked radios named ``name``."""
    return re.findall(rf'name="{name}" value="([^"]*)" checked', page)


def test_a_tau_ngau_deal_at_the_values_level_is_previewed_and_recorded(client, tau_ngau_v2):
    page = followed(client, url(tau_ngau_v2), VALUES)
    assert "Six pays Bank 2" in page and "One pays Bank 5" in page and "Bank pays NoBull 1" in page
    # the seats are described from their values, and the table's word is said to be unchecked
    assert "bull, 7" in page and "no bull" in page and "bull, 0" in page
    assert "The values are the table&#x27;s word" in page
    # the warning is its message alone: no path in words after it (the API keeps the path)
    warning = re.search(r'<li data-path="values">([^<]*)</li>', page).group(1)
    assert warning.startswith("The values are the table") and not warning.rstrip().endswith(")")
    assert "(the values)" not in page
    assert Round.objects.count() == 0
    assert client.post(url(tau_ngau_v2), {**VALUES, "action": "submit"}).status_code == 302
    body = Round.objects.get().current_revision.body
    assert body["values"] == [7, None, 0, 9] and body["stakes"] == [None, 2, 5, 1]
    assert [s["net"] for s in Round.objects.get().current_revision.result["seats"]] == [6, -2, -5, 1]


def test_the_values_offer_the_rules_version_range(client, tau_ngau_v2, tau_ngau):
    v2 = field_block(client.get(url(tau_ngau_v2)).content.decode(), "value_1")
    assert re.findall(r'value="([^"]*)"', v2) == ["none"] + [str(v) for v in range(10)]
    v1 = field_block(client.get(url(tau_ngau)).content.decode(), "value_1")  # the fixture plays v1
    assert re.findall(r'value="([^"]*)"', v1) == ["none"] + [str(v) for v in range(1, 11)]


def test_a_seat_without_a_value_or_out_of_range_is_said_at_its_seat(client, tau_ngau_v2):
    r = client.post(url(tau_ngau_v2), {**VALUES, "value_2": ""}, **JSON)
    assert r.status_code == 400 and r.json()["errors"] == {"value_2": ["Choose this seat's value (or no bull)."]}
    r = client.post(url(tau_ngau_v2), {**VALUES, "value_3": "10"}, **JSON)  # a hand-made post: v2 stops at 9
    assert r.status_code == 400 and list(r.json()["errors"]) == ["value_3"]
    assert "from 0 to 9" in r.json()["errors"]["value_3"][0]


def test_the_next_deal_starts_at_the_next_banker_whose_seat_has_no_stake(client, tau_ngau_v2):
    record(tau_ngau_v2, {"banker": 0, "stakes": [None, 2, 5, 1], "values": [7, None, 0, 9]})  # the bank passes
    page = client.get(url(tau_ngau_v2)).content.decode()
    assert re.search(r'<option value="1" selected>2\. Six</option>', field_block(page, "banker"))
    assert " hidden>" in field_block(page, "stake_1") and 'data-skip-for="banker"' in field_block(page, "stake_1")
    assert " hidden>" not in field_block(page, "stake_0")
    assert "data-remember" in field_block(page, "stake_0") and "data-remember" in field_block(page, "level")


def test_a_correction_keeps_the_values_level(client, tau_ngau_v2):
    rnd = record(tau_ngau_v2, {"banker": 0, "stakes": [None, 2, 5, 1], "values": [7, None, 0, 9]})
    page = client.get(f"{url(tau_ngau_v2)}deals/{rnd.pk}/correct/").content.decode()
    assert checked(page, "level") == ["values"]
    assert [checked(page, f"value_{i}") for i in range(4)] == [["7"], ["none"], ["0"], ["9"]]
    data = {**VALUES, "value_1": "4", "action": "save", "revision": "1", "reason": "Six had a bull"}
    assert client.post(f"{url(tau_ngau_v2)}deals/{rnd.pk}/correct/", data).status_code == 302
    rnd.refresh_from_db()
    assert rnd.current_revision.body["values"] == [7, 4, 0, 9] and "hands" not in rnd.current_revision.body


WINNERS = {"level": "winners", "entered_by": "0", "idem_key": "dl-w", "action": "preview",
           "absolute": "", "group1_winner": "2", "group2_winner": "", "group3_winner": "0"}


def test_a_da_ling_deal_at_the_winners_level_is_recorded_and_described(client, da_ling):
    page = followed(client, url(da_ling), WINNERS)
    assert "Winner of the 1-tile group: P3" in page and "Winner of the 3-tile group: P1" in page
    assert "2-tile group:" not in page  # nobody won it (DL-10)
    assert client.post(url(da_ling), {**WINNERS, "action": "submit"}).status_code == 302
    rnd = Round.objects.get()
    assert rnd.current_revision.body["winners"] == {"absolute": None, "groups": [2, None, 0]}
    assert [s["net"] for s in rnd.current_revision.result["seats"]] == [27, -18, -9]  # §4b's example
    page = client.get(f"{url(da_ling)}deals/{rnd.pk}/correct/").content.decode()
    assert checked(page, "level") == ["winners"] and checked(page, "group1_winner") == ["2"]
    assert checked(page, "absolute") == [""] and checked(page, "group2_winner") == [""]


def test_a_group_winner_beside_an_absolute_winner_is_said_at_the_group(client, da_ling):
    r = client.post(url(da_ling), {**WINNERS, "absolute": "1"}, **JSON)
    assert r.status_code == 400
    assert sorted(r.json()["errors"]) == ["group1_winner", "group3_winner"]
    # refused by the form, before the engine: the game says these exclude each other
    assert "“Absolute winner” at none" in r.json()["errors"]["group1_winner"][0]
    r = client.post(url(da_ling), {**WINNERS, "group2_winner": "3"}, **JSON)  # no such seat
    assert r.status_code == 400 and r.json()["errors"] == {"group2_winner": ["This is not a seat of the table."]}
