from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tourney.tokens import token_create


class Command(BaseCommand):
    help = "Create an API token for USERNAME and print it alone on the last line."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username: str, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user named {username!r}")
        key = token_create(user=user)
        self.stdout.write(f"API token for {username} (shown once; store it now):")
        self.stdout.write(key)
