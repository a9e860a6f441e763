"""The counting of a player's statistics from plain rows (no database)."""

from scoring.domain.player_stats import DealRow, player_stats_from_rows


def _jl(points_seats, position, session=1, leader=0):
    return DealRow(game="jie_long", tournament=1, session=session, session_number=session, position=position, n=4,
                   leader=leader, result={"seats": points_seats})


SEATS = [{"net": 6, "place": 1}, {"net": -1, "place": 2}, {"net": -2, "place": 3}, {"net": -3, "place": 4}]


def test_leader_turns_the_seats():
    # Led by position 2: the record's seat 0 (the winner) sits at table position 2.
    stats = player_stats_from_rows([_jl(SEATS, 2, leader=2), _jl(SEATS, 0, session=2)])
    assert stats.overall.firsts == 2 and stats.overall.net == 12 and stats.overall.sessions == 2
    assert str(stats.overall.average_place) == "1.000"


def test_chips_won_and_lost_and_best_session():
    stats = player_stats_from_rows([_jl(SEATS, 0, session=1), _jl(SEATS, 3, session=2), _jl(SEATS, 3, session=2)])
    f = stats.overall
    assert (f.net, f.chips_won, f.chips_lost) == (0, 6, 6)
    assert f.best_session == {"tournament": 1, "session": 1, "number": 1, "net": 6, "deals": 1}
    assert stats.tournaments == {1: (3, 0)}


def test_must_play_warning_by_move_index():
    result = {"seats": SEATS, "level": "moves", "warnings": [{"path": "moves[5]", "code": "must_play"}]}
    rows = [DealRow("ding_niu", 1, 1, 1, pos, 4, 0, result) for pos in range(4)]
    per_position = [player_stats_from_rows([r]).games["ding_niu"].must_play for r in rows]
    assert [p["warnings"] for p in per_position] == [0, 1, 0, 0]  # move 5 of 4 seats: seat 1


def test_no_deals():
    stats = player_stats_from_rows([])
    assert stats.overall.deals == 0 and stats.overall.average_place is None and stats.overall.best_session is None
    assert stats.games == {}
