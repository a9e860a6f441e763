"""The seating algorithm (``scoring.domain.seating``), pure: table sizes from the game's player counts,
the three methods, fair sit-outs, and properties over many drawn cases."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from scoring.domain import seating
from scoring.domain.seating import SeatingError, pair_counts, repeated_pairs, seat, table_sizes

COUNTS = {key: games.get_game(key).player_counts for key in games.CATALOG}


def plan(method="random", players=range(1, 9), size=4, counts=(4,), leftovers="sit_out", seed="1", **kw):
    return seat(method=method, players=list(players), table_size=size, player_counts=counts, leftovers=leftovers,
                seed=seed, **kw)


# --- table sizes --------------------------------------------------------------------------------

@pytest.mark.parametrize("n, size, counts, leftovers, expected", [
    (8, 4, (4,), "sit_out", ([4, 4], 0)),
    (11, 4, (4,), "sit_out", ([4, 4], 3)),
    (10, 4, (2, 3, 4), "smaller_tables", ([4, 3, 3], 0)),     # Jie Long: fewest tables, as even as allowed
    (9, 4, (2, 3, 4), "smaller_tables", ([3, 3, 3], 0)),
    (5, 4, (2, 3, 4), "smaller_tables", ([3, 2], 0)),
    (13, 6, (3, 4, 5, 6), "smaller_tables", ([5, 4, 4], 0)),  # Tau Ngau
    (12, 6, (3, 4, 5, 6), "smaller_tables", ([6, 6], 0)),
    (7, 3, (3, 4, 5, 6), "smaller_tables", None),              # tables of 3 cannot seat 7
    (11, 5, (2, 3, 4, 5), "smaller_tables", ([4, 4, 3], 0)),   # Da Ling
    (12, 5, (2, 3, 4, 5), "sit_out", ([5, 5], 2)),
])
def test_table_sizes(n, size, counts, leftovers, expected):
    if expected is None:
        with pytest.raises(SeatingError) as e:
            table_sizes(n, table_size=size, player_counts=counts, leftovers=leftovers)
        assert (e.value.path, e.value.code) == ("leftovers", "cannot_seat_everyone")
    else:
        assert table_sizes(n, table_size=size, player_counts=counts, leftovers=leftovers) == expected


@pytest.mark.parametrize("n, size, counts, leftovers, path, code", [
    (9, 4, (4,), "smaller_tables", "leftovers", "cannot_seat_everyone"),   # Ding Niu: exactly 4
    (3, 4, (4,), "sit_out", "entries", "too_few_players"),
    (1, 4, (2, 3, 4), "smaller_tables", "entries", "too_few_players"),
    (8, 5, (4,), "sit_out", "table_size", "wrong_player_count"),
    (8, 4, (4,), "sideways", "leftovers", "invalid_choice"),
])
def test_table_sizes_refusals(n, size, counts, leftovers, path, code):
    with pytest.raises(SeatingError) as e:
        table_sizes(n, table_size=size, player_counts=counts, leftovers=leftovers)
    assert (e.value.path, e.value.code) == (path, code)


def test_unknown_method_and_repeated_players_are_refused():
    with pytest.raises(SeatingError) as e:
        plan(method="alphabetical")
    assert e.value.path == "method"
    with pytest.raises(SeatingError) as e:
        plan(players=[1, 2, 3, 4, 1])
    assert (e.value.path, e.value.code) == ("entries", "duplicate_entry")


# --- methods ------------------------------------------------------------------------------------

def test_standings_seats_the_strongest_together_table_by_table():
    ranking = [7, 3, 9, 1, 4, 8, 2, 6, 5, 10, 11, 12]
    p = plan(method="standings", players=ranking, seed="x")
    assert [set(t) for t in p.tables] == [{7, 3, 9, 1}, {4, 8, 2, 6}, {5, 10, 11, 12}]
    # seat order within a table is drawn by lot, not the ranking
    assert any(list(t) != ranking[i * 4:i * 4 + 4] for i, t in enumerate(p.tables))


def test_random_does_not_depend_on_the_order_players_are_given_in():
    assert plan(players=range(1, 13), seed="s") == plan(players=reversed(range(1, 13)), seed="s")
    assert plan(players=range(1, 13), seed="s") != plan(players=range(1, 13), seed="t")


def test_balanced_avoids_the_last_sessions_opponents():
    history = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    p = plan(method="balanced", players=range(1, 17), history=history, seed="a")
    assert repeated_pairs(p.tables, history) == 0
    assert all(len({(x - 1) // 4 for x in t}) == 4 for t in p.tables)  # one from each earlier table


def test_balanced_over_sessions_repeats_far_fewer_pairs_than_random():
    totals = {}
    for method in ("balanced", "random"):
        history: list = []
        for session in range(5):
            history += plan(method=method, players=range(1, 21), seed=f"s{session}", history=history).tables
        totals[method] = sum(times - 1 for times in pair_counts(history).values() if times > 1)
    assert totals["balanced"] < totals["random"] / 2, totals


def test_sit_outs_go_to_whoever_sat_out_least():
    p = plan(players=range(1, 11), sat_out={1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1}, seed="q")
    assert set(p.sit_outs) == {9, 10}


def test_a_large_field_is_seated_quickly():
    import time

    history: list = []
    start = time.perf_counter()
    for session in range(3):
        history += plan(method="balanced", players=range(120), seed=str(session), history=history).tables
    assert time.perf_counter() - start < 20


# --- properties ---------------------------------------------------------------------------------

@st.composite
def cases(draw):
    game = draw(st.sampled_from(sorted(COUNTS)))
    counts = COUNTS[game]
    return {
        "method": draw(st.sampled_from(seating.METHODS)),
        "players": draw(st.lists(st.integers(1, 500), min_size=0, max_size=30, unique=True)),
        "table_size": draw(st.sampled_from(counts)),
        "player_counts": counts,
        "leftovers": draw(st.sampled_from(seating.LEFTOVERS)),
        "seed": draw(st.text(max_size=8)),
    }


def seatable(n: int, allowed: list[int]) -> bool:
    reachable = {0}
    for total in range(1, n + 1):
        if any(total - a in reachable for a in allowed):
            reachable.add(total)
    return n in reachable


@settings(max_examples=300, deadline=None)
@given(cases())
def test_everyone_plays_once_or_sits_out_at_tables_the_game_allows(case):
    n, size = len(case["players"]), case["table_size"]
    allowed = [c for c in case["player_counts"] if c <= size]
    try:
        p = seat(**case)
    except SeatingError as e:
        if case["leftovers"] == "sit_out":
            assert n < size and e.code == "too_few_players"
        else:
            assert n == 0 or not seatable(n, allowed), (n, allowed)   # nobody to seat is refused too
        return
    seated = [x for t in p.tables for x in t]
    assert sorted(seated + list(p.sit_outs)) == sorted(case["players"])
    assert all(len(t) in case["player_counts"] and len(t) <= size for t in p.tables)
    if case["leftovers"] == "sit_out":
        assert all(len(t) == size for t in p.tables) and len(p.sit_outs) < size
    else:
        assert not p.sit_outs
        # the fewest tables, as even as can be (every game's player counts are a range)
        assert len(p.tables) == -(-n // size)
        assert max(map(len, p.tables)) - min(map(len, p.tables)) <= 1


@settings(max_examples=150, deadline=None)
@given(cases(), st.lists(st.lists(st.integers(1, 30), min_size=2, max_size=6, unique=True), max_size=12))
def test_the_same_seed_gives_the_same_seating(case, history):
    try:
        first = seat(**case, history=history)
    except SeatingError:
        return
    assert seat(**case, history=history) == first


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(COUNTS)), st.integers(4, 24), st.integers(2, 5), st.text(max_size=4))
def test_balanced_is_never_worse_than_random_over_sessions(game, n, sessions, seed):
    """Session after session, on the same history, balanced repeats no more pairs than the draw
    that ``random`` would make with the same seed."""
    counts = COUNTS[game]
    size = counts[-1]
    if n < size:
        return
    history: list = []
    for s in range(sessions):
        args = dict(players=list(range(n)), table_size=size, player_counts=counts, leftovers="sit_out",
                    seed=f"{seed}{s}", history=history)
        balanced = seat(method="balanced", **args)
        drawn = seat(method="random", **args)
        assert repeated_pairs(balanced.tables, history) <= repeated_pairs(drawn.tables, history)
        assert balanced.sit_outs == drawn.sit_outs
        history += balanced.tables


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(COUNTS)), st.integers(2, 23), st.integers(2, 8), st.sampled_from(seating.METHODS),
       st.text(max_size=4))
def test_sit_outs_are_spread_over_sessions(game, n, sessions, method, seed):
    counts = COUNTS[game]
    size = counts[-1]
    if n < size:
        return
    players = list(range(n))
    history: list = []
    sat_out: Counter = Counter({p: 0 for p in players})
    for s in range(sessions):
        p = seat(method=method, players=players, table_size=size, player_counts=counts, leftovers="sit_out",
                 seed=f"{seed}{s}", history=history, sat_out=dict(sat_out))
        history += p.tables
        sat_out.update(p.sit_outs)
        assert max(sat_out.values()) - min(sat_out.values()) <= 1
