"""Public pages: the home page, the rules calculator, and a public tournament's pages —
standings, payouts, a player's deals (with a chart); a table's deals are in ``public_table``.

Only public tournaments that have started are shown; a private or draft tournament, an unknown
slug, and another tournament's player or table ids all answer the same 404.

Live parts are fetched from a small fragment endpoint with ``If-None-Match`` (a 304, one cheap
query, while nothing has changed): at once when the tournament's events stream says something
changed (``GET /api/v1/tournaments/{id}/events/``, served by ``gupai_site.asgi`` without holding
a worker), and every few seconds when the stream is not there (``static/js/live.js``).
"""

from __future__ import annotations

import hashlib
import json
from functools import wraps
from urllib.parse import urlencode

from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

import games
from games.samples import SAMPLES
from scoring.domain.errors import NotFound, ValidationFailed
from scoring.domain.inputs import MAX_INT32, parse_whole_number
from scoring.domain.paging import Page
from scoring.domain.records import round_build_record
from scoring.domain.standings import DEFAULT_TIE_BREAKS, tie_break_labels
from scoring.selectors.adjustments import with_adjustment_lines
from scoring.selectors.clubs import club_list_for_user
from scoring.selectors.payouts import payouts_for
from scoring.selectors.public import (
    player_deals,
    public_entry,
    public_tables,
    public_tournament,
    tournament_version,
)
from scoring.selectors.replica import reading
from scoring.selectors.sessions import seats_now
from scoring.selectors.standings import place_count, standings_for
from scoring.selectors.tournaments import tournament_list_for_home
from scoring.web.charts import step_chart
from scoring.web.deal_form import DealForm
from scoring.web.path_words import with_words
from scoring.web.presentation import describe_result, where_now
from scoring.web.rule_messages import translate_message, translate_result

#: Player counts the calculator's deal builder offers (each game allows some of them).
BUILD_PLAYERS = range(min(min(g.player_counts) for g in games.CATALOG.values()), games.MAX_PLAYERS + 1)

#: How often a live page asks for news, in milliseconds (live.js backs off from there when
#: the connection fails).
LIVE_EVERY_MS = 4000



def _games_in_words() -> list[dict]:
    """Each game's key, name (in its own script for Chinese pages) and blurb, in the page's language."""
    language = get_language() or "en"
    return [{"key": g.key, "name": g.name_in(language), "blurb": _(g.blurb)} for g in games.CATALOG.values()]


def home(request):
    return render(request, "public/home.html", {
        "games": _games_in_words(),
        "samples": list(SAMPLES),
        "tournaments": tournament_list_for_home(request.user),
        "my_club_ids": set(club_list_for_user(request.user).values_list("pk", flat=True)),
    })


def _builder(request) -> tuple[DealForm | None, str, int, str]:
    """The deal builder's form for the game and player count asked (GET or POST), with
    seats named "Seat 1" …; (None, game, players, problem) when none is asked or they do not fit."""
    data = request.POST if request.method == "POST" else request.GET
    key = data.get("game", "")
    n = parse_whole_number(data.get("players"), low=0, high=MAX_INT32) or 0
    if key not in games.CATALOG:
        return None, "", n, ""
    game = games.get_game(key)
    problem = game.player_count_error(n)
    if problem:
        return None, key, n, translate_message("wrong_player_count", problem)
    seats = [{"position": i, "name": _("Seat %(n)s") % {"n": i + 1}} for i in range(n)]
    form = DealForm(game=key, variant=game.variant_defaults(), seats=seats, require_entered_by=False,
                    data=request.POST if request.method == "POST" and "build" in request.POST else None)
    return form, key, n, ""


def _evaluate_built(form: DealForm, key: str) -> tuple[dict | None, dict | None]:
    """The record the builder's inputs make and its result; errors land at the form's inputs."""
    body = form.body()
    if body is None:
        return None, None
    built = round_build_record(game=key, variant=form.variant, names=form.names, body=body, defaults={})
    if built.errors:
        form.add_service_errors(built.errors)
        return None, None
    result = games.evaluate(built.record)
    if not result.get("ok"):
        form.add_service_errors([{**e, "path": built.body_path(e.get("path", ""))} for e in result["errors"]])
    return built.record, result


def _in_words(result: dict | None, record) -> dict | None:
    """The engine's result in the page's language, each error and warning with ``where``: its
    path in words, seats named as in the record (``path_words``)."""
    if not result:
        return result
    seats = record.get("seats") if isinstance(record, dict) else None
    names = seats if isinstance(seats, list) else []
    shown = translate_result(result)
    for key in ("errors", "warnings"):
        if isinstance(shown.get(key), list):
            shown[key] = with_words(shown[key], names)
    return shown


