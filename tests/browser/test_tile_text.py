"""Tiles typed as text are read alike by the page and the server: the tile picker's reading
(static/js/tile-text.js, window.GupaiTiles) against scoring/web/deal_text.py's (parse_tiles,
parse_moves, parse_declared), which is the reference. The same spellings go to both, in a real
browser; both must accept and refuse the same ones and normalize them to the same tiles."""

from __future__ import annotations

import re
import unicodedata

import pytest

from scoring.web.deal_text import parse_declared, parse_moves, parse_tiles

pytestmark = pytest.mark.django_db(transaction=True)

#: A tile as both parsers write it once read: the high half first.
A_TILE = re.compile(r"^[1-6]:[1-6]$")

#: What separates tokens (forms._SPLIT: Python's whitespace, commas, semicolons), after NFKC.
SEPARATOR = re.compile(r"[\s,;、，；]")

#: Spellings of one tile or a few, good and bad.
TILE_SPELLINGS = [
    # one tile, every way of writing it
    "6:5", "5:6", "6-5", "65", "56", "[6:5]", "(6/5)", "[(6:5)]", "6|5", "6x5", "6X5", "6.5", "1:1",
    # a few tiles, the separators
    "6:4 3:1", "[6:4],[3:1]", "64 31", "6-4; 1:3", "6:4、3:1", "6:4，3:1；2:2", "6:4\t3:1\n2:2",
    "  6:4   3:1  ",
    # full-width, superscript, circled: NFKC first
    "６:５", "６：５", "［６：５］", "６５", "²:1", "⑥:1", "6:4\u30003:1", "6:4\u00a03:1",
    # Python's whitespace, not JavaScript's: U+001C and U+0085 separate, U+FEFF does not
    "6:4\x1c3:1", "6:4\x853:1", "6:4\ufeff3:1",
    # no tile
    " 6 . 5 ", "6 5", "7:1", "0:3", "6::5", "6:5:4", "665", "6", "[6:5", "6:5]", "(6:5]", "6_5", "6+5",
    "٦:٥", "⑹", "x", "-", "0", "", "   ", "6:5 7:1 x",
]

#: Move logs: leads with their open pip, plays to a pip, passes (x, p or -), and nonsense.
MOVE_SPELLINGS = [
    "6:4@4 4:4@4 x3:1 6:1",
    "6:4@6 X65 p6-5 -[6:5] P56@5",
    "６:４@４ ６４@６",
    "6:5@7", "x7:1@3", "xx", "x", "p", "-", "@4", "6:4@", "6:4@4@4", "x6:4@4",
    "junk 6:4@4 5:5@5",
    "",
]

DECLARED_SPELLINGS = ["", "   ", "-", " - ", "0", "０", "\u3000-\u3000", "--", "6:5", "6:5 3:1", "7:1", "65, x"]


@pytest.fixture
def tiles_page(live_server, make_page):
    """A page with the tile picker (the calculator's Ding Niu deal): window.GupaiTiles is there."""
    page = make_page("phone")
    page.goto(f"{live_server.url}/calculator/?game=ding_niu&players=4#builder")
    page.wait_for_function("() => window.GupaiTiles !== undefined")
    return page


def in_browser(page, function: str, spellings: list[str]) -> list:
    return page.evaluate(f"list => list.map(text => window.GupaiTiles.{function}(text))", spellings)


def disagreements(spellings, server, browser) -> list[str]:
    return [f"{text!r}: server {s!r}, browser {b!r}" for text, s, b in zip(spellings, server, browser, strict=True)
            if s != b]


def test_the_server_reads_these_spellings_as_expected():
    """The reference itself, on a few of them."""
    assert parse_tiles("[6:4],[3:1]") == ["6:4", "3:1"]
    assert parse_tiles("(5/6)") == ["6:5"]
    assert parse_tiles("６：５") == ["6:5"]
    assert parse_tiles("²:1") == ["2:1"]
    assert parse_tiles(" 6 . 5 ") == ["6", ".", "5"]  # no tile: passed on as typed, for the engine to name
    assert parse_tiles("7:1") == ["7:1"] and parse_tiles("6::5") == ["6::5"] and parse_tiles("") == []
    assert parse_tiles("6:4\ufeff3:1") == ["6:4\ufeff3:1"]
    assert parse_moves("6:4@4 x3:1 6:5@7") == [{"play": "6:4", "open": 4}, {"pass": "3:1"}, {"play": "6:5@7"}]
    assert parse_declared(" - ") == {"bull": None} and parse_declared("０") == {"bull": None}


def test_tiles_typed_are_read_alike_by_the_page_and_the_server(tiles_page):
    server = [parse_tiles(text) for text in TILE_SPELLINGS]
    # Every token: a tile normalized, anything else as typed (after NFKC).
    assert disagreements(TILE_SPELLINGS, server, in_browser(tiles_page, "parseTiles", TILE_SPELLINGS)) == []
    # What the picker counts and draws: the tiles among them.
    tiles = [[t for t in tokens if A_TILE.match(t)] for tokens in server]
    assert disagreements(TILE_SPELLINGS, tiles, in_browser(tiles_page, "readTiles", TILE_SPELLINGS)) == []
    # One token (no separator in it): its tile, or nothing.
    single = [text for text in TILE_SPELLINGS if text and not SEPARATOR.search(unicodedata.normalize("NFKC", text))]
    expected = [next(iter(parse_tiles(text)), None) for text in single]
    expected = [t if t and A_TILE.match(t) else None for t in expected]
    assert disagreements(single, expected, in_browser(tiles_page, "readTile", single)) == []


def bad_marked(move: dict) -> dict | str:
    """A server move whose tile is no tile (passed on as typed, for the engine to name) is "bad"."""
    tile = move.get("play", move.get("pass"))
    return move if isinstance(tile, str) and A_TILE.match(tile) else "bad"


def test_move_logs_typed_are_read_alike_by_the_page_and_the_server(tiles_page):
    server = [[bad_marked(m) for m in parse_moves(text)] for text in MOVE_SPELLINGS]
    browser = [["bad" if "bad" in m else m for m in moves] for moves in in_browser(tiles_page, "readMoves", MOVE_SPELLINGS)]
    assert disagreements(MOVE_SPELLINGS, server, browser) == []
    assert server[0] == [{"play": "6:4", "open": 4}, {"play": "4:4", "to": 4}, {"pass": "3:1"}, {"play": "6:1"}]


def test_declarations_typed_are_read_alike_by_the_page_and_the_server(tiles_page):
    server = [parse_declared(text) for text in DECLARED_SPELLINGS]
    assert disagreements(DECLARED_SPELLINGS, server, in_browser(tiles_page, "readDeclared", DECLARED_SPELLINGS)) == []
