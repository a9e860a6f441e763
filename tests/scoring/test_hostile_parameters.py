"""Every page and API route, with a hostile value in each query parameter, header and form field it
reads and in each parameter of its path, answers 2xx, 3xx, 400 or 404 (or 401/403/405/406/409/
412/413/415/428/429 where that is the route's honest answer to the caller), never a 500.

The routes come from the URL resolver (the public, scorer, director and API URL modules), their
path ids from one tournament built for the whole module. What each route reads is not listed by
hand: a test-only middleware (outermost) wraps ``request.GET``, ``request.POST``,
``request.headers`` and ``request.META`` in recording copies, each route is requested once as
a normal caller would (a page GET; a form POST, twice, the second time with every field seen
filled; an API call with an empty JSON body), and then replayed once per recorded name and
hostile value (one name of each numbered family: ``points_0`` stands for ``points_1``...).

Reads made by the view (from the last ``process_view`` until the view returns) are replayed on
every route. Those made by the middleware (Accept-Language, Cookie, Host, GZip's
Accept-Encoding...) and by DRF in every API view (Authorization, Accept, Content-Type) are the
same code for every route: they are replayed on one route of each kind (``MIDDLEWARE_SAMPLE``).
The API's headers that a view reads only after a valid body or on an existing row
(If-None-Match, If-Match, Idempotency-Key, Content-Length) are tried on every API route, with
the methods that carry them, and Last-Event-ID on the events route. Path ids are tried past any
row's (10,000 digits, 2**63, 2**64), and text parameters (slug, token) with every hostile value.

Each request runs in a savepoint that is rolled back, so a POST that does something leaves the
tournament as it was for the next one. Some 3,800 requests: about 25 s in one process."""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core.signals import got_request_exception
from django.db import transaction
from django.http import QueryDict
from django.http.request import HttpHeaders
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from gupai_site.asgi import EVENTS_PATH
from scoring.domain.actors import Actor
from scoring.models import PaperSheetJob, TournamentImport
from scoring.services.adjustments import adjustment_create
from scoring.services.audits import audit_start
from scoring.services.auth import auth_token_obtain, director_create
from scoring.services.clubs import club_create, player_create
from scoring.services.referees import referee_add
from scoring.services.rounds import round_record
from scoring.services.seasons import season_create, season_tournament_add
from scoring.services.tables import table_create
from scoring.services.tournaments import entry_create, tournament_create, tournament_start
from scoring.web.events import parse_last_event_id

from .bodies import JIE_LONG

#: name -> the value as a client types it. Sent percent-encoded (UTF-8) in a query string or a
#: form, and in a header as a WSGI server hands it over (each byte as one Latin-1 character).
HOSTILE = {
    "superscript-2": "²",          # str.isdigit() says yes, int() refuses
    "arabic-indic-3": "٣",         # int() reads it as 3
    "minus-zero": "-0",
    "exponent": "1e9",
    "10000-digits": "9" * 10_000,  # int() refuses more than 4300 digits
    "nul": "\x00",
    "lone-surrogate": "\ud800",    # arrives as %ED%A0%80
    "empty": "",
}
#: In a header, "²" comes as the one byte 0xB2 (Latin-1: WSGI hands it over as "²" itself, which
#: isdigit takes), or as its two UTF-8 bytes ("Â²"): both.
HEADER_HOSTILE = {**HOSTILE, "superscript-2-utf8": "²".encode().decode("latin-1")}
HUGE_IDS = {"10000-digits": "9" * 10_000, "2**63": str(2**63), "2**64": str(2**64)}

#: Every answer that is not the server failing.
ACCEPTED = {401, 403, 404, 405, 406, 409, 412, 413, 415, 428, 429}

URL_MODULES = {"scoring.urls_public": "public", "scoring.urls_scorer": "scorer",
               "scoring.urls_director": "director", "scoring.api.urls": "api"}
#: One route of each kind on which the reads made before the view (by middleware) are replayed.
MIDDLEWARE_SAMPLE = {"public-tournament", "scorer-table", "director-tournament", "api-tournament"}
#: Headers the API reads on some calls only (after a valid body, on an existing row): always
#: tried, with the methods that carry them.
API_HEADERS = {"GET": ["if-none-match"], "POST": ["idempotency-key", "content-length"],
               "PUT": ["if-match", "content-length"], "PATCH": ["if-match", "content-length"], "DELETE": ["if-match"]}
