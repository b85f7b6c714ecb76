"""``Tournament.place_lag`` (RULES 7.1 during late registration): how many entries came since
the busted entries' places were written; their places are the stored ones plus this.

Adding a column with a default makes Django rebuild the table on SQLite, which drops its
triggers: the ``prizes_key`` triggers of migration 0006 are created again afterwards.
"""

import importlib

from django.db import migrations, models

prizes_key = importlib.import_module("tourney.migrations.0006_tournament_prizes_key")


def sqlite_triggers_again(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        with schema_editor.connection.cursor() as c:
            for sql in prizes_key.SQLITE_TRIGGERS:
                c.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("tourney", "0006_tournament_prizes_key")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="place_lag",
            field=models.IntegerField(
                default=0, help_text="Late entries since the busted entries' places were written"
            ),
        ),
        migrations.RunPython(sqlite_triggers_again, migrations.RunPython.noop),
    ]
