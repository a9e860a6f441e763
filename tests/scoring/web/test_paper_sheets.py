"""Paper score sheets (scoring/web/paper_sheets.py): the PDF is read back as a printer would see
it — each page turned into an image by poppler's ``pdftoppm``, its QR code decoded (zxingcpp)
to the table's scorer link — and its text read by ``pdftotext``: the table's name, the players,
and the game's quick-level inputs from the catalog."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from django.utils import translation
from django.utils.translation import gettext

import games
from scoring.web.paper_sheets import ROWS, SheetPage, sheets_pdf

needs_poppler = pytest.mark.skipif(
    not (shutil.which("pdftoppm") and shutil.which("pdftotext")),
    reason="poppler-utils (pdftoppm, pdftotext) is not installed: apt-get install poppler-utils")

URL = "https://club.example/s/Zm9vYmFyLXRhYmxlLXRva2VuLTEyMzQ/"


def page_images(pdf: bytes, tmp_path) -> list:
    """Each page as an image, 150 dpi."""
    from PIL import Image
    src = tmp_path / "sheets.pdf"
    src.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(src), str(tmp_path / "page")], check=True,
                   capture_output=True)
    return [Image.open(p) for p in sorted(tmp_path.glob("page*.png"))]


def qr_texts(image) -> list[str]:
    import zxingcpp
    return [code.text for code in zxingcpp.read_barcodes(image) if code.format == zxingcpp.BarcodeFormat.QRCode]


def pdf_text(pdf: bytes, tmp_path, page: int | None = None) -> str:
    src = tmp_path / "text.pdf"
    src.write_bytes(pdf)
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return subprocess.run(["pdftotext", "-layout", *pages, str(src), "-"], check=True, capture_output=True,
                          text=True).stdout


@needs_poppler
def test_the_page_carries_the_tables_link_as_a_qr_code_and_its_name_and_players(tmp_path):
    players = ["Ann Lee", "Bo Chen", "Cy Wu", "Di Ma"]
    pdf = sheets_pdf(tournament="Friday Open", game_key="ding_niu", variant={}, session=3,
                     pages=[SheetPage("Window table", players, URL)])
    assert pdf.startswith(b"%PDF")
    [image] = page_images(pdf, tmp_path)
    assert qr_texts(image) == [URL]
    text = pdf_text(pdf, tmp_path)
    assert "Friday Open" in text and "Session 3 · Window table" in text and "Ding Niu" in text
    for name in players:
        assert name in text
    assert "seat East" in text and "seat North" in text
    # Twenty numbered rows of boxes.
    assert all(f" {n} " in f" {text} ".replace("\n", " ") for n in range(1, ROWS + 1))


@needs_poppler
def test_one_page_per_table_each_with_its_own_link(tmp_path):
    pages = [SheetPage(f"Table {n}", [f"P{n}-{s}" for s in range(3)], f"{URL}{n}/") for n in range(1, 4)]
    pdf = sheets_pdf(tournament="Big night", game_key="jie_long", variant={}, session=1, pages=pages)
    images = page_images(pdf, tmp_path)
    assert [qr_texts(i) for i in images] == [[f"{URL}{n}/"] for n in range(1, 4)]
    for n in range(1, 4):
        text = pdf_text(pdf, tmp_path, page=n)
        assert f"Table {n}" in text and f"P{n}-0" in text and f"P{n}-2" in text


@needs_poppler
@pytest.mark.parametrize("key", list(games.CATALOG))
def test_the_grid_asks_for_the_games_quick_level(key, tmp_path):
    """The columns are the catalog's inputs at the game's quick level: points for the layout
    games, the values for Tau Ngau (§3b), the winners for Da Ling (§4b); never tiles."""
    game = games.get_game(key)
    n = game.player_counts[0]
    pdf = sheets_pdf(tournament="T", game_key=key, variant={}, session=1,
                     pages=[SheetPage("Table 1", [f"Player{s}" for s in range(n)], URL)])
    text = " ".join(pdf_text(pdf, tmp_path).split())
    level = game.entry.quick_level()
    assert level == {"tau_ngau": "values", "da_ling": "winners"}.get(key, "points")
    for i in game.entry.inputs_at(level):
        if i.label:
            assert i.label in text
    assert "Hand as dealt" not in text and "Unplayed tiles" not in text and "Moves" not in text


@needs_poppler
@pytest.mark.parametrize("key", list(games.CATALOG))
def test_seat_columns_only_where_the_record_has_something_per_seat(key, tmp_path):
    """A player heads a column of the grid only when the game's quick record has an input per
    seat: Da Ling's winners are typed once per deal, so its grid has no empty seat columns."""
    game = games.get_game(key)
    n = game.player_counts[0]
    pdf = sheets_pdf(tournament="T", game_key=key, variant={}, session=1,
                     pages=[SheetPage("Table 1", [f"Player{s}" for s in range(n)], URL)])
    text = pdf_text(pdf, tmp_path)
    per_seat = any(i.per_seat for i in game.entry.inputs_at(game.entry.quick_level()))
    assert text.count("Player1") == (2 if per_seat else 1)
    assert per_seat or key == "da_ling"

@needs_poppler
def test_a_closed_sessions_sheet_has_no_qr_code(tmp_path):
    pdf = sheets_pdf(tournament="T", game_key="da_ling", variant={}, session=1,
                     pages=[SheetPage("Table 1", ["A", "B"], None)])
    [image] = page_images(pdf, tmp_path)
    assert qr_texts(image) == []
    assert "No scorer link shown" in " ".join(pdf_text(pdf, tmp_path).split())


@needs_poppler
@pytest.mark.parametrize("language, game_name", [("zh-hans", "斗牛"), ("zh-hant", "鬥牛")])
def test_chinese_pages_in_the_languages_own_script(language, game_name, tmp_path):
    with translation.override(language):
        pdf = sheets_pdf(tournament="周五公开赛", game_key="tau_ngau", variant={"settlement": "v1"}, session=2,
                         pages=[SheetPage("Table 4", ["陈大文", "Bo", "李小龙"], URL)])
        table = gettext("Table %(n)s") % {"n": 4}
        banker = gettext("Banker")
    [image] = page_images(pdf, tmp_path)
    assert qr_texts(image) == [URL]
    text = pdf_text(pdf, tmp_path)
    assert table != "Table 4" and table in text
    assert game_name in text and banker in text and "周五公开赛" in text
    assert "陈大文" in text and "李小龙" in text
    assert re.search(r"1\s*[～–]\s*10", text)    # the value's range under v1 (TN-5)


@needs_poppler
def test_a_korean_page_draws_hangul_and_the_games_hanja(tmp_path):
    """A Korean page: its words in Hangul, the game's name in Hanja (鬪牛, which the Korean font
    has) on the same line as "종이 기록지", and names typed in Chinese in a font that has them."""
    with translation.override("ko"):
        pdf = sheets_pdf(tournament="금요일 오픈", game_key="tau_ngau", variant={"settlement": "v1"}, session=2,
                         pages=[SheetPage("Table 4", ["김민수", "Bo", "陈大文"], URL)])
        table = gettext("Table %(n)s") % {"n": 4}
        banker = gettext("Banker")
    [image] = page_images(pdf, tmp_path)
    assert qr_texts(image) == [URL]
    text = pdf_text(pdf, tmp_path)
    assert table == "4번 테이블" and table in text and banker == "뱅커" and banker in text
    assert "鬪牛 · 종이 기록지" in text and "금요일 오픈" in text
    assert "김민수" in text and "陈大文" in text
