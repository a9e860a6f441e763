"""Tiles drawn as SVG: every tile renders, its red and black pips match the rules (§1.2), and a
screen reader hears its name."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.template import Context, Template

from games.tiles import ALL_TILES, red_black, tile_str
from scoring.web.tile_art import BLACK, RED, read_tile, tile_sprite_svg, tile_svg

SVG = "{http://www.w3.org/2000/svg}"


def _pips(svg: str) -> tuple[int, int]:
    root = ET.fromstring(svg)
    fills = [c.get("fill") for c in root.iter(f"{SVG}circle")]
    return fills.count(RED), fills.count(BLACK)


@pytest.mark.parametrize("tile", ALL_TILES, ids=tile_str)
def test_every_tile_renders_with_its_red_and_black_pips(tile):
    svg = tile_svg(tile_str(tile))
    root = ET.fromstring(svg)  # well-formed XML
    assert root.get("role") == "img"
    assert root.get("aria-label") == f"{tile[0]}-{tile[1]}"
    assert root.find(f"{SVG}title").text == f"{tile[0]}-{tile[1]}"
    assert _pips(svg) == red_black(tile)
    assert 'style=' not in svg  # the CSP allows no inline style


def test_the_double_six_is_half_red_the_top_half():
    root = ET.fromstring(tile_svg("6:6"))
    red_y = {float(c.get("cy")) for c in root.iter(f"{SVG}circle") if c.get("fill") == RED}
    black_y = {float(c.get("cy")) for c in root.iter(f"{SVG}circle") if c.get("fill") == BLACK}
    assert max(red_y) < 40 < min(black_y)


def test_pips_sit_in_their_half():
    root = ET.fromstring(tile_svg("5:1"))
    circles = list(root.iter(f"{SVG}circle"))
    assert [float(c.get("cy")) < 40 for c in circles] == [True] * 5 + [False]
    # the 1 is one large centred pip
    one = circles[-1]
    assert (float(one.get("cx")), float(one.get("cy"))) == (20, 60)
    assert float(one.get("r")) > float(circles[0].get("r"))


@pytest.mark.parametrize("spelling", ["6:5", "5:6", "[6:5]", "[5:6]", (5, 6), (6, 5)])
def test_every_spelling_the_records_accept(spelling):
    assert read_tile(spelling) == (6, 5)
    assert 'aria-label="6-5"' in tile_svg(spelling)


@pytest.mark.parametrize("bad", ["7:1", "0:0", "6-5", "", None, (0, 1), 65])
def test_a_non_tile_is_refused(bad):
    with pytest.raises(ValueError):
        read_tile(bad)


def test_the_sprite_has_one_symbol_per_tile():
    svg = tile_sprite_svg()
    root = ET.fromstring(svg)
    assert root.get("aria-hidden") == "true"
    ids = [s.get("id") for s in root.iter(f"{SVG}symbol")]
    assert ids == [f"tile-{a}-{b}" for a, b in ALL_TILES]
    for symbol in root.iter(f"{SVG}symbol"):
        a, b = map(int, symbol.get("id").split("-")[1:])
        fills = [c.get("fill") for c in symbol.iter(f"{SVG}circle")]
        assert (fills.count(RED), fills.count(BLACK)) == red_black((a, b))


def test_the_template_tags():
    html = Template('{% load tiles %}{% tile "[4:2]" "tile tile-big" %}{% tile_sprite %}').render(Context())
    assert html.startswith('<svg class="tile tile-big"')
    assert 'aria-label="4-2"' in html
    assert len(re.findall(r"<symbol ", html)) == 21
    # a tile from the context, as a template gets it
    html = Template("{% load tiles %}{% tile t %}").render(Context({"t": "2:1"}))
    assert 'aria-label="2-1"' in html and "&lt;" not in html


def test_the_favicon_is_a_tile_on_the_sites_colour():
    from scoring.web.tile_art import ACCENT, favicon_svg

    svg = favicon_svg()
    root = ET.fromstring(svg)  # a standalone file: well-formed, with its namespace
    assert root.tag == f"{SVG}svg" and root.get("viewBox") == "0 0 64 64"
    background = root.find(f"{SVG}rect")
    assert background.get("fill") == ACCENT and background.get("rx")
    assert _pips(svg) == red_black((6, 6))  # Heaven
    assert 'style=' not in svg
    square = ET.fromstring(favicon_svg(rounded=False)).find(f"{SVG}rect")
    assert square.get("rx") is None  # a phone rounds a home-screen icon itself
    site_css = (Path(__file__).resolve().parents[3] / "static" / "css" / "site.css").read_text()
    assert f"--accent:{ACCENT};" in site_css



def test_the_app_icon_keeps_the_whole_tile_inside_a_masks_safe_circle():
    """The installed scorer app's icon is "maskable": a phone cuts it to its own shape (circle,
    squircle), keeping at least the centre circle of radius 40 % of the side."""
    from PIL import Image

    from scoring.web.tile_art import ACCENT, favicon_svg

    root = ET.fromstring(favicon_svg(maskable=True))
    assert root.find(f"{SVG}rect").get("rx") is None  # full bleed: the mask makes the shape
    dx, dy, scale = map(float, re.search(r"translate\(([-\d.]+) ([-\d.]+)\) scale\(([-\d.]+)\)",
                                         root.find(f"{SVG}g").get("transform")).groups())
    corners = [(dx + x * scale, dy + y * scale) for x in (0, 40) for y in (0, 80)]
    assert all(((x - 32) ** 2 + (y - 32) ** 2) ** 0.5 <= 0.4 * 64 for x, y in corners)
    icons = Path(__file__).resolve().parents[3] / "static" / "icons"
    for size in (192, 512):
        image = Image.open(icons / f"app-{size}.png").convert("RGBA")
        assert image.size == (size, size)
        # written by scripts/favicon.py from this drawing: the corner is the site's colour, opaque
        assert image.getpixel((1, 1)) == (*bytes.fromhex(ACCENT.lstrip("#")), 255)

def _parsed(svg: str) -> ET.Element:
    """A tile drawn for a page (no xmlns: inline in HTML) as XML."""
    return ET.fromstring(svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def _turned(root: ET.Element, x: float, y: float) -> tuple[float, float]:
    """Where the point (x, y) of the upright symbol lands in a turned tile's 80 × 40 box."""
    transform = root.find(f"{SVG}g").get("transform")
    dx, dy = map(float, re.search(r"translate\(([-\d.]+) ([-\d.]+)\)", transform).groups())
    angle = float(re.search(r"rotate\(([-\d.]+)\)", transform).group(1))
    # A quarter turn clockwise (90) sends (x, y) to (-y, x); anticlockwise (-90) to (y, -x).
    x, y = (-y, x) if angle == 90 else (y, -x)
    return x + dx, y + dy


