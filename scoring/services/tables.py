"""Sessions (sittings), tables with their seats, the tables' scorer links, and when each link's
phone was last heard."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from games import get_game
from scoring.domain import link_secrets
from scoring.domain import outbox as outbox_rules
from scoring.domain.actors import Actor
from scoring.domain.chain import sha256_hex
from scoring.domain.errors import Conflict, ValidationFailed, problem
from scoring.domain.inputs import MAX_INT32, MAX_TABLE_NAME, id_list_problems, is_int
from scoring.domain.lifecycle import SESSION_CLOSED_NO_LINKS
from scoring.models import ActionLog, Entry, PaperSheetJob, Seat, Session, Table, Tournament
from scoring.selectors.access import require_director_of
from scoring.services.common import action_log, require_text
from scoring.services.lifecycle import require_not_finished
from scoring.services.paper_sheets import paper_sheets_drop


def new_scorer_token() -> tuple[str, str]:
    """A fresh plain token and its sha256 hex (how the link finds its table)."""
    token = secrets.token_urlsafe(24)
    return token, sha256_hex(token)


def kept_secret(token: str, session: Session) -> str | None:
    """What a table keeps of its new link: the token encrypted while ``session`` is open (the
    director's sheet shows it again), nothing once it is closed (its links are not retrievable)."""
    if session.status != Session.Status.OPEN:
        return None
    return link_secrets.seal(token, secret_key=settings.SECRET_KEY, link_key=settings.LINK_KEY)


def session_create(*, actor: Actor, tournament: Tournament) -> Session:
    """The next session (sitting) of the tournament."""
    require_director_of(actor, tournament.club)
    require_not_finished(tournament)
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        number = (tournament.sessions.aggregate(m=Max("number"))["m"] or 0) + 1
        session = Session.objects.create(tournament=tournament, number=number)
        action_log(actor, ActionLog.Action.SESSION_CREATE, session, tournament=tournament, data={"number": number})
    return session


def withdrawn_problem(path: str, entry: Entry) -> dict:
    """The refusal of a withdrawn entry where players are seated (``services.roster``)."""
    return problem(path, "withdrawn", gettext("%(name)s has withdrawn: enter them again first.")
                   % {"name": entry.player.name})


def _entry_ids(entries: list, game: str) -> list[int]:
    """Entry ids in seat order, checked for shape, count and repeats (no queries)."""
    if not isinstance(entries, (list, tuple)):
        raise ValidationFailed(gettext("entries must be a list of entry ids in seat order."), path="entries", code="bad_type")
    wrong_count = get_game(game).player_count_error(len(entries))
    if wrong_count:
        raise ValidationFailed(wrong_count, path="entries", code="wrong_player_count")
    ids = [e.pk if isinstance(e, Entry) else e for e in entries]
    errors = id_list_problems(ids, "entries", not_an_id="Each seat needs an entry id.",
                              repeated="This entry already has a seat at this table.")
    if errors:
        raise ValidationFailed(errors=errors)
    return ids


def _session_for_table(*, actor: Actor, tournament: Tournament, session: int | Session | None) -> Session:
    """A Session, a session number (created if missing), or None (the latest; session 1 if none)."""
    if isinstance(session, Session):
        if session.tournament_id != tournament.pk:
            raise ValidationFailed(gettext("This session belongs to another tournament."), path="session",
                                   code="other_tournament")
        return session
    if session is None:
        latest = tournament.sessions.order_by("-number").first()
        if latest is not None:
            return latest
        session = 1
    elif not is_int(session, 1, MAX_INT32):
        raise ValidationFailed(gettext("session is a session number (1, 2, ...)."), path="session", code="bad_type")
    sess, created = Session.objects.get_or_create(tournament=tournament, number=session)
    if created:
        action_log(actor, ActionLog.Action.SESSION_CREATE, sess, tournament=tournament, data={"number": session})
    return sess


def table_create(*, actor: Actor, tournament: Tournament, name: str, entries: list,
                 session: int | Session | None = None) -> tuple[Table, str]:
    """A table with ``entries`` (Entry objects or ids) at seat positions 0..N-1, in that order
    (counter-clockwise = playing order); a withdrawn entry is refused (400 ``withdrawn``).
    ``session``: a Session, a session number (created if missing), or None (the latest session,
    session 1 created if there is none).

    Returns ``(table, plain_scorer_token)``: the token is stored hashed, and encrypted while the
    session is open (``kept_secret``: the session's sheet shows it again).
    """
    require_director_of(actor, tournament.club)
    require_not_finished(tournament)
    name = require_text(name, "name", "A table name", max_length=MAX_TABLE_NAME)
    ids = _entry_ids(entries, tournament.game)
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        found = {e.pk: e for e in Entry.objects.filter(tournament=tournament, pk__in=ids).select_related("player")}
        errors = [problem(f"entries[{i}]", "not_found", gettext("No such entry in this tournament."))
                  if eid not in found else withdrawn_problem(f"entries[{i}]", found[eid])
                  for i, eid in enumerate(ids) if eid not in found or found[eid].withdrawn_at is not None]
        if errors:
            raise ValidationFailed(errors=errors)
        sess = _session_for_table(actor=actor, tournament=tournament, session=session)
        busy = Seat.objects.filter(table__session=sess, entry_id__in=ids).select_related("table", "entry__player")
        errors = [problem(f"entries[{ids.index(s.entry_id)}]", "already_seated",
                          f"{s.entry.player.name} already sits at {s.table.name} in this session.") for s in busy]
        if errors:
            raise ValidationFailed(errors=errors)
        if Table.objects.filter(session=sess, name=name).exists():
            raise Conflict(gettext("Session %(number)s already has a table named %(name)s.") % {"number": sess.number,
                                                                                        "name": name},
                           path="name", code="exists")
        token, token_hash = new_scorer_token()
        table = Table.objects.create(session=sess, name=name, scorer_token_hash=token_hash,
                                     scorer_token_created_at=timezone.now(),
                                     scorer_token_secret=kept_secret(token, sess))
        Seat.objects.bulk_create([Seat(table=table, position=i, entry=found[eid]) for i, eid in enumerate(ids)])
        # Sheets printed before would miss this table.
        paper_sheets_drop(sessions=[sess.pk], reason=PaperSheetJob.Reason.TABLES_CHANGED)
        action_log(actor, ActionLog.Action.TABLE_CREATE, table, tournament=tournament,
                   data={"name": name, "session": sess.number,
                         "seats": [{"position": i, "entry": eid, "name": found[eid].player.name}
                                   for i, eid in enumerate(ids)]})
    return table, token


def table_scorer_token_rotate(*, actor: Actor, table: Table) -> str:
    """A new scorer token for the table of an open session; the old link stops working at once,
    and its kept secret is replaced. A closed session is refused (409 ``session_closed``,
    ``lifecycle.SESSION_CLOSED_NO_LINKS``): its links record nothing. Returns the plain token."""
    tournament = table.session.tournament
    require_director_of(actor, tournament.club)
    require_not_finished(tournament)
    with transaction.atomic():
        # Locked: a close committed meanwhile must not be followed by a link it would not erase.
        session = Session.objects.select_for_update().get(pk=table.session_id)
        if session.status != Session.Status.OPEN:
            SESSION_CLOSED_NO_LINKS.raise_()
        token, token_hash = new_scorer_token()
        Table.objects.filter(pk=table.pk).update(scorer_token_hash=token_hash, scorer_token_created_at=timezone.now(),
                                                 scorer_token_secret=kept_secret(token, session))
        # Printed sheets kept with the old link would hand out a dead one, and a live secret.
        paper_sheets_drop(sessions=[table.session_id], reason=PaperSheetJob.Reason.LINK_REPLACED)
        action_log(actor, ActionLog.Action.TABLE_SCORER_TOKEN_ROTATE, table, tournament=tournament)
    table.refresh_from_db()
    return token


def session_scorer_tokens_rotate(*, actor: Actor, session: Session) -> list[tuple[Table, str]]:
    """New scorer links for every table of an open ``session`` (a sheet that went astray: whoever
    found it could score). The old links stop working at once; the new ones are kept for the
    session's sheet. A closed session is refused as for one table (409 ``session_closed``).
    Returns ``(table, plain_token)`` by table name; one log row per table, as for one."""
    tournament = session.tournament
    require_director_of(actor, tournament.club)
    require_not_finished(tournament)
    out = []
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session.pk)
        if session.status != Session.Status.OPEN:
            SESSION_CLOSED_NO_LINKS.raise_()
        for table in Table.objects.select_for_update().filter(session=session).order_by("name"):
            token, token_hash = new_scorer_token()
            table.scorer_token_hash, table.scorer_token_created_at = token_hash, timezone.now()
            table.scorer_token_secret = kept_secret(token, session)
            table.save(update_fields=["scorer_token_hash", "scorer_token_created_at", "scorer_token_secret"])
            action_log(actor, ActionLog.Action.TABLE_SCORER_TOKEN_ROTATE, table, tournament=tournament,
                       data={"session": session.number, "sheet": True})
            out.append((table, token))
        paper_sheets_drop(sessions=[session.pk], reason=PaperSheetJob.Reason.LINK_REPLACED)
    return out


