"""``manage.py restore FILE``: a backup (its folder or its manifest.json) into an EMPTY database,
the site's or ``--database-url``'s, after checking every part's sha256 (``gupai_site.backups``).
There is no way to restore over existing tables: create a new database and restore into it."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from gupai_site.backups import BackupError, restore


class Command(BaseCommand):
    help = "Restore a backup (its folder or manifest.json) into an empty database."

    def add_arguments(self, parser):
        parser.add_argument("backup", type=Path, help="The backup's folder (or its manifest.json).")
        parser.add_argument("--database-url", default=None,
                            help="Restore into this database (a DATABASE_URL) instead of the site's.")
        parser.add_argument("--media-root", type=Path, default=None,
                            help="Restore the stored files here instead of MEDIA_ROOT.")

    def handle(self, *args, backup, database_url=None, media_root=None, **options):
        try:
            manifest = restore(backup, database_url=database_url, media_root=media_root)
        except BackupError as e:
            raise CommandError(str(e)) from e
        self.stdout.write(f"Restored the backup of {manifest['created']} ({manifest['engine']}, "
                          f"{manifest['files_restored']} stored files).")
