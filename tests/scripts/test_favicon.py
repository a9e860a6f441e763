"""scripts/favicon.py: the committed icons are what it writes (the SVG from tile_art, the .ico
file a directory of PNGs at 16, 32 and 48 px, the home-screen icon 180 px)."""

from __future__ import annotations

import struct

import favicon


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def read_ico(data: bytes) -> dict[int, bytes]:
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1)
    images = {}
    for i in range(count):
        w, h, colours, _, planes, bits, size, offset = struct.unpack("<BBBBHHII", data[6 + 16 * i:22 + 16 * i])
        assert w == h and (colours, planes, bits) == (0, 1, 32)
        png = data[offset:offset + size]
        assert png_size(png) == (w or 256, h or 256)
        images[w or 256] = png
    return images


def test_ico_is_a_directory_of_pngs():
    pngs = {16: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + struct.pack(">II", 16, 16) + b"a",
            256: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + struct.pack(">II", 256, 256) + b"bc"}
    assert read_ico(favicon.ico(pngs)) == pngs


def test_the_committed_icons_are_what_the_script_writes():
    out = favicon.OUT
    assert (out / "favicon.svg").read_text(encoding="utf-8") == favicon.favicon_svg(), \
        "static/img/favicon.svg is not tile_art.favicon_svg(): run scripts/favicon.py"
    assert sorted(read_ico((out / "favicon.ico").read_bytes())) == list(favicon.ICO_SIZES)
    assert png_size((out / "apple-touch-icon.png").read_bytes()) == (favicon.TOUCH_SIZE, favicon.TOUCH_SIZE)
