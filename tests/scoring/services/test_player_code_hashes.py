"""Players' codes as stored (``domain.code_hashes``, ``selectors.players.code_keys``,
``services.players``): a keyed hash under the server's key, a code stored by PBKDF2 before it
still proving the player (and then stored again under the key), and the cards of a whole
tournament issued in the same queries for 4 players or 40."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from scoring.domain import code_hashes
from scoring.domain.proof import PlayerProof
from scoring.models import Entry, Player
from scoring.selectors.players import code_keys, entry_code_matches
from scoring.services.clubs import player_create
from scoring.services.players import entry_code_issue, entry_codes_issue
from scoring.services.rounds import round_record
from scoring.services.tournaments import entry_create

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


@pytest.fixture
def proof(make_setup):
    return make_setup("jie_long", require_confirmation=True, require_proof=True)


def stored(entry) -> Entry:
    """The entry as stored, with its player (whose code it is)."""
    return Entry.objects.select_related("player").get(pk=entry.pk)


def test_a_code_is_stored_as_a_keyed_hash(proof):
    code = entry_code_issue(actor=proof.director_actor, entry=proof.entries[0])
    anna = stored(proof.entries[0])
    prefix, kid, salt, digest = anna.player.code_hash.split("$")
    assert (prefix, kid) == ("hmac_sha256", code_hashes.key_id(code_keys()[0])) and len(digest) == 64
    assert code not in anna.player.code_hash
    assert entry_code_matches(anna, code)
    assert not entry_code_matches(anna, "000000" if code != "000000" else "111111")
    # the same code for another player is another hash (a salt each)
    assert code_hashes.code_hash(code, key=code_keys()[0]) != anna.player.code_hash


def test_the_key_matters(proof, settings):
    code = entry_code_issue(actor=proof.director_actor, entry=proof.entries[0])
    anna = stored(proof.entries[0])
    old = settings.SECRET_KEY
    settings.SECRET_KEY = "another-" + "k" * 50
    assert not entry_code_matches(anna, code)   # a hash under a key not given proves nothing
    settings.SECRET_KEY_FALLBACKS = [old]       # SECRET_KEY rotated the Django way: codes kept
    assert entry_code_matches(anna, code)


def test_a_dedicated_key_hashes_and_a_rotated_one_still_verifies(proof, settings):
    settings.PLAYER_CODE_KEY = "first-code-key"
    code = entry_code_issue(actor=proof.director_actor, entry=proof.entries[0])
    kid = stored(proof.entries[0]).player.code_hash.split("$")[1]
    assert kid == code_hashes.key_id(code_hashes.derive_key("first-code-key", dedicated=True))
    settings.PLAYER_CODE_KEY = "second-code-key, first-code-key"   # rotated: the new one first
    assert entry_code_matches(stored(proof.entries[0]), code)
    settings.PLAYER_CODE_KEY = "second-code-key"                  # the old one dropped
    assert not entry_code_matches(stored(proof.entries[0]), code)


def test_a_code_stored_by_pbkdf2_still_proves_the_player_and_is_then_keyed(proof, settings):
    anna = proof.entries[0]
    # as stored before, by Django's default hasher (fewer iterations, read from the stored text)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    Player.objects.filter(pk=anna.player_id).update(code_hash=PBKDF2PasswordHasher().encode("4821", "salt1234", 1000))
    before = stored(anna)
    assert before.player.code_hash.startswith("pbkdf2_sha256$1000$")
    assert entry_code_matches(before, "4821") and not entry_code_matches(before, "4822")
    rnd = round_record(actor=proof.scorer_actor, table=proof.table, body={**JIE_LONG, "entered_by": 0},
                       proof=PlayerProof(code="4821"))
    assert rnd.entered_by_entry_id == anna.pk
    after = stored(anna)
    assert after.player.code_hash.startswith("hmac_sha256$")
    assert after.player.code_version == before.player.code_version
    assert entry_code_matches(after, "4821")


def test_issuing_cards_costs_the_same_queries_for_4_players_or_40(proof, club, django_assert_num_queries):
    with django_assert_num_queries(CARDS):
        entry_codes_issue(actor=proof.director_actor, tournament=proof.tournament)
    for n in range(36):
        player = player_create(actor=proof.director_actor, club=club, name=f"Extra {n:02d}")
        entry_create(actor=proof.director_actor, tournament=proof.tournament, player=player)
    versions = dict(Entry.objects.values_list("pk", "player__code_version"))
    with django_assert_num_queries(CARDS):
        cards = entry_codes_issue(actor=proof.director_actor, tournament=proof.tournament)
    assert len(cards) == 40
    assert all(entry_code_matches(stored(e), code) for e, code in cards)
    # each counted up once (a phone remembering the player under the old code forgets them)
    assert all(stored(e).player.code_version == versions[e.pk] + 1 for e, _ in cards)


#: The director check, the tournament's status, the entries locked, their players locked, the
#: players' codes in one UPDATE, their legacy entry codes ended in one, the log rows in one
#: INSERT, and the transaction's savepoint and its release.
CARDS = 9
