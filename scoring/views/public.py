"""Public pages: the home page and the rules calculator."""

from __future__ import annotations

import json

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

import games
from games.samples import SAMPLES

from .. import selectors
from ..forms import DealForm
from ..presentation import describe_result
from ..records import round_build_record

#: Player counts the calculator's deal builder offers (each game allows some of them).
BUILD_PLAYERS = range(min(min(g.player_counts) for g in games.CATALOG.values()), games.MAX_PLAYERS + 1)

def home(request):
    return render(request, "public/home.html", {
        "games": list(games.CATALOG.values()),  # each with its key, name and blurb
        "samples": list(SAMPLES),
        "tournaments": selectors.tournament_list_for_home(request.user),
        "my_club_ids": set(selectors.club_list_for_user(request.user).values_list("pk", flat=True)),
    })


def _builder(request) -> tuple[DealForm | None, str, int, str]:
    """The deal builder's form for the game and player count asked (GET or POST), with
    seats named "Seat 1" …; (None, game, players, problem) when none is asked or they do not fit."""
    data = request.POST if request.method == "POST" else request.GET
    key = data.get("game", "")
    try:
        n = int(data.get("players", ""))
    except ValueError:
        n = 0
    if key not in games.CATALOG:
        return None, "", n, ""
    game = games.get_game(key)
    problem = game.player_count_error(n)
    if problem:
        return None, key, n, problem
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


@require_http_methods(["GET", "POST"])
def calculator(request):
    sample_name = request.GET.get("sample") or request.POST.get("sample") or ""
    text = request.POST.get("record", "")
    result = None
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
            parse_error = "This is not valid JSON. Check the brackets, commas and quotes."
        else:
            result = games.evaluate(record)
    elif sample_name in SAMPLES:
        text = json.dumps(SAMPLES[sample_name], indent=1, ensure_ascii=False)
    return render(request, "public/calculator.html", {
        "games": list(games.CATALOG.values()),
        "player_counts": list(BUILD_PLAYERS),
        "game_key": game_key,
        "players": players,
        "build_problem": build_problem,
        "form": form.context() if form is not None else None,
        "samples": list(SAMPLES),
        "sample_name": sample_name,
        "text": text,
        "parse_error": parse_error,
        "result": result,
        "described": describe_result(result) if result and result.get("ok") else None,
        "result_json": json.dumps(result, indent=1, ensure_ascii=False) if result else "",
    }, status=200 if not parse_error and not build_problem and not (form and form.errors)
       and (result is None or result.get("ok")) else 400)
