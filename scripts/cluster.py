"""``make cluster`` / ``make cluster-stop``: the production topology rehearsed on one machine,
with Debian's packages (docs/install.md, "A cluster on one machine"; docs/scaling.md).

    haproxy :8080 ──► web node :8001 (gunicorn, uvicorn workers) ──► PgBouncer :6432 ──► PostgreSQL :5432
                  └─► web node :8002 (the same)               └─► the replica :5433 (public pages' reads)
    Celery workers by queue (celery, ratings, audits, documents) and beat ──► PostgreSQL :5432, Redis

The primary PostgreSQL (``--primary``, the machine's own: user postgres, trust on 127.0.0.1) and
Redis (``--redis-url``) are used as they are, never started or stopped here. Everything else
lives in the run directory (``--run-dir``, default ``.cluster/``): the replica's data (a
``pg_basebackup -R`` of the primary through a replication slot of its own, streaming), the
configurations, pid files and logs. ``start`` is idempotent (what runs is left running) and
returns once haproxy answers ``/readyz`` with 200; ``stop`` stops everything it started,
removes the replica and drops its slot on the primary.

    python scripts/cluster.py start [--run-dir DIR] [--haproxy-port 8080] [--node-ports 8001,8002] ...
    python scripts/cluster.py stop [--run-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
QUEUES = ("celery", "ratings", "audits", "documents")   # gupai_site/queues.py
#: The role the nodes and the workers connect as (``manage.py site_role``): no superuser, no
#: BYPASSRLS, so the tables' row-level security binds them. The documents queue keeps the
#: tables' owner: its backups run pg_dump, which must read every club's rows.
SITE_ROLE = "gupai_site"
OWNER_QUEUES = ("documents",)
#: The web's statement and lock timeouts (settings: DB_STATEMENT_TIMEOUT, DB_LOCK_TIMEOUT), which
#: PgBouncer sets on its server connections (the site sends no libpq options through it).
WEB_TIMEOUTS = "SET statement_timeout = 10000; SET lock_timeout = 3000"


@dataclass
class Cluster:
    run_dir: Path
    database: str = "gupai_cluster"
    primary: str = "127.0.0.1:5432"
    redis_url: str = "redis://127.0.0.1:6379/0"
    haproxy_port: int = 8080
    node_ports: list[int] = field(default_factory=lambda: [8001, 8002])
    pgbouncer_port: int = 6432
    replica_port: int = 5433
    web_workers: int = 2
    #: One Celery worker per queue (as in production), or one reading them all (the tests').
    worker_per_queue: bool = True

    @property
    def slot(self) -> str:
        """The replica's replication slot on the primary: one per run directory."""
        return "gupai_" + re.sub(r"[^a-z0-9]", "_", str(self.run_dir.resolve()).lower())[-40:].strip("_")

    @property
    def primary_host(self) -> str:
        return self.primary.rsplit(":", 1)[0]

    @property
    def primary_port(self) -> int:
        return int(self.primary.rsplit(":", 1)[1])

    def primary_url(self, name: str | None = None) -> str:
        return f"postgres://postgres@{self.primary}/{name or self.database}"

    def site_password(self) -> str:
        """The site role's password, made once per run directory."""
        kept = self.run_dir / "site_role_password"
        if not kept.is_file():
            kept.write_text(secrets.token_urlsafe(24))
        return kept.read_text().strip()

    def as_site(self, url: str) -> str:
        """``url`` connecting as the site's role (``SITE_ROLE``), bound by row-level security."""
        return url.replace("postgres://postgres@", f"postgres://{SITE_ROLE}:{self.site_password()}@", 1)

    @property
    def pooled_url(self) -> str:
        return self.as_site(f"postgres://postgres@127.0.0.1:{self.pgbouncer_port}/{self.database}")

    @property
    def replica_url(self) -> str:
        return self.as_site(f"postgres://postgres@127.0.0.1:{self.replica_port}/{self.database}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.haproxy_port}"

    @property
    def replica_dir(self) -> Path:
        return self.run_dir / "replica"

    def pid_file(self, name: str) -> Path:
        return self.run_dir / f"{name}.pid"

    def log(self, name: str) -> Path:
        return self.run_dir / f"{name}.log"


# --- Processes ------------------------------------------------------------------------------------

def tool(name: str) -> str:
    """Debian's haproxy and pgbouncer live in /usr/sbin, not always on a user's PATH."""
    return shutil.which(name) or f"/usr/sbin/{name}"


def as_postgres() -> list[str]:
    """PostgreSQL and PgBouncer refuse to run as root: as root, they run as the postgres user."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def pid_alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped by its parent, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return " Z " not in Path(f"/proc/{pid}/stat").read_text().split(")", 1)[1][:4]
    except (OSError, IndexError):
        return True


def running(c: Cluster, name: str) -> int | None:
    """The pid of ``name`` when its pid file names a live process."""
    try:
        pid = int(c.pid_file(name).read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pid if pid_alive(pid) else None


def spawn(c: Cluster, name: str, argv: list[str], env: dict) -> int:
    """``argv`` started in a session of its own (its children stopped with it), its output in
    ``name``.log, its pid in ``name``.pid; left alone when already running."""
    pid = running(c, name)
    if pid:
        return pid
    with open(c.log(name), "ab") as log:
        proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    c.pid_file(name).write_text(f"{proc.pid}\n")
    return proc.pid


def signal_to(pid: int, sig: int) -> None:
    """``sig`` to ``pid``'s whole session when it leads one (what ``spawn`` started), else to it
    alone (PgBouncer, which went into the background itself)."""
    try:
        os.killpg(pid, sig) if os.getpgid(pid) == pid else os.kill(pid, sig)
    except ProcessLookupError:
        pass


def stop_process(c: Cluster, name: str, sig: int = signal.SIGTERM, wait: float = 20.0) -> None:
    """``name``'s whole session sent ``sig``, then killed if still there after ``wait`` seconds."""
    pid = running(c, name)
    if pid:
        signal_to(pid, sig)
        deadline = time.monotonic() + wait
        while pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if pid_alive(pid):
            signal_to(pid, signal.SIGKILL)
    c.pid_file(name).unlink(missing_ok=True)


def wait_until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise SystemExit(f"cluster: {what} within {timeout:.0f} s")


def http_status(url: str, host: str = "127.0.0.1") -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"Host": host}), timeout=3) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return 0


