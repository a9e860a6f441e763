"""Shared fixtures: a director, a club, running tournaments of Ding Niu / Jie Long / Tau Ngau
with a four-player table (and its plain scorer token), and API clients."""

from __future__ import annotations

import copy
import os
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from scoring.domain.actors import Actor
from scoring.models import Entry, Table, Tournament
from scoring.services.auth import auth_token_obtain, director_create
from scoring.services.clubs import club_create, player_create
from scoring.services.tables import table_create
from scoring.services.tournaments import entry_create, tournament_create, tournament_start

# SQLite: test in a file, not in shared-cache memory. In shared-cache mode two connections that
# write at once fail at once ("database table is locked") instead of waiting for each other, so
# the concurrency tests (two threads, two connections) could not run. pytest-xdist adds _gwN.
_db = django_settings.DATABASES["default"]
# The file is per process, so that two test runs at once (a developer's and an editor's) never
# share one; pytest-django deletes it at the end.
if _db["ENGINE"].endswith("sqlite3") and not _db.get("TEST", {}).get("NAME"):
    _db.setdefault("TEST", {})["NAME"] = str(Path(tempfile.gettempdir()) / f"gupai-test-{os.getpid()}.sqlite3")

# The translations' .mo files are built from the committed .po files (`make` does it with
# compilemessages); a bare `pytest` builds any that are missing or older, so Chinese pages work.
for _po in (Path(__file__).resolve().parents[1] / "locale").glob("*/LC_MESSAGES/django.po"):
    _mo = _po.with_suffix(".mo")
    if not _mo.exists() or _mo.stat().st_mtime < _po.stat().st_mtime:
        import subprocess
        _tmp = _mo.with_suffix(f".{os.getpid()}.tmp")  # test workers may start at once: swap it in whole
        if subprocess.run(["msgfmt", "--check-format", "-o", str(_tmp), str(_po)], check=False).returncode == 0:
            os.replace(_tmp, _mo)

NAMES = {
    "jie_long": ["Anna", "Bob", "Celine", "Dominic"],
    "ding_niu": ["Adam", "Boris", "Valentine", "George"],
    "tau_ngau": ["Bank", "Six", "One", "NoBull"],
}


@contextmanager
def replica_alias():
    """A ``replica`` database alias that is the primary itself (as DATABASE_REPLICA_URL would add
    one), for the tests of what is routed to it and of its probe."""
    from django.db import connections

    databases = connections.settings   # settings.DATABASES itself
    databases["replica"] = {**copy.deepcopy(databases["default"]), "CONN_MAX_AGE": None}
    # Connected here, kept across the test: the test case allows no new connection to an alias
    # it was not told of (Django's TestCase).
    connections["replica"].connect()
    try:
        yield "replica"
    finally:
        connections["replica"].close()
        del connections["replica"]
        del databases["replica"]


@pytest.fixture(autouse=True)
def _celery_eager():
    """Unit tests run Celery tasks in-process even when REDIS_URL is set (no worker needed)."""
    from celery._state import _set_task_join_will_block

    from gupai_site.celery import app

    old = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    # An eager task marks "inside a task" in one flag of the whole process, put back as it found
    # it (celery.result.denied_join_result): two run at once by a live server's threads (two
    # tables' phones sending together) can leave it set, and every later result.get() of this
    # test process would refuse. Each test starts outside any task.
    _set_task_join_will_block(False)
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = old


@pytest.fixture(autouse=True)
def _fresh_rate_limits(settings):
    """Rate-limit counters live in the cache (Redis in CI, shared by parallel test processes and
    the Celery broker, so never flushed): each test counts under a prefix of its own."""
    import uuid

    settings.RATELIMIT_CACHE_PREFIX = f"rl-test-{uuid.uuid4().hex}:"
    # Cached payouts too (scoring/selectors/payouts.py): ids repeat across tests and databases.
    settings.PAYOUTS_CACHE_PREFIX = f"pay-test-{uuid.uuid4().hex}:"
    # A follow-up marked as queued (scoring/services/common.py) by a test that never ran it.
    settings.QUEUED_TASKS_CACHE_PREFIX = f"queued-test-{uuid.uuid4().hex}:"


