"""A tournament's page, the director's console (live), its entries, start, finish and settings."""

from __future__ import annotations

import json
import secrets

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games import get_game
from scoring.domain.errors import DomainError
from scoring.domain.inputs import MAX_CLOCK_MINUTES, MAX_ID, MAX_INT32, MAX_NOTE, parse_whole_number
from scoring.models import Player
from scoring.selectors.adjustments import adjustments_panel
from scoring.selectors.checkins import check_in_session, session_check_ins
from scoring.selectors.dashboards import console_live, console_version, tournament_dashboard
from scoring.selectors.push import push_counts, push_enabled
from scoring.selectors.referees import referee_list
from scoring.selectors.tournaments import (
    players_not_entered,
    tournament_awaits_publishing,
    tournament_ever_published,
    tournament_imported,
)
from scoring.services import tournaments as tournaments_services
from scoring.views.director.access import director_required, visible_tournament
from scoring.views.director.audits import audit_panel
from scoring.views.public import LIVE_EVERY_MS, live_answer
from scoring.web import tournament_form
from scoring.web.deal_moves import with_moves
from scoring.web.http import status_of
from scoring.web.presentation import describe_deal

#: What the dashboard's clock form offers first, in minutes (a club session's usual length).
DEFAULT_CLOCK_MINUTES = 90

#: The console's long lists, each paged by its own query parameter (``?deals_page=2``): disputes,
#: the deals a finish leaves unsettled, recent actions.
CONSOLE_PAGES = ("disputes_page", "deals_page", "actions_page")

#: The seating form's choices, as the director reads them (``scoring.domain.seating`` explains them).
SEATING_METHODS = [("balanced", gettext_lazy("Balanced: fewest repeated opponents")),
                   ("standings", gettext_lazy("By standings: strongest together")),
                   ("random", gettext_lazy("Random draw"))]
SEATING_ENTRIES = [("all", gettext_lazy("Every player not withdrawn")),
                   ("checked_in", gettext_lazy("Only the players checked in"))]
SEATING_LEFTOVERS = [("sit_out", gettext_lazy("Sit out (whoever sat out least)")),
                     ("smaller_tables", gettext_lazy("Smaller tables"))]


def _asked(request) -> dict:
    """What the console is asked to show: ``session`` (its number: a raw value that is none is
    a session that does not exist, 404) and the page of each long list (anything but a page
    number is the first; beyond the last, the last)."""
    get = request.GET
    raw = get.get("session")
    session = None
    if raw is not None:
        session = parse_whole_number(raw, low=1, high=MAX_INT32)
        if session is None:
            raise Http404(gettext("No such session."))
    pages = {name: parse_whole_number(get.get(name), low=1, high=MAX_INT32, clamp=True) for name in CONSOLE_PAGES}
    return {"session": session, **pages}


def _with_moves(data: dict, actor, tournament, failed: dict | None = None) -> dict:
    for d in with_moves(list(data["disputed"]), actor, tournament, failed=failed):
        d["described"] = describe_deal(tournament.game, d["players"], d["outcome"])
        if d.get("at_dispute"):
            at = d["at_dispute"]
            at["described"] = describe_deal(tournament.game, at["players"], at["outcome"])
    return data


def _live_context(request, data: dict) -> dict:
    """What the live parts need besides the data: the page's query (the pagers' links and the
    settle forms keep it) and the live address, asking for the same session and pages."""
    query = request.GET.urlencode()
    live = reverse("director-tournament-live", args=[data["tournament"].pk])
    # The console's own address: its links hold it (the console also answers forms, at their address).
    return {**data, "query": query, "live_src": f"{live}?{query}" if query else live, "max_note": MAX_NOTE,
            "console_url": reverse("director-tournament", args=[data["tournament"].pk])}


