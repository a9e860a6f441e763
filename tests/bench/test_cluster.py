"""bench/cluster.py's pure parts, without a cluster: the chunked body and the events stream read
however the bytes are cut, the percentiles, the schedule (open loop, spread, under each scorer
link's allowance) and the accounting of the spectators' deliveries (missed, duplicated,
unexpected, the delays)."""

from __future__ import annotations

import pytest

from bench.cluster import PER_TABLE, Chunked, Deal, EventStream, Watched, account, percentile, schedule, tables_for

STREAM = (b"retry: 3000\n\nid: 7\n\n: ping\n\n"
          b'id: 8\nevent: deal_recorded\ndata: {"round":41,"table":3,"nets":[]}\n\n'
          b'id: 9\nevent: session_closed\ndata: {"session":1}\n\n'
          b'id: 10\nevent: deal_recorded\ndata: {"round":42,"table":3}\n\n')
EXPECTED = [(None, "message", None), (7, "message", None), (8, "deal_recorded", 41), (9, "session_closed", None),
            (10, "deal_recorded", 42)]


def chunked(body: bytes, size: int) -> bytes:
    out = b"".join(f"{len(body[i:i + size]):x}\r\n".encode() + body[i:i + size] + b"\r\n"
                   for i in range(0, len(body), size))
    return out + b"0\r\n\r\n"


@pytest.mark.parametrize("cut", [1, 2, 3, 7, 64, 10_000])
def test_a_chunked_events_stream_reads_the_same_however_it_is_cut(cut):
    wire = chunked(STREAM, 13)
    body, events, decoder, parser = b"", [], Chunked(), EventStream()
    for i in range(0, len(wire), cut):
        data = decoder.feed(wire[i:i + cut])
        body += data
        events += parser.feed(data)
    assert body == STREAM and decoder.done
    assert [e for e in events if e[0] is not None or e[1] != "message"] == EXPECTED[1:]


def test_an_unfinished_event_waits_for_its_end():
    parser = EventStream()
    assert parser.feed(b'id: 8\nevent: deal_recorded\ndata: {"round":4') == []
    assert parser.feed(b'1}\n\n') == [(8, "deal_recorded", 41)]


def test_percentile_is_the_nearest_rank():
    values = list(range(1, 101))
    assert (percentile(values, 50), percentile(values, 95), percentile(values, 99), percentile(values, 100)) == \
        (50, 95, 99, 100)
    assert percentile([3.0], 99) == 3.0
    assert percentile([], 50) != percentile([], 50)   # NaN


def test_the_schedule_is_open_loop_spread_and_under_each_links_allowance():
    plan = schedule(tournaments=4, rate=10, seconds=3)
    assert len(plan) == 4 * 10 * 3
    assert [at for at, *_ in plan] == sorted(at for at, *_ in plan)
    assert len({round(at, 6) for at, *_ in plan}) == len(plan)   # no two at once: the phases spread
    one = [at for at, i, _ in plan if i == 2]
    assert all(abs((b - a) - 0.1) < 1e-9 for a, b in zip(one, one[1:]))
    tables = tables_for(10)
    assert tables == 25 and 10 / tables <= PER_TABLE and 10 / tables * 60 < 30
    assert schedule(3, 0, 10) == []


def test_the_accounting_counts_missed_duplicated_and_unexpected_deliveries():
    deals = [Deal(tournament=1, key="a", scheduled=0.0, sent=10.0, answered=10.2, status=201, round=100),
             Deal(tournament=1, key="b", scheduled=0.0, sent=11.0, answered=11.1, status=201, round=101),
             Deal(tournament=2, key="c", scheduled=0.0, sent=12.0, answered=12.5, status=201, round=200),
             Deal(tournament=2, key="d", scheduled=0.0, sent=13.0, answered=13.4, status=0),          # no answer
             Deal(tournament=2, key="e", scheduled=0.0, sent=14.0, answered=14.1, status=429)]
    spectators = [
        Watched(tournament=1, node="node1", receipts=[(100, 10.3), (101, 11.0), (101, 11.5)]),  # one twice; one first
        Watched(tournament=1, node="node2", receipts=[(100, 10.6)]),                         # 101 missed
        Watched(tournament=2, node="node1", receipts=[(200, 12.7), (201, 13.3)]),            # 201: never answered
    ]
    a = account(deals, spectators)
    assert (a["expected"], a["missed"], a["duplicated"], a["unexpected"]) == (2 + 2 + 1, 1, 1, 1)
    assert sorted(round(x, 3) for x in a["from_answer"]) == [-0.1, 0.1, 0.2, 0.4]   # the event may beat the answer
    assert sorted(round(x, 3) for x in a["from_send"]) == [0.0, 0.3, 0.6, 0.7]
    assert sorted(round(x, 3) for x in a["by_node"]["node2"]) == [0.4]


def test_the_delay_splits_at_redis_when_the_publish_was_seen():
    deals = [Deal(tournament=1, key="a", scheduled=0.0, sent=10.0, answered=10.2, status=201, round=100),
             Deal(tournament=1, key="b", scheduled=0.0, sent=11.0, answered=11.1, status=201, round=101)]
    spectators = [Watched(tournament=1, receipts=[(100, 10.3), (101, 11.4)])]
    a = account(deals, spectators, published={100: 10.15})   # 101's publish not seen
    assert [round(x, 3) for x in a["from_redis"]] == [0.15]
    assert [round(x, 3) for x in a["redis_to_answer"]] == [0.05]
    assert account(deals, spectators)["from_redis"] == []
