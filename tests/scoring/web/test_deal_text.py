"""Typed tiles and moves read into a body's lists, and back (scoring.web.deal_text)."""

from __future__ import annotations

import pytest

from scoring.web.deal_text import moves_text, parse_moves, parse_tiles


@pytest.mark.parametrize("text, tiles", [
    ("6:4 3:1", ["6:4", "3:1"]),
    ("[6:4],[1:3]", ["6:4", "3:1"]),
    ("64 31", ["6:4", "3:1"]),
    (" 6-4 ;  4/6 ", ["6:4", "6:4"]),
    ("６：４", ["6:4"]),
    ("", []),
    ("7:1 6:4", ["7:1", "6:4"]),
])
def test_parse_tiles(text, tiles):
    assert parse_tiles(text) == tiles


@pytest.mark.parametrize("text, moves", [
    ("6:4@4 4:4@4 x3:1 6:1", [{"play": "6:4", "open": 4}, {"play": "4:4", "to": 4}, {"pass": "3:1"},
                              {"play": "6:1"}]),
    ("[4:6], 46@6 ; p13", [{"play": "6:4"}, {"play": "6:4", "to": 6}, {"pass": "3:1"}]),
    ("", []),
    ("7:1 x9:9 6:4@8", [{"play": "7:1"}, {"pass": "9:9"}, {"play": "6:4@8"}]),  # the engine names them
])
def test_parse_moves(text, moves):
    assert parse_moves(text) == moves
    if text and "7" not in text:
        assert parse_moves(moves_text(moves)) == moves
