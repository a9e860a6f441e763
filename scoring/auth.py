"""API authentication for scorer links, and resolving the actor of a request.

``Authorization: Scorer <token>`` authenticates as the scorer of one table: ``request.user`` is
a ``ScorerPrincipal`` (authenticated, not staff) and ``request.auth`` is the Table. Directors
use ``Authorization: Token <token>`` (DRF authtoken) or the session.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from . import selectors
from .actors import Actor


class ScorerPrincipal:
    """The holder of a table's scorer link."""

    is_authenticated = True
    is_anonymous = False
    is_active = True
    is_staff = False
    is_superuser = False
    pk = None
    id = None

    def __init__(self, table):
        self.table = table

    def get_username(self) -> str:
        return f"scorer:{self.table.pk}"

    def __str__(self) -> str:
        return f"scorer of table {self.table.name}"


class ScorerAuthentication(authentication.BaseAuthentication):
    keyword = "Scorer"

    def authenticate(self, request):
        auth = authentication.get_authorization_header(request).split()
        if not auth or auth[0].lower() != self.keyword.lower().encode():
            return None
        if len(auth) != 2:
            raise exceptions.AuthenticationFailed("Send Authorization: Scorer <token>.")
        try:
            token = auth[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("The scorer token is not valid.") from None
        table = selectors.table_by_scorer_token(token)
        if table is None:
            raise exceptions.AuthenticationFailed("This scorer link is not valid (it may have been replaced).")
        return ScorerPrincipal(table), table

    def authenticate_header(self, request):
        return self.keyword


class ScorerAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "scoring.auth.ScorerAuthentication"
    name = "scorerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "A table's scorer link token: `Authorization: Scorer <token>`. "
                               "It reads and records the rounds of that one table, while its tournament runs."}


def client_ip(request) -> str | None:
    ip = request.META.get("REMOTE_ADDR") or None
    return ip


def actor_from_request(request, *, table=None) -> Actor:
    """The Actor of an API or page request. ``table``: a page view that resolved a scorer link
    from its URL passes the table."""
    ip = client_ip(request)
    if table is not None:
        return Actor(table=table, ip=ip)
    user = getattr(request, "user", None)
    if isinstance(user, ScorerPrincipal):
        return Actor(table=user.table, ip=ip)
    if user is not None and getattr(user, "is_authenticated", False):
        return Actor(user=user, ip=ip)
    return Actor(ip=ip)
