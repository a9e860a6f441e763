"""What a person reads on the public and scorer pages: no record path (``declared[0].bull``) but
words for it, counts in their plural forms, generated table names in the page's language."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from scoring.services.rounds import round_dispute, round_record

from ..bodies import DING_NIU_FULL_LOG, JIE_LONG, TAU_NGAU_V1

pytestmark = pytest.mark.django_db

#: A record path: a field and an index (``points[2]``, ``declared[0].bull``).
RAW_PATH = re.compile(r"\w+\[\d+\]")
HANS = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}

#: Bank may decline its bull (it holds one worth 10): the engine warns at ``declared[0].bull``.
DECLINED = {"format": 1, "game": "tau_ngau", "variant": {"settlement": "v1", "may_decline_bull": True},
            "seats": ["Bank", "Six", "One", "NoBull"], "banker": 0, "bet": 1, "hands": TAU_NGAU_V1["hands"],
            "declared": [{"bull": None}, None, None, None]}


class _Text(HTMLParser):
    """The text a page shows, attributes left out. <textarea> and <pre> hold the record and the
    engine's answer as JSON, shown as such on purpose (the calculator's advanced part)."""

    RAW = {"script", "style", "textarea", "pre"}

    def __init__(self):
        super().__init__()
        self.parts, self.inside = [], []

    def handle_starttag(self, tag, attrs):
        if tag in self.RAW:
            self.inside.append(tag)

    def handle_endtag(self, tag):
        if self.inside and self.inside[-1] == tag:
            self.inside.pop()

    def handle_data(self, data):
        if not self.inside:
            self.parts.append(data)


def text_of(page: str) -> str:
    parser = _Text()
    parser.feed(page)
    return " ".join(parser.parts)


def test_the_calculator_says_where_in_words(client):
    bad = {"format": 1, "game": "jie_long", "seats": ["A", "B", "C", "D"], "unplayed_tiles": [["6:6"], ["7:1"], [], []]}
    page = client.post("/calculator/", {"record": json.dumps(bad)}).content.decode()
    assert "Tile 1 of the tiles B did not play face up" in text_of(page)
    page = client.post("/calculator/", {"record": json.dumps(DECLINED)}).content.decode()
    # a warning is its message alone (its path stays on data-path, and in the API)
    assert 'id="result"' in page and 'data-path="declared[0].bull"' in page
    assert "(the declared bull of Bank)" not in text_of(page)
    for record in (bad, DECLINED):
        for headers in ({}, HANS):
            page = client.post("/calculator/", {"record": json.dumps(record)}, **headers).content.decode()
            assert not RAW_PATH.search(text_of(page)), RAW_PATH.findall(text_of(page))


def test_the_scorers_preview_says_where_in_words(client, make_setup):
    s = make_setup("tau_ngau", variant={"settlement": "v1", "may_decline_bull": True})
    data = {"banker": "0", "bet": "1", "entered_by": "1", "idem_key": "tn", "action": "preview", "bull_0": "-"}
    for i, hand in enumerate(TAU_NGAU_V1["hands"]):
        data[f"hand_{i}"] = " ".join(hand)
    response = client.post(f"/s/{s.token}/", data)
    page = client.get(response["Location"]).content.decode()
    assert "declared no bull although" in page and "(the declared bull of Bank)" not in text_of(page)
    assert not RAW_PATH.search(text_of(page)), RAW_PATH.findall(text_of(page))


def test_no_public_page_shows_a_record_path(client, ding_niu):
    round_record(actor=ding_niu.scorer_actor, table=ding_niu.table, body=DING_NIU_FULL_LOG)
    rnd = round_record(actor=ding_niu.scorer_actor, table=ding_niu.table, body=DING_NIU_FULL_LOG)
    round_dispute(actor=ding_niu.scorer_actor, round=rnd, message="Adam had more points")
    slug = ding_niu.tournament.slug
    for url in ("/", f"/t/{slug}/", f"/t/{slug}/payouts/", f"/t/{slug}/players/{ding_niu.entries[0].player_id}/",
                f"/t/{slug}/tables/{ding_niu.table.pk}/", f"/t/{slug}/tables/{ding_niu.table.pk}/live/",
                f"/s/{ding_niu.token}/"):
        for headers in ({}, HANS):
            text = text_of(client.get(url, **headers).content.decode())
            assert not RAW_PATH.search(text), (url, RAW_PATH.findall(text))


def test_one_chip_is_one_chip(client, make_setup):
    s = make_setup("jie_long", names=["Ping", "Jun"])
    round_record(actor=s.scorer_actor, table=s.table, body={"points": [3, 2]})
    page = client.get(f"/t/{s.tournament.slug}/payouts/").content.decode()
    assert "<strong>Ping</strong> pays <strong>Jun</strong> 1 chip =" in page
    player = client.get(f"/t/{s.tournament.slug}/players/{s.entries[1].player_id}/").content.decode()
    assert "Jun&#x27;s running net over 1 deal:" in player and "over 1 deal." in player
    table = client.get(f"/t/{s.tournament.slug}/tables/{s.table.pk}/").content.decode()
    assert "1 deal recorded." in table and "3 pts" in table
    standings = client.get(f"/t/{s.tournament.slug}/").content.decode()
    assert "1 deal · 1 win ·" in standings and "1 deal · 0 wins ·" in standings


def test_generated_table_names_are_in_the_pages_language(client, jie_long):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    slug = jie_long.tournament.slug
    for url in (f"/t/{slug}/", f"/t/{slug}/players/{jie_long.entries[0].player_id}/",
                f"/t/{slug}/tables/{jie_long.table.pk}/", f"/s/{jie_long.token}/"):
        text = text_of(client.get(url, **HANS).content.decode())
        assert "Table 1" not in text and "Session 1" not in text, url
        assert "第1桌" in text, url
