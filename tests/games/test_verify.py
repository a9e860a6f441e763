"""``python -m games verify FILE`` (``games.verify``): a tournament export checked without the
site. A real export verifies (exit 0, its counts printed) and a changed net, a broken hash link
or a changed standings row is named (exit 1); format 2's adjustments, substitutions and
tie-breaks are used (hand-made documents); no Django and no app module is imported; and on
random tournaments played through the services, the verifier's standings and payouts are the
server's."""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import evaluate
from games.chain import revision_hash
from games.cli import main
from games.simulate import simulate
from games.verify import Disagreement, Unreadable, verify_document

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(argv, out=out, err=err), out.getvalue(), err.getvalue()


def subprocess_run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The command as a user runs it: a fresh interpreter, no Django settings in sight."""
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL")}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          input=stdin, timeout=120)


def rehash(doc: dict) -> dict:
    """Every revision's ``prev_hash`` and ``hash`` made right again (after an edit)."""
    for r in doc["rounds"]:
        prev = ""
        for rev in r["revisions"]:
            rev["prev_hash"] = prev
            rev["hash"] = prev = revision_hash(
                prev_hash=prev, round_id=r["id"], number=rev["number"], body=rev["body"], record=rev["record"],
                result=rev["result"], engine_version=rev["engine_version"], actor_label=rev["actor"],
                reason=rev["reason"], created_at=datetime.fromisoformat(rev["created_at"]))
    return doc


# --- hand-made documents -------------------------------------------------------------------------

NAMES = ["Anna", "Bob", "Celine", "Dominic", "Eve"]


def hand_made(deals: int = 3, *, version: int = 2, require_confirmation: bool = False, statuses=None,
              **extra) -> dict:
    """A Jie Long tournament of five players, four at one table (Eve sits out), ``deals``
    random legal deals led by seat 0."""
    rounds = []
    for i, record in enumerate(simulate("jie_long", deals=deals, seed=7, players=4)):
        record = {**record, "seats": NAMES[:4]}
        result = json.loads(json.dumps(evaluate(record)))
        body = {k: v for k, v in record.items() if k not in ("game", "variant", "seats")}
        rounds.append({"id": i + 1, "table": 1, "number": i + 1,
                       "status": (statuses or {}).get(i + 1, "recorded"), "created_at": f"2026-05-01T20:0{i}:00+00:00",
                       "revisions": [{"number": 1, "body": {**body, "leader": 0, "entered_by": 0}, "record": record,
                                      "result": result, "engine_version": "1.0.0", "actor": "scorer",
                                      "reason": "", "created_at": f"2026-05-01T20:0{i}:30+00:00"}]})
    doc = {"format": "gupai-club.tournament", "version": version, "exported_at": "2026-05-02T00:00:00+00:00",
           "tournament": {"name": "Spring", "game": "jie_long", "variant": {}, "status": "running", "public": True,
                          "require_confirmation": require_confirmation, "chip_value": "0.50", "currency": "EUR"},
           "players": [{"id": i, "name": n} for i, n in enumerate(NAMES, start=1)],
           "entries": [{"id": i, "player": i} for i in range(1, 6)],
           "sessions": [{"number": 1}],
           "tables": [{"id": 1, "session": 1, "name": "Table 1", "seats": [1, 2, 3, 4]}],
           "rounds": rounds, **extra}
    return rehash(doc)


def nets(report) -> dict[str, tuple[int, int]]:
    return {r["name"]: (r["net"], r["deals"]) for r in report.standings}


def seat_nets(doc: dict) -> list[list[int]]:
    return [[s["net"] for s in r["revisions"][-1]["result"]["seats"]] for r in doc["rounds"]]


def test_a_hand_made_document_verifies_and_counts_what_it_holds():
    doc = hand_made(3)
    report = verify_document(doc)
    assert (report.deals, report.counted, report.revisions, report.hash_links) == (3, 3, 3, 3)
    per_deal = seat_nets(doc)
    assert nets(report) == {n: (sum(d[i] for d in per_deal), 3) for i, n in enumerate(NAMES[:4])} | {"Eve": (0, 0)}
    assert sum(r["net"] for r in report.standings) == 0 and report.payouts["house"] == 0


