"""Gupai tiles drawn as SVG (RULES.md §1.1, §1.2): pure string building, no Django.

A tile stands upright: the high half on top, a divider, the low half below, on an ivory face.
Each half is a 40 × 40 square of the 40 × 80 viewBox, with the pips where Chinese sets put
them: 1 one large centred pip; 2 and 3 on the diagonal; 4 a square; 5 a square and its
centre; 6 two columns of three.

Colours follow §1.2: pips 1 and 4 are red, 2, 3, 5 and 6 black. On [6:6] (天, Heaven), which
counts 6 red and 6 black, we draw the top half's six pips red and the bottom half's black:
the half-red Heaven tile of the traditional look, and the same red / black count the rules
give (``games.tiles.red_black``).

Only presentation attributes are used (``fill``, ``stroke``), never ``style``: the site's
CSP allows no inline style. Sizes come from the page's CSS (the SVG has a viewBox only).
"""

from __future__ import annotations

from html import escape

from games.tiles import ALL_TILES, Tile, make_tile, parse_tile

WIDTH, HALF = 40, 40
RED = "#c0221b"
BLACK = "#1b1b1b"
FACE = "#fffbef"
EDGE = "#6b5a45"

# Pip centres within a 40 × 40 half, by pip count.
_L, _C, _R = 11.0, 20.0, 29.0
_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_C, _C),),
    2: ((_R, _L), (_L, _R)),
    3: ((_R, _L), (_C, _C), (_L, _R)),
    4: ((_L, _L), (_R, _L), (_L, _R), (_R, _R)),
    5: ((_L, _L), (_R, _L), (_C, _C), (_L, _R), (_R, _R)),
    6: ((13.0, 9.0), (27.0, 9.0), (13.0, 20.0), (27.0, 20.0), (13.0, 31.0), (27.0, 31.0)),
}
_RADIUS = {1: 8.0, 2: 4.6, 3: 4.4, 4: 4.6, 5: 4.2, 6: 4.0}


def read_tile(tile: object) -> Tile:
    """A tile from any spelling the records accept ("6:5", "[5:6]") or a (a, b) pair."""
    if isinstance(tile, tuple) and len(tile) == 2 and all(type(x) is int and 1 <= x <= 6 for x in tile):
        return make_tile(*tile)
    # Templates hand over SafeString, a str subclass parse_tile refuses: read its plain text.
    found = parse_tile(str.__str__(tile)) if isinstance(tile, str) else None
    if found is None:
        raise ValueError(f"not a tile: {tile!r}")
    return found


def tile_label(tile: Tile) -> str:
    """What a screen reader says: "6-5"."""
    return f"{tile[0]}-{tile[1]}"


def tile_id(tile: Tile) -> str:
    """The sprite symbol's id: "tile-6-5"."""
    return f"tile-{tile[0]}-{tile[1]}"


def half_red(tile: Tile, top: bool) -> bool:
    """Whether one half's pips are red (the Heaven tile's top half; any 1 or 4)."""
    pip = tile[0] if top else tile[1]
    if tile == (6, 6):
        return top
    return pip in (1, 4)


def _half(pip: int, red: bool, dy: float) -> str:
    colour = RED if red else BLACK
    kind = "pip pip-red" if red else "pip pip-black"
    r = _RADIUS[pip]
    return "".join(
        f'<circle class="{kind}" cx="{x:g}" cy="{y + dy:g}" r="{r:g}" fill="{colour}"/>'
        for x, y in _LAYOUT[pip]
    )


def tile_body(tile: Tile) -> str:
    """The drawing inside the <svg> (face, divider, pips): shared by inline tiles and symbols."""
    return (
        f'<rect class="tile-face" x="1" y="1" width="{WIDTH - 2}" height="{2 * HALF - 2}" rx="6"'
        f' fill="{FACE}" stroke="{EDGE}" stroke-width="2"/>'
        f'<line class="tile-divider" x1="6" y1="{HALF}" x2="{WIDTH - 6}" y2="{HALF}"'
        f' stroke="{EDGE}" stroke-width="1.5"/>'
        + _half(tile[0], half_red(tile, True), 0)
        + _half(tile[1], half_red(tile, False), HALF)
    )


def tile_svg(tile: object, css_class: str = "tile", label: str | None = None) -> str:
    """One tile as an inline <svg> with role="img", an aria-label and a <title>."""
    t = read_tile(tile)
    name = escape(label if label is not None else tile_label(t))
    return (
        f'<svg class="{escape(css_class)}" viewBox="0 0 {WIDTH} {2 * HALF}" role="img"'
        f' aria-label="{name}" xmlns="http://www.w3.org/2000/svg" focusable="false">'
        f"<title>{name}</title>{tile_body(t)}</svg>"
    )


