"""What the bench scripts share: their environment (a database and a Redis database of their own,
the site's settings as a club runs them: ``bench/site_settings.py``), that database made and
migrated, a free port (and a started server's, awaited), a Celery worker started, and the timings'
summary.

Each script imports this after putting the project's folder on ``sys.path`` (it runs as
``.venv/bin/python bench/<name>.py``)."""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The settings every script's in-process part and child processes read.
KEYS = ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS",
        "SECURE_SSL_REDIRECT", "SECURE_COOKIES", "LOG_LEVEL")


def bench_env(*, database: str = "gupai_bench", redis: str | None = None, hosts: str = "testserver,127.0.0.1",
              **extra: str) -> dict:
    """The environment of a bench run — PostgreSQL ``BENCH_DATABASE_URL`` (default: ``database`` on
    the machine's server) and, when ``redis`` names a default (``redis://…``), Redis
    ``BENCH_REDIS_URL``; without it no Redis at all (the cache in memory, tasks in process) —
    applied to this process too, so that ``django.setup()`` reads it."""
    env = dict(os.environ, DATABASE_URL=os.environ.get("BENCH_DATABASE_URL",
                                                       f"postgres://postgres@127.0.0.1:5432/{database}"),
               DJANGO_SETTINGS_MODULE="bench.site_settings", DEBUG="0", SECRET_KEY="bench-" + "k" * 50,
               ALLOWED_HOSTS=hosts, SECURE_SSL_REDIRECT="0", PYTHONUNBUFFERED="1", LOG_LEVEL="WARNING", **extra)
    env.pop("REDIS_URL", None)
    if redis is not None:
        env["REDIS_URL"] = os.environ.get("BENCH_REDIS_URL", redis)
    for key in KEYS:
        if key in env:
            os.environ[key] = env[key]
        else:
            os.environ.pop(key, None)
    return env


def prepare_database(env: dict, *others: dict) -> None:
    """Create the run's database when it is missing and migrate it (with ``env``, then with each of
    ``others``: another app's settings on the same database, as the bare ceiling's)."""
    name = env["DATABASE_URL"].rsplit("/", 1)[1]
    exists = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-tAc",
                             f"SELECT 1 FROM pg_database WHERE datname='{name}'"], capture_output=True, text=True)
    if "1" not in exists.stdout:
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True)
    for each in (env, *others):
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=each, check=True)


def start_worker(env: dict, name: str) -> subprocess.Popen:
    """A ``celery worker`` on ``env`` (solo pool, named ``name``; its log in
    ``var/<name>-worker.log`` when there is a ``var`` folder), once it answers a ping."""
    log = open(ROOT / "var" / f"{name}-worker.log", "w") if (ROOT / "var").is_dir() else subprocess.DEVNULL
    proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "gupai_site", "worker", "--pool=solo",
                             "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{name}@%h",
                             "--loglevel=WARNING"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    from gupai_site.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the worker exited early ({proc.returncode})")
        if app.control.ping(timeout=0.5, destination=[f"{name}@" + os.uname().nodename]):
            return proc
    proc.terminate()
    raise SystemExit("the worker did not start")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    """Return once ``proc`` (a server a script started) accepts connections on ``port``; exit when
    it died or did not within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited early ({proc.returncode})")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit("server did not start")


def timed(fn, n: int) -> list[float]:
    """``fn()`` run ``n`` times: each run's milliseconds."""
    out = []
    for _ in range(n):
        began = time.perf_counter()
        fn()
        out.append((time.perf_counter() - began) * 1000)
    return out


def summary(ms: list[float]) -> str:
    ms = sorted(ms)
    return (f"p50 {statistics.median(ms):7.1f} ms   p95 {ms[max(int(len(ms) * 0.95) - 1, 0)]:7.1f} ms   "
            f"min {ms[0]:7.1f} ms   (n={len(ms)})")