def test_only_confirmed_deals_count_when_the_tournament_requires_confirmation():
    doc = hand_made(3, require_confirmation=True, statuses={2: "confirmed"})
    doc["rounds"][1]["confirmed_at"] = "2026-05-01T21:00:00+00:00"
    report = verify_document(doc)
    assert report.counted == 1 and all(r["deals"] in (0, 1) for r in report.standings)
    assert nets(report)["Anna"] == (seat_nets(doc)[1][0], 1)


def test_an_adjustment_moves_the_net_only_and_the_house_takes_the_difference():
    plain = verify_document(hand_made(2))
    doc = hand_made(2, adjustments=[{"player": 5, "amount": 7, "reason": "bonus", "created_at":
                                     "2026-05-01T22:00:00+00:00", "by": "director"},
                                    {"player": 1, "amount": -3, "reason": "late", "created_at":
                                     "2026-05-01T22:00:00+00:00", "by": "director"}])
    report = verify_document(doc)
    assert nets(report)["Eve"] == (7, 0)            # no deal played
    assert nets(report)["Anna"] == (nets(plain)["Anna"][0] - 3, 2)
    assert report.adjustments == 2 and report.payouts["house"] == -4   # the house pays what the nets are over


def test_a_substitution_gives_the_seat_to_another_player_from_a_deal_on():
    doc = hand_made(3, substitutions=[{"table": 1, "seat": 1, "player": 5, "from_deal": 2}])
    report = verify_document(doc)
    per_deal = seat_nets(doc)
    assert nets(report)["Bob"] == (per_deal[0][1], 1)
    assert nets(report)["Eve"] == (per_deal[1][1] + per_deal[2][1], 2)
    assert report.substitutions == 1


def test_the_tournaments_tie_breaks_are_used_and_flags_that_count_nothing_are_read_past():
    doc = hand_made(2)
    doc["tournament"]["tie_breaks"] = ["deals", "net"]
    doc["entries"][0]["withdrawn_at"] = "2026-05-01T23:00:00+00:00"
    doc["rounds"][0].update(late=True, after_time=True)
    report = verify_document(doc)
    assert report.standings[-1]["name"] == "Eve"     # fewest deals last, whatever its net
    assert [r["name"] for r in report.standings if r["withdrawn"]] == ["Anna"]
    assert report.counted == 2


def test_stored_standing_rows_are_compared():
    doc = hand_made(3)
    rows = verify_document(doc).standings
    doc["standings"] = [{"name": r["name"], "rank": r["rank"], "net": r["net"], "deals": r["deals"]} for r in rows]
    assert verify_document(doc).compared_rows == 5
    doc["standings"][2]["net"] += 1
    with pytest.raises(Disagreement, match=r"standings row 3 \(" + rows[2]["name"]):
        verify_document(doc)


def test_a_broken_prev_hash_link_is_named():
    doc = hand_made(2)
    doc["rounds"][1]["revisions"][0]["prev_hash"] = "0" * 64
    with pytest.raises(Disagreement, match=r"session 1, Table 1, deal 2, revision 1: broken hash link: prev_hash"):
        verify_document(doc)


@pytest.mark.parametrize("doc, why", [
    ({"format": "something else"}, "not a tournament document"),
    ({"format": "gupai-club.tournament", "version": 9}, "version 9"),
    ({"format": "gupai-club.tournament", "version": 1, "tournament": {"game": "chess"}}, "no game"),
])
def test_what_is_no_tournament_document_is_unreadable(doc, why):
    with pytest.raises(Unreadable, match=why):
        verify_document(doc)


def test_the_command_answers_2_for_a_file_it_cannot_read(tmp_path):
    (tmp_path / "x.json").write_text("{not json")
    code, _, err = run(["verify", str(tmp_path / "x.json")])
    assert code == 2 and "is not a tournament document: not JSON" in err
    code, _, err = run(["verify", str(tmp_path / "missing.json")])
    assert code == 2 and "cannot be read" in err


# --- real exports ---------------------------------------------------------------------------------

@pytest.fixture
def exported(make_setup, tmp_path):
    """A real tournament exported by the app: two sessions, two tables, five deals with
    corrections (by the scorer, by a director after confirmation), confirmations, disputes and a
    void; written to a file."""
    from scoring.selectors.exports import tournament_export
    from tests.scoring.services.test_exports import play

    def make(game: str = "jie_long", **setup):
        tournament = play(make_setup(game, **setup))
        doc = json.loads(json.dumps(tournament_export(tournament)))
        path = tmp_path / f"{game}.json"
        path.write_text(json.dumps(doc))
        return tournament, doc, path
    return make


