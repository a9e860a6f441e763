"""The line of tiles: reading a log and replaying it (games/layout.py; CG-4 … CG-12)."""

from __future__ import annotations

from games.ding_niu import SuanZhangWatch
from games.layout import BLOCKED, COMPLETE, SMOTHERED, ends_text, must_play_warnings, replay
from games.moves import TILE_BY_TEXT, read_moves
from games.record import Problems
from games.tiles import ALL_TILES, parse_tile


def paths(p: Problems) -> list[str]:
    return [e["path"] for e in p.errors]


def test_tile_lookup_agrees_with_the_parser():
    for text, tile in TILE_BY_TEXT.items():
        assert parse_tile(text) == tile
    assert len({t for t in TILE_BY_TEXT.values()}) == len(ALL_TILES)
    for bad in ("6:4]", "[6:4", "7:1", "6:0", " 6:4"):
        assert bad not in TILE_BY_TEXT


def test_read_moves_single_arm_lead_needs_open():
    p = Problems()
    assert read_moves([{"play": "6:4"}], p, two_arms=False, max_moves=32) is None
    assert paths(p) == ["moves[0].open"]
    p = Problems()
    moves = read_moves([{"play": "6:6"}, {"pass": "3:1"}], p, two_arms=False, max_moves=32)
    assert moves == [(True, (6, 6), None, 6), (False, (3, 1), None, None)]  # a double's open pip is plain


def test_read_moves_open_must_be_a_half_of_the_lead():
    p = Problems()
    assert read_moves([{"play": "6:4", "open": 5}], p, two_arms=False, max_moves=32) is None
    assert paths(p) == ["moves[0].open"]


def test_read_moves_two_arms_refuses_open_and_lead_to():
    p = Problems()
    assert read_moves([{"play": "6:4", "open": 6}], p, two_arms=True, max_moves=24) is None
    assert paths(p) == ["moves[0].open"]
    p = Problems()
    assert read_moves([{"play": "6:4", "to": 6}], p, two_arms=True, max_moves=24) is None
    assert paths(p) == ["moves[0].to"]


def test_read_moves_shapes():
    p = Problems()
    raw = [{"pass": "6:4"}, "6:4", {"play": "6:4", "pass": "3:1"}, {}, {"play": "6:4", "side": 1},
           {"pass": "6:4", "to": 6}, {"play": "6:4", "to": 9}, {"play": "6:9"}, {"play": "6:4", "open": 6}]
    assert read_moves(raw, p, two_arms=True, max_moves=24) is None
    assert paths(p) == ["moves[0]", "moves[1]", "moves[2]", "moves[3]", "moves[4].side", "moves[5].to",
                        "moves[6].to", "moves[7].play", "moves[8].open"]
    assert {e["code"] for e in p.errors} >= {"lead_is_pass", "bad_move", "unknown_field", "bad_tile"}


def test_read_moves_refuses_non_lists_and_empty_logs():
    for raw, code in (({"play": "6:4"}, "bad_type"), ([], "empty_log")):
        p = Problems()
        assert read_moves(raw, p, two_arms=True, max_moves=24) is None
        assert p.errors[0]["path"] == "moves" and p.errors[0]["code"] == code


def test_tiles_accept_brackets_and_either_order():
    p = Problems()
    moves = read_moves([{"play": "[4:6]"}, {"play": "4:6", "to": 6}], p, two_arms=True, max_moves=24)
    assert moves[0][1] == (6, 4) and moves[1][1] == (6, 4)


def _replay(raw, n=4, deal=6, two_arms=True, watch=None):
    p = Problems()
    moves = read_moves(raw, p, two_arms=two_arms, max_moves=n * deal)
    assert moves is not None, p.errors
    return replay(moves, n, deal, two_arms, p, watch), p


def test_single_arm_play_must_match_the_open_end():
    rep, p = _replay([{"play": "6:4", "open": 6}, {"play": "4:1"}], deal=8, two_arms=False)
    assert rep is None
    assert p.errors == [{"path": "moves[1].play", "code": "not_matching",
                         "message": "[4:1] does not match the open end 6."}]


