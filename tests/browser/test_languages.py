"""The pages in Chinese and Korean on a 390×844 phone: a browser set to Chinese or Korean gets the
home page, the scorer page and the public standings in its language, and the language switch in
the footer changes the language and comes back to the same page (whose address does not change)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import assert_no_horizontal_scroll

pytestmark = pytest.mark.django_db(transaction=True)



@pytest.fixture
def phone_in(make_page):
    """``phone_in("zh-CN")``: a 390×844 phone whose browser asks for that language."""
    return lambda locale: make_page("phone390", locale=locale)


def test_home_scorer_and_standings_in_simplified_chinese(live_server, phone_in, jie_long):
    page = phone_in("zh-CN")
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.get_by_role("heading", level=1)).to_have_text("中国传统骨牌游戏记分")
    expect(page.get_by_text("顶牛", exact=True)).to_be_visible()
    assert_no_horizontal_scroll(page)

    page.goto(f"{live_server.url}/s/{jie_long.token}/")
    expect(page.get_by_role("button", name="预览")).to_be_visible()
    expect(page.get_by_role("button", name="提交")).to_be_visible()
    expect(page.get_by_label("录入者")).to_be_visible()
    expect(page.get_by_role("radio", name="未出的牌")).to_be_attached()
    assert_no_horizontal_scroll(page)

    page.goto(f"{live_server.url}/t/{jie_long.tournament.slug}/")
    expect(page.get_by_role("heading", name="积分榜", level=2)).to_be_visible()
    expect(page.get_by_role("columnheader", name="净得")).to_be_visible()
    assert_no_horizontal_scroll(page)


def test_traditional_chinese_standings(live_server, phone_in, jie_long):
    page = phone_in("zh-TW")
    page.goto(f"{live_server.url}/t/{jie_long.tournament.slug}/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hant")
    expect(page.get_by_role("heading", name="積分榜", level=2)).to_be_visible()
    expect(page.get_by_role("link", name="結算")).to_be_visible()


def test_home_scorer_and_standings_in_korean(live_server, phone_in, jie_long):
    page = phone_in("ko-KR")
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    expect(page.get_by_role("heading", level=1)).to_have_text("중국 전통 골패 게임 점수 기록")
    expect(page.get_by_text("꼬리붙이기", exact=True)).to_be_visible()
    expect(page.get_by_text("鬪牛", exact=True)).to_be_visible()
    assert_no_horizontal_scroll(page)

    page.goto(f"{live_server.url}/s/{jie_long.token}/")
    expect(page.get_by_role("button", name="미리 보기")).to_be_visible()
    expect(page.get_by_role("button", name="제출")).to_be_visible()
    expect(page.get_by_label("입력자")).to_be_visible()
    expect(page.get_by_role("radio", name="내지 못한 패")).to_be_attached()
    assert_no_horizontal_scroll(page)

    page.goto(f"{live_server.url}/t/{jie_long.tournament.slug}/")
    expect(page.get_by_role("heading", name="순위", level=2)).to_be_visible()
    expect(page.get_by_role("columnheader", name="득실")).to_be_visible()
    expect(page.get_by_role("link", name="정산")).to_be_visible()
    assert_no_horizontal_scroll(page)


def test_the_switch_changes_the_language_and_stays_on_the_page(live_server, phone_in, jie_long):
    page = phone_in("en-GB")
    url = f"{live_server.url}/s/{jie_long.token}/"
    page.goto(url)
    expect(page.get_by_role("button", name="Preview")).to_be_visible()
    select = page.get_by_label("Language")
    button = page.get_by_role("button", name="Switch")
    for target in (select, button):  # touch targets of at least 44 px
        assert target.bounding_box()["height"] >= 44
    select.select_option("zh-hant")
    button.click()
    page.wait_for_url(url)
    expect(page.locator("html")).to_have_attribute("lang", "zh-hant")
    expect(page.get_by_role("button", name="預覽")).to_be_visible()
    assert_no_horizontal_scroll(page)

    # The choice stays for the next pages, and switching back works the same way.
    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("中國傳統骨牌遊戲記分")
    page.get_by_label("語言").select_option("ko")
    page.get_by_role("button", name="切換").click()
    page.wait_for_url(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    page.get_by_label("언어").select_option("en")
    page.get_by_role("button", name="변경").click()
    page.wait_for_url(live_server.url + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Scoring for traditional Chinese domino games")
