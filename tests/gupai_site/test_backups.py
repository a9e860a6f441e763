"""Backups (gupai_site/backups.py and its commands): a backup restores into a fresh database with
every deal and its hash chain; a restore refuses a database with tables and a damaged backup; old
backups go; the drill passes on a good backup and fails on one whose deal was tampered with.

On the test run's own engine: PostgreSQL in CI (pg_dump, pg_restore, a fresh database made for
the test), SQLite otherwise (sqlite3's backup API, a fresh file)."""

from __future__ import annotations

import json
import uuid
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from psycopg import sql

from gupai_site.backups import (
    FILES,
    MANIFEST,
    BackupError,
    backup_create,
    backups_in,
    backups_prune,
    database_settings,
    pg_connect,
    restore,
    table_count,
)
from scoring.models import RoundRevision
from scoring.services.rounds import round_record

JIE_LONG = {"points": [2, 12, 34, 18], "leader": 0, "entered_by": 0}
ON_POSTGRESQL = connection.vendor == "postgresql"


@pytest.fixture
def backup_dir(tmp_path, settings):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.BACKUP_DIR


@pytest.fixture
def deals(transactional_db, make_setup):
    """A tournament with three deals, committed (pg_dump reads from its own connection)."""
    setup = make_setup("jie_long")
    for _ in range(3):
        round_record(actor=setup.scorer_actor, table=setup.table, body=JIE_LONG)
    return setup


