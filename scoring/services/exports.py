"""Importing a tournament document (``scoring.domain.documents``) into a new tournament of a club.

One transaction: the document is checked first (``scoring.domain.document_reader``: its first
problem is refused with its path, ``document.rounds[3].revisions[1].hash``, and nothing is
stored), then the tournament is made with ``tournament_create``, players are matched by name in
the club (or made with ``player_create``), and entries, sessions, tables, seats, substitutions,
deals, revisions and adjustments are inserted (revisions are immutable: inserted, never
updated), the revisions' hashes chained anew over their new database ids. A seat ends with the
player of its last substitution, each substitution naming the player it replaced
(``games.seating``); an adjustment keeps its time and its author as text, marked ``imported: ``. Standings are then recomputed from the deals, and one
``tournament_import`` audit row says what came in.

Nothing in a document is taken on its word:

- **Private until published.** The new tournament is stored ``public=False`` whatever the
  document says; its status (running, finished) is kept, as its deals need it. It shows on no
  public page or list until its director publishes it (``tournament_update(public=True)``; a
  finished import still private takes that one change, ``selectors.tournaments.tournament_awaits_publishing``).
- **Authors are text.** Each revision's author is stored as ``imported: <name in the document>``
  (``documents.imported_label``) with no user (``actor_user`` null); a deal's confirming
  director is not matched to a local director (``confirmed_by_user`` null): the names stay
  in this import's ActionLog row (``confirmed_by_directors``, by the new round id).
- **Not rated unless asked.** The new tournament's deals count in the club's ratings only when
  the director importing it asks for it (``rated=True``): a backup restored next to its
  original would otherwise count every result a second time. The document's own ``rated`` is
  kept in the audit row only.
- **Results are the engine's.** What is stored of each revision is the body understood, the
  record built and today's engine's result, each equal to the document's after the checks.

Everything else is restored as it was: the settings (confirmation, proof, tie-breaks, stakes),
each session open or closed with its clock, each withdrawal, each deal's late and after-time
marks. Tables get new scorer links that nobody sees: the director makes new ones (rotate) when
the tables are to be used again.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.chain import revision_hash
from scoring.domain.document_reader import Progress, read_document
from scoring.domain.documents import Document, imported_label
from scoring.domain.errors import Conflict, DomainError
from scoring.domain.inputs import MAX_PLAYER_NAME
from scoring.models import (
    ActionLog,
    Adjustment,
    Club,
    Entry,
    Player,
    Round,
    RoundRevision,
    Seat,
    Session,
    Substitution,
    Table,
    Tournament,
)
from scoring.selectors.access import require_director_of
from scoring.services.common import action_log, action_logs, enqueue_once_on_commit, require_text, update_from_values
from scoring.services.standings import standings_recompute
from scoring.services.tables import new_scorer_token
from scoring.services.tournaments import tournament_create

#: Rows an INSERT takes at a time.
BATCH = 2000


def _under(error: DomainError, prefix: str) -> DomainError:
    """A sub-service's refusal with its paths inside the document."""
    error.errors = [{**e, "path": f"{prefix}.{e['path']}" if e.get("path") else prefix} for e in error.errors]
    return error


