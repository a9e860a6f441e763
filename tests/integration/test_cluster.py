"""The cluster ``make cluster`` runs (scripts/cluster.py), started here on ports of its own, over
the test database: haproxy in front of two web nodes, PgBouncer, a streaming replica, a Celery
worker and beat, and a Redis of the test's own (the machine's shared Redis and PostgreSQL are
never stopped).

- a spectator held on one node sees a deal posted through the other within 1 s;
- a node killed: the spectators reconnect through haproxy with Last-Event-ID and miss nothing
  and get nothing twice, and the deals posted meanwhile (retried with their Idempotency-Key)
  are all recorded once;
- the public pages read the replica, a director reads their own write on the primary;
- /readyz turns 503 naming the replica, or Redis, while it is stopped; with no node ready,
  haproxy's unchecked backups still carry the deals.
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from scoring.models import Round

from .stack import ROOT, RedisServer, free_port, wait_for

_spec = importlib.util.spec_from_file_location("cluster_script", ROOT / "scripts" / "cluster.py")
cluster_script = importlib.util.module_from_spec(_spec)
sys.modules["cluster_script"] = cluster_script   # (dataclasses look their module up)
_spec.loader.exec_module(cluster_script)


def _missing() -> str | None:
    for tool in ("haproxy", "pgbouncer", "pg_basebackup", "redis-server", "psql"):
        if not (shutil.which(tool) or Path(f"/usr/sbin/{tool}").is_file()):
            return f"needs {tool} (Debian's haproxy, pgbouncer, postgresql and redis-server packages)"
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        return "needs PostgreSQL (DATABASE_URL): the replica is a copy of its cluster"
    if os.geteuid() == 0 and not shutil.which("runuser"):
        return "running as root needs runuser"
    return None


pytestmark = [pytest.mark.integration, pytest.mark.skipif(_missing() is not None, reason=_missing() or ""),
              pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def cluster(django_db_setup, django_db_blocker):
    """The cluster over the test database, started as ``make cluster`` starts it (the script),
    with one web worker a node and one Celery worker for every queue; stopped at the end."""
    with django_db_blocker.unblock():
        s = connection.settings_dict
        name, primary = s["NAME"], f"{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}"
    redis = RedisServer()
    redis.start()
    run_dir = Path(tempfile.mkdtemp(prefix="gupai-cluster-"))
    ports = [free_port() for _ in range(5)]
    args = ["--run-dir", str(run_dir), "--database", name, "--primary", primary, "--redis-url", redis.url,
            "--haproxy-port", str(ports[0]), "--node-ports", f"{ports[1]},{ports[2]}",
            "--pgbouncer-port", str(ports[3]), "--replica-port", str(ports[4]), "--web-workers", "1", "--one-worker"]
    script = [sys.executable, str(ROOT / "scripts" / "cluster.py")]
    started = subprocess.run([*script, "start", *args], cwd=ROOT, capture_output=True, text=True, timeout=240)
    c = cluster_script.Cluster(**{**json.loads((run_dir / "cluster.json").read_text()), "run_dir": run_dir})
    c.redis, c.restart = redis, lambda: subprocess.run([*script, "start", *args], cwd=ROOT, check=True,
                                                        capture_output=True, timeout=240)
    try:
        assert started.returncode == 0, started.stdout[-3000:] + started.stderr[-3000:]
        yield c
    finally:
        subprocess.run([*script, "stop", "--run-dir", str(run_dir)], cwd=ROOT, capture_output=True, timeout=120)
        redis.stop()
        shutil.rmtree(run_dir, ignore_errors=True)


def request(port: int, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, bytes, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json", **(headers or {})})
        r = conn.getresponse()
        return r.status, r.read(), {k.lower(): v for k, v in r.getheaders()}
    finally:
        conn.close()


def ready(c) -> bool:
    # After a part came back, a queue is ready again at its worker's next heartbeat (every 30 s,
    # once the worker has reconnected): on a busy machine, a minute or two. Ready through a
    # checked node (node1, node2), not through haproxy's backups (open1, open2), which serve
    # until its checks have seen the nodes ready twice.
    def through_a_node() -> bool:
        status, _, headers = request(c.haproxy_port, "GET", "/readyz")
        return status == 200 and headers.get("x-gupai-node", "").startswith("node")
    return wait_for(through_a_node, timeout=150)


class Spectator:
    """An events stream read in a thread of its own: every event's (id, type, when), and, when
    ``reconnect``, a new connection after a lost one, with the last id as Last-Event-ID (as the
    browser's EventSource does)."""

    def __init__(self, port: int, path: str, *, reconnect: bool = False) -> None:
        self.port, self.path, self.reconnect = port, path, reconnect
        self.events: list[tuple[int, str, float]] = []
        self.connections = 0
        self.nodes: list[str] = []   # the node of each connection (haproxy's X-Gupai-Node)
        self.stopping = False
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.opened.wait(10), "the events stream did not open"

    def _run(self) -> None:
        last = 0
        while not self.stopping:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                conn.request("GET", self.path, headers={"Accept": "text/event-stream", "Last-Event-ID": str(last)})
                r = conn.getresponse()
                if r.status != 200:
                    raise OSError(f"status {r.status}")
                self.connections += 1
                self.nodes.append(r.getheader("X-Gupai-Node") or "")
                self.opened.set()
                fields: dict = {}
                while not self.stopping:
                    line = r.fp.readline()
                    if not line:
                        break
                    line = line.decode().rstrip("\n")
                    if line == "":
                        if "id" in fields:
                            last = int(fields["id"])
                            self.events.append((last, fields.get("event", ""), time.monotonic()))
                        fields = {}
                    elif not line.startswith(":") and ":" in line:
                        key, value = line.split(":", 1)
                        fields[key] = value.lstrip(" ")
                conn.close()
            except OSError:
                pass
            if not self.reconnect:
                return
            time.sleep(0.2)

    def stop(self) -> None:
        self.stopping = True

    def deals(self) -> list[int]:
        """The ids of the deals recorded that came."""
        return [i for i, kind, _ in self.events if kind == "deal_recorded"]


def post_deal(port: int, setup, key: str, *, retry_until: float = 0.0) -> tuple[int, bytes]:
    """A deal posted with an Idempotency-Key, tried again (same key) until ``retry_until``
    while the answer is not 201, as a scorer's phone does."""
    headers = {"Authorization": f"Scorer {setup.token}", "Idempotency-Key": key}
    while True:
        try:
            status, body, _ = request(port, "POST", f"/api/v1/tables/{setup.table.pk}/rounds/",
                                      {"points": [2, 12, 34, 18]}, headers)
        except OSError:
            status, body = 0, b""
        if status in (200, 201) or time.monotonic() > retry_until:
            return status, body
        time.sleep(0.2)


def events_path(setup) -> str:
    return f"/api/v1/tournaments/{setup.tournament.pk}/events/"


def test_a_spectator_on_one_node_sees_a_deal_posted_through_the_other(cluster, jie_long):
    node_a, node_b = cluster.node_ports
    spectator = Spectator(node_a, events_path(jie_long))
    try:
        posted = time.monotonic()
        status, body = post_deal(node_b, jie_long, "cross-1")
        assert status == 201, body
        assert wait_for(lambda: any(kind == "deal_recorded" for _, kind, _ in spectator.events), timeout=1.0, every=0.01)
        seen = next(at for _, kind, at in spectator.events if kind == "deal_recorded")
        assert seen - posted < 1.0
    finally:
        spectator.stop()


def test_a_public_page_reads_the_replica_a_director_reads_the_primary(cluster, jie_long):
    from scoring.services.auth import auth_token_obtain

    assert ready(cluster)
    token = auth_token_obtain(username="alice", password="alice-secret-1")
    live = f"/t/{jie_long.tournament.slug}/live/"
    status, body, headers = request(cluster.haproxy_port, "GET", live)
    assert status == 200, body[:500]
    before = headers["etag"]
    replica = f"postgres://postgres@127.0.0.1:{cluster.replica_port}/{cluster.database}"
    subprocess.run(["psql", replica, "-tAc", "SELECT pg_wal_replay_pause()"], check=True, capture_output=True)
    try:
        status, body = post_deal(cluster.haproxy_port, jie_long, "router-1")
        assert status == 201, body
        # The director's read after their write: on the primary, so there at once.
        status, body, _ = request(cluster.haproxy_port, "GET", f"/api/v1/tables/{jie_long.table.pk}/rounds/",
                                  headers={"Authorization": f"Token {token}"})
        assert status == 200 and json.loads(body)["count"] == 1
        # The public page: on the replica, which has not replayed the deal yet.
        assert request(cluster.haproxy_port, "GET", live)[2]["etag"] == before
    finally:
        subprocess.run(["psql", replica, "-tAc", "SELECT pg_wal_replay_resume()"], check=True, capture_output=True)
    assert wait_for(lambda: request(cluster.haproxy_port, "GET", live)[2]["etag"] != before, timeout=5)


def test_the_nodes_reach_postgresql_through_pgbouncer(cluster, jie_long):
    def transactions() -> int:
        out = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(cluster.pgbouncer_port), "-U", "postgres",
                              "pgbouncer", "-tAc", "SHOW STATS"], check=True, capture_output=True, text=True).stdout
        return sum(int(line.split("|")[1]) for line in out.splitlines() if line.startswith(cluster.database + "|"))

    before = transactions()
    status, body = post_deal(cluster.node_ports[0], jie_long, "pooled-1")
    assert status == 201, body
    assert transactions() > before


