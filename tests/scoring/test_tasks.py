"""Celery tasks (eager here; the lead's integration test runs a real worker)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring import tasks
from scoring.models import ActionLog, IdempotencyKey, Standing
from scoring.services.rounds import round_record

from .bodies import JIE_LONG, JIE_LONG_NETS

pytestmark = pytest.mark.django_db


def test_standings_are_exact_when_a_deal_commits_without_any_task(jie_long, django_capture_on_commit_callbacks):
    s = jie_long
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    # Nothing waits for a broker: the callbacks are the live event's publish (which loses nothing
    # when Redis is away: services/events.py) and the club ratings' follow (caught up by the next
    # deal's or a rebuild), which no standing waits for; and /metrics' count of deals recorded.
    assert [c.__qualname__ for c in callbacks] == ["Counter.inc", "event_publish.<locals>.<lambda>",
                                                   "enqueue_once_on_commit.<locals>.publish"]
    totals = {st.entry.player.name: (st.total, st.rounds_counted) for st in Standing.objects.filter(tournament=s.tournament)}
    assert totals == {name: (net, 1) for name, net in zip(s.names, JIE_LONG_NETS)}


def test_nothing_is_enqueued_for_a_refused_round(jie_long, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        with pytest.raises(Exception):
            round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={"points": [1]})
    assert callbacks == []


def test_standings_refresh_task_repairs_drift_and_logs_it(jie_long):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    assert tasks.standings_refresh.delay(jie_long.tournament.pk).get() == 4
    assert not ActionLog.objects.filter(action=ActionLog.Action.STANDINGS_REPAIR).exists()  # nothing to repair
    Standing.objects.filter(entry=jie_long.entries[0]).update(total=1000)
    assert tasks.standings_refresh.delay(jie_long.tournament.pk).get() == 4
    assert Standing.objects.get(entry=jie_long.entries[0]).total == 58
    repair = ActionLog.objects.get(action=ActionLog.Action.STANDINGS_REPAIR)
    assert repair.data["entries"] == {str(jie_long.entries[0].pk): {"kept": {"net": 1000}, "recomputed": {"net": 58}}}
    assert tasks.standings_refresh(999999) == 0


def test_idempotency_keys_cleanup_task(jie_long):
    IdempotencyKey.objects.create(table=jie_long.table, key="k", request_hash="h")
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(days=2))
    assert tasks.idempotency_keys_cleanup.delay().get() == 1


def test_beat_schedule_runs_the_cleanup():
    from django.conf import settings
    assert any(e["task"] == "scoring.idempotency_keys_cleanup" for e in settings.CELERY_BEAT_SCHEDULE.values())


def test_the_nightly_check_repairs_every_running_tournament(jie_long, make_setup):
    other = make_setup("jie_long", names=["W", "X", "Y", "Z"])
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    round_record(actor=other.scorer_actor, table=other.table, body=JIE_LONG)
    Standing.objects.update(total=7)
    assert tasks.standings_check.delay().get() == 2
    assert sorted(Standing.objects.values_list("total", flat=True)) == sorted(JIE_LONG_NETS * 2)
    assert ActionLog.objects.filter(action=ActionLog.Action.STANDINGS_REPAIR).count() == 2


def test_beat_schedule_runs_the_standings_check():
    from django.conf import settings
    assert any(e["task"] == "scoring.standings_check" for e in settings.CELERY_BEAT_SCHEDULE.values())



def test_auth_tokens_cleanup_task_runs_daily_in_beat(director):
    from celery.schedules import crontab
    from django.conf import settings

    from gupai_site.celery import app
    from scoring.models import ApiToken
    from scoring.services.auth import auth_token_obtain

    auth_token_obtain(username="alice", password="alice-secret-1")
    ApiToken.objects.update(expires_at=timezone.now() - timedelta(days=2))
    assert "scoring.auth_tokens_cleanup" in app.tasks
    assert tasks.auth_tokens_cleanup.delay().get() == 1
    assert not ApiToken.objects.exists()
    assert ActionLog.objects.filter(action=ActionLog.Action.AUTH_TOKENS_CLEANUP, data__deleted=1).count() == 1
    entries = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "scoring.auth_tokens_cleanup"]
    assert len(entries) == 1 and isinstance(entries[0]["schedule"], crontab)
    assert entries[0]["schedule"].remaining_estimate(timezone.now()) <= timedelta(days=1)


def test_a_busy_clubs_deals_queue_one_ratings_follow_while_it_waits(jie_long, settings,
                                                                 django_capture_on_commit_callbacks):
    """Queued, not eager (the memory broker): the second deal's follow-up is the first's, still
    waiting; once a worker starts it, the next deal queues another."""
    from celery import current_app
    from celery.signals import before_task_publish

    from scoring.services.common import queued_task_started

    sent = []

    def count(sender=None, body=None, headers=None, **kwargs):
        sent.append((sender, tuple(body[0])))
        assert headers["eta"] is not None   # it waits a second for the deals that come meanwhile

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "queued"}}
    before_task_publish.connect(count)
    current_app.conf.task_always_eager = False
    s, club = jie_long, jie_long.tournament.club_id

    def deal():
        with django_capture_on_commit_callbacks(execute=True):
            round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    try:
        deal()
        deal()
        assert sent == [("scoring.ratings_follow", (club,))]
        queued_task_started("scoring.ratings_follow", club)   # what the task does first
        deal()
        assert sent == [("scoring.ratings_follow", (club,))] * 2
    finally:
        current_app.conf.task_always_eager = True
        before_task_publish.disconnect(count)


def test_with_the_cache_down_every_deal_queues_its_follow_up_and_the_cache_rests(
        jie_long, settings, django_capture_on_commit_callbacks):
    """A Redis that refuses: each deal's follow-up is queued (unmarked), and the cache is asked
    once, not again by the next deals while it rests (a deal must not pay a failed
    round trip each time)."""
    from celery import current_app
    from celery.signals import before_task_publish

    from scoring.services import common

    sent, asked = [], []
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:9/0",   # the discard port: refused
                                   "OPTIONS": {"socket_connect_timeout": 0.5}}}

    def count(sender=None, **kwargs):
        sent.append(sender)

    def refusing(*args):
        asked.append(args)
        raise ConnectionError("refused")

    before_task_publish.connect(count)
    current_app.conf.task_always_eager = False
    common.CACHE.wake()   # a fresh process's state
    try:
        for _ in range(3):
            with django_capture_on_commit_callbacks(execute=True):
                round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
        assert sent == ["scoring.ratings_follow"] * 3
        assert common.CACHE.call(refusing) is None and asked == []   # resting: not asked
    finally:
        common.CACHE.wake()
        current_app.conf.task_always_eager = True
        before_task_publish.disconnect(count)