# --- PostgreSQL: the database, the replica --------------------------------------------------------

def pg_bindir() -> Path:
    out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True).stdout.strip()
    return Path(out)


def sql(c: Cluster, query: str, database: str = "postgres") -> str:
    return subprocess.run(["psql", "-h", c.primary_host, "-p", str(c.primary_port), "-U", "postgres", "-d", database,
                           "-tAc", query], capture_output=True, text=True, check=True).stdout.strip()


def replication_allowed(c: Cluster) -> None:
    """The primary lets a replication connection from 127.0.0.1 in (pg_hba.conf's ``all`` does not
    match one): a ``host replication postgres 127.0.0.1/32 trust`` line added when none does."""
    rules = sql(c, "SELECT count(*) FROM pg_hba_file_rules WHERE 'replication' = ANY(database) "
                   "AND type IN ('host', 'hostnossl') AND (address = '127.0.0.1' OR address IS NULL)")
    if rules != "0":
        return
    hba = Path(sql(c, "SHOW hba_file"))
    with hba.open("a") as f:
        f.write("\n# make cluster: its streaming replica connects from here (scripts/cluster.py)\n"
                "host    replication     postgres        127.0.0.1/32            trust\n")
    sql(c, "SELECT pg_reload_conf()")
    print(f"cluster: allowed replication from 127.0.0.1 in {hba}")


def database_ready(c: Cluster, env: dict) -> None:
    if sql(c, f"SELECT 1 FROM pg_database WHERE datname = '{c.database}'") != "1":
        sql(c, f'CREATE DATABASE "{c.database}"')
    static = Path(env["STATIC_ROOT"])
    if not (static / "staticfiles.json").is_file():
        subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"], cwd=ROOT,
                       check=True, env=env)
    subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "--verbosity", "0"], cwd=ROOT, check=True,
                   env={**env, "DATABASE_URL": c.primary_url()})
    subprocess.run([PYTHON, "manage.py", "site_role", SITE_ROLE], cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                   env={**env, "DATABASE_URL": c.primary_url(), "SITE_DB_PASSWORD": c.site_password()})


