"""The tournament document: a whole tournament as one JSON object (export and import), so that a
backup restores everything. Pure: its format, the shape an import reads it into, and its hash
chain; no queries, no writes (``selectors.exports`` writes documents, ``domain.document_schema``
is its schema, ``domain.document_reader`` reads and checks one for import,
``services.exports`` stores it).

The shape (version 2; every key always there, ``domain.document_schema`` has each one's type)::

    {"format": "gupai-club.tournament", "version": 2, "exported_at": "<ISO 8601>",
     "tournament": {"name", "game", "variant", "status", "public", "require_confirmation",
                    "require_proof", "rated", "tie_breaks", "chip_value" ("0.50"), "currency",
                    "created_at", "started_at", "finished_at"},
     "players":  [{"id", "name"}],
     "entries":  [{"id", "player", "withdrawn", "withdrawn_at"}],
     "sessions": [{"number", "status", "closed_at", "clock_started_at", "clock_ends_at"}],
     "tables":   [{"id", "session" (its number), "name",
                   "seats": [entry id by seat position, as the table was made]}],
     "rounds":   [{"id", "table", "number", "status", "confirmed_by", "confirmed_by_director",
                   "confirmed_at", "void_reason", "disputed", "dispute_message", "disputed_at",
                   "late", "after_time", "created_at",
                   "revisions": [{"number", "body", "record", "result", "engine_version", "actor",
                                  "reason", "created_at", "prev_hash", "hash"}]}],
     "adjustments":   [{"player", "amount", "reason", "created_at", "by"}],
     "substitutions": [{"table", "seat", "player", "from_deal"}]}

Version 1 had no ``require_proof``, ``rated``, ``tie_breaks``, ``withdrawn``, ``withdrawn_at``,
session state, ``late``, ``after_time``, adjustments or substitutions; such a document still
imports, read as version 1 meant them (``document_schema.FORMAT_1_MEANT``). A version 2
document may leave out an entry's ``withdrawn`` (``withdrawn_at`` says it:
``document_schema.OPTIONAL``), as the exports before it was added did.

**Never a secret.** No scorer token, no player code, no hash of either, no link secret, no
phone: the document is a backup a director may hand around. (Proof marks — which entry proved
who it is for a deal — are left out too: an import could not prove them again.)

**Adjustments and substitutions.** ``adjustments`` are the ones in force (chips given or taken
outside any deal: the player, the amount, why, when and by whom — ``by`` as text, marked
``imported: `` by an import), in the order made; a deleted adjustment counts for nothing and is
left out (its making and deletion stay in the original's audit log). ``substitutions`` (a seat
taken over from a deal on: the table, the seat position from 0, the incoming player, the first
deal they play) are in the order made; a table's ``seats`` are as the table was made, so the
players of deal ``d`` are its seats with every substitution from ``d`` or before applied in
order (``games.seating``, the rule the site and the verifier share). An import restores both:
the seats end with the last substitution's player, each substitution naming the player it
replaced.

**Ids are the document's own**, not database ids: players, entries, tables and rounds are numbered
1, 2, ... in the order they are listed (entries by registration, tables by session, rounds by
table and number), and references (``entries[].player``, ``tables[].seats``, ``rounds[].table``)
use them. A round's state that follows from its latest revision (leader, banker, entered_by,
next leader or banker) is not repeated. Datetimes keep their microseconds.

**The hash chain.** A stored revision's hash covers its round's database id
(``chain.revision_hash``), which an import cannot keep. So the document carries, per revision,
the same ``revision_hash`` computed with the **document's** round id, chained through the
document's own ``prev_hash``. The export first verifies every stored chain (a broken one is
refused, never re-hashed into a clean-looking document); the import verifies the document's
chain with the document's ids, then stores the revisions with hashes recomputed for their new
database ids.

**A hash proves nothing about who wrote a document** (anyone can compute one), so an import
believes none of it without checking (``domain.document_reader``: every revision re-evaluated
by today's engine, every deal's balance, the dates) and trusts no name in it: the new
tournament is private (``public`` false, whatever the document says) until its director
publishes it, the revisions' authors are kept as text marked ``imported: `` (never a local
user), and a deal's confirming director is not matched to a local director. It is not rated
(``rated`` false, whatever the document says) unless the director importing it asks for it:
a backup restored must not count its results in the club's ratings a second time.

**Round trip.** Exporting an import gives the document as imported: ``public`` false, ``rated``
as the import chose, each ``actor`` marked ``imported: `` (once: a mark already there is kept
as it is), ``confirmed_by_director`` null and the hashes recomputed over those authors;
everything else — sessions closed or open with their clocks, withdrawals, late and after-time
deals, the settings — is as it was. Importing that export again, and exporting, gives it back
exactly, hashes included, apart from ``exported_at``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from games.seating import Seating
from scoring.domain.chain import revision_hash
from scoring.domain.inputs import MAX_ACTOR_LABEL

FORMAT = "gupai-club.tournament"
#: What an export writes; what an import reads (version 1: ``document_schema.as_current``).
VERSION = 2
VERSIONS = (1, 2)

TOURNAMENT_STATUSES = ("draft", "running", "finished")
SESSION_STATUSES = ("open", "closed")
ROUND_STATUSES = ("recorded", "confirmed", "voided")

# The strict rules of its values (names, dates and times, the chip value, whole numbers, text
# that can be stored) are scoring.domain.inputs's, which the API's fields share.

#: The free JSON of a document (a variant, a deal's body, record and result) is bounded: deeper
#: than this, or with more items in one list or object, or with a longer text (or key), it is
#: refused. A real deal is a few levels deep (Da Ling's groups: 5), its longest list a full
#: move log (32 tiles); the bounds leave room and stop junk from reaching the engine or a column.
MAX_JSON_DEPTH = 20
MAX_JSON_ITEMS = 1000
MAX_JSON_TEXT = 2000

#: How an author named by a document is stored: text, marked, never a local user.
IMPORTED = "imported: "


def imported_label(actor: str) -> str:
    """An author named by a document, as the revision stores it: ``imported: director alice``
    (kept as it is if already marked, so that an export of an import imports to the same)."""
    label = actor if actor.startswith(IMPORTED) else IMPORTED + actor
    return label[:MAX_ACTOR_LABEL]


def iso(value: datetime | None) -> str | None:
    """A datetime as the document writes it (microseconds kept: they are hashed)."""
    return value.isoformat() if value is not None else None


def document_hash(*, prev_hash: str, round_id: int, revision: dict, created_at: datetime) -> str:
    """The hash of one revision in a document: ``chain.revision_hash`` over the document's round
    id and the revision's content."""
    return revision_hash(prev_hash=prev_hash, round_id=round_id, number=revision["number"], body=revision["body"],
                         record=revision["record"], result=revision["result"],
                         engine_version=revision["engine_version"], actor_label=revision["actor"],
                         reason=revision["reason"], created_at=created_at)