def test_the_nodes_and_workers_connect_as_the_sites_role(cluster, jie_long):
    """Row-level security binds them: the primary's and the replica's clients are the site's role
    (no superuser, no BYPASSRLS), but for the documents worker's (its backups dump every club)."""
    status, body = post_deal(cluster.haproxy_port, jie_long, "as-role-1")
    assert status == 201, body
    assert request(cluster.haproxy_port, "GET", f"/t/{jie_long.tournament.slug}/live/")[0] == 200

    def users(port: int) -> set:
        out = subprocess.run(["psql", f"postgres://postgres@127.0.0.1:{port}/{cluster.database}", "-tAc",
                              "SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = current_database() "
                              "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"],
                             check=True, capture_output=True, text=True).stdout
        return set(out.split())

    assert "gupai_site" in users(cluster.replica_port) and "postgres" not in users(cluster.replica_port)
    assert "gupai_site" in users(cluster.primary_port)
    role = subprocess.run(["psql", cluster.primary_url(), "-tAc",
                           "SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = 'gupai_site'"],
                          check=True, capture_output=True, text=True).stdout.strip()
    assert role == "f|f"


@pytest.mark.parametrize("part", ["replica", "redis"])
def test_readyz_names_the_part_that_stopped(cluster, part):
    node = cluster.node_ports[0]
    bindir = cluster_script.pg_bindir()
    pg_ctl = [*cluster_script.as_postgres(), str(bindir / "pg_ctl"), "-D", str(cluster.replica_dir)]
    if part == "replica":
        subprocess.run([*pg_ctl, "-m", "fast", "-w", "stop"], check=True, capture_output=True)
    else:
        cluster.redis.stop()
    try:
        status, body, _ = request(node, "GET", "/readyz")
        assert status == 503
        checks = json.loads(body)["checks"]
        assert checks[part]["ok"] is False and checks["database"]["ok"] is True
    finally:
        if part == "replica":
            subprocess.run([*pg_ctl, "-l", str(cluster.log("replica")), "-w", "start"], check=True, capture_output=True)
        else:
            cluster.redis.start()   # the same port
    assert wait_for(lambda: request(node, "GET", "/readyz")[0] == 200, timeout=150)