def replica_start(c: Cluster) -> None:
    """The replica: made once by ``pg_basebackup -R`` through the slot, started on its port."""
    bindir = pg_bindir()
    data = c.replica_dir
    if not (data / "PG_VERSION").is_file():
        replication_allowed(c)
        if sql(c, f"SELECT 1 FROM pg_replication_slots WHERE slot_name = '{c.slot}'") == "1":
            sql(c, f"SELECT pg_drop_replication_slot('{c.slot}')")   # a replica removed by hand
        shutil.rmtree(data, ignore_errors=True)
        subprocess.run([*as_postgres(), str(bindir / "pg_basebackup"), "-h", c.primary_host, "-p",
                        str(c.primary_port), "-U", "postgres", "-D", str(data), "-R", "-X", "stream", "-C", "-S",
                        c.slot, "--checkpoint=fast", "--no-sync"], check=True, capture_output=True)
        # Debian keeps the primary's configuration in /etc: the replica gets one of its own.
        (data / "postgresql.conf").write_text(
            f"port = {c.replica_port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{c.run_dir}'\n"
            "hot_standby = on\nhot_standby_feedback = on\nmax_connections = 100\nfsync = off\n")
        (data / "pg_hba.conf").write_text("local all all trust\nhost all all 127.0.0.1/32 trust\n")
        (data / "pg_ident.conf").write_text("")
        for name in ("postgresql.conf", "pg_hba.conf", "pg_ident.conf"):
            shutil.chown(data / name, "postgres") if os.geteuid() == 0 else None
    status = subprocess.run([*as_postgres(), str(bindir / "pg_ctl"), "-D", str(data), "status"], capture_output=True)
    if status.returncode != 0:
        subprocess.run([*as_postgres(), str(bindir / "pg_ctl"), "-D", str(data), "-l", str(c.log("replica")), "-w",
                        "start"], check=True, capture_output=True)


def replica_stop(c: Cluster) -> None:
    data = c.replica_dir
    if (data / "postmaster.pid").exists():
        subprocess.run([*as_postgres(), str(pg_bindir() / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
                       capture_output=True)
    shutil.rmtree(data, ignore_errors=True)
    try:
        if sql(c, f"SELECT 1 FROM pg_replication_slots WHERE slot_name = '{c.slot}'") == "1":
            # A slot nobody reads keeps every WAL file on the primary from then on.
            sql(c, f"SELECT pg_drop_replication_slot('{c.slot}')")
    except subprocess.CalledProcessError:
        print("cluster: could not drop the replication slot " + c.slot, file=sys.stderr)


# --- PgBouncer, haproxy --------------------------------------------------------------------------

def pgbouncer_start(c: Cluster) -> None:
    ini = c.run_dir / "pgbouncer.ini"
    (c.run_dir / "pgbouncer-users.txt").write_text(f'"postgres" ""\n"{SITE_ROLE}" ""\n')
    ini.write_text(f"""[databases]
{c.database} = host={c.primary_host} port={c.primary_port} dbname={c.database} connect_query='{WEB_TIMEOUTS}'

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {c.pgbouncer_port}
unix_socket_dir = {c.run_dir}
auth_type = trust
auth_file = {c.run_dir / "pgbouncer-users.txt"}
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
server_reset_query =
logfile = {c.log("pgbouncer")}
pidfile = {c.pid_file("pgbouncer")}
admin_users = postgres
""")
    if running(c, "pgbouncer"):
        return
    subprocess.run([*as_postgres(), tool("pgbouncer"), "-d", str(ini)], check=True, capture_output=True)
    wait_until(lambda: running(c, "pgbouncer"), 10, "PgBouncer did not start")


#: Requests haproxy lets a node work on at once (gunicorn's workers × their 2 threads, and as
#: many waiting): the rest wait in haproxy's queue, not in the node's. Under more deals than
#: the nodes can answer, a node's /readyz then waits behind a few requests, not hundreds: with
#: the backlog in the node, the checks timed out and haproxy took both nodes out (every request
#: 503, bench/cluster.py at 1,000 deals/s).
def node_maxconn(c: Cluster) -> int:
    return c.web_workers * 2 * 2


def haproxy_config(c: Cluster) -> str:
    limit = node_maxconn(c)
    servers = "\n".join(f"    server node{i} 127.0.0.1:{port} check maxconn {limit}"
                         for i, port in enumerate(c.node_ports, 1))
    # Used only while every node says it is not ready: then the cause is shared (Redis, a queue's
    # worker, the replica), and the site answers degraded (deals are recorded without Redis)
    # rather than not at all. A dead node refuses the connection: haproxy redispatches.
    fallback = "\n".join(f"    server open{i} 127.0.0.1:{port} backup maxconn {limit}"
                          for i, port in enumerate(c.node_ports, 1))
    # The streams' backend follows the nodes' checks rather than asking /readyz again.
    tracked = "\n".join(f"    server node{i} 127.0.0.1:{port} track nodes/node{i}"
                         for i, port in enumerate(c.node_ports, 1))
    tracked_fallback = "\n".join(f"    server open{i} 127.0.0.1:{port} backup"
                                  for i, port in enumerate(c.node_ports, 1))
    # maxconn: haproxy's own, from the open-files limit (each held stream takes two).
    return f"""global
    log stderr format short local0 warning

defaults
    mode http
    log global
    option forwardfor
    option redispatch
    retries 2
    timeout connect 2s
    timeout http-request 10s
    timeout client 60s
    timeout server 60s
    timeout check 3s
    default-server inter 2s fall 2 rise 2

frontend web
    bind 127.0.0.1:{c.haproxy_port}
    # A spectator's events stream is held for hours, quiet between pings (every 15 s).
    timeout client 1h
    acl events path_reg ^/api/v1/tournaments/[0-9]+/events/$
    use_backend events if events
    default_backend nodes
    # Which node answered (node1, node2): for the operator's curl -i, and the tests.
    http-response set-header X-Gupai-Node %[srv_name]

backend nodes
    balance roundrobin
    # A request that waited this long for a free slot is answered 503 (a phone's outbox sends
    # it again, with the same Idempotency-Key).
    timeout queue 10s
    option httpchk
    http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1
    http-check expect status 200
{servers}
{fallback}

backend events
    balance leastconn
    timeout server 1h
    # An event is a small chunk: without this haproxy held each about 200 ms (bench/cluster.py).
    option http-no-delay
{tracked}
{tracked_fallback}
"""


def haproxy_start(c: Cluster) -> None:
    cfg = c.run_dir / "haproxy.cfg"
    cfg.write_text(haproxy_config(c))
    subprocess.run([tool("haproxy"), "-c", "-q", "-f", str(cfg)], check=True)
    spawn(c, "haproxy", [tool("haproxy"), "-db", "-f", str(cfg)], dict(os.environ))


# --- The site: web nodes, workers, beat -----------------------------------------------------------

def site_env(c: Cluster) -> dict:
    key_file = c.run_dir / "secret_key"
    if not key_file.is_file():
        key_file.write_text(secrets.token_urlsafe(50))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "GUNICORN_"))}
    env.update(
        DEBUG="0", SECRET_KEY=key_file.read_text().strip(), REDIS_URL=c.redis_url, PYTHONUNBUFFERED="1",
        DJANGO_SETTINGS_MODULE="gupai_site.settings",
        ALLOWED_HOSTS="127.0.0.1,localhost", SITE_URL=c.url, STATIC_ROOT=str(c.run_dir / "static"),
        # Plain http on this machine: no https redirect or HSTS, cookies over http.
        SECURE_SSL_REDIRECT="0", SECURE_COOKIES="0", SECURE_HSTS_SECONDS="0",
        DATABASE_URL=c.primary_url(), DATABASE_REPLICA_URL=c.replica_url,
    )
    return env