def render_dashboard(request, actor, tournament, *, status=200, failed=None, **extra):
    data = _with_moves(tournament_dashboard(tournament, **_asked(request)), actor, tournament, failed)
    if failed and all(d["id"] != failed["id"] for d in data["disputed"]):
        # A dispute no longer listed (settled meanwhile, by another hand): the refusal on top.
        messages.error(request, " ".join(failed["errors"] + failed["general"]))
    counts = get_game(tournament.game).player_counts
    ctx = {
        **_live_context(request, data),
        "live_every": LIVE_EVERY_MS,
        "game_name": get_game(tournament.game).name_in(get_language() or "en"),
        "variant_json": json.dumps(tournament.variant, ensure_ascii=False),
        "candidates": players_not_entered(tournament),
        "seat_slots": list(range(counts[-1])),
        "seat_min": counts[0],
        "table_form": {"name": "", "seats": []}, "table_errors": {}, "entry_errors": [],
        "seat_form": {"method": "balanced", "table_size": str(counts[-1]), "leftovers": "sit_out", "seed": "",
                      "keep_open": False},
        "clock_minutes": DEFAULT_CLOCK_MINUTES, "max_clock_minutes": MAX_CLOCK_MINUTES,
        "seat_errors": {},
        "settings": {"name": tournament.name, "public": tournament.public,
                     "require_confirmation": tournament.require_confirmation,
                     "require_proof": tournament.require_proof, "rated": tournament.rated,
                     "chip_value": tournament.chip_value, "currency": tournament.currency,
                     "variant": tournament.variant, "tie_breaks": tournament.tie_breaks,
                     "entry_level": tournament.start_level},
        "settings_errors": {},
    }
    ctx["audit"] = audit_panel(tournament)
    # Web Push's counts (director/_push_counts.html), only where the site sends notifications.
    ctx["push_counts"] = push_counts(tournament) if push_enabled() else None
    ctx["imported"] = tournament_imported(tournament)   # marked on the page (director/_import_export.html)
    ctx["publishable"] = tournament_awaits_publishing(tournament, imported=ctx["imported"])   # a finished import, still private
    ctx.update(adjustments_panel(tournament))
    ctx.update(referees=list(referee_list(tournament)), referee_username="", referee_errors=[])
    ctx["trial_copy"] = ctx["imported"] and not tournament_ever_published(tournament)   # may be deleted
    ctx.update(extra)
    ctx["variant_fields"] = tournament_form.variant_fields(tournament.game, ctx["settings"]["variant"], ctx["settings_errors"])
    ctx["tie_break_fields"] = tournament_form.tie_break_fields(ctx["settings"]["tie_breaks"], ctx["settings_errors"])
    ctx["entry_levels"] = tournament_form.entry_level_options(tournament.game)
    ahead = check_in_session(tournament)   # opened for check-in: the seating fills it
    ctx["check_in"] = session_check_ins(ahead) if ahead is not None else None
    ctx["seat_form"]["next_session"] = (ahead.number if ahead is not None
                                        else max((s.number for s in data["sessions"]), default=0) + 1)
    ctx["seat_form"].setdefault("entries", "checked_in" if ahead is not None else "all")
    # Drawn with the form: the same form sent twice seats once (services.seating, Idempotency-Key).
    ctx["seat_form"]["idempotency_key"] = secrets.token_urlsafe(18)
    # Smaller tables only where the game allows more than one table size.
    ctx["seat_choices"] = {"method": SEATING_METHODS, "table_size": [str(c) for c in counts], "entries": SEATING_ENTRIES,
                           "leftovers": [(k, v) for k, v in SEATING_LEFTOVERS
                                         if k != "smaller_tables" or len(counts) > 1]}
    raw = ctx["table_form"].get("seats") or []
    ctx["seat_fields"] = [{"name": f"seat_{i}", "label": (gettext("Seat %(n)s (optional)") if i >= counts[0] else gettext("Seat %(n)s")) % {"n": i + 1},
                           "value": raw[i] if i < len(raw) else "", "required": i < counts[0],
                           "errors": ctx["table_errors"].get(f"seat_{i}", [])} for i in ctx["seat_slots"]]
    return render(request, "director/tournament.html", ctx, status=status)


@director_required
@require_GET
def tournament_page(request, actor, tournament_id: int):
    return render_dashboard(request, actor, visible_tournament(actor, tournament_id))