def test_single_arm_to_must_name_the_open_end():
    rep, p = _replay([{"play": "6:4", "open": 4}, {"play": "4:1", "to": 6}], deal=8, two_arms=False)
    assert rep is None and paths(p) == ["moves[1].to"]


def test_single_arm_closed_half_stays_closed():
    # The lead [6:4] with 4 open: [6:6] cannot go on the closed 6.
    rep, p = _replay([{"play": "6:4", "open": 4}, {"play": "6:6"}], deal=8, two_arms=False)
    assert rep is None and paths(p) == ["moves[1].play"]


def test_two_arms_to_names_a_pip_no_end_shows():
    rep, p = _replay([{"play": "6:4"}, {"play": "6:4", "to": 5}])
    assert rep is None
    assert p.errors[0]["path"] == "moves[1].to" and "5" in p.errors[0]["message"]


def test_two_arms_tile_without_the_to_pip():
    rep, p = _replay([{"play": "6:4"}, {"play": "5:1", "to": 6}])
    assert rep is None and p.errors[0]["path"] == "moves[1].play"
    assert p.errors[0]["message"] == "[5:1] does not match the open end 6."


def test_two_arms_to_may_be_left_out_when_only_one_way_exists():
    rep, p = _replay([{"play": "6:4"}, {"play": "6:1"}, {"play": "4:4"}, {"play": "1:1"}])
    assert not p.errors
    assert rep.ends == (1, 4)
    rep, p = _replay([{"play": "6:4"}, {"play": "6:4"}])
    assert rep is None and p.errors[0]["code"] == "ambiguous_end" and p.errors[0]["path"] == "moves[1].to"


def test_doubles_keep_the_open_pip():
    rep, p = _replay([{"play": "6:4"}, {"play": "6:6", "to": 6}, {"play": "4:4", "to": 4}])
    assert not p.errors and rep.ends == (6, 4)


def test_n_passes_in_a_row_block_the_deal_and_the_log_must_stop():
    raw = [{"play": "6:6"}, {"pass": "3:1"}, {"pass": "3:1"}, {"pass": "5:1"}, {"pass": "5:1"}]
    rep, p = _replay(raw)
    assert rep.end == BLOCKED and rep.down[1] == [(3, 1)] and rep.pass_ends[0] == (1, (6, 6))
    rep, p = _replay(raw + [{"pass": "1:1"}])
    assert rep is None
    assert p.errors[0]["path"] == "moves[5]" and p.errors[0]["code"] == "after_end"


def test_three_passes_do_not_block_four_players():
    rep, p = _replay([{"play": "6:6"}, {"pass": "3:1"}, {"pass": "3:1"}, {"pass": "5:1"}])
    assert rep.end is None and not p.errors


def test_all_tiles_used_ends_the_deal_even_when_the_last_moves_are_passes():
    raw = [{"play": "6:6"}, {"play": "6:5"}, {"pass": "5:1"}, {"pass": "1:1"}]
    rep, p = _replay(raw, n=2, deal=2)
    assert rep.end == COMPLETE  # two passes in a row, but nothing was left to play anyway
    rep, p = _replay(raw + [{"pass": "2:2"}], n=2, deal=2)
    assert rep is None and paths(p) == ["moves[4]"]


def test_a_smothered_suanzhang_ends_the_deal():
    layout_e = [{"play": "6:3"}, {"play": "3:1", "to": 3}, {"play": "1:6", "to": 1}, {"play": "6:5", "to": 6},
                {"play": "5:6", "to": 5}, {"play": "6:1", "to": 6}, {"play": "1:3", "to": 1}]
    rep, p = _replay(layout_e, watch=SuanZhangWatch())
    assert rep.end == SMOTHERED
    rep, p = _replay(layout_e + [{"pass": "6:6"}], watch=SuanZhangWatch())
    assert rep is None and paths(p) == ["moves[7]"]


