"""Replay audits with a real Celery worker on Redis, against the test database (PostgreSQL):
a tampered revision is reported by the next audit, and an audit whose worker is killed (SIGKILL)
part-way completes once a worker starts again, with exactly the right findings and progress.

The worker reads a queue of its own and sends the tasks it enqueues (the audit's chunks) to it
(``worker_settings``); the test process publishes to it too."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from scoring.domain.chain import hash_of_revision
from scoring.models import Audit, AuditChunk, AuditFinding, Round, RoundRevision
from scoring.services.audits import audit_start, audits_resume
from scoring.services.rounds import round_record
from scoring.services.standings import standings_refresh
from tests.integration.stack import database_url_of_test_db, own_queues, routing_again, wait_for

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI sets it; see docs/install.md, Services)"),
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                       reason="the worker process needs a database it can share: PostgreSQL (DATABASE_URL)"),
]


class Worker:
    """`celery worker` (one process, solo pool) on a queue of its own, which a test may kill and
    start again."""

    def __init__(self, app, queue: str):
        self.app, self.queue = app, queue
        self.name = f"{queue}@localhost"
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        env = dict(os.environ, DATABASE_URL=database_url_of_test_db(), PYTHONUNBUFFERED="1", DEBUG="0",
                   SECRET_KEY="integration-test-key", DJANGO_SETTINGS_MODULE="tests.integration.worker_settings",
                   GUPAI_TEST_QUEUE=self.queue)
        var = ROOT / "var"
        log = open(var / f"celery-{self.queue}-{self.starts}.log", "w") if var.is_dir() else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "gupai_site", "worker", "--pool=solo", "--concurrency=1",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-Q", self.queue, "-n", self.name,
             "--loglevel=INFO"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        if log is not subprocess.DEVNULL:
            log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"celery worker exited early with {self.proc.returncode}")
            if self.app.control.ping(destination=[self.name], timeout=1.0):
                return
        pytest.fail("celery worker did not answer within 60 s")

    def kill(self) -> None:
        """SIGKILL: no warm shutdown, no message given back, its transaction cut off."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def worker(transactional_db):
    from gupai_site.celery import app

    queue = f"test-audit-{uuid.uuid4().hex[:12]}"
    old = (app.conf.task_always_eager, app.conf.task_default_queue, app.conf.task_queues, app.conf.task_routes)
    app.conf.task_always_eager = False
    # The audit's tasks to the test's queue (the site routes them to its "audits" queue).
    app.conf.task_default_queue, app.conf.task_queues, app.conf.task_routes = own_queues(queue)
    routing_again(app)
    w = Worker(app, queue)
    w.start()
    try:
        yield w
    finally:
        w.stop()
        app.conf.task_always_eager, app.conf.task_default_queue, app.conf.task_queues, app.conf.task_routes = old
        routing_again(app)
        _forget_queue(app, queue)


def _forget_queue(app, queue: str) -> None:
    """Leave nothing of the test's queue in the shared Redis: its messages, its bindings, and
    what a killed worker held unacknowledged (Redis would give it back to the dead queue in an
    hour)."""
    import json

    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
        for tag, raw in client.hgetall("unacked").items():
            if json.loads(raw)[2] == queue:   # [message, exchange, routing key]
                client.hdel("unacked", tag)
                client.zrem("unacked_index", tag)


def _finished(audit_id: int) -> Audit | None:
    audit = Audit.objects.get(pk=audit_id)
    return None if audit.is_active else audit


def _tamper(rev: RoundRevision, **changes) -> None:
    """Rewrite a stored revision as an attacker with the database owner's rights could (the
    trigger switched off, then on again: other tests share the database)."""
    with connection.cursor() as cur:
        cur.execute("ALTER TABLE scoring_roundrevision DISABLE TRIGGER scoring_roundrevision_immutable")
        try:
            RoundRevision.objects.filter(pk=rev.pk).update(**changes)
        finally:
            cur.execute("ALTER TABLE scoring_roundrevision ENABLE TRIGGER scoring_roundrevision_immutable")


