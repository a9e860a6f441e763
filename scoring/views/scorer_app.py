"""The installed scorer app: its web app manifest (``/manifest.webmanifest``), its service worker
(``/sw.js``) and the phone's tables page (``/s/``).

The worker is served from the site's root (so its URL does not change with collectstatic's
hashed names) and controls the scorer pages only: registered with scope ``/s/``, which
``Service-Worker-Allowed`` allows. What it keeps and its version: ``scoring.web.scorer_app``.
The tables page is the same for every phone and every table, in the user's language: its
script (static/js/scorer-home.js) lists the tables this phone opened, from its IndexedDB.
"""

from __future__ import annotations

import json

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scoring.web import scorer_app
from scoring.web.tile_art import ACCENT

#: The pages' background (static/css/site.css, --bg): the splash screen of the installed app.
BACKGROUND = "#faf7f2"
#: How long a scorer page's navigation waits for the network before the kept copy is shown (ms).
NETWORK_TIMEOUT_MS = 4000
#: The Background Sync tag under which the worker sends the outbox.
SYNC_TAG = "gupai-outbox"


@require_safe
@never_cache
def manifest(request):
    home = reverse("scorer-home")
    icons = [{"src": static(f"icons/app-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": purpose} for size in (192, 512) for purpose in ("any", "maskable")]
    body = {
        "name": gettext("Gupai Club"),
        "short_name": gettext("Gupai"),
        "description": gettext("Score your table's deals, with or without the network."),
        "lang": get_language(),
        "id": home,
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "theme_color": ACCENT,
        "background_color": BACKGROUND,
        "icons": icons,
    }
    return JsonResponse(body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


@require_safe
def service_worker(request):
    template = loader.get_template(scorer_app.WORKER_TEMPLATE)
    home = reverse("scorer-home")
    pages = [home]
    context = {
        "version": scorer_app.worker_version(template.template.source, pages),
        "precache": json.dumps(scorer_app.precached_urls()),
        "pages": json.dumps(pages),
        "scripts": json.dumps(scorer_app.worker_script_urls()),
        "home": json.dumps(home),
        "timeout": NETWORK_TIMEOUT_MS,
        "sync_tag": json.dumps(SYNC_TAG),
    }
    response = HttpResponse(template.render(context, request), content_type="text/javascript; charset=utf-8")
    # Asked again at every check for an update: a new version must reach the phone at once.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = home
    return response


@require_safe
@never_cache
def scorer_home(request):
    return render(request, "scorer/home.html")


__all__ = ["manifest", "service_worker", "scorer_home", "BACKGROUND", "NETWORK_TIMEOUT_MS", "SYNC_TAG"]
