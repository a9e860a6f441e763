"""Export and import in the browser.

- **Download**: a tournament's document (``selectors.exports.tournament_export``, the API's
  export) as a file, ``<slug>-<date>.json``, for the club's directors (others: 404).
- **Upload** on the club page: the file is read here (at most ``IMPORT_MAX_BYTES``, the API
  import's body limit, so that both take the same documents; larger: 413), kept by
  ``services.imports.tournament_import_queue`` and imported by a worker. What that refuses at
  once (text no database stores, a shape the documented schema does not allow) is shown on the
  club page's form with its path, as the form's own refusals are (400). The import's page
  shows its box, which polls itself (``static/js/live.js``, ``data-poll``) until the import is
  over; once done, the box sends the page on (``data-poll-go``) to the import's address, which
  leads to the new tournament.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from scoring.domain.errors import DomainError, problem
from scoring.selectors.access import require_club_visible
from scoring.selectors.exports import tournament_export
from scoring.selectors.imports import import_detail, import_get
from scoring.services import imports as imports_services
from scoring.views.director.access import director_required, visible_club, visible_tournament
from scoring.views.director.clubs import render_club_page
from scoring.web.document_problems import problem_in_words
from scoring.web.http import status_of


@director_required
@require_GET
def tournament_download(request, actor, tournament_id: int):
    tournament = visible_tournament(actor, tournament_id)
    try:
        document = tournament_export(tournament)
    except DomainError as e:   # a deal whose history does not verify: an audit's matter
        messages.error(request, e.message)
        return redirect(reverse("director-tournament", args=[tournament.pk]) + "#audit")
    # As the API writes it (compact, UTF-8), so the file imports anywhere the API's would.
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    # The slug is ASCII (slugify), the date the document's own: no quoting to worry about.
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-{document["exported_at"][:10]}.json"'
    response["Cache-Control"] = "no-store"   # the whole tournament: not for shared caches
    return response


def _refused(request, actor, club, code: str, message: str, *, status: int, path: str = ""):
    """The club page with the upload refused: ``message`` in the page's language already."""
    found = problem_in_words(problem(path, code, message), translated=True)
    return render_club_page(request, actor, club, import_problem=found, status=status)


def _not_json(value: str) -> None:
    raise ValueError(f"{value} is not a JSON number")


@director_required
@require_POST
def import_upload(request, actor, club_id: int):
    club = visible_club(actor, club_id)
    upload = request.FILES.get("document")
    if upload is None:
        return _refused(request, actor, club, "required", gettext("Choose a file exported from a tournament (.json)."),
                        status=400)
    limit = settings.IMPORT_MAX_BYTES
    if upload.size > limit:
        return _refused(request, actor, club, "too_large", gettext(
            "This file has %(size)s bytes; at most %(limit)s can be imported.") % {"size": upload.size, "limit": limit},
            status=413)
    try:
        document = json.loads(upload.read().decode("utf-8-sig"), parse_constant=_not_json)
    except UnicodeDecodeError:
        return _refused(request, actor, club, "not_json", gettext("This file is not text (UTF-8)."), status=400)
    except (ValueError, RecursionError) as e:
        where = gettext(" (line %(line)s, column %(column)s)") % {"line": e.lineno, "column": e.colno} \
            if isinstance(e, json.JSONDecodeError) else ""
        return _refused(request, actor, club, "not_json", gettext("This file is not a JSON document%(where)s.")
                        % {"where": where}, status=400)
    try:
        job = imports_services.tournament_import_queue(actor=actor, club=club, document=document, file_name=upload.name,
                                                       rated=request.POST.get("rated") == "on")
    except DomainError as e:
        return render_club_page(request, actor, club, import_problem=problem_in_words(e.errors[0] if e.errors else None),
                          status=status_of(e))
    return redirect("director-import", job.pk)


def _import(actor, import_id: int):
    job = import_get(import_id)
    require_club_visible(actor, job.club, "import")
    return job


@director_required
@require_GET
def import_page(request, actor, import_id: int):
    """The import's box while it runs or when it failed; once done, the new tournament."""
    job = _import(actor, import_id)
    detail = import_detail(job)
    if detail["status"] == "done" and detail["tournament"] is not None:
        messages.success(request, gettext("Tournament %(name)s imported. It is private until you publish it.")
                         % {"name": detail["tournament"].name})
        # To its mark ("imported", private until published) and the settings that publish it.
        return redirect(reverse("director-tournament", args=[detail["tournament"].pk]) + "#export")
    return render(request, "director/import.html", {"job": _shown(detail), "club": job.club})


@director_required
@require_GET
def import_box(request, actor, import_id: int):
    response = render(request, "director/_import_box.html", {"job": _shown(import_detail(_import(actor, import_id)))})
    response["Cache-Control"] = "no-store"
    return response


def _shown(detail: dict) -> dict:
    return {**detail, "problem": problem_in_words(detail["error"])}