@pytest.mark.parametrize("laid, turn, high_side", [("6:4", "high-left", "left"), ("4:6", "high-right", "right"),
                                                   ("3:1", "high-left", "left"), ("1:5", "high-right", "right")])
def test_a_laid_tile_lies_along_the_line_with_the_joined_half_touching(laid, turn, high_side):
    from scoring.web.tile_art import laid_turn, tile_ref_svg

    assert laid_turn(laid) == turn
    svg = tile_ref_svg(laid, label=f"tile {laid}", turn=turn)
    root = _parsed(svg)
    assert root.get("viewBox") == "0 0 80 40" and root.get("aria-label") == f"tile {laid}"
    high, low = max(map(int, laid.split(":"))), min(map(int, laid.split(":")))
    assert root.find(f".//{SVG}use").get("href") == f"#tile-{high}-{low}"
    # The symbol's top half holds the high pip: it must land on the side the high pip was laid.
    x, y = _turned(root, 20, 10)
    assert 0 <= y <= 40 and (x < 40 if high_side == "left" else x > 40)
    assert "style=" not in svg


def test_a_laid_double_stands_across_the_line():
    from scoring.web.tile_art import laid_turn, tile_ref_svg

    assert laid_turn("4:4") == "upright"
    svg = tile_ref_svg("4:4", label="tile 4:4", turn="upright")
    assert 'viewBox="0 0 40 80"' in svg and '<use href="#tile-4-4"/>' in svg and "transform" not in svg
    with pytest.raises(ValueError):
        tile_ref_svg("4:4", label="x", turn="sideways")
