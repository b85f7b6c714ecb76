"""``TableCount``: the open tables of each tournament counted by players and open seats, kept
by triggers on ``tables_table`` (whose ``players`` the seat triggers of 0002 keep), and an
index of the open tables by players and number. With them a late entry's draw (RULES 1.3) and
an elimination's table totals read a few rows, not every open table.

PostgreSQL counts per statement from transition tables (the draw opens a thousand tables and
changes their counts in a few statements); SQLite per row. A trigger on the tournament table
removes a deleted tournament's counts (there is no foreign key: see the model). Note for later
migrations: SQLite drops a table's triggers when Django rebuilds that table (an altered table
column); such a migration must run ``SQLITE_TRIGGERS`` again.
``tests/services/test_table_counts.py`` fails if they are gone.
"""

from django.db import migrations, models

# The open seats of a table row, and what one row adds to its bucket.
PG_ROOM = "seats - jsonb_array_length(unavailable_seats) - players"
SQLITE_ROOM = "{r}.seats - json_array_length({r}.unavailable_seats) - {r}.players"

POSTGRES_TRIGGERS = f"""
CREATE OR REPLACE FUNCTION tables_table_counted() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tables_tablecount AS c (tournament_id, players, room, tables)
    SELECT tournament_id, players, {PG_ROOM}, count(*) FROM new_tables
     WHERE status = 'open' GROUP BY 1, 2, 3
    ON CONFLICT (tournament_id, players, room) DO UPDATE SET tables = c.tables + EXCLUDED.tables;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tables_tablecount AS c (tournament_id, players, room, tables)
    SELECT tournament_id, players, {PG_ROOM}, -count(*) FROM old_tables
     WHERE status = 'open' GROUP BY 1, 2, 3
    ON CONFLICT (tournament_id, players, room) DO UPDATE SET tables = c.tables + EXCLUDED.tables;
  ELSE
    INSERT INTO tables_tablecount AS c (tournament_id, players, room, tables)
    SELECT tournament_id, players, room, sum(d) FROM (
      SELECT tournament_id, players, {PG_ROOM} AS room, 1 AS d FROM new_tables
       WHERE status = 'open'
      UNION ALL
      SELECT tournament_id, players, {PG_ROOM}, -1 FROM old_tables WHERE status = 'open'
    ) changed GROUP BY 1, 2, 3 HAVING sum(d) <> 0
    ON CONFLICT (tournament_id, players, room) DO UPDATE SET tables = c.tables + EXCLUDED.tables;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION tables_tournament_gone() RETURNS trigger AS $$
BEGIN
  DELETE FROM tables_tablecount WHERE tournament_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE TRIGGER tables_table_added AFTER INSERT ON tables_table
  REFERENCING NEW TABLE AS new_tables FOR EACH STATEMENT EXECUTE FUNCTION tables_table_counted();
CREATE TRIGGER tables_table_removed AFTER DELETE ON tables_table
  REFERENCING OLD TABLE AS old_tables FOR EACH STATEMENT EXECUTE FUNCTION tables_table_counted();
CREATE TRIGGER tables_table_changed AFTER UPDATE ON tables_table
  REFERENCING OLD TABLE AS old_tables NEW TABLE AS new_tables
  FOR EACH STATEMENT EXECUTE FUNCTION tables_table_counted();
CREATE TRIGGER tables_tournament_gone AFTER DELETE ON tourney_tournament
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION tables_tournament_gone();
"""

POSTGRES_DROP = """
DROP TRIGGER IF EXISTS tables_table_added ON tables_table;
DROP TRIGGER IF EXISTS tables_table_removed ON tables_table;
DROP TRIGGER IF EXISTS tables_table_changed ON tables_table;
DROP TRIGGER IF EXISTS tables_tournament_gone ON tourney_tournament;
DROP FUNCTION IF EXISTS tables_table_counted();
DROP FUNCTION IF EXISTS tables_tournament_gone();
"""


def _sqlite_add(row: str, sign: int) -> str:
    """The upsert adding ``sign`` to the bucket of ``row`` (NEW or OLD) if it is open."""
    return (
        "INSERT INTO tables_tablecount (tournament_id, players, room, tables) "
        f"SELECT {row}.tournament_id, {row}.players, {SQLITE_ROOM.format(r=row)}, {sign} "
        f"WHERE {row}.status = 'open' "
        "ON CONFLICT (tournament_id, players, room) DO UPDATE SET tables = tables + excluded.tables;"
    )


SQLITE_TRIGGERS = [
    "CREATE TRIGGER IF NOT EXISTS tables_table_added AFTER INSERT ON tables_table "
    f"BEGIN {_sqlite_add('NEW', 1)} END",
    "CREATE TRIGGER IF NOT EXISTS tables_table_removed AFTER DELETE ON tables_table "
    f"BEGIN {_sqlite_add('OLD', -1)} END",
    "CREATE TRIGGER IF NOT EXISTS tables_table_changed AFTER UPDATE ON tables_table "
    "WHEN OLD.status IS NOT NEW.status OR OLD.players IS NOT NEW.players "
    "OR OLD.seats IS NOT NEW.seats OR OLD.unavailable_seats IS NOT NEW.unavailable_seats "
    "OR OLD.tournament_id IS NOT NEW.tournament_id "
    f"BEGIN {_sqlite_add('OLD', -1)} {_sqlite_add('NEW', 1)} END",
    "CREATE TRIGGER IF NOT EXISTS tables_tournament_gone AFTER DELETE ON tourney_tournament "
    "BEGIN DELETE FROM tables_tablecount WHERE tournament_id = OLD.id; END",
]

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS tables_table_added",
    "DROP TRIGGER IF EXISTS tables_table_removed",
    "DROP TRIGGER IF EXISTS tables_table_changed",
    "DROP TRIGGER IF EXISTS tables_tournament_gone",
]


def recount_sql(vendor: str) -> list[str]:
    """Statements that set every tournament's counts from its tables."""
    room = PG_ROOM if vendor == "postgresql" else SQLITE_ROOM.format(r="tables_table")
    return [
        "DELETE FROM tables_tablecount",
        "INSERT INTO tables_tablecount (tournament_id, players, room, tables) "
        f"SELECT tournament_id, players, {room}, count(*) FROM tables_table "
        "WHERE status = 'open' GROUP BY 1, 2, 3",
    ]


def create_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    with schema_editor.connection.cursor() as c:
        if vendor == "postgresql":
            c.execute(POSTGRES_TRIGGERS)
        elif vendor == "sqlite":
            for sql in SQLITE_TRIGGERS:
                c.execute(sql)
        else:  # pragma: no cover - the project runs on these two
            raise RuntimeError("TableCount needs triggers for this database.")
        for sql in recount_sql(vendor):
            c.execute(sql)


def drop_triggers(apps, schema_editor):
    with schema_editor.connection.cursor() as c:
        if schema_editor.connection.vendor == "postgresql":
            c.execute(POSTGRES_DROP)
        else:
            for sql in SQLITE_DROP:
                c.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_table_break_order"),
        ("tourney", "0017_announcements_feeds"),
    ]

    operations = [
        migrations.CreateModel(
            name="TableCount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("tournament_id", models.BigIntegerField()),
                ("players", models.IntegerField()),
                ("room", models.IntegerField()),
                ("tables", models.IntegerField(default=0)),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("tournament_id", "players", "room"), name="table_count_bucket"
                    )
                ],
            },
        ),
        migrations.AddIndex(
            model_name="table",
            index=models.Index(
                fields=["tournament", "status", "players", "number"], name="table_by_players"
            ),
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