def table_phone_heard(*, table: Table, outbox: int | None, now: datetime | None = None) -> bool:
    """Note that the phone of ``table``'s scorer link was heard ``now`` and, when it said
    (``outbox``: None when not), how many items its outbox holds: what the director's console shows.
    Bookkeeping, no change to a result: no ActionLog row.

    Written only when it is news (``domain.outbox.heard_is_news``, judged from the table as the
    link's look-up read it: most requests write nothing) and then by one conditional UPDATE,
    whose WHERE asks the same again of the row as it is now: phones asking at once write it once,
    and nothing is read and written back. Whether a row was written."""
    now = now or timezone.now()
    if not outbox_rules.heard_is_news(heard_at=table.phone_heard_at, outbox_was=table.phone_outbox, outbox=outbox,
                                      now=now):
        return False
    news = Q(phone_heard_at__isnull=True) | Q(phone_heard_at__lte=now - outbox_rules.HEARD_EVERY)
    values: dict = {"phone_heard_at": now}
    if outbox is not None:
        news |= ~Q(phone_outbox=outbox)
        values["phone_outbox"] = outbox
    written = Table.objects.filter(news, pk=table.pk).update(**values) > 0
    if written:
        table.phone_heard_at = now
        table.phone_outbox = table.phone_outbox if outbox is None else outbox
    return written
