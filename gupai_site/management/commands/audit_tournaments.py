"""``manage.py audit_tournaments``: the replay audit (``scoring.services.audits``) of every
tournament of this database, run in this process to the end (tasks eager, whatever the broker),
one result line each; exit status 1 when any audit did not pass. The restore drill runs it in
the scratch database (``restore_drill``)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from scoring.domain.actors import Actor
from scoring.models import Audit, Tournament
from scoring.selectors.audits import audit_finding_counts
from scoring.services.audits import audit_start, audits_resume


def audit_all() -> list[dict]:
    """Every tournament audited now: ``{tournament, name, status, deals, problems, error}`` each."""
    from gupai_site.celery import app

    old = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    try:
        actor = Actor.system()
        audits_resume(actor=actor, stale_after=None)   # audits caught mid-way (their worker is gone)
        results = []
        for tournament in Tournament.objects.select_related("club").order_by("pk"):
            audit = audit_start(actor=actor, tournament=tournament)
            audit = Audit.objects.get(pk=audit.pk)
            counts = audit_finding_counts(audit.pk)
            results.append({"tournament": tournament.pk, "name": tournament.name, "status": audit.status,
                            "deals": audit.total, "problems": sum(c["problems"] for c in counts.values()),
                            "error": audit.error or ""})
        return results
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = old


class Command(BaseCommand):
    help = "Run the replay audit of every tournament here, in this process; fail when any does not pass."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="One JSON document instead of lines.")

    def handle(self, *args, **options):
        results = audit_all()
        failed = [r for r in results if r["status"] != Audit.Status.PASSED]
        if options["json"]:
            self.stdout.write(json.dumps({"tournaments": results, "failed": len(failed)}))
        else:
            for r in results:
                self.stdout.write(f"{r['status']:>7}  #{r['tournament']} {r['name']}: {r['deals']} deals, "
                                  f"{r['problems']} problems{' — ' + r['error'] if r['error'] else ''}")
            self.stdout.write(f"{len(results)} tournaments audited, {len(failed)} not passed.")
        if failed:
            raise CommandError(f"{len(failed)} of {len(results)} tournaments did not pass the replay audit.")
