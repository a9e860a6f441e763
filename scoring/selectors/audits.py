"""Checks of what is stored: the hash chain of a deal's revisions."""

from __future__ import annotations

from dataclasses import dataclass

from ..chain import hash_of_revision
from ..models import Round, RoundRevision


@dataclass
class ChainReport:
    ok: bool
    checked: int
    first_broken: int | None = None    # revision number
    problem: str = ""

    def as_dict(self) -> dict:
        return {"ok": self.ok, "checked": self.checked, "first_broken": self.first_broken, "problem": self.problem}


def round_verify_chain(rnd: Round) -> ChainReport:
    """Recompute every revision's hash and link; report the first one that does not hold."""
    revs = list(RoundRevision.objects.filter(round=rnd).order_by("number"))
    current = Round.objects.filter(pk=rnd.pk).values_list("current_revision_id", flat=True).first()
    return verify_chain(revs, current)


def verify_chain(revs: list[RoundRevision], current_revision_id: int | None) -> ChainReport:
    """``round_verify_chain`` on revisions already read (oldest first)."""
    prev = ""
    for expected_number, rev in enumerate(revs, start=1):
        if rev.number != expected_number:
            return ChainReport(False, expected_number - 1, rev.number, f"revision {expected_number} is missing")
        if rev.prev_hash != prev:
            return ChainReport(False, expected_number - 1, rev.number, "the link to the previous revision is broken")
        if hash_of_revision(rev) != rev.hash:
            return ChainReport(False, expected_number - 1, rev.number, "the content does not match its hash")
        prev = rev.hash
    if revs and current_revision_id != revs[-1].pk:
        return ChainReport(False, len(revs), revs[-1].number, "the current revision is not the latest")
    return ChainReport(True, len(revs))
