"""Row-level security (PostgreSQL): two clubs' data, read through the models directly — no
service, no selector, no check of theirs — over a connection as the site's role (no superuser,
no BYPASSRLS; ``manage.py site_role``), in a scope the site sets: club A's scope finds no row of
club B in any club-owned table; the public scope only what the public pages show; a worker its
job's club's. Every model that reaches a club is checked, so a new table without a policy fails
here. Also through PgBouncer's transaction mode when pgbouncer is installed.

Skipped on SQLite (no policies there)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
from celery.signals import task_postrun, task_prerun
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections, models, transaction
from django.db.backends.postgresql.base import Cursor, ServerBindingCursor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from gupai_site.row_security import ScopedCursor, ScopedServerCursor, site_role_create
from scoring import tasks
from scoring.domain import row_scope
from scoring.domain.actors import Actor
from scoring.models import (
    AuditFinding,
    Club,
    Entry,
    IdempotencyKey,
    PaperSheetJob,
    PushNotice,
    PushSubscription,
    RatingChange,
    Session,
    SessionCheckIn,
    Substitution,
    Tournament,
    TournamentImport,
)
from scoring.services.adjustments import adjustment_create
from scoring.services.audits import audit_start
from scoring.services.auth import director_create
from scoring.services.clubs import club_create, player_create
from scoring.services.referees import referee_add
from scoring.services.rounds import round_record
from scoring.services.seasons import season_create, season_tournament_add
from scoring.services.tables import table_create
from scoring.services.tournaments import entry_create, tournament_create, tournament_start
from tests.scoring.bodies import JIE_LONG

pytestmark = [
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                       reason="row-level security is PostgreSQL's"),
    pytest.mark.django_db(transaction=True),
]

ROLE, PASSWORD = "gupai_rls_test", "rls-test-password"


@pytest.fixture(autouse=True)
def _a_scope_of_its_own():
    """Each test starts in a public scope of its own: code run outside a request elsewhere (a
    selector called by a test) may have widened the test thread's."""
    with row_scope.within(row_scope.public()):
        yield
#: Tables that are no club's: the clubs themselves (their names are on public pages) and a
#: director's API tokens (a user's).
NOT_CLUB_OWNED = {"Club", "ApiToken"}


def club_paths(model, path: str = "", seen: tuple = ()) -> list[str]:
    """Every lookup from ``model`` to a club by its foreign keys (``table__session__tournament__club``,
    ``entered_by_entry__tournament__club``, ...)."""
    if model is Club:
        return [path.removesuffix("__")]
    return [found for field in model._meta.concrete_fields
            if isinstance(field, models.ForeignKey) and field.related_model._meta.app_label == "scoring"
            and field.related_model not in (*seen, model)
            for found in club_paths(field.related_model, f"{path}{field.name}__", (*seen, model))]


def club_owned_models() -> list:
    return [m for m in apps.get_app_config("scoring").get_models()
            if not m._meta.auto_created and m.__name__ not in NOT_CLUB_OWNED]


def rows_of(model, club: Club) -> set:
    """The ids of ``model``'s rows of ``club`` (by any of its ways to a club), read by the superuser."""
    return {pk for path in club_paths(model) for pk in model.objects.filter(**{path: club.pk}).values_list("pk", flat=True)}


