"""The season's rules: weighted sums of the tournaments' figures, ranked by their tie-breaks."""

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from scoring.domain.seasons import Result, season_rows, season_tie_breaks
from scoring.domain.standings import DEFAULT_TIE_BREAKS, Figures


def fig(net, deals=1, wins=0, places=(0, 0, 0, 0, 0, 0)):
    return Figures(net, deals, wins, tuple(places), None)


figures = st.builds(lambda net, deals, wins, p: Figures(net, deals, wins, tuple(p), None),
                    st.integers(-500, 500), st.integers(0, 30), st.integers(0, 30),
                    st.lists(st.integers(0, 10), min_size=6, max_size=6))
#: tournament id → {player id → figures}
seasons = st.dictionaries(st.integers(1, 5), st.dictionaries(st.integers(1, 6), figures, max_size=6),
                          min_size=1, max_size=5)


def results(season):
    return {t: [Result(p, f"P{p}", f) for p, f in rows.items()] for t, rows in season.items()}


def by_player(rows):
    return {r["player"]: r for r in rows}


@given(seasons)
def test_weight_one_everywhere_is_the_plain_sum(season):
    rows = by_player(season_rows(results(season), {t: 1 for t in season}, DEFAULT_TIE_BREAKS))
    for p in {p for r in season.values() for p in r}:
        played = [r[p] for r in season.values() if p in r]
        assert rows[p]["net"] == sum(f.net for f in played)
        assert rows[p]["deals"] == sum(f.deals for f in played)
        assert rows[p]["wins"] == sum(f.wins for f in played)
        assert rows[p]["tournaments"] == len(played)
        assert [rows[p]["places"][str(k)] for k in range(1, 7)] == [sum(f.places[k] for f in played)
                                                                    for k in range(6)]


@given(seasons, st.data())
def test_doubling_a_weight_doubles_its_contribution(season, data):
    doubled = data.draw(st.sampled_from(sorted(season)))
    plain = by_player(season_rows(results(season), {t: 1 for t in season}, DEFAULT_TIE_BREAKS))
    weights = {t: (2 if t == doubled else 1) for t in season}
    twice = by_player(season_rows(results(season), weights, DEFAULT_TIE_BREAKS))
    for p, row in plain.items():
        extra = season[doubled][p].net if p in season[doubled] else 0
        assert twice[p]["net"] == row["net"] + extra
        assert twice[p]["deals"] == row["deals"]   # counts are not weighted


@given(seasons)
def test_rows_are_ranked_by_net_first(season):
    rows = season_rows(results(season), {t: 1 for t in season}, DEFAULT_TIE_BREAKS)
    assert [r["net"] for r in rows] == sorted((r["net"] for r in rows), reverse=True)
    assert rows == [] or rows[0]["rank"] == 1


def test_decimal_weights_stay_exact():
    rows = season_rows({1: [Result(1, "A", fig(3))], 2: [Result(1, "A", fig(7))]},
                       {1: Decimal("1.5"), 2: Decimal("0.1")}, DEFAULT_TIE_BREAKS)
    assert rows[0]["net"] == Decimal("5.2")


def test_ties_are_broken_by_the_next_key_and_then_share_a_rank():
    rows = season_rows({1: [Result(1, "B", fig(10, wins=1)), Result(2, "A", fig(10, wins=3)),
                            Result(3, "C", fig(10, wins=1))]}, {1: 1}, ["net", "wins"])
    assert [(r["name"], r["rank"], r["tied"]) for r in rows] == [("A", 1, False), ("B", 2, True), ("C", 2, True)]


def test_average_place_is_over_the_summed_places():
    rows = season_rows({1: [Result(1, "A", fig(0, places=(1, 0, 0, 0, 0, 0)))],
                        2: [Result(1, "A", fig(0, places=(0, 0, 1, 0, 0, 0)))]}, {1: 1, 2: 1}, ["net"])
    assert rows[0]["average_place"] == 2.0


def test_tie_breaks_common_order_or_default_without_head_to_head():
    assert season_tie_breaks([["wins", "net"], ["wins", "net"]]) == ["wins", "net"]
    assert season_tie_breaks([["wins", "net"], ["net"]]) == list(DEFAULT_TIE_BREAKS)
    assert season_tie_breaks([["head_to_head", "net"]]) == ["net"]
    assert season_tie_breaks([]) == list(DEFAULT_TIE_BREAKS)
