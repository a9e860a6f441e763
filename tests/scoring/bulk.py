"""A long table made quickly: one deal recorded through the service, then copied in bulk
(rows, not services: no log, no hash chain of their own; the standings recounted once), all
of them last changed an hour ago unless told."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from scoring.models import Round, RoundRevision
from scoring.services.rounds import round_record
from scoring.services.standings import standings_refresh


def bulk_deals(setup, body: dict, count: int, *, changed_ago: timedelta = timedelta(hours=1)) -> list[Round]:
    """``count`` deals of ``body`` at the setup's table, numbered from 1."""
    first = round_record(actor=setup.scorer_actor, table=setup.table, body=body)
    rev = first.current_revision
    same = {f.attname: getattr(first, f.attname) for f in Round._meta.concrete_fields
            if f.attname not in ("id", "number", "current_revision_id", "created_at", "updated_at")}
    rounds = Round.objects.bulk_create([Round(**same, number=k) for k in range(2, count + 1)])
    revisions = RoundRevision.objects.bulk_create([
        RoundRevision(round=r, number=1, body=rev.body, record=rev.record, result=rev.result,
                      engine_version=rev.engine_version, actor_label=rev.actor_label, created_at=rev.created_at,
                      hash=rev.hash) for r in rounds])
    for r, v in zip(rounds, revisions):
        r.current_revision = v
    Round.objects.bulk_update(rounds, ["current_revision"], batch_size=500)
    # update() leaves auto_now alone: the deals were changed a while ago, not just now.
    Round.objects.filter(table=setup.table).update(updated_at=timezone.now() - changed_ago)
    standings_refresh(tournament=setup.tournament)
    return [first, *rounds]


def bulk_entries(tournament, count: int, *, prefix: str = "P") -> list:
    """``count`` entries of new players of the tournament's club, as rows (no log)."""
    from scoring.models import Entry, Player

    players = Player.objects.bulk_create([Player(club=tournament.club, name=f"{prefix}{i:05d}") for i in range(count)])
    return Entry.objects.bulk_create([Entry(tournament=tournament, player=p) for p in players])
