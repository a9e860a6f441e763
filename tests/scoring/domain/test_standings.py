"""The standings' rules where they live (``scoring.domain.standings``): which deals count, the
tie-break keys' facts and words."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from scoring.domain.standings import (
    DEFAULT_TIE_BREAKS,
    TIE_BREAK_FACTS,
    TIE_BREAKS,
    counted_statuses,
    counts_round,
    deal_counts,
    tie_break_labels,
)
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


def test_one_table_holds_every_tie_break_key_with_its_facts_and_words():
    assert TIE_BREAKS == ("net", "wins", "average_place", "head_to_head", "deals")
    assert set(DEFAULT_TIE_BREAKS) <= set(TIE_BREAKS)
    assert [k for k, f in TIE_BREAK_FACTS.items() if not f.may_lead] == ["head_to_head"]
    assert all(f.order and str(f.label) and str(f.choice) for f in TIE_BREAK_FACTS.values())


def test_a_ranking_line_names_its_keys_in_order_and_in_the_readers_language():
    with translation.override("en"):
        assert [str(w) for w in tie_break_labels(["wins", "net", "head_to_head"])] == ["wins", "net", "head-to-head"]
    with translation.override("zh-hans"):
        assert str(tie_break_labels(["net"])[0]) != "net"