def nodes_start(c: Cluster, env: dict) -> None:
    for port in c.node_ports:
        metrics = c.run_dir / f"metrics-{port}"
        metrics.mkdir(exist_ok=True)
        spawn(c, f"web-{port}", [PYTHON, "-m", "gunicorn", "-c", str(ROOT / "gupai_site" / "gunicorn.conf.py"),
                                 "gupai_site.asgi:application"],
              {**env, "DATABASE_URL": c.pooled_url, "DATABASE_POOLER": "pgbouncer", "BEHIND_PROXY": "1",
               "FORWARDED_ALLOW_IPS": "127.0.0.1", "GUNICORN_BIND": f"127.0.0.1:{port}",
               "GUNICORN_WORKERS": str(c.web_workers), "PROMETHEUS_MULTIPROC_DIR": str(metrics)})


def workers_start(c: Cluster, env: dict) -> None:
    """Celery workers (straight to PostgreSQL: the tasks' longer statement timeout is theirs) and
    beat; a heartbeat sent to each queue at once, so that /readyz need not wait for beat's first."""
    worker = [PYTHON, "-m", "celery", "-A", "gupai_site", "worker", "--loglevel=info", "--concurrency=1",
              "--without-gossip", "--without-mingle"]
    groups = [(q,) for q in QUEUES] if c.worker_per_queue else [QUEUES]
    for queues in groups:
        name = "-".join(queues) if len(queues) == 1 else "all"
        bound = not set(queues) & set(OWNER_QUEUES)
        spawn(c, f"worker-{name}", [*worker, "-Q", ",".join(queues), "-n", f"{name}@{c.slot}"],
              {**env, "DATABASE_URL": c.as_site(env["DATABASE_URL"])} if bound else env)
    spawn(c, "beat", [PYTHON, "-m", "celery", "-A", "gupai_site", "beat", "--loglevel=info",
                      "--schedule", str(c.run_dir / "celerybeat-schedule")], env)
    subprocess.run([PYTHON, "-c", "import django; django.setup(); from gupai_site.celery import app\n"
                    f"for q in {QUEUES!r}: app.send_task('gupai_site.queue_heartbeat', args=(q,), queue=q)"],
                   cwd=ROOT, env=env, check=True)


