"""Paper score sheets: one printable page per table of a session (PDF, reportlab), for tables
that score on paper. Each page names the tournament, the game, the session and table, the seats
(players by seat), the game's deal form at its quick level as an empty grid (its inputs read
from ``games.get_game(key).entry``, nothing here knows a game by name), and the table's QR code
(its scorer link, while the session's links are shown).

In the page's language (the active one): Chinese needs reportlab's built-in CID fonts, which
need no font files; a string is drawn in the first font that covers it.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass

import segno
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase import cidfonts, pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

import games
from games.entry import Numbers, SeatChoice, SeatValue, Winner
from scoring.web import links
from scoring.web.presentation import seat_name, session_table

#: Empty rows of the grid: the deals a session usually has room for on one page.
ROWS = 20

PAGE = landscape(A4)
MARGIN = 12 * mm
QR_SIZE = 38 * mm
ROW_HEIGHT = 17
LATIN = "Helvetica"
LATIN_BOLD = "Helvetica-Bold"
#: reportlab's CID fonts (no font files): Simplified, Traditional Chinese, Korean (a Korean
#: game name, or a player's name in Hangul).
SIMPLIFIED, TRADITIONAL, KOREAN = "STSong-Light", "MSung-Light", "HYSMyeongJo-Medium"
_CHARSETS = {SIMPLIFIED: "gbk", TRADITIONAL: "big5hkscs", KOREAN: "euc_kr"}
_registered: set[str] = set()
_FULL_WIDTH = str.maketrans({"·": "・", "–": "～"})
# The Korean font's CMap has no U+00B7: its middle dot is reached through U+30FB.
_KOREAN_DOT = str.maketrans({"·": "・"})


class _TraditionalFont(UnicodeCIDFont):
    """MSung-Light with its own collection's Unicode CMap: reportlab 5.1 names the GB one
    (UniGB-UCS2-H) for this CNS1 font, which poppler (pdftoppm, pdftotext) cannot read."""

    def __init__(self, face: str):
        language, encoding = cidfonts.defaultUnicodeEncodings[face]
        cidfonts.defaultUnicodeEncodings[face] = (language, "UniCNS-UCS2-H")
        try:
            super().__init__(face)
        finally:
            cidfonts.defaultUnicodeEncodings[face] = (language, encoding)


@dataclass
class SheetPage:
    """One table's page: its name, its players by seat, and its scorer link (None: not shown)."""

    table_name: str
    players: list[str]
    url: str | None


def _font(text: str, bold: bool = False) -> str:
    """The first font that draws every character of ``text``: Helvetica for Latin-1, else the
    CJK font of the page's language, else another that has them all (Hangul: the Korean one)."""
    try:
        text.encode("cp1252")
        return LATIN_BOLD if bold else LATIN
    except UnicodeEncodeError:
        pass
    language = (get_language() or "").lower()
    if language.startswith("ko"):
        order = (KOREAN, TRADITIONAL, SIMPLIFIED)
    elif language in ("zh-hant", "zh-tw", "zh-hk"):
        order = (TRADITIONAL, SIMPLIFIED, KOREAN)
    else:
        order = (SIMPLIFIED, TRADITIONAL, KOREAN)
    # A name typed in the other script (a Simplified name on a Traditional page) is drawn in
    # the font that has it; the character sets stand for what each font covers.
    name = next((f for f in order if _covers(text, f)), order[0])
    if name not in _registered:
        pdfmetrics.registerFont(_TraditionalFont(name) if name == TRADITIONAL else UnicodeCIDFont(name))
        _registered.add(name)
    return name


def _covers(text: str, font: str) -> bool:
    try:
        text.encode(_CHARSETS[font])
    except UnicodeEncodeError:
        return False
    return True


def draw_text(c: canvas.Canvas, x: float, y: float, text: str, size: float, *, bold: bool = False,
          centre: bool = False, width: float | None = None) -> None:
    """Draw ``text`` at (x, y), shrunk to ``width`` when given."""
    font = _font(text, bold)
    if font == SIMPLIFIED:
        # Latin punctuation poppler draws badly in this font, as its full-width forms.
        text = text.translate(_FULL_WIDTH)
    elif font == KOREAN:
        text = text.translate(_KOREAN_DOT)
    if width is not None:
        while size > 5 and pdfmetrics.stringWidth(text, font, size) > width:
            size -= 0.5
    c.setFont(font, size)
    (c.drawCentredString if centre else c.drawString)(x, y, text)


