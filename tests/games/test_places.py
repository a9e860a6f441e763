"""A deal's places and wins (games/places.py): the engine's places where the game has them,
places by net (ties sharing) and positive nets as wins where it has not; on real results of
every game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import games
from games import CATALOG, evaluate, get_game
from games.places import BY_NET, ENGINE, SeatPlace, places_by_net, seat_places
from games.simulate import simulate

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def example(name: str) -> dict:
    return evaluate(json.loads((EXAMPLES / name).read_text())["record"])


def test_every_game_says_how_it_places():
    assert {key: g.placing for key, g in CATALOG.items()} == {
        "jie_long": ENGINE, "ce_deng": ENGINE, "kko_li_but_i_gi": ENGINE, "ding_niu": ENGINE,
        "tau_ngau": BY_NET, "da_ling": BY_NET}
    # The engine's places are there exactly where the catalog says so (ROUND_RECORD.md §2-§4).
    for key, g in CATALOG.items():
        result = evaluate(next(simulate(key, deals=1, seed=5, players=4, level="points")
                               if g.connecting else simulate(key, deals=1, seed=5, players=4)))
        assert all(("place" in s) == (g.placing == ENGINE) for s in result["seats"]), key


def test_max_players_is_the_most_seats_of_any_game():
    assert games.MAX_PLAYERS == 6 == max(get_game("tau_ngau").player_counts)


def test_connecting_games_take_the_engines_places_and_the_winner_wins():
    result = example("ding_niu-three-way-tie.json")
    placed = get_game("ding_niu").deal_places(result["seats"])
    assert [p.place for p in placed] == [s["place"] for s in result["seats"]]
    assert [p.win for p in placed] == [i == result["winner"] for i in range(len(placed))]


def test_a_jie_long_tie_goes_to_the_lower_hand_with_no_money_moved():
    # JL-5: Anna and Bob level on 12, Bob leads: Bob wins though both net +28.
    result = evaluate({"game": "jie_long", "seats": ["Bob", "Celine", "Dominic", "Anna"], "points": [12, 34, 18, 12]})
    placed = get_game("jie_long").deal_places(result["seats"])
    assert placed[0] == SeatPlace(1, True) and placed[3] == SeatPlace(2, False)


def test_a_ce_deng_redeal_places_nobody_and_nobody_wins():
    hands = [["1:1", "1:1", "2:2", "2:2", "3:3", "3:3", "4:4", "6:1"], ["4:4", "5:5", "5:5", "6:6", "6:6", "3:1", "3:1", "6:5"],
             ["6:5", "6:4", "6:4", "6:1", "5:1", "5:1", "6:3", "5:4"], ["6:2", "5:3", "5:2", "4:3", "4:1", "3:2", "4:2", "2:1"]]
    result = evaluate({"game": "ce_deng", "seats": ["A", "B", "C", "D"], "redeal": True, "hands": hands})
    assert result["ok"], result
    assert get_game("ce_deng").deal_places(result["seats"]) == [SeatPlace(None, False)] * 4


def test_tau_ngau_places_by_net_and_every_player_who_beats_the_banker_wins():
    result = example("tau_ngau-v1-settlement.json")
    nets = [s["net"] for s in result["seats"]]
    placed = get_game("tau_ngau").deal_places(result["seats"])
    assert [p.place for p in placed] == places_by_net(nets)
    assert [p.win for p in placed] == [n > 0 for n in nets]


def test_da_ling_an_absolute_winner_alone_wins_and_comes_first():
    result = example("da_ling-absolute-winner-black.json")
    placed = get_game("da_ling").deal_places(result["seats"])
    winner = result["absolute_winner"]
    assert placed[winner] == SeatPlace(1, True)
    assert all(not p.win and p.place == 2 for i, p in enumerate(placed) if i != winner)


def test_a_push_places_everyone_first_and_makes_no_winner():
    assert seat_places(BY_NET, [{"net": 0}] * 4) == [SeatPlace(1, False)] * 4


def test_places_by_net_share_ties_and_skip():
    assert places_by_net([5, 2, 2, -9]) == [1, 2, 2, 4]
    assert places_by_net([-1, 3, -1, 3, 0]) == [4, 1, 4, 1, 3]
    assert places_by_net([]) == []


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=6))
def test_places_by_net_is_standard_competition_ranking(nets):
    places = places_by_net(nets)
    for net, place in zip(nets, places):
        assert place == 1 + sum(1 for other in nets if other > net)


def test_an_unknown_placing_is_refused():
    with pytest.raises(ValueError):
        seat_places("by_luck", [{"net": 1}])


@pytest.mark.parametrize("key", list(CATALOG))
def test_placing_from_place_and_net_alone_agrees_with_the_whole_result(key):
    """``Game.place_seats`` (what a recomputation over many deals fetches) gives what
    ``Game.deal_places`` gives on the whole result."""
    g = get_game(key)
    for players in g.player_counts:
        kw = {"level": "points"} if g.connecting else {}
        for record in simulate(key, deals=30, seed=9, players=players, **kw):
            seats = evaluate(record)["seats"]
            assert g.place_seats([s.get("place") for s in seats], [s.get("net") for s in seats]) == \
                g.deal_places(seats)
