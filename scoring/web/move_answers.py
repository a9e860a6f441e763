"""A deal's moves from a scorer page — correct, confirm, dispute — answered in JSON when the
page's script asks (``Accept: application/json``: a move queued in the phone's outbox and sent
when the network returns); without it the pages answer as ever (a redirect, or the page again
with the errors). One shape for the three:

- 200 ``{"status": "saved", "number"}``;
- 400 ``{"status": "invalid", "errors": {<input>: [messages]}, "section_errors", "message"}``:
  the errors at the form's inputs (``reason``, ``message``, ``confirmed_by_code``, or the deal's
  own inputs for a correction), those at no input in ``section_errors``;
- 409 ``{"status": "conflict", "message", "code"}``: the deal or its session moved on (a
  correction of a revision no longer current, a closed session, a deal confirmed meanwhile);
- other 4xx ``{"status": "error", "message", "code", "errors"}``: any other refusal (a wrong
  player's code: ``wrong_player_code``, at ``confirmed_by_code`` in ``errors`` too).
"""

from __future__ import annotations

from django.http import JsonResponse

from scoring.domain.errors import Conflict, DomainError, PreconditionFailed, PreconditionRequired, ValidationFailed
from scoring.web.http import status_of
from scoring.web.rule_messages import error_message, translate_message


def wants_json(request) -> bool:
    """The page's own scripts (static/js/deal-drafts.js, the outbox) post with fetch and read JSON."""
    return "application/json" in request.headers.get("Accept", "")


def move_saved(number: int) -> JsonResponse:
    return JsonResponse({"status": "saved", "number": number})


def errors_at(error: DomainError, errors: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """``errors`` (the inputs' own, as a form found them) with the refusal's errors that name an
    input added at it, in the page's language."""
    out = {name: list(messages) for name, messages in (errors or {}).items()}
    for e in error.errors:
        if e.get("path"):
            message = translate_message(str(e.get("code", "")), e.get("message") or "") or e.get("message") or ""
            if message not in out.setdefault(e["path"], []):
                out[e["path"]].append(message)
    return out


def move_invalid(errors: dict[str, list[str]], section_errors: list[str], message: str) -> JsonResponse:
    return JsonResponse({"status": "invalid", "errors": errors, "section_errors": section_errors,
                         "message": message}, status=400)


def move_refused(error: DomainError, *, errors: dict[str, list[str]] | None = None,
                 section_errors: list[str] | None = None) -> JsonResponse:
    """A refused move in the shape above: bad input, a conflict, or any other refusal (its own
    status). ``errors``, ``section_errors``: what the move's form found besides (a correction)."""
    message = error_message(error)
    code = error.errors[0].get("code", "") if error.errors else ""
    if isinstance(error, ValidationFailed):
        general = [e["message"] for e in error.errors if not e.get("path")]
        return move_invalid(errors_at(error, errors), [*(section_errors or []), *general], message)
    if isinstance(error, (Conflict, PreconditionFailed, PreconditionRequired)):
        return JsonResponse({"status": "conflict", "message": message, "code": code}, status=409)
    return JsonResponse({"status": "error", "message": message, "code": code, "errors": errors_at(error, errors)},
                        status=status_of(error))
