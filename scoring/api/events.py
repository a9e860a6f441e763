"""``GET /api/v1/tournaments/{id}/events/`` when Django itself answers it (``manage.py runserver``,
a plain WSGI server): the same access and the same first frames as the stream
(``scoring.web.event_stream``, which ``gupai_site.asgi`` serves in every real deployment), then
the answer ends. The browser's EventSource then reconnects after ``retry`` with
``Last-Event-ID`` and live.js polls meanwhile: a stream held open would hold a worker.
"""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.views.decorators.http import require_GET

from scoring.web.events import Refused, backlog, first_bytes, parse_last_event_id, stream_tournament


@require_GET
def tournament_events(request, pk: int):
    try:
        tournament_id = stream_tournament(request, pk)
    except Refused as r:
        response = JsonResponse(r.body, status=r.status)
        for name, value in r.headers.items():
            response[name] = value
        return response
    after = parse_last_event_id(request.headers.get("Last-Event-ID"))
    version, frames = backlog(tournament_id, after)
    _last_sent, body = first_bytes(version, frames, new_client=after is None)
    response = HttpResponse(body, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"
    return response
