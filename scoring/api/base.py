"""The REST API's base: the view every endpoint extends (authentication, JSON only, objects by id answering 404 for
others'), the error answers the schema documents, and the JSON 404 for unknown paths.

The REST API (thin: parse, authorise, call a service or selector, render with the output
serializer).

Errors always come as ``{"errors": [{"path", "code", "message"}]}`` (paths relative to the
request body), plus ``detail`` for answers other than 400 (``errors.api_exception_handler``).
Lists come in pages: ``{"count", "next", "previous", "results"}``.
"""


from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from scoring.api.fields import ErrorsSerializer
from scoring.api.parsers import SafeJSONParser
from scoring.api.schema import ApiAutoSchema
from scoring.domain.errors import NotFound, PermissionDenied
from scoring.models import Club, Round, Session, Table, Tournament
from scoring.selectors.access import directed_club, is_referee, referee_refusal, require_role, require_table_visible
from scoring.selectors.rounds import round_get
from scoring.selectors.sessions import session_get
from scoring.selectors.tables import table_get
from scoring.selectors.tournaments import tournament_get
from scoring.web import throttling
from scoring.web.auth import DirectorTokenAuthentication, ScorerAuthentication, actor_from_request

ERRORS = OpenApiResponse(ErrorsSerializer, description="`{\"errors\": [{\"path\", \"code\", \"message\"}]}`, "
                                                         "plus `detail` for answers other than 400.")


def error_responses(*codes: int) -> dict:
    return {code: ERRORS for code in codes}


#: What an authenticated read may answer besides 200: not logged in, not yours, no such thing or
#: page, too many unknown tokens from this address.
READ_ERRORS = error_responses(401, 403, 404, 429)
#: ... and a list: also a bad ``page`` or ``page_size``.
LIST_ERRORS = error_responses(400, 401, 403, 404, 429)
#: ... and a write: bad input, or a state that refuses it (a finished tournament, ...).
WRITE_ERRORS = error_responses(400, 401, 403, 404, 409, 429)


#: The headers of an answer that carries a secret in plain text (a scorer link, an API token),
#: shown once: no browser, proxy or history keeps it.
NO_STORE = {"Cache-Control": "no-store"}


def etag_header(code: int) -> OpenApiParameter:
    return OpenApiParameter("ETag", str, OpenApiParameter.HEADER, response=[code], required=True,
                            description='The revision of the deal, like `"2"`: send it as If-Match to correct it.')


class ApiView(APIView):
    authentication_classes = [DirectorTokenAuthentication, ScorerAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]
    #: JSON only: the bodies are nested (lists of ids, rule options, deals), which forms cannot say.
    parser_classes = [SafeJSONParser]
    schema = ApiAutoSchema()
    #: Whether a table's scorer link may use this endpoint (else directors only). A scorer link
    #: is still authenticated everywhere, so that it gets 403 (or 404 for others' objects)
    #: rather than 401; the schema shows the scorer scheme only where it can succeed. True: every
    #: method of the view; a tuple of methods ("GET",): those only.
    scorer_auth: bool | tuple[str, ...] = False
    #: The methods a tournament's referee (a signed-in user who directs no club) may call here;
    #: the others answer them 403 before any look-up (``scoring.selectors.access``: the roles).
    #: A view open to anyone (``AllowAny``: public reads, the token's own endpoint) answers a
    #: referee as it answers anyone who directs nothing.
    referee_auth: tuple[str, ...] = ()
    #: The schema shows the page envelope for every GET documented as a list (``many=True``), so a
    #: view that answers a plain list sets None.
    pagination_class = api_settings.DEFAULT_PAGINATION_CLASS

    @property
    def actor(self):
        return actor_from_request(self.request)

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        actor = self.actor
        if (request.method not in self.referee_auth and not actor.is_director and not actor.is_scorer
                and not any(isinstance(p, AllowAny) for p in self.get_permissions()) and is_referee(actor)):
            raise PermissionDenied(referee_refusal())

    # Objects by id. One the caller may not see answers 404 like an unknown id, so that ids of
    # other clubs and tables cannot be told apart from ids that do not exist.

    def club(self, pk) -> Club:
        club = directed_club(self.actor, pk)
        if club is None:
            raise NotFound("No such club.")
        return club

    def tournament(self, pk, action: str | None = None) -> Tournament:
        """``action``: one of ``REFEREE_MAY``, for a view its referees may use too; a referee of
        the tournament is refused (403) where there is none."""
        t = tournament_get(pk)
        require_role(self.actor, t, action)
        return t

    def session(self, pk) -> Session:
        s = session_get(pk)
        require_role(self.actor, s.tournament, what="session")
        return s

    def table(self, pk, action: str | None = None) -> Table:
        """A scorer link's own table comes with its authentication, unread again. ``action``: the
        table's referees may use it for that (``REFEREE_MAY``)."""
        own = self.request.auth
        if isinstance(own, Table) and str(own.pk) == str(pk):
            return own
        table = table_get(pk)
        if action is not None and self.actor.user_or_none is not None:
            require_role(self.actor, table.session.tournament, action, what="table")
        else:
            require_table_visible(self.actor, table)
        return table

    def round(self, pk, action: str | None = None) -> Round:
        rnd = round_get(pk)
        if action is not None and self.actor.user_or_none is not None:
            require_role(self.actor, rnd.table.session.tournament, action, what="round")
        else:
            require_table_visible(self.actor, rnd.table, "round")
        return rnd

    def parse(self, serializer_class):
        ser = serializer_class(data=self.request.data)
        ser.is_valid(raise_exception=True)
        return ser.validated_data

    def paginated(self, items, serializer_class, detail=None) -> Response:
        """One page of ``items`` (a queryset or a list) as ``{count, next, previous, results}``.
        ``detail``: turns the page's items into what ``serializer_class`` renders, so that costly
        reads are made for one page only."""
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(items, self.request, view=self)
        if detail is not None:
            page = detail(page)
        return paginator.get_paginated_response(serializer_class(page, many=True).data)


class NotFoundView(APIView):
    """Any other path under /api/ (``/api/v1/tables/abc/``, which no ``<int:pk>`` matches): a
    404 in the errors shape rather than Django's HTML page. Not in the schema (no methods)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        raise exceptions.NotFound()


def limit(call):
    """Run a throttling call (its value returned); past the limit, DRF's 429 with Retry-After (and
    our errors body)."""
    try:
        return call()
    except throttling.Limited as e:
        raise e.throttled() from None
