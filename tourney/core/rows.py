"""Model instances from plain SQL, for the reads every write action makes.

``Model.objects.filter(...)`` builds and compiles its query on every call, and
``Model.objects.raw(...)`` works out its column mapping and converters on every call; on
the hot paths (the tournament lock, the table a button moves at, the entries of an
elimination) that Python cost was larger than the query. Here the column list and the
converters of a model are worked out once per database connection, and each read is one
plain query and ``Model.from_db`` per row — the same instances the ORM would give.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model

M = TypeVar("M", bound=Model)


class _Kept:
    """``with kept_cursor() as cursor``: the connection's kept cursor, left open at the end."""

    __slots__ = ("cursor",)

    def __init__(self, cursor) -> None:
        self.cursor = cursor

    def __enter__(self):
        return self.cursor

    def __exit__(self, *exc) -> None:
        return None


def kept_cursor():
    """A cursor for ``with … as cursor``, made once per database connection and kept: a
    write action runs four or five statements, and making Django's cursor (psycopg's cursor
    and Django's wrapper) for each was a tenth of their Python. The same wrapper, so errors
    are Django's and ``execute_wrapper`` still sees every statement. Where statements are
    logged (DEBUG, ``assertNumQueries``) each use gets a cursor of its own, as before. Every
    user reads a statement's rows before the next statement."""
    db = connections[DEFAULT_DB_ALIAS]
    raw = db.connection
    kept = db.__dict__.get("_tourney_kept_cursor")
    if kept is not None and raw is not None and kept[0] is raw and not db.queries_logged:
        return kept[1]
    cursor = db.cursor()
    if db.queries_logged:
        return cursor  # closed at the end of the with block
    kept = (db.connection, _Kept(cursor))
    db.__dict__["_tourney_kept_cursor"] = kept
    return kept[1]


def _plan(
    model: type[Model], skip: tuple[str, ...] = ()
) -> tuple[str, list[str], list[tuple[int, list, Any]]]:
    """(column list, attribute names, converters by position) for this connection, without
    the fields named in ``skip`` (they are left deferred on the instances)."""
    plans = connection.__dict__.setdefault("_tourney_row_plans", {})
    plan = plans.get((model, skip))
    if plan is None:
        fields = [f for f in model._meta.concrete_fields if f.attname not in skip]
        table = model._meta.db_table
        q = connection.ops.quote_name
        converters = []
        for i, f in enumerate(fields):
            col = f.get_col(table)
            found = connection.ops.get_db_converters(col) + f.get_db_converters(connection)
            if found:
                converters.append((i, found, col))
        plan = (
            ", ".join(f"{q(table)}.{q(f.column)}" for f in fields),
            [f.attname for f in fields],
            converters,
        )
        plans[(model, skip)] = plan
    return plan


def load(model: type[M], where: str, params: Sequence[Any], *, suffix: str = "") -> list[M]:
    """Instances of ``model`` from ``SELECT <all columns> FROM <its table> WHERE <where>``
    (``suffix``: e.g. ``ORDER BY …`` or ``FOR UPDATE``)."""
    return [obj for obj, _ in load_with(model, where, params, suffix=suffix)]


def load_with(
    model: type[M],
    where: str,
    params: Sequence[Any],
    *,
    extra: str = "",
    extra_params: Sequence[Any] = (),
    joins: str = "",
    suffix: str = "",
    skip: tuple[str, ...] = (),
) -> list[tuple[M, tuple]]:
    """Like ``load``, each instance with the values of ``extra`` (more columns, read from
    ``joins``; ``extra_params``: its parameters) beside it: a row and what belongs to it in
    one round trip. ``skip``: fields not read, left deferred (the caller may set them)."""
    columns, names, converters = _plan(model, skip)
    n = len(names)
    select = f"{columns}, {extra}" if extra else columns
    table = connection.ops.quote_name(model._meta.db_table)
    sql = f"SELECT {select} FROM {table} {joins} WHERE {where}"
    if suffix:
        sql += " " + suffix
    with kept_cursor() as cursor:
        cursor.execute(sql, [*extra_params, *params])
        rows = cursor.fetchall()
    out = []
    alias = connection.alias
    for row in rows:
        values = list(row[:n]) if converters else row[:n]
        for i, funcs, col in converters:
            value = values[i]
            for func in funcs:
                value = func(value, col, connection)
            values[i] = value
        out.append((model.from_db(alias, names, values), row[n:]))
    return out


def marks(values: Sequence[Any]) -> str:
    """``%s, %s, …`` for an IN list of these values."""
    return ", ".join(["%s"] * len(values))


