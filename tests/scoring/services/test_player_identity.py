"""One identity per player in a club (``Player.code_*``, ``scoring.services.players``): a code set
in one tournament proves the player in the club's next one and not in another club's; a phone's
memory of him holds there too; a reset or a new code ends it everywhere; an entry's legacy code
(from before codes moved to the player) proves him in its tournament only, until the director
changes his code."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.domain import code_hashes
from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied
from scoring.domain.proof import PlayerProof
from scoring.models import Entry, Player
from scoring.selectors.players import code_keys, entry_code_matches, has_code, player_remembered, proving_code
from scoring.services.auth import director_create
from scoring.services.clubs import club_create, player_create
from scoring.services.players import entry_code_issue, entry_code_reset, entry_code_set, entry_codes_issue
from scoring.services.rounds import round_confirm, round_record
from scoring.services.tables import table_create
from scoring.services.tournaments import entry_create, tournament_create, tournament_start

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


@pytest.fixture
def a(make_setup):
    return make_setup("jie_long", require_confirmation=True, require_proof=True)


@pytest.fixture
def b(make_setup, a):
    """The club's next tournament: the same four players, new entries."""
    return make_setup("jie_long", require_confirmation=True, require_proof=True)


def codes(e):
    return [(x["path"], x["code"]) for x in e.value.errors]


def fresh(entry) -> Entry:
    return Entry.objects.select_related("player").get(pk=entry.pk)


def on(setup, phone: str) -> Actor:
    return replace(setup.scorer_actor, phone=phone)


def record(setup, seat: int, proof: PlayerProof, phone: str = ""):
    return round_record(actor=on(setup, phone), table=setup.table, body={**JIE_LONG, "entered_by": seat}, proof=proof)


def other_club_entry(name: str) -> Entry:
    """A player of the same name in another club, seated at a running tournament of it."""
    actor = Actor(user=director_create(username="bruno", password="bruno-secret-1"))
    club = club_create(actor=actor, name="Other Club")
    t = tournament_create(actor=actor, club=club, name="Elsewhere", game="jie_long", require_proof=True)
    entries = [entry_create(actor=actor, tournament=t, player=player_create(actor=actor, club=club, name=n))
               for n in [name, "X2", "X3", "X4"]]
    table_create(actor=actor, tournament=t, name="T1", entries=entries)
    tournament_start(actor=actor, tournament=t)
    return fresh(entries[0])


def test_a_code_set_in_one_tournament_proves_the_player_in_the_clubs_next_and_not_in_another_club(a, b):
    anna_a, anna_b = a.entries[0], b.entries[0]
    assert anna_a.player_id == anna_b.player_id and anna_a.pk != anna_b.pk
    entry_code_set(actor=on(a, "phone-a"), entry=anna_a, code="4821", code_again="4821")   # first use, at A
    assert has_code(fresh(anna_b)) and entry_code_matches(fresh(anna_b), "4821")
    rnd = record(b, 0, PlayerProof(code="4821"), phone="phone-a")
    assert rnd.entered_by_entry_id == anna_b.pk
    # Set at first use: nobody at B's table sets it again (only the director changes it).
    with pytest.raises(Conflict) as e:
        entry_code_set(actor=on(b, "phone-x"), entry=anna_b, code="1111")
    assert codes(e) == [("code", "code_already_set")]
    elsewhere = other_club_entry("Anna")
    assert not has_code(elsewhere) and not entry_code_matches(elsewhere, "4821")


def test_a_phone_proven_in_one_tournament_knows_him_in_the_next_until_a_reset(a, b):
    anna_a, anna_b = a.entries[0], b.entries[0]
    entry_code_issue(actor=a.director_actor, entry=anna_a)
    memory = (anna_a.player_id, fresh(anna_a).player.code_version)   # what the phone keeps at A
    assert record(b, 0, PlayerProof(remembered=memory)).entered_by_entry_id == anna_b.pk
    assert player_remembered(Player.objects.get(pk=anna_a.player_id), memory)
    entry_code_reset(actor=b.director_actor, entry=anna_b)   # reset at B: every phone forgets him, at A too
    for setup in (a, b):
        with pytest.raises(PermissionDenied) as e:
            record(setup, 0, PlayerProof(remembered=memory))
        assert codes(e) == [("entered_by_code", "player_proof_required")]
    assert not player_remembered(Player.objects.get(pk=anna_a.player_id), memory)


