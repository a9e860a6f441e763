"""Django's PostgreSQL backend (``ENGINE``: ``gupai_site.postgresql``, set by
``gupai_site.operations.postgresql_options``) whose health check of a persistent connection costs
no round trip while the connection is sound.

Django checks a persistent connection before each request uses it (``conn_health_checks``) by
sending ``SELECT 1``: a round trip to the database on every request, a tenth of a deal's. An
idle connection the server has closed (a restart, ``pg_terminate_backend``, an idle timeout)
has something to read — the server's FATAL notice, then the end of the stream — while a sound
idle one has nothing. So: nothing to read, the connection is sound; something to read, Django's
``SELECT 1`` decides (it fails on a closed connection, which Django then replaces; a
notification read on a sound one passes).

It also tells the row scope's cursor (``gupai_site.row_security``) when a transaction ends, so
that a transaction sets its scope once rather than with every statement."""

from __future__ import annotations

import select

from django.db.backends.postgresql import base

from gupai_site import row_security


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        row_security.track(connection)
        return connection

    # Where a transaction ends (or a savepoint's settings are undone), the scope set in it is gone.
    def _commit(self):
        row_security.forget(self.connection)
        return super()._commit()

    def _rollback(self):
        row_security.forget(self.connection)
        return super()._rollback()

    def _savepoint_rollback(self, sid):
        row_security.forget(self.connection)
        return super()._savepoint_rollback(sid)

    def _set_autocommit(self, autocommit):
        row_security.forget(self.connection)
        return super()._set_autocommit(autocommit)

    def is_usable(self):
        if self.connection is None or self.connection.closed or self.connection.broken:
            return False
        try:
            readable, _, _ = select.select([self.connection.fileno()], [], [], 0)
        except (OSError, ValueError):
            return False
        return super().is_usable() if readable else True
