"""Public pages: the home page and the rules calculator."""

from __future__ import annotations

import json

from django.shortcuts import render
from django.views.decorators.http import require_http_methods

import games
from games.samples import SAMPLES

from .. import selectors
from ..presentation import describe_result

def home(request):
    return render(request, "public/home.html", {
        "games": list(games.CATALOG.values()),  # each with its key, name and blurb
        "samples": list(SAMPLES),
        "tournaments": selectors.tournament_list_for_home(request.user),
        "my_club_ids": set(selectors.club_list_for_user(request.user).values_list("pk", flat=True)),
    })


@require_http_methods(["GET", "POST"])
def calculator(request):
    sample_name = request.GET.get("sample") or request.POST.get("sample") or ""
    text = request.POST.get("record", "")
    result = None
    parse_error = None
    if request.method == "POST":
        try:
            record = json.loads(text)
        except (ValueError, RecursionError):
            parse_error = "This is not valid JSON. Check the brackets, commas and quotes."
        else:
            result = games.evaluate(record)
    elif sample_name in SAMPLES:
        text = json.dumps(SAMPLES[sample_name], indent=1, ensure_ascii=False)
    return render(request, "public/calculator.html", {
        "samples": list(SAMPLES),
        "sample_name": sample_name,
        "text": text,
        "parse_error": parse_error,
        "result": result,
        "described": describe_result(result) if result and result.get("ok") else None,
        "result_json": json.dumps(result, indent=1, ensure_ascii=False) if result else "",
    }, status=200 if not parse_error and (result is None or result.get("ok")) else 400)
