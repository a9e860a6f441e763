"""API authentication, and resolving the actor of a request.

``Authorization: Scorer <token>`` authenticates as the scorer of one table: ``request.user`` is
a ``ScorerPrincipal`` (authenticated, not staff) and ``request.auth`` is the Table.
``Authorization: Token <token>`` authenticates a director (or a tournament's referee) by an API
token (stored hashed, with an expiry; ``services.auth.auth_token_obtain``); directors' pages use
the session.

A token is looked up first: a valid one always passes. Only unknown ones count against the
sender's address (``throttling``), past the limit answered 429 instead of 401: at a venue every
phone shares one address, and one guesser must not lock the others out.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from scoring.domain import row_scope
from scoring.domain.actors import Actor
from scoring.selectors.auth import user_by_api_token
from scoring.selectors.tables import table_by_scorer_token
from scoring.web import throttling


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


class _KeywordTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: <keyword> <token>``; subclasses say what a token resolves to."""

    keyword = ""
    #: The throttling group that counts unknown tokens per address.
    guessing = ""
    unknown = "This token is not valid."

    def resolve(self, token: str):
        """``(user, auth)`` for a valid token, None for an unknown one."""
        raise NotImplementedError

    def authenticate(self, request):
        auth = authentication.get_authorization_header(request).split()
        if not auth or auth[0].lower() != self.keyword.lower().encode():
            return None
        if len(auth) != 2:
            raise exceptions.AuthenticationFailed(f"Send Authorization: {self.keyword} <token>.")
        try:
            token = auth[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(self.unknown) from None
        found = self.resolve(token)
        if found is None:
            try:
                throttling.hit(request, self.guessing, client_ip(request) or "unknown")
            except throttling.Limited as e:
                raise e.throttled() from None
            raise exceptions.AuthenticationFailed(self.unknown)
        return found

    def authenticate_header(self, request):
        return self.keyword


class ScorerAuthentication(_KeywordTokenAuthentication):
    keyword = "Scorer"
    guessing = "scorer-token"
    unknown = "This scorer link is not valid (it may have been replaced)."

    def resolve(self, token):
        table = table_by_scorer_token(token)
        return (ScorerPrincipal(table), table) if table is not None else None


class DirectorTokenAuthentication(_KeywordTokenAuthentication):
    keyword = "Token"
    guessing = "director-token"
    unknown = "This API token is not valid (it may have expired or been revoked)."

    def resolve(self, token):
        user = user_by_api_token(token)
        if user is None:
            return None
        row_scope.admit_user(user)
        return (user, None)


class ScorerAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "scoring.web.auth.ScorerAuthentication"
    name = "scorerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "A table's scorer link token: `Authorization: Scorer <token>`. "
                               "It reads and records the rounds of that one table, while its tournament runs."}


class DirectorTokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "scoring.web.auth.DirectorTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "A director's (or a referee's) API token from `POST /api/v1/auth/token/`: `Authorization: Token "
                               "<token>`. It expires; `POST /api/v1/auth/token/revoke/` ends every token at once."}


def client_ip(request) -> str | None:
    """The client's address. Behind a proxy (``BEHIND_PROXY``), ``scoring.web.client_address`` has
    already put the forwarded address in ``REMOTE_ADDR``; headers are never read here."""
    return request.META.get("REMOTE_ADDR") or None


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