def tournament_import(*, actor: Actor, club: Club, document: Any, progress: Progress | None = None,
                      rated: bool = False) -> Tournament:
    """A new tournament of ``club`` holding everything in ``document`` (see ``scoring.domain.documents``).
    ``progress``: told ``(revisions checked, revisions)`` while the document is checked, before
    the transaction that stores it (``services.imports`` keeps an upload's progress with it).
    ``rated``: whether its deals count in the club's ratings (not unless asked)."""
    require_director_of(actor, club)
    doc = read_document(document, progress=progress)
    with transaction.atomic():
        t = doc.tournament
        try:
            tournament = tournament_create(actor=actor, club=club, name=t.name, game=t.game, variant=t.variant,
                                           public=False, require_confirmation=t.require_confirmation,
                                           require_proof=t.require_proof, chip_value=t.chip_value,
                                           currency=t.currency, tie_breaks=t.tie_breaks)
        except DomainError as e:
            raise _under(e, "document.tournament") from None
        Tournament.objects.filter(pk=tournament.pk).update(status=t.status, created_at=t.created_at,
                                                           started_at=t.started_at, finished_at=t.finished_at,
                                                           rated=bool(rated))
        tournament.refresh_from_db()
        players, created = _players(actor, club, doc)
        entries = Entry.objects.bulk_create([Entry(tournament=tournament, player=players[pid],
                                                   withdrawn_at=doc.withdrawn.get(eid))
                                             for eid, pid in doc.entries.items()], batch_size=BATCH)
        entry_of = dict(zip(doc.entries, entries))
        sessions = {s.number: s for s in Session.objects.bulk_create(
            [Session(tournament=tournament, number=n, status=s.status, closed_at=s.closed_at,
                     clock_started_at=s.clock_started_at, clock_ends_at=s.clock_ends_at)
             for n, s in sorted(doc.sessions.items())], batch_size=BATCH)}
        now = timezone.now()
        ordered = sorted(doc.tables, key=lambda tb: tb.session)   # by session, else as listed
        made = Table.objects.bulk_create([Table(session=sessions[tb.session], name=tb.name,
                                                scorer_token_hash=new_scorer_token()[1], scorer_token_created_at=now)
                                          for tb in ordered], batch_size=BATCH)
        tables = {tb.id: table for tb, table in zip(ordered, made)}
        # today's seats: the last substitution's players (the document's seats are the first ones)
        Seat.objects.bulk_create([Seat(table=tables[tb.id], position=i, entry=entry_of[eid])
                                  for tb in ordered for i, eid in enumerate(tb.seating.current)], batch_size=BATCH)
        Substitution.objects.bulk_create([
            Substitution(table=tables[tb.id], seat=c.seat, entry_in=entry_of[c.entry_in],
                         entry_out=entry_of[c.entry_out], from_deal=c.from_deal, created_by=None)
            for tb in ordered for c in tb.seating.changes], batch_size=BATCH)
        revisions, confirmations = _rounds(doc, tables)
        _adjustments(tournament, doc, entry_of)
        standings_recompute(tournament=tournament)   # every row new: inserted with its figures
        action_log(actor, ActionLog.Action.TOURNAMENT_IMPORT, tournament, tournament=tournament, data={
            "exported_at": doc.exported_at, "players_created": created, "entries": len(entries),
            "sessions": len(sessions), "tables": len(tables), "rounds": len(doc.rounds), "revisions": revisions,
            "substitutions": doc.substitutions, "adjustments": len(doc.adjustments),
            "public_in_document": t.public, "rated": bool(rated), "rated_in_document": t.rated,
            "confirmed_by_directors": confirmations})
        if rated:
            enqueue_once_on_commit("scoring.ratings_follow", club.pk)   # its deals join the club's ratings
    return tournament


def _players(actor: Actor, club: Club, doc: Document) -> tuple[dict[int, Player], list[str]]:
    """The club's players by the document's player ids: matched by name, the missing ones made
    in bulk — each checked as ``player_create`` checks a name, each with its ``player_create``
    audit row — rather than one by one (10,000 players: 30,000 queries)."""
    by_name = {p.name: p for p in Player.objects.filter(club=club, name__in=list(doc.players.values()))}
    missing: dict[str, int] = {}   # a new player's name as stored → its first place in the document
    for i, name in enumerate(doc.players.values()):
        if name in by_name or name in missing:
            continue
        try:
            stored = require_text(name, "name", "A player name", max_length=MAX_PLAYER_NAME)
        except DomainError as e:
            raise _under(e, f"document.players[{i}]") from None
        if stored != name:   # only spaces apart: the stored name may be taken, as player_create finds
            if stored in missing or Player.objects.filter(club=club, name=stored).exists():
                raise _under(_exists(stored), f"document.players[{i}]")
        missing[name] = i
    try:
        with transaction.atomic():   # a name another director took meanwhile: refused, as player_create would
            made = Player.objects.bulk_create([Player(club=club, name=name.strip()) for name in missing],
                                              batch_size=BATCH)
    except IntegrityError:
        taken = Player.objects.filter(club=club, name__in=[n.strip() for n in missing]).values_list("name", flat=True)
        name = next(iter(taken), "")
        raise _under(_exists(name), f"document.players[{missing.get(name, 0)}]") from None
    action_logs(actor, ActionLog.Action.PLAYER_CREATE, [(p, {"club": club.pk, "name": p.name}) for p in made])
    by_name.update(zip(missing, made))
    return {pid: by_name[name] for pid, name in doc.players.items()}, list(missing)