@director_required
@require_GET
def tournament_live(request, actor, tournament_id: int):
    """The console's live parts (the finish count, disputes, the session's state and its tables,
    standings) for ``static/js/live.js``, for the session and page the console shows; 304 while
    nothing changed (``console_version``: one query that reads no deal; see ``views.public`` for
    why it polls)."""
    tournament = visible_tournament(actor, tournament_id)
    asked = _asked(request)
    now = timezone.now()
    version = console_version(tournament, now=now)

    def make():
        data = console_live(tournament, session=asked["session"], disputes_page=asked["disputes_page"], now=now)
        return render(request, "director/_live.html", _live_context(request, _with_moves(data, actor, tournament)))

    return live_answer(request, version, make)


@director_required
@require_POST
def entries_add(request, actor, tournament_id: int):
    tournament = visible_tournament(actor, tournament_id)
    ids = request.POST.getlist("player")
    wanted = [parse_whole_number(i, low=1, high=MAX_ID) for i in ids]   # None: no player's id
    players = Player.objects.filter(club=tournament.club, pk__in=[i for i in wanted if i is not None]).in_bulk()
    added, errors = [], []
    for pid in wanted:
        player = players.get(pid)
        if player is None:
            errors.append(gettext("No such player in this club."))
            continue
        try:
            tournaments_services.entry_create(actor=actor, tournament=tournament, player=player)
        except DomainError as e:
            errors.append(gettext("%(name)s: %(problem)s") % {"name": player.name, "problem": e.message})
        else:
            added.append(player.name)
    if not ids:
        errors.append(gettext("Tick the players to enter."))
    if added:
        messages.success(request, gettext("Entered %(names)s.") % {"names": ", ".join(added)})
    if errors:
        return render_dashboard(request, actor, tournament, entry_errors=errors, status=400)
    return redirect(reverse("director-tournament", args=[tournament.pk]) + "#entries")


def _status_change(request, actor, tournament_id, call, done):
    tournament = visible_tournament(actor, tournament_id)
    try:
        call(actor=actor, tournament=tournament)
    except DomainError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, done)
    return redirect("director-tournament", tournament.pk)


@director_required
@require_POST
def tournament_start(request, actor, tournament_id: int):
    return _status_change(request, actor, tournament_id, tournaments_services.tournament_start,
                          gettext("The tournament is running: scorers can enter deals."))


@director_required
@require_POST
def tournament_finish(request, actor, tournament_id: int):
    disputes_stay = request.POST.get("disputes_stay") == "on"
    return _status_change(request, actor, tournament_id,
                          lambda **kw: tournaments_services.tournament_finish(**kw, disputes_stay=disputes_stay),
                          gettext("The tournament is finished and read-only."))


@director_required
@require_POST
def tournament_settings(request, actor, tournament_id: int):
    """The settings form. Before the start every setting is sent; once started the form no longer
    offers the rule options (the service would refuse them: stored results depend on them)."""
    tournament = visible_tournament(actor, tournament_id)
    p = request.POST
    sent = {"name": p.get("name", ""), "public": p.get("public") == "on",
            "require_confirmation": p.get("require_confirmation") == "on",
            "require_proof": p.get("require_proof") == "on",
            "rated": p.get("rated") == "on",
            "chip_value": p.get("chip_value", "").strip() or "0", "currency": p.get("currency", ""),
            "tie_breaks": tournament_form.tie_breaks_from_post(p)}
    if "entry_level" in p:
        sent["entry_level"] = p["entry_level"]
    if tournament.status == "draft":
        sent["variant"] = tournament_form.variant_from_post(tournament.game, p)
    elif tournament.status == "finished":   # read-only: only publishing a private import
        sent = {"public": p.get("public") == "on"}
    try:
        tournaments_services.tournament_update(actor=actor, tournament=tournament, **sent)
    except DomainError as e:
        shown = {**sent, "variant": sent.get("variant", tournament.variant)}
        return render_dashboard(request, actor, tournament, settings=shown, settings_errors=tournament_form.setting_errors(e.errors),
                          status=status_of(e))
    messages.success(request, gettext("Settings saved."))
    return redirect(reverse("director-tournament", args=[tournament.pk]) + "#settings")
