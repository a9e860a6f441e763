import time
import pytest
from playwright.sync_api import expect
from scoring.models import Round
from .test_scorer_page import SlowPosts, slow_posts, fill_points_deal, DING_NIU_POINTS
pytestmark = pytest.mark.django_db(transaction=True)

@pytest.mark.parametrize("how", ["tap50", "click50", "tap0", "click0"] * 3)
def test_explore(live_server, phone, make_setup, slow_posts, how):
    s = make_setup("ding_niu")
    url = live_server.url + f"/s/{s.token}/"
    phone.goto(url)
    fill_points_deal(phone, s.names, DING_NIU_POINTS, entered_by="1. Adam")
    btn = phone.get_by_role("button", name="Submit", exact=True)
    f = btn.tap if how.startswith("tap") else btn.click
    f(no_wait_after=True)
    if how.endswith("50"): phone.wait_for_timeout(50)
    f(no_wait_after=True)
    expect(phone.locator(".messages")).to_contain_text("Deal 1")
    slow_posts.wait_answered()
    print("LOG", how, len(slow_posts.posts), Round.objects.count(), phone.inner_text(".messages"), flush=True)
