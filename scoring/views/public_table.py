"""A public table's page: its seats with their totals, its deals newest first (tiles, replay),
a page at a time (``?page=``), and the live fragment that keeps it up to date.

The page shows ``TABLE_PAGE_SIZE`` deals, never the whole table: at 1,500 deals the whole of
it was megabytes. The live fragment (``live.js``) asks with ``?after=<cursor>``, the latest
change it has seen, and gets only the deals changed since (each an item keyed by its number,
which live.js puts in place or replaces; a voided one as a marker that takes it away) with
the small parts around them (the session's state, the seats' totals, the page links) — a new
deal costs one deal's markup, whatever the table's length. Without a cursor, or when more
deals changed than a page holds, it sends the page's whole list again.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.domain.inputs import MAX_INT32, parse_whole_number
from scoring.selectors.public import (
    TABLE_PAGE_SIZE,
    public_table,
    public_table_changes,
    public_table_deals,
    read_cursor,
    table_version,
)
from scoring.views.public import LIVE_EVERY_MS, live_answer, public_view
from scoring.web.presentation import describe_deal
from scoring.web.tile_art import read_tile, tile_id

#: What the record fields holding tiles are called on the table page (ROUND_RECORD.md).
TILE_FIELD_WORDS = {"unplayed_tiles": gettext_lazy("Tiles not played face up"),
                    "left_in_hand": gettext_lazy("Kept in hand"), "hands": gettext_lazy("Hands"),
                    "groups": gettext_lazy("Groups"), "declared": gettext_lazy("Declared bull")}


def _drawn(text: str) -> dict:
    """A tile for the pages: its text and the id of its symbol in ``{% tile_sprite %}`` (each
    tile is drawn once per page and used by reference: a long table stays light)."""
    return {"text": text, "ref": tile_id(read_tile(text))}


def _dressed(tournament, table, data: dict) -> dict:
    """The selector's deals with what the templates show: tiles drawn, sentences, labels."""
    for d in data["deals"]:
        for group in d["tiles"]:
            group["seats"] = [[[_drawn(t) for t in g] for g in seat] for seat in group["seats"]]
        d["described"] = describe_deal(tournament.game, d["players"], d["outcome"])
        names = [p["name"] for p in d["players"]]
        for group in d["tiles"]:
            group["label"] = TILE_FIELD_WORDS.get(group["field"], group["field"].replace("_", " "))
            group["rows"] = list(zip(names, group["seats"]))
    return {"tournament": tournament, "table": table, "page_size": TABLE_PAGE_SIZE, **data}


def _page_number(request) -> int:
    """``?page=`` (1 when not given); 404 for anything but a whole number from 1."""
    raw = request.GET.get("page")
    if raw is None:
        return 1
    page = parse_whole_number(raw, low=1, high=MAX_INT32)
    if page is None:
        raise Http404(_("No such page."))
    return page


def _live_src(tournament, table, page: int) -> str:
    url = reverse("public-table-live", args=[tournament.slug, table.pk])
    return f"{url}?page={page}" if page > 1 else url


@public_view
def table_page(request, tournament, table_id: int):
    table = public_table(tournament, table_id)  # NotFound: 404 (public_view)
    page = _page_number(request)
    data = public_table_deals(tournament, table, page)  # a page past the last: NotFound, 404
    return render(request, "public/table.html", {**_dressed(tournament, table, data), "live_every": LIVE_EVERY_MS,
                                                 "live_src": _live_src(tournament, table, page)})


@public_view
def table_live(request, tournament, table_id: int):
    table = public_table(tournament, table_id)  # NotFound: 404 (public_view)
    page = _page_number(request)
    since = read_cursor(request.GET.get("after"))

    def make():
        # A page that has shrunk under the viewer (deals voided) shows its last page instead.
        data = ({**public_table_deals(tournament, table, page, clamp=True), "reset": True} if since is None
                else public_table_changes(tournament, table, since, page))
        return render(request, "public/_table_live.html", _dressed(tournament, table, data))

    return live_answer(request, table_version(table), make)
