"""The tournament report as a PDF (``selectors.report.tournament_report``), in the page's
language: A4 portrait, the figures first, then the standings, the adjustments, the payouts and (a rated
tournament) the rating changes, as many pages as
they need. Text goes through ``paper_sheets``' font choice (Chinese in reportlab's CID fonts)."""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

# The sheets' text drawing: its font choice (Chinese in CID fonts, poppler-readable) is the one to share.
from scoring.web.paper_sheets import draw_text

MARGIN = 15 * mm
LINE = 14


class _Writer:
    """Lines top to bottom, a new page when the page is full."""

    def __init__(self, c: canvas.Canvas):
        self.c = c
        self.y = A4[1] - MARGIN

    def need(self, height: float) -> None:
        if self.y - height < MARGIN:
            self.c.showPage()
            self.y = A4[1] - MARGIN

    def line(self, text: str, size: float = 10, *, bold: bool = False) -> None:
        self.need(size + 4)
        self.y -= size + 4
        draw_text(self.c, MARGIN, self.y, text, size, bold=bold, width=A4[0] - 2 * MARGIN)

    def row(self, cells: list[tuple[float, str]], size: float = 9, *, bold: bool = False) -> None:
        """Cells at x offsets (mm from the margin); each is cut to the room before the next."""
        self.need(LINE)
        self.y -= LINE
        for i, (x, text) in enumerate(cells):
            end = cells[i + 1][0] if i + 1 < len(cells) else (A4[0] - 2 * MARGIN) / mm
            draw_text(self.c, MARGIN + x * mm, self.y, text, size, bold=bold, width=(end - x - 2) * mm)

    def gap(self, height: float = 8) -> None:
        self.y -= height


def report_pdf(report: dict, *, game_name: str, audit_status: str | None) -> bytes:
    """``report`` as ``tournament_report`` gives it; ``game_name`` and ``audit_status`` already
    in the page's language (None: never audited)."""
    t = report["tournament"]
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=A4, pageCompression=1)
    c.setTitle(t.name)
    w = _Writer(c)
    w.line(t.name, 18, bold=True)
    # Apart: a line is drawn in one font, and Latin in a CJK font is drawn spaced out.
    w.line(t.club.name, 11)
    w.line(game_name, 11)
    w.gap()
    counts, zs = report["counts"], report["zero_sum"]
    w.line(_("Audit"), 13, bold=True)
    if report["audit"] is None:
        w.line(_("Never audited."))
    else:
        a = report["audit"]
        w.line(ngettext("Latest audit: %(status)s, %(done)s of %(total)s deal checked, %(problems)s problems.",
                        "Latest audit: %(status)s, %(done)s of %(total)s deals checked, %(problems)s problems.", a["total"])
               % {"status": audit_status, "done": a["done"], "total": a["total"], "problems": a["problems"]})
    w.line(_("Zero-sum check: players %(players)s + house %(house)s = %(total)s (%(verdict)s)")
           % {"players": zs["players"], "house": zs["house"], "total": zs["total"],
              "verdict": _("holds") if zs["ok"] else _("does not hold")})
    if report["adjustments"]:
        w.line(_("Adjustments total %(total)s (fines and bonuses outside the deals: not zero-sum, the house takes "
                 "or pays them).") % {"total": f"{zs['adjustments']:+d}"})
    w.line(_("Deals: %(deals)s recorded, %(counted)s counted; corrections: %(corrections)s; disputes: "
             "%(disputes)s; voided: %(voided)s.") % counts)
    w.gap()
    w.line(_("Standings"), 13, bold=True)
    w.row([(0, _("Rank")), (14, _("Player")), (95, _("Deals")), (115, _("Net")), (140, _("Money"))], bold=True)
    for r in report["standings"]:
        name = _("%(name)s (withdrawn)") % {"name": r["name"]} if r.get("withdrawn") else r["name"]
        w.row([(0, ("=" if r["tied"] else "") + str(r["rank"])), (14, name), (95, str(r["deals"])), (115, str(r["net"])),
               (140, f"{r['money']} {t.currency}")])
    if report["adjustments"]:
        w.gap()
        w.line(_("Adjustments"), 13, bold=True)
        w.row([(0, _("Player")), (60, _("Amount")), (85, _("Reason"))], bold=True)
        for a in report["adjustments"]:
            w.row([(0, a["name"]), (60, f"{a['amount']:+d}"), (85, a["reason"])])
    w.gap()
    w.line(_("Payouts"), 13, bold=True)
    transfers = report["payouts"]["transfers"]
    if not transfers:
        w.line(_("Nothing to pay."))
    else:
        w.row([(0, _("From")), (60, _("To")), (120, _("Chips")), (140, _("Amount"))], bold=True)
        for x in transfers:
            w.row([(0, x["from_name"]), (60, x["to_name"]), (120, str(x["chips"])),
                   (140, f"{x['amount']} {t.currency}")])
    if t.rated:
        w.gap()
        w.line(_("Rating changes"), 13, bold=True)
        if not report["ratings"]:
            w.line(_("No rated results yet."))
        else:
            w.row([(0, _("Player")), (80, _("Before")), (105, _("After")), (130, _("Change"))], bold=True)
            for r in report["ratings"]:
                w.row([(0, r["player"]["name"]), (80, str(r["before"])), (105, str(r["after"])),
                       (130, f"{r['change']:+d}")])
            w.line(_("Each player's club rating before the tournament's first rated result and after its last."), 8)
    c.showPage()
    c.save()
    return out.getvalue()
