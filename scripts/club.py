#!/usr/bin/env python3
"""``make club``: the site for a club night on the local network, served as in production.

- gunicorn with ``gupai_site/gunicorn.conf.py`` (several workers, scorer tokens masked in its
  log), ``DEBUG`` off (no tracebacks or URL lists for the phones), static files by WhiteNoise
  (``collectstatic`` first);
- a ``SECRET_KEY`` made once and kept in ``.club/secret_key`` (mode 600; ``.club/`` is ignored
  by git and docker);
- the site's address, ``SITE_URL``: found on the first run (``club_address.py``), kept in
  ``.club/site_url`` and used again by later runs (``SITE_URL=… make club`` changes it).
  Scorer links and QR codes are built from it whatever ``Host`` a request names, and
  ``ALLOWED_HOSTS`` is that host alone (Django answers 400 to any other);
- plain http on the local network: no https redirect, cookies without the https-only flag;
- the club's own database, ``.club/club.sqlite3`` (unless ``DATABASE_URL`` is set), migrated;
  the demo is not loaded. Which database is kept in ``.club/database_url`` (``DATABASE_URL=…
  make club`` changes it), read by every run and by ``club.py manage``: a director created in
  another terminal lands in the database the site uses;
- when ``REDIS_URL`` is set and Redis answers, Celery workers (one a queue) and beat beside gunicorn;
  otherwise background tasks run in-process, as with ``make run``, and the cache (the guessing
  limits' counts) is a table of the club's database (``createcachetable``), shared by gunicorn's
  workers.

``scripts/club.py manage COMMAND …`` runs a manage.py command with the club's settings and
database, e.g. ``create_director NAME --password PASS``: ``CREATE_DIRECTOR`` below, the one way
the README, this banner, the login page and the director's guide say to create a director.
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from club_address import FALLBACK, is_local_address, is_loopback, lan_address

ROOT = Path(__file__).resolve().parent.parent
CLUB_DIR = ROOT / ".club"
GUNICORN_CONF = "gupai_site/gunicorn.conf.py"
PYTHON = sys.executable
#: How a club gets a director, said the same way everywhere (README "Create a director", the
#: banner below, templates/director/login.html, docs/director-guide.md): manage.py's
#: ``create_director`` with the settings and database ``make club`` uses (``.venv/bin/python`` is
#: the Makefile's).
CREATE_DIRECTOR = ".venv/bin/python scripts/club.py manage create_director NAME --password PASS"


def write_private(path: Path, text: str) -> None:
    """``path`` (re)made with ``text`` as its one line, readable by its owner only from its creation."""
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text + "\n")


def secret_key(folder: Path) -> str:
    """The key in ``folder/secret_key``, made on the first call (readable by its owner only)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / "secret_key"
    if not path.exists() or not path.read_text().strip():
        write_private(path, secrets.token_urlsafe(50))
    path.chmod(0o600)
    return path.read_text().strip()


def site_url(folder: Path, port: int, environ: dict, detect=lan_address) -> tuple[str, bool]:
    """``(SITE_URL, made now)``: the environment's (then kept), else the kept one, else
    ``http://<this computer's LAN address>:<port>`` (then kept)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / "site_url"
    given = environ.get("SITE_URL", "").strip().rstrip("/")
    if not given and path.exists() and path.read_text().strip():
        return path.read_text().strip(), False
    url = given or f"http://{detect()}:{port}"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path:
        raise SystemExit(f"SITE_URL must be like http://192.168.1.20:8000, not {url!r}")
    path.write_text(url + "\n")
    return url, True


def database_url(folder: Path, environ: dict) -> str:
    """The club's database: the environment's ``DATABASE_URL`` (then kept), else the kept one,
    else ``folder/club.sqlite3``. Kept in ``folder/database_url`` (readable by its owner only: it
    may hold a password), so that ``make club`` and ``club.py manage`` in another terminal, with
    or without the variable, use one database."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / "database_url"
    given = environ.get("DATABASE_URL", "").strip()
    kept = path.read_text().strip() if path.exists() else ""
    url = given or kept or f"sqlite:///{folder / 'club.sqlite3'}"
    if url != kept:
        write_private(path, url)
    return url


def redis_answers(url: str) -> bool:
    if not url:
        return False
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping())
    except Exception:  # whatever the failure: no Redis tonight
        return False


def _where(url: str) -> str:
    """A service's host and port, without the password its URL may carry (this is printed)."""
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port or 6379}"