def test_a_new_code_from_the_director_ends_the_old_one_in_every_tournament(a, b):
    entry_code_set(actor=a.director_actor, entry=a.entries[0], code="1111")
    entry_codes_issue(actor=b.director_actor, tournament=b.tournament)   # B's cards: new codes for its players
    assert not entry_code_matches(fresh(a.entries[0]), "1111")
    with pytest.raises(PermissionDenied) as e:
        record(a, 0, PlayerProof(code="1111"))
    assert codes(e) == [("entered_by_code", "wrong_player_code")]


def legacy(entry, code: str, *, origin: str = "director") -> None:
    """A code stored on the entry as before migration 0034 (kept there as its legacy code)."""
    Entry.objects.filter(pk=entry.pk).update(legacy_code_hash=code_hashes.code_hash(code, key=code_keys()[0]),
                                             legacy_code_origin=origin)


def test_a_legacy_entry_code_proves_its_tournament_only_until_the_director_resets(a, b):
    anna_a, anna_b = a.entries[0], b.entries[0]
    legacy(anna_a, "2468")
    assert has_code(fresh(anna_a)) and not has_code(fresh(anna_b))
    assert record(a, 0, PlayerProof(code="2468")).entered_by_entry_id == anna_a.pk   # still works where it was set
    with pytest.raises(PermissionDenied) as e:   # not at the next tournament: it was never the player's
        record(b, 0, PlayerProof(code="2468"))
    assert codes(e) == [("entered_by_code", "player_code_not_set")]
    # Someone at A's table may not set a first code over it.
    with pytest.raises(Conflict):
        entry_code_set(actor=on(a, "phone-z"), entry=anna_a, code="1111")
    entry_code_reset(actor=b.director_actor, entry=anna_b)   # a reset anywhere in the club ends it
    assert not has_code(fresh(anna_a)) and fresh(anna_a).legacy_code_hash == ""
    with pytest.raises(PermissionDenied) as e:
        record(a, 0, PlayerProof(code="2468"))
    assert codes(e) == [("entered_by_code", "player_code_not_set")]


def test_a_legacy_code_and_the_players_own_both_prove_where_the_legacy_one_lives(a, b):
    anna_a = a.entries[0]
    legacy(anna_a, "2468", origin="first_use")
    entry_code_set(actor=on(b, "phone-b"), entry=b.entries[0], code="1357")   # his own, at B
    assert entry_code_matches(fresh(anna_a), "1357") and entry_code_matches(fresh(anna_a), "2468")
    # Where a confirmation asks what the code proves, the legacy one keeps its own origin.
    assert proving_code(fresh(anna_a), PlayerProof(code="2468")).legacy
    assert not proving_code(fresh(anna_a), PlayerProof(code="1357")).legacy
    # A card from the director replaces both.
    card = entry_code_issue(actor=a.director_actor, entry=anna_a)
    assert not entry_code_matches(fresh(anna_a), "2468") and not entry_code_matches(fresh(anna_a), "1357")
    assert entry_code_matches(fresh(anna_a), card)


def test_a_legacy_first_use_code_confirms_by_its_own_origin(a):
    anna, bob = a.entries[0], a.entries[1]
    entry_code_set(actor=a.director_actor, entry=anna, code="1111")
    rnd = record(a, 0, PlayerProof(code="1111"), phone="phone-a")
    legacy(bob, "2222", origin="first_use")   # no time, no phone: not known to predate the deal
    with pytest.raises(PermissionDenied) as e:
        round_confirm(actor=on(a, "phone-b"), round=rnd, confirmed_by=1, proof=PlayerProof(code="2222"))
    assert codes(e) == [("confirmed_by_code", "code_set_after_deal")]
    legacy(bob, "2222", origin="director")
    assert round_confirm(actor=on(a, "phone-b"), round=rnd, confirmed_by=1,
                         proof=PlayerProof(code="2222")).confirmed_by_entry_id == bob.pk


def test_a_phone_that_proved_one_player_in_the_club_sets_no_other_players_first_code_anywhere_in_it(a, b):
    anna, bob_b = a.entries[0], b.entries[1]
    with pytest.raises(PermissionDenied) as e:
        entry_code_set(actor=on(b, "phone-a"), entry=bob_b, code="2222", proven_here={anna.player_id})
    assert codes(e) == [("code", "phone_proves_another_player")]
