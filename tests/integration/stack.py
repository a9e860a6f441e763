"""The real stack as a user meets it, started by a test: a Redis of its own, gunicorn serving
the site against the test database (PostgreSQL), and plain HTTP to talk to it."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url_of_test_db() -> str:
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):  # the test database's file (a test with transactional_db)
        return f"sqlite:///{s['NAME']}"
    user = s.get("USER") or "postgres"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"


def wait_for(predicate, timeout: float = 30.0, every: float = 0.2) -> bool:
    """Whether ``predicate()`` came true within ``timeout`` seconds (asked every ``every``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return False


def own_queues(queue: str) -> tuple[str, tuple, dict]:
    """A test's own queues in place of the site's (``gupai_site.queues``): ``queue`` for the
    follow-ups, ``queue-documents`` for the long jobs. ``(default queue, queues, routes)``."""
    from kombu import Exchange, Queue

    from gupai_site.queues import DOCUMENT_TASKS

    names = (queue, f"{queue}-documents")
    return (queue, tuple(Queue(n, Exchange(n), routing_key=n) for n in names),
            {task: {"queue": names[1]} for task in DOCUMENT_TASKS})


def routing_again(app) -> None:
    """The app's queues and routes read afresh from its configuration (built once, when first
    used: an earlier test's worker may have)."""
    for built in ("queues", "default_queue", "router", "send_task_message"):
        app.amqp.__dict__.pop(built, None)
    app.amqp._rtable = None


@contextmanager
def celery_worker(*, concurrency: int = 1):
    """``celery -A gupai_site worker`` against the test database, on queues of its own (xdist
    runs several at once; the tasks it enqueues itself go there too: ``worker_settings``), with
    the site's keys (it unseals scorer links); the solo pool, or ``concurrency`` processes. Yields
    ``app`` and the worker's ``name``."""
    from django.conf import settings

    from gupai_site.celery import app

    queue = f"test-{uuid.uuid4().hex[:12]}"
    name = f"{queue}@localhost"
    old = (app.conf.task_always_eager, app.conf.task_default_queue, app.conf.task_queues, app.conf.task_routes)
    app.conf.task_always_eager = False
    app.conf.task_default_queue, app.conf.task_queues, app.conf.task_routes = own_queues(queue)
    routing_again(app)
    env = dict(os.environ, DATABASE_URL=database_url_of_test_db(), PYTHONUNBUFFERED="1", DEBUG="0",
               SECRET_KEY=settings.SECRET_KEY, LINK_KEY=settings.LINK_KEY, GUPAI_TEST_QUEUE=queue,
               # the marks of queued follow-ups under the test's own prefix (tests/conftest.py)
               GUPAI_TEST_QUEUED_PREFIX=getattr(settings, "QUEUED_TASKS_CACHE_PREFIX", "queued:"),
               DJANGO_SETTINGS_MODULE="tests.integration.worker_settings")
    log = open(ROOT / "var" / f"celery-{queue}.log", "w") if (ROOT / "var").is_dir() else subprocess.DEVNULL
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "gupai_site", "worker",
         *(["--pool=solo", "--concurrency=1"] if concurrency == 1 else [f"--concurrency={concurrency}"]),
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-Q", f"{queue},{queue}-documents", "-n", name,
         "--loglevel=INFO"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        # Ready once it answers a ping on its queue.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"celery worker exited early with {proc.returncode}")
            if app.control.ping(destination=[name], timeout=1.0):
                break
        else:
            raise RuntimeError("celery worker did not answer within 60 s")
        yield SimpleNamespace(app=app, name=name)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        app.conf.task_always_eager, app.conf.task_default_queue, app.conf.task_queues, app.conf.task_routes = old
        routing_again(app)
        if log is not subprocess.DEVNULL:
            log.close()


def _wait_for_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited early with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout} s")


class RedisServer:
    """A redis-server on a free port that the test may stop and start again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for_port(self.port, self.proc, "redis-server")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None


def _pg_bindir() -> Path | None:
    """Where initdb and pg_ctl are (Debian keeps them off PATH, in /usr/lib/postgresql/N/bin)."""
    if shutil.which("initdb") and shutil.which("pg_ctl"):
        return Path(shutil.which("initdb")).resolve().parent
    try:
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return Path(out) if (Path(out) / "initdb").is_file() else None


class PostgresCluster:
    """A PostgreSQL cluster of the test's own (initdb in a temporary folder, a free port, trust
    authentication on 127.0.0.1), which the test may stop, start and restart — never the
    machine's shared server. As root, its processes run as the ``postgres`` user (PostgreSQL
    refuses to run as root)."""

    def __init__(self) -> None:
        bindir = _pg_bindir()
        if bindir is None:
            raise RuntimeError("initdb and pg_ctl not found")
        self.bindir = bindir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="gupai-pg-"))
        self.data = self.root / "data"
        self.as_owner: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
            self.as_owner = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-locale",
                  "--no-sync")

    @staticmethod
    def available() -> str | None:
        """Why a cluster cannot be made here, or None when it can."""
        if _pg_bindir() is None:
            return "needs PostgreSQL's initdb and pg_ctl (Debian's postgresql package)"
        if os.geteuid() == 0 and not shutil.which("runuser"):
            return "running as root needs runuser to start PostgreSQL as the postgres user"
        return None

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_owner, str(self.bindir / tool), *args], check=True, cwd=self.root,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-o", options, "-w", "start")

    def stop(self) -> None:
        """A fast shutdown: PostgreSQL ends every session ("terminating connection due to
        administrator command"), as a restart of the real server does."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            subprocess.run([*self.as_owner, str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                            "-w", "stop"], cwd=self.root, capture_output=True, timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)


class Site:
    """gunicorn serving the site, production settings, against the test database, configured as
    in production (``gupai_site/gunicorn.conf.py``; the address, workers and timeout from here).
    Its output (access and error logs) goes to ``log_path`` when given, else to ``var/`` when
    that folder exists."""

    def __init__(self, *, redis_url: str, workers: int = 2, extra_env: dict | None = None,
                 log_path: Path | None = None, database_url: str | None = None) -> None:
        self.port = free_port()
        env = {**os.environ, "DATABASE_URL": database_url or database_url_of_test_db(), "REDIS_URL": redis_url,
               "DEBUG": "0", "SECRET_KEY": "stack-test-key", "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0",
               "PYTHONUNBUFFERED": "1", **(extra_env or {})}
        self.log_path = log_path or ROOT / "var" / f"gunicorn-{self.port}.log"
        self.log = open(self.log_path, "w") if log_path or (ROOT / "var").is_dir() else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gupai_site" / "gunicorn.conf.py"), "gupai_site.asgi",
             "-b", f"127.0.0.1:{self.port}", "-w", str(workers), "--timeout", "60"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        _wait_for_port(self.port, self.proc, "gunicorn", timeout=60)

    def log_text(self) -> str:
        """What gunicorn wrote so far (``log_path`` given)."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def request(self, method: str, path: str, body=None, headers: dict | None = None, timeout: float = 30.0):
        """``(status, json body or text, seconds taken)``."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
        started = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                status, raw = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, raw = e.code, e.read()
        took = time.monotonic() - started
        try:
            return status, json.loads(raw), took
        except ValueError:
            return status, raw.decode("utf-8", "replace"), took

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        if self.log is not subprocess.DEVNULL:
            self.log.close()
