"""The director's pages under ``/director/``: clubs, players, tournaments, tables, deals.

Every page needs a logged-in director (a staff user, see ``scoring.actors``) and, for a club's
things, a director of that club; others get the login page or a 403 page. Views are thin:
read the form, call a service (every write) or a selector, redirect after a write.

A table's scorer link exists in plain text only right after ``table_create`` /
``table_scorer_token_rotate``, and only in the answer to that POST: the link page with the QR
code, rendered directly (``Cache-Control: no-store``), never stored anywhere (not in the
session either). That page then gives itself the address of the plain link page
(``static/js/replace-url.js``), so a reload asks for that page, which offers "New scorer link"
only. A form sent twice (a reload without JavaScript, Back and resubmit, a second tab) does not
act twice: a table that the same form already created is recognised (same name, same seats) and
a rotate form carries the link it replaces (``made``), so a stale one changes nothing; both
answer with the plain link page, saying so.
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import games

from .. import forms, links, selectors, services
from ..http import status_of
from games import get_game
from ..actors import require_club_visible
from ..auth import actor_from_request
from ..errors import DomainError, NotFound, PermissionDenied
from ..models import Club, Player, Table
from ..presentation import describe_deal, describe_rows
from .public import LIVE_EVERY_MS, live_answer
from .scorer import correction_page


# ---------------------------------------------------------------------------------------------
# Access

def _forbidden(request, message: str):
    return render(request, "director/forbidden.html", {"message": message}, status=403)


def director_required(view):
    """Login (else the login page), a director (else 403); the view gets the Actor. Domain
    PermissionDenied → 403 page, NotFound → 404."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        actor = actor_from_request(request)
        if not actor.is_director:
            return _forbidden(request, gettext("Only tournament directors may open these pages."))
        try:
            return view(request, actor, *args, **kwargs)
        except PermissionDenied as e:
            return _forbidden(request, e.message)
        except NotFound as e:
            raise Http404(e.message) from None

    return login_required(wrapped)


# Another club's things answer 404, like ids that do not exist.

def _club(actor, pk) -> Club:
    club = selectors.get_or_404(Club, pk=pk)
    require_club_visible(actor, club, "club")
    return club


def _tournament(actor, pk):
    t = selectors.tournament_get(pk)
    require_club_visible(actor, t.club, "tournament")
    return t


def _table(actor, pk):
    table = selectors.table_get(pk)
    require_club_visible(actor, table.session.tournament.club, "table")
    return table


def _round(actor, pk):
    rnd = selectors.round_get(pk)
    require_club_visible(actor, rnd.table.session.tournament.club, "deal")
    return rnd


def _errors_by_field(errors: list[dict], fields: tuple[str, ...]) -> dict[str, list[str]]:
    """Service errors by form field (the first part of the path); the rest under ``general``."""
    out: dict[str, list[str]] = {}
    for e in errors:
        head = (e.get("path") or "").split(".")[0].split("[")[0]
        out.setdefault(head if head in fields else "general", []).append(e.get("message", ""))
    return out


# ---------------------------------------------------------------------------------------------
# Home, clubs, players

@director_required
@require_GET
def home(request, actor):
    return _home(request, actor)


def _home(request, actor, *, club_errors=None, club_name="", status=200):
    return render(request, "director/home.html", {
        "clubs": selectors.club_list_for_user(request.user),
        "tournaments": selectors.tournament_list_for_director(request.user),
        "club_errors": club_errors or {}, "club_name": club_name,
    }, status=status)


@director_required
@require_POST
def club_create(request, actor):
    name = request.POST.get("name", "")
    try:
        club = services.club_create(actor=actor, name=name)
    except DomainError as e:
        return _home(request, actor, club_errors=_errors_by_field(e.errors, ("name",)), club_name=name,
                     status=status_of(e))
    messages.success(request, gettext("Club %(name)s created.") % {"name": club.name})
    return redirect("director-club", club.pk)


