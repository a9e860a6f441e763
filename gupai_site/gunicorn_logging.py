"""gunicorn's logger for the site (``logger_class`` in ``gupai_site/gunicorn.conf.py``).

- Every line of the access and error logs goes through ``MaskSecretsFilter``: a scorer page's
  request line (``GET /s/<token>/ …``), the referer of the requests it makes (its CSS and JS)
  and "Error handling request /s/<token>/" are written with ``/s/****/``.
- Header atoms that hold credentials (``%({authorization}i)s``, cookies, CSRF tokens) are
  written masked, whatever the access log format asks for.
- Behind a proxy (``BEHIND_PROXY=1``) the client address (``%(h)s``) is the one the proxy put in
  ``X-Forwarded-For``, as Django sees it (``scoring.web.client_address``); otherwise the peer's address.
"""

from __future__ import annotations

from gunicorn.glogging import Logger

from gupai_site.logmask import MaskSecretsFilter, mask_header_value
from scoring.web.client_address import behind_proxy, client_address, proxy_hops


class MaskingLogger(Logger):
    def setup(self, cfg) -> None:
        super().setup(cfg)
        # On the loggers, not their handlers: gunicorn replaces its handlers on every reload
        # (SIGHUP), and a record logged on these loggers passes their filters first.
        for log in (self.error_log, self.access_log):
            if not any(isinstance(f, MaskSecretsFilter) for f in log.filters):
                log.addFilter(MaskSecretsFilter())

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key, value in atoms.items():
            if isinstance(value, str) and key.startswith("{") and key[-2:] in ("}i", "}o", "}e"):
                atoms[key] = mask_header_value(key[1:-2], value)
        if behind_proxy():
            atoms["h"] = client_address(environ.get("HTTP_X_FORWARDED_FOR"), environ.get("REMOTE_ADDR"),
                                        proxy_hops()) or "-"
        return atoms
