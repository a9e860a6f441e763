"""Request bodies of real deals (from tests/examples and games.samples), by table position.

The tables of tests/conftest.py seat the example's players in the example's order, so with
``leader`` 0 a body is the example record minus game/variant/seats."""

import json
from pathlib import Path

JIE_LONG = {"points": [2, 12, 34, 18]}            # Anna, Bob, Celine, Dominic; nets 58, 18, -70, -6
JIE_LONG_NETS = [58, 18, -70, -6]

# games.samples "Ding Niu — a SuanZhang by the winner" with Boris (position 1) leading:
# record seats [Boris, Valentine, George, Adam], points [12, 7, 14, 10], suanzhang record seat 1.
DING_NIU_LED_BY_1 = {"leader": 1, "points": [10, 12, 7, 14], "suanzhang": {"seat": 2}}
DING_NIU_LED_BY_1_NETS = [-2, -4, 12, -6]         # by table position

# tests/examples/tau_ngau-v1-settlement.json (variant settlement v1), banker 0.
TAU_NGAU_V1 = {
    "banker": 0,
    "hands": [["6:3", "6:1", "3:1", "6:6", "4:4"], ["5:5", "5:5", "6:4", "6:5", "4:1"],
              ["6:6", "6:5", "6:4", "5:1", "1:1"], ["1:1", "2:1", "2:2", "3:3", "3:3"]],
}
TAU_NGAU_V1_NETS = [17, -4, -9, -4]

# tests/examples/ding_niu-layout-a-fours.json: a full log (moves level), leader 0; nets 12, -12, 0, 0.
_FOURS = json.loads((Path(__file__).resolve().parent.parent / "examples" / "ding_niu-layout-a-fours.json")
                    .read_text())["record"]
DING_NIU_FULL_LOG = {"moves": _FOURS["moves"], "left_in_hand": _FOURS["left_in_hand"]}
