"""Django's PostgreSQL backend (``ENGINE``: ``gupai_site.postgresql``, set by
``gupai_site.operations.postgresql_options``) whose health check of a persistent connection costs
no round trip while the connection is sound.

Django checks a persistent connection before each request uses it (``conn_health_checks``) by
sending ``SELECT 1``: a round trip to the database on every request, a tenth of a deal's. An
idle connection the server has closed (a restart, ``pg_terminate_backend``, an idle timeout)
has something to read — the server's FATAL notice, then the end of the stream — while a sound
idle one has nothing. So: nothing to read, the connection is sound; something to read, Django's
``SELECT 1`` decides (it fails on a closed connection, which Django then replaces; a
notification read on a sound one passes)."""

from __future__ import annotations

import select

from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self):
        if self.connection is None or self.connection.closed or self.connection.broken:
            return False
        try:
            readable, _, _ = select.select([self.connection.fileno()], [], [], 0)
        except (OSError, ValueError):
            return False
        return super().is_usable() if readable else True
