"""A whole tournament as one document (``scoring.domain.documents`` describes the format and its hash
chain), read in a fixed number of queries."""

from __future__ import annotations

from django.utils import timezone

from scoring.domain.documents import FORMAT, VERSION, document_hash, iso
from scoring.domain.errors import Conflict
from scoring.models import Adjustment, Entry, Round, RoundRevision, Session, Table, Tournament
from scoring.selectors.audits import verify_chain
from scoring.selectors.substitutions import seatings


def tournament_export(tournament: Tournament) -> dict:
    """The tournament's document: its settings, players, entries (withdrawn or not), sessions
    (open or closed, with their clocks), tables with their seats as they were made, every deal
    (late, after time) with every revision, the adjustments in force and the substitutions,
    numbered with the document's own ids. Every stored hash chain is
    verified first: a deal whose history does not verify is a Conflict (an audit's matter), not
    something to re-hash into a clean-looking document. No secret is ever in it: no scorer
    token or link secret, no player code, no hash of either."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player").order_by("pk"))
    entry_ids = {e.pk: i for i, e in enumerate(entries, start=1)}
    tables = list(Table.objects.filter(session__tournament=tournament).select_related("session")
                  .order_by("session__number", "pk"))
    table_ids = {t.pk: i for i, t in enumerate(tables, start=1)}
    # a table's seats as it was made: its substitutions follow, each from its deal on
    seated = seatings(table__session__tournament=tournament)
    seats = {table_id: [entry_ids[e] for e in seating.first()] for table_id, seating in seated.items()}
    substitutions = [{"table": table_ids[table_id], "seat": c.seat, "player": entry_ids[c.entry_in],
                      "from_deal": c.from_deal}
                     for table_id in sorted(seated, key=table_ids.get) for c in seated[table_id].changes]
    adjustments = [{"player": entry_ids[a.entry_id], "amount": a.amount, "reason": a.reason,
                    "created_at": iso(a.created_at), "by": a.created_by_label}
                   for a in Adjustment.objects.filter(tournament=tournament, deleted_at__isnull=True)
                   .order_by("created_at", "pk")]
    rounds = sorted(Round.objects.filter(table__session__tournament=tournament).select_related("confirmed_by_user"),
                    key=lambda r: (table_ids[r.table_id], r.number))
    revisions: dict[int, list[RoundRevision]] = {}
    for rev in RoundRevision.objects.filter(round__table__session__tournament=tournament).order_by("round_id",
                                                                                                 "number"):
        revisions.setdefault(rev.round_id, []).append(rev)
    table_of = {t.pk: t for t in tables}

    doc_rounds = []
    for doc_id, rnd in enumerate(rounds, start=1):
        revs = revisions.get(rnd.pk, [])
        chain = verify_chain(revs, rnd.current_revision_id)
        if not chain.ok or not revs:
            table = table_of[rnd.table_id]
            raise Conflict(f"Deal {rnd.number} of {table.name} (session {table.session.number}) does not verify "
                           f"(revision {chain.first_broken}: {chain.problem or 'no revisions'}); it cannot be "
                           "exported until it is looked into.", code="chain_broken")
        doc_revs, prev = [], ""
        for rev in revs:
            item = {"number": rev.number, "body": rev.body, "record": rev.record, "result": rev.result,
                    "engine_version": rev.engine_version, "actor": rev.actor_label, "reason": rev.reason,
                    "created_at": iso(rev.created_at), "prev_hash": prev}
            item["hash"] = prev = document_hash(prev_hash=prev, round_id=doc_id, revision=item,
                                                created_at=rev.created_at)
            doc_revs.append(item)
        doc_rounds.append({
            "id": doc_id, "table": table_ids[rnd.table_id], "number": rnd.number, "status": rnd.status,
            "confirmed_by": rnd.confirmed_by,
            "confirmed_by_director": rnd.confirmed_by_user.get_username() if rnd.confirmed_by_user else None,
            "confirmed_at": iso(rnd.confirmed_at), "void_reason": rnd.void_reason, "disputed": rnd.disputed,
            "dispute_message": rnd.dispute_message, "disputed_at": iso(rnd.disputed_at), "late": rnd.late,
            "after_time": rnd.after_time, "created_at": iso(rnd.created_at), "revisions": doc_revs})

    t = tournament
    return {
        "format": FORMAT, "version": VERSION, "exported_at": iso(timezone.now()),
        "tournament": {"name": t.name, "game": t.game, "variant": t.variant, "status": t.status, "public": t.public,
                       "require_confirmation": t.require_confirmation, "require_proof": t.require_proof,
                       "rated": t.rated, "tie_breaks": list(t.tie_breaks), "chip_value": f"{t.chip_value:.2f}",
                       "currency": t.currency, "created_at": iso(t.created_at), "started_at": iso(t.started_at),
                       "finished_at": iso(t.finished_at)},
        "players": [{"id": i, "name": e.player.name} for i, e in enumerate(entries, start=1)],
        "entries": [{"id": i, "player": i, "withdrawn": e.withdrawn_at is not None, "withdrawn_at": iso(e.withdrawn_at)}
                    for i, e in enumerate(entries, start=1)],
        "sessions": [{"number": s.number, "status": s.status, "closed_at": iso(s.closed_at),
                      "clock_started_at": iso(s.clock_started_at), "clock_ends_at": iso(s.clock_ends_at)}
                     for s in Session.objects.filter(tournament=tournament).order_by("number")],
        "tables": [{"id": table_ids[tb.pk], "session": tb.session.number, "name": tb.name,
                    "seats": seats.get(tb.pk, [])} for tb in tables],
        "rounds": doc_rounds,
        "adjustments": adjustments,
        "substitutions": substitutions,
    }