#: Read by the framework in every API view (DRF's authentication and content negotiation), not by
#: the route's own code: replayed on the sample routes only, as the middleware's reads.
FRAMEWORK_HEADERS = {"accept", "authorization", "content-type"}


@dataclass(frozen=True)
class Route:
    kind: str      # public, scorer, director, api
    name: str
    route: str     # "t/<slug:slug>/tables/<int:table_id>/" under its prefix
    methods: tuple[str, ...]

    @property
    def params(self) -> list[tuple[str, str]]:
        return re.findall(r"<(?:(\w+):)?(\w+)>", self.route)


def _methods(pattern: URLPattern) -> tuple[str, ...]:
    view = pattern.callback
    cls = getattr(view, "view_class", None) or getattr(view, "cls", None)
    if cls is not None:
        return tuple(m.upper() for m in ("get", "post", "put", "patch", "delete") if hasattr(cls, m))
    return ("GET", "POST")


def _routes() -> list[Route]:
    out = []

    def walk(patterns, prefix, kind):
        for p in patterns:
            if isinstance(p, URLResolver):
                module = getattr(p.urlconf_name, "__name__", p.urlconf_name)
                walk(p.url_patterns, prefix + str(p.pattern),
                     URL_MODULES.get(module, kind) if isinstance(module, str) else kind)
            elif kind and p.name:
                # The API's re_path catch-alls (its JSON 404) have no name: not walked.
                out.append(Route(kind, p.name, prefix + str(p.pattern), _methods(p)))

    walk(get_resolver().url_patterns, "", None)
    return out


ROUTES = _routes()


# --- the recording ------------------------------------------------------------------------------

class Log:
    """What the requests read: ``(place, name, phase)``, phase "middleware" until the view runs."""

    def __init__(self):
        self.reads: set[tuple[str, str, str]] = set()
        self.phase = "middleware"

    def add(self, place: str, name: str) -> None:
        self.reads.add((place, name, self.phase))


_LOG: Log | None = None


class RecordingQueryDict(QueryDict):
    place = "GET"

    def _note(self, key):
        if _LOG is not None and isinstance(key, str):
            _LOG.add(self.place, key)

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self._note(key)
        return super().__contains__(key)

    def get(self, key, default=None):
        self._note(key)
        return super().get(key, default)

    def getlist(self, key, default=None):
        self._note(key)
        return super().getlist(key, default)


class RecordingPost(RecordingQueryDict):
    place = "POST"


def _recording(qd: QueryDict, cls) -> QueryDict:
    copy = cls(mutable=True, encoding=qd.encoding)
    for key, values in qd.lists():
        copy.setlist(key, values)
    copy._mutable = False
    return copy


def _header_name(meta_key: str) -> str | None:
    if meta_key.startswith("HTTP_"):
        return meta_key[5:].replace("_", "-").lower()
    return meta_key.replace("_", "-").lower() if meta_key in HttpHeaders.UNPREFIXED_HEADERS else None


class RecordingMeta(dict):
    def _note(self, key):
        name = _header_name(key) if _LOG is not None and isinstance(key, str) else None
        if name:
            _LOG.add("header", name)

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self._note(key)
        return super().__contains__(key)

    def get(self, key, default=None):
        self._note(key)
        return super().get(key, default)


class RecordingHeaders(HttpHeaders):
    def __getitem__(self, key):
        if _LOG is not None:
            _LOG.add("header", key.lower())
        return super().__getitem__(key)


class RecordingMiddleware:
    """Outermost: the request's parameters and headers as recording copies."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _LOG is not None:
            request.GET = _recording(request.GET, RecordingQueryDict)
            # A form (a body-less POST has no content type at all).
            if request.content_type in ("", "application/x-www-form-urlencoded", "multipart/form-data"):
                request.POST = _recording(request.POST, RecordingPost)
            request.META = RecordingMeta(request.META)
            request.headers = RecordingHeaders(request.META)
        return self.get_response(request)


class ViewPhaseMiddleware:
    """Innermost: the reads from the last ``process_view`` until the view returns are the view's
    (those on the way out, as GZip's Accept-Encoding, are the middleware's again)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            if _LOG is not None:
                _LOG.phase = "middleware"

    def process_view(self, request, view, args, kwargs):
        if _LOG is not None:
            _LOG.phase = "view"


