"""Players' codes and proof in the services: set once by the player, issued and reset by the
director, stored hashed, each with its ActionLog row and where it came from; deals recorded and
confirmed with proof, a code set at first use confirming only what it can (``domain.proof``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.domain.proof import PlayerProof
from scoring.models import ActionLog, Entry, Player, Round
from scoring.selectors.players import entry_code_matches
from scoring.services.players import entry_code_issue, entry_code_reset, entry_code_set, entry_codes_issue
from scoring.services.rounds import round_confirm, round_correct, round_record
from scoring.services.tournaments import tournament_finish

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


@pytest.fixture
def proof(make_setup):
    return make_setup("jie_long", require_confirmation=True, require_proof=True)


def codes(e):
    return [(x["path"], x["code"]) for x in e.value.errors]


def held(entry) -> Player:
    """The entry's player as stored: his code is his (``Player.code_*``)."""
    return Player.objects.get(pk=entry.player_id)


def test_the_code_is_stored_hashed_and_logged_without_it(proof):
    anna = proof.entries[0]
    entry_code_set(actor=proof.scorer_actor, entry=anna, code="4821", code_again="4821")
    stored = held(anna)
    assert stored.code_hash and "4821" not in stored.code_hash and entry_code_matches(Entry.objects.get(pk=anna.pk),
                                                                                       "4821")
    assert stored.code_version == 1
    log = ActionLog.objects.get(action="entry_code_set")
    assert log.data == {"player": anna.player_id, "name": "Anna", "by": "player", "version": 1}
    assert log.actor_label.startswith("scorer of table")


def test_a_player_sets_their_code_once_at_their_own_table(proof, make_setup):
    anna = proof.entries[0]
    with pytest.raises(ValidationFailed) as e:
        entry_code_set(actor=proof.scorer_actor, entry=anna, code="12")
    assert codes(e) == [("code", "bad_code")]
    with pytest.raises(ValidationFailed) as e:
        entry_code_set(actor=proof.scorer_actor, entry=anna, code="1234", code_again="1243")
    assert codes(e) == [("code_again", "codes_differ")]
    entry_code_set(actor=proof.scorer_actor, entry=anna, code="1234")
    # Nobody at the table takes over a code once set: only the director changes it.
    with pytest.raises(Conflict) as e:
        entry_code_set(actor=proof.scorer_actor, entry=anna, code="9999")
    assert codes(e) == [("code", "code_already_set")]
    other = make_setup("jie_long", names=["Eve", "Finn", "Gus", "Hal"], table_name="Table 2")
    with pytest.raises(PermissionDenied) as e:
        entry_code_set(actor=other.scorer_actor, entry=proof.entries[1], code="1234")
    assert codes(e) == [("", "not_at_table")]
    entry_code_set(actor=proof.director_actor, entry=anna, code="9999")   # the director may
    assert entry_code_matches(Entry.objects.get(pk=anna.pk), "9999")


def test_the_director_issues_and_resets_codes_each_logged(proof):
    anna = proof.entries[0]
    code = entry_code_issue(actor=proof.director_actor, entry=anna)
    assert len(code) == 6 and code.isdigit() and entry_code_matches(Entry.objects.get(pk=anna.pk), code)
    cards = entry_codes_issue(actor=proof.director_actor, tournament=proof.tournament)
    assert [e.player.name for e, _ in cards] == ["Anna", "Bob", "Celine", "Dominic"]
    assert all(entry_code_matches(Entry.objects.get(pk=e.pk), c) for e, c in cards)
    assert ActionLog.objects.filter(action="entry_code_issue").count() == 5
    before = held(anna).code_version
    entry_code_reset(actor=proof.director_actor, entry=anna)
    after = held(anna)
    assert after.code_hash == "" and after.code_version == before + 1
    assert ActionLog.objects.get(action="entry_code_reset").data["by"] == "director"
    with pytest.raises(PermissionDenied):
        entry_code_issue(actor=proof.scorer_actor, entry=anna)
    with pytest.raises(PermissionDenied):
        entry_code_reset(actor=proof.scorer_actor, entry=anna)
    tournament_finish(actor=proof.director_actor, tournament=proof.tournament)
    with pytest.raises(Conflict):
        entry_code_issue(actor=proof.director_actor, entry=anna)


