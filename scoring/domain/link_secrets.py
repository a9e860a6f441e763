"""A scorer link's secret kept while its session is open, so that the director's sheet can show
the link (and its QR code) again: the plain token encrypted with a server key (Fernet: AES-128-CBC
and an HMAC-SHA256, so a changed or forged value is refused, never decrypted to garbage).

The table is still found by the token's sha256 (``Table.scorer_token_hash``); this secret is
only read to show the link. The key is ``LINK_KEY`` when set (any text, e.g. from
``python -c "import secrets; print(secrets.token_urlsafe(32))"``), else derived from
``SECRET_KEY``; either way through HKDF-SHA256 with this purpose as its ``info``, so the same
text never serves as two keys. A changed key makes the kept secrets unreadable: the sheet then
says so and offers new links (``unseal`` answers None).
"""

from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

_PURPOSE = b"gupai-club scorer link secrets v1"


@lru_cache(maxsize=4)
def _fernet(secret_key: str, link_key: str) -> Fernet:
    material = (link_key or secret_key).encode("utf-8")
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"link-key" if link_key else b"secret-key",
                   info=_PURPOSE).derive(material)
    return Fernet(base64.urlsafe_b64encode(derived))


def seal(token: str, *, secret_key: str, link_key: str = "") -> str:
    """The token encrypted (text, about 140 characters for a 32-character token)."""
    return _fernet(secret_key, link_key).encrypt(token.encode("utf-8")).decode("ascii")


def unseal(secret: str | None, *, secret_key: str, link_key: str = "") -> str | None:
    """The plain token, or None when there is none kept or it cannot be read (another key)."""
    if not secret:
        return None
    try:
        return _fernet(secret_key, link_key).decrypt(secret.encode("ascii")).decode("utf-8")
    except (InvalidToken, ValueError):
        return None
