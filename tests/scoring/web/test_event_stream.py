"""The events stream (``GET /api/v1/tournaments/{id}/events/``) as the ASGI application serves it
(``gupai_site.asgi``), driven in-process, without Redis (the hub's in-process path; the Redis
path is tests/integration/test_event_stream_redis.py): a reconnection resumes from
``Last-Event-ID`` with every missed event exactly once, in order; a client too far behind gets
one ``snapshot``; a private tournament's stream answers strangers the API's 404 and admits its
director, by session and by token; a gap is filled from the store; a slow client is dropped."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.test import Client

from gupai_site.asgi import application
from scoring.services import events as feed
from scoring.services.auth import auth_token_obtain
from scoring.services.rounds import round_record
from scoring.services.tournaments import tournament_update
from scoring.web import event_stream
from scoring.web import events as web_events

from ..bodies import JIE_LONG
from .sse import events_path, in_a_thread_of_its_own, open_stream, record, run

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_redis(settings):
    settings.REDIS_URL = ""


def test_a_reconnection_resumes_from_last_event_id_exactly_once_in_order(jie_long):
    for _ in range(3):
        round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)

    async def scenario():
        stream = await open_stream(application, events_path(jie_long), {"Last-Event-ID": "1"})
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["cache-control"] == "no-store" and stream.headers["x-accel-buffering"] == "no"
        assert [(await stream.next()).id for _ in range(2)] == [2, 3]
        await record(jie_long, 2)      # published after commit, through the hub
        assert [(await stream.next()).id for _ in range(2)] == [4, 5]
        assert await stream.quiet() == []      # nothing twice
        await stream.close()
        assert b"retry: 3000" in stream.body
        # Cut, two deals meanwhile, back with the last id seen: exactly those two.
        await record(jie_long, 2)
        again = await open_stream(application, events_path(jie_long), {"Last-Event-ID": "5"})
        got = [await again.next(), await again.next()]
        assert [(e.id, e.event) for e in got] == [(6, "deal_recorded"), (7, "deal_recorded")]
        assert await again.quiet() == []
        await again.close()
        return json.loads(got[0].data)

    data = run(scenario())
    assert data["table"] == jie_long.table.pk and data["number"] == 6 and data["status"] == "recorded"
    assert [n["net"] for n in data["nets"]] == [58, 18, -70, -6]
    anna = next(r for r in data["standings"] if r["entry"] == jie_long.entries[0].pk)
    assert anna["net"] == 58 * 6 and anna["deals"] == 6


def test_a_new_client_starts_at_the_current_version(jie_long):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)

    async def scenario():
        stream = await open_stream(application, events_path(jie_long))
        first = await stream.next()
        assert (first.id, first.event) == (1, None)    # its Last-Event-ID from now on, no event
        await record(jie_long)
        assert (await stream.next()).id == 2
        await stream.close()

    run(scenario())


def test_a_client_too_far_behind_gets_one_snapshot(jie_long, monkeypatch):
    monkeypatch.setattr(feed, "KEEP", 2)
    monkeypatch.setattr(feed, "PRUNE_EVERY", 1)
    for _ in range(5):
        round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)

    async def scenario():
        stream = await open_stream(application, events_path(jie_long), {"Last-Event-ID": "1"})
        snap = await stream.next()
        assert (snap.id, snap.event) == (5, "snapshot")
        assert await stream.quiet(0.3) == []           # one snapshot, not the events it stands for
        await record(jie_long)
        assert (await stream.next()).id == 6
        await stream.close()
        # Still within the kept events: those, no snapshot.
        near = await open_stream(application, events_path(jie_long), {"Last-Event-ID": "4"})
        assert [(await near.next()).event for _ in range(2)] == ["deal_recorded", "deal_recorded"]
        await near.close()
        return json.loads(snap.data)

    data = run(scenario())
    assert data["version"] == 5
    anna = next(r for r in data["standings"] if r["name"] == "Anna")
    assert (anna["rank"], anna["net"], anna["deals"]) == (1, 58 * 5, 5)


def test_clients_too_far_behind_share_one_snapshot_a_version(jie_long, monkeypatch):
    """A crowd resuming with old ids (several, at different moments) costs one standings read per
    version of the tournament, not one per client."""
    monkeypatch.setattr(feed, "KEEP", 2)
    monkeypatch.setattr(feed, "PRUNE_EVERY", 1)
    for _ in range(5):
        round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    drawn = []
    real = web_events.snapshot
    monkeypatch.setattr(web_events, "snapshot", lambda tournament_id: drawn.append(tournament_id) or real(tournament_id))
    web_events.snapshots.clear()

    async def resume(last_id: str):
        stream = await open_stream(application, events_path(jie_long), {"Last-Event-ID": last_id})
        snap = await stream.next()
        await stream.close()
        return snap.id, snap.event, snap.data

    async def scenario():
        together = await asyncio.gather(*[resume(str(1 + i % 2)) for i in range(20)])
        one_by_one = [await resume("1") for _ in range(5)]
        await record(jie_long)
        after_a_deal = [await resume("2") for _ in range(3)]
        return together + one_by_one, after_a_deal

    before, after = run(scenario())
    assert {(i, e) for i, e, _ in before} == {(5, "snapshot")} and len({d for _, _, d in before}) == 1
    assert {(i, e) for i, e, _ in after} == {(6, "snapshot")}
    assert drawn == [jie_long.tournament.pk] * 2    # one a version, for 28 clients (each drew one before)


def test_a_private_tournaments_stream_refuses_strangers_and_admits_its_director(jie_long, other_director,
                                                                                   anon_client):
    tournament_update(actor=jie_long.director_actor, tournament=jie_long.tournament, public=False)
    api_404 = anon_client.get(f"/api/v1/tournaments/{jie_long.tournament.pk}/standings/")
    assert api_404.status_code == 404
    token = auth_token_obtain(username="alice", password="alice-secret-1")
    stranger = auth_token_obtain(username="bruno", password="bruno-secret-1")
    browser = Client()
    browser.login(username="alice", password="alice-secret-1")
    cookie = f"sessionid={browser.cookies['sessionid'].value}"

    async def status(headers=None, where=None):
        stream = await open_stream(application, where or events_path(jie_long), headers)
        await stream.close()
        return stream.status, stream.body

    async def scenario():
        return {"anonymous": await status(), "stranger": await status({"Authorization": f"Token {stranger}"}),
                "bad token": await status({"Authorization": "Token nope"}),
                "unknown id": await status(where="/api/v1/tournaments/999999/events/"),
                "token": await status({"Authorization": f"Token {token}"}),
                "session": await status({"Cookie": cookie})}

    seen = run(scenario())
    for who in ("anonymous", "stranger", "unknown id"):
        assert seen[who][0] == 404, who
        assert json.loads(seen[who][1]) == api_404.json(), who   # the API's 404, word for word
    assert seen["bad token"][0] == 401
    assert seen["token"][0] == 200 and seen["session"][0] == 200


def test_a_draft_is_nobodys_but_its_directors(make_setup):
    draft = make_setup(start=False)

    async def scenario():
        stream = await open_stream(application, events_path(draft))
        await stream.close()
        return stream.status

    assert run(scenario()) == 404


def test_a_gap_is_filled_from_the_store(jie_long, monkeypatch):
    """A publish lost (or two crossing): the next event finds the stream behind and the stream
    reads what it missed from the database, in order, once."""
    async def scenario():
        stream = await open_stream(application, events_path(jie_long), {"Last-Event-ID": "0"})
        hub = event_stream.get_hub()
        feed.unlisten(hub._from_thread)         # these two are lost on the way
        await record(jie_long, 2)
        feed.listen(hub._from_thread)
        await record(jie_long)                  # this one arrives: 3 after 0
        got = [(await stream.next()).id for _ in range(3)]
        assert await stream.quiet(0.3) == []
        await stream.close()
        return got

    assert run(scenario()) == [1, 2, 3]


def test_a_client_too_slow_is_disconnected(jie_long, monkeypatch):
    monkeypatch.setattr(event_stream, "QUEUE_SIZE", 2)

    async def scenario():
        hub = event_stream.get_hub()
        hub.start()
        sub = hub.subscribe(jie_long.tournament.pk)
        for i in range(1, 5):
            hub.deliver(jie_long.tournament.pk, json.dumps({"id": i, "event": "x", "data": {}}))
        assert sub.queue.get_nowait() is None and sub.queue.empty()   # ended: it reconnects with its last id
        assert hub.connections == 0

    run(scenario())


def test_a_cut_stream_answers_503_and_other_methods_405(jie_long):
    async def scenario():
        live = await open_stream(application, events_path(jie_long))
        hub = event_stream.get_hub()
        hub.cut = True
        hub.close_all()
        await asyncio.wait_for(live.task, 5)     # the held stream ends
        cut = await open_stream(application, events_path(jie_long))
        post = await open_stream(application, events_path(jie_long), method="POST")
        await cut.close()
        await post.close()
        return live.ended, cut.status, cut.headers.get("retry-after"), post.status

    assert run(scenario()) == (True, 503, "5", 405)


def test_django_alone_answers_the_missed_events_and_ends(jie_long, client):
    """Where Django serves the route itself (runserver, a plain WSGI server): the same frames, then
    the answer ends and the browser reconnects."""
    for _ in range(2):
        round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    answer = client.get(events_path(jie_long), HTTP_LAST_EVENT_ID="1")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/event-stream")
    assert b"id: 2\nevent: deal_recorded\n" in answer.content and b"id: 1\n" not in answer.content
    tournament_update(actor=jie_long.director_actor, tournament=jie_long.tournament, public=False)
    assert client.get(events_path(jie_long)).status_code == 404


def test_a_fan_out_in_batches_keeps_each_streams_events_in_order():
    async def scenario():
        hub = event_stream.Hub("")
        subs = [hub.subscribe(7) for _ in range(event_stream.FAN_OUT_BATCH * 2 + 10)]
        try:
            for n in (1, 2, 3):
                hub.deliver(7, json.dumps({"id": n, "event": "deal_recorded", "data": {}}))
            # The first batch has each event at once; the rest follow in the loop's next turns.
            sizes = sorted(sub.queue.qsize() for sub in subs)
            assert sizes.count(3) == event_stream.FAN_OUT_BATCH and sizes.count(0) == len(subs) - sizes.count(3)
            for _ in range(5):
                await asyncio.sleep(0)
            return [[sub.queue.get_nowait()[0] for _ in range(sub.queue.qsize())] for sub in subs]
        finally:
            hub.stop()

    assert set(map(tuple, in_a_thread_of_its_own(scenario()))) == {(1, 2, 3)}
