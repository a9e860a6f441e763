"""The standings' rules where they live (``scoring.domain.standings``): which deals count."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from scoring.domain.standings import counted_statuses, counts_round, deal_counts
from scoring.domain.statuses import ROUND_CONFIRMED, ROUND_RECORDED, ROUND_VOIDED


@pytest.mark.parametrize(("require_confirmation", "statuses"), [
    (False, {ROUND_RECORDED, ROUND_CONFIRMED}),
    (True, {ROUND_CONFIRMED}),
])
def test_the_counted_statuses_follow_the_tournaments_confirmation(require_confirmation, statuses):
    assert set(counted_statuses(require_confirmation)) == statuses
    assert ROUND_VOIDED not in counted_statuses(require_confirmation)


@pytest.mark.parametrize(("status", "has_revision", "require_confirmation", "counts"), [
    (ROUND_RECORDED, True, False, True),
    (ROUND_CONFIRMED, True, False, True),
    (ROUND_VOIDED, True, False, False),
    (ROUND_RECORDED, True, True, False),
    (ROUND_CONFIRMED, True, True, True),
    (ROUND_VOIDED, True, True, False),
    (ROUND_CONFIRMED, False, False, False),   # nothing to count without a revision
])
def test_which_deals_count(status, has_revision, require_confirmation, counts):
    assert deal_counts(status=status, has_revision=has_revision, require_confirmation=require_confirmation) is counts
    tournament = SimpleNamespace(require_confirmation=require_confirmation)
    rnd = SimpleNamespace(status=status, current_revision_id=7 if has_revision else None)
    assert counts_round(tournament, rnd) is counts
