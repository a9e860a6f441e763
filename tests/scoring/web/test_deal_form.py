"""The deal form alone: a body into its inputs and back (scoring.web.deal_form)."""

from __future__ import annotations

import pytest

from scoring.web.deal_form import DealForm


@pytest.mark.parametrize("game, body", [
    ("ding_niu", {"leader": 1, "moves": [{"play": "6:4"}, {"play": "6:4", "to": 6}, {"pass": "3:1"}],
                  "left_in_hand": [[], ["1:1"], [], []], "entered_by": 0}),
    ("jie_long", {"leader": 0, "moves": [{"play": "6:4", "open": 4}, {"play": "4:4"}], "entered_by": 2}),
    ("ce_deng", {"leader": 3, "redeal": True, "hands": [["6:6", "5:5"], ["1:1"], [], ["2:2"]], "entered_by": 0}),
    ("tau_ngau", {"banker": 0, "hands": [["6:6"], ["5:5"], ["1:1"], ["2:2"]], "stakes": [None, 1, 2, 3],
                  "declared": [None, {"bull": None}, {"bull": ["6:4", "3:1", "5:5"]}, None], "entered_by": 0}),
    ("tau_ngau", {"banker": 2, "values": [7, None, 0, 9], "stakes": [3, 1, None, 2], "entered_by": 1}),
    ("da_ling", {"winners": {"absolute": None, "groups": [2, None, 0]}, "entered_by": 3}),
    ("da_ling", {"winners": {"absolute": 1, "groups": [None, None, None]}, "entered_by": 3}),
])
def test_a_correction_keeps_the_deals_level(game, body):
    """A move log, a redeal, a declared bull come back into the form as they were entered."""
    seats = [{"position": i, "name": n} for i, n in enumerate("ABCD")]
    form = DealForm(game=game, variant={}, seats=seats, initial=body)
    assert form.note == ""
    assert DealForm(game=game, variant={}, seats=seats, data=form.values).body() == body


def test_form_round_trips_a_body():
    seats = [{"position": i, "name": n} for i, n in enumerate("ABCD")]
    body = {"leader": 2, "unplayed_tiles": [["6:4"], [], ["3:1", "1:1"], []], "suanzhang": {"seat": 3}, "entered_by": 1}
    form = DealForm(game="ding_niu", variant={}, seats=seats, initial=body)
    assert form.values["level"] == "unplayed_tiles" and form.values["tiles_2"] == "3:1 1:1"
    again = DealForm(game="ding_niu", variant={}, seats=seats, data=form.values)
    assert again.body() == body


@pytest.mark.parametrize("game, players", [("jie_long", 4), ("ce_deng", 4), ("kko_li_but_i_gi", 3), ("ding_niu", 4),
                                           ("tau_ngau", 5), ("da_ling", 3)])
def test_form_round_trips_simulated_deals(game, players):
    """Every simulated deal, written into the form and read back, is the same body."""
    import games
    from games.simulate import simulate

    seats = [{"position": i, "name": f"S{i}"} for i in range(players)]
    levels = ["points", "unplayed_tiles", "moves"] if game in games.CONNECTING_GAMES else [None]
    for level in levels:
        for rec in simulate(game, deals=6, seed=5, players=players, **({"level": level} if level else {})):
            if not any(rec.get("left_in_hand") or []):
                rec.pop("left_in_hand", None)  # all empty: the form leaves it out
            body = {k: v for k, v in rec.items() if k not in ("game", "variant", "seats")}
            if game in games.CONNECTING_GAMES:
                body["leader"] = 0
            body["entered_by"] = 1
            form = DealForm(game=game, variant={}, seats=seats, initial=body)
            assert DealForm(game=game, variant={}, seats=seats, data=form.values).body() == body


@pytest.mark.parametrize("typed", ["²", "٣", "１", "1e3", "12345678", "1.5"])
def test_points_are_ascii_digits(typed):
    """A number field takes ASCII digits (``inputmode=numeric`` keyboards type them); anything
    else is refused at its field, as text the engine could not read."""
    seats = [{"position": i, "name": n} for i, n in enumerate("ABCD")]
    data = {"level": "points", "leader": "0", "entered_by": "1", "points_0": typed, "points_1": "12",
            "points_2": "34", "points_3": "18"}
    form = DealForm(game="jie_long", variant={}, seats=seats, data=data)
    assert form.body() is None and form.errors == {"points_0": ["Enter a whole number."]}
    assert DealForm(game="jie_long", variant={}, seats=seats, data={**data, "points_0": " 2 "}).body() == {
        "leader": 0, "points": [2, 12, 34, 18], "entered_by": 1}


@pytest.mark.parametrize("typed", ["٣", "１", "4", "-1", "1e0"])
def test_a_seat_choice_is_a_seat_of_the_table(typed):
    seats = [{"position": i, "name": n} for i, n in enumerate("ABCD")]
    data = {"level": "points", "leader": typed, "entered_by": "1", "points_0": "2", "points_1": "12",
            "points_2": "34", "points_3": "18"}
    form = DealForm(game="jie_long", variant={}, seats=seats, data=data)
    assert form.body() is None and list(form.errors) == ["leader"]


