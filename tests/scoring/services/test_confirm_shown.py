""""Confirm all shown" (``services.confirm_shown``): the paper-sheet and late deals a page showed,
confirmed by the director all at once, each as the revision shown, or none."""

from __future__ import annotations

import pytest

from scoring.domain.errors import NotFound, PermissionDenied, PreconditionFailed, ValidationFailed
from scoring.models import ActionLog, Round
from scoring.services.confirm_shown import rounds_confirm_shown
from scoring.services.paper_sheet_entry import paper_sheet_record
from scoring.services.rounds import round_correct, round_dispute, round_record
from scoring.services.sessions import session_close

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db

SHEET = [{"points": [2, 12, 34, 18]}, {"points": [0, 12, 20, 8]}, {"leader": 2, "points": [10, 6, 0, 6]}]


def sheet(s) -> list[Round]:
    done = paper_sheet_record(actor=s.director_actor, table=s.table, bodies=SHEET, key="sheet-1", first_number=1)
    return list(Round.objects.filter(pk__in=done.rounds).select_related("current_revision").order_by("number"))


def shown(rounds) -> list[tuple[int, int]]:
    return [(r.pk, r.current_revision.number) for r in rounds]


def test_the_shown_paper_sheet_and_late_deals_are_confirmed_each_with_its_log_line(jie_long):
    s = jie_long
    deals = sheet(s)
    session_close(actor=s.director_actor, session=s.table.session)
    late = round_record(actor=s.director_actor, table=s.table, body=JIE_LONG)
    assert late.late and not late.paper_sheet
    done = rounds_confirm_shown(actor=s.director_actor, table=s.table, shown=shown([late, *deals]))
    assert [r.number for r in done] == [1, 2, 3, 4]    # in deal order
    for r in Round.objects.filter(table=s.table):
        assert r.status == Round.Status.CONFIRMED and r.confirmed_by_user == s.director and r.confirmed_by is None
    logs = ActionLog.objects.filter(action=ActionLog.Action.ROUND_CONFIRM)
    assert sorted(int(log.target_id) for log in logs) == sorted(r.pk for r in [*deals, late])
    assert all(log.data["revision"] == 1 for log in logs)


def test_a_deal_changed_since_the_page_was_drawn_refuses_the_whole_batch(jie_long):
    s = jie_long
    deals = sheet(s)
    page = shown(deals)                                  # what the page drew
    round_correct(actor=s.director_actor, round=deals[1], body={"points": [0, 12, 24, 12]}, reason="recounted",
                  expected_revision=1)
    with pytest.raises(PreconditionFailed) as refused:
        rounds_confirm_shown(actor=s.director_actor, table=s.table, shown=page)
    assert refused.value.errors[0]["code"] == "stale_revision" and "2" in refused.value.message
    assert not Round.objects.filter(status=Round.Status.CONFIRMED).exists()
    assert not ActionLog.objects.filter(action=ActionLog.Action.ROUND_CONFIRM).exists()
    # Confirmed, voided or disputed meanwhile counts as changed too.
    round_dispute(actor=s.scorer_actor, round=deals[0], message="check")
    with pytest.raises(PreconditionFailed):
        rounds_confirm_shown(actor=s.director_actor, table=s.table, shown=[page[0]])
    # As the page shows it now: confirmed.
    assert len(rounds_confirm_shown(actor=s.director_actor, table=s.table, shown=[(deals[1].pk, 2)])) == 1


def test_only_paper_sheet_and_late_deals_of_this_table_by_a_director(jie_long, make_setup):
    s = jie_long
    phone = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)   # its table confirms it
    phone.refresh_from_db()
    with pytest.raises(PreconditionFailed):
        rounds_confirm_shown(actor=s.director_actor, table=s.table, shown=shown([phone]))
    other = make_setup("jie_long", table_name="Other")
    deals = sheet(other)
    with pytest.raises(NotFound):
        rounds_confirm_shown(actor=s.director_actor, table=s.table, shown=shown(deals))
    with pytest.raises(PermissionDenied):
        rounds_confirm_shown(actor=other.scorer_actor, table=other.table, shown=shown(deals))
    for bad in ([], "1:1", [(deals[0].pk, 1), (deals[0].pk, 1)], [(deals[0].pk, "1")], [(d.pk, 1) for d in deals] * 7):
        with pytest.raises(ValidationFailed):
            rounds_confirm_shown(actor=other.director_actor, table=other.table, shown=bad)
    assert not Round.objects.filter(status=Round.Status.CONFIRMED).exists()