def test_with_no_node_ready_haproxy_still_records_deals_through_the_backups(cluster, jie_long):
    """Redis down makes every node's /readyz 503 at once (a shared part): haproxy takes both
    nodes out and serves through its unchecked backups, so that deals are still recorded (the
    site records them without Redis) rather than answered 503 by the proxy."""
    assert ready(cluster)
    cluster.redis.stop()
    try:
        # both nodes out: two failed checks each, 2 s apart
        assert wait_for(lambda: request(cluster.haproxy_port, "GET", "/readyz")[2].get("x-gupai-node", "")
                        .startswith("open"), timeout=30)
        status, body, headers = request(cluster.haproxy_port, "POST", f"/api/v1/tables/{jie_long.table.pk}/rounds/",
                                        {"points": [2, 12, 34, 18]},
                                        {"Authorization": f"Scorer {jie_long.token}", "Idempotency-Key": "no-node-ready"})
        assert status == 201, body
        assert headers["x-gupai-node"].startswith("open")
    finally:
        cluster.redis.start()
    assert ready(cluster)
    assert Round.objects.filter(table=jie_long.table).count() >= 1


def busiest_node(spectators, cluster) -> int:
    """The port of the node holding the most of the spectators' streams (haproxy's nodes are
    node1, node2…: cluster.node_ports in order), so that the one killed surely held some."""
    first = [s.nodes[0] for s in spectators if s.nodes]
    name = max(set(first), key=first.count)
    return cluster.node_ports[int(name.removeprefix("node")) - 1]


def test_a_killed_node_loses_no_event_and_no_deal(cluster, jie_long):
    assert ready(cluster)
    spectators = [Spectator(cluster.haproxy_port, events_path(jie_long), reconnect=True) for _ in range(4)]
    keys = [f"killed-{uuid.uuid4().hex[:8]}-{i}" for i in range(12)]
    answers = []
    try:
        for i, key in enumerate(keys):
            if i == 4:   # a node dies mid-evening, with its streams and maybe a deal in flight
                os.killpg(cluster_script.running(cluster, f"web-{busiest_node(spectators, cluster)}"), signal.SIGKILL)
            answers.append(post_deal(cluster.haproxy_port, jie_long, key, retry_until=time.monotonic() + 20)[0])
            time.sleep(0.1)
        assert all(status in (200, 201) for status in answers), answers   # 200: a retry's kept answer
        assert Round.objects.filter(table=jie_long.table).count() == len(keys)   # each once
        assert all(wait_for(lambda s=s: len(s.deals()) >= len(keys), timeout=15) for s in spectators)
        time.sleep(0.5)   # nothing more comes
        for s in spectators:
            deals = s.deals()
            assert len(deals) == len(keys) and deals == sorted(set(deals))   # every deal, each once, in order
        assert sum(s.connections for s in spectators) > len(spectators)   # some were on the dead node
    finally:
        for s in spectators:
            s.stop()
        cluster.restart()   # the node back, for whatever runs next
