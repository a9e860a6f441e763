"""The correction form of a deal, behind a scorer link or a director's login: GET pre-fills it
from the current revision; POST previews or saves. The page's script may post it with
``Accept: application/json`` (a correction queued in the phone's outbox): the save is then
answered in JSON (``scoring.web.move_answers``)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from scoring.domain.errors import DomainError, PreconditionFailed, PreconditionRequired, ValidationFailed
from scoring.domain.inputs import MAX_NOTE
from scoring.domain.lifecycle import round_moves_allowed
from scoring.selectors.rounds import table_round_preview
from scoring.services import rounds as rounds_services
from scoring.web.http import parse_if_match, status_of
from scoring.web.move_answers import move_refused, move_saved, wants_json
from scoring.web.rule_messages import error_message
from scoring.web.scorer_answers import preview_context
from scoring.web.scorer_forms import deal_form_for, tournament_state


def correction_page(request, *, table, rnd, actor, page_url: str, action_url: str, extra: dict | None = None):
    """The correction form of a deal (scorer link or director): GET pre-fills it from the current
    revision's body with that revision's number hidden; POST previews or saves
    (``rounds_services.round_correct`` with ``expected_revision``: a concurrent change is a
    conflict). ``extra``: more for the page's template (the scorer's server clock)."""
    tournament = table.session.tournament
    writable, notice = tournament_state(tournament)
    refused = round_moves_allowed(rnd, actor, tournament=tournament)["round_correct"]
    problems = [notice] if notice else [refused.text] if refused else []
    ctx = {"table": table, "tournament": tournament, "round": rnd, "writable": writable and not problems,
           "page_url": page_url, "action_url": action_url, "problems": problems, "conflict": False,
           "preview": {}, "reason": "", "revision": rnd.current_revision.number, "max_note": MAX_NOTE, **(extra or {})}
    if request.method == "GET":
        form = deal_form_for(table, initial=rnd.current_revision.body, require_entered_by=False)
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()})
    form = deal_form_for(table, data=request.POST, require_entered_by=False)
    reason = (request.POST.get("reason") or "").strip()  # too long: the service says so under the field
    revision = request.POST.get("revision", "")
    ctx.update(reason=reason, revision=revision)
    as_json = wants_json(request) and request.POST.get("action") == "save"
    if problems:
        if as_json:
            return move_refused(refused.error(refused.text, code=refused.code))
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=409)
    body = form.body()
    if body is None:
        if as_json:
            return move_refused(ValidationFailed(gettext("Check the deal.")), errors=form.errors,
                                section_errors=form.section_errors())
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=400)
    if tournament.require_proof:  # the form offers no enterer: the deal keeps its proven one
        body = {**body, "entered_by": rnd.entered_by}
    if request.POST.get("action") != "save":
        preview = table_round_preview(table=table, body=body, round=rnd)
        if not preview.ok:
            form.add_service_errors(preview.errors)
        ctx["preview"] = preview_context(preview, tournament.game)
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()},
                      status=200 if preview.ok else 400)
    try:
        rounds_services.round_correct(actor=actor, round=rnd, body=body, reason=reason,
                                      expected_revision=parse_if_match(revision))
    except (PreconditionFailed, PreconditionRequired) as e:
        if as_json:
            return move_refused(e)
        ctx["conflict"] = True
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=409)
    except ValidationFailed as e:
        ctx["reason_errors"] = [err["message"] for err in e.errors if err.get("path") == "reason"]
        form.add_service_errors([err for err in e.errors if err.get("path") != "reason"])
        if as_json:
            errors = {**form.errors, **({"reason": ctx["reason_errors"]} if ctx["reason_errors"] else {})}
            return move_refused(ValidationFailed(error_message(e), errors=[]), errors=errors,
                                section_errors=form.section_errors())
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=400)
    except DomainError as e:
        if as_json:
            return move_refused(e)
        ctx["problems"] = [error_message(e)]
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=status_of(e))
    if as_json:
        return move_saved(rnd.number)
    messages.success(request, gettext("Deal %(number)s corrected.") % {"number": rnd.number})
    return redirect(page_url + f"#deal-{rnd.number}")
