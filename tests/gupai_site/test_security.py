"""The security headers of every page (Content-Security-Policy), the production settings as the
environment sets them, ``manage.py check --deploy`` passing without a warning once collectstatic
has run, and production's static files with and without collectstatic, through gunicorn."""

from __future__ import annotations

import http.client
import json
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.integration.stack import Site

ROOT = Path(__file__).resolve().parents[2]

STRICT = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def directives(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return {name: value for name, _, value in (part.strip().partition(" ") for part in header.split(";"))}


# --- Content-Security-Policy --------------------------------------------------------------------

@pytest.mark.django_db
def test_every_kind_of_page_has_the_strict_policy(client, jie_long):
    """Public, scorer, director, Swagger UI and admin pages alike (errors too)."""
    root = get_user_model().objects.create_superuser("root", "root@example.org", "root-secret-1")
    pages = ["/", "/calculator/", f"/s/{jie_long.token}/", "/director/login/", "/api/docs/", "/admin/login/",
             "/s/no-such-token/"]
    for path in pages:
        response = client.get(path)
        assert response.status_code in (200, 404), path
        assert directives(response) == STRICT, path
    client.force_login(jie_long.director)
    for path in [f"/director/tournaments/{jie_long.tournament.pk}/", f"/director/tables/{jie_long.table.pk}/link/"]:
        response = client.get(path)
        assert response.status_code == 200, path
        assert directives(response) == STRICT, path
    response = client.post(f"/director/tables/{jie_long.table.pk}/rotate/")  # the page with the QR code
    assert "<svg" in response.content.decode() and directives(response) == STRICT
    client.force_login(root)
    for path in ["/admin/", "/admin/scoring/tournament/", f"/admin/scoring/table/{jie_long.table.pk}/change/"]:
        response = client.get(path)
        assert response.status_code == 200, path
        assert directives(response) == STRICT, path


@pytest.mark.django_db
def test_only_redoc_may_add_styles_and_a_worker(client):
    policy = directives(client.get("/api/redoc/"))
    assert policy == {**STRICT, "style-src": "'self' 'unsafe-inline'", "worker-src": "'self' blob:"}


# --- production settings ------------------------------------------------------------------------

STRONG_KEY = secrets.token_urlsafe(50)


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a production process: no DEBUG, a strong key, a host name, its own
    (unused) database and STATIC_ROOT, and nothing of this test run's settings."""
    env = {k: v for k, v in __import__("os").environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "BEHIND_PROXY", "STATIC_ROOT") and
           not k.startswith(("SECURE_", "PYTEST", "DJANGO_"))}
    env.update(DEBUG="0", SECRET_KEY=STRONG_KEY, ALLOWED_HOSTS="example.org",
               DATABASE_URL=f"sqlite:///{tmp_path / 'prod.sqlite3'}", STATIC_ROOT=str(tmp_path / "static"))
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


SHOW = ("import json; from gupai_site import settings as s; print(json.dumps({k: getattr(s, k, None) for k in ("
        "'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', 'SECURE_HSTS_INCLUDE_SUBDOMAINS', 'SECURE_HSTS_PRELOAD', "
        "'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SECURE_REFERRER_POLICY', 'SECURE_CROSS_ORIGIN_OPENER_POLICY', "
        "'SECURE_PROXY_SSL_HEADER', 'BEHIND_PROXY', 'SILENCED_SYSTEM_CHECKS', 'SECURE_CONTENT_TYPE_NOSNIFF')}))")


def production_settings(tmp_path, **extra) -> dict:
    out = subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT, env=production_env(tmp_path, **extra),
                         capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


def test_production_defaults(tmp_path):
    s = production_settings(tmp_path)
    assert s == {
        "SECURE_SSL_REDIRECT": True, "SECURE_HSTS_SECONDS": 31536000, "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": False, "SESSION_COOKIE_SECURE": True, "CSRF_COOKIE_SECURE": True,
        "SECURE_REFERRER_POLICY": "same-origin", "SECURE_CROSS_ORIGIN_OPENER_POLICY": "same-origin",
        # no proxy said: X-Forwarded-Proto is not believed
        "SECURE_PROXY_SSL_HEADER": None, "BEHIND_PROXY": False,
        "SILENCED_SYSTEM_CHECKS": ["security.W021"], "SECURE_CONTENT_TYPE_NOSNIFF": True,
    }