def write(path: Path, doc: dict) -> str:
    path.write_text(json.dumps(doc))
    return str(path)


@pytest.mark.django_db
@pytest.mark.parametrize("game, setup", [("jie_long", {}), ("tau_ngau", {"variant": {"settlement": "v1"}}),
                                         ("da_ling", {"names": ["P1", "P2"]})])
def test_a_real_export_verifies(exported, game, setup):
    _, doc, path = exported(game, **setup)
    done = subprocess_run("-m", "games", "verify", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"games verify: {path} verifies" in done.stdout
    players = len(doc["entries"])
    assert "2 sessions, 2 tables, 5 deals (4 counted, 1 voided), 7 revisions re-evaluated" in done.stdout
    assert "7 hash links verified" in done.stdout
    assert f"{players} standings rows ranked by net, wins, average place" in done.stdout
    assert "payouts settle every balance; zero-sum:" in done.stdout


@pytest.mark.django_db
def test_a_changed_net_a_broken_hash_and_a_changed_standing_are_named(exported, tmp_path):
    from scoring.selectors.standings import standings_for

    tournament, doc, path = exported("jie_long")
    forged = copy.deepcopy(doc)
    seats = forged["rounds"][1]["revisions"][0]["result"]["seats"]
    seats[0]["net"] += 5
    seats[1]["net"] -= 5                              # still zero-sum: only the engine tells
    done = subprocess_run("-m", "games", "verify", write(tmp_path / "net.json", forged))
    stored = [s["net"] for s in seats]
    assert done.returncode == 1
    assert (f"does not verify: session 1, Table 1, deal 2, revision 1: stored nets {stored} but the engine gives "
            f"{[stored[0] - 5, stored[1] + 5, *stored[2:]]} (rounds[1].revisions[0].result)") in done.stdout

    broken = copy.deepcopy(doc)
    broken["rounds"][0]["revisions"][1]["reason"] = "nothing happened"   # its hash no longer covers it
    code, out, _ = run(["verify", write(tmp_path / "hash.json", broken)])
    assert code == 1 and "session 1, Table 1, deal 1, revision 2: broken hash link: stored hash" in out

    with_rows = copy.deepcopy(doc)
    with_rows["standings"] = [{"name": r["name"], "rank": r["rank"], "net": r["net"], "deals": r["deals"],
                               "wins": r["wins"]} for r in standings_for(tournament)]
    code, out, _ = run(["verify", write(tmp_path / "rows.json", with_rows)])
    assert code == 0 and "(4 stored rows agree)" in out
    with_rows["standings"][1]["deals"] += 1
    code, out, _ = run(["verify", write(tmp_path / "rows.json", with_rows)])
    assert code == 1 and f"standings row 2 ({with_rows['standings'][1]['name']}): stored" in out


@pytest.mark.django_db
def test_the_verifier_imports_no_django_and_no_app(exported):
    """Neither Django nor the site's code is loaded: ``sys.modules`` after a whole run, and
    ``-X importtime``'s list of every module imported."""
    _, _, path = exported("ding_niu")
    probe = ("import sys; from games.cli import main; code = main(['verify', sys.argv[1]]); "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in "
             "('django', 'scoring', 'gupai_site', 'rest_framework', 'celery'))); sys.exit(code)")
    done = subprocess_run("-c", probe, str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
    timed = subprocess_run("-X", "importtime", "-m", "games", "verify", str(path))
    assert timed.returncode == 0
    imported = {line.split("|")[-1].strip() for line in timed.stderr.splitlines() if line.startswith("import time:")}
    assert "games.verify" in imported
    assert not {m for m in imported if m.split(".")[0] in ("django", "scoring", "gupai_site")}


@pytest.mark.django_db
def test_a_real_export_with_an_adjustment_and_a_substitution_verifies(make_setup, director_actor, tmp_path):
    """The site's own evening (tests/scoring/services/test_exports_restore.py): a latecomer takes a
    seat from a deal on, a fine is in force and another was deleted. The verifier's standings and
    payouts are the server's."""
    from scoring.selectors.exports import tournament_export
    from scoring.selectors.payouts import payouts_made
    from scoring.selectors.standings import standings_for
    from tests.scoring.services.test_exports_restore import evening

    night = evening(make_setup, director_actor)
    doc = json.loads(json.dumps(tournament_export(night.tournament)))
    assert len(doc["adjustments"]) == 1 and len(doc["substitutions"]) == 1
    report = verify_document(doc)
    assert (report.adjustments, report.substitutions) == (1, 1)
    rows = [(r["name"], r["rank"], r["net"], r["deals"], r["wins"], r["withdrawn"]) for r in report.standings]
    assert rows == [(r["name"], r["rank"], r["net"], r["deals"], r["wins"], r["withdrawn"])
                    for r in standings_for(night.tournament)]
    assert [chips for _, _, chips in report.payouts["transfers"]] == [t["chips"] for t in payouts_made(night.tournament)["transfers"]]
    done = subprocess_run("-m", "games", "verify", write(tmp_path / "evening.json", doc))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "; 1 adjustments, 1 substitutions" in done.stdout


def test_withdrawn_is_read_as_withdrawn_at_is():
    doc = hand_made(2)
    doc["entries"][1]["withdrawn"] = True
    doc["entries"][2].update(withdrawn=False, withdrawn_at=None)
    assert [r["name"] for r in verify_document(doc).standings if r["withdrawn"]] == ["Bob"]


# --- the verifier and the server agree ------------------------------------------------------------

GAMES = {"jie_long": {}, "ding_niu": {}, "tau_ngau": {"variant": {"settlement": "v1"}}}
TIE_BREAKS = [["net", "wins", "average_place"], ["net", "head_to_head", "wins"], ["deals", "net"], ["wins"]]


@pytest.mark.django_db
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10_000),
       moves=st.lists(st.sampled_from(["keep", "confirm", "void", "correct"]), min_size=1, max_size=6),
       second=st.integers(0, 3), require_confirmation=st.booleans(), tie_breaks=st.sampled_from(TIE_BREAKS))
