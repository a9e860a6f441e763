"""Root URLs, split by audience as Tabbycat does: public pages, the director's pages, the
scorer's private table links, and the API (plus its schema and docs)."""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from gupai_site import health, metrics, root_files
from scoring.api.base import NotFoundView
from scoring.views import scorer_app

#: The Content-Security-Policy (settings) keeps every page to its own files, with no inline script
#: or style. ReDoc alone needs more, as found in a browser (tests/browser/test_csp.py): its
#: styled-components write <style> elements at run time, and its search runs in a web worker made
#: from a blob: URL. Swagger UI needs nothing more (it styles elements through the DOM, which the
#: policy allows), nor does the admin.
REDOC_CSP = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})

urlpatterns = [
    path("robots.txt", root_files.robots_txt, name="robots-txt"),
    path("favicon.ico", root_files.favicon, name="favicon"),
    # The installed scorer app: at the root, so that their URLs never change (the worker's
    # scope is /s/, which its Service-Worker-Allowed header allows).
    path("manifest.webmanifest", scorer_app.manifest, name="web-manifest"),
    path("sw.js", scorer_app.service_worker, name="service-worker"),
    # For the load balancer and the operator: alive, ready (JSON), and Prometheus' metrics
    # (loopback or METRICS_TOKEN only). See docs/reliability.md.
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", metrics.metrics, name="metrics"),
    path("admin/", admin.site.urls),
    # The language switch of every page (base.html) posts here. Without a CSRF token: public pages
    # carry none (they are the same for everybody), and a forged switch changes only a language.
    # No i18n_patterns: URLs (scorer links, QR codes) never change with the language.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI and ReDoc from the project's static files (drf-spectacular-sidecar), no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/swagger_ui.html"),
         name="api-docs"),
    path("api/redoc/", REDOC_CSP(SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html")),
         name="api-redoc"),
    path("api/v1/", include("scoring.api.urls")),
    # Whatever else is under /api/ answers a JSON 404. Slashed paths only, so that APPEND_SLASH
    # still redirects "/api/v1/clubs" to "/api/v1/clubs/".
    re_path(r"^api/(?:.*/)?$", NotFoundView.as_view()),
    path("director/", include("scoring.urls_director")),
    path("s/", include("scoring.urls_scorer")),
    path("", include("scoring.urls_public")),
]

# A host not allowed is told the site's address (SITE_URL), not a bare "Bad Request (400)".
handler400 = "scoring.views.refusals.bad_request"
