"""A tournament's roster page: rename a player, withdraw one or enter them again, a late entry,
delete an empty table of the latest session, delete the tournament while it is a draft.

Each form is small and posts one change to its service; a refusal shows the page again with the
message under the form that was sent (and the answer's status: 400, 409 ...); a change done
redirects to the page, at the row it changed."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from scoring.domain.errors import DomainError
from scoring.domain.inputs import MAX_ID, MAX_PLAYER_NAME, parse_whole_number
from scoring.models import Entry, Player
from scoring.selectors.roster import roster_for
from scoring.services import clubs as clubs_services
from scoring.services import roster as roster_services
from scoring.services import tournaments as tournaments_services
from scoring.views.director.access import director_required, visible_table, visible_tournament
from scoring.web.http import status_of
from scoring.web.presentation import session_table


def _page(request, tournament, *, status: int = 200, rename: dict | None = None, row_errors: dict | None = None,
          table_errors: dict | None = None, enter_errors: list | None = None, delete_errors: list | None = None):
    """The page; a refusal is shown at the row it belongs to: ``rename`` (player id → the name sent
    and its errors), ``row_errors`` (entry id → message), ``table_errors`` (table id → message)."""
    data = roster_for(tournament)
    rename, row_errors, table_errors = rename or {}, row_errors or {}, table_errors or {}
    for row in data["entries"]:
        e = row["entry"]
        sent = rename.get(e.player_id, {})
        row.update(name=sent.get("value", e.player.name), name_errors=sent.get("errors", []),
                   error=row_errors.get(e.pk))
    for row in data["tables"]:
        row["error"] = table_errors.get(row["table"].pk)
    return render(request, "director/roster.html", {
        "tournament": tournament, **data, "max_name": MAX_PLAYER_NAME,
        "enter_errors": enter_errors or [], "delete_errors": delete_errors or []}, status=status)


def _back(tournament, anchor: str = ""):
    return redirect(reverse("director-roster", args=[tournament.pk]) + (f"#{anchor}" if anchor else ""))


def _entry(tournament, entry_id: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player", "tournament__club"), pk=entry_id,
                             tournament=tournament)


@director_required
@require_GET
def roster_page(request, actor, tournament_id: int):
    return _page(request, visible_tournament(actor, tournament_id))


@director_required
@require_POST
def player_rename(request, actor, tournament_id: int, player_id: int):
    """Rename a player of the tournament's club (everywhere in the club)."""
    tournament = visible_tournament(actor, tournament_id)
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id, club=tournament.club_id)
    name = request.POST.get("name", "")
    before = player.name
    try:
        clubs_services.player_rename(actor=actor, player=player, name=name)
    except DomainError as e:
        return _page(request, tournament, status=status_of(e),
                     rename={player.pk: {"value": name, "errors": [err["message"] for err in e.errors]}})
    if player.name != before:
        messages.success(request, gettext("%(before)s is now %(after)s.") % {"before": before, "after": player.name})
    return _back(tournament, f"player-{player.pk}")


def _entry_change(request, actor, tournament_id: int, entry_id: int, call, done: str):
    tournament = visible_tournament(actor, tournament_id)
    entry = _entry(tournament, entry_id)
    try:
        call(actor=actor, entry=entry)
    except DomainError as e:
        return _page(request, tournament, status=status_of(e), row_errors={entry.pk: e.message})
    messages.success(request, done % {"name": entry.player.name})
    return _back(tournament, f"player-{entry.player_id}")


@director_required
@require_POST
def entry_withdraw(request, actor, tournament_id: int, entry_id: int):
    return _entry_change(request, actor, tournament_id, entry_id, roster_services.entry_withdraw,
                         gettext("%(name)s has withdrawn: their deals still count; seating leaves them out."))


@director_required
@require_POST
def entry_reenter(request, actor, tournament_id: int, entry_id: int):
    return _entry_change(request, actor, tournament_id, entry_id, roster_services.entry_reenter,
                         gettext("%(name)s is entered again: seated from the next session on."))


@director_required
@require_POST
def entry_late(request, actor, tournament_id: int):
    """Enter one player of the club (a late entry, once the tournament runs)."""
    tournament = visible_tournament(actor, tournament_id)
    pid = parse_whole_number(request.POST.get("player", ""), low=1, high=MAX_ID)
    player = Player.objects.filter(club=tournament.club_id, pk=pid).first() if pid is not None else None
    if player is None:
        return _page(request, tournament, status=400, enter_errors=[gettext("Choose a player of the club.")])
    try:
        tournaments_services.entry_create(actor=actor, tournament=tournament, player=player)
    except DomainError as e:
        return _page(request, tournament, status=status_of(e), enter_errors=[e.message])
    messages.success(request, gettext("Entered %(names)s.") % {"names": player.name})
    return _back(tournament, f"player-{player.pk}")


@director_required
@require_POST
def table_delete(request, actor, table_id: int):
    """Delete a table without deals; back to its tournament's roster."""
    table = visible_table(actor, table_id)
    tournament = table.session.tournament
    label = session_table(table.session.number, table.name)
    try:
        roster_services.table_delete(actor=actor, table=table)
    except DomainError as e:
        return _page(request, tournament, status=status_of(e), table_errors={table.pk: e.message})
    messages.success(request, gettext("%(table)s is deleted; its scorer link no longer works.") % {"table": label})
    return _back(tournament, "tables")


@director_required
@require_POST
def tournament_delete(request, actor, tournament_id: int):
    """Delete a draft tournament; to its club's page."""
    tournament = visible_tournament(actor, tournament_id)
    try:
        roster_services.tournament_delete(actor=actor, tournament=tournament)
    except DomainError as e:
        return _page(request, tournament, status=status_of(e), delete_errors=[e.message])
    messages.success(request, gettext("%(name)s is deleted.") % {"name": tournament.name})
    return redirect("director-club", tournament.club_id)
