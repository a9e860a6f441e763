"""The translation between a body (seats by table position) and the engine's record (seats in
playing order), both ways, for every game. Pure: no database."""

from __future__ import annotations

import pytest

import games
from games.simulate import simulate
from scoring.domain.records import body_from_record, round_build_record


@pytest.mark.parametrize("leader", [0, 1, 3])
def test_body_from_record_rotates_games_with_a_leader(leader):
    record = {"game": "ding_niu", "seats": ["P1", "P2", "P3", "P4"], "points": [10, 6, 6, 10], "suanzhang": {"seat": 1}}
    body = body_from_record(record, leader=leader)
    assert body["leader"] == leader
    assert body["points"][leader] == 10 and body["points"][(leader + 1) % 4] == 6
    assert body["suanzhang"] == {"seat": (leader + 1) % 4}


def test_body_from_record_moves_the_banker():
    record = {"game": "tau_ngau", "seats": ["P1", "P2", "P3"], "banker": 2, "stakes": [1, 2, None],
              "hands": [["a"], ["b"], ["c"]]}
    body = body_from_record(record, banker=0)
    assert body == {"banker": 0, "stakes": [None, 1, 2], "hands": [["c"], ["a"], ["b"]]}


def _table_names(record, body):
    """The names by table position of the table ``body_from_record`` assumed."""
    info = games.get_game(record["game"])
    seats, n = record["seats"], len(record["seats"])
    if info.has_leader:
        return [seats[(p - body["leader"]) % n] for p in range(n)]
    if info.has_banker:
        return [seats[(p + record["banker"] - body["banker"]) % n] for p in range(n)]
    return list(seats)


@pytest.mark.parametrize("game", list(games.CATALOG))
@pytest.mark.parametrize("seed", range(6))
def test_a_body_builds_back_into_the_same_deal(game, seed):
    """record → body → record says the same deal: the same seats in the same playing order
    (turned, where a banker sits elsewhere) and the same engine result."""
    (record,) = simulate(game, deals=1, seed=seed)
    n = len(record["seats"])
    start = seed % n
    body = body_from_record(record, leader=start, banker=start)
    names = _table_names(record, body)
    built = round_build_record(game=game, variant=record.get("variant", {}), names=names, body=body, defaults={})
    assert built.errors == []
    again = games.evaluate(built.record)
    assert again["ok"], again
    nets = {s["name"]: s["net"] for s in games.evaluate(record)["seats"]}
    assert {s["name"]: s["net"] for s in again["seats"]} == nets