def club_world(name: str, username: str, *, public: bool = False) -> dict:
    """A club with a row in every club-owned table: a running Jie Long tournament with a deal,
    an adjustment, an audit, a season, ratings; the rest as rows."""
    director = director_create(username=username, password=f"{username}-secret-1")
    actor = Actor(user=director, ip="127.0.0.1")
    club = club_create(actor=actor, name=name)
    t = tournament_create(actor=actor, club=club, name=f"{name} open", game="jie_long", public=public)
    entries = [entry_create(actor=actor, tournament=t, player=player_create(actor=actor, club=club, name=n))
               for n in ("Anna", "Bob", "Celine", "Dominic", "Eve")]
    table, token = table_create(actor=actor, tournament=t, name="Table 1", entries=entries[:4])
    tournament_start(actor=actor, tournament=t)
    deal = round_record(actor=Actor(table=table, ip="10.0.0.7"), table=table, body=JIE_LONG)
    adjustment_create(actor=actor, tournament=t, entry=entries[0], amount=5, reason="Late")
    audit = audit_start(actor=actor, tournament=t)
    season_tournament_add(actor=actor, season=season_create(actor=actor, club=club, name="Spring"), tournament=t)
    now = timezone.now()
    AuditFinding.objects.create(audit=audit, kind="zero_sum", detail="made by the test")
    IdempotencyKey.objects.create(table=table, key=f"k-{username}", request_hash="0" * 64, round=deal)
    IdempotencyKey.objects.create(tournament=t, session=table.session, key=f"k-{username}", request_hash="0" * 64)
    Substitution.objects.create(table=table, seat=0, entry_in=entries[4], entry_out=entries[0], from_deal=2)
    PaperSheetJob.objects.create(session=table.session, languages="en", base_url="http://testserver",
                                 requested_label=username, updated_at=now)
    TournamentImport.objects.create(club=club, requested_label=username, updated_at=now)
    PushSubscription.objects.create(player=entries[0].player, endpoint=f"https://push.example.org/{username}",
                                    p256dh="k", auth="a")
    PushNotice.objects.create(tournament=t, session=table.session, kind="seated", sent=1, delivered=1)
    referee = get_user_model().objects.create_user(username=f"{username}-referee", password="referee-secret-1")
    referee_add(actor=actor, tournament=t, user=referee.username)
    SessionCheckIn.objects.create(session=table.session, entry=entries[4], checked_in_at=now, how="director",
                                  by=director)
    return {"club": club, "director": director, "tournament": t, "audit": audit, "table": table, "token": token,
            "referee": referee}


@pytest.fixture
def two_clubs():
    return club_world("Club A", "alice"), club_world("Club B", "bruno")


def site_role_dsn(**overrides) -> str:
    """The test database's address as the site's role (made here, as the migrating role would)."""
    default = connections["default"]
    site_role_create(default, ROLE, PASSWORD)
    db = {"host": default.settings_dict["HOST"] or "127.0.0.1", "port": default.settings_dict["PORT"] or 5432,
          "dbname": default.settings_dict["NAME"], "user": ROLE, "password": PASSWORD, **overrides}
    return " ".join(f"{k}={v}" for k, v in db.items())


def connect(dsn: str) -> psycopg.Connection:
    """A second connection, psycopg's own, with the site's cursors: each statement carries the
    current scope (``gupai_site.row_security``), in autocommit as the site's reads run."""
    return psycopg.connect(dsn, autocommit=True, cursor_factory=ScopedCursor, prepare_threshold=None)


@pytest.fixture
def as_site_role(transactional_db):
    with connect(site_role_dsn()) as conn:
        yield conn


def visible(conn: psycopg.Connection, model, ids: set) -> set:
    """Which of ``ids`` the models' own query finds over ``conn`` (the ORM's SQL, run there)."""
    sql, params = model.objects.filter(pk__in=ids).values_list("pk", flat=True).query.sql_with_params()
    with conn.cursor() as cursor:
        cursor.execute(sql, params)
        return {row[0] for row in cursor.fetchall()}


def test_the_site_role_is_bound_by_the_policies(as_site_role):
    assert as_site_role.execute("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user"
                                ).fetchone() == (False, False)


def test_every_club_owned_table_has_forced_row_security():
    found = {}
    with connections["default"].cursor() as cursor:
        for model in club_owned_models():
            cursor.execute("SELECT relrowsecurity, relforcerowsecurity FROM pg_class WHERE relname = %s",
                           [model._meta.db_table])
            found[model.__name__] = cursor.fetchone()
    assert club_owned_models() and all(club_paths(m) for m in club_owned_models())
    assert {name: rls for name, rls in found.items() if rls != (True, True)} == {}


def test_club_a_sees_none_of_club_b_in_any_table(two_clubs, as_site_role):
    a, b = two_clubs
    for model in club_owned_models():
        a_rows, b_rows = rows_of(model, a["club"]), rows_of(model, b["club"])
        assert a_rows and b_rows, f"the test's clubs need a row of {model.__name__} each"
        for scope in (row_scope.of_clubs([a["club"].pk]), row_scope.Scope(user=a["director"].pk)):
            with row_scope.within(scope):
                assert visible(as_site_role, model, b_rows) == set(), model.__name__
                assert visible(as_site_role, model, a_rows) == a_rows, model.__name__
        with row_scope.within(row_scope.system()):
            assert visible(as_site_role, model, b_rows) == b_rows, model.__name__


def test_a_referee_reaches_the_club_of_their_tournament_only(two_clubs, as_site_role):
    """A referee (``gupai.user``, directing no club) reaches their tournament's club's rows, as its
    directors do (the services keep them to the one tournament), and none of club B's."""
    a, b = two_clubs
    with row_scope.within(row_scope.Scope(user=a["referee"].pk)):
        for model in club_owned_models():
            a_rows, b_rows = rows_of(model, a["club"]), rows_of(model, b["club"])
            assert visible(as_site_role, model, b_rows) == set(), model.__name__
            assert visible(as_site_role, model, a_rows) == a_rows, model.__name__


