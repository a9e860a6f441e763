"""Players' personal codes, one per player of the club (``Player.code_hash``): set by the player
at first use at a table of any of the club's tournaments (through its scorer link, only while
none proves him there) or by the director, issued by the director on a player card, reset by
the director. Stored as a keyed hash (``scoring.domain.code_hashes``: why not a password hash);
the plain code is never stored or logged.

Every change counts up ``Player.code_version``: a phone remembers a player with the version it
was proven under (``scoring.web.player_proof``), so a new code or a reset makes every phone
forget him, at every tournament of the club. Every change also records where the code came
from (``code_origin``, ``code_set_at``, and for a code set at first use the phone,
``code_set_on``): what it proves (``scoring.domain.proof``). A director's change (set, issue,
reset) also ends the player's legacy entry codes (``Entry.legacy_code_hash``, from before codes
belonged to the player), in every tournament of the club.

The services take the entry (the director's pages and the scorer page work per tournament) and
change its player's code; the log row names the entry, in its tournament, and the player.
"""

from __future__ import annotations

import secrets
from typing import Any, Collection

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain import code_hashes
from scoring.domain import proof as proofs
from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.domain.proof import ISSUED_CODE_DIGITS, code_shape_message, is_code
from scoring.models import ActionLog, Entry, Player, Round, Seat, Tournament
from scoring.selectors.access import require_director_of
from scoring.selectors.players import code_keys, has_code, matching_code
from scoring.services.common import action_log, action_logs, entry_locked, update_from_values
from scoring.services.lifecycle import require_not_finished, require_running

LEGACY_CLEARED = {"legacy_code_hash": "", "legacy_code_origin": proofs.ORIGIN_NONE, "legacy_code_set_at": None,
                  "legacy_code_set_on": ""}
CODE_FIELDS = ("code_hash", "code_version", "code_origin", "code_set_at", "code_set_on")


def _player_locked(entry: Entry) -> Player:
    """The entry's player read again and locked until the transaction ends: two tables (of two
    tournaments) setting his first code at once set one."""
    return Player.objects.select_for_update().get(pk=entry.player_id)


def _store(entry: Entry, code: str | None, *, origin: str = proofs.ORIGIN_DIRECTOR, phone: str = "") -> None:
    """Store ``code`` (None: forget it) as ``entry``'s player's code (``entry.player``, locked)
    with where it came from: ``origin``, now, and for a code set at first use the ``phone`` it
    was set on. The director's change ends his legacy entry codes too."""
    player = entry.player
    player.code_hash = _hashed(code) if code is not None else ""
    player.code_version += 1
    player.code_origin = origin if code is not None else proofs.ORIGIN_NONE
    player.code_set_at = timezone.now() if code is not None else None
    player.code_set_on = phone if code is not None and origin == proofs.ORIGIN_FIRST_USE else ""
    player.save(update_fields=list(CODE_FIELDS))
    if origin == proofs.ORIGIN_DIRECTOR or code is None:
        _end_legacy_codes([player.pk])
        for name, value in LEGACY_CLEARED.items():
            setattr(entry, name, value)


def _end_legacy_codes(player_ids) -> None:
    """The legacy entry codes of these players (ids, or a query of them), in every tournament,
    forgotten (one statement)."""
    Entry.objects.filter(player_id__in=player_ids).exclude(legacy_code_hash="").update(**LEGACY_CLEARED)


def _hashed(code: str) -> str:
    return code_hashes.code_hash(code, key=code_keys()[0])


def entry_code_rehash(*, actor: Actor, entry: Entry, code: str) -> None:
    """After ``code`` proved ``entry``'s player: store it again under the current key when it was
    stored by PBKDF2 (before keyed hashes) or under an older key — his own code or the entry's
    legacy one, whichever it was. The code, its version and where it came from do not change,
    so no phone forgets the player and nothing is logged (no action: the same code, stored
    otherwise). Only if the stored hash is still the one checked."""
    found = matching_code(entry, code)
    if found is None or not code_hashes.needs_rehash(found.hash, current=code_keys()[0]):
        return
    new = _hashed(code)
    if found.legacy:
        if Entry.objects.filter(pk=entry.pk, legacy_code_hash=found.hash).update(legacy_code_hash=new):
            entry.legacy_code_hash = new
    elif Player.objects.filter(pk=entry.player_id, code_hash=found.hash).update(code_hash=new):
        entry.player.code_hash = new


def _refuse_another_players_first_code(actor: Actor, entry: Entry, proven_here: Collection[int]) -> None:
    """A phone that speaks for one player sets no other player's first code (403
    ``phone_proves_another_player``): else it could confirm its own deals as them. What it
    speaks for: ``proven_here`` (what the phone remembers proving) and the deals it entered in
    this tournament (``Round.entered_on``), whoever they were entered as. Both by player."""
    entered_as = set(Round.objects.filter(table__session__tournament_id=entry.tournament_id, entered_on=actor.phone)
                     .values_list("entered_by_entry__player_id", flat=True).distinct()) if actor.phone else set()
    if proofs.first_code_refusal(player_id=entry.player_id, proven_here=proven_here, entered_as=entered_as):
        raise PermissionDenied(gettext("This phone already speaks for another player: %(name)s sets their first code "
                                       "on their own phone, or asks the director for a player card.")
                               % {"name": entry.player.name}, path="code", code=proofs.PHONE_PROVES_ANOTHER)


def _logged(entry: Entry, by: str) -> dict:
    return {"player": entry.player_id, "name": entry.player.name, "by": by, "version": entry.player.code_version}


