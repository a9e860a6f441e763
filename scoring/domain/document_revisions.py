"""One revision of a tournament document, believed only once checked. Pure.

Its shape (every key, each value's type and limits, its free JSON bounded) is checked before,
with the whole document's (``document_shape.check_shape``). A document's hashes can be
computed by anyone who knows the format, so they prove that the revisions are linked and
complete, not that their content is true. Each revision is therefore checked, in this order,
each refusal a ValidationFailed at its path with its own code:

1. its place in the chain: ``number`` (``bad_number``), ``prev_hash`` (``broken_chain``),
   ``hash`` (``hash_mismatch``);
2. (its shape, as said);
3. body ↔ record: the body is a deal's body as stored (``bad_body``) and the record is exactly
   what ``records.round_build_record`` makes of it at that table (``record_mismatch``), under
   the names its players had when it was recorded (``recorded_names``);
4. the result says ok and gives every seat a whole net (``bad_result``);
5. **the nets sum to zero, with the house** where the game has one (Da Ling's casino chip,
   the result's ``house``: ``games.deal_balance``): ``not_zero_sum`` — stated as a check of its
   own, although step 6 implies it, so that a forged net is named for what it is;
6. **today's engine re-evaluates the record, whatever ``engine_version`` the revision claims**,
   and must give exactly the stored result: ``result_mismatch`` when the revision claims
   today's version, ``engine_result_differs`` when it claims another.

**An older engine's results (the choice).** A revision stored by another engine version whose
result today's engine computes differently is **refused** (``engine_result_differs``), not
imported with today's result: an import never changes a result, and the version a document
claims is only a claim — accepting an "older" result unchecked is how a forged net of +1,000,000
came in. Revisions of another version that today's engine still agrees with are imported as they
are, their ``engine_version`` kept (the hash covers it; a replay audit notes them). A tournament
whose deals an engine upgrade really changed stays where it was recorded (its audits report the
differences) and cannot be moved by export and import.

What is stored is what the checks produced: the body understood, the record built and the
engine's own result — equal to the document's, so no junk can ride along in them.
"""

from __future__ import annotations

import json

import games
from scoring.domain.document_values import fail, moment
from scoring.domain.documents import DocRevision, document_hash
from scoring.domain.inputs import MAX_PLAYER_NAME, is_int
from scoring.domain.records import is_seat, round_build_record


def recorded_names(record: object, body: object, names: list[str], game: str) -> list[str]:
    """The table's players by position as the revision's record names them. A player renamed
    since (``services.clubs.player_rename``) is under their new name in the document's players,
    while the records stored before keep the name of then (they are immutable and hash-chained),
    so a record may differ from ``names`` by names alone; then they are the record's seats, put
    back in table order. ``names`` when the record names no usable seats (distinct non-blank
    names of a player's length, one per seat): the checks that follow then refuse it. Names are
    labels only: the nets go to seats by position."""
    seats = record.get("seats") if isinstance(record, dict) else None
    n = len(names)
    if (not isinstance(seats, list) or len(seats) != n or len(set(map(repr, seats))) != n
            or not all(isinstance(x, str) and x.strip() and len(x) <= MAX_PLAYER_NAME for x in seats)):
        return names
    lead = body.get("leader", 0) if games.get_game(game).has_leader and isinstance(body, dict) else 0
    if not is_seat(lead, n):
        return names
    by_position = [""] * n
    for i, seat_name in enumerate(seats):   # record seat i is table position lead + i
        by_position[(lead + i) % n] = seat_name
    return by_position


def check_revision(r: dict, path: str, *, number: int, round_id: int, prev_hash: str, game: str, variant: dict,
                   names: list[str]) -> tuple[DocRevision, str]:
    """Revision ``number`` of the document's round ``round_id`` at a table of ``names`` (by
    position), checked; with its hash, the next revision's ``prev_hash``. Its shape is checked
    already (``document_shape.check_shape``)."""
    if r["number"] != number:
        fail(f"{path}.number", "bad_number", f"Revision {number} is expected here.")
    engine_version, actor, reason = r["engine_version"], r["actor"], r["reason"]
    created_at = moment(r["created_at"])
    if r["prev_hash"] != prev_hash:
        fail(f"{path}.prev_hash", "broken_chain", "This is not the hash of the previous revision.")
    if r["hash"] != document_hash(prev_hash=prev_hash, round_id=round_id, revision=r, created_at=created_at):
        fail(f"{path}.hash", "hash_mismatch", "The revision does not match its hash.")

    names = recorded_names(r["record"], r["body"], names, game)
    built = round_build_record(game=game, variant=variant, names=names, body=r["body"], defaults={})
    if built.errors or built.body != r["body"]:
        fail(f"{path}.body", "bad_body", "This is not a deal's body as stored.")
    if built.record != r["record"]:
        fail(f"{path}.record", "record_mismatch", "The record does not follow from the body and the table.")
    result = r["result"]
    if result.get("ok") is not True:
        fail(f"{path}.result", "bad_result", "The result of a stored deal says ok.")
    seats = result.get("seats")
    nets = [seat.get("net") if isinstance(seat, dict) else None for seat in seats] if isinstance(seats, list) else []
    if len(nets) != len(names) or not all(is_int(x) for x in nets):
        fail(f"{path}.result", "bad_result", "The result has a whole net for every seat.")
    house = result.get("house", 0)
    if not is_int(house):
        fail(f"{path}.result.house", "bad_result", "The house's take is a whole number.")
    balance = games.deal_balance(result)
    if balance != 0:
        fail(f"{path}.result", "not_zero_sum",
             f"The nets{' and the house' if house else ''} sum to {balance}, not 0: every deal sums to zero.")

    again = json.loads(json.dumps(games.evaluate(built.record)))   # as a JSON column holds it
    if again != result:
        if engine_version == games.ENGINE_VERSION:
            fail(f"{path}.result", "result_mismatch", "The engine does not give this result for this record.")
        fail(f"{path}.result", "engine_result_differs",
             f"Today's engine ({games.ENGINE_VERSION}) does not give this result for this record (the revision "
             f"says engine {engine_version}); an import never changes a result.")
    rev = DocRevision(number=number, body=built.body, record=built.record, result=again,
                      engine_version=engine_version, actor=actor, reason=reason, created_at=created_at)
    return rev, r["hash"]