def insert(
    obj: M,
    *,
    sql_values: dict[str, tuple[str, list[Any]]] | None = None,
    with_: M | None = None,
    also: tuple[str, list[Any], list[str]] | None = None,
) -> tuple:
    """INSERT ``obj`` as ``obj.save()`` would (field defaults, ``auto_now_add``), in plain
    SQL, and set its id. ``sql_values``: attribute -> (SQL expression, its parameters) for
    columns the database computes (e.g. the next entry number); those come back by
    RETURNING and are set on ``obj`` too. ``with_``: an unsaved row ``obj`` points at, to
    insert in the same statement where the database allows it (PostgreSQL: ``WITH``); name
    it ``(SELECT id FROM w)`` in ``sql_values``. Where it cannot, it is inserted first.
    ``also`` (PostgreSQL only): (a data-modifying statement with RETURNING, its parameters,
    SQL expressions over its rows named ``also``) run by the same statement; returns the
    values of those expressions (else an empty tuple)."""
    if also is not None and connection.vendor != "postgresql":
        raise ValueError("a statement in WITH needs PostgreSQL")
    sql_values = dict(sql_values or {})
    returning = connection.features.can_return_columns_from_insert
    if with_ is not None and connection.vendor != "postgresql":
        insert(with_)
        sql_values = {a: (e, p) for a, (e, p) in sql_values.items() if "FROM w)" not in e}
        for f in obj._meta.concrete_fields:
            if f.is_relation and isinstance(with_, f.related_model):
                setattr(obj, f.attname, with_.pk)
        with_ = None
    if not returning:  # an old SQLite: compute those values first (the caller holds the lock)
        with kept_cursor() as cursor:
            for attname, (expr, expr_params) in sql_values.items():
                cursor.execute(f"SELECT {expr}", expr_params)
                setattr(obj, attname, cursor.fetchone()[0])
        sql_values = {}
    sql, params = _insert_statement(obj, sql_values)
    ctes, cte_params = [], []
    if with_ is not None:
        head, head_params = _insert_statement(with_, {})
        ctes.append(f"w AS ({head} RETURNING id)")
        cte_params += head_params
    if also is not None:
        ctes.append(f"also AS ({also[0]})")
        cte_params += also[1]
    if ctes:
        sql = f"WITH {', '.join(ctes)} {sql}"
        params = cte_params + params
    back = [obj._meta.pk.attname, *sql_values]
    q = connection.ops.quote_name
    extra = list(also[2]) if also is not None else []
    if returning:
        columns = [q(obj._meta.get_field(a).column) for a in back] + extra
        sql += f" RETURNING {', '.join(columns)}"
    with kept_cursor() as cursor:
        cursor.execute(sql, params)
        if returning:
            got = cursor.fetchone()
            for attname, value in zip(back, got[: len(back)], strict=True):
                setattr(obj, attname, value)
            extras = tuple(got[len(back) :])
        else:
            setattr(obj, obj._meta.pk.attname, cursor.lastrowid)
            extras = ()
    for row in (obj, with_):
        if row is not None:
            row._state.adding = False
            row._state.db = connection.alias
    if with_ is not None:
        for f in obj._meta.concrete_fields:
            if f.is_relation and isinstance(with_, f.related_model):
                with_.pk = getattr(obj, f.attname)
    return extras


# Fields whose value goes to the database as it is (an integer in the type Django gives it on
# PostgreSQL, so a statement's parameter types stay the same) when it is of these exact types
# or None: ``get_db_prep_save`` would give the same, and calling it for each of an entry's 25
# columns was a fifth of a registration's Python.
def _as_is(field) -> tuple[tuple[type, ...], Any] | None:
    """(the types passed as they are, the integer type to wrap them in or None), or None:
    every value through ``get_db_prep_save``."""
    from django.db import models

    kinds = {
        models.IntegerField: (int,),
        models.PositiveIntegerField: (int,),
        models.PositiveSmallIntegerField: (int,),
        models.SmallIntegerField: (int,),
        models.BigIntegerField: (int,),
        models.PositiveBigIntegerField: (int,),
        models.CharField: (str,),
        models.EmailField: (str,),
        models.TextField: (str,),
        models.BooleanField: (bool,),
        models.DateTimeField: (),  # None only: a time is adapted for the database
    }
    if type(field) in (models.ForeignKey, models.OneToOneField):
        target = field.target_field  # an auto key goes as a plain int (validate_autopk_value)
        return ((int,), None) if type(target) in (models.AutoField, models.BigAutoField) else None
    types = kinds.get(type(field))
    if types is None:
        return None
    wraps = getattr(connection.ops, "integerfield_type_map", {})
    return types, (wraps.get(field.get_internal_type()) if types == (int,) else None)


def _insert_plan(meta, sql_values: dict[str, tuple[str, list[Any]]]):
    """(the INSERT's SQL, its fields each with the types passed as they are, or None) for
    these computed columns, worked out once per connection."""
    key = (meta.label, tuple((a, e) for a, (e, _) in sql_values.items()))
    plans = connection.__dict__.setdefault("_tourney_insert_plans", {})
    plan = plans.get(key)
    if plan is None:
        q = connection.ops.quote_name
        columns, values, fields = [], [], []
        for f in meta.concrete_fields:
            if f.primary_key:
                continue
            columns.append(q(f.column))
            values.append(sql_values[f.attname][0] if f.attname in sql_values else "%s")
            fields.append((f, f.attname in sql_values, _as_is(f)))
        table = q(meta.db_table)
        plan = (f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(values)})", fields)
        plans[key] = plan
    return plan


def _insert_statement(obj: Model, sql_values: dict[str, tuple[str, list[Any]]]):
    sql, fields = _insert_plan(obj._meta, sql_values)
    params = []
    for f, computed, as_is in fields:
        if computed:
            params.extend(sql_values[f.attname][1])
            continue
        value = f.pre_save(obj, True)
        if as_is is None or (value is not None and type(value) not in as_is[0]):
            value = f.get_db_prep_save(value, connection)
        elif value is not None and as_is[1] is not None:
            value = as_is[1](value)
        params.append(value)
    return sql, params