def _wrapped(c: canvas.Canvas, x: float, top: float, width: float, height: float, text: str, size: float = 7) -> None:
    """``text`` centred in a box, in as many lines as it needs (words, or characters for Chinese)."""
    font = _font(text)
    words = text.split(" ") if " " in text else list(text)
    joiner = " " if " " in text else ""
    lines: list[str] = []
    for word in words:
        line = (lines[-1] + joiner + word) if lines else word
        if lines and pdfmetrics.stringWidth(line, font, size) <= width - 2:
            lines[-1] = line
        else:
            lines.append(word)
    lines = lines[:3]
    y = top - (height - len(lines) * (size + 1)) / 2 - size
    for line in lines:
        draw_text(c, x + width / 2, y, line, size, centre=True, width=width - 2)
        y -= size + 1


def _qr(c: canvas.Canvas, url: str, x: float, y: float, size: float) -> None:
    """The QR code of ``url`` drawn as squares (vector, sharp at any print size), with its
    quiet zone, its lower left corner at (x, y)."""
    qr = segno.make(url, error="m")
    border = 4
    matrix = list(qr.matrix)
    cells = len(matrix) + 2 * border
    cell = size / cells
    c.setFillColorRGB(1, 1, 1)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(matrix):
        col, width = 0, len(row)
        while col < width:
            if not row[col]:
                col += 1
                continue
            run = col
            while run < width and row[run]:
                run += 1
            # A run of dark modules as one rectangle: a third of the drawing, and no seams.
            c.rect(x + (col + border) * cell, y + size - (r + border + 1) * cell, (run - col) * cell, cell,
                   stroke=0, fill=1)
            col = run


def _legend(inputs, n: int, variant: dict) -> list[str]:
    """How each box is filled, in the page's language."""
    names = {i.name: _(i.label) for i in inputs}
    lines = []
    for i in inputs:
        label = _(i.label)
        if isinstance(i, (SeatChoice, Winner)):
            line = _("%(label)s: a seat's number, 1–%(n)s") % {"label": label, "n": n}
            if getattr(i, "blank", None):
                line += " " + _("(– for none)")
        elif isinstance(i, SeatValue):
            low, high = i.bounds(variant)
            line = _("%(label)s: %(low)s–%(high)s, or – for %(none)s") % {
                "label": label, "low": low, "high": high, "none": _(i.none)}
        elif isinstance(i, Numbers):
            line = _("%(label)s: a whole number, %(minimum)s or more") % {"label": label, "minimum": i.minimum}
            if i.not_for:
                line += " " + _("(blank for the %(seat)s)") % {"seat": names.get(i.not_for, i.not_for).lower()}
        else:
            continue
        lines.append(line)
    return lines


