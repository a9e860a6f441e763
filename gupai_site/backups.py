"""Backups of the site and their restore (``manage.py backup``, ``restore``, ``restore_drill``;
docs/reliability.md, Backups).

A backup is one folder of ``BACKUP_DIR``, ``gupai-<UTC time>`` (``gupai-20261129T013000Z``):

- ``database.dump``: PostgreSQL's ``pg_dump --format=custom`` (one consistent snapshot: pg_dump
  reads in a single repeatable-read transaction, while the site goes on writing), or
  ``database.sqlite3`` on SQLite (sqlite3's online backup API, the same guarantee);
- ``files.tar.gz``: the stored files (``MEDIA_ROOT``; the site keeps its documents in the
  database today, so it is usually empty);
- ``manifest.json``: when, the engine, the database's size, each app's last applied migration,
  and each part's size and sha256.

A restore checks every part's sha256 first, and writes only into an EMPTY database (no table at
all): nothing is ever restored over live data. Backups older than ``BACKUP_KEEP`` days are deleted
after each new one.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import dj_database_url
import psycopg
from django.conf import settings
from django.db import connections
from django.db.migrations.recorder import MigrationRecorder

PREFIX = "gupai-"
STAMP = "%Y%m%dT%H%M%SZ"
MANIFEST = "manifest.json"
FILES = "files.tar.gz"
DUMPS = {"postgresql": "database.dump", "sqlite": "database.sqlite3"}


class BackupError(Exception):
    """A backup or restore that cannot be done, and why (the commands print it)."""


# --- the database's settings ----------------------------------------------------------------------

def database_settings(url: str | None = None) -> dict:
    """The settings of the database at ``url`` (a DATABASE_URL), or of the site's own."""
    return dj_database_url.parse(url) if url else connections["default"].settings_dict


def engine_of(db: dict) -> str:
    engine = db["ENGINE"]
    if engine.endswith("postgresql"):
        return "postgresql"
    if engine.endswith("sqlite3"):
        return "sqlite"
    raise BackupError(f"Backups know PostgreSQL and SQLite, not {engine}.")


def pg_env(db: dict) -> dict[str, str]:
    """The environment that points libpq's tools (pg_dump, pg_restore) at ``db`` (the password
    there rather than on a command line anyone on the machine may read)."""
    env = dict(os.environ, PGDATABASE=db["NAME"], PGHOST=db.get("HOST") or "127.0.0.1",
               PGPORT=str(db.get("PORT") or 5432), PGUSER=db.get("USER") or "postgres", PGCONNECT_TIMEOUT="10")
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    return env


def pg_connect(db: dict, **kwargs) -> psycopg.Connection:
    return psycopg.connect(host=db.get("HOST") or "127.0.0.1", port=db.get("PORT") or 5432,
                           user=db.get("USER") or "postgres", password=db.get("PASSWORD") or None,
                           dbname=db["NAME"], connect_timeout=10, **kwargs)


def table_count(db: dict) -> int:
    """How many tables ``db`` holds (0: empty, a restore may go there)."""
    if engine_of(db) == "postgresql":
        with pg_connect(db) as conn:
            return conn.execute("SELECT count(*) FROM pg_catalog.pg_tables "
                                "WHERE schemaname NOT IN ('pg_catalog', 'information_schema')").fetchone()[0]
    path = Path(db["NAME"])
    if not path.exists() or path.stat().st_size == 0:
        return 0
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]


# --- backup ---------------------------------------------------------------------------------------

def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _run(command: list[str], env: dict, what: str) -> None:
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    except OSError as e:
        raise BackupError(f"{what}: {command[0]} could not run ({e}); install PostgreSQL's client tools.") from e
    if done.returncode != 0:
        raise BackupError(f"{what} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")


def _dump_database(db: dict, folder: Path) -> tuple[str, int]:
    """The database into ``folder``: (the part's name, the database's size in bytes)."""
    engine = engine_of(db)
    target = folder / DUMPS[engine]
    if engine == "postgresql":
        _run(["pg_dump", "--format=custom", "--no-owner", f"--file={target}"], pg_env(db), "pg_dump")
        with pg_connect(db) as conn:
            size = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
        return target.name, size
    source = sqlite3.connect(db["NAME"])
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
    finally:
        copy.close()
        source.close()
    return target.name, Path(db["NAME"]).stat().st_size


def _pack_files(media_root: Path, folder: Path) -> str:
    with tarfile.open(folder / FILES, "w:gz") as tar:
        if media_root.is_dir():
            for path in sorted(media_root.rglob("*")):
                tar.add(path, arcname=str(path.relative_to(media_root)), recursive=False)
    return FILES


def migration_heads(alias: str = "default") -> dict[str, str]:
    """Each app's last applied migration (the restore's code must know them all)."""
    heads: dict[str, str] = {}
    for app, name in MigrationRecorder(connections[alias]).applied_migrations():
        heads[app] = max(heads.get(app, ""), name)
    return dict(sorted(heads.items()))


