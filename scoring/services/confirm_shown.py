""""Confirm all shown": the paper-sheet and late deals a director's table page showed, confirmed
at once by the director, all or none.

Each deal is confirmed by ``rounds.round_confirm`` (the same guard, standings, log line with
the revision confirmed, and live event as a deal confirmed alone), inside one transaction. The
page's form names each deal with the revision it showed: a deal changed since (corrected,
confirmed, voided or disputed from elsewhere) refuses the whole batch, so that nothing is
confirmed that the director did not see.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import NotFound, PreconditionFailed, ValidationFailed
from scoring.domain.inputs import MAX_ID, MAX_INT32, is_int
from scoring.domain.lifecycle import confirmed_with_the_shown
from scoring.models import Round, RoundRevision, Table
from scoring.selectors.access import require_director_of
from scoring.selectors.rounds import TABLE_PAGE_SIZE
from scoring.services.rounds import round_confirm


def _shown_pairs(shown: Any) -> list[tuple[int, int]]:
    """``shown`` checked: a list of ``(deal id, revision number)``, each deal once, at most a page."""
    if not isinstance(shown, list) or not shown:
        raise ValidationFailed(gettext("No deal to confirm is shown."), path="deals", code="required")
    if len(shown) > TABLE_PAGE_SIZE:
        raise ValidationFailed(gettext("At most %(max)s deals are confirmed at once.") % {"max": TABLE_PAGE_SIZE},
                               path="deals", code="too_many")
    pairs = []
    for i, pair in enumerate(shown):
        if (not isinstance(pair, (list, tuple)) or len(pair) != 2 or not is_int(pair[0], 1, MAX_ID)
                or not is_int(pair[1], 1, MAX_INT32)):
            raise ValidationFailed(gettext("Each deal is named by its id and the revision shown."),
                                   path=f"deals[{i}]", code="bad_type")
        pairs.append((pair[0], pair[1]))
    if len({deal for deal, _ in pairs}) != len(pairs):
        raise ValidationFailed(gettext("A deal is named twice."), path="deals", code="duplicate")
    return pairs


def rounds_confirm_shown(*, actor: Actor, table: Table, shown: Any) -> list[Round]:
    """Confirm, as the director, the deals of ``table`` named in ``shown`` (``(deal id, revision
    number)`` as the page showed them, at most a page): every one, in deal order, or none.

    Directors of the club only. A deal of another table: NotFound. A deal whose current revision
    is no longer the one shown, or that is no longer a recorded, undisputed paper-sheet or late
    deal (``lifecycle.confirmed_with_the_shown``): PreconditionFailed ``stale_revision`` naming
    the deals, nothing confirmed. Each deal confirmed writes its own ``round_confirm`` log line
    (its revision in it) and moves the standings, as one confirmed alone."""
    require_director_of(actor, table.session.tournament.club)
    pairs = _shown_pairs(shown)
    with transaction.atomic():
        # Locked in id order (as any other batch would), then their current revisions read by id:
        # joined into the locking query they could be those from before a correction committed.
        rounds = {r.pk: r for r in Round.objects.select_for_update(of=("self",))
                  .filter(table=table, pk__in=[deal for deal, _ in pairs]).order_by("pk")}
        if len(rounds) != len(pairs):
            raise NotFound(gettext("No such deal at this table."), path="deals")
        current = dict(RoundRevision.objects.filter(pk__in=[r.current_revision_id for r in rounds.values()])
                       .values_list("pk", "number"))
        changed = sorted(rounds[deal].number for deal, revision in pairs
                         if current.get(rounds[deal].current_revision_id) != revision
                         or not confirmed_with_the_shown(rounds[deal]))
        if changed:
            raise PreconditionFailed(
                gettext("Changed since the page was shown (deal numbers): %(numbers)s. Nothing was confirmed: "
                        "look at them again.") % {"numbers": ", ".join(str(n) for n in changed)}, path="deals")
        done = []
        for rnd in sorted(rounds.values(), key=lambda r: r.number):
            rnd.table = table
            done.append(round_confirm(actor=actor, round=rnd))
    return done


__all__ = ["rounds_confirm_shown"]
