"""A big tournament imported end to end, on the real stack: 10,000 entries and 5,000 deals.

    .venv/bin/python bench/import_big.py [--entries 10000] [--deals 5000] [--in-process]

Generates the document of a finished Jie Long tournament (``--entries`` entries at tables of
four in one session, ``--deals`` full-log deals from ``games.simulate`` dealt over the tables,
each with its record, the engine's result and the document's hash chain: what an export gives),
then, on PostgreSQL with a Celery worker on Redis started here, times from the upload to the
tournament stored: ``POST /api/v1/tournaments/import/`` through Django's test client (the
request: the body read and parsed, the upload kept, 202) until the worker (a separate process)
has stored it and the import's ``GET /api/v1/imports/{id}/`` says ``done``. Target: ≤ 60 s.

Beside it, in the same run, its floor: the same document parsed (``json.loads``) and the same
rows (players, entries, tables, seats, deals, revisions, standings) bulk-inserted with nothing
checked, in a transaction rolled back; printed as a ratio.

``--in-process``: no worker; the import runs in this process (its profile with ``--profile``).
``--shape``: no database, no worker; times the request's own checks of the same document
(``check_shape``, the shape refused before the 202, and ``storable_problem``) beside its parse
(``json.loads`` of the body), each run ``--runs`` times.
Uses its own database (``gupai_bench`` unless ``BENCH_DATABASE_URL`` says otherwise; created and
migrated here; each run adds a club) and Redis database 2 (``BENCH_REDIS_URL``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.stack import bench_env, prepare_database, start_worker  # noqa: E402

ENV = bench_env(redis="redis://127.0.0.1:6379/2")
PG = ENV["DATABASE_URL"]


def document(entries: int, deals: int, *, seed: int = 2026) -> dict:
    """A finished Jie Long tournament's document, as an export writes it."""
    import games
    from games.simulate import simulate
    from scoring.domain.documents import FORMAT, VERSION, document_hash, iso
    from scoring.domain.records import body_from_record, round_build_record
    from scoring.services.tournaments import tournament_variant_check

    variant = tournament_variant_check(game="jie_long", variant=None)
    n_tables = entries // 4
    names = [f"Player {i:05d}" for i in range(1, 4 * n_tables + 1)]
    start = datetime(2026, 11, 1, 18, 0, tzinfo=timezone.utc)
    tables = [{"id": t + 1, "session": 1, "name": f"Table {t + 1}", "seats": [4 * t + p + 1 for p in range(4)]}
              for t in range(n_tables)]
    rounds, per_table = [], [0] * n_tables
    for k, record in enumerate(simulate("jie_long", deals=deals, seed=seed, players=4, variant=variant)):
        t = k % n_tables
        per_table[t] += 1
        seated = [names[e - 1] for e in tables[t]["seats"]]
        built = round_build_record(game="jie_long", variant=variant, names=seated,
                                   body=body_from_record(record, leader=k % 4), defaults={})
        assert not built.errors, built.errors
        created = start + timedelta(seconds=k)
        rev = {"number": 1, "body": built.body, "record": built.record,
               "result": json.loads(json.dumps(games.evaluate(built.record))), "engine_version": games.ENGINE_VERSION,
               "actor": "director bench", "reason": "", "created_at": iso(created), "prev_hash": ""}
        rev["hash"] = document_hash(prev_hash="", round_id=k + 1, revision=rev, created_at=created)
        rounds.append({"id": k + 1, "table": t + 1, "number": per_table[t], "status": "recorded", "confirmed_by": None,
                       "confirmed_by_director": None, "confirmed_at": None, "void_reason": "", "disputed": False,
                       "dispute_message": "", "disputed_at": None, "created_at": iso(created), "revisions": [rev]})
    end = start + timedelta(seconds=deals + 1)
    return {
        "format": FORMAT, "version": VERSION, "exported_at": iso(end),
        "tournament": {"name": "Big import", "game": "jie_long", "variant": variant, "status": "finished",
                       "public": True, "require_confirmation": False, "chip_value": "0.10", "currency": "EUR",
                       "created_at": iso(start - timedelta(hours=1)), "started_at": iso(start),
                       "finished_at": iso(end)},
        "players": [{"id": i, "name": name} for i, name in enumerate(names, start=1)],
        "entries": [{"id": i, "player": i} for i in range(1, len(names) + 1)],
        "sessions": [{"number": 1}],
        "tables": tables,
        "rounds": rounds,
    }


class _Undo(Exception):
    pass


def floor(raw: bytes, club) -> float:
    """The same rows bulk-inserted straight from the parsed document, nothing checked, rolled back."""
    from django.db import transaction
    from django.utils import timezone as tz

    from scoring.models import Entry, Player, Round, RoundRevision, Seat, Session, Standing, Table, Tournament

    began = time.perf_counter()
    doc = json.loads(raw)["document"]
    try:
        with transaction.atomic():
            t = Tournament.objects.create(club=club, name="floor", slug=f"floor-{time.time_ns()}", game="jie_long")
            players = Player.objects.bulk_create([Player(club=club, name="floor " + p["name"]) for p in doc["players"]],
                                                 batch_size=2000)
            entries = Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in players], batch_size=2000)
            Standing.objects.bulk_create([Standing(tournament=t, entry=e) for e in entries], batch_size=2000)
            session = Session.objects.create(tournament=t, number=1)
            now = tz.now()
            tables = Table.objects.bulk_create([Table(session=session, name=tb["name"], scorer_token_created_at=now,
                                                      scorer_token_hash=f"{t.pk:016x}{tb['id']:048x}")
                                                for tb in doc["tables"]], batch_size=2000)
            Seat.objects.bulk_create([Seat(table=tables[i], position=p, entry=entries[e - 1])
                                      for i, tb in enumerate(doc["tables"]) for p, e in enumerate(tb["seats"])],
                                     batch_size=2000)
            rounds = Round.objects.bulk_create([Round(table=tables[r["table"] - 1], number=r["number"])
                                                for r in doc["rounds"]], batch_size=2000)
            RoundRevision.objects.bulk_create([
                RoundRevision(round=rnd, number=1, body=rev["body"], record=rev["record"], result=rev["result"],
                              engine_version=rev["engine_version"], actor_label=rev["actor"], created_at=now,
                              hash=rev["hash"])
                for r, rnd in zip(doc["rounds"], rounds) for rev in r["revisions"]], batch_size=2000)
            raise _Undo
    except _Undo:
        pass
    return time.perf_counter() - began


