"""``make cluster``'s script (scripts/cluster.py) without starting anything: haproxy's
configuration is one haproxy accepts, checks the nodes' /readyz with a Host the site accepts
and holds the events streams; each run directory has a replication slot of its own. The
cluster itself runs in tests/integration/test_cluster.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from cluster import Cluster, haproxy_config, masked, tool

ROOT = Path(__file__).resolve().parents[2]


def test_haproxy_checks_readyz_and_holds_the_events_streams(tmp_path):
    c = Cluster(run_dir=tmp_path, haproxy_port=18080, node_ports=[18001, 18002])
    cfg = haproxy_config(c)
    assert "http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1" in cfg
    assert "server node1 127.0.0.1:18001 check maxconn 8" in cfg and "server node2 127.0.0.1:18002 check maxconn 8" in cfg
    assert "option forwardfor" in cfg and "option redispatch" in cfg
    events = cfg[cfg.index("\nbackend events"):]
    assert "timeout server 1h" in events and "track nodes/node2" in events
    assert "option http-no-delay" in events   # else each event waited about 200 ms in haproxy
    if not Path(tool("haproxy")).is_file():
        pytest.skip("needs haproxy (Debian's package) to check the configuration")
    (tmp_path / "haproxy.cfg").write_text(cfg)
    checked = subprocess.run([tool("haproxy"), "-c", "-f", str(tmp_path / "haproxy.cfg")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_haproxy_queues_what_a_node_cannot_take_and_serves_degraded_when_no_node_is_ready(tmp_path):
    """With the backlog in haproxy's queue (maxconn) a node's /readyz is not stuck behind it; the
    backup servers, unchecked, serve only when every node says it is not ready."""
    cfg = haproxy_config(Cluster(run_dir=tmp_path, haproxy_port=18080, node_ports=[18001, 18002], web_workers=3))
    nodes = cfg[cfg.index("\nbackend nodes"):cfg.index("\nbackend events")]
    assert "maxconn 12" in nodes and "timeout queue 10s" in nodes and "timeout check 3s" in cfg
    assert "server open1 127.0.0.1:18001 backup maxconn 12" in nodes
    assert "server open2 127.0.0.1:18002 backup" in cfg[cfg.index("\nbackend events"):]
    assert not any("backup" in line and "check" in line for line in cfg.splitlines())


def test_docker_composes_haproxy_configuration_is_one_haproxy_accepts(tmp_path):
    content = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["configs"]["haproxy"]["content"]
    cfg = content.replace("$$", "$")   # compose's escape of a dollar
    assert "check maxconn 12" in cfg and "server-template open 2 web:8000 backup" in cfg
    if not Path(tool("haproxy")).is_file():
        pytest.skip("needs haproxy (Debian's package) to check the configuration")
    (tmp_path / "haproxy.cfg").write_text(cfg)
    checked = subprocess.run([tool("haproxy"), "-c", "-f", str(tmp_path / "haproxy.cfg")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_each_run_directory_has_a_replication_slot_of_its_own(tmp_path):
    one, other = Cluster(run_dir=tmp_path / "a"), Cluster(run_dir=tmp_path / "b")
    assert one.slot != other.slot
    # PostgreSQL's slot names: lower-case letters, digits and underscores, at most 63.
    assert all(ch.isdigit() or ch == "_" or "a" <= ch <= "z" for ch in one.slot) and len(one.slot) <= 63


def test_the_nodes_go_through_pgbouncer_and_read_the_replica_as_the_sites_role(tmp_path):
    """Bound by row-level security: the site's role, not the tables' owner (a superuser here)."""
    c = Cluster(run_dir=tmp_path, pgbouncer_port=16432, replica_port=15433, database="gupai_cluster")
    password = c.site_password()
    assert c.pooled_url == f"postgres://gupai_site:{password}@127.0.0.1:16432/gupai_cluster"
    assert c.replica_url == f"postgres://gupai_site:{password}@127.0.0.1:15433/gupai_cluster"
    assert c.site_password() == password and len(password) >= 24   # one per run directory
    assert "****" in masked(c.pooled_url) and password not in masked(c.pooled_url)