def tile_symbol(tile: Tile) -> str:
    """One tile as a <symbol id="tile-a-b"> for ``<use href="#tile-a-b"/>``."""
    return (
        f'<symbol id="{tile_id(tile)}" viewBox="0 0 {WIDTH} {2 * HALF}">'
        f"<title>{tile_label(tile)}</title>{tile_body(tile)}</symbol>"
    )


#: How a tile lies in a drawing: upright (as the symbol is drawn, high half on top), or on its
#: side with its high half to the left or to the right.
TURNS = ("upright", "high-left", "high-right")
#: The quarter turns that lay the upright 40 × 80 symbol into an 80 × 40 box.
_TURNED = {"high-left": "translate(0 40) rotate(-90)", "high-right": "translate(80 0) rotate(90)"}


def laid_turn(text: str) -> str:
    """How a tile of a layout lies, from its pips as laid left to right ("4:6"): a double
    across the line (upright), any other tile along it with the pip it was joined by touching
    its neighbour (the left pip on the left)."""
    a, b = (int(p) for p in str.__str__(text).strip("[]").split(":"))
    return "upright" if a == b else ("high-left" if a > b else "high-right")


def tile_ref_svg(tile: object, *, label: str, turn: str = "upright", css_class: str | None = None) -> str:
    """One tile drawn by reference to its symbol in ``tile_sprite_svg`` (the page must hold the
    sprite), turned as ``turn`` says (``TURNS``); upright in a 40 × 80 box, on its side in an
    80 × 40 one. Class ``tile`` upright, ``tile-flat`` on its side, unless ``css_class``."""
    t = read_tile(tile)
    if turn not in TURNS:
        raise ValueError(f"not a turn: {turn!r}")
    name = escape(label)
    if turn == "upright":
        return (f'<svg class="{escape(css_class or "tile")}" viewBox="0 0 {WIDTH} {2 * HALF}" role="img"'
                f' aria-label="{name}" focusable="false"><use href="#{tile_id(t)}"/></svg>')
    # The symbol drawn upright in a 40 × 80 viewport of its own, that viewport turned.
    return (f'<svg class="{escape(css_class or "tile-flat")}" viewBox="0 0 {2 * HALF} {WIDTH}" role="img"'
            f' aria-label="{name}" focusable="false"><g transform="{_TURNED[turn]}"><svg width="{WIDTH}"'
            f' height="{2 * HALF}"><use href="#{tile_id(t)}"/></svg></g></svg>')


def tile_sprite_svg() -> str:
    """One hidden <svg> holding a symbol for each of the 21 tiles."""
    symbols = "".join(tile_symbol(t) for t in ALL_TILES)
    return (
        '<svg class="tile-sprite" xmlns="http://www.w3.org/2000/svg" width="0" height="0"'
        f' aria-hidden="true" focusable="false"><defs>{symbols}</defs></svg>'
    )


#: The site's colour (static/css/site.css --accent): the icon's background.
ACCENT = "#a4161a"


def favicon_svg(tile: object = "6:6", *, rounded: bool = True, maskable: bool = False) -> str:
    """The site's icon (static/img/, written by scripts/favicon.py): one upright tile, Heaven by
    default, on a square of the site's colour; ``rounded=False`` for a home-screen icon, whose
    corners the phone rounds itself. ``maskable``: the installed scorer app's icon
    (static/icons/), square, with the whole tile inside the centre circle (radius 40 % of the
    side) that a phone's mask of any shape keeps. A standalone SVG file, so it names its
    namespace and size."""
    t = read_tile(tile)
    # The 40 × 80 tile scaled into the middle of a 64 × 64 square, 3 units from top and bottom;
    # maskable, 44 high (its half-diagonal, 24.6, inside the safe circle's 25.6).
    height = 44 if maskable else 58
    scale = height / (2 * HALF)
    x = (64 - WIDTH * scale) / 2
    y = (64 - height) / 2
    corners = ' rx="12"' if rounded and not maskable else ""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">'
        f"<title>{escape(tile_label(t))}</title>"
        f'<rect width="64" height="64"{corners} fill="{ACCENT}"/>'
        f'<g transform="translate({x:g} {y:g}) scale({scale:g})">{tile_body(t)}</g></svg>\n'
    )


__all__ = ["TURNS", "favicon_svg", "laid_turn", "read_tile", "tile_body", "tile_id", "tile_label", "tile_ref_svg",
           "tile_sprite_svg", "tile_svg", "tile_symbol"]
