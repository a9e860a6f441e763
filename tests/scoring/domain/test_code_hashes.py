"""Players' codes as stored (``scoring.domain.code_hashes``): a keyed hash, checked under the key
that made it, a rehash asked for an older key or form."""

from __future__ import annotations

from scoring.domain import code_hashes

KEY = code_hashes.derive_key("a secret", dedicated=False)
OTHER = code_hashes.derive_key("a secret", dedicated=True)   # the same text, another purpose's salt


def test_a_code_matches_under_its_key_only():
    stored = code_hashes.code_hash("4821", key=KEY)
    assert stored.startswith("hmac_sha256$") and "4821" not in stored
    assert code_hashes.keyed_code_matches("4821", stored, keys=[KEY])
    assert code_hashes.keyed_code_matches("4821", stored, keys=[OTHER, KEY])   # found by its key id
    assert not code_hashes.keyed_code_matches("4822", stored, keys=[KEY])
    assert not code_hashes.keyed_code_matches("4821", stored, keys=[OTHER])
    assert KEY != OTHER


def test_other_forms_are_not_keyed_and_ask_for_a_rehash():
    legacy = "pbkdf2_sha256$1000000$salt$hash="
    assert not code_hashes.is_keyed(legacy)
    assert not code_hashes.keyed_code_matches("4821", legacy, keys=[KEY])
    assert code_hashes.needs_rehash(legacy, current=KEY)
    assert code_hashes.needs_rehash(code_hashes.code_hash("4821", key=OTHER), current=KEY)
    assert not code_hashes.needs_rehash(code_hashes.code_hash("4821", key=KEY), current=KEY)
