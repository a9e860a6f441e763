"""Players' proof: who sits where, and whether a proof (a code typed, a phone remembering the
player) holds for the player at a seat or on his page; the codes that prove him (his own, the
club's Player's, and an entry's legacy one: ``entry_codes``); his seats to come."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.utils.translation import gettext

from scoring.domain import code_hashes
from scoring.domain import proof as proofs
from scoring.domain.errors import PermissionDenied, ValidationFailed
from scoring.domain.proof import PlayerProof
from scoring.models import Entry, Player, Seat, Session, Substitution, Table, Tournament
from scoring.selectors.substitutions import table_seating


def seat_entry(table: Table, seat: Any, *, number: int | None = None) -> Entry | None:
    """The entry (with its player) at ``seat`` of ``table`` — now, or at deal ``number`` (the
    player who played it, whoever was substituted since); None for no such seat."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return None
    if number is not None and Substitution.objects.filter(table=table, from_deal__gt=number).exists():
        entries = table_seating(table.pk).at(number)
        return Entry.objects.select_related("player").get(pk=entries[seat]) if 0 <= seat < len(entries) else None
    found = Seat.objects.select_related("entry__player").filter(table=table, position=seat).first()
    return found.entry if found else None


def entry_seat(table: Table, entry_id: Any) -> int | None:
    """The seat of entry ``entry_id`` at ``table``; None when it does not sit there."""
    return Seat.objects.filter(table=table, entry_id=entry_id).values_list("position", flat=True).first()