@contextmanager
def fresh_database(tmp_path):
    """An empty database of the run's engine: its URL."""
    if not ON_POSTGRESQL:
        yield f"sqlite:///{tmp_path / f'h29_restore_{uuid.uuid4().hex[:8]}.sqlite3'}"
        return
    server = database_settings()
    name = f"h29_restore_{uuid.uuid4().hex[:8]}"
    with pg_connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield f"postgres://{server.get('USER') or 'postgres'}@{server.get('HOST') or '127.0.0.1'}:" \
              f"{server.get('PORT') or 5432}/{name}"
    finally:
        with pg_connect(server, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def revisions_at(url: str) -> list[tuple]:
    """Every stored revision of the database at ``url``: (round, number, hash, prev_hash)."""
    query = "SELECT round_id, number, hash, prev_hash FROM scoring_roundrevision ORDER BY id"
    db = database_settings(url)
    if db["ENGINE"].endswith("postgresql"):
        with pg_connect(db) as conn:
            return [tuple(row) for row in conn.execute(query).fetchall()]
    import sqlite3
    with sqlite3.connect(db["NAME"]) as conn:
        return [tuple(row) for row in conn.execute(query).fetchall()]


def revisions_here() -> list[tuple]:
    return list(RoundRevision.objects.order_by("id").values_list("round_id", "number", "hash", "prev_hash"))


@contextmanager
def revisions_writable():
    """The immutability trigger of migration 0002 off for a moment, as a database owner could."""
    with connection.cursor() as cur:
        if ON_POSTGRESQL:
            cur.execute("ALTER TABLE scoring_roundrevision DISABLE TRIGGER scoring_roundrevision_immutable")
            try:
                yield
            finally:
                cur.execute("ALTER TABLE scoring_roundrevision ENABLE TRIGGER scoring_roundrevision_immutable")
        else:
            cur.execute("SELECT sql FROM sqlite_master WHERE name = 'scoring_roundrevision_immutable'")
            (trigger,) = cur.fetchone()
            cur.execute("DROP TRIGGER scoring_roundrevision_immutable")
            try:
                yield
            finally:
                cur.execute(trigger)


def test_a_backup_restores_into_a_fresh_database_with_every_deal(deals, backup_dir, tmp_path):
    folder = backup_create()
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest["engine"] == connection.vendor
    assert manifest["migrations"]["scoring"].startswith("00")
    assert manifest["database"]["size_bytes"] > 0
    assert set(manifest["parts"]) == {"database.dump" if ON_POSTGRESQL else "database.sqlite3", FILES}
    with fresh_database(tmp_path) as url:
        restore(folder, database_url=url, media_root=tmp_path / "restored-media")
        restored = revisions_at(url)
    assert len(restored) == 3
    assert restored == revisions_here()   # the same deals, the same hash chain


def test_the_stored_files_come_back(deals, backup_dir, tmp_path, settings):
    (settings.MEDIA_ROOT / "sheets").mkdir(parents=True)
    (settings.MEDIA_ROOT / "sheets" / "table-1.pdf").write_bytes(b"%PDF-1.4 kept")
    folder = backup_create()
    with fresh_database(tmp_path) as url:
        manifest = restore(folder, database_url=url, media_root=tmp_path / "restored-media")
    assert manifest["files_restored"] == 1
    assert (tmp_path / "restored-media" / "sheets" / "table-1.pdf").read_bytes() == b"%PDF-1.4 kept"


def test_a_restore_refuses_a_database_with_tables(deals, backup_dir, tmp_path):
    folder = backup_create()
    before = revisions_here()
    with pytest.raises(CommandError, match="is not empty"):
        call_command("restore", str(folder), "--media-root", str(tmp_path / "m"))   # the site's own database
    assert revisions_here() == before


def test_a_damaged_backup_is_refused_and_nothing_restored(deals, backup_dir, tmp_path):
    folder = backup_create()
    dump = next(p for p in folder.iterdir() if p.name.startswith("database."))
    data = bytearray(dump.read_bytes())
    data[len(data) // 2] ^= 0xFF
    dump.write_bytes(bytes(data))
    with fresh_database(tmp_path) as url:
        with pytest.raises(BackupError, match="damaged"):
            restore(folder / MANIFEST, database_url=url, media_root=tmp_path / "m")
        assert table_count(database_settings(url)) == 0


def stamp(days_ago: float, now: datetime) -> str:
    return f"gupai-{(now - timedelta(days=days_ago)).strftime('%Y%m%dT%H%M%SZ')}"


def test_backups_older_than_the_days_kept_are_deleted(backup_dir):
    now = datetime(2026, 11, 29, 1, 30, tzinfo=UTC)
    for days in (20, 15, 13, 0):
        (backup_dir / stamp(days, now)).mkdir(parents=True)
    (backup_dir / "notes").mkdir()   # not a backup: left alone
    deleted = backups_prune(keep_days=14, now=now)
    assert sorted(p.name for p in deleted) == sorted([stamp(20, now), stamp(15, now)])
    assert [p.name for _, p in backups_in()] == [stamp(13, now), stamp(0, now)]
    assert (backup_dir / "notes").is_dir()


def test_the_newest_backup_is_kept_however_old(backup_dir):
    now = datetime(2026, 11, 29, 1, 30, tzinfo=UTC)
    for days in (40, 30):
        (backup_dir / stamp(days, now)).mkdir(parents=True)
    backups_prune(keep_days=14, now=now)
    assert [p.name for _, p in backups_in()] == [stamp(30, now)]


def test_the_backup_command_writes_one_and_deletes_the_old(deals, backup_dir, settings):
    settings.BACKUP_KEEP_DAYS = 14
    old = backup_dir / stamp(15, datetime.now(UTC))
    old.mkdir(parents=True)
    call_command("backup")
    assert not old.exists()
    assert len(backups_in()) == 1


def test_beat_runs_the_backup_nightly_on_the_documents_queue(deals, backup_dir, settings):
    from gupai_site.tasks import backup

    nightly = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "gupai_site.backup"]
    assert len(nightly) == 1
    assert settings.CELERY_TASK_ROUTES["gupai_site.backup"] == {"queue": "documents"}
    made = backup.delay().get()   # eager here: the task as a worker runs it
    assert [str(p) for _, p in backups_in()] == [made]


def test_the_drill_passes_on_a_good_backup(deals, backup_dir, capsys):
    backup_create()
    call_command("restore_drill")
    out = capsys.readouterr().out
    assert "passed  #" in out and "3 deals, 0 problems" in out
    assert "The drill passed" in out
    assert_no_drill_database_left()


def test_the_drill_fails_when_a_deal_was_tampered_with(deals, backup_dir, capsys):
    rev = RoundRevision.objects.order_by("id").first()
    with revisions_writable():
        RoundRevision.objects.filter(pk=rev.pk).update(result={**rev.result, "house": 0})
    backup_create()
    with pytest.raises(CommandError, match="The drill failed"):
        call_command("restore_drill")
    assert "failed  #" in capsys.readouterr().out
    assert_no_drill_database_left()


def test_the_drill_without_a_backup_says_so(backup_dir):
    with pytest.raises(CommandError, match="No backup"):
        call_command("restore_drill")


def assert_no_drill_database_left() -> None:
    if ON_POSTGRESQL:
        with pg_connect(database_settings()) as conn:
            left = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE 'gupai_drill_%'").fetchall()
        assert left == []

