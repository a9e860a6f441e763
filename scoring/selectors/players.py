"""Players' proof: who sits where, and whether a proof (a code typed, a phone remembering the
player) holds for the player at a seat."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.utils.translation import gettext

from scoring.domain import code_hashes
from scoring.domain import proof as proofs
from scoring.domain.errors import PermissionDenied, ValidationFailed
from scoring.domain.proof import PlayerProof
from scoring.models import Entry, Seat, Substitution, Table
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


def entry_code_matches(entry: Entry, code: Any) -> bool:
    """Whether ``code`` is ``entry``'s personal code (never true while none is set): a keyed hash
    under one of ``code_keys``, or a code stored by Django's password hashers before them (PBKDF2,
    checked the old way; ``services.players.entry_code_rehash`` stores it again)."""
    if not entry.code_hash or not proofs.is_code(code):
        return False
    if code_hashes.is_keyed(entry.code_hash):
        return code_hashes.keyed_code_matches(code, entry.code_hash, keys=code_keys())
    return check_password(code, entry.code_hash)


def remembered_holds(entry: Entry, remembered: tuple[int, int] | None) -> bool:
    """Whether a phone's memory ``(entry id, code version)`` still proves ``entry``: the same
    entry, its code unchanged since (a new code or a reset changes the version)."""
    return (remembered is not None and bool(entry.code_hash)
            and tuple(remembered) == (entry.pk, entry.code_version))


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
    if not entry.code_hash:
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
    return [{"entry": e, "name": e.player.name, "has_code": bool(e.code_hash)} for e in entries]
