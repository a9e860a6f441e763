"""python manage.py load_demo [--new-link]

Loads a small demo, once, through the services (so every write is checked and audited like a
real one): a director ``demo``, a club with twelve players, a running Ding Niu tournament (two
tables of four) and a running Tau Ngau tournament (tables of five and four), both public, each
table with a few legal deals from the engine's simulator (``games.simulate``); the club's
rating ladder public, and a public season counting both tournaments (the Tau Ngau night twice).

Running it again changes nothing and says so. Scorer links are stored hashed, so a link can
only be printed when it is made: the first run prints one; later runs print how to get one,
and ``--new-link`` replaces the link of the demo's first table (the old one stops working) and
prints the new one.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games import get_game
from games.simulate import simulate
from scoring.domain.actors import Actor
from scoring.domain.errors import DomainError
from scoring.domain.records import body_from_record
from scoring.models import Club, Table
from scoring.selectors.tables import round_defaults
from scoring.services.auth import director_create
from scoring.services.clubs import club_create, club_ratings_update, player_create
from scoring.services.rounds import round_confirm, round_dispute, round_record
from scoring.services.seasons import season_create, season_tournament_add
from scoring.services.tables import table_create, table_scorer_token_rotate
from scoring.services.tournaments import entry_create, tournament_create, tournament_start
from scoring.web import links

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "gupai-demo"
CLUB_SLUG = "demo-club"
CLUB_NAME = "Demo Domino Club"
BASE_URL = "http://127.0.0.1:8000"
PLAYERS = ["Anna", "Bo", "Chen", "Dara", "Eun-ji", "Fang", "Gil", "Hui", "Ines", "Jun", "Kai", "Lan"]

#: (name, slug, game, variant, tables: (table name, player indexes in seat order), seed,
#: whether its first table's last deal is disputed, its weight in the demo season)
TOURNAMENTS = [
    ("Ding Niu open (demo)", "demo-ding-niu", "ding_niu", {},
     [("Table 1", [0, 1, 2, 3]), ("Table 2", [4, 5, 6, 7])], 11, True, 1),
    ("Tau Ngau night (demo)", "demo-tau-ngau", "tau_ngau", {"settlement": "v2"},
     [("Banker A", [8, 9, 10, 11, 0]), ("Banker B", [1, 2, 3, 4])], 12, False, 2),
]
DEALS_PER_TABLE = 3
SEASON_NAME = "Demo season"


class Command(BaseCommand):
    help = "Load the demo director, club, tournaments and deals (once; a second run changes nothing)."

    def add_arguments(self, parser):
        parser.add_argument("--new-link", action="store_true",
                            help="replace the scorer link of the demo's first table and print it")
        parser.add_argument("--base-url", default=BASE_URL, help=f"site address for printed links ({BASE_URL})")

    def handle(self, *args, new_link=False, base_url=BASE_URL, **options):
        base_url = base_url.rstrip("/")
        try:
            if Club.objects.filter(slug=CLUB_SLUG).exists():
                self.stdout.write("The demo is already loaded; nothing changed.")
                link = self._rotate_link() if new_link else None
            else:
                link = self._load()
                self.stdout.write(self.style.SUCCESS("Demo loaded: 1 club, 12 players, 2 running tournaments, "
                                                     "4 tables, deals at every table, a public rating ladder "
                                                     "and a season."))
        except DomainError as e:
            raise CommandError(f"The demo could not be loaded: {e}") from None
        self.stdout.write(f"Director login: {base_url}/director/login/  username {DEMO_USERNAME}  "
                          f"password {DEMO_PASSWORD}")
        if link:
            self.stdout.write(f"Scorer link of {link[0]}: {base_url}{links.scorer_path(link[1])}")
        else:
            self.stdout.write("Scorer links are shown only when they are made. Get one with "
                              "`python manage.py load_demo --new-link`, or log in and press "
                              "\"New scorer link\" on a table.")

    def _director(self):
        User = get_user_model()
        user = User.objects.filter(username=DEMO_USERNAME).first()
        if user is None:
            user = director_create(username=DEMO_USERNAME, password=DEMO_PASSWORD, actor=Actor.system())
        return user

    @transaction.atomic
    def _load(self) -> tuple[str, str]:
        director = Actor(user=self._director())
        club = club_create(actor=director, name=CLUB_NAME, slug=CLUB_SLUG)
        players = [player_create(actor=director, club=club, name=name) for name in PLAYERS]
        first_link = None
        club_ratings_update(actor=director, club=club, ladder_public=True, unrated_games=[])
        season = season_create(actor=director, club=club, name=SEASON_NAME, slug="demo-season", public=True)
        for name, slug, game, variant, tables, seed, dispute, weight in TOURNAMENTS:
            t = tournament_create(actor=director, club=club, name=name, slug=slug, game=game,
                                           variant=variant, public=True, chip_value="0.10", currency="EUR")
            wanted = sorted({i for _, seats in tables for i in seats})
            entries = {i: entry_create(actor=director, tournament=t, player=players[i]) for i in wanted}
            made = []
            for table_name, seats in tables:
                table, token = table_create(actor=director, tournament=t, name=table_name,
                                                     entries=[entries[i] for i in seats])
                made.append((table, len(seats)))
                if first_link is None:
                    first_link = (f"{table_name} of {name}", token)
            tournament_start(actor=director, tournament=t)
            season_tournament_add(actor=director, season=season, tournament=t, weight=weight)
            for k, (table, n) in enumerate(made):
                self._deals(table, game, n, seed=seed * 10 + k, dispute=(k == 0 and dispute))
        return first_link

    def _deals(self, table: Table, game: str, n: int, *, seed: int, dispute: bool = False) -> None:
        scorer = Actor(table=table, ip="127.0.0.1")
        level = "points" if seed % 2 else "unplayed_tiles"
        records = simulate(game, deals=DEALS_PER_TABLE, seed=seed, players=n,
                           **({"level": level} if get_game(game).connecting else {}))
        for i, record in enumerate(records):
            defaults = round_defaults(table)
            body = body_from_record(record, leader=defaults.get("leader") or 0, banker=defaults.get("banker") or 0)
            body["entered_by"] = i % n
            rnd = round_record(actor=scorer, table=table, body=body)
            if i == 0:
                round_confirm(actor=scorer, round=rnd, confirmed_by=(i + 1) % n)
            if dispute and i == DEALS_PER_TABLE - 1:
                round_dispute(actor=scorer, round=rnd, message="Demo: was the last tile really played?")

    def _rotate_link(self) -> tuple[str, str] | None:
        table = (Table.objects.filter(session__tournament__club__slug=CLUB_SLUG)
                 .select_related("session__tournament").order_by("id").first())
        if table is None:
            return None
        director = Actor(user=self._director())
        token = table_scorer_token_rotate(actor=director, table=table)
        self.stdout.write(f"The scorer link of {table.name} was replaced (the old one no longer works).")
        return (f"{table.name} of {table.session.tournament.name}", token)