def test_a_phone_remembering_a_player_proves_them_until_their_code_changes(proof):
    anna = proof.entries[0]
    entry_code_set(actor=proof.director_actor, entry=anna, code="1111")
    version = held(anna).code_version
    rnd = round_record(actor=proof.scorer_actor, table=proof.table, body={**JIE_LONG, "entered_by": 0},
                       proof=PlayerProof(remembered=(anna.player_id, version)))
    assert rnd.entered_by_entry_id == anna.pk
    entry_code_reset(actor=proof.director_actor, entry=anna)
    with pytest.raises(PermissionDenied) as e:
        round_record(actor=proof.scorer_actor, table=proof.table, body={**JIE_LONG, "entered_by": 0},
                     proof=PlayerProof(remembered=(anna.player_id, version)))
    assert codes(e) == [("entered_by_code", "player_proof_required")]
    # A memory of another player proves nothing for this seat.
    with pytest.raises(PermissionDenied):
        round_record(actor=proof.scorer_actor, table=proof.table, body={**JIE_LONG, "entered_by": 1},
                     proof=PlayerProof(remembered=(anna.player_id, version + 1)))


def test_proof_required_refuses_a_scorer_without_it(proof):
    with pytest.raises(PermissionDenied) as e:
        round_record(actor=proof.scorer_actor, table=proof.table, body={**JIE_LONG, "entered_by": 0})
    assert codes(e) == [("entered_by_code", "player_proof_required")]


def test_a_proven_enterer_stays_through_a_scorers_correction(proof):
    for entry, code in zip(proof.entries, ["1111", "2222", "3333", "4444"]):
        entry_code_set(actor=proof.director_actor, entry=entry, code=code)
    rnd = round_record(actor=proof.scorer_actor, table=proof.table, body={**JIE_LONG, "entered_by": 0},
                       proof=PlayerProof(code="1111"))
    # Else whoever holds the link could name another enterer, then confirm as the real one.
    with pytest.raises(ValidationFailed) as e:
        round_correct(actor=proof.scorer_actor, round=rnd, body={**JIE_LONG, "entered_by": 1}, reason="x",
                      expected_revision=1)
    assert codes(e) == [("entered_by", "entered_by_proven")]
    rnd = round_correct(actor=proof.scorer_actor, round=rnd, body={"points": [2, 12, 18, 34]}, reason="swapped",
                        expected_revision=1)
    assert rnd.entered_by_entry_id == proof.entries[0].pk
    rnd = round_correct(actor=proof.director_actor, round=rnd, body={**JIE_LONG, "entered_by": 1}, reason="referee",
                        expected_revision=2)
    assert rnd.entered_by == 1 and rnd.entered_by_entry_id is None   # named by the director: not proven
    with pytest.raises(Conflict) as e:
        round_confirm(actor=proof.scorer_actor, round=rnd, confirmed_by=1, proof=PlayerProof(code="2222"))
    assert codes(e) == [("confirmed_by", "self_confirmation")]
    rnd = round_confirm(actor=proof.scorer_actor, round=rnd, confirmed_by=0, proof=PlayerProof(code="1111"))
    assert rnd.status == "confirmed" and rnd.confirmed_by_entry_id == proof.entries[0].pk


def test_the_enterers_own_phone_cannot_confirm_their_deal(proof):
    anna = proof.entries[0]
    entry_code_set(actor=proof.director_actor, entry=anna, code="1111")
    rnd = round_record(actor=proof.scorer_actor, table=proof.table, body={**JIE_LONG, "entered_by": 0},
                       proof=PlayerProof(code="1111"))
    with pytest.raises(Conflict) as e:
        round_confirm(actor=proof.scorer_actor, round=rnd, confirmed_by=0,
                      proof=PlayerProof(remembered=(anna.player_id, held(anna).code_version)))
    assert codes(e) == [("confirmed_by", "self_confirmation")]


def on(setup, phone: str) -> Actor:
    """The setup's scorer link, acting from ``phone`` (a scorer page's browser session)."""
    return replace(setup.scorer_actor, phone=phone)