@pytest.mark.parametrize("game, level", [("tau_ngau", "values"), ("da_ling", "winners")])
@pytest.mark.parametrize("players", [3, 5])
def test_form_round_trips_simulated_quick_deals(game, level, players):
    """The quick levels (§3b, §4b) come back into the form at their level and read back the same."""
    from games.simulate import simulate

    seats = [{"position": i, "name": f"S{i}"} for i in range(players)]
    for rec in simulate(game, deals=8, seed=11, players=players, level=level):
        body = {k: v for k, v in rec.items() if k not in ("game", "variant", "seats")}
        body["entered_by"] = 0
        form = DealForm(game=game, variant={}, seats=seats, initial=body)
        assert form.level == level
        assert DealForm(game=game, variant={}, seats=seats, data=form.values).body() == body


def test_a_value_is_read_as_chosen_and_its_range_follows_the_rules_version():
    seats = [{"position": i, "name": n} for i, n in enumerate("ABCD")]
    data = {"level": "values", "banker": "0", "entered_by": "1", "value_0": "none", "value_1": "10",
            "value_2": "", "value_3": "x", "stake_1": "1", "stake_2": "1", "stake_3": "1"}
    form = DealForm(game="tau_ngau", variant={"settlement": "v1"}, seats=seats, data=data)
    assert form.body() is None and sorted(form.errors) == ["value_2", "value_3"]  # 10 is the engine's to judge
    v1 = [f for f in form.seat_rows()[0]["fields"] if f["name"] == "value_0"][0]
    assert [v for v, _ in v1["options"]] == ["none"] + [str(v) for v in range(1, 11)] and v1["kind"] == "choices"
    v2 = DealForm(game="tau_ngau", variant={}, seats=seats, data=data).seat_rows()[0]["fields"]
    assert [v for v, _ in [f for f in v2 if f["name"] == "value_0"][0]["options"]] == ["none"] + list("0123456789")


def test_the_banker_seat_has_no_stake_field_and_the_stakes_and_level_are_remembered():
    seats = [{"position": i, "name": n} for i, n in enumerate("ABCD")]
    form = DealForm(game="tau_ngau", variant={}, seats=seats, initial={"banker": 2})
    stakes = [f for row in form.seat_rows() for f in row["fields"] if f["name"].startswith("stake_")]
    assert [f["skipped"] for f in stakes] == [False, False, True, False]
    assert all(f["skip_for"] == "banker" and f["remember"] for f in stakes)
    assert form.top_fields()[0]["name"] == "level" and form.top_fields()[0]["remember"] == ["hands", "values"]
    # a redeal is one deal's event, not a way of entering the next: its level is not remembered
    ce_deng = DealForm(game="ce_deng", variant={}, seats=seats)
    assert ce_deng.top_fields()[0]["remember"] == ["points", "unplayed_tiles", "moves"]


def test_an_absolute_winner_and_a_group_winner_are_refused_together_before_the_engine():
    """The game says which winners exclude each other (games.entry.Winner.excludes): the form
    marks them for the page's script and refuses both at once before Submit reaches the engine."""
    seats = [{"position": i, "name": n} for i, n in enumerate("ABC")]
    data = {"level": "winners", "entered_by": "0", "absolute": "1", "group1_winner": "", "group2_winner": "2",
            "group3_winner": ""}
    form = DealForm(game="da_ling", variant={}, seats=seats, data=data)
    assert form.body() is None and list(form.errors) == ["group2_winner"]
    assert "Absolute winner" in form.errors["group2_winner"][0]
    fields = {f["name"]: f for f in form.top_fields()}
    assert fields["absolute"]["excludes"] == "group1_winner group2_winner group3_winner"
    assert fields["group2_winner"]["excludes"] == "absolute"
    ok = DealForm(game="da_ling", variant={}, seats=seats, data={**data, "group2_winner": ""})
    assert ok.body() == {"winners": {"absolute": 1, "groups": [None, None, None]}, "entered_by": 0}


def test_the_stake_of_the_seat_the_bank_has_just_left_is_required():
    seats = [{"position": i, "name": n} for i, n in enumerate("ABCD")]
    form = DealForm(game="tau_ngau", variant={}, seats=seats, initial={"banker": 1}, previous={"banker": 0})
    stakes = {f["name"]: f for row in form.seat_rows() for f in row["fields"] if f["name"].startswith("stake_")}
    assert [bool(stakes[f"stake_{i}"].get("required")) for i in range(4)] == [True, False, False, False]
    assert "left" in stakes["stake_0"]["left_behind"] and "left_behind" not in stakes["stake_2"]
    # chosen as the banker again in the form: no stake to give, though the script may move the bank
    again = DealForm(game="tau_ngau", variant={}, seats=seats, initial={"banker": 0}, previous={"banker": 0})
    assert not any(f.get("required") for row in again.seat_rows() for f in row["fields"])
    # v1: one bet may stand for the stakes, so none is required
    v1 = DealForm(game="tau_ngau", variant={"settlement": "v1"}, seats=seats, initial={"banker": 1},
                  previous={"banker": 0})
    assert not any(f.get("required") for row in v1.seat_rows() for f in row["fields"])
