"""Player cards for 200 players, on PostgreSQL: one request issues every code and draws the sheet.

    .venv/bin/python bench/player_cards.py [--players 200] [--runs 5] [--old 10]

Bulk-creates a tournament of ``--players`` entries (with proof), then times the director's POST
of "Player cards" (``entry_codes_issue``: a fresh code for every entry, stored as a keyed hash,
``scoring.domain.code_hashes``, and the printable sheet) through Django's test client: target
< 5 s for 200 players. The baseline is how codes were stored before, Django's PBKDF2 password
hasher at its default iterations: ``--old`` codes hashed that way, timed, and scaled to the
players (what the same request spent on hashing alone).

Uses its own database (``gupai_bench`` unless ``BENCH_DATABASE_URL`` says otherwise; created
and migrated here; each run adds a tournament) and no Redis.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.stack import bench_env, prepare_database, summary, timed  # noqa: E402

ENV = bench_env()


def build(players: int):
    from django.db import transaction

    from scoring.domain.actors import Actor
    from scoring.models import Entry, Player, Tournament
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create
    from scoring.services.tournaments import tournament_create

    stamp = int(time.time() * 1000)
    director = director_create(username=f"cards{stamp}", password="bench-secret-1")
    actor = Actor(user=director)
    club = club_create(actor=actor, name=f"Cards bench {stamp}")
    t = tournament_create(actor=actor, club=club, name=f"Cards {stamp}", game="jie_long", chip_value="0.10",
                          currency="EUR", public=True, require_proof=True)
    with transaction.atomic():
        made = Player.objects.bulk_create([Player(club=club, name=f"Player {i:04d}") for i in range(players)])
        Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in made])
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    return director, t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--old", type=int, default=10)
    args = parser.parse_args()
    prepare_database(ENV)
    import django

    django.setup()
    from django.contrib.auth.hashers import PBKDF2PasswordHasher
    from django.test import Client

    director, t = build(args.players)
    client = Client()
    client.force_login(director)
    path = f"/director/tournaments/{t.pk}/player-cards/"

    def issue():
        response = client.post(path)
        assert response.status_code == 200 and response.content.count(b"card") >= args.players, response.status_code

    now = timed(issue, args.runs)
    hasher = PBKDF2PasswordHasher()
    old_each = statistics.median(timed(lambda: hasher.encode("482193", hasher.salt()), args.old))
    old = old_each * args.players
    print(f"PostgreSQL, {args.players} players; PBKDF2 at {hasher.iterations:,} iterations before")
    print(f"POST {path} (every code issued, the sheet drawn): {summary(now)}   (target < 5,000 ms)")
    print(f"baseline, PBKDF2 hashing alone: {old_each:6.1f} ms a code x {args.players} = {old:8.0f} ms;  "
          f"baseline / now = {old / statistics.median(now):5.0f}")


if __name__ == "__main__":
    main()
