"""Secrets out of every log line: scorer tokens in ``/s/<token>/`` paths and credentials after
``Authorization``.

A table's scorer link ``/s/<token>/`` carries its only key (docs/reliability.md says why it is
masked rather than traded for a cookie). Every request line, referer, "Not Found: <path>"
warning and error message that names such a path is written with the token part replaced by
``****``: nothing of the token is kept, not even its length. The filter works on the finished
message (``record.getMessage()``), so it does not matter how a logger put the path in: a format
argument, a mapping (gunicorn's access log atoms), or text.

``MaskSecretsFilter`` goes on every handler of Django's ``LOGGING`` (settings) and on gunicorn's
loggers (``gupai_site.gunicorn_logging``).
"""

from __future__ import annotations

import logging
import re

MASK = "****"

#: ``/s/`` (or its URL-encoded form ``%2Fs%2F``) and the path segment after it: the token, up to
#: the next slash, quote, space, query or fragment. Anywhere in the text, also inside a full URL
#: (a referer) or a longer path: masking one path segment too many is harmless, one too few is not.
_SCORER_PATH = re.compile(
    r"(?P<head>(?:/|%2F)s(?:/|%2F))(?P<token>(?:(?!%2F)[^/\s\"'?#&<>\\])+)", re.IGNORECASE)

#: ``Authorization: Scorer abc``, ``'HTTP_AUTHORIZATION': 'Token abc'``, ``authorization=Bearer abc``:
#: the value (scheme kept) up to the end of the quoted string or the line.
_AUTHORIZATION = re.compile(
    r"(?P<head>\b(?:HTTP_)?(?:PROXY_)?AUTHORIZATION\b[\"']?\s*[:=]\s*[\"']?)"
    r"(?P<value>[^\"'\r\n,}]+)", re.IGNORECASE)
#: An authorization value on its own, as a header atom or a message would show it.
_SCHEME_VALUE = re.compile(r"^(?P<scheme>[A-Za-z][\w.+-]*)\s+\S.*$", re.DOTALL)


def _mask_authorization_value(value: str) -> str:
    m = _SCHEME_VALUE.match(value.strip())
    return f"{m.group('scheme')} {MASK}" if m else MASK


def mask_secrets(text: str) -> str:
    """``text`` with every scorer token and authorization value replaced by ``****``."""
    if not text:
        return text
    text = _SCORER_PATH.sub(lambda m: m.group("head") + MASK, text)
    return _AUTHORIZATION.sub(lambda m: m.group("head") + _mask_authorization_value(m.group("value")), text)


def mask_header_value(name: str, value: str) -> str:
    """A request or response header's value as it may be logged."""
    lowered = name.lower().replace("_", "-")
    if lowered.endswith(("authorization", "cookie", "csrftoken", "x-csrf-token", "x-api-key")):
        return _mask_authorization_value(value) if lowered.endswith("authorization") else MASK
    return mask_secrets(value)


class MaskSecretsFilter(logging.Filter):
    """Rewrites each record so that its message, traceback and stack text are masked (and never
    drops a record). The record is formatted here, once: ``msg`` becomes the masked text and
    ``args`` empty, so that every handler after this one sees the masked text too."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: leave it to the handler to report
            return True
        masked = mask_secrets(message)
        if masked != message or record.args:
            record.msg, record.args = masked, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask_secrets(record.exc_text)
        if record.stack_info:
            record.stack_info = mask_secrets(record.stack_info)
        return True