def code_keys() -> list[bytes]:
    """The keys of players' codes (``domain.code_hashes``), the one that hashes first: each of
    ``PLAYER_CODE_KEY`` (comma-separated; rotation puts the new one first), then ``SECRET_KEY``
    and its ``SECRET_KEY_FALLBACKS`` (a club moving to a dedicated key, or rotating SECRET_KEY,
    keeps its players' codes)."""
    dedicated = [k.strip() for k in settings.PLAYER_CODE_KEY.split(",") if k.strip()]
    return list(_keys(tuple(dedicated), (settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", ()))))


@lru_cache(maxsize=4)
def _keys(dedicated: tuple[str, ...], secret_keys: tuple[str, ...]) -> tuple[bytes, ...]:
    return (tuple(code_hashes.derive_key(k, dedicated=True) for k in dedicated)
            + tuple(code_hashes.derive_key(k, dedicated=False) for k in secret_keys if k))


@dataclass(frozen=True)
class Code:
    """A code that proves an entry's player: his own (``legacy`` False: on ``Player``, good in
    every tournament of the club), or the entry's from before codes moved to the player (only
    in this tournament, until the director changes his code). With where it came from: what it
    confirms (``domain.proof.confirm_refusal``)."""

    hash: str
    origin: str
    set_at: datetime | None
    set_on: str
    legacy: bool


def entry_codes(entry: Entry) -> list[Code]:
    """The codes that prove ``entry``'s player in its tournament: his own first, then the entry's
    legacy one; none while neither is set. Reads ``entry.player`` (select it with the entry)."""
    player = entry.player
    found = []
    if player.code_hash:
        found.append(Code(player.code_hash, player.code_origin, player.code_set_at, player.code_set_on, legacy=False))
    if entry.legacy_code_hash:
        found.append(Code(entry.legacy_code_hash, entry.legacy_code_origin, entry.legacy_code_set_at,
                          entry.legacy_code_set_on, legacy=True))
    return found


def has_code(entry: Entry) -> bool:
    """Whether a code proves ``entry``'s player in its tournament (his own, or the entry's legacy one)."""
    return bool(entry.player.code_hash or entry.legacy_code_hash)


def _matches(stored: str, code: Any) -> bool:
    if code_hashes.is_keyed(stored):
        return code_hashes.keyed_code_matches(code, stored, keys=code_keys())
    return check_password(code, stored)


def matching_code(entry: Entry, code: Any) -> Code | None:
    """Which of ``entry_codes`` the typed ``code`` is (his own first), or None."""
    if not proofs.is_code(code):
        return None
    return next((c for c in entry_codes(entry) if _matches(c.hash, code)), None)


def player_code_matches(player: Player, code: Any) -> bool:
    """Whether ``code`` is ``player``'s own code (a legacy entry code proves only its tournament)."""
    return bool(player.code_hash) and proofs.is_code(code) and _matches(player.code_hash, code)


def entry_code_matches(entry: Entry, code: Any) -> bool:
    """Whether ``code`` proves ``entry``'s player (never while no code is set): a keyed hash under
    one of ``code_keys``, or a code stored by Django's password hashers before them (PBKDF2,
    checked the old way; ``services.players.entry_code_rehash`` stores it again)."""
    return matching_code(entry, code) is not None


def proving_code(entry: Entry, proof: PlayerProof) -> Code | None:
    """The code ``proof`` (already checked by ``proven_entry``) stands on: the code typed, or for a
    phone's memory the player's code in force (his own, else the entry's legacy one)."""
    if proof.remembered is None:
        return matching_code(entry, proof.code)
    return next(iter(entry_codes(entry)), None)


def remembered_holds(entry: Entry, remembered: tuple[int, int] | None) -> bool:
    """Whether a phone's memory ``(player id, code version)`` still proves ``entry``'s player in
    its tournament: the same player, his code unchanged since (a new code or a reset changes the
    version), and a code proving him here."""
    return (remembered is not None and has_code(entry)
            and tuple(remembered) == (entry.player_id, entry.player.code_version))


def player_remembered(player: Player, remembered: tuple[int, int] | None) -> bool:
    """Whether a phone's memory still proves ``player`` anywhere in his club (his page): the
    same player, the same code version, his own code or a legacy one of his entries set."""
    if remembered is None or tuple(remembered) != (player.pk, player.code_version):
        return False
    return bool(player.code_hash) or Entry.objects.filter(player=player).exclude(legacy_code_hash="").exists()


def proven_entry(*, table: Table, seat: Any, proof: PlayerProof, path: str, seat_path: str,
                 number: int | None = None) -> Entry:
    """The entry at ``seat`` (at deal ``number``, if given) if ``proof`` proves it, else the refusal: no such seat (400 at
    ``seat_path``), a code of the wrong shape (400 ``bad_code``), no code set yet (403
    ``player_code_not_set``), a phone whose memory no longer holds (403
    ``player_proof_required``) or a wrong code (403 ``wrong_player_code``), at ``path``."""
    entry = seat_entry(table, seat, number=number)
    if entry is None:
        raise ValidationFailed(gettext("Name the seat of the player (0 to the last seat)."), path=seat_path,
                               code="bad_seat" if seat is not None else "required")
    name = entry.player.name
    if proof.remembered is not None:
        if not remembered_holds(entry, proof.remembered):
            raise PermissionDenied(gettext("This phone no longer proves who %(name)s is (the code was changed or "
                                           "reset): say who you are again.") % {"name": name},
                                   path=path, code=proofs.PROOF_REQUIRED)
        return entry
    if not has_code(entry):
        raise PermissionDenied(gettext("%(name)s has no personal code yet: set one on the scorer page (\"Who are "
                                       "you?\") or ask the director for a player card.") % {"name": name},
                               path=path, code=proofs.CODE_NOT_SET)
    if not proofs.is_code(proof.code):
        raise ValidationFailed(proofs.code_shape_message(), path=path, code="bad_code")
    if not entry_code_matches(entry, proof.code):
        raise PermissionDenied(gettext("Wrong code for %(name)s.") % {"name": name}, path=path,
                               code=proofs.WRONG_CODE)
    return entry


def entries_with_codes(entries) -> list[dict]:
    """``entry, name, has_code`` of each entry, for the director's pages."""
    return [{"entry": e, "name": e.player.name, "has_code": has_code(e)} for e in entries]


def proven_player(player: Player, code: Any, *, path: str = "code") -> Player:
    """``player`` if ``code`` is his own code (his page: a legacy entry code proves only its
    tournament's table), else the refusal: no code set yet (403 ``player_code_not_set``), a code
    of the wrong shape (400 ``bad_code``), a wrong code (403 ``wrong_player_code``)."""
    if not player.code_hash:
        raise PermissionDenied(gettext("%(name)s has no personal code yet: set one on the scorer page (\"Who are "
                                       "you?\") or ask the director for a player card.") % {"name": player.name},
                               path=path, code=proofs.CODE_NOT_SET)
    if not proofs.is_code(code):
        raise ValidationFailed(proofs.code_shape_message(), path=path, code="bad_code")
    if not player_code_matches(player, code):
        raise PermissionDenied(gettext("Wrong code for %(name)s.") % {"name": player.name}, path=path,
                               code=proofs.WRONG_CODE)
    return player


def player_upcoming_seats(player: Player) -> list[dict]:
    """Where ``player`` sits in the open sessions of his club's tournaments not finished (a
    withdrawn entry's seats left out), tournament by tournament: ``tournament``, ``session``,
    ``table``, ``position``, ``seats`` (how many at the table) and ``others`` (``position,
    name`` of the players beside him). Two queries, however many seats."""
    mine = list(Seat.objects.filter(entry__player=player, entry__withdrawn_at__isnull=True,
                                    table__session__status=Session.Status.OPEN)
                .exclude(table__session__tournament__status=Tournament.Status.FINISHED)
                .select_related("table__session__tournament")
                .order_by("table__session__tournament__created_at", "table__session__number", "table__name"))
    at_tables: dict[int, list[tuple[int, str]]] = {}
    for position, table_id, name in (Seat.objects.filter(table_id__in=[s.table_id for s in mine])
                                     .order_by("position").values_list("position", "table_id", "entry__player__name")):
        at_tables.setdefault(table_id, []).append((position, name))
    return [{"tournament": s.table.session.tournament, "session": s.table.session.number, "table": s.table.name,
             "position": s.position, "seats": len(at_tables.get(s.table_id, ())),
             "others": [(p, n) for p, n in at_tables.get(s.table_id, ()) if p != s.position]}
            for s in mine]
