"""PostgreSQL's ``statement_timeout`` in a connection's libpq ``options`` (settings set the web's,
``gupai_site.celery`` the tasks')."""

from __future__ import annotations

import re


def with_statement_timeout(options: str, seconds: float) -> str:
    """libpq ``options`` with ``-c statement_timeout`` set to ``seconds`` (0: none), others kept."""
    kept = re.sub(r"\s*-c\s*statement_timeout=\S+", "", options or "").strip()
    if seconds > 0:
        kept = f"{kept} -c statement_timeout={int(seconds * 1000)}".strip()
    return kept
