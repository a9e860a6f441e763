"""The hash chain of round revisions. The rule itself (``canonical_json``, ``revision_hash``) is
the engine's (``games.chain``), so that ``python -m games verify`` checks an export with the
very code that wrote it; here, the hash of a stored revision. Shared by the service that writes
revisions and the selector that verifies them."""

from __future__ import annotations

from games.chain import canonical_json, revision_hash, sha256_hex

__all__ = ["canonical_json", "sha256_hex", "revision_hash", "hash_of_revision"]


def hash_of_revision(rev) -> str:
    """Recompute the hash of a stored RoundRevision from its fields."""
    return revision_hash(prev_hash=rev.prev_hash, round_id=rev.round_id, number=rev.number, body=rev.body,
                         record=rev.record, result=rev.result, engine_version=rev.engine_version,
                         actor_label=rev.actor_label, reason=rev.reason, created_at=rev.created_at)