@require_http_methods(["GET", "POST"])
def calculator(request):
    sample_name = request.GET.get("sample") or request.POST.get("sample") or ""
    text = request.POST.get("record", "")
    record = result = None
    parse_error = None
    form, game_key, players, build_problem = _builder(request)
    if request.method == "POST" and form is not None and "build" in request.POST:
        record, result = _evaluate_built(form, game_key)
        if record is not None:
            text = json.dumps(record, indent=1, ensure_ascii=False)
    elif request.method == "POST":
        try:
            record = json.loads(text)
        except (ValueError, RecursionError):
            parse_error = _("This is not valid JSON. Check the brackets, commas and quotes.")
        else:
            result = games.evaluate(record)
    elif sample_name in SAMPLES:
        text = json.dumps(SAMPLES[sample_name], indent=1, ensure_ascii=False)
    shown = _in_words(result, record)
    return render(request, "public/calculator.html", {
        "games": _games_in_words(),
        "player_counts": list(BUILD_PLAYERS),
        "game_key": game_key,
        "players": players,
        "build_problem": build_problem,
        "form": form.context() if form is not None else None,
        "samples": list(SAMPLES),
        "sample_name": sample_name,
        "text": text,
        "parse_error": parse_error,
        "result": shown,
        "described": describe_result(shown) if result and result.get("ok") else None,
        "result_json": json.dumps(result, indent=1, ensure_ascii=False) if result else "",
    }, status=200 if not parse_error and not build_problem and not (form and form.errors)
       and (result is None or result.get("ok")) else 400)


@never_cache
@require_GET
def server_time(request):
    """The server's clock, for static/js/clock.js to measure a phone's clock against (a session's
    clock counts down in the server's time). Nothing else: no tournament, no session."""
    return JsonResponse({"now": timezone.now().isoformat(timespec="milliseconds")})


# ---------------------------------------------------------------------------------------------
# A public tournament's pages

def public_view(view):
    """GET only; the tournament from the slug (NotFound, for anything not shown → 404); every
    read of the page on the replica when there is one (``selectors.replica``)."""

    @wraps(view)
    @require_GET
    def wrapped(request, slug, *args, **kwargs):
        try:
            with reading(replica=True):
                return view(request, public_tournament(slug), *args, **kwargs)
        except NotFound as e:
            raise Http404(e.message) from None

    return wrapped


def etag_matches(tag: str, if_none_match: str) -> bool:
    """Whether an If-None-Match header names ``tag``, by the weak comparison that header uses
    (RFC 9110 §13.1.2): ``W/"x"`` matches ``"x"``. GZipMiddleware turns the tag of a compressed
    answer into ``W/"x"``, and that is what the poller sends back."""
    return any(t == "*" or t.removeprefix("W/") == tag for t in (t.strip() for t in if_none_match.split(",")))


