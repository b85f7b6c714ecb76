"""The two statements a restore (``tourney.services.backup``) writes its rows with.

A 10,000-entry day is some 60,000 rows and 600,000 values (benchmarks/backup.py). Through
``bulk_create`` every value goes through its field's ``get_db_prep_save``, the
``created_at`` columns (``auto_now_add``) get the time of the insert, to be put back by a
second write, and ``bulk_update`` writes a CASE of one WHEN per row; on PostgreSQL, psycopg
then parses the placeholders of every such statement in Python, uncached past 4,096 bytes or
50 parameters: that alone was 8 s of an 18 s import. Here:

- ``insert_rows`` writes each row once, with its own times. A value that already has the
  column's Python type (an int for an integer, a str for a text, a bool for a boolean: what
  ``get_db_prep_save`` returns unchanged) goes to the driver as it is, anything else through
  ``get_db_prep_save``, so what is stored, or refused, is what ``bulk_create`` stores or
  refuses.
- ``set_columns`` sets some columns of rows by id, one statement per batch.
- On PostgreSQL each column's values go as one array (``unnest``): a statement has one
  parameter per column, whatever the rows. Elsewhere (SQLite) a ``VALUES`` list per batch.
  The arrays are of the columns' base types (``text``, not ``varchar(40)``: a cast would cut
  a long text where the column refuses it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Model

# Rows per statement, within the database's parameters per statement (Django's limit for
# SQLite, PostgreSQL's 65,535).
BATCH = 1000
_PLAIN = {
    int: {
        "AutoField",
        "BigAutoField",
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveBigIntegerField",
        "PositiveSmallIntegerField",
        "ForeignKey",
        "OneToOneField",
    },
    str: {"CharField", "SlugField", "TextField"},
    bool: {"BooleanField"},
}


def _rows_per_statement(columns: int) -> int:
    limit = connection.features.max_query_params or 65535
    return max(1, min(BATCH, limit // max(columns, 1)))


def _arrays() -> bool:
    return connection.vendor == "postgresql"


def _base_type(field: Field) -> str:
    return field.db_type(connection).split("(")[0]


@functools.cache
def _prep(field: Field) -> Callable[[Any], Any]:
    internal = field.get_internal_type()
    if field.is_relation:  # the key's own type
        internal = field.target_field.get_internal_type()
    plain = next((t for t, names in _PLAIN.items() if internal in names), None)

    def prep(v: Any) -> Any:
        if v is None or (plain is not None and type(v) is plain):
            return v
        v = field.get_db_prep_save(v, connection)
        # A column's array holds one type: Django's typed integer (Int4, PostgreSQL) as int.
        return int(v) if plain is int and isinstance(v, int) else v

    return prep


def _batches(fields: list[Field], rows: list[tuple], arrays: bool):
    """(number of rows, parameters) per statement: one array per column, or the values
    row after row."""
    preps = [_prep(f) for f in fields]
    size = BATCH * 10 if arrays else _rows_per_statement(len(fields))
    for start in range(0, len(rows), size):
        batch = rows[start : start + size]
        if arrays:
            columns = zip(*batch, strict=True)
            yield len(batch), [[p(v) for v in col] for p, col in zip(preps, columns, strict=True)]
        else:
            yield len(batch), [p(v) for r in batch for p, v in zip(preps, r, strict=True)]


def _source(fields: list[Field], n: int, arrays: bool) -> str:
    """The rows of one statement as a table ``v`` of columns ``column1``, ``column2``…
    (the names SQLite and PostgreSQL give a VALUES list's columns)."""
    if arrays:
        return "unnest({}) AS v({})".format(
            ", ".join(f"CAST(%s AS {_base_type(f)}[])" for f in fields),
            ", ".join(f"column{i}" for i in range(1, len(fields) + 1)),
        )
    # PostgreSQL types a VALUES list by its values (text when unknown): say the columns'.
    cast = connection.vendor == "postgresql"
    one = ", ".join(f"CAST(%s AS {_base_type(f)})" if cast else "%s" for f in fields)
    return "(VALUES {}) AS v".format(", ".join([f"({one})"] * n))


def insert_rows(model: type[Model], attnames: Sequence[str], rows: list[tuple]) -> list[int]:
    """Insert ``rows`` (values in the order of ``attnames``) into ``model``'s table in their
    order; the new ids in the same order (RETURNING, as ``bulk_create`` reads them)."""
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    fields = [by_attname[a] for a in attnames]
    qn = connection.ops.quote_name
    head = "INSERT INTO {} ({}) ".format(
        qn(model._meta.db_table), ", ".join(qn(f.column) for f in fields)
    )
    tail = f" RETURNING {qn(model._meta.pk.column)}"
    one = "({})".format(", ".join(["%s"] * len(fields)))
    arrays = _arrays()
    ids: list[int] = []
    with connection.cursor() as cursor:
        for n, params in _batches(fields, rows, arrays):
            if arrays:
                rows_sql = f"SELECT * FROM {_source(fields, n, True)}"
            else:
                rows_sql = "VALUES " + ", ".join([one] * n)
            cursor.execute(head + rows_sql + tail, params)
            ids.extend(r[0] for r in cursor.fetchall())
    return ids


def set_columns(model: type[Model], attnames: Sequence[str], rows: list[tuple]) -> None:
    """Set ``attnames`` of the rows ``(pk, value, …)``: a VALUES list per batch (as arrays,
    25,000 log payloads took PostgreSQL 12 s and psycopg 3 s of Python to write)."""
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    fields = [model._meta.pk, *(by_attname[a] for a in attnames)]
    qn = connection.ops.quote_name
    table = qn(model._meta.db_table)
    sets = ", ".join(f"{qn(f.column)} = v.column{i}" for i, f in enumerate(fields[1:], 2))
    with connection.cursor() as cursor:
        for n, params in _batches(fields, rows, False):
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM {_source(fields, n, False)} "
                f"WHERE {table}.{qn(model._meta.pk.column)} = v.column1",
                params,
            )
