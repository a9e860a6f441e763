"""``manage.py site_role NAME``: the PostgreSQL login role the site connects as, bound by the
tables' row-level security (no superuser, no ``BYPASSRLS``, owner of nothing); run again, it
updates the password and the grants (``gupai_site.row_security``). The password is read from
the environment variable ``SITE_DB_PASSWORD`` (never from the command line, which ``ps`` shows).
Run it as the role that owns the tables (the one ``migrate`` runs as) or a superuser."""

from __future__ import annotations

import os

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from gupai_site.row_security import ROLE_NAME, site_role_create


class Command(BaseCommand):
    help = "Create or update the site's PostgreSQL login role (bound by row-level security)."

    def add_arguments(self, parser):
        parser.add_argument("name", help="The role's name, e.g. gupai_site.")

    def handle(self, *args, name, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Row-level security is PostgreSQL's: SQLite has no roles.")
        if not ROLE_NAME.fullmatch(name):
            raise CommandError(f"A role name is lower-case letters, digits and _ (not {name!r}).")
        password = os.environ.get("SITE_DB_PASSWORD", "")
        if not password:
            raise CommandError("Set SITE_DB_PASSWORD to the role's password.")
        made = site_role_create(connection, name, password)
        self.stdout.write(f"Role {name} {'created' if made else 'updated'}: it reads and writes the site's tables, "
                          f"bound by their row-level security.")
