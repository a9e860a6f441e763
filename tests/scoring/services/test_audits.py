"""Replay audits (audits, audits_selectors, the audit tasks), with eager tasks: what an
audit finds, that it changes nothing, that a chunk done twice counts once, resuming, and the
cost of a chunk. The real worker (killed part-way) is in tests/integration/test_audits.py."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

import games
from scoring import tasks
from scoring.domain.actors import Actor
from scoring.domain.chain import hash_of_revision
from scoring.domain.errors import PermissionDenied
from scoring.models import ActionLog, Audit, AuditChunk, AuditFinding, Round, RoundRevision, Standing
from scoring.selectors import audits as audits_selectors
from scoring.services import audits
from scoring.services.audits import audit_chunk_run, audit_plan, audit_start, audits_resume
from scoring.services.rounds import round_correct, round_record, round_void

from ..bodies import JIE_LONG, JIE_LONG_NETS

pytestmark = pytest.mark.django_db

# Da Ling, RULES.md example 1 with the casino chip: P2 wins 25 from P1 and gives the house 1.
DA_LING = {"table": ["6:6", "3:2"], "groups": [[["4:3"], ["6:5", "5:1"], ["1:1", "6:3", "3:3"]],
                                               [["5:2"], ["6:6", "4:1"], ["2:2", "2:2", "5:4"]]]}


def disable_revision_guard():
    """Switch off the trigger of migration 0002 inside this test's transaction (rolled back
    with it), as an attacker with the database owner's rights could."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cur.execute("ALTER TABLE scoring_roundrevision DISABLE TRIGGER scoring_roundrevision_immutable")
        else:
            cur.execute("DROP TRIGGER IF EXISTS scoring_roundrevision_immutable")


def tamper(rev: RoundRevision, *, rehash: bool = False, **changes) -> RoundRevision:
    """Change a stored revision behind the services' back; ``rehash``: and give it the hash of
    its new content, as a careful attacker would."""
    disable_revision_guard()
    for k, v in changes.items():
        setattr(rev, k, v)
    if rehash:
        changes["hash"] = rev.hash = hash_of_revision(rev)
    RoundRevision.objects.filter(pk=rev.pk).update(**changes)
    rev.refresh_from_db()
    return rev


def record(setup, n: int = 1, body=JIE_LONG) -> list[Round]:
    return [round_record(actor=setup.scorer_actor, table=setup.table, body=body) for _ in range(n)]


def run_audit(setup, django_capture_on_commit_callbacks, **kwargs) -> Audit:
    """Start an audit and run every task it enqueues (eagerly), to the end."""
    with django_capture_on_commit_callbacks(execute=True):
        audit = audit_start(actor=setup.director_actor, tournament=setup.tournament, **kwargs)
    audit.refresh_from_db()
    return audit


def findings(audit: Audit) -> list[tuple]:
    return sorted((f.kind, f.number, f.revision) for f in AuditFinding.objects.filter(audit=audit))


def snapshot(tournament) -> tuple:
    """Everything an audit must leave as it is."""
    return (list(RoundRevision.objects.filter(round__table__session__tournament=tournament).order_by("pk").values()),
            list(Round.objects.filter(table__session__tournament=tournament).order_by("pk").values()),
            list(Standing.objects.filter(tournament=tournament).order_by("pk").values()))


# --- a clean tournament ---------------------------------------------------------------------------

