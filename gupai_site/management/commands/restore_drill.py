"""``manage.py restore_drill`` (``make restore-drill``): proof that the latest backup restores and
that what it holds is right.

1. the latest backup of ``BACKUP_DIR`` (or ``--backup``), its sha256 checked;
2. a scratch database made for it: ``gupai_drill_<UTC time>`` on the site's PostgreSQL server (a
   temporary file for an SQLite backup);
3. the backup restored there (``manage.py restore``'s code), its files into a temporary folder;
4. the replay audit of every tournament run in the scratch database, in a process of its own
   whose database it is (``manage.py audit_tournaments``, tasks eager), its result printed;
5. the scratch database dropped (``--keep`` leaves it).

Exit status 1 when the restore fails or any audit finds a mismatch.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from psycopg import sql

from gupai_site.backups import (
    BackupError,
    backup_folder,
    database_settings,
    latest_backup,
    pg_connect,
    restore,
    verified_manifest,
)

MANAGE = Path(settings.BASE_DIR) / "manage.py"


def database_url(db: dict) -> str:
    password = f":{quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
    return (f"postgres://{db.get('USER') or 'postgres'}{password}@{db.get('HOST') or '127.0.0.1'}:"
            f"{db.get('PORT') or 5432}/{db['NAME']}")


class Command(BaseCommand):
    help = "Restore the latest backup into a scratch database, run the replay audit over it, then drop it."

    def add_arguments(self, parser):
        parser.add_argument("--backup", type=Path, default=None, help="This backup instead of the latest.")
        parser.add_argument("--keep", action="store_true", help="Leave the scratch database (to look into it).")

    def handle(self, *args, backup=None, keep=False, **options):
        folder = backup_folder(backup) if backup else latest_backup()
        if folder is None:
            raise CommandError(f"No backup in {settings.BACKUP_DIR}: run `manage.py backup` first.")
        try:
            manifest = verified_manifest(folder)
        except BackupError as e:
            raise CommandError(str(e)) from e
        stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S%f")
        name = f"gupai_drill_{stamp}"
        self.stdout.write(f"Drill: {folder.name} ({manifest['created']}) into {name}")
        with tempfile.TemporaryDirectory(prefix="gupai-drill-") as scratch:
            url, drop = self.scratch_database(manifest["engine"], name, Path(scratch))
            try:
                try:
                    restore(folder, database_url=url, media_root=Path(scratch) / "media")
                except BackupError as e:
                    raise CommandError(f"The restore failed: {e}") from e
                audited = self.audit(url)
            finally:
                if keep:
                    self.stdout.write(f"Kept: {url}")
                else:
                    drop()
        self.stdout.write(audited.stdout.rstrip())
        if audited.returncode != 0:
            raise CommandError(f"The drill failed: {audited.stderr.strip()[-2000:] or 'the audit did not pass'}")
        self.stdout.write(self.style.SUCCESS("The drill passed: the backup restores and every audit passed."))

    def scratch_database(self, engine: str, name: str, folder: Path):
        """(its URL, a function that drops it)."""
        if engine == "sqlite":
            return f"sqlite:///{folder / (name + '.sqlite3')}", lambda: None
        server = database_settings()
        if not server["ENGINE"].endswith("postgresql"):
            raise CommandError("A PostgreSQL backup is drilled on the site's PostgreSQL server (DATABASE_URL).")
        with pg_connect(server, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))

        def drop():
            with pg_connect(server, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        return database_url({**server, "NAME": name}), drop

    def audit(self, url: str) -> subprocess.CompletedProcess:
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_REPLICA_URL")}
        env.update(DATABASE_URL=url, SECRET_KEY=settings.SECRET_KEY, DJANGO_SETTINGS_MODULE="gupai_site.settings")
        return subprocess.run([sys.executable, str(MANAGE), "audit_tournaments"], env=env, capture_output=True,
                              text=True, check=False, cwd=MANAGE.parent)