@dataclass
class Plan:
    url: str
    env: dict
    steps: list[list[str]]
    server: list[str]
    services: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def plan(folder: Path, port: int, environ: dict, *, detect=lan_address, redis_check=redis_answers) -> Plan:
    """What ``make club`` runs, and with which environment (nothing is started here)."""
    url, made = site_url(folder, port, environ, detect)
    parts = urlsplit(url)
    host = parts.hostname or FALLBACK
    bind_port = parts.port or (443 if parts.scheme == "https" else 80)
    env = dict(environ)
    env.update(
        DEBUG="0", SECRET_KEY=secret_key(folder), SITE_URL=url,
        ALLOWED_HOSTS=host, GUNICORN_BIND=f"0.0.0.0:{bind_port}",
        # Plain http on the club's network: no https redirect or HSTS, cookies sent over http.
        SECURE_SSL_REDIRECT="0", SECURE_COOKIES="0", SECURE_HSTS_SECONDS="0", BEHIND_PROXY="0",
        DATABASE_URL=database_url(folder, environ),
    )
    notes = []
    kept = folder / "site_url"
    if made:
        found = "given" if environ.get("SITE_URL", "").strip() else "found"
        notes.append(f"The site's address, {found} now, is kept in {kept} for the next runs.")
    if is_loopback(host):
        notes.append(f"{host} is this computer alone: phones cannot open the links. Join the club's network, "
                     f"delete {kept} and run make club again.")
    elif not is_local_address(host):
        notes.append(f"{host} is not this computer's address any more (another network?): phones will not reach "
                     f"the site. Delete {kept} (or set SITE_URL) and run make club again.")
    manage = [PYTHON, "manage.py"]
    steps = [[*manage, "collectstatic", "--noinput", "--verbosity", "0"], [*manage, "migrate", "--noinput"]]
    services = []
    if redis_check(environ.get("REDIS_URL", "").strip()):
        # Two workers (gupai_site/queues.py): a deal's follow-ups, ratings and audits in one, the
        # documents in the other, so that the follow-ups never wait behind an import or paper sheets.
        worker = [PYTHON, "-m", "celery", "-A", "gupai_site", "worker", "--loglevel=info", "--concurrency=1"]
        services = [[*worker, "-Q", "celery,ratings,audits", "-n", "followups@%h"],
                    [*worker, "-Q", "documents", "-n", "documents@%h"],
                    [PYTHON, "-m", "celery", "-A", "gupai_site", "beat", "--loglevel=info",
                     "--schedule", str(folder / "celerybeat-schedule")]]
        notes.append(f"Background jobs: Celery workers and beat, through Redis at {_where(environ['REDIS_URL'])}.")
    else:
        if environ.get("REDIS_URL", "").strip():
            notes.append(f"Redis does not answer at {_where(environ['REDIS_URL'])}: background jobs run in-process.")
        env.pop("REDIS_URL", None)
        # gunicorn runs several workers: each one's memory would count every limit apart.
        env["CACHE_IN_DATABASE"] = "1"
        steps.append([*manage, "createcachetable"])
    server = [PYTHON, "-m", "gunicorn", "-c", GUNICORN_CONF, "gupai_site.asgi:application"]
    return Plan(url=url, env=env, steps=steps, server=server, services=services, notes=notes)


def banner(p: Plan) -> str:
    lines = ["", "Gupai Club on the local network", f"  The site:      {p.url}/",
             f"  The director:  {p.url}/director/   (scorer links and QR codes use {p.url})",
             "  Create a director (once, in another terminal):",
             f"    {CREATE_DIRECTOR}",
             *(f"  {note}" for note in p.notes), "  Stop: Ctrl-C", ""]
    return "\n".join(lines)


def _stop(processes: list[subprocess.Popen]) -> None:
    for proc in processes:
        if proc.poll() is None:
            proc.terminate()
    for proc in processes:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def serve(p: Plan) -> int:
    for step in p.steps:
        result = subprocess.run(step, cwd=ROOT, env=p.env)
        if result.returncode:
            return result.returncode
    print(banner(p), flush=True)
    if not p.services:  # gunicorn alone: it takes this process's place (and its signals)
        os.chdir(ROOT)
        os.execve(p.server[0], p.server, p.env)
    processes = [subprocess.Popen(cmd, cwd=ROOT, env=p.env) for cmd in p.services]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        server = subprocess.Popen(p.server, cwd=ROOT, env=p.env)
        processes.append(server)
        return server.wait()
    except KeyboardInterrupt:  # Ctrl-C reached every process of the terminal: let them finish
        return 130
    finally:
        _stop(processes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000),
                        help="the port, when the address is found for the first time (default 8000)")
    parser.add_argument("--dir", type=Path, default=CLUB_DIR, help="where the key, address and database are kept")
    parser.add_argument("command", nargs="?", choices=["serve", "manage"], default="serve")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="manage: the manage.py command and its arguments")
    options = parser.parse_args(argv)
    if options.command == "manage":
        p = plan(options.dir, options.port, dict(os.environ), redis_check=lambda url: False)
        return subprocess.run([PYTHON, "manage.py", *options.args], cwd=ROOT, env=p.env).returncode
    return serve(plan(options.dir, options.port, dict(os.environ)))


if __name__ == "__main__":
    sys.exit(main())
