"""``scoring.web.paper_sheet_form``: a sheet's grid read row by row with the deal form, each row
checked by the engine in order (blank order columns following the deal before), its errors as
``{path, code, message}`` with paths inside the sheet, shown at their row and input."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from scoring.domain.records import round_preview
from scoring.web.paper_sheet_form import SheetForm


def seats(*names):
    return [SimpleNamespace(position=i, entry_id=i + 1,
                            entry=SimpleNamespace(player_id=i + 1, player=SimpleNamespace(name=n)))
            for i, n in enumerate(names)]


def checked(game, data, *names, variant=None, defaults=None):
    table = seats(*names)
    form = SheetForm(game=game, variant=variant or {}, seats=table, data=data)
    bodies = form.check(defaults=defaults or {"leader": 0, "banker": 0, "entered_by": None, "number": 1},
                        preview=lambda body, d: round_preview(game=game, variant=variant or {}, seats=table,
                                                              body=body, defaults=d))
    return form, bodies


FOUR = ("A", "B", "C", "D")


def points(row, values, name="points"):
    return {f"r{row}-{name}_{i}": str(v) for i, v in enumerate(values)}


def test_blank_leaders_follow_the_deal_before_and_typed_ones_stay():
    data = {**points(0, [2, 12, 34, 18]), **points(1, [0, 12, 20, 8]), "r2-leader": "2",
            **points(2, [10, 6, 0, 6])}
    form, bodies = checked("jie_long", data, *FOUR, defaults={"leader": 3, "entered_by": None, "number": 1})
    # The first row starts at the table's next leader; a deal's winner leads the next.
    assert [b["leader"] for b in bodies] == [3, 0, 2]
    assert form.problems == [] and form.derived == {(0, "leader"): 3, (1, "leader"): 0}


def test_a_wrong_row_is_said_at_its_path_row_and_input():
    data = {**points(0, [10, 6, 6, 10]), **points(1, [10, 6, 5, 10])}
    form, bodies = checked("ding_niu", data, *FOUR)
    assert bodies is None
    assert form.problems == [{"path": "deals[1].points[2]", "code": "impossible_points",
                              "message": "5 is not possible with the 24-tile Ding Niu deck; 4 or 6 are."}]
    assert form.field_errors == {(1, "points_2"): ["5 is not possible with the 24-tile Ding Niu deck; 4 or 6 are."]}
    row = form.context()["rows"][1]
    assert row["wrong"] and row["seats"][2][0]["errors"] and row["seats"][2][0]["value"] == "5"


def test_what_the_form_cannot_read_has_a_path_and_a_code_too():
    data = {"r0-value_0": "7", "r0-value_1": "none", "r0-value_2": "0",
            "r0-stake_1": "2", "r0-stake_2": "5", "r0-stake_3": "1"}
    form, _ = checked("tau_ngau", data, *FOUR, variant={"settlement": "v2"})
    assert form.problems == [{"path": "deals[0].values[3]", "code": "required",
                              "message": "Choose this seat's value (or no bull)."}]
    form, _ = checked("da_ling", {"r0-absolute": "5"}, "P1", "P2", "P3")
    assert form.problems == [{"path": "deals[0].winners.absolute", "code": "invalid",
                              "message": "This is not a seat of the table."}]


def test_an_empty_row_before_a_filled_one_is_an_error_and_trailing_ones_are_ignored():
    form, bodies = checked("kko_li_but_i_gi", {**points(0, [0, 12, 20, 8]), **points(2, [14, 0, 20, 8])}, *FOUR)
    assert bodies is None and [p["path"] for p in form.problems] == ["deals[1]"]
    assert form.problems[0]["code"] == "empty_row" and form.row_errors[1]
    form, bodies = checked("kko_li_but_i_gi", points(0, [0, 12, 20, 8]), *FOUR)
    assert len(bodies) == 1 and form.rows == 20
    form, bodies = checked("kko_li_but_i_gi", {}, *FOUR)
    assert bodies is None and form.problems[0]["path"] == "deals"


def test_a_row_after_a_wrong_one_waits_when_its_order_follows_it():
    data = {**points(0, [10, 6, 5, 10]), **points(1, [10, 6, 6, 10]), "r2-leader": "1", **points(2, [10, 6, 6, 10])}
    form, _ = checked("ding_niu", data, *FOUR)
    assert form.unchecked == [1]  # its leader is the wrong deal's winner: unknown yet
    assert [p["path"] for p in form.problems] == ["deals[0].points[2]"]  # row 3 (leader typed) was checked


@pytest.mark.parametrize("game, names, columns", [
    ("jie_long", FOUR, ["leader"] + [f"points_{i}" for i in range(4)] + [f"unplayed_{i}" for i in range(4)]),
    ("da_ling", ("P1", "P2"), ["absolute", "group1_winner", "group2_winner", "group3_winner"]),
])
def test_the_rows_inputs_are_the_quick_levels(game, names, columns):
    form = SheetForm(game=game, variant={}, seats=seats(*names))
    assert form.field_names() == columns


def test_what_was_sent_is_what_was_typed():
    form = SheetForm(game="jie_long", variant={}, seats=seats(*FOUR), data={"r0-points_0": " 4 ", "r1-leader": ""})
    assert form.sent() == {"r0-points_0": "4"}
