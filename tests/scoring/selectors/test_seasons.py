"""A season's standings: the tournaments' kept standings, weighted and summed, in fixed queries."""

from decimal import Decimal

from scoring.selectors.seasons import season_standings
from scoring.selectors.standings import standings_for
from scoring.services.rounds import round_record
from scoring.services.seasons import season_create, season_tournament_add
from scoring.services.tournaments import tournament_update

from ..bodies import JIE_LONG, JIE_LONG_NETS


def test_the_final_counts_double(club, director_actor, make_setup, django_assert_num_queries):
    league, final = make_setup(), make_setup()
    round_record(actor=league.scorer_actor, table=league.table, body=JIE_LONG)
    round_record(actor=final.scorer_actor, table=final.table, body={"points": [34, 18, 2, 12]})  # Celine wins
    s = season_create(actor=director_actor, club=club, name="Spring")
    season_tournament_add(actor=director_actor, season=s, tournament=league.tournament)
    season_tournament_add(actor=director_actor, season=s, tournament=final.tournament, weight=2)
    with django_assert_num_queries(2):
        table = season_standings(s)
    rows = {r["name"]: r for r in table["rows"]}
    final_nets = {r["name"]: r["net"] for r in standings_for(final.tournament)}
    for name, net in zip(league.names, JIE_LONG_NETS):
        assert rows[name]["net"] == net + 2 * final_nets[name]
        assert rows[name]["deals"] == 2 and rows[name]["tournaments"] == 2
    assert [r["rank"] for r in table["rows"]] == [1, 2, 3, 4]
    assert table["rows"][0]["net"] == max(r["net"] for r in rows.values())
    assert sum(r["places"]["1"] for r in table["rows"]) == 2


def test_query_count_does_not_grow_with_tournaments(club, director_actor, make_setup, django_assert_num_queries):
    s = season_create(actor=director_actor, club=club, name="Spring")
    for _ in range(4):
        t = make_setup()
        round_record(actor=t.scorer_actor, table=t.table, body=JIE_LONG)
        season_tournament_add(actor=director_actor, season=s, tournament=t.tournament, weight=Decimal("0.5"))
    with django_assert_num_queries(2):
        rows = season_standings(s)["rows"]
    assert rows[0]["net"] == 4 * Decimal("0.5") * max(JIE_LONG_NETS)


def test_tie_breaks_follow_the_tournaments(club, director_actor, make_setup):
    a, b = make_setup(), make_setup()
    s = season_create(actor=director_actor, club=club, name="Spring")
    assert season_standings(s) == {"tie_breaks": ["net", "wins", "average_place"], "rows": []}
    for t in (a, b):
        tournament_update(actor=director_actor, tournament=t.tournament, tie_breaks=["wins", "head_to_head", "net"])
        season_tournament_add(actor=director_actor, season=s, tournament=t.tournament)
    table = season_standings(s)
    assert table["tie_breaks"] == ["wins", "net"]
    assert len(table["rows"]) == 4 and all(r["net"] == 0 for r in table["rows"])   # entries with no deal: zero
