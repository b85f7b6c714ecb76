"""PostgreSQL: leave room in each page of ``tourney_entry`` for updated row versions.

Every late entry moves the places of everyone already out down by one (RULES 7.1, places
count from the bottom of the whole field), an UPDATE of hundreds or thousands of rows. None
of the columns it changes is indexed, so with free space in the page PostgreSQL makes them
heap-only (HOT) updates, without touching the table's six indexes. SQLite updates in place.
"""

from django.db import migrations


def set_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE tourney_entry SET (fillfactor = 70)")


def reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE tourney_entry RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [("tourney", "0003_level_amounts_bigint")]

    operations = [migrations.RunPython(set_fillfactor, reset_fillfactor)]