def test_production_settings_from_the_environment(tmp_path):
    s = production_settings(tmp_path, BEHIND_PROXY="1", SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="600",
                            SECURE_HSTS_INCLUDE_SUBDOMAINS="0", SECURE_HSTS_PRELOAD="1", SECURE_COOKIES="0")
    assert s["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"] and s["BEHIND_PROXY"] is True
    assert s["SECURE_SSL_REDIRECT"] is False and s["SECURE_HSTS_SECONDS"] == 600
    assert s["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False and s["SECURE_HSTS_PRELOAD"] is True
    assert s["SILENCED_SYSTEM_CHECKS"] is None  # preloading asked for: nothing to silence
    assert s["SESSION_COOKIE_SECURE"] is False and s["CSRF_COOKIE_SECURE"] is False


@pytest.mark.parametrize(("site_url", "coop"), [("http://192.168.1.20:8000", None),
                                                ("https://club.example", "same-origin"), ("", "same-origin")])
def test_the_opener_policy_is_sent_over_https_only(tmp_path, site_url, coop):
    """A browser ignores Cross-Origin-Opener-Policy over plain http and logs an error: a site
    served at an http address (``make club``) does not send it."""
    assert production_settings(tmp_path, SITE_URL=site_url)["SECURE_CROSS_ORIGIN_OPENER_POLICY"] == coop


def test_check_deploy_passes_once_collectstatic_has_run(tmp_path):
    env = production_env(tmp_path)
    before = manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert before.returncode != 0 and "gupai_site.W001" in before.stderr + before.stdout  # "run collectstatic"
    collected = manage(env, "collectstatic", "--noinput")
    assert collected.returncode == 0, collected.stderr
    assert (tmp_path / "static" / "staticfiles.json").is_file()
    result = manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout, result.stdout
    assert "WARNING" not in result.stdout + result.stderr


# --- production's static files, through gunicorn ------------------------------------------------

def get(site: Site, path: str, headers: dict | None = None) -> tuple[int, dict[str, str], str]:
    conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": "example.org", **(headers or {})})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode("utf-8", "replace")
    finally:
        conn.close()


@pytest.fixture
def serve(tmp_path):
    """``serve(**env)``: gunicorn with production settings and gupai_site/gunicorn.conf.py (no
    database needed: the pages asked for here do not query one)."""
    sites = []

    def start(**extra: str) -> Site:
        env = production_env(tmp_path, **extra)
        env.setdefault("SECURE_SSL_REDIRECT", "0")
        site = Site(redis_url="", workers=1, database_url=env.pop("DATABASE_URL"), extra_env=env,
                    log_path=tmp_path / f"gunicorn-{len(sites)}.log")
        sites.append(site)
        return site

    yield start
    for site in sites:
        site.stop()


def test_the_admin_works_without_collectstatic(serve, tmp_path):
    site = serve(BEHIND_PROXY="1", SECURE_SSL_REDIRECT="1")
    status, headers, html = get(site, "/admin/login/", {"X-Forwarded-Proto": "https"})
    assert status == 200, html[-2000:]
    css = re.search(r'href="(/static/admin/css/base\.css)"', html)
    assert css, "the admin's stylesheet, by its plain name"
    status, headers, body = get(site, css.group(1), {"X-Forwarded-Proto": "https"})
    assert status == 200 and headers["content-type"].startswith("text/css") and "body" in body
    assert "staticfiles.json" not in site.log_text()


def test_https_is_believed_from_a_proxy_only(serve):
    page = "/director/login/"
    alone = serve(SECURE_SSL_REDIRECT="1")
    for headers in ({}, {"X-Forwarded-Proto": "https"}):  # a client may not say it came over https
        status, response_headers, _ = get(alone, page, headers)
        assert status == 301 and response_headers["location"] == f"https://example.org{page}", headers
    proxied = serve(SECURE_SSL_REDIRECT="1", BEHIND_PROXY="1")
    assert get(proxied, page)[0] == 301
    status, headers, html = get(proxied, page, {"X-Forwarded-Proto": "https"})
    assert status == 200, proxied.log_text()[-3000:]
    assert headers["strict-transport-security"] == "max-age=31536000; includeSubDomains"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "same-origin" and headers["cross-origin-opener-policy"] == "same-origin"
    assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"


def test_the_collected_files_are_served_hashed(serve, tmp_path):
    assert manage(production_env(tmp_path), "collectstatic", "--noinput").returncode == 0
    site = serve()
    status, _, html = get(site, "/admin/login/")
    assert status == 200
    css = re.search(r'href="(/static/admin/css/base\.[0-9a-f]{12}\.css)"', html)
    assert css, "the admin's stylesheet, by its hashed name"
    status, headers, _ = get(site, css.group(1), {"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("content-encoding") == "gzip"
    assert "immutable" in headers["cache-control"]