def _exists(name: str) -> Conflict:
    return Conflict(gettext("%(name)s is already a player of this club.") % {"name": name}, path="name", code="exists")


def _adjustments(tournament: Tournament, doc: Document, entry_of: dict[int, Entry]) -> None:
    """Insert the adjustments, each with its time (no ``auto_now_add``: written after) and its
    author as text, marked as imported."""
    made = Adjustment.objects.bulk_create([
        Adjustment(tournament=tournament, entry=entry_of[a.entry], amount=a.amount, reason=a.reason,
                   created_by=None, created_by_label=imported_label(a.by)) for a in doc.adjustments], batch_size=BATCH)
    update_from_values(Adjustment, key="id", columns=("created_at",),
                       rows=[(row.pk, a.created_at) for row, a in zip(made, doc.adjustments)])


def _rounds(doc: Document, tables: dict[int, Table]) -> tuple[int, dict[str, str]]:
    """Insert the deals and their revisions; returns how many revisions, and the confirming
    directors the document names, by new round id (kept as text, never matched to a user)."""
    rounds = Round.objects.bulk_create(batch_size=BATCH, objs=[Round(
        table=tables[r.table], number=r.number, status=r.status, leader=r.leader, banker=r.banker,
        next_leader=r.next_leader, next_banker=r.next_banker, entered_by=r.entered_by, confirmed_by=r.confirmed_by,
        confirmed_at=r.confirmed_at, void_reason=r.void_reason, disputed=r.disputed,
        dispute_message=r.dispute_message, disputed_at=r.disputed_at, late=r.late, after_time=r.after_time)
        for r in doc.rounds])
    revisions = []
    for doc_round, rnd in zip(doc.rounds, rounds):
        prev = ""
        for rev in doc_round.revisions:
            label = imported_label(rev.actor)   # a name in a document is nobody here
            row = RoundRevision(round=rnd, number=rev.number, body=rev.body, record=rev.record, result=rev.result,
                                engine_version=rev.engine_version, actor_user=None, actor_label=label,
                                reason=rev.reason, created_at=rev.created_at, prev_hash=prev)
            # Chained anew: a stored hash covers the round's database id (scoring.domain.chain).
            row.hash = prev = revision_hash(prev_hash=prev, round_id=rnd.pk, number=rev.number, body=rev.body,
                                            record=rev.record, result=rev.result, engine_version=rev.engine_version,
                                            actor_label=label, reason=rev.reason, created_at=rev.created_at)
            revisions.append(row)
    made = RoundRevision.objects.bulk_create(revisions, batch_size=BATCH)
    latest = {rev.round_id: rev.pk for rev in made}   # the last of each round wins
    # Set-based (bulk_update's CASE grows with the square of the rows); written as given, as
    # created_at must be the document's (no auto_now_add).
    update_from_values(Round, key="id", columns=("current_revision", "created_at"),
                       rows=[(rnd.pk, latest[rnd.pk], doc_round.created_at) for doc_round, rnd in zip(doc.rounds, rounds)])
    confirmations = {str(rnd.pk): imported_label(f"director {r.confirmed_by_director}")
                     for r, rnd in zip(doc.rounds, rounds) if r.confirmed_by_director}
    return len(made), confirmations