def test_hands_are_rebuilt_from_the_log():
    raw = [{"play": "6:6"}, {"pass": "3:1"}, {"play": "6:5", "to": 6}, {"pass": "5:1"},
           {"play": "5:5", "to": 5}, {"pass": "1:1"}, {"pass": "3:3"}, {"pass": "2:2"}, {"pass": "4:4"}]
    rep, p = _replay(raw)
    assert rep.end == BLOCKED
    left = [[(6, 1)], [(6, 4)], [], []]
    assert rep.used[0] == [(6, 6), (5, 5), (4, 4)]
    assert rep.hand_at(4, left) == [(5, 5), (4, 4), (6, 1)]
    assert rep.hand_at(1, left) == [(3, 1), (1, 1), (6, 4)]


def test_must_play_names_the_move_and_a_fitting_tile():
    raw = [{"play": "6:6"}, {"pass": "3:1"}, {"pass": "3:3"}, {"pass": "5:1"}, {"pass": "1:1"}]
    rep, p = _replay(raw)
    left = [[], [(6, 4)], [], []]
    must_play_warnings(rep, left, ["A", "B", "C", "D"], p)
    assert [w["path"] for w in p.warnings] == ["moves[1]"]
    assert p.warnings[0]["code"] == "must_play" and "[6:4]" in p.warnings[0]["message"]


def test_ends_text():
    assert ends_text((6,)) == "the open end 6"
    assert ends_text((6, 4)) == "either open end (6 and 4)"


# ---------------------------------------------------------------------------------------
# The quick one-pass replay must agree with the careful path on every record, valid or not.

import copy  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import games.connecting as connecting  # noqa: E402
from games import evaluate  # noqa: E402
from games.simulate import simulate  # noqa: E402

_CASES = [("jie_long", 4, None), ("jie_long", 3, {"arms": 2}), ("ce_deng", 4, None), ("kko_li_but_i_gi", 2, None),
          ("ding_niu", 4, None), ("ding_niu", 4, {"voluntary_pass": True})]
_TEXTS = ["6:4", "4:6", "[6:4]", "2:1", "6:6", "7:1", 6, None, ["6:4"], "5:5", "3:1"]


def _mutate(record: dict, rng) -> dict:
    record = copy.deepcopy(record)
    moves = record["moves"]
    if not moves:
        moves.append({"play": "6:6"})
    what = rng.randrange(11)
    k = rng.randrange(len(moves))
    if not isinstance(moves[k], dict):
        moves[k] = {"pass": "6:4"}
    if what == 0:
        key = "play" if "play" in moves[k] else "pass"
        moves[k][key] = rng.choice(_TEXTS)
    elif what == 1:
        moves[k]["to"] = rng.choice([1, 2, 3, 4, 5, 6, 9, "6", True, None])
    elif what == 2:
        del moves[k]
    elif what == 3:
        moves.insert(k, {"pass": rng.choice(_TEXTS)})
    elif what == 4:
        moves.append({"play": rng.choice(_TEXTS)})
    elif what == 5:
        moves[k]["open"] = rng.choice([1, 4, 6])
    elif what == 6:
        moves[k] = {"pass": moves[k].get("play", moves[k].get("pass"))}
    elif what == 7:
        record.pop("left_in_hand", None)
    elif what == 8:
        record["left_in_hand"] = [[rng.choice(_TEXTS)], [], {"6:4": 1}, "6:4"][: rng.randrange(5)]
    elif what == 9:
        moves[k] = rng.choice([[], "6:4", {"play": "6:4", "side": 1}, {}])
    else:
        moves[k] = {"play": moves[k].get("play", moves[k].get("pass"))}
    return record


def _careful(record: dict) -> dict:
    saved = connecting.quick_replay
    connecting.quick_replay = lambda *args: None
    try:
        return evaluate(record)
    finally:
        connecting.quick_replay = saved


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), case=st.sampled_from(_CASES), rate=st.sampled_from([0.0, 0.3]),
       mutations=st.integers(0, 3))
def test_quick_replay_agrees_with_the_careful_path(seed, case, rate, mutations):
    import random

    game, players, variant = case
    record = next(simulate(game, deals=1, seed=seed, level="moves", players=players, variant=variant,
                           pass_rate=rate))
    if "moves" not in record:
        return  # a Ce Deng redeal
    rng = random.Random(seed)
    for _ in range(mutations):
        record = _mutate(record, rng)
    assert evaluate(record) == _careful(record)