@contextmanager
def recording():
    global _LOG
    _LOG = Log()
    try:
        yield _LOG
    finally:
        _LOG = None


# --- the tournament -----------------------------------------------------------------------------

@dataclass
class World:
    ids: dict[str, int]
    slug: str
    token: str
    director: object
    api_token: str


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """A club with a running public Jie Long tournament: a table with a deal, its scorer link, a
    season holding it, an audit, an adjustment, an import and a paper-sheet job; a director and an
    API token."""
    with django_db_blocker.unblock(), override_settings(
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]), transaction.atomic():
        director = director_create(username="alice", password="alice-secret-1")
        actor = Actor(user=director, ip="127.0.0.1")
        club = club_create(actor=actor, name="Golden Tile Club")
        t = tournament_create(actor=actor, club=club, name="Spring open", game="jie_long", chip_value="0.50",
                              currency="EUR", public=True)
        entries = [entry_create(actor=actor, tournament=t, player=player_create(actor=actor, club=club, name=n))
                   for n in ("Anna", "Bob", "Celine", "Dominic")]
        table, token = table_create(actor=actor, tournament=t, name="Table 1", entries=entries)
        tournament_start(actor=actor, tournament=t)
        rnd = round_record(actor=Actor(table=table, ip="10.0.0.7"), table=table, body=JIE_LONG)
        season = season_create(actor=actor, club=club, name="Spring", public=True)
        season_tournament_add(actor=actor, season=season, tournament=t)
        audit = audit_start(actor=actor, tournament=t)
        adjustment = adjustment_create(actor=actor, tournament=t, entry=entries[1], amount=-5, reason="late")
        session = t.sessions.get(number=1)
        now = timezone.now()
        imported = TournamentImport.objects.create(club=club, requested_by=director, requested_label="alice",
                                                   updated_at=now)
        job = PaperSheetJob.objects.create(session=session, languages="en", base_url="https://club.example",
                                           requested_by=director, requested_label="alice", updated_at=now)
        api_token = auth_token_obtain(username="alice", password="alice-secret-1")
        referee = get_user_model().objects.create_user(username="rita", password="rita-secret-1")
        referee_add(actor=actor, tournament=t, user="rita")
        ids = {"club": club.pk, "tournament": t.pk, "table": table.pk, "round": rnd.pk, "season": season.pk,
               "audit": audit.pk, "session": session.pk, "import": imported.pk, "job": job.pk,
               "entry": entries[0].pk, "player": entries[0].player_id, "number": session.number,
               "adjustment": adjustment.pk, "user": referee.pk}
        yield World(ids, t.slug, token, director, api_token)
        transaction.set_rollback(True)


#: A path parameter's name -> the kind of row it names; ``pk`` by the route's name.
PARAM_KIND = {"club_id": "club", "player_id": "player", "table_id": "table", "round_id": "round",
              "season_id": "season", "tournament_id": "tournament", "import_id": "import", "entry_id": "entry",
              "number": "number", "job_id": "job", "session_id": "session", "audit_id": "audit",
              "adjustment_id": "adjustment", "user_id": "user"}
PK_KIND = [("api-club", "club"), ("api-player", "player"), ("api-season", "season"), ("public-season", "season"),
           ("api-tournament", "tournament"), ("api-import", "import"), ("api-session", "session"),
           ("api-table", "table"), ("api-round", "round"), ("api-audit", "audit"),
           ("api-adjustment", "adjustment")]


def _path(route: Route, world: World, hostile: tuple[str, str] | None = None) -> str:
    """The route's URL for the module's tournament; ``hostile``: (parameter, text) in its place."""
    def value(m):
        converter, name = m.group(1), m.group(2)
        if hostile and hostile[0] == name:
            return quote(hostile[1].encode("utf-8", "surrogatepass"), safe="")
        if converter == "slug":
            return world.slug
        if converter == "str":
            return world.token
        kind = PARAM_KIND.get(name) or next(k for prefix, k in PK_KIND if route.name.startswith(prefix))
        return str(world.ids[kind])

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", value, route.route)