def test_the_next_audit_reports_a_tampered_revision(worker, jie_long):
    s = jie_long
    rounds = [round_record(actor=s.scorer_actor, table=s.table, body={"points": p})
              for p in ([2, 12, 34, 18], [12, 2, 34, 18], [34, 18, 2, 12])]
    first = audit_start(actor=s.director_actor, tournament=s.tournament)
    assert wait_for(lambda: _finished(first.pk), timeout=60), "the worker did not finish the audit"
    first.refresh_from_db()
    assert (first.status, first.done, first.total) == ("passed", 3, 3)
    assert not AuditFinding.objects.filter(audit=first).exists()

    rev = rounds[1].current_revision
    _tamper(rev, reason="nothing happened", engine_version="0.0.1")   # two quiet edits

    second = audit_start(actor=s.director_actor, tournament=s.tournament)
    assert second.pk != first.pk
    assert wait_for(lambda: _finished(second.pk), timeout=60), "the worker did not finish the second audit"
    second.refresh_from_db()
    assert (second.status, second.done, second.total) == ("failed", 3, 3)
    found = sorted(AuditFinding.objects.filter(audit=second).values_list("kind", "number", "revision", "agrees"))
    assert found == [("engine_version", 2, 1, True), ("hash_chain", 2, 1, None)]
    rev.refresh_from_db()
    assert AuditFinding.objects.get(audit=second, kind="hash_chain").recomputed == hash_of_revision(rev)
    stats = worker.app.control.inspect(destination=[worker.name], timeout=5).stats()
    assert stats[worker.name]["total"].get("scoring.audit_chunk", 0) >= 2   # the chunks ran in the worker


def test_an_audit_survives_its_worker_being_killed(worker, make_setup):
    from bench.audit import bulk_deals, points_bodies

    s = make_setup("jie_long")
    bodies = points_bodies(500, seed=7)
    deals = 10_000   # 200 chunks of 50, a few seconds of work: time to kill the worker part-way
    bulk_deals(s.table, [bodies[i % len(bodies)] for i in range(deals)])
    standings_refresh(tournament=s.tournament)
    # Two tampered deals: the findings must come out exactly once each.
    ids = list(Round.objects.filter(table=s.table).order_by("id").values_list("id", flat=True))
    early, late = (RoundRevision.objects.get(round_id=ids[i]) for i in (10, deals - 10))
    _tamper(early, reason="rewritten")
    late.engine_version = "0.0.1"   # stored by another engine, hash and all: reported, still agreeing
    _tamper(late, engine_version=late.engine_version, hash=hash_of_revision(late))

    audit = audit_start(actor=s.director_actor, tournament=s.tournament, chunk_rounds=50)
    # Part-way: some chunks done, not all.
    assert wait_for(lambda: Audit.objects.get(pk=audit.pk).done >= 500, timeout=60, every=0.02), "the audit did not start"
    worker.kill()
    audit.refresh_from_db()
    assert audit.status == "running" and 500 <= audit.done < audit.total == deals, (audit.done, audit.total)
    time.sleep(1.0)
    stalled = Audit.objects.get(pk=audit.pk)
    assert stalled.done == audit.done < deals   # nobody works on it now

    worker.start()   # on start, the worker puts the audit's unfinished chunks back on the queue
    assert wait_for(lambda: _finished(audit.pk), timeout=120), "the audit did not complete after the restart"
    audit.refresh_from_db()
    assert (audit.status, audit.done, audit.total) == ("failed", deals, deals)
    assert audit.chunks_done == audit.chunk_count == deals // 50 + 1   # and the standings chunk
    assert not AuditChunk.objects.filter(audit=audit, done=False).exists()
    found = sorted(AuditFinding.objects.filter(audit=audit).values_list("kind", "round", "revision", "agrees"))
    assert found == [("engine_version", ids[deals - 10], 1, True), ("hash_chain", ids[10], 1, None)]
    assert audit.stalls == 0   # progress after the resume
    assert audits_resume(stale_after=None) == 0   # nothing left under way
