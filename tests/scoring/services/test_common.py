"""What the services share (``scoring.services.common``): the locked read of an entry."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import timezone

from scoring.models import Entry
from scoring.services.common import entry_locked

pytestmark = pytest.mark.django_db


def test_an_entry_is_read_again_with_its_club_and_player(jie_long, django_assert_num_queries):
    stale = jie_long.entries[0]
    Entry.objects.filter(pk=stale.pk).update(withdrawn_at=timezone.now())
    with transaction.atomic():
        with django_assert_num_queries(1):
            fresh = entry_locked(stale)
            assert (fresh.tournament.club.pk, fresh.player.name) == (jie_long.tournament.club_id, stale.player.name)
    assert fresh.withdrawn_at is not None and stale.withdrawn_at is None
