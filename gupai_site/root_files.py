"""What a site answers at its root for robots and browsers, and which pages robots keep out of.

``/robots.txt``   the public pages may be crawled; scorer links, the director's pages, the API
                  and the admin may not
``/favicon.ico``  browsers ask for it without looking at the page (and old ones cannot show the
                  SVG icon base.html names): sent to the icon among the static files
Scorer and director pages also say ``noindex`` themselves (a link found elsewhere is not crawled,
but could still be listed by its address alone): the ``X-Robots-Tag`` header
(``NoIndexMiddleware``) and ``<meta name="robots">`` (base.html, from ``robots_context``).
"""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseRedirect
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

#: The pages robots must not index: a table's scorer link (its token is the only key) and the
#: director's pages (the mount points of gupai_site/urls.py).
NOINDEX_PREFIXES = ("/s/", "/director/")
#: Also not crawled: the API (and its docs) and the admin.
DISALLOWED_PREFIXES = (*NOINDEX_PREFIXES, "/api/", "/admin/")
NOINDEX = "noindex, nofollow"


def is_noindex(request) -> bool:
    return request.path_info.startswith(NOINDEX_PREFIXES)


def robots_context(request) -> dict:
    """The template context processor: ``noindex`` on the pages robots must not index."""
    return {"noindex": is_noindex(request)}


class NoIndexMiddleware:
    """``X-Robots-Tag: noindex, nofollow`` on every answer under a private prefix (pages, their
    live fragments, redirects), whatever the template."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if is_noindex(request):
            response["X-Robots-Tag"] = NOINDEX
        return response


@require_safe
@cache_control(public=True, max_age=86400)
def robots_txt(request):
    lines = ["# Gupai Club: the public pages (standings, tables, the rules calculator) may be crawled;",
             "# scorer links, the director's pages, the API and the admin may not.",
             "User-agent: *",
             *(f"Disallow: {prefix}" for prefix in DISALLOWED_PREFIXES),
             "Allow: /", ""]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")


@require_safe
@cache_control(public=True, max_age=86400)
def favicon(request):
    # Not permanent: the target's name carries a hash of the file (collectstatic), which changes
    # with the icon.
    return HttpResponseRedirect(static("img/favicon.ico"))