def test_club_a_cannot_write_into_club_b(two_clubs, as_site_role):
    a, b = two_clubs
    with row_scope.within(row_scope.of_clubs([a["club"].pk])), as_site_role.cursor() as cursor:
        cursor.execute("UPDATE scoring_entry SET withdrawn_at = now() WHERE tournament_id = %s", [b["tournament"].pk])
        assert cursor.rowcount == 0
        # A row of club B's written in club A's scope: refused, even in B's public tournament.
        Tournament.objects.filter(pk=b["tournament"].pk).update(public=True)
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            cursor.execute("INSERT INTO scoring_adjustment (tournament_id, entry_id, amount, reason, created_at, "
                           "created_by_label) VALUES (%s, %s, 7, 'Bonus', now(), 'x')",
                           [b["tournament"].pk, b["tournament"].entries.first().pk])


def test_the_public_sees_what_the_public_pages_show(two_clubs, as_site_role):
    a, b = two_clubs
    with row_scope.within(row_scope.public()):
        for model in club_owned_models():
            assert visible(as_site_role, model, rows_of(model, b["club"])) == set(), model.__name__
    Tournament.objects.filter(pk=b["tournament"].pk).update(public=True)
    shown = {"Tournament", "Entry", "Session", "Standing", "Adjustment", "TournamentFeed", "TournamentEvent",
             "SeasonTournament", "Table", "Seat", "Substitution", "Round", "RoundRevision", "Player",
             "SessionCheckIn"}
    with row_scope.within(row_scope.public()):
        for model in club_owned_models():
            b_rows = rows_of(model, b["club"])
            expected = b_rows if model.__name__ in shown else set()
            if model.__name__ == "Player":   # the players with an entry in it
                expected = set(b["tournament"].entries.values_list("player_id", flat=True))
            assert visible(as_site_role, model, b_rows) == expected, model.__name__


def test_a_worker_reads_its_jobs_club(two_clubs, as_site_role):
    a, b = two_clubs
    task_prerun.send(sender=tasks.audit_finish, task_id="rls-test", args=(a["audit"].pk,), kwargs={})
    try:
        assert row_scope.current().clubs == {a["club"].pk} and not row_scope.current().system
        for model in club_owned_models():
            assert visible(as_site_role, model, rows_of(model, b["club"])) == set(), model.__name__
            assert visible(as_site_role, model, rows_of(model, a["club"])) == rows_of(model, a["club"])
    finally:
        task_postrun.send(sender=tasks.audit_finish, task_id="rls-test")
    assert row_scope.current() == row_scope.public()


def test_the_scope_ends_with_its_transaction(two_clubs, as_site_role):
    """SET LOCAL: once the statement's transaction ends, the connection holds no scope."""
    a, _ = two_clubs
    with row_scope.within(row_scope.of_clubs([a["club"].pk])):
        assert visible(as_site_role, Tournament, {a["tournament"].pk}) == {a["tournament"].pk}
    plain = psycopg.ClientCursor(as_site_role)   # no scope of its own, unlike the site's cursors
    assert plain.execute("SELECT current_setting('gupai.clubs', true), count(*) FROM scoring_tournament").fetchone() \
        in (("", 0), (None, 0))


# --- The site itself connected as its role --------------------------------------------------------

@pytest.fixture
def the_site_as_its_role(transactional_db):
    """The site's own connection as the site's role, as in production; the superuser's again
    after (the test database is emptied by it)."""
    conn = connections["default"]
    site_role_create(conn, ROLE, PASSWORD)
    saved = conn.settings_dict["USER"], conn.settings_dict["PASSWORD"]
    conn.close()
    conn.settings_dict["USER"], conn.settings_dict["PASSWORD"] = ROLE, PASSWORD
    yield
    conn.close()
    conn.settings_dict["USER"], conn.settings_dict["PASSWORD"] = saved