def _query_text(value: str) -> str:
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


def _header_text(value: str) -> str:
    """As a WSGI server hands a header over: each byte as one Latin-1 character."""
    try:
        value.encode("latin-1")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogatepass").decode("latin-1")


def _meta_key(header: str) -> str:
    name = header.upper().replace("-", "_")
    return name if name in HttpHeaders.UNPREFIXED_HEADERS else f"HTTP_{name}"


# --- the test -----------------------------------------------------------------------------------

class Caller:
    """The route's usual caller (a visitor, a scorer, the logged-in director, an API client with
    the director's token), each request in a savepoint rolled back; a 500 keeps its exception."""

    def __init__(self, route: Route, world: World):
        self.route = route
        self.client = Client(raise_request_exception=False)
        self.auth = {}
        if route.kind == "director":
            self.client.force_login(world.director)
        elif route.kind == "api":
            self.auth = {"HTTP_AUTHORIZATION": f"Token {world.api_token}"}
        self.count = 0
        self.failures: list[str] = []
        self.last_error = ""

    def _caught(self, sender, request=None, **kwargs):
        import sys
        self.last_error = repr(sys.exc_info()[1])

    def send(self, method: str, url: str, form: dict | None = None, headers: dict | None = None,
             what: str = "") -> int:
        self.count += 1
        self.last_error = ""
        extra = {**self.auth, **(headers or {})}
        got_request_exception.connect(self._caught)
        try:
            with transaction.atomic():
                if self.route.kind == "api" and method != "GET":
                    r = self.client.generic(method, url, "{}", content_type="application/json", **extra)
                elif method == "POST":
                    # Encoded here: the test client cannot encode a lone surrogate, a browser can send its bytes.
                    body = "&".join(f"{quote(k)}={_query_text(v)}" for k, v in (form or {}).items())
                    r = self.client.generic(method, url, body, content_type="application/x-www-form-urlencoded",
                                            **extra)
                else:
                    r = self.client.generic(method, url, **extra)
                transaction.set_rollback(True)
        finally:
            got_request_exception.disconnect(self._caught)
        ok = 200 <= r.status_code < 400 or r.status_code == 400 or r.status_code in ACCEPTED
        if not ok and what:
            self.failures.append(f"{method} {url[:120]} {what}: {r.status_code} {self.last_error}")
        return r.status_code


def _discover(caller: Caller, method: str, url: str) -> set[tuple[str, str, str]]:
    """What one normal request (for a form: two, the second with every field seen filled) reads."""
    with recording() as log:
        caller.send(method, url)
        if method == "POST" and caller.route.kind != "api":
            caller.send(method, url, form={name: "1" for place, name, _ in log.reads if place == "POST"})
    return log.reads


