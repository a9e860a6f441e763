"""Players' personal codes as stored: a keyed hash (HMAC-SHA256 under a server key), not a
password hash.

Why not PBKDF2 (Django's password hashers, which stored them before): a code is 4 to 6 digits,
at most a million values, so no iteration count makes a stolen hash safe to an offline guesser
(a million PBKDF2 checks are one GPU-minute), while each costs the server about 0.25 s: 60
player cards took 15.6 s in one request. What protects a code is that it is guessed
online only, against the per-player allowance of wrong codes (``scoring.web.throttling``), and
that the database alone does not let anyone test a guess: the HMAC key lives in the server's
settings, never in the database. With the key, a hash costs microseconds.

Stored form: ``hmac_sha256$<key id>$<salt>$<hex digest>``; the salt (random per code) keeps two
players with the same code from having the same hash, the key id (a fingerprint of the key,
never the key) says which key made it. The key is derived with HKDF-SHA256 (``derive_key``)
from ``PLAYER_CODE_KEY`` when set, else from ``SECRET_KEY``, with this purpose as its ``info``,
so the same text never serves as two keys. Rotation: the first key hashes, every key given
verifies (the settings pass the previous ones: see ``scoring.selectors.players.code_keys``), and
a code checked under an older key (or stored by PBKDF2) is stored again under the current one.
A code whose key is no longer given does not verify: the director issues new cards.

Pure: no settings are read here; the keys are the caller's.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

PREFIX = "hmac_sha256"
_PURPOSE = b"gupai-club player codes v1"


def derive_key(material: str, *, dedicated: bool) -> bytes:
    """The 32-byte HMAC key from a setting's text: ``dedicated`` for ``PLAYER_CODE_KEY``, else
    ``SECRET_KEY`` (another salt, so the two never derive the same key)."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"code-key" if dedicated else b"secret-key",
                info=_PURPOSE).derive(material.encode("utf-8"))


def key_id(key: bytes) -> str:
    """A short fingerprint naming ``key`` in the stored hashes (it tells nothing of the key)."""
    return hashlib.sha256(b"key id\x00" + key).hexdigest()[:8]


def _digest(key: bytes, salt: str, code: str) -> str:
    return hmac.new(key, f"{salt}${code}".encode(), hashlib.sha256).hexdigest()


def code_hash(code: str, *, key: bytes, salt: str | None = None) -> str:
    """``code`` as stored, under ``key``."""
    salt = salt or secrets.token_hex(8)
    return f"{PREFIX}${key_id(key)}${salt}${_digest(key, salt, code)}"


def is_keyed(stored: str) -> bool:
    """Whether ``stored`` is in this module's form (else an older, password-hasher form)."""
    return stored.startswith(PREFIX + "$")


def keyed_code_matches(code: str, stored: str, *, keys: list[bytes]) -> bool:
    """Whether ``code`` is the code ``stored`` holds, under whichever of ``keys`` made it (false
    when none of them did, or ``stored`` is not in this form)."""
    parts = stored.split("$")
    if len(parts) != 4 or parts[0] != PREFIX:
        return False
    _prefix, kid, salt, digest = parts
    for key in keys:
        if key_id(key) == kid:
            return hmac.compare_digest(_digest(key, salt, code), digest)
    return False


def needs_rehash(stored: str, *, current: bytes) -> bool:
    """Whether ``stored`` should be stored again under the ``current`` key (after a successful
    check): an older form, or another key."""
    return not (is_keyed(stored) and stored.split("$")[1] == key_id(current))
