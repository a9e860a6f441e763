"""Payouts (scoring/selectors/payouts.py): the settle-up list of a tournament and of one
session, with the house where there is one and money in the currency's minor unit."""

from __future__ import annotations

from decimal import Decimal

import pytest

import games
from games.simulate import simulate
from scoring.domain.errors import NotFound
from scoring.domain.records import body_from_record
from scoring.selectors.payouts import payouts_for, payouts_made
from scoring.services.clubs import player_rename
from scoring.services.rounds import round_record, round_void
from scoring.services.tables import table_create
from scoring.services.tournaments import tournament_update

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


def _settles(payouts) -> bool:
    """Paying the transfers brings every party's chips and money to zero."""
    chips = {p["entry"]: p["net"] for p in payouts["players"]}
    money = {p["entry"]: p["money"] for p in payouts["players"]}
    if "house" in payouts:
        chips[None], money[None] = payouts["house"]["net"], payouts["house"]["money"]
    for t in payouts["transfers"]:
        chips[t["from_entry"]] += t["chips"]
        chips[t["to_entry"]] -= t["chips"]
        money[t["from_entry"]] += t["amount"]
        money[t["to_entry"]] -= t["amount"]
    return set(chips.values()) <= {0} and set(money.values()) <= {0}


def test_the_whole_tournament_settles_in_at_most_n_minus_1_transfers(jie_long):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)   # 58, 18, −70, −6
    p = payouts_for(s.tournament)
    assert (p["chip_value"], p["currency"], p["session"]) == (Decimal("0.50"), "EUR", None)
    assert [(x["name"], x["net"], x["money"]) for x in p["players"]] == [
        ("Anna", 58, Decimal("29.00")), ("Bob", 18, Decimal("9.00")), ("Dominic", -6, Decimal("-3.00")),
        ("Celine", -70, Decimal("-35.00"))]
    assert [(t["from_name"], t["to_name"], t["chips"], t["amount"]) for t in p["transfers"]] == [
        ("Celine", "Anna", 58, Decimal("29.00")), ("Celine", "Bob", 12, Decimal("6.00")),
        ("Dominic", "Bob", 6, Decimal("3.00"))]
    assert _settles(p) and "house" not in p
    assert p["rounding"] == {"decimals": 2, "remainder": Decimal("0.00"), "players": []}


def test_each_session_settles_on_its_own(jie_long, director_actor):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    table2, _ = table_create(actor=director_actor, tournament=s.tournament, name="Table 1", session=2,
                                      entries=[s.entries[1], s.entries[0], s.entries[2], s.entries[3]])
    round_record(actor=director_actor, table=table2, body=JIE_LONG)    # Bob 58, Anna 18, ...
    first = payouts_for(s.tournament, session=1)
    second = payouts_for(s.tournament, session=2)
    whole = payouts_for(s.tournament)
    assert {x["name"]: x["net"] for x in first["players"]} == {"Anna": 58, "Bob": 18, "Celine": -70, "Dominic": -6}
    assert {x["name"]: x["net"] for x in second["players"]} == {"Bob": 58, "Anna": 18, "Celine": -70, "Dominic": -6}
    assert {x["name"]: x["net"] for x in whole["players"]} == {"Anna": 76, "Bob": 76, "Celine": -140, "Dominic": -12}
    assert first["session"] == 1 and all(_settles(p) for p in (first, second, whole))
    with pytest.raises(NotFound):
        payouts_for(s.tournament, session=3)


def test_a_session_lists_its_seated_players_even_before_a_deal(jie_long):
    p = payouts_for(jie_long.tournament, session=1)
    assert sorted(x["name"] for x in p["players"]) == sorted(jie_long.names)
    assert p["transfers"] == [] and all(x["money"] == 0 for x in p["players"])


def test_voided_and_unconfirmed_deals_do_not_count(make_setup):
    s = make_setup("jie_long", require_confirmation=True)
    round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    for session in (None, 1):
        assert payouts_for(s.tournament, session=session)["transfers"] == []


def test_what_goes_to_the_house_is_a_party_of_its_own(make_setup):
    s = make_setup("da_ling", variant={"casino_chip": True})
    record = next(r for r in simulate("da_ling", deals=2000, seed=11, players=4, variant={"casino_chip": True})
                  if games.evaluate(r)["absolute_winner"] is not None)   # DL-11: the absolute winner pays 1
    round_record(actor=s.scorer_actor, table=s.table, body=body_from_record(record))
    p = payouts_for(s.tournament)
    assert p["house"] == {"net": 1, "money": Decimal("0.50")}
    assert sum(x["net"] for x in p["players"]) == -1 and _settles(p)
    assert any(t["to_entry"] is None and t["to_name"] == "House" for t in p["transfers"])