def test_a_clean_tournament_passes_and_nothing_changes(jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    rounds = record(s, 5)
    round_correct(actor=s.director_actor, round=rounds[1], body={"points": [12, 2, 34, 18]},
                           reason="swapped", expected_revision=1)
    round_void(actor=s.director_actor, round=rounds[2], reason="misdeal")
    before = snapshot(s.tournament)

    audit = run_audit(s, django_capture_on_commit_callbacks, chunk_rounds=2)

    assert audit.status == Audit.Status.PASSED
    assert (audit.done, audit.total, audit.chunks_done, audit.chunk_count) == (5, 5, 4, 4)   # standings + 3
    assert findings(audit) == []
    assert audit.engine_version == games.ENGINE_VERSION and audit.started_at and audit.finished_at
    assert snapshot(s.tournament) == before
    logged = ActionLog.objects.filter(target_model="Audit", target_id=str(audit.pk))
    assert sorted(logged.values_list("action", flat=True)) == ["audit_finish", "audit_start"]
    assert logged.get(action="audit_start").actor_label == "director alice"
    assert logged.get(action="audit_finish").data["status"] == "passed"


def test_an_empty_tournament_passes_at_once(jie_long, django_capture_on_commit_callbacks):
    audit = run_audit(jie_long, django_capture_on_commit_callbacks)
    assert (audit.status, audit.done, audit.total, audit.chunk_count) == ("passed", 0, 0, 1)   # the standings


def test_da_ling_deals_balance_with_the_house(make_setup, django_capture_on_commit_callbacks):
    s = make_setup("da_ling", names=["P1", "P2"], variant={"casino_chip": True})
    (rnd,) = record(s, 1, body=DA_LING)
    result = rnd.current_revision.result
    assert result["house"] == 1 and sum(seat["net"] for seat in result["seats"]) == -1
    audit = run_audit(s, django_capture_on_commit_callbacks)
    assert audit.status == "passed" and findings(audit) == []


def test_a_house_that_took_nothing_leaves_the_nets_unbalanced(make_setup, django_capture_on_commit_callbacks):
    s = make_setup("da_ling", names=["P1", "P2"], variant={"casino_chip": True})
    (rnd,) = record(s, 1, body=DA_LING)
    rev = rnd.current_revision
    tamper(rev, rehash=True, result={**rev.result, "house": 0})
    audit = run_audit(s, django_capture_on_commit_callbacks)
    assert findings(audit) == [("result_mismatch", 1, 1), ("zero_sum", 1, 1)]
    zero = AuditFinding.objects.get(audit=audit, kind="zero_sum")
    assert zero.stored == {"nets": [-25, 24], "house": 0, "balance": -1} and zero.recomputed == {"balance": 0}


# --- what an audit finds ----------------------------------------------------------------------------

def test_a_tampered_revision_breaks_its_hash_and_differs_from_the_replay(jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    rounds = record(s, 3)
    rev = rounds[1].current_revision
    seats = [dict(seat) for seat in rev.result["seats"]]
    seats[0]["net"], seats[2]["net"] = seats[2]["net"], seats[0]["net"]  # still sums to zero
    tamper(rev, result={**rev.result, "seats": seats})

    audit = run_audit(s, django_capture_on_commit_callbacks)

    assert audit.status == "failed"
    # ... and the stored results no longer add up to the standings kept when the deal was recorded.
    assert findings(audit) == [("hash_chain", 2, 1), ("result_mismatch", 2, 1),
                               ("standings_mismatch", None, None), ("standings_mismatch", None, None)]
    chain = AuditFinding.objects.get(audit=audit, kind="hash_chain")
    assert chain.round == rounds[1].pk and chain.table == s.table.pk and chain.chunk == 1
    assert chain.stored == rev.hash and chain.recomputed == hash_of_revision(rev) != rev.hash
    assert "does not match its hash" in chain.detail
    mismatch = AuditFinding.objects.get(audit=audit, kind="result_mismatch")
    assert mismatch.stored["seats"][0]["net"] == -70 and mismatch.recomputed["seats"][0]["net"] == 58
    assert list(mismatch.stored) == ["seats"]  # only the fields that differ
    # It reports; it does not repair.
    assert RoundRevision.objects.get(pk=rev.pk).result["seats"][0]["net"] == -70


def test_an_attacker_who_rehashes_is_caught_by_the_replay(jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    (rnd,) = record(s, 1)
    rev = rnd.current_revision
    seats = [{**seat, "net": seat["net"] + (1 if i == 0 else 0)} for i, seat in enumerate(rev.result["seats"])]
    tamper(rev, rehash=True, result={**rev.result, "seats": seats})
    assert audits_selectors.round_verify_chain(rnd).ok  # the chain alone cannot tell

    audit = run_audit(s, django_capture_on_commit_callbacks)
    assert findings(audit) == [("result_mismatch", 1, 1), ("standings_mismatch", None, None), ("zero_sum", 1, 1)]
    assert AuditFinding.objects.get(audit=audit, kind="zero_sum").detail == "The nets sum to 1, not 0."


def test_a_rewritten_earlier_revision_breaks_the_link_of_the_next(jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    (rnd,) = record(s, 1)
    round_correct(actor=s.director_actor, round=rnd, body={"points": [12, 2, 34, 18]}, reason="swap",
                           expected_revision=1)
    first = RoundRevision.objects.get(round=rnd, number=1)
    tamper(first, rehash=True, reason="nothing to see")
    audit = run_audit(s, django_capture_on_commit_callbacks)
    assert findings(audit) == [("hash_chain", 1, 2)]
    assert "link to the previous revision" in AuditFinding.objects.get(audit=audit).detail


def test_a_deal_without_revisions_is_a_broken_chain(jie_long, django_capture_on_commit_callbacks):
    record(jie_long, 1)
    Round.objects.create(table=jie_long.table, number=2)
    audit = run_audit(jie_long, django_capture_on_commit_callbacks)
    assert findings(audit) == [("hash_chain", 2, None)]


def test_another_engine_version_that_still_agrees_is_reported_and_passes(jie_long,
                                                                         django_capture_on_commit_callbacks):
    s = jie_long
    rounds = record(s, 2)
    tamper(rounds[0].current_revision, rehash=True, engine_version="0.9.0")

    audit = run_audit(s, django_capture_on_commit_callbacks)

    assert audit.status == "passed"
    assert findings(audit) == [("engine_version", 1, 1)]
    f = AuditFinding.objects.get(audit=audit)
    assert f.agrees is True
    assert f.stored == {"engine_version": "0.9.0"} and f.recomputed == {"engine_version": games.ENGINE_VERSION}
    assert f.detail == f"Stored by engine 0.9.0, re-evaluated by {games.ENGINE_VERSION}: the result still agrees."


def test_another_engine_version_that_disagrees_fails_without_a_mismatch_of_its_own(
        jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    (rnd,) = record(s, 1)
    rev = rnd.current_revision
    tamper(rev, rehash=True, engine_version="0.9.0", result={**rev.result, "winner": 3})

    audit = run_audit(s, django_capture_on_commit_callbacks)

    assert audit.status == "failed"
    assert findings(audit) == [("engine_version", 1, 1)]
    f = AuditFinding.objects.get(audit=audit)
    assert f.agrees is False and "differs in winner" in f.detail
    assert f.stored == {"engine_version": "0.9.0", "winner": 3}
    assert f.recomputed == {"engine_version": games.ENGINE_VERSION, "winner": 0}


def test_drifted_standings_are_reported_not_repaired(jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    record(s, 2)
    Standing.objects.filter(entry=s.entries[0]).update(total=999)

    audit = run_audit(s, django_capture_on_commit_callbacks)

    assert audit.status == "failed"
    assert findings(audit) == [("standings_mismatch", None, None)]
    f = AuditFinding.objects.get(audit=audit)
    entry = s.entries[0].pk
    assert f.stored == {"entry": entry, "total": 999, "rounds_counted": 2}
    assert f.recomputed == {"entry": entry, "total": 2 * JIE_LONG_NETS[0], "rounds_counted": 2}
    assert f.chunk == 0 and f.round is None
    assert f.detail == f"Standing of Anna (entry {entry}): total 999 kept, 116 recomputed."
    assert Standing.objects.get(entry=s.entries[0]).total == 999
    assert not ActionLog.objects.filter(action=ActionLog.Action.STANDINGS_REPAIR).exists()


def test_standings_differences_compare_every_kept_field(jie_long):
    s = jie_long
    record(s, 1)
    assert audits_selectors.standings_differences(s.tournament) == []
    Standing.objects.filter(entry=s.entries[1]).update(rounds_counted=5)
    Standing.objects.filter(entry=s.entries[2]).delete()
    assert audits_selectors.standings_differences(s.tournament) == [
        {"entry": s.entries[1].pk, "name": "Bob", "kept": {"total": 18, "rounds_counted": 5},
         "recomputed": {"total": 18, "rounds_counted": 1}},
        {"entry": s.entries[2].pk, "name": "Celine", "kept": None, "recomputed": {"total": -70, "rounds_counted": 1}},
    ]


# --- chunks: exactly once, resumable, constant cost ------------------------------------------------

def test_a_chunk_run_twice_counts_once(jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    rounds = record(s, 5)
    tamper(rounds[0].current_revision, reason="rewritten")
    with django_capture_on_commit_callbacks(execute=False):  # nothing runs by itself: we deliver
        audit = audit_start(actor=s.director_actor, tournament=s.tournament, chunk_rounds=2)
    audit_plan(audit=audit)
    assert list(AuditChunk.objects.filter(audit=audit).values_list("number", "rounds", "first_round", "last_round")) \
        == [(0, 0, 0, 0), (1, 2, rounds[0].pk, rounds[1].pk), (2, 2, rounds[2].pk, rounds[3].pk),
            (3, 1, rounds[4].pk, rounds[4].pk)]

    assert audit_chunk_run(audit_id=audit.pk, number=1) is True
    assert audit_chunk_run(audit_id=audit.pk, number=1) is False  # delivered again
    audit.refresh_from_db()
    assert (audit.done, audit.chunks_done, audit.status) == (2, 1, "running")
    assert findings(audit) == [("hash_chain", 1, 1)]

    with django_capture_on_commit_callbacks(execute=True) as finishing:
        for number in (3, 0, 2, 3, 0, 2):
            tasks.audit_chunk(audit.pk, number)
    assert len(finishing) == 1  # the chunk that completed the count, once
    audit.refresh_from_db()
    assert (audit.done, audit.total, audit.status) == (5, 5, "failed")
    tasks.audit_finish(audit.pk)  # the finish delivered again
    tasks.audit_chunk(audit.pk, 1)
    audit.refresh_from_db()
    assert (audit.done, audit.status) == (5, "failed")
    assert findings(audit) == [("hash_chain", 1, 1)]
    assert ActionLog.objects.filter(action="audit_finish", target_id=str(audit.pk)).count() == 1


def test_progress_cannot_pass_the_total(jie_long):
    audit = audit_start(actor=jie_long.director_actor, tournament=jie_long.tournament)
    Audit.objects.filter(pk=audit.pk).update(total=3, done=3)
    with pytest.raises(IntegrityError), transaction.atomic():
        Audit.objects.filter(pk=audit.pk).update(done=4)


def test_a_stalled_audit_resumes_its_lost_chunks(jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    record(s, 5)
    with django_capture_on_commit_callbacks(execute=False):   # the plan's message is lost
        audit = audit_start(actor=s.director_actor, tournament=s.tournament, chunk_rounds=2)
    assert audits_resume() == 0   # not stale yet
    with django_capture_on_commit_callbacks(execute=False):
        assert audits_resume(stale_after=None) == 1
        tasks.audit_plan(audit.pk)   # planned; the chunks' messages are lost
    tasks.audit_chunk(audit.pk, 2)   # one of them got through
    with django_capture_on_commit_callbacks(execute=True) as resumed:
        assert tasks.audits_resume(0) == 1
    assert len(resumed) >= 4   # chunks 0, 1 and 3, then the finish
    audit.refresh_from_db()
    assert (audit.status, audit.done, audit.total) == ("passed", 5, 5)
    resumes = ActionLog.objects.filter(action="audit_resume", target_id=str(audit.pk)).order_by("id")
    assert [r.data["steps"] for r in resumes] == [["plan"], ["3 chunks"]]   # 0 (standings), 1 and 3
    assert all(r.actor_label == "system" for r in resumes)


def test_an_audit_gives_up_after_stalling_again_and_again(jie_long, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        audit = audit_start(actor=jie_long.director_actor, tournament=jie_long.tournament)
        for _ in range(audits.MAX_STALLS):
            audits_resume(stale_after=None)
        audits_resume(stale_after=None)
    audit.refresh_from_db()
    assert audit.status == "failed" and "gave up" in audit.error and audit.finished_at


def test_a_worker_that_starts_resumes_the_audits_under_way(jie_long, django_capture_on_commit_callbacks):
    record(jie_long, 3)
    with django_capture_on_commit_callbacks(execute=False):
        audit = audit_start(actor=jie_long.director_actor, tournament=jie_long.tournament)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.resume_audits_when_a_worker_starts(sender=None)
    audit.refresh_from_db()
    assert (audit.status, audit.done) == ("passed", 3)


def test_a_chunk_costs_the_same_queries_whatever_its_size(jie_long, django_capture_on_commit_callbacks,
                                                          django_assert_num_queries):
    """SAVEPOINT + the chunk (locked, with its audit) + its deals and revisions (one join) + the
    chunk done + the audit's progress + the audit's count read back + RELEASE."""
    s = jie_long
    rounds = record(s, 24)
    for rnd in rounds[:3]:
        round_correct(actor=s.director_actor, round=rnd, body={"points": [12, 2, 34, 18]}, reason="x",
                               expected_revision=1)
    with django_capture_on_commit_callbacks(execute=False):
        audit = audit_start(actor=s.director_actor, tournament=s.tournament, chunk_rounds=20)
        audit_plan(audit=audit)
    for number in (2, 1):   # 4 deals, then 20 deals with 3 corrections
        with django_assert_num_queries(7):
            assert audit_chunk_run(audit_id=audit.pk, number=number)
    # ... and one more to store findings, however many.
    audit2 = Audit.objects.create(tournament=s.tournament, chunk_rounds=20, engine_version="x", updated_at=audit.updated_at,
                                  status="running", total=24, chunk_count=1)
    AuditChunk.objects.create(audit=audit2, number=1, first_round=rounds[0].pk, last_round=rounds[-1].pk, rounds=24)
    for rnd in rounds[5:9]:
        tamper(rnd.current_revision, reason="rewritten")
    with django_assert_num_queries(8):
        assert audit_chunk_run(audit_id=audit2.pk, number=1)
    assert AuditFinding.objects.filter(audit=audit2).count() == 4


# --- who, when --------------------------------------------------------------------------------------

def test_one_audit_at_a_time_per_tournament(jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    with django_capture_on_commit_callbacks(execute=False):
        first = audit_start(actor=s.director_actor, tournament=s.tournament)
        again = audit_start(actor=s.director_actor, tournament=s.tournament)
    assert again.pk == first.pk
    assert ActionLog.objects.filter(action="audit_start").count() == 1
    done = run_audit(s, django_capture_on_commit_callbacks)   # the first is still queued: the same
    assert done.pk == first.pk and done.status == "queued"


def test_only_directors_of_the_club_start_audits(jie_long, other_director):
    s = jie_long
    for actor in (s.scorer_actor, Actor(user=other_director)):
        with pytest.raises(PermissionDenied):
            audit_start(actor=actor, tournament=s.tournament)
    assert not Audit.objects.exists()


def test_the_nightly_job_audits_every_running_tournament(jie_long, make_setup, django_capture_on_commit_callbacks):
    make_setup("jie_long", names=["W", "X", "Y", "Z"], start=False)
    other = make_setup("jie_long", names=["K", "L", "M", "N"])
    record(jie_long, 2)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.audits_nightly() == 2
    assert sorted(Audit.objects.values_list("tournament_id", "status", "total")) == sorted(
        [(jie_long.tournament.pk, "passed", 2), (other.tournament.pk, "passed", 0)])
    assert set(ActionLog.objects.filter(action="audit_start").values_list("actor_label", flat=True)) == {"system"}


def test_beat_runs_the_nightly_audits_and_resumes_stalled_ones():
    from django.conf import settings

    entries = {e["task"]: e for e in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "scoring.audits_nightly" in entries and "scoring.audits_resume" in entries
    nightly = entries["scoring.audits_nightly"]["schedule"]
    assert nightly.hour == {3} and nightly.minute == {0}   # before the standings check repairs drift


def test_the_tasks_of_a_deleted_audit_do_nothing():
    assert tasks.audit_plan(999999) == 0
    assert tasks.audit_chunk(999999, 1) is False
    assert tasks.audit_finish(999999) == ""