def _club_page(request, actor, club, *, status=200, **extra):
    ctx = {
        "club": club,
        "players": selectors.player_list(club),
        "tournaments": selectors.tournament_list_for_club(club),
        "game_choices": [(g.key, g.name_in(get_language() or "en")) for g in games.CATALOG.values()],
        "t": {"name": "", "game": "", "variant": {}, "public": True, "require_confirmation": False,
              "chip_value": "0", "currency": ""},
        "t_errors": {}, "player_names": "", "player_errors": [],
    }
    ctx.update(extra)
    # Every game's rule options; the chosen game's are sent (static/js/game-rules.js hides the rest).
    chosen = ctx["t"]["game"] or next(iter(games.CATALOG))
    ctx["rule_sets"] = [
        {"game": g.key, "name": g.name, "chosen": g.key == chosen,
         "fields": forms.variant_fields(g.key, ctx["t"]["variant"] if g.key == chosen else {},
                                        ctx["t_errors"] if g.key == chosen else {}, prefix=f"variant-{g.key}")}
        for g in games.CATALOG.values()]
    return render(request, "director/club.html", ctx, status=status)


@director_required
@require_GET
def club_page(request, actor, club_id: int):
    return _club_page(request, actor, _club(actor, club_id))


@director_required
@require_POST
def players_add(request, actor, club_id: int):
    """One player per line; each is its own service call, so good names are added even when
    another line is refused (the refused lines stay in the box with the reason)."""
    club = _club(actor, club_id)
    names = [n.strip() for n in (request.POST.get("names") or "").splitlines() if n.strip()]
    added, refused, errors = [], [], []
    for name in names:
        try:
            services.player_create(actor=actor, club=club, name=name)
        except DomainError as e:
            refused.append(name)
            errors.append(gettext("%(name)s: %(problem)s") % {"name": name, "problem": e.message})
        else:
            added.append(name)
    if not names:
        errors.append(gettext("Type at least one name."))
    if added:
        messages.success(request, ngettext("Added %(count)d player: %(names)s.", "Added %(count)d players: %(names)s.",
                                           len(added)) % {"count": len(added), "names": ", ".join(added)})
    if errors:
        return _club_page(request, actor, club, player_names="\n".join(refused), player_errors=errors, status=400)
    return redirect(reverse("director-club", args=[club.pk]) + "#players")


@director_required
@require_POST
def tournament_create(request, actor, club_id: int):
    club = _club(actor, club_id)
    p = request.POST
    game = p.get("game", "")
    t = {"name": p.get("name", ""), "game": game,
         "variant": forms.variant_from_post(game, p, prefix=f"variant-{game}") if game in games.CATALOG else {},
         "public": p.get("public") == "on", "require_confirmation": p.get("require_confirmation") == "on",
         "chip_value": p.get("chip_value", "") or "0", "currency": p.get("currency", "")}
    try:
        tournament = services.tournament_create(
            actor=actor, club=club, name=t["name"], game=game, variant=t["variant"], public=t["public"],
            require_confirmation=t["require_confirmation"], chip_value=t["chip_value"], currency=t["currency"])
    except DomainError as e:
        return _club_page(request, actor, club, t=t, t_errors=forms.setting_errors(e.errors), status=status_of(e))
    messages.success(request, gettext("Tournament %(name)s created. Add entries and tables, then start it.")
                     % {"name": tournament.name})
    return redirect("director-tournament", tournament.pk)


# ---------------------------------------------------------------------------------------------
# Tournaments

#: The seating form's choices, as the director reads them (``scoring.seating`` explains them).
SEATING_METHODS = [("balanced", gettext_lazy("Balanced: fewest repeated opponents")),
                   ("standings", gettext_lazy("By standings: strongest together")),
                   ("random", gettext_lazy("Random draw"))]
SEATING_LEFTOVERS = [("sit_out", gettext_lazy("Sit out (whoever sat out least)")),
                     ("smaller_tables", gettext_lazy("Smaller tables"))]


def _dashboard_data(tournament) -> dict:
    data = selectors.tournament_dashboard(tournament)
    tables = {row["table"].pk: row["table"] for s in data["sessions"] for row in s["tables"]}
    for d in data["disputed"]:
        d["table_obj"] = tables.get(d["table"])
        d["described"] = describe_deal(tournament.game, d["players"], d["outcome"])
    return data


