"""Deals: record (exactly once per Idempotency-Key), correct, confirm, void, dispute, resolve.

A deal's content lives in immutable, hash-chained revisions; a correction adds one. Every
service here asks ``lifecycle.round_guard`` whether its move is allowed, brings the standings
along in the same transaction (``standings.standings_follow``) and writes its audit row.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from scoring.domain import proof as proofs
from scoring.domain.actors import Actor
from scoring.domain.errors import (
    Conflict,
    PermissionDenied,
    PreconditionFailed,
    PreconditionRequired,
    ValidationFailed,
)
from scoring.domain.inputs import MAX_INT32, MAX_NOTE, is_int
from scoring.domain.lifecycle import session_refusal
from scoring.domain.proof import PROOF_REQUIRED, SELF_CONFIRMATION, PlayerProof
from scoring.domain.records import RoundPreview, is_seat
from scoring.domain.standings import counts_round
from scoring.models import ActionLog, Entry, Round, RoundRevision, Seat, Table, Tournament
from scoring.selectors.access import require_director_of, require_official_of, require_table_access
from scoring.selectors.players import proven_entry, proving_code
from scoring.selectors.rounds import table_round_preview
from scoring.selectors.tables import round_defaults
from scoring.services.common import action_log, enqueue_once_on_commit, optional_text
from scoring.services.events import deal_data, event_publish
from scoring.services.lifecycle import require_running, round_guard
from scoring.services.players import entry_code_rehash
from scoring.services.round_rows import add_revision, insert_round, lock_table
from scoring.services.standings import standings_follow, table_entries


def _note(value: Any, path: str, too_long: str) -> str:
    """A reason, message or note: text (anything else counts as empty), stripped, at most
    ``MAX_NOTE`` characters (``too_long``: the refusal, translated, with ``%(max)s``)."""
    if isinstance(value, str) and len(value.strip()) > MAX_NOTE:
        raise ValidationFailed(too_long % {"max": MAX_NOTE}, path=path, code="too_long")
    # The length is refused above, in the page's language; optional_text strips the text and
    # checks that it can be stored.
    return optional_text(value, path, path, max_length=MAX_NOTE)


def _reason(reason: Any, ask: str) -> str:
    """A required reason (``ask``: the refusal when there is none, translated), checked and stripped."""
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationFailed(ask, path="reason", code="required")
    return _note(reason, "reason", gettext("The reason has at most %(max)s characters."))


def _evaluated_or_raise(preview: RoundPreview) -> RoundPreview:
    if not preview.ok:
        raise ValidationFailed(errors=preview.errors)
    return preview


def _deal_event(kind: str, *, tournament: Tournament, round: Round, entries: list[int] | None = None,
                revision: RoundRevision | None = None, standings: list[dict] | None = None) -> None:
    """The deal's live event (``services.events``), last in the transaction: the deal's row and
    the standing rows that moved. What the caller did not read is read here (rare moves only)."""
    if entries is None:
        entries = table_entries(round.table_id, number=round.number)
    if revision is None:
        revision = RoundRevision.objects.get(pk=round.current_revision_id)
    event_publish(tournament=tournament, kind=kind,
                  data=deal_data(tournament=tournament, round=round, table=round.table, entries=entries,
                                 revision=revision, standings=standings or []))
    if tournament.rated:
        # the club's ratings follow after the commit (no query here: a publish once committed)
        enqueue_once_on_commit("scoring.ratings_follow", tournament.club_id)


def _apply_preview(round: Round, preview: RoundPreview) -> None:
    round.leader = preview.leader
    round.banker = preview.banker
    round.entered_by = preview.entered_by
    round.next_leader = preview.next_leader
    round.next_banker = preview.next_banker


def round_record(*, actor: Actor, table: Table, body: Any, proof: PlayerProof | None = None,
                 drawn_at: datetime | None = None) -> Round:
    """Record a new deal at ``table``: evaluate, store Round + revision 1, log, refresh standings
    on commit. Scorers: their own table, running tournaments only, open sessions only (Conflict
    ``session_closed``). Directors: any table of their club while running; at a closed session
    the deal is marked ``late``. Once the session's clock has run out it is marked ``after_time``.
    ``drawn_at``: when a scorer's phone drew the deal (its outbox); drawn while the session was
    open, the deal is recorded late after the session closed instead of refused
    (``lifecycle.session_refusal``)."""
    require_table_access(actor, table)
    with transaction.atomic():
        rnd, _seats = record_locked(actor=actor, table=table, body=body, proof=proof, drawn_at=drawn_at)
    return rnd


def _proven(*, actor: Actor, table: Table, tournament: Tournament, seat: Any, proof: PlayerProof | None,
            role: str, number: int | None = None) -> Any:
    """The entry proven at ``seat`` for ``role`` (``entered_by`` or ``confirmed_by``), or None
    when no proof was offered and none is needed. A scorer link of a tournament that requires
    proof must offer one (403 ``player_proof_required`` at ``<role>_code``); directors act as
    themselves. An offered proof is always checked (``selectors.players.proven_entry``)."""
    path = f"{role}_code"
    if proof is None:
        if tournament.require_proof and actor.is_scorer:
            raise PermissionDenied(gettext("This tournament needs the player's code: say who you are."), path=path,
                                   code=PROOF_REQUIRED)
        return None
    if seat is None:
        raise ValidationFailed(gettext("Name the seat of the player whose code this is."), path=role, code="required")
    entry = proven_entry(table=table, seat=seat, proof=proof, path=path, seat_path=role, number=number)
    if proof.code is not None:
        entry_code_rehash(actor=actor, entry=entry, code=proof.code)
    return entry


def _expected_number(body: Any) -> tuple[Any, int | None]:
    """The body without its optional ``number`` (the deal the sender believes it records), and
    that number (None when absent). The number is not part of the deal: it is never stored."""
    if not isinstance(body, dict) or "number" not in body:
        return body, None
    number = body["number"]
    if not is_int(number, 1, MAX_INT32):
        raise ValidationFailed(_("number is the deal number being recorded (1, 2, ...)."), path="number",
                               code="bad_type")
    return {k: v for k, v in body.items() if k != "number"}, number


def record_locked(*, actor: Actor, table: Table, body: Any, proof: PlayerProof | None = None,
                  paper_sheet: bool = False, drawn_at: datetime | None = None) -> tuple[Round, list[Seat]]:
    """``round_record`` inside the caller's transaction; also returns the seats it read.
    ``paper_sheet``: the deal is a row of the table's paper score sheet (marked so).

    A body naming its ``number`` is recorded only as that deal: two phones on one table both
    showing "Deal 4" must not record the same hands as deals 4 and 5 (Conflict
    ``deal_number_taken``). Checked under the table lock, against the number computed there."""
    body, expected = _expected_number(body)
    seats = lock_table(table)
    tournament = table.session.tournament
    require_running(tournament, fresh=False)
    session = table.session   # its status and close time as read under the lock
    ended = session_refusal(session.status, actor, drawn_at=drawn_at, opened_at=session.created_at,
                            closed_at=session.closed_at)
    if ended is not None:
        ended.raise_()
    defaults = round_defaults(table)
    if expected is not None and expected != defaults["number"]:
        raise Conflict(_("Deal %(number)s was already recorded at this table (from another phone?); the next deal "
                         "is %(next)s.") % {"number": expected, "next": defaults["number"]},
                       path="number", code="deal_number_taken")
    preview = _evaluated_or_raise(table_round_preview(table=table, body=body, seats=seats, defaults=defaults))
    entered = _proven(actor=actor, table=table, tournament=tournament, seat=preview.entered_by, proof=proof,
                      role="entered_by")
    if entered is not None:
        actor = replace(actor, as_player=f"entered by {entered.player.name} (proven)")
    ends_at = table.session.clock_ends_at
    # Both flags are the server's word at recording: a director's deal at a closed session is late;
    # any deal once the clock ran out is after time (the director decides what it counts for).
    rnd = Round(table=table, number=defaults["number"], status=Round.Status.RECORDED,
                late=table.session.is_closed, after_time=ends_at is not None and timezone.now() >= ends_at,
                paper_sheet=paper_sheet, entered_by_entry=entered, entered_on=actor.phone)
    _apply_preview(rnd, preview)
    revision_id = insert_round(rnd)
    rev = add_revision(round=rnd, number=1, preview=preview, actor=actor, reason="", prev_hash="", id=revision_id)
    rnd.current_revision = rev
    if revision_id is None:
        rnd.save(update_fields=["current_revision"])
    entries = [s.entry_id for s in seats]
    moved = standings_follow(tournament=tournament, round=rnd, entries=entries, counted_before=False, before=None,
                             after=rev)
    action_log(actor, ActionLog.Action.ROUND_RECORD, rnd, tournament=tournament,
               data={"table": table.pk, "number": rnd.number, "revision": 1, "hash": rev.hash,
                     **({"late": True} if rnd.late else {}), **({"after_time": True} if rnd.after_time else {}),
                     **({"drawn_at": drawn_at.isoformat()} if rnd.late and drawn_at is not None else {}),
                     **({"paper_sheet": True} if paper_sheet else {}),
                     **({"entered_by_entry": entered.pk} if entered is not None else {})})
    _deal_event("deal_recorded", tournament=tournament, round=rnd, entries=entries, revision=rev, standings=moved)
    return rnd, seats


def _locked_round(round: Round) -> tuple[Round, Tournament]:
    rnd = Round.objects.select_for_update(of=("self",)).select_related("table__session__tournament__club").get(pk=round.pk)
    return rnd, rnd.table.session.tournament


def round_correct(*, actor: Actor, round: Round, body: Any, reason: Any, expected_revision: int | None) -> Round:
    """A correction: a new revision of ``round`` from a full new body (as for creation).

    ``expected_revision``: the revision being corrected (the API's If-Match). None →
    PreconditionRequired; not the current revision → PreconditionFailed. ``reason`` is
    required. Scorers may correct their table's rounds until confirmed; directors always (until
    the tournament is finished). A director's correction of a confirmed round keeps it confirmed
    (by the director)."""
    table = round.table
    require_table_access(actor, table)
    if expected_revision is None:
        raise PreconditionRequired(gettext('Send If-Match: "<revision>" with the revision you are correcting.'))
    reason = _reason(reason, gettext("Say why the deal is corrected."))
    with transaction.atomic():
        # Read the current revision only once the round is locked, by its id: joined into the
        # locking query, it could be the one from before a concurrent correction committed.
        rnd, tournament = _locked_round(round)
        round_guard(action="round_correct", round=rnd, tournament=tournament, actor=actor, fresh=False)
        current = RoundRevision.objects.get(pk=rnd.current_revision_id)
        if expected_revision != current.number:
            raise PreconditionFailed(
                gettext("The deal has changed: revision %(current)s is current, not %(expected)s. Reload and try "
                        "again.") % {"current": current.number, "expected": expected_revision})
        preview = _evaluated_or_raise(table_round_preview(table=rnd.table, body=body, round=rnd))
        _keep_proven_enterer(actor, rnd, preview)
        counted_before = counts_round(tournament, rnd)
        rev = add_revision(round=rnd, number=current.number + 1, preview=preview, actor=actor,
                            reason=reason, prev_hash=current.hash)
        _apply_preview(rnd, preview)
        rnd.current_revision = rev
        if rnd.status == Round.Status.CONFIRMED:  # only a director gets here
            rnd.confirmed_by, rnd.confirmed_by_user, rnd.confirmed_at = None, actor.user_or_none, timezone.now()
            rnd.confirmed_by_entry = None
        rnd.save()
        entries = table_entries(rnd.table_id, number=rnd.number)
        moved = standings_follow(tournament=tournament, round=rnd, entries=entries, counted_before=counted_before,
                                 before=current, after=rev)
        action_log(actor, ActionLog.Action.ROUND_CORRECT, rnd, tournament=tournament,
                   data={"revision": rev.number, "reason": rev.reason, "hash": rev.hash})
        _deal_event("deal_corrected", tournament=tournament, round=rnd, entries=entries, revision=rev, standings=moved)
    return rnd


def _keep_proven_enterer(actor: Actor, rnd: Round, preview: RoundPreview) -> None:
    """A deal whose enterer proved who they were keeps them through a scorer's correction (else
    whoever holds the link could name another enterer and confirm as themselves); a director
    may name another, who is then not proven."""
    if rnd.entered_by_entry_id is None or preview.entered_by == rnd.entered_by:
        return
    if actor.is_scorer:
        raise ValidationFailed(gettext("The player who entered this deal proved it with their code: a correction "
                                       "keeps them as its enterer (a director can change it)."),
                               path="entered_by", code="entered_by_proven")
    rnd.entered_by_entry = None


def _self_confirmation() -> Conflict:
    return Conflict(gettext("The player who entered the deal cannot confirm it: another player at the table must."),
                    path="confirmed_by", code=SELF_CONFIRMATION)


def _refuse_a_code_the_enterer_chose(confirmer: Entry, proof: PlayerProof, rnd: Round) -> None:
    """A code set at first use confirms only a deal entered after it, from another phone (403
    ``code_set_after_deal`` / ``code_set_on_entering_phone``): else the phone that entered the
    deal could have chosen the confirmer's code itself (``domain.proof.confirm_refusal``). The
    code is the one ``proof`` stands on: the player's own, or the entry's legacy one."""
    code = proving_code(confirmer, proof)
    refusal = proofs.confirm_refusal(origin=code.origin if code else proofs.ORIGIN_NONE,
                                     code_set_at=code.set_at if code else None, code_set_on=code.set_on if code else "",
                                     deal_entered_at=rnd.created_at, deal_entered_on=rnd.entered_on)
    if refusal is None:
        return
    name = confirmer.player.name
    message = (gettext("%(name)s set their code after this deal was entered, so it cannot confirm it: the director "
                       "can, or can give %(name)s a player card.") if refusal == proofs.CODE_SET_AFTER_DEAL else
               gettext("%(name)s's code was set on the phone that entered this deal (or one not told apart from it), "
                       "so it cannot confirm it: the director can, or can give %(name)s a player card."))
    raise PermissionDenied(message % {"name": name}, path="confirmed_by_code", code=refusal)


def round_confirm(*, actor: Actor, round: Round, confirmed_by: Any = None, proof: PlayerProof | None = None) -> Round:
    """Confirm a recorded deal. A director may (``confirmed_by`` optional); a scorer link only
    naming a seat ``confirmed_by`` other than ``entered_by`` (Bridgemate: the device passes
    across the table). Disputed deals need a director.

    Where the tournament requires proof, a scorer link confirms only with the confirming
    player's ``proof`` (their code, or their own phone), and the enterer confirming their own
    deal is a conflict (409 ``self_confirmation``; without proof it stays 400 ``same_seat``).
    A confirmer's code set at first use must predate the deal and come from another phone than
    the one that entered it (403 ``code_set_after_deal``, ``code_set_on_entering_phone``)."""
    require_table_access(actor, round.table)
    with transaction.atomic():
        rnd, tournament = _locked_round(round)
        round_guard(action="round_confirm", round=rnd, tournament=tournament, actor=actor, fresh=False)
        n = Seat.objects.filter(table=rnd.table_id).count()
        if confirmed_by is not None and not is_seat(confirmed_by, n):
            raise ValidationFailed(gettext("confirmed_by is a seat position (0 to %(last)s).") % {"last": n - 1},
                                   path="confirmed_by", code="bad_seat")
        if confirmed_by is not None and confirmed_by == rnd.entered_by:
            if tournament.require_proof:
                raise _self_confirmation()
            raise ValidationFailed(gettext("Another player than the one who entered the deal must confirm it."),
                                   path="confirmed_by", code="same_seat")
        if actor.is_scorer:
            if confirmed_by is None:
                raise ValidationFailed(gettext("Say which seat confirms the deal."), path="confirmed_by", code="required")
            if rnd.entered_by is None:
                raise PermissionDenied(gettext("Nobody is named as having entered this deal; a director must confirm it."),
                                       code="entered_by_unknown")
        # the confirmer is one who played the deal, whoever sits in that seat now
        confirmer = _proven(actor=actor, table=rnd.table, tournament=tournament, seat=confirmed_by, proof=proof,
                            role="confirmed_by", number=rnd.number)
        if confirmer is not None:
            if confirmer.pk == rnd.entered_by_entry_id:
                raise _self_confirmation()
            _refuse_a_code_the_enterer_chose(confirmer, proof, rnd)
            actor = replace(actor, as_player=f"confirmed by {confirmer.player.name} (proven)")
        rnd.confirmed_by_entry = confirmer
        counted_before = counts_round(tournament, rnd)
        rnd.status = Round.Status.CONFIRMED
        rnd.confirmed_by = confirmed_by
        rnd.confirmed_by_user = actor.user_or_none
        rnd.confirmed_at = timezone.now()
        rnd.save()
        current = RoundRevision.objects.get(pk=rnd.current_revision_id)
        entries = table_entries(rnd.table_id, number=rnd.number)
        moved = standings_follow(tournament=tournament, round=rnd, entries=entries, counted_before=counted_before,
                                 before=current, after=current)
        action_log(actor, ActionLog.Action.ROUND_CONFIRM, rnd, tournament=tournament,
                   data={"confirmed_by": confirmed_by, "revision": current.number,
                         **({"confirmed_by_entry": confirmer.pk} if confirmer is not None else {})})
        _deal_event("deal_confirmed", tournament=tournament, round=rnd, entries=entries, revision=current,
                    standings=moved)
    return rnd


def round_void(*, actor: Actor, round: Round, reason: Any) -> Round:
    """Void a deal (directors only, with a reason). It stays in the history and stops counting.
    A scorer link of the deal's table is refused by the moves' table: 409 ``round_disputed``
    while the deal is disputed (the director settles it), else 403."""
    if actor.is_scorer:
        require_table_access(actor, round.table)
    else:
        require_director_of(actor, round.table.session.tournament.club)
    reason = _reason(reason, gettext("Say why the deal is voided."))
    with transaction.atomic():
        rnd, tournament = _locked_round(round)
        round_guard(action="round_void", round=rnd, tournament=tournament, actor=actor, fresh=False)
        before = rnd.status
        counted_before = counts_round(tournament, rnd)
        rnd.status = Round.Status.VOIDED
        rnd.void_reason = reason
        rnd.disputed = False
        rnd.save()
        entries = table_entries(rnd.table_id, number=rnd.number)
        current = RoundRevision.objects.get(pk=rnd.current_revision_id)
        moved = []
        if counted_before:
            moved = standings_follow(tournament=tournament, round=rnd, entries=entries, counted_before=True,
                                     before=current, after=None)
        action_log(actor, ActionLog.Action.ROUND_VOID, rnd, tournament=tournament,
                   data={"reason": rnd.void_reason, "was": before})
        _deal_event("deal_voided", tournament=tournament, round=rnd, entries=entries, revision=current,
                    standings=moved)
    return rnd


def round_dispute(*, actor: Actor, round: Round, message: Any = "") -> Round:
    """Flag a deal for the referee (scorer of its table or director). The message is required:
    the referee arrives knowing what to look at."""
    require_table_access(actor, round.table)
    with transaction.atomic():
        rnd, tournament = _locked_round(round)
        round_guard(action="round_dispute", round=rnd, tournament=tournament, actor=actor, fresh=False)
        if not isinstance(message, str) or not message.strip():
            raise ValidationFailed(_("Say what is wrong with the deal."), path="message", code="required")
        message = _note(message, "message", gettext("The message has at most %(max)s characters."))
        rnd.disputed = True
        rnd.dispute_message = message
        rnd.disputed_at = timezone.now()
        rnd.save()
        action_log(actor, ActionLog.Action.ROUND_DISPUTE, rnd, tournament=tournament,
                   data={"message": rnd.dispute_message})
        _deal_event("deal_disputed", tournament=tournament, round=rnd)
    return rnd


def round_dispute_resolve(*, actor: Actor, round: Round, note: Any = "") -> Round:
    """A director or the tournament's referee settles a dispute (correct or void the deal first
    if needed: a director's)."""
    require_official_of(actor, round.table.session.tournament, "round_dispute_resolve")
    note = _note(note, "note", gettext("The note has at most %(max)s characters."))
    with transaction.atomic():
        rnd, tournament = _locked_round(round)
        round_guard(action="round_dispute_resolve", round=rnd, tournament=tournament, actor=actor, fresh=False)
        message = rnd.dispute_message
        rnd.disputed = False
        rnd.save()
        action_log(actor, ActionLog.Action.ROUND_DISPUTE_RESOLVE, rnd, tournament=tournament,
                   data={"message": message, "note": note})
        _deal_event("dispute_resolved", tournament=tournament, round=rnd)
    return rnd
