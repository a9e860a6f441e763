"""The simulator (games/simulate.py) and property tests over simulated deals: the three
record levels of one deal agree, money balances, SuanZhang is reported only where the rules
allow, and every simulated record is valid."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import evaluate
from games.simulate import simulate
from games.tiles import parse_tile

CONNECTING = [("jie_long", 4), ("jie_long", 3), ("jie_long", 2), ("ce_deng", 4), ("kko_li_but_i_gi", 4),
              ("kko_li_but_i_gi", 3), ("kko_li_but_i_gi", 2), ("ding_niu", 4)]

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def one(game: str, seed: int, level: str, players: int, **kw) -> dict:
    return next(simulate(game, deals=1, seed=seed, level=level, players=players, **kw))


def balanced(result: dict) -> None:
    nets = [s["net"] for s in result["seats"]]
    assert sum(nets) == 0
    by_seat = [0] * len(nets)
    for t in result["transfers"]:
        assert t["amount"] > 0 and t["from"] != t["to"]
        by_seat[t["from"]] -= t["amount"]
        by_seat[t["to"]] += t["amount"]
    assert by_seat == nets


@PROPERTY
@given(seed=st.integers(0, 2 ** 32), case=st.sampled_from(CONNECTING))
def test_three_levels_of_one_deal_agree(seed, case):
    game, players = case
    results = {}
    for level in ("moves", "unplayed_tiles", "points"):
        r = evaluate(one(game, seed, level, players))
        assert r["ok"] is True, r.get("errors")
        assert r["warnings"] == []
        balanced(r)
        results[level] = r
    full = results["moves"]
    for level in ("unplayed_tiles", "points"):
        other = results[level]
        for a, b in zip(full["seats"], other["seats"]):
            assert (a["points"], a["place"], a["net"]) == (b["points"], b["place"], b["net"])
            assert b["unplayed"] in (None, a["unplayed"])
            assert a.get("status") == b.get("status")
        assert full["winner"] == other["winner"] and full["next_leader"] == other["next_leader"]
        if full["suanzhang"] is not None and full["suanzhang"]["blamed"]:
            assert other["suanzhang"]["seat"] == full["suanzhang"]["seat"]
        elif full.get("redeal") is None:
            assert other["suanzhang"] is None


@PROPERTY
@given(seed=st.integers(0, 2 ** 32))
def test_suanzhang_only_on_a_face_up_non_double_play_and_classic_forms(seed):
    record = one("ding_niu", seed, "moves", 4)
    r = evaluate(record)
    assert r["ok"] is True
    sz = r["suanzhang"]
    if sz is None:
        return
    move = record["moves"][sz["move"]]
    assert sz["move"] > 0 and "play" in move
    tile = parse_tile(move["play"])
    assert tile[0] != tile[1]
    assert sz["seat"] == sz["move"] % 4
    if sz["kind"].startswith("smothered"):
        assert len(record["moves"]) == sz["move"] + 1
    else:
        assert_classic_form(record["moves"][:sz["move"] + 1], sz["kind"])


def assert_classic_form(moves: list[dict], kind: str) -> None:
    """An independent check of DN-SZ-2's four forms: the ends and the tiles face up."""
    lead = moves[0]["play"].split(":")
    ends = [int(lead[0]), int(lead[1])]
    up = Counter([parse_tile(moves[0]["play"])])
    for m in moves[1:]:
        if "play" not in m:
            continue
        tile = parse_tile(m["play"])
        up[tile] += 1
        side = 0 if ends[0] == m["to"] else 1
        ends[side] = tile[0] + tile[1] - ends[side]
    halves = Counter()
    for (a, b), n in up.items():
        if a != b:
            halves[a] += n
            halves[b] += n
    shown = sorted(ends)
    if kind == "ones":
        assert shown == [1, 1] and halves[1] == 6
    elif kind == "fours":
        assert shown == [4, 4] and up[(6, 4)] == 2
    elif kind == "fives":
        assert shown == [5, 5] and halves[5] == 4
    elif kind == "two_three":
        assert shown == [2, 3] and up[(6, 2)] == 1 and up[(6, 3)] == 1 and up[(3, 1)] == 2
    else:
        raise AssertionError(kind)


@PROPERTY
@given(seed=st.integers(0, 2 ** 32), case=st.sampled_from(CONNECTING), rate=st.sampled_from([0.0, 0.2]))
def test_simulated_records_are_always_valid(seed, case, rate):
    game, players = case
    for record in simulate(game, deals=3, seed=seed, level="moves", players=players, pass_rate=rate):
        r = evaluate(record)
        assert r["ok"] is True, r.get("errors")
        balanced(r)
        assert {w["code"] for w in r["warnings"]} <= {"must_play"}
        if rate == 0.0:
            assert r["warnings"] == []


@pytest.mark.parametrize("game", ["tau_ngau", "da_ling"])
def test_gambling_games_get_random_deals(game):
    for record in simulate(game, deals=20, seed=1, level="points"):
        r = evaluate(record)
        assert r["ok"] is True, r.get("errors")


def test_reproducible_per_seed():
    a = list(simulate("ding_niu", deals=5, seed=42, level="moves"))
    b = list(simulate("ding_niu", deals=5, seed=42, level="moves"))
    c = list(simulate("ding_niu", deals=5, seed=43, level="moves"))
    assert a == b and a != c


def test_ding_niu_reaches_suanzhang_in_a_fair_share_of_deals():
    kinds = Counter()
    for record in simulate("ding_niu", deals=300, seed=3, level="moves"):
        sz = evaluate(record)["suanzhang"]
        kinds[sz["kind"] if sz else None] += 1
    assert kinds[None] < 200
    assert len(kinds) == 7  # every kind turns up, and deals without one too


def test_lower_levels_name_only_blamed_blockers():
    for record in simulate("ding_niu", deals=100, seed=6, level="points"):
        assert evaluate(record)["ok"]
    named = sum("suanzhang" in r for r in simulate("ding_niu", deals=100, seed=6, level="points"))
    assert named > 10


def test_variants_are_carried_and_played():
    for record in simulate("jie_long", deals=10, seed=1, level="moves", variant={"arms": 2}):
        assert record["variant"] == {"arms": 2} and "open" not in record["moves"][0]
        assert evaluate(record)["ok"]


@pytest.mark.parametrize("kwargs, words", [
    ({"game": "chess"}, "unknown game"),
    ({"game": "ding_niu", "players": 3}, "not 3"),
    ({"game": "ce_deng", "players": 5}, "not 5"),
    ({"game": "jie_long", "level": "everything"}, "level"),
    ({"game": "jie_long", "deals": -1}, "deals"),
    ({"game": "tau_ngau", "players": 2}, "not 2"),
    ({"game": "da_ling", "players": 6}, "not 6"),
])
def test_bad_requests_raise_value_error(kwargs, words):
    args = {"deals": 1, "seed": 0, "level": "moves", **kwargs}
    with pytest.raises(ValueError, match=words):
        list(simulate(**args))


def test_cli_simulate_prints_json_lines():
    import io
    import json

    from games.cli import main

    out, err = io.StringIO(), io.StringIO()
    assert main(["simulate", "kko_li_but_i_gi", "--deals", "3", "--seed", "2", "--players", "3"],
                out=out, err=err) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 3 and all(evaluate(json.loads(x))["ok"] for x in lines)
    out, err = io.StringIO(), io.StringIO()
    assert main(["simulate", "ding_niu", "--players", "5"], out=out, err=err) == 2
    assert "not 5" in err.getvalue()