def _one_of_each_shape(names: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """One name of each numbered family ("points_0".."points_3", "r0-leader".."r19-leader" are
    each read by one piece of code): the first, in order."""
    seen, out = set(), []
    for place, name in sorted(names, key=lambda n: (n[0], [int(p) if p.isdigit() else p
                                                            for p in re.split(r"([0-9]+)", n[1])])):
        shape = (place, re.sub(r"[0-9]+", "#", name))
        if shape not in seen:
            seen.add(shape)
            out.append((place, name))
    return out


@pytest.mark.django_db
@pytest.mark.parametrize("route", ROUTES, ids=[f"{r.kind}:{r.name}" for r in ROUTES])
def test_no_hostile_value_is_a_500(route, world, settings):
    here = "tests.scoring.test_hostile_parameters"
    settings.MIDDLEWARE = [f"{here}.RecordingMiddleware", *settings.MIDDLEWARE, f"{here}.ViewPhaseMiddleware"]
    caller = Caller(route, world)
    url = _path(route, world)
    for method in route.methods:
        reads = _discover(caller, method, url)
        sample = route.name in MIDDLEWARE_SAMPLE and method == "GET"
        names = {(place, name) for place, name, phase in reads
                 if sample or phase == "view" and not (place == "header" and name in FRAMEWORK_HEADERS)}
        if route.kind == "api":
            names |= {("header", h) for h in API_HEADERS[method]}
            if route.name.endswith("-events"):
                names.add(("header", "last-event-id"))
        for place, name in _one_of_each_shape(names):
            values = HEADER_HOSTILE if place == "header" else HOSTILE
            for label, value in values.items():
                what = f"{place} {name}={label}"
                if place == "GET":
                    caller.send(method, f"{url}?{quote(name)}={_query_text(value)}", what=what)
                elif place == "POST":
                    form = {n: "1" for p, n, _ in reads if p == "POST"}
                    caller.send(method, url, form={**form, name: value}, what=what)
                else:
                    caller.send(method, url, headers={_meta_key(name): _header_text(value)}, what=what)
    # Path ids no row can have (a 64-bit overflow in the database was a 500), and hostile text
    # in every path parameter.
    for converter, name in route.params:
        values = HUGE_IDS if converter == "int" else HOSTILE
        for label, value in values.items():
            caller.send("GET", _path(route, world, (name, value)), what=f"path {name}={label}")
    assert not caller.failures, "\n".join(caller.failures)


# --- the readers below the routes ---------------------------------------------------------------

@pytest.mark.parametrize("label", list(HEADER_HOSTILE) + ["none"])
def test_a_last_event_id_that_is_no_version_is_a_new_client(label):
    """Both the Django view and the ASGI stream read it here ("²" passed isdigit, then int failed)."""
    assert parse_last_event_id(HEADER_HOSTILE.get(label)) is None


def test_a_last_event_id_is_read_in_ascii_digits():
    assert parse_last_event_id(" 12 ") == 12 and parse_last_event_id("0") == 0


def test_the_asgi_events_route_takes_ascii_digits_only():
    """``\\d`` took "١" (Arabic-Indic one), which int() read as tournament 1: now not the events route
    but Django's, where no ``<int:pk>`` matches it (the API's JSON 404)."""
    assert EVENTS_PATH.match("/api/v1/tournaments/12/events/")
    assert not EVENTS_PATH.match("/api/v1/tournaments/\u0661/events/")
    assert not EVENTS_PATH.match("/api/v1/tournaments/\u00b2/events/")


def test_every_named_route_of_the_four_url_modules_is_walked():
    from importlib import import_module

    named = sum(1 for module in URL_MODULES for p in import_module(module).urlpatterns if getattr(p, "name", None))
    assert len(ROUTES) == named and {r.kind for r in ROUTES} == set(URL_MODULES.values())


@pytest.mark.django_db
def test_the_recording_sees_what_a_page_reads(world, settings):
    """The replay is only as good as the recording: the public page's search and page numbers,
    the scorer form's fields, Last-Event-ID on the events route are seen."""
    here = "tests.scoring.test_hostile_parameters"
    settings.MIDDLEWARE = [f"{here}.RecordingMiddleware", *settings.MIDDLEWARE, f"{here}.ViewPhaseMiddleware"]
    by_name = {r.name: r for r in ROUTES}
    seen = {}
    for name, method in [("public-tournament", "GET"), ("scorer-table", "POST"), ("api-tournament-events", "GET")]:
        route = by_name[name]
        seen[name] = {(place, n) for place, n, phase in _discover(Caller(route, world), method, _path(route, world))
                      if phase == "view"}
    assert {("GET", "q"), ("GET", "page"), ("GET", "tables_page")} <= seen["public-tournament"]
    assert {("POST", "points_0"), ("POST", "leader")} <= seen["scorer-table"]
    assert ("header", "last-event-id") in seen["api-tournament-events"]


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["", "live/", "payouts/"])
def test_a_search_for_a_character_that_looks_like_a_digit_searches_text(world, page):
    """"²" passed isdigit and was read as a rank by int(): a 500. Now text, found in no name."""
    r = Client().get(f"/t/{world.slug}/{page}", {"q": "²"})
    assert r.status_code == 200 and "Anna" not in r.content.decode()
    assert "Anna" in Client().get(f"/t/{world.slug}/{page}", {"q": "ann"}).content.decode()
