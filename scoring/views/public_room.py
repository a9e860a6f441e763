"""The room display (``/t/<slug>/room/``): a page for a projector in the playing room, 1920×1080,
read from across the room — the session's clock (with "5 minutes left" and "Time is up"), where
every player sits (by name, paged by ``static/js/room.js`` when the list is longer than the
screen), the standings' top rows and the latest deals.

Seen as the tournament's public pages are (public and started); a director of its club sees it
for a private or draft tournament too. Anyone else: 404, as for an unknown slug. It is kept up
to date as the other live pages are (``static/js/live.js``: the tournament's events stream,
polling as a safety net) from ``/t/<slug>/room/live/``, whose version changes with every event
of the tournament's feed (a deal, a seating, a clock started or stopped, a substitution, an
adjustment) and when a clock runs out.
"""

from __future__ import annotations

from functools import wraps

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from scoring.domain.errors import NotFound
from scoring.selectors.events import feed_version
from scoring.selectors.public import public_tournament, tournament_version
from scoring.selectors.replica import reading
from scoring.selectors.room import directed_tournament, room_display
from scoring.views.public import LIVE_EVERY_MS, live_answer
from scoring.web import links
from scoring.web.auth import actor_from_request

#: How long each page of the seats is shown when they do not fit the screen (static/js/room.js).
PAGE_EVERY_MS = 8000


def room_view(view):
    """GET only; the tournament from the slug: a public one read on the replica, else one the
    logged-in director's club holds (read on the primary); 404 for anything else."""

    @wraps(view)
    @require_GET
    def wrapped(request, slug):
        try:
            with reading(replica=True):
                return view(request, public_tournament(slug))
        except NotFound:
            pass
        try:
            tournament = directed_tournament(slug, actor_from_request(request))
        except NotFound as e:
            raise Http404(e.message) from None
        return view(request, tournament)

    return wrapped


@room_view
def room_page(request, tournament):
    # The players' check-in page answers for a public tournament not yet finished: its QR code
    # in the corner, for the phones in the room (a private one's director ticks them in).
    shown = tournament.publicly_visible and not tournament.is_finished
    qr = links.qr_svg(links.check_in_url(tournament, request), scale=4) if shown else None
    return render(request, "public/room.html", {
        "tournament": tournament, **room_display(tournament), "check_in_qr": qr, "live_every": LIVE_EVERY_MS,
        "page_every": PAGE_EVERY_MS, "live_src": reverse("public-room-live", args=[tournament.slug])})


@room_view
def room_live(request, tournament):
    """The display's live parts (the clock, the seats, the standings, the deals)."""
    version = f"{tournament_version(tournament)}-{feed_version(tournament.pk)}"
    return live_answer(request, version, lambda: render(request, "public/_room_live.html", {
        "tournament": tournament, **room_display(tournament)}))