def masked(url: str) -> str:
    return re.sub(r"(//[^:/@]+):[^@/]*@", r"\1:****@", url)


# --- start, stop --------------------------------------------------------------------------------

def start(c: Cluster) -> None:
    c.run_dir.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(c.run_dir, "postgres")   # PgBouncer's and the replica's files are written as postgres
    (c.run_dir / "cluster.json").write_text(json.dumps({**asdict(c), "run_dir": str(c.run_dir)}, indent=2))
    env = site_env(c)
    database_ready(c, env)
    replica_start(c)
    pgbouncer_start(c)
    workers_start(c, env)
    nodes_start(c, env)
    for port in c.node_ports:
        wait_until(lambda port=port: http_status(f"http://127.0.0.1:{port}/healthz") == 200, 90,
                   f"the web node on {port} did not answer /healthz (see {c.log(f'web-{port}')})")
    haproxy_start(c)
    wait_until(lambda: http_status(f"{c.url}/readyz") == 200, 90,
               f"haproxy did not answer /readyz with 200 (see {c.url}/readyz and the logs in {c.run_dir})")
    print(f"""
Gupai Club, the cluster on this machine (logs in {c.run_dir})
  The site (haproxy):  {c.url}/    (/readyz, /healthz, /metrics on each node)
  Web nodes:           {", ".join(f"http://127.0.0.1:{p}/" for p in c.node_ports)}
  PgBouncer:           {masked(c.pooled_url)}  (transaction mode, in front of {c.primary_url()})
  The replica:         {masked(c.replica_url)}  (streaming, slot {c.slot})
  The site's role:     {SITE_ROLE} (row-level security binds it; its password in {c.run_dir / "site_role_password"})
  Celery:              {"a worker per queue: " + ", ".join(QUEUES) if c.worker_per_queue else "one worker"}, and beat
  Redis:               {c.redis_url}
  Stop: make cluster-stop
""")


def stop(c: Cluster) -> None:
    stop_process(c, "haproxy")
    for port in c.node_ports:
        stop_process(c, f"web-{port}", signal.SIGINT)   # quick: held events streams are cut, not waited for
    for name in ("beat", "worker-all", *(f"worker-{q}" for q in QUEUES)):
        stop_process(c, name)
    stop_process(c, "pgbouncer", wait=10)
    replica_stop(c)
    print(f"cluster: stopped (PostgreSQL {c.primary} and Redis left running; logs in {c.run_dir})")


def cluster_from(args) -> Cluster:
    run_dir = Path(args.run_dir).resolve()
    saved = run_dir / "cluster.json"
    if args.command == "stop" and saved.is_file():   # stopped as it was started
        kept = json.loads(saved.read_text())
        return Cluster(**{**kept, "run_dir": run_dir})
    return Cluster(run_dir=run_dir, database=args.database, primary=args.primary, redis_url=args.redis_url,
                   haproxy_port=args.haproxy_port, node_ports=[int(p) for p in args.node_ports.split(",")],
                   pgbouncer_port=args.pgbouncer_port, replica_port=args.replica_port, web_workers=args.web_workers,
                   worker_per_queue=not args.one_worker)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["start", "stop"])
    parser.add_argument("--run-dir", default=os.environ.get("CLUSTER_DIR") or str(ROOT / ".cluster"))
    parser.add_argument("--database", default="gupai_cluster")
    parser.add_argument("--primary", default="127.0.0.1:5432")
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0")
    parser.add_argument("--haproxy-port", type=int, default=8080)
    parser.add_argument("--node-ports", default="8001,8002")
    parser.add_argument("--pgbouncer-port", type=int, default=6432)
    parser.add_argument("--replica-port", type=int, default=5433)
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--one-worker", action="store_true", help="one Celery worker reading every queue")
    args = parser.parse_args(argv)
    c = cluster_from(args)
    start(c) if args.command == "start" else stop(c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
