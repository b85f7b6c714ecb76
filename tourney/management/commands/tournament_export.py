import json

from django.core.management.base import BaseCommand, CommandError

from tourney.engine.errors import DomainError
from tourney.selectors.backup import tournament_document


class Command(BaseCommand):
    help = (
        "Write a backup of tournament ID as JSON on standard output: the tournament (its clock "
        "and money), structure, chips, tables, entries and their players, seats, moves and "
        "the whole log with its undo data. Restore it with tournament_import. "
        "Example: manage.py tournament_export 3 > friday.json"
    )

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", type=int)

    def handle(self, *args, tournament_id: int, **options):
        try:
            doc = tournament_document(tournament_id)
        except DomainError as exc:
            raise CommandError(f"tournament {tournament_id}: {exc.message}") from None
        self.stdout.write(json.dumps(doc, ensure_ascii=False, sort_keys=True))
