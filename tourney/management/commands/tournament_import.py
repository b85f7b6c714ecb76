import json
import sys

from django.core.management.base import BaseCommand, CommandError

from tourney.engine.errors import DomainError
from tourney.services.backup import tournament_import


class Command(BaseCommand):
    help = (
        "Restore a tournament from a backup made by tournament_export (FILE, or - for "
        "standard input) as a new tournament: new ids, everything else as it was, the log, "
        "undo and redo included. A player of the backup is the player of the same name here "
        "when exactly one player here bears that name (else a new player); users are matched "
        "by username. A backup from a newer version of Tourney is refused and nothing is "
        "written. Prints the new tournament's id."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file: str, **options):
        try:
            if file == "-":
                doc = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as f:
                    doc = json.load(f)
        except OSError as exc:
            raise CommandError(f"{file}: {exc.strerror or exc}") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise CommandError(f"{file}: not a JSON file ({exc})") from None
        try:
            t = tournament_import(document=doc)
        except DomainError as exc:
            raise CommandError(f"{file}: {exc.message}") from None
        self.stdout.write(f"Imported as tournament {t.pk} ({t.name}): /td/{t.pk}/")
