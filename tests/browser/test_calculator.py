"""The rules calculator in a real browser, on a phone-sized screen."""

import pytest

from .conftest import assert_no_horizontal_scroll

pytestmark = pytest.mark.django_db(transaction=True)


def test_pick_a_sample_and_evaluate_it(live_server, phone):
    phone.goto(live_server.url + "/calculator/")
    phone.select_option("select[name=sample]", label="Jie Long — quick entry (points)")
    phone.wait_for_url("**sample=*")
    assert "jie_long" in phone.input_value("#record")
    phone.click("text=Evaluate")
    phone.wait_for_selector("#result")
    assert "Li pays Mei 23" in phone.inner_text("#result")
    assert_no_horizontal_scroll(phone)


def test_errors_point_at_the_field(live_server, phone):
    phone.goto(live_server.url + "/calculator/")
    phone.fill("#record", '{"game": "jie_long", "seats": ["A", "B", "C", "D"], "points": [2, 12, 34]}')
    phone.click("text=Evaluate")
    phone.wait_for_selector("#errors")
    assert "points" in phone.inner_text("#errors")
    assert_no_horizontal_scroll(phone)
