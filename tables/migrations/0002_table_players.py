"""``Table.players``: the number of seats taken at each table, kept by triggers on
``tables_seat`` so that no writer can forget it (services, the undo journal, cascades).

PostgreSQL counts per statement from transition tables (a draw inserts thousands of seats in
a few statements); SQLite counts per row. Note for later migrations: SQLite drops a table's
triggers when Django rebuilds that table (an altered seat column); such a migration must run
``SQLITE_TRIGGERS`` again. ``tests/services/test_table_players.py`` fails if they are gone.
"""

from django.db import migrations, models

POSTGRES_TRIGGERS = """
CREATE OR REPLACE FUNCTION tables_seat_added() RETURNS trigger AS $$
BEGIN
  UPDATE tables_table t SET players = t.players + c.n
    FROM (SELECT table_id, count(*) AS n FROM new_seats GROUP BY table_id) c
   WHERE t.id = c.table_id;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION tables_seat_removed() RETURNS trigger AS $$
BEGIN
  UPDATE tables_table t SET players = t.players - c.n
    FROM (SELECT table_id, count(*) AS n FROM old_seats GROUP BY table_id) c
   WHERE t.id = c.table_id;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION tables_seat_moved() RETURNS trigger AS $$
BEGIN
  UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id;
  UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE TRIGGER tables_seat_added AFTER INSERT ON tables_seat
  REFERENCING NEW TABLE AS new_seats FOR EACH STATEMENT EXECUTE FUNCTION tables_seat_added();
CREATE TRIGGER tables_seat_removed AFTER DELETE ON tables_seat
  REFERENCING OLD TABLE AS old_seats FOR EACH STATEMENT EXECUTE FUNCTION tables_seat_removed();
CREATE TRIGGER tables_seat_moved AFTER UPDATE OF table_id ON tables_seat
  FOR EACH ROW WHEN (OLD.table_id IS DISTINCT FROM NEW.table_id)
  EXECUTE FUNCTION tables_seat_moved();
"""

POSTGRES_DROP = """
DROP TRIGGER IF EXISTS tables_seat_added ON tables_seat;
DROP TRIGGER IF EXISTS tables_seat_removed ON tables_seat;
DROP TRIGGER IF EXISTS tables_seat_moved ON tables_seat;
DROP FUNCTION IF EXISTS tables_seat_added();
DROP FUNCTION IF EXISTS tables_seat_removed();
DROP FUNCTION IF EXISTS tables_seat_moved();
"""

SQLITE_TRIGGERS = [
    """CREATE TRIGGER IF NOT EXISTS tables_seat_added AFTER INSERT ON tables_seat
    BEGIN UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id; END""",
    """CREATE TRIGGER IF NOT EXISTS tables_seat_removed AFTER DELETE ON tables_seat
    BEGIN UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id; END""",
    """CREATE TRIGGER IF NOT EXISTS tables_seat_moved AFTER UPDATE OF table_id ON tables_seat
    WHEN OLD.table_id IS NOT NEW.table_id
    BEGIN
      UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id;
      UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id;
    END""",
]

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS tables_seat_added",
    "DROP TRIGGER IF EXISTS tables_seat_removed",
    "DROP TRIGGER IF EXISTS tables_seat_moved",
]

RECOUNT = """
UPDATE tables_table SET players =
  (SELECT count(*) FROM tables_seat s WHERE s.table_id = tables_table.id)
"""


def create_triggers(apps, schema_editor):
    with schema_editor.connection.cursor() as c:
        if schema_editor.connection.vendor == "postgresql":
            c.execute(POSTGRES_TRIGGERS)
        elif schema_editor.connection.vendor == "sqlite":
            for sql in SQLITE_TRIGGERS:
                c.execute(sql)
        else:  # pragma: no cover - the project runs on these two
            raise RuntimeError("Table.players needs triggers for this database.")
        c.execute(RECOUNT)


def drop_triggers(apps, schema_editor):
    with schema_editor.connection.cursor() as c:
        if schema_editor.connection.vendor == "postgresql":
            c.execute(POSTGRES_DROP)
        else:
            for sql in SQLITE_DROP:
                c.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("tables", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="players",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
