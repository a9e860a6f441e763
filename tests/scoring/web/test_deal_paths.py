"""The engine's error paths placed at the deal form's inputs (scoring.web.deal_paths)."""

from __future__ import annotations

import pytest

from scoring.web.deal_paths import field_for_path


@pytest.mark.parametrize("path, field", [
    ("points[2]", "points_2"), ("unplayed[0]", "unplayed_0"), ("unplayed_tiles[1][0]", "tiles_1"),
    ("unplayed", "unplayed"), ("leader", "leader"), ("suanzhang.seat", "suanzhang"), ("hands[3][4]", "hand_3"),
    ("stakes[1]", "stake_1"), ("table[0]", "table_tiles"), ("groups[1][2][0]", "group3_1"), ("", "__all__"),
    ("entered_by", "entered_by"), ("moves[3].play", "moves"), ("left_in_hand[2]", "left_2"),
    ("declared[1].bull", "bull_1"),
])
def test_error_paths_map_to_inputs(path, field):
    assert field_for_path(path, "jie_long") == field


@pytest.mark.parametrize("path, field", [
    ("values[2]", "value_2"), ("values", "values"), ("winners.absolute", "absolute"),
    ("winners.groups[0]", "group1_winner"), ("winners.groups[2]", "group3_winner"), ("winners.groups", "__all__"),
    ("winners", "__all__"), ("winners.bogus", "__all__"),
])
def test_the_quick_levels_paths_map_to_their_inputs(path, field):
    """§3b values by seat; §4b winners by key and place in the list; the object itself above the seats."""
    assert field_for_path(path, "tau_ngau" if path.startswith("values") else "da_ling") == field
