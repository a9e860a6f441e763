"""Scorer tokens and credentials never reach a log: the masking filter (gupai_site/logmask.py),
Django's handlers that carry it, and gunicorn's logger (gupai_site/gunicorn_logging.py)."""

from __future__ import annotations

import io
import logging
import sys
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from gunicorn.config import Config

from gupai_site.gunicorn_logging import MaskingLogger
from gupai_site.logmask import MaskSecretsFilter, mask_secrets

TOKEN = "pX3v_Kq9-ZtRw2LmN8sYbC4dHfJ6aE0u"


@pytest.mark.parametrize("text, masked", [
    (f"GET /s/{TOKEN}/ HTTP/1.1", "GET /s/****/ HTTP/1.1"),
    (f"Not Found: /s/{TOKEN}/", "Not Found: /s/****/"),
    (f"/s/{TOKEN}/deals/12/correct/", "/s/****/deals/12/correct/"),
    (f"/s/{TOKEN}", "/s/****"),  # before APPEND_SLASH's redirect
    (f"/s/{TOKEN}?x=1", "/s/****?x=1"),
    (f'"https://club.example.org/s/{TOKEN}/"', '"https://club.example.org/s/****/"'),  # a referer
    (f"next=%2Fs%2F{TOKEN}%2F", "next=%2Fs%2F****%2F"),
    (f"/s/{TOKEN}/ and /s/{TOKEN[::-1]}/", "/s/****/ and /s/****/"),
    ("/s/a%20b/", "/s/****/"),
    ("Authorization: Scorer abc.def", "Authorization: Scorer ****"),
    ("'HTTP_AUTHORIZATION': 'Token 9f8e7d'", "'HTTP_AUTHORIZATION': 'Token ****'"),
    ("authorization=Bearer x.y.z", "authorization=Bearer ****"),
    ("GET /api/v1/tables/3/ HTTP/1.1", "GET /api/v1/tables/3/ HTTP/1.1"),  # nothing to hide
    ("GET /static/css/site.css HTTP/1.1", "GET /static/css/site.css HTTP/1.1"),
    ("", ""),
])
def test_mask_secrets(text, masked):
    assert mask_secrets(text) == masked


def record(msg, *args, exc_info=None) -> logging.LogRecord:
    return logging.LogRecord("django.request", logging.WARNING, __file__, 1, msg, args or None, exc_info)


def test_the_filter_masks_the_message_and_its_arguments():
    r = record("Not Found: %s", f"/s/{TOKEN}/")
    assert MaskSecretsFilter().filter(r) is True  # masks, never drops
    assert r.getMessage() == "Not Found: /s/****/"
    r = record("%(r)s %(f)s", {"r": f"GET /s/{TOKEN}/ HTTP/1.1", "f": f"http://x/s/{TOKEN}/"})
    MaskSecretsFilter().filter(r)
    assert r.getMessage() == "GET /s/****/ HTTP/1.1 http://x/s/****/"
    assert TOKEN not in logging.Formatter().format(r)


def test_the_filter_masks_tracebacks():
    try:
        raise ValueError(f"no table for /s/{TOKEN}/")
    except ValueError:
        r = record("Internal Server Error: %s", "/s/x/", exc_info=sys.exc_info())
    MaskSecretsFilter().filter(r)
    text = logging.Formatter().format(r)
    assert "ValueError: no table for /s/****/" in text and TOKEN not in text


def test_every_django_handler_masks(capsys):
    """The handlers of Django's LOGGING carry the filter, the "django" logger writes through
    them (not through Django's mail_admins, whose e-mail would carry the request), and a real
    django.request warning comes out masked."""
    handlers = settings.LOGGING["handlers"]
    assert handlers and all("mask_secrets" in h.get("filters", []) for h in handlers.values())
    assert settings.LOGGING["loggers"]["django"]["handlers"] == ["console"]
    for name in ("", "django", "django.request", "django.server", "django.security.csrf"):
        logger = logging.getLogger(name)
        while logger is not None:
            for handler in logger.handlers:
                if not type(handler).__module__.startswith("_pytest"):
                    assert any(isinstance(f, MaskSecretsFilter) for f in handler.filters), (name, handler)
            logger = logger.parent if logger.propagate else None


@pytest.mark.django_db
def test_a_not_found_scorer_page_is_logged_masked(client):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(MaskSecretsFilter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        assert client.get(f"/s/{TOKEN}/").status_code == 404
    finally:
        logger.removeHandler(handler)
    assert stream.getvalue().strip() == "Not Found: /s/****/"


# --- gunicorn -----------------------------------------------------------------------------------

def gunicorn_logger(tmp_path, **settings_):
    cfg = Config()
    cfg.set("accesslog", str(tmp_path / "access.log"))
    cfg.set("errorlog", str(tmp_path / "error.log"))
    cfg.set("access_log_format", '%(h)s "%(r)s" %(s)s "%(f)s" "%({authorization}i)s" "%({cookie}i)s" %(U)s')
    for key, value in settings_.items():
        cfg.set(key, value)
    return MaskingLogger(cfg)


def request_to(path: str, headers: list[tuple[str, str]], remote="203.0.113.9"):
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": path, "PATH_INFO": path, "QUERY_STRING": "",
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": remote,
               **{f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers}}
    resp = SimpleNamespace(status="200 OK", headers=[("Content-Type", "text/html")], sent=512)
    return resp, SimpleNamespace(headers=[(k.upper(), v) for k, v in headers]), environ


def test_gunicorn_access_and_error_logs_are_masked(tmp_path):
    log = gunicorn_logger(tmp_path)
    headers = [("Referer", f"https://club.example.org/s/{TOKEN}/"), ("Authorization", f"Scorer {TOKEN}"),
               ("Cookie", "sessionid=abc123; csrftoken=def456")]
    log.access(*request_to(f"/s/{TOKEN}/deals/4/correct/", headers), timedelta(milliseconds=12))
    try:
        raise RuntimeError(f"boom at /s/{TOKEN}/")
    except RuntimeError:
        log.exception("Error handling request %s", f"/s/{TOKEN}/")
    for handler in log.access_log.handlers + log.error_log.handlers:
        handler.flush()
    access = (tmp_path / "access.log").read_text()
    error = (tmp_path / "error.log").read_text()
    assert TOKEN not in access and TOKEN not in error
    assert "abc123" not in access and "def456" not in access
    assert access.strip() == ('203.0.113.9 "GET /s/****/deals/4/correct/ HTTP/1.1" 200 '
                              '"https://club.example.org/s/****/" "Scorer ****" "****" /s/****/deals/4/correct/')
    assert "Error handling request /s/****/" in error and "RuntimeError: boom at /s/****/" in error


def test_gunicorn_logs_the_client_behind_a_proxy_only(tmp_path, monkeypatch):
    headers = [("X-Forwarded-For", "198.51.100.1, 192.0.2.44")]
    log = gunicorn_logger(tmp_path)
    log.access(*request_to("/", headers, remote="10.0.0.2"), timedelta(0))
    monkeypatch.setenv("BEHIND_PROXY", "1")
    log.access(*request_to("/", headers, remote="10.0.0.2"), timedelta(0))
    for handler in log.access_log.handlers:
        handler.flush()
    first, second = (tmp_path / "access.log").read_text().splitlines()
    assert first.startswith("10.0.0.2 ")  # the header is not believed
    assert second.startswith("192.0.2.44 ")  # the address our proxy saw
