"""python manage.py create_referee USERNAME --password PASSWORD [--email E]"""

from django.core.management.base import BaseCommand, CommandError

from scoring.domain.errors import DomainError
from scoring.services.auth import referee_account_create


class Command(BaseCommand):
    help = ("Create a referee's account (no staff, no club): a director then names it a tournament's referee on "
            "the tournament page.")

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--password", required=True)
        parser.add_argument("--email", default="")

    def handle(self, *args, username, password, email, **options):
        try:
            user = referee_account_create(username=username, password=password, email=email)
        except DomainError as e:
            raise CommandError(str(e)) from None
        self.stdout.write(self.style.SUCCESS(f"Referee account {user.get_username()} created."))