def test_the_verifier_and_the_server_agree_on_random_tournaments(make_setup, game, seed, moves, second,
                                                                 require_confirmation, tie_breaks):
    from scoring.domain.records import body_from_record
    from scoring.models import Tournament
    from scoring.selectors.exports import tournament_export
    from scoring.selectors.payouts import payouts_made
    from scoring.selectors.standings import standings_for
    from scoring.services.rounds import round_confirm, round_correct, round_record, round_void
    from scoring.services.seating import session_seat

    s = make_setup(game, require_confirmation=require_confirmation, **GAMES[game])
    Tournament.objects.filter(pk=s.tournament.pk).update(tie_breaks=tie_breaks)
    s.tournament.refresh_from_db()
    d = s.director_actor
    records = iter(simulate(game, deals=2 * len(moves) + second, seed=seed, players=4,
                            variant=s.tournament.variant))

    def body():
        return body_from_record(next(records))

    for move in moves:
        rnd = round_record(actor=d, table=s.table, body=body())
        if move == "confirm":
            round_confirm(actor=d, round=rnd)
        elif move == "void":
            round_void(actor=d, round=rnd, reason="misdeal")
        elif move == "correct":
            round_correct(actor=d, round=rnd, body=body(), reason="a hand mistyped", expected_revision=1)
    if second:
        table2, _ = session_seat(actor=d, tournament=s.tournament, method="balanced", table_size=4,
                                 leftovers="sit_out", seed=str(seed)).tables[0]
        for _ in range(second):
            round_record(actor=d, table=table2, body=body())

    doc = json.loads(json.dumps(tournament_export(s.tournament)))
    doc["tournament"]["tie_breaks"] = tie_breaks     # as format 2 carries them
    report = verify_document(doc)

    def shown(rows):
        return [(r["name"], r["rank"], r["tied"], r["net"], r["deals"], r["wins"], r["average_place"], r["places"])
                for r in rows]
    assert shown(report.standings) == shown(standings_for(s.tournament))
    server = payouts_made(s.tournament)
    names = report.payouts["names"]
    assert [(names[a], names[b], chips, amount) for (a, b, chips), amount
            in zip(report.payouts["transfers"], report.payouts["money"].amounts, strict=True)] == [
        (t["from_name"], t["to_name"], t["chips"], t["amount"]) for t in server["transfers"]]


def test_standard_input_is_read_with_a_dash():
    out, err = io.StringIO(), io.StringIO()
    code = main(["verify", "-"], out=out, err=err, stdin=io.StringIO(json.dumps(hand_made(2))))
    assert code == 0 and "games verify: - verifies" in out.getvalue()
    assert "1 session, 1 table, 2 deals (2 counted, 0 voided), 2 revisions" in out.getvalue()
