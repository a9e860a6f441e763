"""Database constraints that hold the invariants."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.models import IdempotencyKey, Round, RoundRevision, Seat, Tournament
from scoring.services.rounds import round_record

from .bodies import JIE_LONG

pytestmark = pytest.mark.django_db


def _fails(fn):
    with pytest.raises(IntegrityError):
        with transaction.atomic():
            fn()


def test_round_numbers_are_unique_per_table(jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    _fails(lambda: Round.objects.create(table=jie_long.table, number=rnd.number))
    _fails(lambda: Round.objects.create(table=jie_long.table, number=0))


def test_one_current_revision_and_unique_revision_numbers(jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    rev = rnd.current_revision
    other = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    # a revision is the current one of at most one round
    _fails(lambda: Round.objects.filter(pk=other.pk).update(current_revision=rev))

    def dup():
        RoundRevision.objects.create(round=rnd, number=1, body={}, record={}, result={}, engine_version="x",
                                     actor_label="x", created_at=timezone.now(), hash="0" * 64)
    _fails(dup)

    def unchained():
        RoundRevision.objects.create(round=rnd, number=2, body={}, record={}, result={}, engine_version="x",
                                     actor_label="x", created_at=timezone.now(), prev_hash="", hash="0" * 64)
    _fails(unchained)


def test_status_values_are_checked(jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    _fails(lambda: Round.objects.filter(pk=rnd.pk).update(status="lost"))
    _fails(lambda: Round.objects.filter(pk=rnd.pk).update(status="confirmed"))   # without confirmed_at
    _fails(lambda: Tournament.objects.filter(pk=jie_long.tournament.pk).update(status="paused"))


def test_confirming_seat_differs_from_entering_seat(jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={**JIE_LONG, "entered_by": 1})
    _fails(lambda: Round.objects.filter(pk=rnd.pk).update(confirmed_by=1))


def test_seats_are_unique(jie_long):
    _fails(lambda: Seat.objects.create(table=jie_long.table, position=0, entry=jie_long.entries[1]))
    _fails(lambda: Seat.objects.create(table=jie_long.table, position=9, entry=jie_long.entries[1]))


def test_idempotency_keys_are_unique_per_table(jie_long):
    IdempotencyKey.objects.create(table=jie_long.table, key="k", request_hash="h")
    _fails(lambda: IdempotencyKey.objects.create(table=jie_long.table, key="k", request_hash="h"))


def test_a_standing_has_a_place_column_for_every_seat_a_game_can_have():
    import games
    from scoring.models import Standing

    assert len(Standing.PLACES) >= games.MAX_PLAYERS
    assert [f.name for f in Standing._meta.get_fields() if f.name.startswith("place_")] == list(Standing.PLACES)


def test_migration_0010_fills_the_new_figures_of_deals_already_stored(tau_ngau, jie_long):
    """The deals recorded before the standings kept wins, places and the last deal time get
    them from the migration, equal to a recomputation."""
    import importlib

    from django.apps import apps

    from scoring.models import Standing
    from scoring.selectors.standings import tournament_figures

    from .bodies import TAU_NGAU_V1

    round_record(actor=tau_ngau.scorer_actor, table=tau_ngau.table, body=TAU_NGAU_V1)
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={"points": [12, 2, 34, 18]})
    Standing.objects.update(wins=0, last_deal_at=None, **{f: 0 for f in Standing.PLACES})   # as before 0010
    importlib.import_module("scoring.migrations.0010_standings_detail").fill_new_figures(apps, None)
    for setup in (tau_ngau, jie_long):
        figures = tournament_figures(setup.tournament)
        kept = {s.entry_id: (s.wins, tuple(getattr(s, f) for f in Standing.PLACES), s.last_deal_at)
                for s in Standing.objects.filter(tournament=setup.tournament)}
        assert kept == {e: (f.wins, f.places, f.last_deal_at) for e, f in figures.items()}


def test_the_jobs_choices_and_activity_read_the_one_list_of_statuses():
    from scoring.domain.statuses import AUDIT_STATUSES, IMPORT_STATUSES, JOB_ACTIVE, PAPER_SHEET_STATUSES
    from scoring.models import Audit, PaperSheetJob, TournamentImport

    for model, values in ((TournamentImport, IMPORT_STATUSES), (PaperSheetJob, PAPER_SHEET_STATUSES),
                          (Audit, AUDIT_STATUSES)):
        assert tuple(model.Status.values) == values
        assert {s for s in values if model(status=s).is_active} == set(JOB_ACTIVE)


def test_the_stored_idempotency_key_holds_the_longest_key_allowed():
    from scoring.domain.inputs import MAX_IDEMPOTENCY_KEY

    assert IdempotencyKey._meta.get_field("key").max_length == MAX_IDEMPOTENCY_KEY
