"""python manage.py create_director USERNAME --password PASSWORD [--email E] [--club SLUG ...]"""

from django.core.management.base import BaseCommand, CommandError

from scoring.domain.errors import DomainError
from scoring.models import Club
from scoring.services.auth import director_create


class Command(BaseCommand):
    help = "Create a tournament director (a staff user with admin rights on the scoring models)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--password", required=True)
        parser.add_argument("--email", default="")
        parser.add_argument("--club", action="append", default=[],
                            help="slug of a club this director manages (repeatable)")

    def handle(self, *args, username, password, email, club, **options):
        clubs = []
        for slug in club:
            c = Club.objects.filter(slug=slug).first()
            if c is None:
                raise CommandError(f"No club with slug {slug!r}.")
            clubs.append(c)
        try:
            user = director_create(username=username, password=password, email=email, clubs=clubs)
        except DomainError as e:
            raise CommandError(str(e)) from None
        self.stdout.write(self.style.SUCCESS(f"Director {user.get_username()} created."))
