"""A few sample round records, one or two per game, for the home page's calculator and the
docs. Plain data; each one evaluates ok."""

from __future__ import annotations

from .words import gettext_noop as _

SAMPLES: dict[str, dict] = {
    _("Jie Long — quick entry (points)"): {
        "game": "jie_long",
        "seats": ["Mei", "Jun", "Li", "Hua"],
        "points": [4, 15, 27, 9],
    },
    _("Jie Long — tiles left at the end"): {
        "game": "jie_long",
        "seats": ["Mei", "Jun", "Li", "Hua"],
        "unplayed_tiles": [["3:1"], ["6:6", "5:2"], [], ["4:4", "2:1"]],
    },
    _("Ce Deng — Head and three Tails"): {
        "game": "ce_deng",
        "seats": ["Head", "Tail 1", "Tail 2", "Tail 3"],
        "unplayed_tiles": [["6:1", "3:3"], [], ["5:5"], ["4:2", "2:2", "1:1"]],
    },
    _("Kko-li-but-i-gi — over 30 pays"): {
        "game": "kko_li_but_i_gi",
        "seats": ["Min", "Seo", "Ji", "Hyun"],
        "points": [3, 21, 36, 32],
    },
    _("Ding Niu — a SuanZhang by the winner"): {
        "game": "ding_niu",
        "seats": ["East", "South", "West", "North"],
        "points": [12, 7, 14, 10],
        "suanzhang": {"seat": 1},
    },
    _("Ding Niu — full move log (fours blocked)"): {
        "game": "ding_niu",
        "seats": ["East", "South", "West", "North"],
        "moves": [
            {"play": "6:4"}, {"play": "6:4", "to": 6}, {"pass": "6:6"}, {"pass": "6:6"},
            {"play": "4:4", "to": 4}, {"play": "4:4", "to": 4}, {"pass": "6:5"}, {"pass": "6:5"},
            {"pass": "5:5"}, {"pass": "5:5"},
        ],
        "left_in_hand": [["6:2", "3:1", "1:1"], ["6:3", "3:1", "1:1"],
                         ["6:1", "5:1", "3:3", "2:2"], ["6:1", "5:1", "3:3", "2:2"]],
    },
    _("Tau Ngau — banker and three players (v2)"): {
        "game": "tau_ngau",
        "seats": ["Bank", "Ah Wing", "Ah Mei", "Ah Fai"],
        "banker": 0,
        "stakes": [None, 2, 1, 3],
        "hands": [["6:6", "4:4", "5:5", "3:2", "2:1"], ["6:4", "5:5", "3:1", "6:5", "1:1"],
                  ["6:1", "4:1", "4:3", "6:5", "5:2"], ["2:2", "5:1", "3:3", "6:3", "4:2"]],
    },
    _("Da Ling — three players"): {
        "game": "da_ling",
        "seats": ["Lan", "Bo", "Fei"],
        "table": ["6:6", "3:2"],
        "groups": [[["4:3"], ["6:5", "5:1"], ["1:1", "6:3", "3:3"]],
                   [["5:2"], ["6:6", "4:1"], ["2:2", "2:2", "5:4"]],
                   [["6:1"], ["4:4", "5:5"], ["3:1", "6:2", "1:1"]]],
    },
}