def _page(c: canvas.Canvas, *, tournament: str, game, variant: dict, session: int, page: SheetPage,
          qr_form: str | None = None) -> None:
    width, height = PAGE
    top = height - MARGIN
    # The heading, the seats, the QR code at the right.
    draw_text(c, MARGIN, top - 16, tournament, 16, bold=True, width=width - 2 * MARGIN - QR_SIZE - 10)
    draw_text(c, MARGIN, top - 36, session_table(session, page.table_name), 14, bold=True)
    draw_text(c, MARGIN, top - 52, game.name_in(get_language() or "en") + " · " + _("paper score sheet"), 10)
    y = top - 70
    for position, player in enumerate(page.players):
        draw_text(c, MARGIN, y, f"{position + 1}", 10, bold=True)
        draw_text(c, MARGIN + 14, y, seat_name(position, len(page.players)), 9)
        draw_text(c, MARGIN + 90, y, player, 10, width=width - 2 * MARGIN - QR_SIZE - 110)
        y -= 13
    qx, qy = width - MARGIN - QR_SIZE, top - QR_SIZE
    if page.url:
        if qr_form:
            c.saveState()
            c.translate(qx, qy)
            c.doForm(qr_form)
            c.restoreState()
        else:
            _qr(c, page.url, qx, qy, QR_SIZE)
        draw_text(c, qx + QR_SIZE / 2, qy - 8, page.url, 6, centre=True, width=QR_SIZE + 4 * mm)
    else:
        _wrapped(c, qx, top, QR_SIZE, QR_SIZE, _("No scorer link shown: the session is closed."), 8)
    heading_bottom = min(y + 4, qy - 14)

    # The grid: the deal's number, the inputs typed once per deal, then each seat's inputs.
    level = game.entry.quick_level()
    inputs = game.entry.inputs_at(level)
    tops = [i for i in inputs if not i.per_seat and i.label]
    seats = [i for i in inputs if i.per_seat]
    # A record with nothing typed per seat (Da Ling's winners) has no seat columns: the players
    # are listed above, and the inputs typed once per deal share the width.
    n = len(page.players)
    seated = n if seats else 0
    first = 20
    top_width = 48 if seats else (width - 2 * MARGIN - first) / max(len(tops), 1)
    group = (width - 2 * MARGIN - first - top_width * len(tops)) / max(seated, 1)
    cols: list[tuple[float, float]] = [(MARGIN, first)]
    x = MARGIN + first
    for _i in tops:
        cols.append((x, top_width))
        x += top_width
    seat_x = x
    sub = group / max(len(seats), 1)
    for s in range(n):
        for k in range(len(seats)):
            cols.append((seat_x + s * group + k * sub, sub))
    head = 34
    grid_top = heading_bottom - 6
    body_top = grid_top - head
    bottom = body_top - ROWS * ROW_HEIGHT
    right = width - MARGIN
    c.setLineWidth(0.6)
    c.rect(MARGIN, bottom, right - MARGIN, grid_top - bottom)
    _wrapped(c, MARGIN, grid_top, first, head, "#", 8)
    for (cx, cw), i in zip(cols[1:], tops):
        _wrapped(c, cx, grid_top, cw, head, _(i.label))
    for s, player in enumerate(page.players[:seated]):
        gx = seat_x + s * group
        draw_text(c, gx + group / 2, grid_top - 11, f"{s + 1} · {player}", 8, bold=True, centre=True, width=group - 4)
        c.line(gx, grid_top - 15, gx + group, grid_top - 15)
        for k, i in enumerate(seats):
            _wrapped(c, gx + k * sub, grid_top - 15, sub, head - 15, _(i.label), 6.5)
    for k, (cx, _cw) in enumerate(cols[1:]):
        c.line(cx, bottom, cx, grid_top if k < len(tops) else grid_top - 15)
    c.setLineWidth(1.2)
    for s in range(seated):
        c.line(seat_x + s * group, bottom, seat_x + s * group, grid_top)
    c.setLineWidth(0.4)
    for r in range(ROWS + 1):
        y = body_top - r * ROW_HEIGHT
        c.line(MARGIN, y, right, y)
        if r < ROWS:
            draw_text(c, MARGIN + first / 2, y - ROW_HEIGHT + 5, str(r + 1), 7, centre=True)
    # The legend.
    y = bottom - 11
    for line in _legend(inputs, n, variant):
        draw_text(c, MARGIN, y, line, 7, width=right - MARGIN)
        y -= 9


def sheets_pdf(*, tournament: str, game_key: str, variant: dict, session: int, pages: list[SheetPage],
               languages: list[str] | None = None, progress=None) -> bytes:
    """Every page in one PDF, in the order given (one table a page), in the active language;
    with ``languages``, each table's page in each of them in turn (table 1 in each, then table
    2, ...): a mixed club's stack comes off the printer sorted by table, each table's sheets
    together. ``progress(tables_done, total)`` after each table."""
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=PAGE, pageCompression=1)
    c.setTitle(f"{tournament} · {session}")
    game = games.get_game(game_key)
    full = {**game.variant_defaults(), **(variant or {})}
    for done, page in enumerate(pages, start=1):
        form = None
        if page.url and languages and len(languages) > 1:
            # The table's QR code encoded and drawn once, shown on its page in each language
            # (most of a page's drawing is its QR code).
            form = f"qr{done}"
            c.beginForm(form, 0, 0, QR_SIZE, QR_SIZE)
            _qr(c, page.url, 0, 0, QR_SIZE)
            c.endForm()
        for language in languages or [None]:
            with translation.override(language) if language else contextlib.nullcontext():
                _page(c, tournament=tournament, game=game, variant=full, session=session, page=page, qr_form=form)
            c.showPage()
        if progress is not None:
            progress(done, len(pages))
    if not pages:
        draw_text(c, MARGIN, PAGE[1] - MARGIN - 16, tournament, 16, bold=True)
        c.showPage()
    c.save()
    return out.getvalue()


def session_sheets_pdf(*, tournament, session, rows, base_url: str, languages: list[str] | None = None,
                       progress=None) -> bytes:
    """A session's sheets from its rows (``selectors.seating.session_sheet_tables``), each
    table's link on ``base_url`` (``links.site_base``) when it is shown: what the director's
    download and the worker's job (``services.paper_sheets``, which is handed this) draw."""
    pages = [SheetPage(table_name=row.table.name, players=[e.player.name for e in row.entries],
                       url=links.scorer_url_on(base_url, row.token) if row.token else None) for row in rows]
    return sheets_pdf(tournament=tournament.name, game_key=tournament.game, variant=tournament.variant,
                      session=session.number, pages=pages, languages=languages, progress=progress)
