"""A backup restores everything (``scoring.domain.documents``, version 2): the settings, two
sessions (one closed, with its clock), a withdrawal, a late deal and an after-time deal, an
adjustment (a deleted one left out) and a substitution come back
exactly (export → import → export gives the same document, apart from the marks an import adds),
no secret of the tournament is ever in the document, a version 1 document still imports, and an
import is not rated unless its director asks for it."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import TestCase
from django.utils import timezone

from scoring.domain.actors import Actor
from scoring.domain.document_schema import KEYS, KEYS_1
from scoring.domain.documents import imported_label
from scoring.domain.errors import ValidationFailed
from scoring.models import (
    ActionLog,
    Adjustment,
    Entry,
    PlayerRating,
    RatedDeal,
    Round,
    Seat,
    Session,
    Substitution,
    Table,
    Tournament,
)
from scoring.selectors.exports import tournament_export
from scoring.selectors.players import has_code
from scoring.selectors.standings import standings_for
from scoring.services.adjustments import adjustment_create, adjustment_delete
from scoring.services.clubs import player_create
from scoring.services.exports import tournament_import
from scoring.services.players import entry_codes_issue
from scoring.services.ratings import ratings_follow
from scoring.services.roster import entry_withdraw
from scoring.services.rounds import round_record
from scoring.services.seating import session_seat
from scoring.services.sessions import session_clock_start
from scoring.services.substitutions import table_substitute
from scoring.services.tournaments import entry_create, tournament_update

from .test_exports import as_imported, export, followed, import_, imported, without_time

pytestmark = pytest.mark.django_db

FIRST = {"leader": 0, "points": [2, 12, 34, 18]}
THREE = {"leader": 0, "points": [2, 12, 34]}
#: A version 1 document as the site wrote it before version 2 (a Jie Long evening: four deals,
#: one corrected, one confirmed, one voided; the tournament finished).
FORMAT_1 = Path(__file__).parent / "documents" / "format-1.json"


@dataclass
class Evening:
    tournament: Tournament
    withdrawn: Entry
    secrets: list[str]   # every secret value the tournament holds
    substitution: Substitution


def evening(make_setup, director_actor) -> Evening:
    """Session 1 (closed by the seating of session 2), its clock run out: a deal in time, one
    after time, one late (a director's, once the session was closed); a player withdrawn before
    session 2, which seats the other three; the players' codes issued; settings changed."""
    s = make_setup("jie_long")
    d = director_actor
    t = s.tournament
    codes = entry_codes_issue(actor=d, tournament=t)
    round_record(actor=d, table=s.table, body={**FIRST, "entered_by": 0})
    session1 = s.table.session
    session_clock_start(actor=d, session=session1, minutes=30)
    now = timezone.now()
    Tournament.objects.filter(pk=t.pk).update(created_at=now - timedelta(hours=2), started_at=now - timedelta(hours=1))
    Session.objects.filter(pk=session1.pk).update(clock_started_at=now - timedelta(minutes=40),
                                                  clock_ends_at=now - timedelta(minutes=10))   # run out
    after_time = round_record(actor=d, table=s.table, body={**FIRST, "entered_by": 1})
    assert after_time.after_time
    withdrawn = entry_withdraw(actor=d, entry=s.entries[3])
    seated = session_seat(actor=d, tournament=t, method="balanced", table_size=3, leftovers="sit_out", seed="7")
    table2, token2 = seated.tables[0]
    late = round_record(actor=d, table=Table.objects.get(pk=s.table.pk), body={**FIRST, "entered_by": 2})
    assert late.late
    round_record(actor=d, table=table2, body={**THREE, "entered_by": 0})
    # a latecomer takes seat 1 of table 2 from its deal 2 on, and plays it
    newcomer = entry_create(actor=d, tournament=t, player=player_create(actor=d, club=t.club, name="Frank"))
    substitution = table_substitute(actor=d, table=table2, seat=1, entry=newcomer.pk)
    round_record(actor=d, table=table2, body={**THREE, "entered_by": 1})
    adjustment_create(actor=d, tournament=t, entry=s.entries[0], amount=-5, reason="late back from the break")
    taken_back = adjustment_create(actor=d, tournament=t, entry=s.entries[1], amount=3, reason="by mistake")
    adjustment_delete(actor=d, adjustment=taken_back)
    tournament_update(actor=d, tournament=t, require_proof=True, tie_breaks=["wins", "net"], chip_value="1.25",
                      currency="USD")
    t.refresh_from_db()
    tables = Table.objects.filter(session__tournament=t)
    entries = Entry.objects.filter(tournament=t)
    secrets = [s.token, token2, *(code for _, code in codes),
               *tables.values_list("scorer_token_hash", flat=True),
               *(x for x in tables.values_list("scorer_token_secret", flat=True) if x),
               *(x for x in entries.values_list("player__code_hash", flat=True) if x),
               *(x for x in entries.values_list("player__code_set_on", flat=True) if x),
               *(x for x in Round.objects.filter(table__session__tournament=t).values_list("entered_on", flat=True)
                 if x)]
    assert len(secrets) >= 2 + 4 + 2 + 4   # two links, four codes, two hashes of links, four of codes
    return Evening(t, withdrawn, secrets, substitution)


@pytest.fixture
def night(make_setup, director_actor) -> Evening:
    return evening(make_setup, director_actor)


def test_an_export_carries_the_whole_state(night, director_client):
    doc = export(director_client, night.tournament)
    assert doc["version"] == 2 and all(tuple(doc[k]) == KEYS[k] if isinstance(doc.get(k), dict) else True
                                       for k in KEYS)
    t = doc["tournament"]
    assert (t["require_proof"], t["rated"], t["tie_breaks"], t["chip_value"], t["currency"]) == (
        True, True, ["wins", "net"], "1.25", "USD")
    s1, s2 = doc["sessions"]
    assert (s1["number"], s1["status"], s2["number"], s2["status"]) == (1, "closed", 2, "open")
    assert s1["closed_at"] and s1["clock_started_at"] < s1["clock_ends_at"] and s2["clock_ends_at"] is None
    assert [e["withdrawn_at"] is not None for e in doc["entries"]] == [False, False, False, True, False]
    assert [e["withdrawn"] for e in doc["entries"]] == [False, False, False, True, False]
    marks = [(r["table"], r["number"], r["late"], r["after_time"]) for r in doc["rounds"]]
    assert marks == [(1, 1, False, False), (1, 2, False, True), (1, 3, True, True), (2, 1, False, False),
                     (2, 2, False, False)]
    # the adjustment in force (the deleted one counts for nothing and is left out)
    assert [(a["player"], a["amount"], a["reason"]) for a in doc["adjustments"]] == [(1, -5, "late back from the break")]
    # table 2's seats as made; the latecomer (entry 5) from deal 2
    sub = night.substitution
    table2 = doc["tables"][1]
    assert doc["substitutions"] == [{"table": 2, "seat": 1, "player": 5, "from_deal": 2}]
    names = {p["id"]: p["name"] for p in doc["players"]}
    assert names[table2["seats"][1]] == sub.entry_out.player.name and names[5] == "Frank"
    seats_of = [r["revisions"][-1]["record"]["seats"] for r in doc["rounds"] if r["table"] == 2]
    assert [s[1] for s in seats_of] == [sub.entry_out.player.name, "Frank"]   # each deal names who played it


def test_no_secret_is_ever_in_an_export(night, director_client):
    text = json.dumps(export(director_client, night.tournament))
    assert [s for s in night.secrets if s in text] == []
    keys = set()

    def walk(value):
        if isinstance(value, dict):
            keys.update(value)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(json.loads(text))
    assert not {k for k in keys if any(w in k for w in ("token", "code", "secret", "phone", "entered_on"))}


def test_import_restores_it_exactly(night, director_client, club, other_director):
    doc = export(director_client, night.tournament)
    # into another club (a fresh site, as a restore would be) and into the same one
    there = tournament_import(actor=Actor(user=other_director), club=other_director.clubs.get(), document=doc)
    here = imported(director_client, club, doc)
    for copy_ in (there, here):
        again = tournament_export(copy_)
        assert without_time(again) == without_time(as_imported(doc))
        # ... and from then on exactly
        assert without_time(tournament_export(tournament_import(
            actor=Actor(user=other_director), club=other_director.clubs.get(), document=again))) == without_time(again)

    # What it means: session 1 is closed (its links record nothing), the withdrawn player is not
    # seated by the next seating, the deals keep their marks.
    one, two = Session.objects.filter(tournament=here).order_by("number")
    assert (one.status, two.status) == ("closed", "open") and one.clock_ends_at < one.closed_at
    gone = Entry.objects.get(tournament=here, player__name=night.withdrawn.player.name)
    assert gone.withdrawn_at == Entry.objects.get(pk=night.withdrawn.pk).withdrawn_at
    seated = session_seat(actor=Actor(user=night.tournament.club.directors.get()), tournament=here,
                          method="balanced", table_size=3, leftovers="sit_out", seed="1")
    assert gone.pk not in {s.entry_id for table, _ in seated.tables for s in table.seats.all()}
    assert sorted(Round.objects.filter(table__session__tournament=here).values_list("late", "after_time")) == sorted(
        Round.objects.filter(table__session__tournament=night.tournament).values_list("late", "after_time"))
    assert (here.require_proof, here.tie_breaks, str(here.chip_value), here.currency) == (
        True, ["wins", "net"], "1.25", "USD")
    # the substitution and the adjustment: the seat is the latecomer's now, each deal credited to
    # who played it, the fine in the net; the standings as the original's
    restored = Substitution.objects.get(table__session__tournament=here)
    assert (restored.entry_out.player.name, restored.entry_in.player.name, restored.seat, restored.from_deal) == (
        night.substitution.entry_out.player.name, "Frank", 1, 2)
    assert Seat.objects.get(table=restored.table, position=1).entry == restored.entry_in
    adjustment = Adjustment.objects.get(tournament=here)
    assert (adjustment.amount, adjustment.created_by_label, adjustment.created_at) == (
        -5, imported_label(Adjustment.objects.get(tournament=night.tournament, deleted_at=None).created_by_label),
        Adjustment.objects.get(tournament=night.tournament, deleted_at=None).created_at)
    assert figures(here) == figures(night.tournament)
    # No code is in the file, but a code is the club's player's: in the same club the copy's
    # players still prove themselves with theirs; in another club nobody has one.
    coded = [e for e in Entry.objects.select_related("player").filter(tournament=night.tournament) if has_code(e)]
    assert coded and all(has_code(Entry.objects.select_related("player").get(tournament=here, player=e.player))
                         for e in coded)
    assert not any(has_code(e) for e in Entry.objects.select_related("player").filter(tournament=there))


@pytest.mark.parametrize("drop", ["withdrawal", "late", "after_time", "closing", "clock", "proof", "tie_breaks"])
def test_each_part_of_the_state_round_trips_on_its_own(night, director_client, other_director, drop):
    """Property-style: the document changed in one part of its state (and re-hashed where that
    changes no revision) imports and exports to itself, as imported."""
    doc = export(director_client, night.tournament)
    changed = copy.deepcopy(doc)
    if drop == "withdrawal":
        changed["entries"][3].update(withdrawn=False, withdrawn_at=None)
    elif drop in ("late", "after_time"):
        for r in changed["rounds"]:
            r[drop] = not r[drop]
    elif drop == "closing":
        changed["sessions"][0].update(status="open")
    elif drop == "clock":
        changed["sessions"][1].update(clock_started_at=changed["sessions"][0]["clock_started_at"],
                                      clock_ends_at=changed["sessions"][0]["clock_ends_at"])
    elif drop == "proof":
        changed["tournament"]["require_proof"] = False
    else:
        changed["tournament"]["tie_breaks"] = ["average_place"]
    copy_ = tournament_import(actor=Actor(user=other_director), club=other_director.clubs.get(), document=changed)
    assert without_time(tournament_export(copy_)) == without_time(as_imported(changed))


def figures(tournament) -> dict[str, tuple]:
    return {r["name"]: (r["net"], r["deals"], r["wins"], r["rank"]) for r in standings_for(tournament)}


def test_a_document_without_withdrawn_imports_and_withdrawn_must_agree(night, director_client, other_director):
    """``withdrawn`` may be left out (documents exported before it was added): withdrawn_at says
    it. Given, it agrees with withdrawn_at."""
    doc = export(director_client, night.tournament)
    older = copy.deepcopy(doc)
    for e in older["entries"]:
        del e["withdrawn"]
    copy_ = tournament_import(actor=Actor(user=other_director), club=other_director.clubs.get(), document=older)
    assert without_time(tournament_export(copy_)) == without_time(as_imported(doc))
    doc["entries"][3]["withdrawn"] = False
    with pytest.raises(ValidationFailed) as refused:
        tournament_import(actor=Actor(user=other_director), club=other_director.clubs.get(), document=doc)
    assert [(e["path"], e["code"]) for e in refused.value.errors] == [("document.entries[3].withdrawn",
                                                                       "withdrawn_mismatch")]


def test_a_version_1_document_still_imports():
    """A real version 1 document, kept as a file: read as version 1 meant it."""
    doc = json.loads(FORMAT_1.read_text())
    assert doc["version"] == 1 and tuple(doc["tournament"]) == KEYS_1["tournament"]


def test_a_version_1_fixture_imports(director_actor, club):
    doc = json.loads(FORMAT_1.read_text())
    t = tournament_import(actor=director_actor, club=club, document=doc)
    again = tournament_export(t)
    assert again["version"] == 2 and not t.rated and not t.public
    assert [s["status"] for s in again["sessions"]] == ["open"] * len(doc["sessions"])
    assert all(e["withdrawn_at"] is None for e in again["entries"])
    assert again["tournament"]["require_proof"] == doc["tournament"]["require_confirmation"]
    assert len(again["rounds"]) == len(doc["rounds"]) and not any(r["late"] or r["after_time"] for r in again["rounds"])
    # its revisions are the version 1 document's, hashes and all (they never covered the new keys)
    assert [r["revisions"] for r in again["rounds"]] == [r["revisions"] for r in as_imported_v1(doc)["rounds"]]


def as_imported_v1(doc: dict) -> dict:
    upgraded = copy.deepcopy(doc)
    upgraded.update(adjustments=[], substitutions=[])
    upgraded["tournament"].update(rated=False, require_proof=False, tie_breaks=["net", "wins", "average_place"])
    for e in upgraded["entries"]:
        e.update(withdrawn=False)
    for r in upgraded["rounds"]:
        r.update(late=False, after_time=False)
    return as_imported(upgraded)


# --- rated or not ---------------------------------------------------------------------------

def ladder(club) -> list[tuple]:
    return sorted(PlayerRating.objects.filter(club=club).values_list("player__name", "mu", "sigma", "deals"))


def test_importing_a_backup_leaves_the_ladder_unchanged(night, director_client, club):
    ratings_follow(club=club)
    before = ladder(club)
    assert before and all(deals for *_, deals in before)
    doc = export(director_client, night.tournament)
    response = import_(director_client, club, doc)
    assert response.json()["rated"] is False
    job = followed(director_client, response)
    assert job["status"] == "done" and job["rated"] is False
    copy_ = Tournament.objects.get(pk=job["tournament"])
    assert not copy_.rated
    ratings_follow(club=club)   # whatever the worker would do next
    assert ladder(club) == before
    assert not RatedDeal.objects.filter(round__table__session__tournament=copy_).exists()
    log = ActionLog.objects.get(action=ActionLog.Action.TOURNAMENT_IMPORT, tournament=copy_)
    assert (log.data["rated"], log.data["rated_in_document"]) == (False, True)


def test_rated_true_rates_it(night, director_client, club):
    ratings_follow(club=club)
    before = dict((name, deals) for name, _, _, deals in ladder(club))
    doc = export(director_client, night.tournament)
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = director_client.post("/api/v1/tournaments/import/",
                                         {"club": club.pk, "document": doc, "rated": True}, format="json")
    assert response.status_code == 202 and response.json()["rated"] is True
    job = followed(director_client, response)
    copy_ = Tournament.objects.get(pk=job["tournament"])
    assert copy_.rated and job["rated"] is True
    after = dict((name, deals) for name, _, _, deals in ladder(club))
    assert after != before and all(after[name] > before[name] for name in before)   # every result counted again
    assert RatedDeal.objects.filter(round__table__session__tournament=copy_).count() == len(doc["rounds"])


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_rated_is_true_or_false(night, director_client, club, value):
    doc = export(director_client, night.tournament)
    response = director_client.post("/api/v1/tournaments/import/", {"club": club.pk, "document": doc,
                                                                    "rated": value}, format="json")
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["rated"]
    assert Tournament.objects.count() == 1


# --- refusals of the state --------------------------------------------------------------------

REFUSED = {
    "an adjustment of nobody entered": (lambda d: d["adjustments"][0].update(player=99),
                                        "document.adjustments[0].player", "not_found"),
    "an adjustment of 0": (lambda d: d["adjustments"][0].update(amount=0), "document.adjustments[0].amount",
                           "zero_amount"),
    "an adjustment without a reason": (lambda d: d["adjustments"][0].update(reason="  "),
                                       "document.adjustments[0].reason", "required"),
    "an adjustment before the tournament": (lambda d: d["adjustments"][0].update(
        created_at="2001-01-01T00:00:00+00:00"), "document.adjustments[0].created_at", "date_order"),
    "a substitution at no such seat": (lambda d: d["substitutions"][0].update(seat=3),
                                       "document.substitutions[0].seat", "bad_seat"),
    "a substitution at no such table": (lambda d: d["substitutions"][0].update(table=9),
                                        "document.substitutions[0].table", "not_found"),
    "a substitution of nobody entered": (lambda d: d["substitutions"][0].update(player=99),
                                         "document.substitutions[0].player", "not_found"),
    "a substitution by the seat's own player": (lambda d: d["substitutions"][0].update(
        player=d["tables"][1]["seats"][1]), "document.substitutions[0].player", "same_entry"),
    "a substitution seating a player twice": (lambda d: d["substitutions"][0].update(
        player=d["tables"][1]["seats"][0]), "document.substitutions", "already_seated"),
    "substitutions out of deal order": (lambda d: d["substitutions"].append(
        {"table": 2, "seat": 1, "player": 4, "from_deal": 1}), "document.substitutions[1].from_deal", "date_order"),
    "a closed session without its time": (lambda d: d["sessions"][0].update(closed_at=None),
                                          "document.sessions[0].closed_at", "needed_for_status"),
    "a clock without its end": (lambda d: d["sessions"][0].update(clock_ends_at=None),
                                "document.sessions[0].clock_ends_at", "bad_clock"),
    "a clock without its start": (lambda d: d["sessions"][0].update(clock_started_at=None),
                                  "document.sessions[0].clock_started_at", "bad_clock"),
    "a clock that ends before it starts": (lambda d: d["sessions"][0].update(
        clock_ends_at=d["sessions"][0]["clock_started_at"]), "document.sessions[0].clock_ends_at", "date_order"),
    "a withdrawal before the tournament": (lambda d: d["entries"][3].update(withdrawn_at="2001-01-01T00:00:00+00:00"),
                                           "document.entries[3].withdrawn_at", "date_order"),
    "a tie-break that may not lead": (lambda d: d["tournament"].update(tie_breaks=["head_to_head"]),
                                      "document.tournament.tie_breaks[0]", "head_to_head_first"),
    "a session status unknown": (lambda d: d["sessions"][1].update(status="paused"), "document.sessions[1].status",
                                 "invalid_choice"),
    "a version 1 key in a version 2 document missing": (lambda d: d["rounds"][0].pop("late"),
                                                        "document.rounds[0].late", "required"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_state_that_cannot_be_is_refused_at_its_path(night, director_client, club, case):
    change, path, code = REFUSED[case]
    doc = export(director_client, night.tournament)
    change(doc)
    response = import_(director_client, club, doc)
    if response.status_code == 400:   # its shape: refused at once, nothing queued
        found = [(e["path"], e["code"]) for e in response.json()["errors"]]
    else:
        job = followed(director_client, response)
        assert job["status"] == "failed"
        found = [(job["error"]["path"], job["error"]["code"])]
    assert found == [(path, code)]
    assert Tournament.objects.count() == 1
