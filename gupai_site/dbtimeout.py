"""PostgreSQL's ``statement_timeout`` and ``lock_timeout`` in a connection's libpq ``options``
(settings set the web's, ``gupai_site.celery`` the tasks')."""

from __future__ import annotations

import re


def _with(options: str, name: str, seconds: float) -> str:
    kept = re.sub(rf"\s*-c\s*{name}=\S+", "", options or "").strip()
    if seconds > 0:
        kept = f"{kept} -c {name}={int(seconds * 1000)}".strip()
    return kept


def with_statement_timeout(options: str, seconds: float) -> str:
    """libpq ``options`` with ``-c statement_timeout`` set to ``seconds`` (0: none), others kept."""
    return _with(options, "statement_timeout", seconds)


def with_lock_timeout(options: str, seconds: float) -> str:
    """libpq ``options`` with ``-c lock_timeout`` set to ``seconds`` (0: none), others kept."""
    return _with(options, "lock_timeout", seconds)