def entry_code_set(*, actor: Actor, entry: Entry, code: Any, code_again: Any = None,
                   proven_here: Collection[int] = ()) -> Entry:
    """Set the personal code of ``entry``'s player (4 to 6 digits; ``code_again``, when given, must
    repeat it): his code in every tournament of the club.

    Through a scorer link: the player sits at that table, the tournament runs, and no code proves
    him there yet (his own or the entry's legacy one; 409 ``code_already_set``: only the director
    changes a code, so nobody at the table can take over another player's); the phone
    (``actor.phone``) has proven no other player (``proven_here``, the players it remembers
    proving in the club) and entered no deal as one (403
    ``phone_proves_another_player``). Such a code is "set at first use": it confirms only deals
    entered after it, from another phone. A director of the club: any time before the finish,
    a code as good as one they issue."""
    if not is_code(code):
        raise ValidationFailed(code_shape_message(), path="code", code="bad_code")
    if code_again is not None and code_again != code:
        raise ValidationFailed(gettext("The two codes differ: type the same code twice."), path="code_again",
                               code="codes_differ")
    with transaction.atomic():
        e = entry_locked(entry)
        e.player = _player_locked(e)
        tournament = e.tournament
        if actor.is_scorer:
            if not Seat.objects.filter(table=actor.table, entry=e).exists():
                raise PermissionDenied(gettext("This player does not sit at this table."), code="not_at_table")
            require_running(tournament)
            if has_code(e):
                raise Conflict(gettext("%(name)s already has a code: type it, or ask the director to reset it.")
                               % {"name": e.player.name}, path="code", code="code_already_set")
            _refuse_another_players_first_code(actor, e, proven_here)
            _store(e, code, origin=proofs.ORIGIN_FIRST_USE, phone=actor.phone)
        else:
            require_director_of(actor, tournament.club)
            require_not_finished(tournament)
            _store(e, code)
        action_log(actor, ActionLog.Action.ENTRY_CODE_SET, e, tournament=tournament,
                   data=_logged(e, "player" if actor.is_scorer else "director"))
    _copy_code(e, entry)
    return entry


def _copy_code(locked: Entry, entry: Entry) -> None:
    """The caller's ``entry`` (and its player) as stored now (the codes and where they came from)."""
    for name in LEGACY_CLEARED:
        setattr(entry, name, getattr(locked, name))
    entry.player = locked.player


def _new_code() -> str:
    return f"{secrets.randbelow(10 ** ISSUED_CODE_DIGITS):0{ISSUED_CODE_DIGITS}d}"


def _issue(actor: Actor, entry: Entry, tournament: Tournament) -> str:
    code = _new_code()
    _store(entry, code)
    action_log(actor, ActionLog.Action.ENTRY_CODE_ISSUE, entry, tournament=tournament, data=_logged(entry, "director"))
    return code


def entry_code_issue(*, actor: Actor, entry: Entry) -> str:
    """A fresh code for ``entry``'s player (directors), replacing any (in every tournament of the
    club): the plain code, to be printed on the player's card now; only its hash is kept."""
    require_director_of(actor, entry.tournament.club)
    with transaction.atomic():
        e = entry_locked(entry)
        e.player = _player_locked(e)
        require_not_finished(e.tournament)
        code = _issue(actor, e, e.tournament)
    _copy_code(e, entry)
    return code


def entry_codes_issue(*, actor: Actor, tournament: Tournament) -> list[tuple[Entry, str]]:
    """A fresh code for the player of every entry of ``tournament`` (directors; the printable
    sheet of player cards): ``(entry, code)`` by player name. One row per entry, as
    ``entry_code_issue`` logs. The same queries for 20 entries or 2,000: the entries locked in
    one and their players in one, their codes written in one statement a chunk, their legacy
    codes ended in one, the log rows inserted in one."""
    require_director_of(actor, tournament.club)
    with transaction.atomic():
        require_not_finished(tournament)
        entries = list(Entry.objects.select_for_update(of=("self",)).filter(tournament=tournament)
                       .order_by("player__name", "id"))
        players = {p.pk: p for p in Player.objects.select_for_update(of=("self",)).filter(entries__tournament=tournament)}
        for e in entries:
            e.player = players[e.player_id]
        now = timezone.now()
        cards = []
        for e in entries:
            code, p = _new_code(), e.player
            p.code_hash, p.code_version, p.code_origin = _hashed(code), p.code_version + 1, proofs.ORIGIN_DIRECTOR
            p.code_set_at, p.code_set_on = now, ""
            for name, value in LEGACY_CLEARED.items():
                setattr(e, name, value)
            cards.append((e, code))
        update_from_values(Player, key="id", columns=CODE_FIELDS,
                           rows=[(e.player_id, *(getattr(e.player, n) for n in CODE_FIELDS)) for e in entries])
        _end_legacy_codes(Entry.objects.filter(tournament=tournament).values("player_id"))
        action_logs(actor, ActionLog.Action.ENTRY_CODE_ISSUE, [(e, _logged(e, "director")) for e in entries],
                    tournament=tournament)
        return cards


def entry_code_reset(*, actor: Actor, entry: Entry) -> Entry:
    """Forget the code of ``entry``'s player (directors): his own and his legacy entry codes, in
    every tournament of the club. He sets a new one at his next use, and every phone that
    remembered him forgets him."""
    require_director_of(actor, entry.tournament.club)
    with transaction.atomic():
        e = entry_locked(entry)
        e.player = _player_locked(e)
        require_not_finished(e.tournament)
        _store(e, None)
        action_log(actor, ActionLog.Action.ENTRY_CODE_RESET, e, tournament=e.tournament, data=_logged(e, "director"))
    _copy_code(e, entry)
    return entry