def live_answer(request, version: str, make):
    """The fragment ``make()`` renders, or 304 when the client's ETag still matches
    ``version``. ``no-cache``: a cache may keep it but must ask again every time."""
    # The language is part of the tag: the same data in another language is another answer.
    tag = f'"{version}-{get_language() or "en"}"'
    if etag_matches(tag, request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    else:
        response = make()
    response["ETag"] = tag
    response["Cache-Control"] = "no-cache"
    return response


#: Rows of a long list on a public page: a 10,000-player tournament's standings were 3.5 MB a
#: page (and a poll); a page of rows is some 90 kB, whatever the tournament's size.
STANDINGS_PAGE_SIZE = 100
#: Tables listed on the standings page, a page at a time (a session of 10,000 players has 2,500).
TABLES_PAGE_SIZE = 200
#: Players and transfers on the payouts page, each a page at a time.
PAYOUTS_PAGE_SIZE = 100
#: The longest search a visitor can type (a name, or a rank).
MAX_SEARCH = 100


def _asked_page(request, name: str) -> int | None:
    """``?<name>=`` as a page number (None when absent or not a whole number: the first page)."""
    return parse_whole_number(request.GET.get(name), low=1, high=MAX_INT32)


def _search(request) -> str:
    return (request.GET.get("q") or "").strip()[:MAX_SEARCH]


def _found(rows: list[dict], q: str, name: str = "name") -> list[dict]:
    """The rows whose player's name holds ``q`` (any case), or whose rank is ``q`` (a number):
    how a player finds their row when it is not on the first page."""
    if not q:
        return rows
    rank = parse_whole_number(q, low=1, high=MAX_INT32)   # "²" is text to look for, not a rank
    if rank is not None:
        return [r for r in rows if r.get("rank") == rank or q in str(r[name])]
    folded = q.casefold()
    return [r for r in rows if folded in r[name].casefold()]


def _page(rows: list, request, name: str, size: int) -> Page:
    return Page.of(rows, _asked_page(request, name), size)


def _query(request, *keep: str) -> str:
    """The page's query string, only the parameters the page reads (links to its other pages)."""
    return urlencode([(k, v) for k in keep for v in request.GET.getlist(k)])


def _standings_context(tournament, request) -> dict:
    keys = list(tournament.tie_breaks or DEFAULT_TIE_BREAKS)
    q = _search(request)
    rows = with_adjustment_lines(standings_for(tournament), tournament)
    found = _found(rows, q)
    return {"tournament": tournament, "standings": _page(found, request, "page", STANDINGS_PAGE_SIZE),
            # The standings' pager keeps the search only: its links are the same in the live
            # fragment, which is kept for everyone on that page and search.
            "entries": len(rows), "q": q, "query": _query(request, "page", "q"),
            "tie_break_keys": keys, "tie_breaks": tie_break_labels(keys),
            "places": list(range(1, place_count(tournament) + 1))}


def _live_src(request, tournament) -> str:
    """The standings' live fragment for the page shown (its page of rows, its search)."""
    query = _query(request, "page", "q")
    return reverse("public-tournament-live", args=[tournament.slug]) + (f"?{query}" if query else "")


@public_view
def tournament_page(request, tournament):
    return render(request, "public/tournament.html", {
        **_standings_context(tournament, request), "game": games.get_game(tournament.game),
        "tables": public_tables(tournament, _asked_page(request, "tables_page"), TABLES_PAGE_SIZE),
        "tables_query": _query(request, "page", "q", "tables_page"),
        "live_every": LIVE_EVERY_MS, "live_src": _live_src(request, tournament),
    })


#: How long a rendered standings fragment is kept for everyone asking for the same version, page
#: and search: at 10,000 entries ranking and drawing a page takes some 0.6 s, and after every deal
#: every spectator's poll asks for the new version. A name changed without a new deal shows
#: within this time.
LIVE_KEEP_SECONDS = 60


def _kept_fragment(request, tournament, version: str, make) -> HttpResponse:
    """``make()``'s HTML, drawn once per version, language, page and search (and the settings the
    fragment shows) for all pollers; drawn each time when the cache does not answer."""
    key = "live-standings:" + hashlib.sha256(repr((
        tournament.pk, version, get_language(), _asked_page(request, "page"), _search(request),
        tournament.tie_breaks, str(tournament.chip_value), tournament.currency)).encode()).hexdigest()
    try:
        html = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is down: draw it
        html = None
    if html is None:
        html = make()
        try:
            cache.set(key, html, LIVE_KEEP_SECONDS)
        except Exception:  # noqa: BLE001
            pass
    return HttpResponse(html)


@public_view
def tournament_live(request, tournament):
    """The standings part of the page shown: the same page of rows (``?page=``) and search (``?q=``)."""
    version = tournament_version(tournament)
    return live_answer(request, version, lambda: _kept_fragment(
        request, tournament, version,
        lambda: render_to_string("public/_standings_live.html", _standings_context(tournament, request), request)))


@public_view
def payouts_page(request, tournament):
    raw = request.GET.get("session")
    session = None
    sessions = list(tournament.sessions.values_list("number", flat=True))
    if raw:
        session = parse_whole_number(raw, low=1, high=MAX_INT32)
        if session not in sessions:
            raise Http404(_("No such session."))
    try:
        payouts = payouts_for(tournament, session=session)
    except (NotFound, ValidationFailed):
        raise Http404(_("No such session.")) from None
    # A long tournament's players and transfers a page at a time, both found by a player's name.
    q = _search(request)
    transfers = [t for t in payouts["transfers"] if not q or q.casefold() in t["from_name"].casefold()
                 or q.casefold() in t["to_name"].casefold()]
    return render(request, "public/payouts.html", {
        "tournament": tournament, "payouts": payouts, "sessions": sessions, "session": session, "q": q,
        "players": _page(_found(payouts["players"], q), request, "page", PAYOUTS_PAGE_SIZE),
        "transfers": _page(transfers, request, "transfers_page", PAYOUTS_PAGE_SIZE),
        "query": _query(request, "session", "q", "page", "transfers_page")})


@public_view
def player_page(request, tournament, player_id: int):
    entry = public_entry(tournament, player_id)  # NotFound: 404 (public_view)
    data = player_deals(tournament, entry)
    name = entry.player.name
    now = seats_now(tournament)
    totals = [d["total"] for d in data["deals"]]
    chart = step_chart(
        totals, chart_id="net-chart",
        title=_("Cumulative net of %(name)s") % {"name": name},
        desc=(ngettext("%(name)s's running net over %(count)s deal: %(total)s after the last one, "
                       "lowest %(low)s, highest %(high)s.",
                       "%(name)s's running net over %(count)s deals: %(total)s after the last one, "
                       "lowest %(low)s, highest %(high)s.", len(totals))
              % {"name": name, "count": len(totals), "total": data["total"],
                 "low": min([0, *totals]), "high": max([0, *totals])}),
        x_label=_("Deals"), y_label=_("Net"))
    return render(request, "public/player.html", {
        "tournament": tournament, "entry": entry, "name": name, "deals": data["deals"], "total": data["total"],
        # Where to next: the player's table and seat in the newest session.
        "where": where_now(name, now.places.get(entry.pk), now.session) if now.session else "",
        # Built and escaped by scoring.web.charts (every text in it goes through html.escape).
        "chart": mark_safe(chart),  # noqa: S308
    })
