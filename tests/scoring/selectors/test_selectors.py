"""Selectors: reads for pages and the API."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from scoring.models import RoundRevision
from scoring.selectors.audits import round_verify_chain
from scoring.selectors.dashboards import tournament_dashboard
from scoring.selectors.payouts import payouts_for
from scoring.selectors.rounds import round_history, round_revisions
from scoring.selectors.standings import standings_for
from scoring.selectors.tables import round_defaults, table_by_scorer_token, table_running_totals
from scoring.selectors.tournaments import tournament_list_for_home
from scoring.services.clubs import player_create
from scoring.services.rounds import round_correct, round_dispute, round_record, round_void
from scoring.services.standings import standings_refresh
from scoring.services.tournaments import entry_create, tournament_finish, tournament_update
from scoring.web import links

from ..bodies import JIE_LONG, JIE_LONG_NETS

pytestmark = pytest.mark.django_db


def test_table_running_totals_and_defaults(jie_long):
    s = jie_long
    assert round_defaults(s.table) == {"entered_by": None, "number": 1, "leader": 0, "last": {"leader": None}}
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_record(actor=s.scorer_actor, table=s.table, body={"leader": 2, "points": [34, 18, 2, 12]})
    totals = table_running_totals(s.table)
    assert [(t["position"], t["name"], t["total"], t["rounds"]) for t in totals] == [
        (0, "Anna", 58 - 70, 2), (1, "Bob", 18 - 6, 2), (2, "Celine", -70 + 58, 2), (3, "Dominic", -6 + 18, 2)]
    assert round_defaults(s.table) == {"entered_by": None, "number": 3, "leader": 2, "last": {"leader": 2}}


def test_round_defaults_skip_voided_deals(jie_long):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    r2 = round_record(actor=s.scorer_actor, table=s.table, body={"leader": 0, "points": [34, 18, 2, 12]})
    assert round_defaults(s.table)["leader"] == 2
    round_void(actor=s.director_actor, round=r2, reason="misdeal")
    assert round_defaults(s.table) == {"entered_by": None, "number": 3, "leader": 0, "last": {"leader": 0}}


def test_round_history_and_revisions(jie_long):
    s = jie_long
    r1 = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_correct(actor=s.director_actor, round=r1, body={"leader": 1, "points": [34, 2, 12, 18]},
                           reason="wrong leader", expected_revision=1)
    history = round_history(s.table)
    assert [(h["number"], h["revision"]) for h in history] == [(1, 2), (2, 1)]
    revs = round_revisions(r1)
    assert [r["number"] for r in revs] == [1, 2]
    assert [p["net"] for p in revs[0]["players"]] == JIE_LONG_NETS
    assert [p["net"] for p in revs[1]["players"]] == [-70, 58, 18, -6]
    assert revs[1]["actor"] == "director alice" and revs[1]["reason"] == "wrong leader"


def _disable_revision_guard():
    """Switch off the trigger of migration 0002 inside this test's transaction (rolled back
    with it), as an attacker with the database owner's rights could."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            # Run the deferred foreign-key checks now: ALTER TABLE refuses while they are pending.
            cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cur.execute("ALTER TABLE scoring_roundrevision DISABLE TRIGGER scoring_roundrevision_immutable")
        else:
            cur.execute("DROP TRIGGER scoring_roundrevision_immutable")


