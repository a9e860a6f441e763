"""gunicorn's worker for ``gupai_site.asgi`` (``-k gupai_site.asgi_worker.UvicornWorker``): uvicorn
in each worker process, logging as the sync workers did.

- The access log is the router's (``gupai_site.asgi``: gunicorn's combined format with the time
  taken), written to gunicorn's access log; uvicorn's own is off. uvicorn's error log goes to
  gunicorn's. Both loggers mask scorer tokens and credentials (``MaskSecretsFilter``), as
  ``gupai_site.gunicorn_logging.MaskingLogger`` does for gunicorn's own lines.
- A deadline on each request's head and a limit of unfinished heads per address
  (``gupai_site.head_deadline``): uvicorn has neither.
- No restart after ``max_requests``: a restart drops every held events stream at once, and each
  reconnection would count towards the next one.
"""

from __future__ import annotations

import logging

from uvicorn_worker import UvicornWorker as _UvicornWorker

from gupai_site.head_deadline import HeadDeadlineProtocol
from gupai_site.logmask import MaskSecretsFilter


class UvicornWorker(_UvicornWorker):
    CONFIG_KWARGS = {**_UvicornWorker.CONFIG_KWARGS, "access_log": False, "lifespan": "on",
                     "http": HeadDeadlineProtocol}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.config.limit_max_requests = None
        for name, source in (("uvicorn.error", self.log.error_log), ("gupai_site.access", self.log.access_log)):
            logger = logging.getLogger(name)
            logger.handlers = source.handlers
            logger.setLevel(source.level if name == "uvicorn.error" else logging.INFO)
            logger.propagate = False
            if not any(isinstance(f, MaskSecretsFilter) for f in logger.filters):
                logger.addFilter(MaskSecretsFilter())