def test_yen_are_whole_and_the_rounding_is_shown(make_setup, director_actor):
    s = make_setup("jie_long", variant={"settlement": "chip"})    # 1 chip from every loser to the winner
    tournament_update(actor=director_actor, tournament=s.tournament, currency="JPY", chip_value="2.50")
    s.tournament.refresh_from_db()
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)    # Anna +3, the others −1
    p = payouts_for(s.tournament)
    assert [t["amount"] for t in p["transfers"]] == [Decimal("2")] * 3    # ¥2.50 → ¥2 (half to even)
    assert {x["name"]: x["money"] for x in p["players"]} == {"Anna": 6, "Bob": -2, "Celine": -2, "Dominic": -2}
    assert p["rounding"]["decimals"] == 0 and p["rounding"]["remainder"] == Decimal("1.50")
    assert {(r["name"], r["exact"], r["money"]) for r in p["rounding"]["players"]} == {
        ("Anna", Decimal("7.50"), Decimal("6")), ("Bob", Decimal("-2.50"), Decimal("-2")),
        ("Celine", Decimal("-2.50"), Decimal("-2")), ("Dominic", Decimal("-2.50"), Decimal("-2"))}
    assert _settles(p)


# --- the cache (payouts_for keeps the answer under its version) ----------------------------------

def test_a_repeated_read_is_one_query_and_the_cache(jie_long, django_assert_num_queries):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    for session in (None, 1):
        first = payouts_for(s.tournament, session=session)
        with django_assert_num_queries(1):   # the version; the answer is the cached one
            again = payouts_for(s.tournament, session=session)
        assert again == first == payouts_made(s.tournament, session=session)


def test_a_deal_recorded_voided_or_a_setting_changed_is_never_answered_stale(jie_long, director_actor):
    s = jie_long
    before = payouts_for(s.tournament)
    first = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    after = payouts_for(s.tournament)
    assert after != before and after == payouts_made(s.tournament)
    assert {x["name"]: x["net"] for x in after["players"]}["Anna"] == 58
    assert {x["name"]: x["net"] for x in payouts_for(s.tournament, session=1)["players"]}["Anna"] == 58
    round_void(actor=s.director_actor, round=first, reason="misdeal")
    assert {x["name"]: x["net"] for x in payouts_for(s.tournament)["players"]}["Anna"] == 0
    assert {x["name"]: x["net"] for x in payouts_for(s.tournament, session=1)["players"]}["Anna"] == 0
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    payouts_for(s.tournament)
    tournament_update(actor=director_actor, tournament=s.tournament, chip_value="2.00")
    s.tournament.refresh_from_db()
    assert payouts_for(s.tournament)["players"][0]["money"] == Decimal("116.00")


def test_a_renamed_player_is_named_anew(jie_long, director_actor, django_capture_on_commit_callbacks):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    assert payouts_for(s.tournament)["players"][0]["name"] == "Anna"
    with django_capture_on_commit_callbacks(execute=True):
        player_rename(actor=director_actor, player=s.entries[0].player, name="Annabel")
    assert payouts_for(s.tournament)["players"][0]["name"] == "Annabel"
    assert payouts_for(s.tournament)["transfers"][0]["to_name"] == "Annabel"


def test_an_adjustment_moves_the_players_net_and_the_house_takes_it(jie_long):
    """A fine is not zero-sum: the house takes it (and pays a bonus); a session's payouts leave it
    out (it belongs to no session); a deletion takes it back, the cached answer too."""
    from scoring.services.adjustments import adjustment_create, adjustment_delete

    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    before = payouts_for(s.tournament)
    assert "house" not in before
    fine = adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[0], amount=-20,
                             reason="late arrival")
    after = payouts_for(s.tournament)
    anna = next(p for p in after["players"] if p["entry"] == s.entries[0].pk)
    assert anna["net"] == 58 - 20
    assert after["house"]["net"] == 20 and after["house"]["money"] == Decimal("10.00")
    assert _settles(after)
    session = payouts_made(s.tournament, session=1)
    assert next(p for p in session["players"] if p["entry"] == s.entries[0].pk)["net"] == 58
    adjustment_delete(actor=s.director_actor, adjustment=fine)
    assert payouts_for(s.tournament) == before