def test_the_site_works_as_its_role_each_request_in_its_scope(two_clubs, the_site_as_its_role):
    a, b = two_clubs
    scorer = Client(HTTP_AUTHORIZATION=f"Scorer {a['token']}")
    answer = scorer.post(reverse("api-table-rounds", args=[a["table"].pk]), JIE_LONG, content_type="application/json")
    assert answer.status_code == 201, answer.content
    assert scorer.get(reverse("api-table-rounds", args=[a["table"].pk])).json()["count"] == 2
    director = Client()
    assert director.login(username="alice", password="alice-secret-1")
    assert director.get(reverse("director-club", args=[a["club"].pk])).status_code == 200
    assert director.get(reverse("director-club", args=[b["club"].pk])).status_code in (403, 404)
    assert Client().get(f"/t/{b['tournament'].slug}/").status_code == 404
    # A worker: the ratings rebuilt from scratch in the club's scope (their rows written by COPY,
    # which row security refuses to this role: through a temporary table).
    tasks.ratings_rebuild.apply(args=(a["club"].pk,))
    with row_scope.within(row_scope.of_clubs([a["club"].pk])):
        assert RatingChange.objects.filter(club=a["club"]).count() == 8   # two deals, four players
        assert not RatingChange.objects.filter(club=b["club"]).exists()