def backup_create(*, into: Path | None = None, now: datetime | None = None) -> Path:
    """A backup of the site's database and stored files in a new folder of ``into``
    (``BACKUP_DIR``). Returns the folder; a failed backup leaves none behind."""
    into = Path(into or settings.BACKUP_DIR)
    now = now or datetime.now(UTC)
    db = database_settings()
    folder = into / f"{PREFIX}{now.strftime(STAMP)}"
    partial = into / f".{folder.name}.partial"
    into.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir()
    try:
        dump, size = _dump_database(db, partial)
        files = _pack_files(Path(settings.MEDIA_ROOT), partial)
        manifest = {
            "format": 1, "created": now.isoformat(timespec="seconds"), "engine": engine_of(db),
            "database": {"name": db["NAME"] if engine_of(db) == "postgresql" else Path(db["NAME"]).name,
                         "size_bytes": size},
            "migrations": migration_heads(),
            "parts": {name: {"bytes": (partial / name).stat().st_size, "sha256": sha256_of(partial / name)}
                      for name in (dump, files)},
        }
        (partial / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        if folder.exists():
            raise BackupError(f"{folder} exists already.")
        partial.rename(folder)   # whole or not at all: a half-written backup never looks like one
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return folder


def backups_in(into: Path | None = None) -> list[tuple[datetime, Path]]:
    """The backups of ``into``, oldest first, with their time (from their name)."""
    into = Path(into or settings.BACKUP_DIR)
    found = []
    for path in into.glob(f"{PREFIX}*"):
        try:
            when = datetime.strptime(path.name[len(PREFIX):], STAMP).replace(tzinfo=UTC)
        except ValueError:
            continue
        if path.is_dir():
            found.append((when, path))
    return sorted(found)


def latest_backup(into: Path | None = None) -> Path | None:
    found = backups_in(into)
    return found[-1][1] if found else None


def backups_prune(*, into: Path | None = None, keep_days: int | None = None, now: datetime | None = None) -> list[Path]:
    """Delete the backups older than ``keep_days`` (``BACKUP_KEEP``), never the newest one.
    Returns those deleted."""
    keep_days = settings.BACKUP_KEEP_DAYS if keep_days is None else keep_days
    cutoff = (now or datetime.now(UTC)) - timedelta(days=keep_days)
    found = backups_in(into)
    old = [path for when, path in found[:-1] if when < cutoff]
    for path in old:
        shutil.rmtree(path)
    return old


# --- restore --------------------------------------------------------------------------------------

def backup_folder(path: Path) -> Path:
    """The backup named by ``path``: its folder or its manifest."""
    path = Path(path)
    return path.parent if path.name == MANIFEST else path


def verified_manifest(folder: Path) -> dict:
    """The backup's manifest, once every part it names is there with its sha256; else BackupError."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
        parts = manifest["parts"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise BackupError(f"{folder} is no backup (its {MANIFEST} cannot be read: {e}).") from e
    for name, part in parts.items():
        path = folder / Path(name).name
        if not path.is_file():
            raise BackupError(f"The backup's {name} is missing.")
        if sha256_of(path) != part.get("sha256"):
            raise BackupError(f"The backup's {name} is damaged: its sha256 is not the manifest's. Nothing was restored.")
    return manifest


def _unpack_files(folder: Path, media_root: Path) -> int:
    with tarfile.open(folder / FILES, "r:gz") as tar:
        members = tar.getmembers()
        taken = [m.name for m in members if m.isfile() and (media_root / m.name).exists()]
        if taken:
            raise BackupError(f"{media_root} already holds {taken[0]} (and {len(taken) - 1} more): "
                              "restore the files into an empty folder.")
        if members:
            media_root.mkdir(parents=True, exist_ok=True)
            tar.extractall(media_root, filter="data")
    return sum(1 for m in members if m.isfile())


def restore(path: Path, *, database_url: str | None = None, media_root: Path | None = None) -> dict:
    """Restore the backup at ``path`` into the database at ``database_url`` (default: the site's),
    which must be empty, and its files into ``media_root`` (default: ``MEDIA_ROOT``). Returns the
    manifest."""
    folder = backup_folder(path)
    manifest = verified_manifest(folder)
    db = database_settings(database_url)
    engine = engine_of(db)
    if engine != manifest.get("engine"):
        raise BackupError(f"This is a {manifest.get('engine')} backup; the target database is {engine}.")
    tables = table_count(db)
    if tables:
        raise BackupError(f"The database {db['NAME']} is not empty ({tables} tables): a backup is restored only "
                          "into an empty database (create a new one, then restore into it).")
    media_root = Path(media_root or settings.MEDIA_ROOT)
    with tarfile.open(folder / FILES, "r:gz") as tar:   # refused before the database is touched
        taken = [m.name for m in tar.getmembers() if m.isfile() and (media_root / m.name).exists()]
    if taken:
        raise BackupError(f"{media_root} already holds {taken[0]}: restore the files into an empty folder.")
    dump = folder / DUMPS[engine]
    if engine == "postgresql":
        _run(["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", f"--dbname={db['NAME']}", str(dump)],
             pg_env(db), "pg_restore")
    else:
        source, target = sqlite3.connect(dump), sqlite3.connect(db["NAME"])
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
    manifest["files_restored"] = _unpack_files(folder, media_root)
    return manifest
