"""``Tournament.prizes_key``: a random token the database sets whenever the payout table or
the frozen prizes are written (INSERT, or an UPDATE that names either column), so that the
tournament lock, which every write action takes, reads those two big fields (a thousand
numbers each at 10,000 entries; turning them into text was two thirds of the lock's time)
only when they changed since the process last saw them.

Triggers, so that no writer can forget it (services, undo, the admin, raw SQL). As with
``tables/migrations/0002_table_players.py``: SQLite drops a table's triggers when Django
rebuilds that table, so a later migration that alters a tournament column must run
``SQLITE_TRIGGERS`` again; ``tests/services/test_prizes_key.py`` fails if they are gone.
"""

from django.db import migrations, models

POSTGRES_TRIGGERS = """
CREATE OR REPLACE FUNCTION tourney_tournament_prizes_key() RETURNS trigger AS $$
BEGIN
  NEW.prizes_key := md5(random()::text || clock_timestamp()::text || NEW.id::text);
  RETURN NEW;
END $$ LANGUAGE plpgsql;

CREATE TRIGGER tourney_tournament_prizes_key_insert BEFORE INSERT ON tourney_tournament
  FOR EACH ROW EXECUTE FUNCTION tourney_tournament_prizes_key();
CREATE TRIGGER tourney_tournament_prizes_key_update
  BEFORE UPDATE OF payout_percentages, frozen_prizes ON tourney_tournament
  FOR EACH ROW EXECUTE FUNCTION tourney_tournament_prizes_key();
"""

POSTGRES_DROP = """
DROP TRIGGER IF EXISTS tourney_tournament_prizes_key_insert ON tourney_tournament;
DROP TRIGGER IF EXISTS tourney_tournament_prizes_key_update ON tourney_tournament;
DROP FUNCTION IF EXISTS tourney_tournament_prizes_key();
"""

SQLITE_TRIGGERS = [
    """CREATE TRIGGER IF NOT EXISTS tourney_tournament_prizes_key_insert
    AFTER INSERT ON tourney_tournament
    BEGIN UPDATE tourney_tournament SET prizes_key = lower(hex(randomblob(16)))
    WHERE id = NEW.id; END""",
    """CREATE TRIGGER IF NOT EXISTS tourney_tournament_prizes_key_update
    AFTER UPDATE OF payout_percentages, frozen_prizes ON tourney_tournament
    BEGIN UPDATE tourney_tournament SET prizes_key = lower(hex(randomblob(16)))
    WHERE id = NEW.id; END""",
]

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS tourney_tournament_prizes_key_insert",
    "DROP TRIGGER IF EXISTS tourney_tournament_prizes_key_update",
]


def create_triggers(apps, schema_editor):
    with schema_editor.connection.cursor() as c:
        if schema_editor.connection.vendor == "postgresql":
            c.execute(POSTGRES_TRIGGERS)
            c.execute("UPDATE tourney_tournament SET prizes_key = md5(random()::text || id::text)")
        elif schema_editor.connection.vendor == "sqlite":
            for sql in SQLITE_TRIGGERS:
                c.execute(sql)
            c.execute("UPDATE tourney_tournament SET prizes_key = lower(hex(randomblob(16)))")
        else:  # pragma: no cover - the project runs on these two
            raise RuntimeError("Tournament.prizes_key needs triggers for this database.")


def drop_triggers(apps, schema_editor):
    with schema_editor.connection.cursor() as c:
        if schema_editor.connection.vendor == "postgresql":
            c.execute(POSTGRES_DROP)
        else:
            for sql in SQLITE_DROP:
                c.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("tourney", "0005_event_table_number")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="prizes_key",
            field=models.CharField(default="", editable=False, max_length=32),
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