# --- Through PgBouncer in transaction mode ---------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def pgbouncer(transactional_db):
    """A PgBouncer of the test's own, in transaction mode, one server connection for all its
    clients (so a second client gets the first's connection), in front of the test database."""
    binary = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
    if not Path(binary).exists():
        pytest.skip("pgbouncer is not installed")
    db = connections["default"].settings_dict
    port, folder = free_port(), Path(tempfile.mkdtemp(prefix="gupai-pgbouncer-"))
    (folder / "users.txt").write_text(f'"{ROLE}" "{PASSWORD}"\n')
    (folder / "pgbouncer.ini").write_text(
        f"[databases]\n{db['NAME']} = host={db['HOST'] or '127.0.0.1'} port={db['PORT'] or 5432} dbname={db['NAME']}\n"
        f"[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {folder / 'users.txt'}\npool_mode = transaction\n"
        f"default_pool_size = 1\nmax_client_conn = 20\nlogfile = {folder / 'pgbouncer.log'}\n"
        "ignore_startup_parameters = extra_float_digits,options\n")
    root = os.geteuid() == 0   # pgbouncer will not run as root: it becomes postgres, who reads the folder
    for path in (folder, *folder.iterdir()):
        if root:
            shutil.chown(path, "postgres")
    command = [binary, *(["-u", "postgres"] if root else []), str(folder / "pgbouncer.ini")]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for(port, process, folder)
        yield site_role_dsn(host="127.0.0.1", port=port)
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def _wait_for(port: int, process, folder: Path) -> None:
    for _ in range(100):
        if process.poll() is not None:
            log = (folder / "pgbouncer.log").read_text() if (folder / "pgbouncer.log").exists() else ""
            pytest.fail(f"pgbouncer stopped: {process.stderr.read().decode()} {log}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    pytest.fail("pgbouncer did not listen")


def test_through_pgbouncer_club_a_sees_none_of_club_b_and_leaves_nothing_behind(two_clubs, pgbouncer):
    a, b = two_clubs
    with connect(pgbouncer) as conn, row_scope.within(row_scope.of_clubs([a["club"].pk])):
        for model in club_owned_models():
            assert visible(conn, model, rows_of(model, b["club"])) == set(), model.__name__
            assert visible(conn, model, rows_of(model, a["club"])) == rows_of(model, a["club"]), model.__name__
    # Another client, given the same server connection next (one in the pool), sets no scope:
    # it sees only the public's rows (none: both tournaments are private).
    with psycopg.connect(pgbouncer, autocommit=True, prepare_threshold=None) as other:
        assert other.execute("SELECT count(*) FROM scoring_tournament").fetchone() == (0,)
        assert other.execute("SELECT count(*) FROM scoring_roundrevision").fetchone() == (0,)


# --- A transaction sets its scope once --------------------------------------------------------------

class _Sent:
    """Records what reaches psycopg's cursor (below the scoped cursor: the setting included)."""

    sent: list[str] = []

    def execute(self, query, params=None, **kwargs):
        _Sent.sent.append(query)
        return super().execute(query, params, **kwargs)


class _SentClient(_Sent, Cursor):
    pass


class _SentServer(_Sent, ServerBindingCursor):
    pass


class _SpyClient(ScopedCursor, _SentClient):
    pass


class _SpyServer(ScopedServerCursor, _SentServer):
    pass


@pytest.fixture
def sent():
    """The statements the site's default connection sends from now on, as sent (through the
    connection's own scoped cursor: server-side binding, or client-side through PgBouncer)."""
    conn = connections["default"]
    conn.ensure_connection()
    saved = conn.connection.cursor_factory
    conn.connection.cursor_factory = _SpyServer if issubclass(saved, ScopedServerCursor) else _SpyClient
    _Sent.sent = []
    yield _Sent.sent
    conn.connection.cursor_factory = saved


def settings_sent(sent: list[str]) -> int:
    return sum("set_config" in q for q in sent)


def test_a_transaction_sets_its_scope_once_and_again_when_it_changes(two_clubs, sent):
    a, b = two_clubs
    with row_scope.within(row_scope.of_clubs([a["club"].pk])), transaction.atomic():
        list(Tournament.objects.all())
        list(Entry.objects.all())
        list(Session.objects.all())
        assert settings_sent(sent) == 1
        with row_scope.within(row_scope.of_clubs([a["club"].pk, b["club"].pk])):   # widened: set again
            list(Tournament.objects.all())
        assert settings_sent(sent) == 2
    with row_scope.within(row_scope.of_clubs([a["club"].pk])):   # autocommit: each statement its own
        list(Tournament.objects.all())
        list(Entry.objects.all())
    assert settings_sent(sent) == 4


def test_a_savepoint_rolled_back_takes_the_setting_with_it(two_clubs, sent):
    a, _ = two_clubs
    with row_scope.within(row_scope.of_clubs([a["club"].pk])), transaction.atomic():
        try:
            with transaction.atomic():   # a savepoint: the scope is first set inside it
                list(Tournament.objects.all())
                raise RuntimeError
        except RuntimeError:
            pass
        list(Tournament.objects.all())   # set again: the rollback undid it
    assert settings_sent(sent) == 2


def test_a_statement_is_prepared_once_run_often_with_or_without_the_setting_before_it(two_clubs, sent):
    """Server-side binding (the site's connections without a pooler): every statement goes with
    its values apart, and psycopg prepares one at its fifth run, so PostgreSQL plans it once, not
    at every deal or page. One that needs the scope set goes in one pipeline with the setting (one
    round trip; in autocommit the two share the pipeline's one transaction): prepared too."""
    conn = connections["default"]
    if not conn.settings_dict["OPTIONS"].get("server_side_binding"):
        pytest.skip("the connection binds values client-side (through PgBouncer: DATABASE_POOLER)")
    assert issubclass(conn.connection.cursor_factory, ScopedServerCursor)
    a, _ = two_clubs
    ta = a["tournament"].pk
    with row_scope.within(row_scope.of_clubs([a["club"].pk])):
        in_autocommit = [list(Entry.objects.filter(tournament_id=ta).values_list("pk", flat=True)) for _ in range(6)]
        with transaction.atomic():
            in_transaction = [list(Session.objects.filter(tournament_id=ta).values_list("pk", flat=True))
                              for _ in range(6)]
        with conn.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            prepared = [row[0] for row in cursor.fetchall()]
    assert in_autocommit[0] and all(run == in_autocommit[0] for run in in_autocommit)
    assert in_transaction[0] and all(run == in_transaction[0] for run in in_transaction)
    # Autocommit: each statement with its setting before it; a transaction: the setting once.
    assert settings_sent(sent) == 6 + 1
    assert not any("set_config" in q and "scoring_" in q for q in sent)   # never one string
    assert any('FROM "scoring_entry"' in statement and "$1" in statement for statement in prepared)
    assert any('FROM "scoring_session"' in statement and "$1" in statement for statement in prepared)


def test_as_its_role_each_transaction_sees_its_own_scope(two_clubs, the_site_as_its_role):
    """Bound by the policies: a transaction after another, a changed scope, a savepoint rolled
    back — each statement sees exactly its scope's rows."""
    a, b = two_clubs
    ta, tb = a["tournament"].pk, b["tournament"].pk

    def seen():
        return set(Tournament.objects.filter(pk__in=[ta, tb]).values_list("pk", flat=True))

    with row_scope.within(row_scope.of_clubs([a["club"].pk])), transaction.atomic():
        assert seen() == {ta}
        with row_scope.within(row_scope.of_clubs([b["club"].pk])):
            assert seen() == {tb}
        assert seen() == {ta}
        try:
            with transaction.atomic(), row_scope.within(row_scope.of_clubs([b["club"].pk])):
                assert seen() == {tb}
                raise RuntimeError
        except RuntimeError:
            pass
        assert seen() == {ta}
    with row_scope.within(row_scope.of_clubs([b["club"].pk])), transaction.atomic():
        assert seen() == {tb}
    with row_scope.within(row_scope.public()):
        assert seen() == set()