def test_a_stored_revision_cannot_be_changed_in_the_database(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    rev = RoundRevision.objects.get(round=rnd, number=1)
    for change in ({"reason": "rewritten"}, {"result": {}}, {"hash": "0" * 64}):
        with pytest.raises(DatabaseError, match="immutable"), transaction.atomic():
            RoundRevision.objects.filter(pk=rev.pk).update(**change)
    rev.refresh_from_db()
    assert rev.reason == "" and rev.result["ok"] is True
    assert round_verify_chain(rnd).ok


def test_round_verify_chain_detects_tampering(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    for i in range(1, 4):
        round_correct(actor=s.director_actor, round=rnd, body=JIE_LONG, reason=f"fix {i}",
                               expected_revision=i)
    assert round_verify_chain(rnd).as_dict() == {"ok": True, "checked": 4, "first_broken": None,
                                                           "problem": ""}
    # someone with the database's owner rights switches the guard off and edits revision 2's
    # result behind the services' back
    _disable_revision_guard()
    rev2 = RoundRevision.objects.get(round=rnd, number=2)
    result = dict(rev2.result)
    result["seats"] = [{**seat, "net": 0} for seat in result["seats"]]
    RoundRevision.objects.filter(pk=rev2.pk).update(result=result)
    report = round_verify_chain(rnd)
    assert not report.ok and report.first_broken == 2 and report.checked == 1
    # recomputing the tampered hash breaks the link of the next revision instead
    from scoring.domain.chain import hash_of_revision
    rev2.refresh_from_db()
    RoundRevision.objects.filter(pk=rev2.pk).update(hash=hash_of_revision(rev2))
    report = round_verify_chain(rnd)
    assert not report.ok and report.first_broken == 3 and "link" in report.problem


def test_round_verify_chain_detects_a_deleted_revision(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_correct(actor=s.director_actor, round=rnd, body=JIE_LONG, reason="a", expected_revision=1)
    round_correct(actor=s.director_actor, round=rnd, body=JIE_LONG, reason="b", expected_revision=2)
    _disable_revision_guard()
    RoundRevision.objects.filter(round=rnd, number=2).update(reason="nothing happened")
    assert round_verify_chain(rnd).first_broken == 2


def test_tournament_list_for_home(make_setup, director, other_director):
    running = make_setup("jie_long")
    draft = make_setup("jie_long", start=False, names=["W", "X", "Y", "Z"])
    private = make_setup("jie_long", names=["K", "L", "M", "N"])
    tournament_update(actor=private.director_actor, tournament=private.tournament, public=False)
    finished = make_setup("jie_long", names=["Q", "R", "S", "T"])
    tournament_finish(actor=finished.director_actor, tournament=finished.tournament)
    anonymous = tournament_list_for_home()
    assert [t.pk for t in anonymous] == [running.tournament.pk, finished.tournament.pk]
    assert anonymous[0].entry_count == 4
    mine = {t.pk for t in tournament_list_for_home(director)}
    assert mine == {running.tournament.pk, draft.tournament.pk, private.tournament.pk, finished.tournament.pk}
    assert {t.pk for t in tournament_list_for_home(other_director)} == {running.tournament.pk,
                                                                                  finished.tournament.pk}


def test_tournament_dashboard(jie_long, director_actor, club):
    s = jie_long
    late = player_create(actor=director_actor, club=club, name="Late")
    entry_create(actor=director_actor, tournament=s.tournament, player=late)
    r1 = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    r2 = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_dispute(actor=s.scorer_actor, round=r2, message="Call the referee")
    round_dispute(actor=s.scorer_actor, round=r1, message="And this one")
    d = tournament_dashboard(s.tournament)
    assert [x["id"] for x in d["disputed"]] == [r2.pk, r1.pk]
    (session,) = d["sessions"]
    assert d["current"]["session"] == session   # the newest open session's tables
    (table,) = d["current"]["tables"]
    assert table["table"] == s.table and table["rounds"] == 2 and table["disputed"] == 2
    assert table["last_deal_at"] == r2.created_at and table["minutes_since"] == 0
    # The seats' running totals moved to the table's own page (the console shows the standings).
    assert [x["total"] for x in table_running_totals(s.table)] == [116, 36, -140, -12]
    # no confirmation required: a recorded deal is not told unconfirmed
    assert d["counts"] == {"unconfirmed": 0, "disputed": 2, "unsettled": 2}
    assert [e.player.name for e in d["unseated"]] == ["Late"]
    assert len(d["standings"]) == 5
    assert d["recent_actions"][0].action == "round_dispute"


def test_standings_for_ranks_ties(jie_long):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body={"points": [10, 10, 20, 20]})
    standings_refresh(tournament=s.tournament)
    rows = standings_for(s.tournament)
    # Level on net; the default tie-breaks go on to wins (Anna won the deal: lower hand, CG-14)
    # and average place.
    assert [(r["name"], r["rank"], r["tied"]) for r in rows] == [
        ("Anna", 1, False), ("Bob", 2, False), ("Celine", 3, False), ("Dominic", 4, False)]
    tournament_update(actor=s.director_actor, tournament=s.tournament, tie_breaks=["net"])
    s.tournament.refresh_from_db()
    rows = standings_for(s.tournament)
    assert [(r["name"], r["rank"], r["tied"]) for r in rows] == [
        ("Anna", 1, True), ("Bob", 1, True), ("Celine", 3, True), ("Dominic", 3, True)]
    payouts = payouts_for(s.tournament)
    assert sum(p["money"] for p in payouts["players"]) == 0 and payouts["currency"] == "EUR"


def test_table_by_scorer_token(jie_long):
    assert table_by_scorer_token(jie_long.token) == jie_long.table
    for bad in ["", None, "x" * 500, jie_long.token + "x"]:
        assert table_by_scorer_token(bad) is None


def test_scorer_url_and_qr_svg(jie_long, rf):
    assert links.scorer_path("abc") == "/s/abc/"
    assert links.scorer_url("abc", rf.get("/")) == "http://testserver/s/abc/"
    svg = links.qr_svg(links.scorer_url(jie_long.token, rf.get("/")))
    assert svg.lstrip().startswith("<svg") and "</svg>" in svg