def shape(entries: int, deals: int, runs: int) -> None:
    """The request path's checks of the big document, beside its parse (see the module)."""
    import django

    django.setup()
    from bench.stack import summary, timed
    from scoring.domain.document_shape import check_shape, storable_problem

    doc = document(entries, deals)
    raw = json.dumps({"club": 1, "document": doc}, ensure_ascii=False, separators=(",", ":")).encode()
    print(f"a Jie Long document of {entries:,} entries, {len(doc['tables']):,} tables and {deals:,} deals, "
          f"{len(raw) / 1e6:.1f} MB")
    parse = timed(lambda: json.loads(raw), runs)
    kept = timed(lambda: storable_problem(doc), runs)
    checked = timed(lambda: check_shape(doc), runs)
    print(f"baseline: json.loads of the body  {summary(parse)}")
    print(f"storable_problem                  {summary(kept)}")
    print(f"check_shape                       {summary(checked)}")
    print(f"check_shape / parse (medians) = {sorted(checked)[runs // 2] / sorted(parse)[runs // 2]:4.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--deals", type=int, default=5_000)
    parser.add_argument("--in-process", action="store_true", help="run the import here, without a worker")
    parser.add_argument("--profile", action="store_true", help="with --in-process: print the import's profile")
    parser.add_argument("--shape", action="store_true", help="time the request's checks alone (no database)")
    parser.add_argument("--runs", type=int, default=5, help="with --shape: runs of each")
    args = parser.parse_args()
    if args.shape:
        return shape(args.entries, args.deals, args.runs)
    prepare_database(ENV)
    import django

    django.setup()
    from django.test import Client

    from scoring.domain.actors import Actor
    from scoring.models import Entry, Round, Standing, TournamentImport
    from scoring.services.auth import auth_token_obtain, director_create
    from scoring.services.clubs import club_create

    began = time.perf_counter()
    doc = document(args.entries, args.deals)
    stamp = int(time.time() * 1000)
    director = director_create(username=f"imp{stamp}", password="bench-secret-1")
    club = club_create(actor=Actor(user=director), name=f"Import bench {stamp}")
    raw = json.dumps({"club": club.pk, "document": doc}, ensure_ascii=False, separators=(",", ":")).encode()
    print(f"PostgreSQL {PG.rsplit('/', 1)[1]}: a Jie Long document of {args.entries:,} entries, "
          f"{len(doc['tables']):,} tables and {args.deals:,} deals, {len(raw) / 1e6:.1f} MB "
          f"(generated in {time.perf_counter() - began:.1f} s)")

    if args.in_process:
        import cProfile
        import pstats

        from scoring.services.exports import tournament_import
        profile = cProfile.Profile()
        began = time.perf_counter()
        profile.enable()
        t = tournament_import(actor=Actor(user=director), club=club, document=json.loads(raw)["document"])
        profile.disable()
        total = time.perf_counter() - began
        print(f"tournament_import in this process: {total:6.1f} s")
        if args.profile:
            pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
    else:
        worker = start_worker(ENV, "bench-import")
        try:
            token = auth_token_obtain(username=director.username, password="bench-secret-1")
            client = Client(HTTP_AUTHORIZATION=f"Token {token}")
            began = time.perf_counter()
            response = client.post("/api/v1/tournaments/import/", raw, content_type="application/json")
            answered = time.perf_counter() - began
            assert response.status_code == 202, response.content[:500]
            url = response.json()["url"]
            while True:
                job = client.get(url).json()
                if job["status"] in ("done", "failed"):
                    break
                time.sleep(0.2)
            total = time.perf_counter() - began
        finally:
            worker.terminate()
            worker.wait(10)
        assert job["status"] == "done", job
        print(f"POST /api/v1/tournaments/import/ answered 202 in {answered:5.2f} s")
        print(f"upload to tournament stored (worker, end to end): {total:6.1f} s   (target <= 60 s)")
        t = TournamentImport.objects.get(pk=job["id"]).tournament
        # The way back out: the same tournament exported (GET …/export/, verified chains, as sent).
        began = time.perf_counter()
        exported = client.get(f"/api/v1/tournaments/{t.pk}/export/")
        took = time.perf_counter() - began
        assert exported.status_code == 200, exported.content[:500]
        print(f"GET /api/v1/tournaments/{{id}}/export/ of it: {took:5.2f} s, {len(exported.content) / 1e6:.1f} MB")
    stored = (Entry.objects.filter(tournament=t).count(), Round.objects.filter(table__session__tournament=t).count(),
              sum(Standing.objects.filter(tournament=t).values_list("rounds_counted", flat=True)) // 4)
    assert stored == (args.entries, args.deals, args.deals), stored
    base = floor(raw, club)
    print(f"baseline: the same document parsed and its rows bulk-inserted, nothing checked: {base:5.1f} s;  "
          f"import / baseline = {total / base:4.2f}")


if __name__ == "__main__":
    main()
