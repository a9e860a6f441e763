"""Seating 10,000 entries on PostgreSQL: each method through the service, once through the API over
real HTTP (gunicorn), and the director's page (the seating POST and the first page of its sheet).

    .venv/bin/python bench/seating.py [--entries 10000] [--port 8791]

Bulk-creates a running Jie Long tournament with ``--entries`` entries (players and entries as
rows), then seats sessions one after another, each closing the one before (so ``standings``
and ``balanced`` have a history to read, and ``balanced`` its repeats to avoid):

1. ``random``, 2. ``standings``, 3. ``balanced`` through ``session_seat`` (the transaction
   committed), each checked: every table's link is retrievable (its kept secret) and finds its
   own table by its hash, and equals the token the seating answered;
4. ``balanced`` through ``POST /api/v1/tournaments/{id}/sessions/`` to a gunicorn worker (one
   sync worker, the site's settings, an API token): request sent to answer parsed, then the same
   request with the same ``Idempotency-Key`` (the replay: same body, nothing created);
5. the page: the seating form posted (``Idempotency-Key`` in it) and the first page of the
   sheet it redirects to (50 tables, their QR codes drawn), in-process (Django's test client).

The baseline, in the same run: bulk-inserting as many bare rows as the seating writes
(a table row per table and a row per seat, ``bench.baseline.Row``) in one transaction. Each
figure is printed beside it as a ratio. Target: every seating <= 10 s, request to answer.

Uses its own database (``gupai_bench`` unless ``BENCH_DATABASE_URL`` says otherwise; created and
migrated here, its tournaments left in place, each run adds one) and no Redis.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.stack import bench_env, prepare_database  # noqa: E402

ENV = bench_env(SECURE_COOKIES="0")
PG = ENV["DATABASE_URL"]


def build(n: int):
    from django.db import connection

    from scoring.domain.actors import Actor
    from scoring.models import Entry, Player
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create
    from scoring.services.tournaments import tournament_create, tournament_start

    stamp = int(time.time() * 1000)
    director = director_create(username=f"seat{stamp}", password="bench-secret-1")
    actor = Actor(user=director)
    club = club_create(actor=actor, name=f"Seating bench {stamp}")
    t = tournament_create(actor=actor, club=club, name=f"Seating {stamp}", game="jie_long")
    players = Player.objects.bulk_create([Player(club=club, name=f"P{i:05d}") for i in range(n)], batch_size=5000)
    Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in players], batch_size=5000)
    tournament_start(actor=actor, tournament=t)
    connection.cursor().execute("ANALYZE")
    return t, director, actor


def check_links(seated) -> int:
    """Every table's link kept, equal to the answer's token, and finding its own table by hash."""
    from scoring.domain.chain import sha256_hex
    from scoring.models import Table
    from scoring.selectors.seating import session_sheet_tables

    answered = {table.pk: token for table, token in seated.tables}
    sheet = session_sheet_tables(seated.session)
    assert len(sheet) == len(answered) and all(row.token == answered[row.table.pk] for row in sheet)
    found = dict(Table.objects.filter(scorer_token_hash__in=[sha256_hex(row.token) for row in sheet])
                 .values_list("scorer_token_hash", "pk"))
    assert all(found[sha256_hex(row.token)] == row.table.pk for row in sheet)
    return len(sheet)


def baseline(rows: int) -> float:
    """Bulk-insert ``rows`` bare rows in one transaction (then delete them): the floor of a write
    of that many rows from Django."""
    from django.db import transaction

    from bench.baseline.models import Row

    began = time.perf_counter()
    with transaction.atomic():
        Row.objects.bulk_create([Row(table=i % 2500, points=[i], key=f"k{i}") for i in range(rows)])
    took = time.perf_counter() - began
    Row.objects.all().delete()
    return took


def serve(port: int):
    cmd = [str(Path(sys.executable).with_name("gunicorn")), "gupai_site.wsgi", "-w", "1", "-b", f"127.0.0.1:{port}",
           "--timeout", "60", "--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=ENV)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            break
        except urllib.error.HTTPError:   # answering: up
            break
        except OSError:   # still starting
            time.sleep(0.2)
    return proc


def post_json(url: str, body: dict, headers: dict) -> tuple[float, int, dict, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    began = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        data = json.loads(response.read())
        took = time.perf_counter() - began
        return took, response.status, dict(response.headers), data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--port", type=int, default=8791)
    args = parser.parse_args()
    prepare_database(ENV)
    import django

    django.setup()
    from django.test import Client

    from scoring.models import Seat, Session, Table
    from scoring.services.auth import auth_token_obtain
    from scoring.services.seating import session_seat

    began = time.perf_counter()
    t, director, actor = build(args.entries)
    print(f"PostgreSQL {PG.rsplit('/', 1)[1]}: Jie Long, {args.entries:,} entries "
          f"(bulk-loaded in {time.perf_counter() - began:.1f} s); tables of 4")
    tables = args.entries // 4
    floor = baseline(tables + args.entries)
    print(f"baseline: bulk-insert {tables + args.entries:,} bare rows (one per table and seat), one transaction: "
          f"{floor:6.2f} s")

    def line(label: str, took: float, extra: str = "") -> None:
        print(f"{label:<44} {took:6.2f} s   {took / floor:5.1f}x baseline   {'OK' if took <= 10 else 'OVER 10 s'}"
              f"{'   ' + extra if extra else ''}")

    for method in ("random", "standings", "balanced"):
        began = time.perf_counter()
        seated = session_seat(actor=actor, tournament=t, method=method, table_size=4, leftovers="sit_out",
                              seed="bench")
        took = time.perf_counter() - began
        checked = check_links(seated)
        line(f"service, {method} (session {seated.session.number})", took,
             f"{checked:,} links retrievable, each finds its table")

    token = auth_token_obtain(username=director.username, password="bench-secret-1")
    server = serve(args.port)
    try:
        url = f"http://127.0.0.1:{args.port}/api/v1/tournaments/{t.pk}/sessions/"
        body = {"method": "balanced", "table_size": 4, "leftovers": "sit_out", "seed": "api"}
        headers = {"Authorization": f"Token {token}", "Idempotency-Key": f"bench-{t.pk}"}
        took, status, _, first = post_json(url, body, headers)
        assert status == 201 and len(first["tables"]) == tables
        line(f"API over HTTP, balanced (session {first['session']})", took,
             f"{len(json.dumps(first)) / 1e6:.1f} MB of JSON, no QR codes")
        before = (Session.objects.count(), Table.objects.count(), Seat.objects.count())
        took, status, replay_headers, again = post_json(url, body, headers)
        assert again == first and replay_headers.get("Idempotent-Replayed") == "true"
        assert (Session.objects.count(), Table.objects.count(), Seat.objects.count()) == before
        line("API over HTTP, the same Idempotency-Key again", took, "the same answer, nothing created")
    finally:
        server.terminate()
        server.wait(timeout=30)

    client = Client()
    client.force_login(director)
    page = client.get(f"/director/tournaments/{t.pk}/").content.decode()
    key = page.split('name="idempotency_key" value="', 1)[1].split('"', 1)[0]
    number = Session.objects.filter(tournament=t).count() + 1
    began = time.perf_counter()
    posted = client.post(f"/director/tournaments/{t.pk}/sessions/new/", {
        "method": "random", "table_size": "4", "leftovers": "sit_out", "next_session": str(number),
        "idempotency_key": key})
    seat_took = time.perf_counter() - began
    assert posted.status_code == 302, posted.status_code
    began = time.perf_counter()
    sheet = client.get(posted["Location"])
    sheet_took = time.perf_counter() - began
    html = sheet.content.decode()
    assert sheet.status_code == 200 and html.count("<svg") == 50
    line(f"page: seat (random, session {number})", seat_took)
    line("page: its sheet, page 1 (50 tables, 50 QR codes)", sheet_took,
         f"{len(sheet.content) / 1e3:.0f} kB, {tables // 50} pages")


if __name__ == "__main__":
    main()