def _dashboard(request, actor, tournament, *, status=200, **extra):
    data = _dashboard_data(tournament)
    counts = get_game(tournament.game).player_counts
    ctx = {
        **data,
        "live_every": LIVE_EVERY_MS,
        "game_name": get_game(tournament.game).name_in(get_language() or "en"),
        "variant_json": json.dumps(tournament.variant, ensure_ascii=False),
        "candidates": selectors.players_not_entered(tournament),
        "seat_slots": list(range(counts[-1])),
        "seat_min": counts[0],
        "table_form": {"name": "", "seats": []}, "table_errors": {}, "entry_errors": [],
        "seat_form": {"method": "balanced", "table_size": str(counts[-1]), "leftovers": "sit_out", "seed": ""},
        "seat_errors": {},
        "settings": {"name": tournament.name, "public": tournament.public,
                     "require_confirmation": tournament.require_confirmation,
                     "chip_value": tournament.chip_value, "currency": tournament.currency,
                     "variant": tournament.variant, "tie_breaks": tournament.tie_breaks},
        "settings_errors": {},
    }
    ctx["audit"] = _audit_panel(tournament)
    if tournament.is_running:  # what a finish leaves as it is, shown next to the Finish button
        unsettled = selectors.tournament_unsettled_deals(tournament)
        ctx["unsettled"] = unsettled
        ctx["unconfirmed_count"] = sum(1 for d in unsettled if d["status"] == "recorded")
        ctx["disputed_count"] = sum(1 for d in unsettled if d["disputed"])
    ctx.update(extra)
    ctx["variant_fields"] = forms.variant_fields(tournament.game, ctx["settings"]["variant"], ctx["settings_errors"])
    ctx["tie_break_fields"] = forms.tie_break_fields(ctx["settings"]["tie_breaks"], ctx["settings_errors"])
    ctx["seat_form"]["next_session"] = max((s["session"].number for s in data["sessions"]), default=0) + 1
    # Smaller tables only where the game allows more than one table size.
    ctx["seat_choices"] = {"method": SEATING_METHODS, "table_size": [str(c) for c in counts],
                           "leftovers": [(k, v) for k, v in SEATING_LEFTOVERS
                                         if k != "smaller_tables" or len(counts) > 1]}
    raw = ctx["table_form"].get("seats") or []
    ctx["seat_fields"] = [{"name": f"seat_{i}", "label": (gettext("Seat %(n)s (optional)") if i >= counts[0] else gettext("Seat %(n)s")) % {"n": i + 1},
                           "value": raw[i] if i < len(raw) else "",
                           "errors": ctx["table_errors"].get(f"seat_{i}", [])} for i in ctx["seat_slots"]]
    return render(request, "director/tournament.html", ctx, status=status)


@director_required
@require_GET
def tournament_page(request, actor, tournament_id: int):
    return _dashboard(request, actor, _tournament(actor, tournament_id))


@director_required
@require_GET
def tournament_live(request, actor, tournament_id: int):
    """The dashboard's live parts (disputes, tables, standings) for ``static/js/live.js``; 304
    while no deal has changed (see ``views.public`` for why it polls)."""
    tournament = _tournament(actor, tournament_id)
    return live_answer(request, selectors.tournament_version(tournament),
                       lambda: render(request, "director/_live.html", _dashboard_data(tournament)))


@director_required
@require_POST
def entries_add(request, actor, tournament_id: int):
    tournament = _tournament(actor, tournament_id)
    ids = request.POST.getlist("player")
    players = {str(p.pk): p for p in Player.objects.filter(club=tournament.club, pk__in=[i for i in ids if i.isdigit()])}
    added, errors = [], []
    for pid in ids:
        player = players.get(pid)
        if player is None:
            errors.append(gettext("No such player in this club."))
            continue
        try:
            services.entry_create(actor=actor, tournament=tournament, player=player)
        except DomainError as e:
            errors.append(gettext("%(name)s: %(problem)s") % {"name": player.name, "problem": e.message})
        else:
            added.append(player.name)
    if not ids:
        errors.append(gettext("Tick the players to enter."))
    if added:
        messages.success(request, gettext("Entered %(names)s.") % {"names": ", ".join(added)})
    if errors:
        return _dashboard(request, actor, tournament, entry_errors=errors, status=400)
    return redirect(reverse("director-tournament", args=[tournament.pk]) + "#entries")


def _status_change(request, actor, tournament_id, call, done):
    tournament = _tournament(actor, tournament_id)
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
    return _status_change(request, actor, tournament_id, services.tournament_start,
                          gettext("The tournament is running: scorers can enter deals."))


@director_required
@require_POST
def tournament_finish(request, actor, tournament_id: int):
    disputes_stay = request.POST.get("disputes_stay") == "on"
    return _status_change(request, actor, tournament_id,
                          lambda **kw: services.tournament_finish(**kw, disputes_stay=disputes_stay),
                          gettext("The tournament is finished and read-only."))


