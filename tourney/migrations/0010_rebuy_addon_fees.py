"""``Tournament.rebuy_fee`` and ``addon_fee``: a fee taken with each rebuy and add-on, kept
apart from the prize pool with the entry's other fees (RULES 8.1).

Adding a column with a default makes Django rebuild the table on SQLite, which drops its
triggers: the ``prizes_key`` triggers of migration 0006 are created again afterwards, by
0007's own step.
"""

import importlib

from django.db import migrations, models

place_lag = importlib.import_module("tourney.migrations.0007_tournament_place_lag")


class Migration(migrations.Migration):
    dependencies = [("tourney", "0009_entry_by_place")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="rebuy_fee",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="tournament",
            name="addon_fee",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.RunPython(place_lag.sqlite_triggers_again, migrations.RunPython.noop),
    ]
