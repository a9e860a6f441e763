"""The hash chain of a deal's revisions: one sha256 per revision over canonical JSON of its
content and the previous revision's hash. The one rule, shared by the site (which writes and
audits revisions, ``scoring.domain.chain``) and ``verify`` (which checks an export's chain
without the site)."""

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