# ---------------------------------------------------------------------------------------------
# A document as an import reads it (``domain.document_reader``), checked

@dataclass
class DocTournament:
    name: str
    game: str
    variant: dict
    status: str
    public: bool            # as the document says; the import stores false whatever it says
    require_confirmation: bool
    require_proof: bool
    rated: bool             # as the document says; the import stores what its director asks
    tie_breaks: list[str]
    chip_value: Decimal
    currency: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


@dataclass
class DocSession:
    number: int
    status: str
    closed_at: datetime | None
    clock_started_at: datetime | None
    clock_ends_at: datetime | None


@dataclass
class DocTable:
    id: int
    session: int
    name: str
    seats: list[int]        # document entry ids by position, as the table was made
    seating: Seating | None = None   # with its substitutions (document entry ids)


@dataclass
class DocAdjustment:
    entry: int              # document entry id
    amount: int
    reason: str
    created_at: datetime
    by: str                 # as the document says; stored as ``imported_label(by)``


@dataclass
class DocRevision:
    number: int
    body: dict              # as round_build_record understands it (equal to the document's)
    record: dict            # as round_build_record builds it (equal to the document's)
    result: dict            # today's engine's own answer (equal to the document's)
    engine_version: str     # as the document says (the hash covers it)
    actor: str              # as the document says; stored as ``imported_label(actor)``
    reason: str
    created_at: datetime


@dataclass
class DocRound:
    id: int
    table: int
    number: int
    status: str
    confirmed_by: int | None
    confirmed_by_director: str | None   # a name only: never matched to a local director
    confirmed_at: datetime | None
    void_reason: str
    disputed: bool
    dispute_message: str
    disputed_at: datetime | None
    late: bool
    after_time: bool
    created_at: datetime
    revisions: list[DocRevision]
    # From the latest revision, as the services set them:
    leader: int | None = None
    banker: int | None = None
    entered_by: int | None = None
    next_leader: int | None = None
    next_banker: int | None = None


@dataclass
class Document:
    exported_at: str
    tournament: DocTournament
    players: dict[int, str] = field(default_factory=dict)       # id → name
    entries: dict[int, int] = field(default_factory=dict)       # id → player id, in order
    withdrawn: dict[int, datetime] = field(default_factory=dict)  # entry id → when (withdrawn entries only)
    sessions: dict[int, DocSession] = field(default_factory=dict)  # number → session
    tables: list[DocTable] = field(default_factory=list)
    rounds: list[DocRound] = field(default_factory=list)
    adjustments: list[DocAdjustment] = field(default_factory=list)
    substitutions: int = 0  # how many (each table's ``seating`` holds them)
