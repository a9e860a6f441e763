"""The hash chain of round revisions: one sha256 per revision over canonical JSON of its content
and the previous revision's hash. Shared by the service that writes revisions and the selector
that verifies them."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def revision_hash(*, prev_hash: str, round_id: int, number: int, body: Any, record: Any, result: Any,
                  engine_version: str, actor_label: str, reason: str, created_at: datetime) -> str:
    return sha256_hex(canonical_json({
        "prev_hash": prev_hash,
        "round": round_id,
        "number": number,
        "body": body,
        "record": record,
        "result": result,
        "engine_version": engine_version,
        "actor": actor_label,
        "reason": reason,
        "created_at": created_at.isoformat(),
    }))


def hash_of_revision(rev) -> str:
    """Recompute the hash of a stored RoundRevision from its fields."""
    return revision_hash(prev_hash=rev.prev_hash, round_id=rev.round_id, number=rev.number, body=rev.body,
                         record=rev.record, result=rev.result, engine_version=rev.engine_version,
                         actor_label=rev.actor_label, reason=rev.reason, created_at=rev.created_at)
