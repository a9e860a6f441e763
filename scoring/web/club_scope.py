"""Each request's row scope (``scoring.domain.row_scope``): public until it is known whose it is.

The signed-in user is asked only when the first statement on a club-owned table runs (a
public page read by a visitor with no session costs nothing): a superuser reaches every row
(the admin), a director their clubs (the database reads which, ``gupai_scope_clubs()``). A
scorer link admits its table's club when it is found (``selectors.tables.table_by_scorer_token``),
a director's API token its director (``web.auth``).
"""

from __future__ import annotations

from scoring.domain import row_scope


class ClubScopeMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = row_scope.enter(row_scope.Scope(lazy_user=lambda: getattr(request, "user", None)))
        response = self.get_response(request)
        if not getattr(response, "streaming", False):
            # A stream reads on after this returns, in the request's scope; a thread serving the
            # next request starts it anew here.
            row_scope.leave(token)
        return response
