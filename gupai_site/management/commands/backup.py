"""``manage.py backup``: the database and the stored files into a new folder of ``BACKUP_DIR``, then
backups older than ``BACKUP_KEEP`` days deleted (``gupai_site.backups``). Celery beat runs it
nightly (``gupai_site.tasks.backup``)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from gupai_site.backups import BackupError, backup_create, backups_prune


class Command(BaseCommand):
    help = "Back up the database and the stored files into BACKUP_DIR; delete backups older than BACKUP_KEEP days."

    def add_arguments(self, parser):
        parser.add_argument("--dir", type=Path, default=None, help="Write here instead of BACKUP_DIR.")

    def handle(self, *args, dir=None, **options):
        try:
            folder = backup_create(into=dir)
            pruned = backups_prune(into=dir)
        except BackupError as e:
            raise CommandError(str(e)) from e
        self.stdout.write(f"Backup written: {folder}")
        for path in pruned:
            self.stdout.write(f"Deleted (older than the days kept): {path}")