def test_a_code_records_where_it_came_from(proof):
    anna, bob = proof.entries[0], proof.entries[1]
    entry_code_set(actor=on(proof, "phone-a"), entry=anna, code="1111")
    stored = held(anna)
    assert (stored.code_origin, stored.code_set_on) == ("first_use", "phone-a") and stored.code_set_at
    entry_code_issue(actor=proof.director_actor, entry=bob)
    entry_code_set(actor=proof.director_actor, entry=anna, code="2222")   # the director's: as good as a card
    assert [(e.code_origin, e.code_set_on, e.code_set_at is not None)
            for e in (held(anna), held(bob))] == [
        ("director", "", True), ("director", "", True)]
    entry_code_reset(actor=proof.director_actor, entry=anna)
    stored = held(anna)
    assert (stored.code_origin, stored.code_set_at, stored.code_set_on) == ("", None, "")


def test_a_phone_speaking_for_another_player_sets_no_first_code(proof):
    anna, bob, celine = proof.entries[0], proof.entries[1], proof.entries[2]
    with pytest.raises(PermissionDenied) as e:
        entry_code_set(actor=on(proof, "phone-a"), entry=bob, code="2222", proven_here={anna.player_id})
    assert codes(e) == [("code", "phone_proves_another_player")]
    entry_code_set(actor=on(proof, "phone-a"), entry=anna, code="1111", proven_here={anna.player_id})   # her own
    # A phone that entered a deal as Anna, even one that forgot her since.
    rnd = round_record(actor=on(proof, "phone-a"), table=proof.table, body={**JIE_LONG, "entered_by": 0},
                       proof=PlayerProof(code="1111"))
    assert rnd.entered_on == "phone-a"
    with pytest.raises(PermissionDenied) as e:
        entry_code_set(actor=on(proof, "phone-a"), entry=celine, code="3333")
    assert codes(e) == [("code", "phone_proves_another_player")]
    assert not held(celine).code_hash
    entry_code_set(actor=on(proof, "phone-c"), entry=celine, code="3333")   # her own phone


def test_a_first_use_code_confirms_only_a_deal_entered_after_it_from_another_phone(proof):
    anna, bob, celine, dominic = proof.entries
    entry_code_set(actor=on(proof, "phone-a"), entry=anna, code="1111")
    entry_code_set(actor=on(proof, "phone-b"), entry=bob, code="2222")
    rnd = round_record(actor=on(proof, "phone-a"), table=proof.table, body={**JIE_LONG, "entered_by": 0},
                       proof=PlayerProof(code="1111"))
    entry_code_set(actor=on(proof, "phone-c"), entry=celine, code="3333")   # after the deal
    with pytest.raises(PermissionDenied) as e:
        round_confirm(actor=on(proof, "phone-c"), round=rnd, confirmed_by=2, proof=PlayerProof(code="3333"))
    assert codes(e) == [("confirmed_by_code", "code_set_after_deal")]
    # Entered through the API (no phone known): a first-use code is not known to come from another.
    api_deal = round_record(actor=proof.scorer_actor, table=proof.table, body={**JIE_LONG, "entered_by": 0},
                            proof=PlayerProof(code="1111"))
    with pytest.raises(PermissionDenied) as e:
        round_confirm(actor=on(proof, "phone-b"), round=api_deal, confirmed_by=1, proof=PlayerProof(code="2222"))
    assert codes(e) == [("confirmed_by_code", "code_set_on_entering_phone")]
    assert Round.objects.filter(status="confirmed").count() == 0
    rnd = round_confirm(actor=on(proof, "phone-a"), round=rnd, confirmed_by=1, proof=PlayerProof(code="2222"))
    assert (rnd.status, rnd.confirmed_by_entry_id) == ("confirmed", bob.pk)
    # A card confirms whatever phone entered the deal and whenever it was issued.
    card = entry_code_issue(actor=proof.director_actor, entry=dominic)
    api_deal = round_confirm(actor=proof.scorer_actor, round=api_deal, confirmed_by=3, proof=PlayerProof(code=card))
    assert api_deal.confirmed_by_entry_id == dominic.pk
