"""A player's statistics equal counts made here, independently, from the stored results
(RoundRevision rows of the counted deals), in Ding Niu (SuanZhang, a full log with a must-play
warning), Jie Long and Tau Ngau (bulls, a suboptimal declaration, the banker); a void, an
unconfirmed deal where confirmation is required, and a private tournament do not count. The
read costs a fixed number of queries whatever the number of deals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.models import Round, RoundRevision, Tournament
from scoring.selectors.player_stats import player_stats
from scoring.services.rounds import round_record, round_void
from tests.scoring.bodies import DING_NIU_LED_BY_1, JIE_LONG, TAU_NGAU_V1

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MUST_PLAY = json.loads((EXAMPLES / "ding_niu-must-play-warning.json").read_text())["record"]
MISTAKE = json.loads((EXAMPLES / "tau_ngau-declared-mistake-bull.json").read_text())["record"]


def _body(record):
    return {k: v for k, v in record.items() if k not in ("game", "variant", "seats")}


def _record(setup, body, times=1):
    return [round_record(actor=setup.director_actor, table=setup.table, body=body) for _ in range(times)]


@pytest.fixture
def deals(make_setup):
    """Boris plays Ding Niu (4 SuanZhang deals led by him, a full log, one voided deal) and
    Tau Ngau (banker and not, a suboptimal declaration); Anna plays a private Jie Long."""
    dn = make_setup("ding_niu")
    _record(dn, DING_NIU_LED_BY_1, 3)
    _record(dn, {**_body(MUST_PLAY), "leader": 0}, 2)
    voided = _record(dn, DING_NIU_LED_BY_1)[0]
    round_void(actor=dn.director_actor, round=voided, reason="wrong table")
    tn = make_setup("tau_ngau", names=["Boris", "Six", "One", "NoBull"], variant={"settlement": "v1"})
    _record(tn, TAU_NGAU_V1, 2)
    _record(tn, {**TAU_NGAU_V1, "banker": 1})
    tn3 = make_setup("tau_ngau", names=["Boris", "Bank", "Other"], table_name="Table 3")
    _record(tn3, _body(MISTAKE))
    _record(tn3, {**_body(MISTAKE), "banker": 0, "stakes": [None, 1, 1]})
    private = make_setup("jie_long", names=["Boris", "Bob", "Celine", "Dominic"])
    _record(private, JIE_LONG, 2)
    Tournament.objects.filter(pk=private.tournament.pk).update(public=False)
    confirm = make_setup("jie_long", names=["Boris", "Bob", "Celine", "Dominic"], require_confirmation=True,
                         table_name="Table 5")
    _record(confirm, JIE_LONG)  # never confirmed: does not count
    return dn.entries[1].player, [dn.tournament, tn.tournament, tn3.tournament, private.tournament,
                                  confirm.tournament]


def _independent(player, tournaments):
    """The figures counted here from the revisions: each seat found by name in the record."""
    out = {}
    for rev in RoundRevision.objects.filter(round__table__session__tournament__in=tournaments).select_related(
            "round__table__session__tournament"):
        rnd = rev.round
        t = rnd.table.session.tournament
        if rnd.current_revision_id != rev.pk or rnd.status == Round.Status.VOIDED:
            continue
        if t.require_confirmation and rnd.status != Round.Status.CONFIRMED:
            continue
        me = rev.record["seats"].index(player.name)
        seat = rev.result["seats"][me]
        g = out.setdefault(t.game, {"deals": 0, "net": 0, "firsts": 0, "places": [], "sz_caused": 0,
                                    "sz_suffered": 0, "must_play": 0, "suboptimal": 0, "banker": 0,
                                    "banker_net": 0, "best_found": 0, "sessions": set()})
        g["deals"] += 1
        g["net"] += seat["net"]
        g["sessions"].add(rnd.table.session_id)
        # Tau Ngau's results carry no place: placed by net, equal nets sharing (as the standings).
        place = seat["place"] if "place" in seat else 1 + sum(
            1 for other in rev.result["seats"] if other["net"] > seat["net"])
        g["places"].append(place)
        g["firsts"] += place == 1
        sz = rev.result.get("suanzhang")
        if sz:
            if sz["seat"] == me:
                g["sz_caused"] += 1
            elif seat["net"] < 0:
                g["sz_suffered"] += 1
        for w in rev.result.get("warnings", []):
            if w["code"] == "must_play" and int(w["path"][6:-1]) % len(rev.record["seats"]) == me:
                g["must_play"] += 1
            if w["code"] == "suboptimal" and w["path"] == f"declared[{me}].bull":
                g["suboptimal"] += 1
        if rev.result.get("banker") == me:
            g["banker"] += 1
            g["banker_net"] += seat["net"]
        if seat.get("best_value", 0) > 0 and seat["value"] == seat["best_value"]:
            g["best_found"] += 1
    return out


def test_stats_equal_independent_counts(deals):
    player, tournaments = deals
    stats = player_stats(player, public_only=False)
    counted = _independent(player, tournaments)
    games = {g["game"]: g for g in stats["games"]}
    assert set(games) == set(counted) == {"ding_niu", "tau_ngau", "jie_long"}
    for key, c in counted.items():
        g = games[key]
        assert (g["deals"], g["net"], g["firsts"], g["sessions"]) == (c["deals"], c["net"], c["firsts"],
                                                                     len(c["sessions"]))
        assert g["average_place"] == round(sum(c["places"]) / len(c["places"]), 3)
    dn, tn = games["ding_niu"], games["tau_ngau"]
    assert dn["suanzhang"] == {"caused": counted["ding_niu"]["sz_caused"],
                               "suffered": counted["ding_niu"]["sz_suffered"]}
    assert dn["must_play"]["warnings"] == counted["ding_niu"]["must_play"]
    assert tn["bulls"]["suboptimal"] == counted["tau_ngau"]["suboptimal"]
    assert tn["bulls"]["best_found"] == counted["tau_ngau"]["best_found"]
    assert (tn["banker"]["deals"], tn["banker"]["net"]) == (counted["tau_ngau"]["banker"],
                                                            counted["tau_ngau"]["banker_net"])
    assert stats["overall"]["deals"] == sum(c["deals"] for c in counted.values())
    assert stats["overall"]["net"] == sum(c["net"] for c in counted.values())
    # The figures are not all zero: the deals above say what they must be.
    assert dn["deals"] == 5 and dn["suanzhang"] == {"caused": 0, "suffered": 3}
    assert dn["must_play"] == {"full_logs": 2, "warnings": 2}        # Boris put a fitting tile face down
    assert tn["bulls"]["suboptimal"] == 2  # both declare the worse bull
    assert tn["banker"]["deals"] == 3
    assert games["jie_long"]["deals"] == 2                           # the private one; unconfirmed not
    assert len(stats["tournaments"]) == 5


def test_public_only_leaves_out_private_tournaments(deals):
    player, tournaments = deals
    stats = player_stats(player, public_only=True)
    assert {g["game"] for g in stats["games"]} == {"ding_niu", "tau_ngau"}  # the private Jie Long left out
    assert tournaments[3].pk not in {t["id"] for t in stats["tournaments"]}
    everything = player_stats(player, public_only=False)
    assert stats["overall"]["deals"] == everything["overall"]["deals"] - 2


def test_best_session_is_the_largest_net(deals):
    player, _ = deals
    stats = player_stats(player, public_only=False)
    best = stats["overall"]["best_session"]
    assert best["net"] == max(t["net"] for t in stats["tournaments"])  # one session per tournament here


def test_query_count_is_fixed(deals, make_setup, django_assert_max_num_queries):
    player, _ = deals
    with django_assert_max_num_queries(4):   # entries, seats, substitutions, deals
        few = player_stats(player, public_only=False)
    more = make_setup("jie_long", names=["Boris", "Bob", "Celine", "Dominic"], table_name="Table 9")
    _record(more, JIE_LONG, 20)
    with django_assert_max_num_queries(4):   # entries, seats, substitutions, deals
        many = player_stats(player, public_only=False)
    assert many["overall"]["deals"] == few["overall"]["deals"] + 20
