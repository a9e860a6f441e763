"""python manage.py vapid_keys — print a new VAPID key pair for Web Push, as environment lines
(``VAPID_PUBLIC_KEY=…``, ``VAPID_PRIVATE_KEY=…``): set them where the site and its workers run.
Nothing is stored; keep the pair (a new one makes every phone's subscription useless)."""

from django.core.management.base import BaseCommand

from scoring.domain.push import new_key_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY)."

    def handle(self, *args, **options):
        public, private = new_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