@pytest.fixture(autouse=True)
def _language_reset():
    """A request's language stays active in its thread after the response (LocaleMiddleware
    activates it and nothing deactivates it): each test starts in the default language."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def director(db):
    return director_create(username="alice", password="alice-secret-1")


@pytest.fixture
def director_actor(director):
    return Actor(user=director, ip="127.0.0.1")


@pytest.fixture
def club(director_actor):
    return club_create(actor=director_actor, name="Golden Tile Club")


@pytest.fixture
def other_director(db):
    """A director of another club."""
    user = director_create(username="bruno", password="bruno-secret-1")
    club_create(actor=Actor(user=user), name="Other Club")
    return user


@pytest.fixture
def referee_user(db):
    """A user who directs no club (not staff): a referee once a director adds them."""
    from django.contrib.auth import get_user_model
    return get_user_model().objects.create_user(username="rita", password="rita-secret-1")


@dataclass
class Setup:
    tournament: Tournament
    table: Table
    token: str
    entries: list[Entry]
    names: list[str]
    director: object

    @property
    def director_actor(self):
        return Actor(user=self.director, ip="127.0.0.1")

    @property
    def scorer_actor(self):
        return Actor(table=self.table, ip="10.0.0.7")


@pytest.fixture
def make_setup(club, director, director_actor):
    counter = {"n": 0}

    def make(game: str = "jie_long", *, names: list[str] | None = None, variant: dict | None = None,
             require_confirmation: bool = False, start: bool = True, table_name: str = "Table 1",
             require_proof: bool = False) -> Setup:
        counter["n"] += 1
        names = names or NAMES.get(game, ["P1", "P2", "P3", "P4"])
        t = tournament_create(actor=director_actor, club=club, name=f"{game} open {counter['n']}", game=game,
                                       variant=variant, require_confirmation=require_confirmation, chip_value="0.50",
                                       currency="EUR", public=True, require_proof=require_proof)
        entries = []
        for name in names:
            player = club.players.filter(name=name).first() or player_create(
                actor=director_actor, club=club, name=name)
            entries.append(entry_create(actor=director_actor, tournament=t, player=player))
        table, token = table_create(actor=director_actor, tournament=t, name=table_name, entries=entries)
        if start:
            tournament_start(actor=director_actor, tournament=t)
        return Setup(t, table, token, entries, names, director)

    return make


@pytest.fixture
def jie_long(make_setup):
    return make_setup("jie_long")


@pytest.fixture
def ding_niu(make_setup):
    return make_setup("ding_niu")


@pytest.fixture
def tau_ngau(make_setup):
    return make_setup("tau_ngau", variant={"settlement": "v1"})


@pytest.fixture
def slow_engine(monkeypatch):
    """Hold each evaluation long enough that the two requests overlap inside their transactions."""
    import time

    import games

    real = games.evaluate

    def slow(record):
        time.sleep(0.3)
        return real(record)

    monkeypatch.setattr(games, "evaluate", slow)


# --- API clients --------------------------------------------------------------------------------

@pytest.fixture
def anon_client():
    from rest_framework.test import APIClient
    return APIClient()


@pytest.fixture
def director_client(director):
    from rest_framework.test import APIClient

    token = auth_token_obtain(username="alice", password="alice-secret-1")
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return c


@pytest.fixture
def scorer_client_for():
    from rest_framework.test import APIClient

    def make(token: str):
        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Scorer {token}")
        return c

    return make


@pytest.fixture
def postgres_refuses_nul():
    """PostgreSQL refuses a NUL in text (psycopg raises ValueError: a 500) and ``\\u0000`` in a
    jsonb value; SQLite stores both. With this fixture, a query that sends one fails on SQLite
    too, so that a test of "refused before the database" can fail here."""
    from django.db import connection

    def values(params, many):
        rows = params if many else [params]
        for row in rows or ():
            yield from (row.values() if isinstance(row, dict) else row or ())

    def refuse(execute, sql, params, many, context):
        for value in values(params, many):
            if isinstance(value, str) and ("\x00" in value or "\\u0000" in value):
                raise ValueError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse):
        yield
