"""The site's icons in static/img/ and static/icons/: `.venv/bin/python scripts/favicon.py` after
changing the drawing.

favicon.svg           the icon of every page (templates/base.html), drawn by
                      scoring.web.tile_art.favicon_svg: the Heaven tile on the site's colour
favicon.ico           for browsers that ask /favicon.ico (gupai_site/urls.py sends them here) or
                      cannot show an SVG icon: the same drawing at 16, 32 and 48 px, as PNGs
apple-touch-icon.png  180 px, square corners (the phone rounds them), for a home-screen link
icons/app-192.png,    the installed scorer app's icons (/manifest.webmanifest), "maskable": the
icons/app-512.png     tile inside the centre circle that a phone's mask of any shape keeps

The PNGs are drawn by headless Chromium (Playwright with Debian's chromium, as the browser tests
use), so no imaging library is needed; the .ico file is those PNGs behind an ICO directory.
tests/scoring/web/test_tile_art.py checks that the committed files are what this writes.
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "static" / "img"
APP_ICONS = ROOT / "static" / "icons"
APP_SIZES = (192, 512)
ICO_SIZES = (16, 32, 48)
TOUCH_SIZE = 180

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoring.web.tile_art import favicon_svg  # noqa: E402  (after the project is on the path)


def ico(pngs: dict[int, bytes]) -> bytes:
    """An .ico file holding PNG images (allowed since Windows Vista, read by every browser):
    the ICONDIR header, one 16-byte entry per image, then the images."""
    head = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(head) + 16 * len(pngs)
    entries, data = b"", b""
    for size, png in sorted(pngs.items()):
        # width and height 0 mean 256; 0 colours (not a palette), 1 plane, 32 bits a pixel
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png), offset + len(data))
        data += png
    return head + entries + data


def render(svg: str, sizes: list[int]) -> dict[int, bytes]:
    """The SVG drawn by Chromium at each size, as PNGs with a transparent background."""
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        raise SystemExit("no Chromium: `apt-get install chromium` (or set CHROMIUM_PATH)")
    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page(device_scale_factor=1)
            for size in sizes:
                page.set_viewport_size({"width": size, "height": size})
                page.set_content('<html><body style="margin:0"></body></html>')
                page.evaluate("""([svg, size]) => {
                    const img = document.createElement("img");
                    img.width = img.height = size;
                    img.style.display = "block";
                    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
                    document.body.append(img);
                    return img.decode();
                }""", [svg, size])
                out[size] = page.screenshot(omit_background=True, clip={"x": 0, "y": 0, "width": size, "height": size})
        finally:
            browser.close()
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    svg = favicon_svg()
    (OUT / "favicon.svg").write_text(svg, encoding="utf-8")
    (OUT / "favicon.ico").write_bytes(ico(render(svg, list(ICO_SIZES))))
    (OUT / "apple-touch-icon.png").write_bytes(render(favicon_svg(rounded=False), [TOUCH_SIZE])[TOUCH_SIZE])
    APP_ICONS.mkdir(parents=True, exist_ok=True)
    for size, png in render(favicon_svg(maskable=True), list(APP_SIZES)).items():
        (APP_ICONS / f"app-{size}.png").write_bytes(png)
    written = [OUT / name for name in ("favicon.svg", "favicon.ico", "apple-touch-icon.png")]
    for path in [*written, *(APP_ICONS / f"app-{size}.png" for size in APP_SIZES)]:
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