@director_required
@require_POST
def tournament_settings(request, actor, tournament_id: int):
    """The settings form. Before the start every setting is sent; once started the form no longer
    offers the rule options (the service would refuse them: stored results depend on them)."""
    tournament = _tournament(actor, tournament_id)
    p = request.POST
    sent = {"name": p.get("name", ""), "public": p.get("public") == "on",
            "require_confirmation": p.get("require_confirmation") == "on",
            "chip_value": p.get("chip_value", "").strip() or "0", "currency": p.get("currency", ""),
            "tie_breaks": forms.tie_breaks_from_post(p)}
    if tournament.status == "draft":
        sent["variant"] = forms.variant_from_post(tournament.game, p)
    try:
        services.tournament_update(actor=actor, tournament=tournament, **sent)
    except DomainError as e:
        shown = {**sent, "variant": sent.get("variant", tournament.variant)}
        return _dashboard(request, actor, tournament, settings=shown, settings_errors=forms.setting_errors(e.errors),
                          status=status_of(e))
    messages.success(request, gettext("Settings saved."))
    return redirect(reverse("director-tournament", args=[tournament.pk]) + "#settings")


# ---------------------------------------------------------------------------------------------
# Tables and scorer links

def _link_page(request, table, *, token: str | None = None, notice: str = "", status: int = 200):
    """The scorer link page: with ``token`` (the answer to the POST that made it) the link and
    its QR code, otherwise the "New scorer link" button. Never cached, by anyone."""
    ctx = {"table": table, "tournament": table.session.tournament, "seats": selectors.table_seats(table),
           "notice": notice}
    if token:
        url = links.scorer_url(token, request)
        ctx.update(url=url, qr=links.qr_svg(url, scale=6), loopback=links.is_loopback(url))
    response = render(request, "director/table_link.html", ctx, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _created_by_this_form(tournament, name: str, entries: list):
    """The table that this very form already created (same name, same entries in the same seats),
    when it is sent again; else None."""
    if not all(isinstance(e, int) for e in entries):
        return None
    for table in Table.objects.filter(session__tournament=tournament, name=name.strip()):
        if [seat.entry_id for seat in selectors.table_seats(table)] == entries:
            return table
    return None


@director_required
@require_http_methods(["GET", "POST"])
def table_create(request, actor, tournament_id: int):
    tournament = _tournament(actor, tournament_id)
    if request.method == "GET":  # the address of a create's answer, opened again
        return redirect(reverse("director-tournament", args=[tournament.pk]) + "#new-table")
    name = request.POST.get("name", "")
    raw = [request.POST.get(f"seat_{i}", "") for i in range(get_game(tournament.game).player_counts[-1])]
    chosen = [(i, r) for i, r in enumerate(raw) if r.strip()]
    entries = [int(r) if r.isdigit() else r for _, r in chosen]
    try:
        table, token = services.table_create(actor=actor, tournament=tournament, name=name, entries=entries)
    except DomainError as e:
        existing = _created_by_this_form(tournament, name, entries)
        if existing is not None:
            return _link_page(request, existing, status=409, notice=(
                gettext("%(table)s was already created by this form (it was sent twice): nothing was changed. "
                        "Its scorer link was shown when it was made and is not shown again.") % {"table": existing.name}))
        errors: dict[str, list[str]] = {}
        for err in e.errors:
            path = err.get("path") or ""
            key = "general"
            if path == "name":
                key = "name"
            elif path.startswith("entries[") and path[8:-1].isdigit() and int(path[8:-1]) < len(chosen):
                key = f"seat_{chosen[int(path[8:-1])][0]}"
            errors.setdefault(key, []).append(err.get("message", ""))
        return _dashboard(request, actor, tournament, status=status_of(e), table_errors=errors,
                          table_form={"name": name, "seats": raw})
    messages.success(request, gettext("Table %(table)s created.") % {"table": table.name})
    return _link_page(request, table, token=token)


def _is_current_link(table, made: str) -> bool:
    """Whether a rotate form's ``made`` (when the link it replaces was made, ISO 8601, written by
    the templates with ``|date:"c"``) names the table's current link."""
    try:
        return datetime.fromisoformat(made) == table.scorer_token_created_at
    except (TypeError, ValueError):
        return False


@director_required
@require_http_methods(["GET", "POST"])
def table_rotate(request, actor, table_id: int):
    table = _table(actor, table_id)
    if request.method == "GET":  # the address of a rotate's answer, opened again
        return redirect("director-table-link", table.pk)
    made = request.POST.get("made")
    if made is not None and not _is_current_link(table, made):
        return _link_page(request, table, status=409, notice=(
            gettext("The scorer link of %(table)s was already replaced (at %(time)s UTC) since this form was shown, "
                    "by this form sent twice or from another page: nothing was changed now. Need yet another link? "
                    "Press the button below.")
            % {"table": table.name, "time": f"{table.scorer_token_created_at:%H:%M:%S}"}))
    try:
        token = services.table_scorer_token_rotate(actor=actor, table=table)
    except DomainError as e:
        messages.error(request, e.message)
        return redirect("director-table", table.pk)
    messages.success(request, gettext("%(table)s has a new scorer link; the old one no longer works.") % {"table": table.name})
    return _link_page(request, table, token=token)


@director_required
@require_GET
def table_link(request, actor, table_id: int):
    """The page that a link page's address leads to: the link itself is shown only in the answer
    to the POST that made it; here, the button that makes a new one."""
    return _link_page(request, _table(actor, table_id))


@director_required
@require_GET
def table_page(request, actor, table_id: int):
    table = _table(actor, table_id)
    return _table_page(request, table)


def _table_page(request, table, *, round_errors=None, status=200):
    tournament = table.session.tournament
    return render(request, "director/table.html", {
        "table": table, "tournament": tournament, "writable": tournament.is_running,
        "totals": selectors.table_running_totals(table),
        "deals": describe_rows(tournament.game, selectors.table_history(table)),
        "round_errors": round_errors or {},
    }, status=status)


# ---------------------------------------------------------------------------------------------
# Seating a session: its printable sheet of links is the answer to the POST, shown once

@director_required
@require_http_methods(["GET", "POST"])
def session_seat(request, actor, tournament_id: int):
    """Seat the next session (``services.session_seat``) and answer with the sheet of its
    tables: seats, scorer links and QR codes, to print or show now. Like a new table's link page,
    the sheet is only ever this answer (``Cache-Control: no-store``, the plain tokens stored
    nowhere) and takes the tournament page's address, so a reload does not seat again; the
    form carries the session number it makes, so a form sent twice changes nothing."""
    tournament = _tournament(actor, tournament_id)
    if request.method == "GET":  # the address of a seating's answer, opened again
        return redirect(reverse("director-tournament", args=[tournament.pk]) + "#seat-session")
    p = request.POST
    form = {key: p.get(key, "") for key in ("method", "table_size", "leftovers", "seed")}
    size, expected = form["table_size"].strip(), p.get("next_session", "")
    try:
        seated = services.session_seat(
            actor=actor, tournament=tournament, method=form["method"],
            table_size=int(size) if size.isdigit() else size, leftovers=form["leftovers"], seed=form["seed"] or None,
            expected_number=int(expected) if expected.isdigit() else None)
    except DomainError as e:
        return _dashboard(request, actor, tournament, status=status_of(e), seat_form=form,
                          seat_errors=_errors_by_field(e.errors, ("method", "table_size", "leftovers", "seed")))
    messages.success(request, ngettext("Session %(number)s is seated: %(count)d table.",
                                       "Session %(number)s is seated: %(count)d tables.", len(seated.tables))
                     % {"number": seated.session.number, "count": len(seated.tables)})
    tables = []
    for table, token in seated.tables:
        url = links.scorer_url(token, request)
        tables.append({"table": table, "seats": seated.seats[table.pk], "url": url, "qr": links.qr_svg(url, scale=5)})
    response = render(request, "director/session_sheet.html", {
        "tournament": tournament, "session": seated.session, "tables": tables, "sit_outs": seated.sit_outs,
        "seed": seated.seed, "table_size": seated.table_size,
        "method": dict(SEATING_METHODS).get(seated.method, seated.method),
        "leftovers": dict(SEATING_LEFTOVERS).get(seated.leftovers, seated.leftovers),
        "loopback": any(links.is_loopback(t["url"]) for t in tables),
    })
    response["Cache-Control"] = "no-store"
    return response


@director_required
@require_http_methods(["GET", "POST"])
def session_sheet(request, actor, tournament_id: int, number: int):
    """A session's sheet printed again. Links are stored hashed and cannot be shown twice, so
    the sheet needs new links for all its tables: GET asks (the old cards stop working), POST
    makes them and answers with the sheet, once (``Cache-Control: no-store``)."""
    tournament = _tournament(actor, tournament_id)
    session = tournament.sessions.filter(number=number).first()
    if session is None:
        raise Http404
    if request.method == "GET":
        return render(request, "director/session_reprint.html", {"tournament": tournament, "session": session})
    try:
        made = services.session_scorer_tokens_rotate(actor=actor, session=session)
    except DomainError as e:
        messages.error(request, e.message)
        return redirect("director-tournament", tournament.pk)
    seats = {t.pk: [s.entry for s in selectors.table_seats(t)] for t, _token in made}
    tables = []
    for table, token in made:
        url = links.scorer_url(token, request)
        tables.append({"table": table, "seats": seats[table.pk], "url": url, "qr": links.qr_svg(url, scale=5)})
    response = render(request, "director/session_sheet.html", {
        "tournament": tournament, "session": session, "tables": tables, "reprint": True,
        "loopback": any(links.is_loopback(t["url"]) for t in tables)})
    response["Cache-Control"] = "no-store"
    return response


# ---------------------------------------------------------------------------------------------
# Deals

def _round_action(request, actor, round_id, call, done):
    rnd = _round(actor, round_id)
    try:
        call(rnd)
    except DomainError as e:
        return _table_page(request, rnd.table, round_errors={rnd.pk: [x["message"] for x in e.errors]},
                           status=status_of(e))
    messages.success(request, done % {"number": rnd.number, "table": rnd.table.name})
    return redirect(reverse("director-table", args=[rnd.table_id]) + f"#deal-{rnd.number}")


@director_required
@require_POST
def round_void(request, actor, round_id: int):
    reason = request.POST.get("reason", "")
    return _round_action(request, actor, round_id,
                         lambda rnd: services.round_void(actor=actor, round=rnd, reason=reason),
                         gettext("Deal %(number)s of %(table)s voided."))


@director_required
@require_POST
def round_resolve(request, actor, round_id: int):
    note = request.POST.get("note", "")
    return _round_action(request, actor, round_id,
                         lambda rnd: services.round_dispute_resolve(actor=actor, round=rnd, note=note),
                         gettext("The dispute about deal %(number)s of %(table)s is settled."))


@director_required
@require_POST
def round_confirm(request, actor, round_id: int):
    raw = request.POST.get("confirmed_by", "")
    confirmed_by = int(raw) if raw.isdigit() else None
    return _round_action(request, actor, round_id,
                         lambda rnd: services.round_confirm(actor=actor, round=rnd, confirmed_by=confirmed_by),
                         gettext("Deal %(number)s of %(table)s confirmed."))


@director_required
@require_http_methods(["GET", "POST"])
def round_correct(request, actor, round_id: int):
    rnd = _round(actor, round_id)
    return correction_page(request, table=rnd.table, rnd=rnd, actor=actor,
                           page_url=reverse("director-table", args=[rnd.table_id]),
                           action_url=reverse("director-round-correct", args=[rnd.pk]))


# ---------------------------------------------------------------------------------------------
# Replay audits: the "Audit" box of the tournament page, and that box alone for the page's
# polling script (static/js/site.js, data-poll) while an audit runs.

#: Findings listed on the page at most (the API sends more).
AUDIT_FINDINGS_SHOWN = 200


def _audit_panel(tournament, audit=None) -> dict:
    """What the audit box shows: the tournament and its latest audit (``audit_detail``, or None)."""
    audit = audit or selectors.audit_latest(tournament)
    detail = selectors.audit_detail(audit, limit=AUDIT_FINDINGS_SHOWN, table_names=True) if audit else None
    if detail:
        detail["active"] = audit.is_active
        detail["more"] = detail["findings_count"] - len(detail["findings"])
    return {"tournament": tournament, "latest": detail}


@director_required
@require_POST
def audit_start(request, actor, tournament_id: int):
    tournament = _tournament(actor, tournament_id)
    try:
        services.audit_start(actor=actor, tournament=tournament)
    except DomainError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, gettext("Audit under way: every deal is replayed and checked; nothing is changed."))
    return redirect(reverse("director-tournament", args=[tournament.pk]) + "#audit")


@director_required
@require_GET
def audit_box(request, actor, audit_id: int):
    audit = selectors.audit_get(audit_id)
    require_club_visible(actor, audit.tournament.club, "audit")
    response = render(request, "director/_audit.html", {"audit": _audit_panel(audit.tournament, audit)})
    response["Cache-Control"] = "no-store"
    return response


__all__ = ["home", "club_create", "club_page", "players_add", "tournament_create", "tournament_page", "tournament_settings",
           "entries_add", "tournament_start", "tournament_finish", "session_seat", "table_create", "table_rotate",
           "table_link", "table_page", "round_void", "round_resolve", "round_confirm", "round_correct", "audit_start", "audit_box"]
