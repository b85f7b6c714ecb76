"""Reads of tables and seats: the open tables as engine data, their totals, the tables a
late entry draws into, who sits where. No writes: ``tables.services`` builds on these (and
never the other way round), and the screens and the API read them too."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from django.db import connection

from tables.engine import balancing
from tables.engine import model as em
from tables.models import Seat, Table, TableCount
from tourney.core.rows import kept_cursor
from tourney.core.rows import load as load_rows
from tourney.core.rows import load_with as load_rows_with
from tourney.core.rows import marks as in_marks
from tourney.engine.errors import DomainError
from tourney.models import Entry, Tournament

MSG_NO_TABLE = "There is no table with that number: check the number on the table tile."


# ---------------------------------------------------------------- reading rows as engine data


class TableRow(NamedTuple):
    """The columns of an open table the engines need, without a model instance per table."""

    pk: int
    number: int
    seats: int
    break_rank: int
    button_seat: int | None
    unavailable_seats: list[int]
    players: int


NONE_BLOCKED = frozenset({None, "", "[]", "null"})
TABLE = Table._meta.db_table
SEAT = Seat._meta.db_table
ENTRY = Entry._meta.db_table


def _table_rows(rows: Iterable[tuple]) -> list[TableRow]:
    """TableRows from (id, number, seats, break_rank, button_seat, unavailable seats as JSON
    text, players); the JSON is parsed only where a table has unavailable seats."""
    return [
        TableRow(pk, n, seats, rank, button, [] if b in NONE_BLOCKED else json.loads(b), players)
        for pk, n, seats, rank, button, b, players in rows
    ]


def open_tables(t: Tournament) -> list[TableRow]:
    """The open tables, by number. Read after eliminations that break or balance, at a
    thousand tables, so in plain SQL, and the unavailable seats come as text, parsed only
    where there are any."""
    blocked, _ = blocked_sql()
    sql = (
        f"SELECT id, number, seats, break_rank, button_seat, {blocked}, players "
        f"FROM {TABLE} WHERE tournament_id = %s AND status = %s ORDER BY number"
    )
    with kept_cursor() as cursor:
        cursor.execute(sql, [t.pk, Table.Status.OPEN.value])
        return _table_rows(cursor.fetchall())


class OpenSummary(NamedTuple):
    """The open tables in totals (``open_summary``)."""

    tables: int
    players: int
    seats: int  # available seats
    first_capacity: int  # available seats at the table due to break next (RULES 3.5)
    most: int | None  # most and fewest players at one table, the tables ``apart`` left out
    least: int | None
    apart: dict[int, int]  # players at each table named in ``apart`` that is open
    waiting: int  # alternates waiting for a seat
    top_number: int  # the highest entry number (0: none), for ``money.place_is_paid``


def open_summary(t: Tournament, apart: Sequence[int] = ()) -> OpenSummary:
    """The open tables in totals, with the alternates waiting and the highest entry number,
    in one query: what an elimination needs to tell (``balancing.settled``) that nothing is
    to break or balance, without reading a thousand tables. ``apart``: tables whose counts
    the caller is about to change (where players just broke), given one by one and left out
    of most and least. Standalone form: an elimination reads the same SELECT
    (``summary_select``) joined to its entries, in one statement with them."""
    apart = list(dict.fromkeys(apart))
    sql, params = summary_select(t)
    open_ = Table.Status.OPEN.value
    each = [
        f"(SELECT players FROM {TABLE} WHERE tournament_id = {t.pk:d} AND status = '{open_}' "
        f"AND number = {n:d})"
        for n in apart
    ]
    if each:
        sql = f"SELECT summary.*, {', '.join(each)} FROM ({sql}) summary"
    with kept_cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return summary_of(row[:SUMMARY_COLUMNS], dict(zip(apart, row[SUMMARY_COLUMNS:], strict=True)))


SUMMARY_COLUMNS = 7
COUNT = TableCount._meta.db_table


def summary_select(t: Tournament) -> tuple[str, list]:
    """``open_summary``'s one-row SELECT (``SUMMARY_COLUMNS`` columns, ``s0``…), from the
    tournament's few ``TableCount`` rows, not its tables: the tables, players and available
    seats in all, the count of tables by players as text (``players:tables,…``, for most and
    least), the next table to break's available seats (RULES 3.5), the alternates waiting and
    the highest entry number."""
    _, length = blocked_sql()
    joined = "string_agg" if connection.vendor == "postgresql" else "group_concat"
    cols = [
        "COALESCE(SUM(tables), 0)",
        "COALESCE(SUM(players * tables), 0)",
        "COALESCE(SUM((players + room) * tables), 0)",
        f"{joined}(CAST(players AS TEXT) || ':' || CAST(tables AS TEXT), ',')",
        f"(SELECT seats - {length} FROM {TABLE} WHERE tournament_id = %s AND status = %s "
        "ORDER BY break_rank, number DESC LIMIT 1)",
        f"(SELECT COUNT(*) FROM {ENTRY} WHERE tournament_id = %s AND status = %s)",
        f"(SELECT MAX(number) FROM {ENTRY} WHERE tournament_id = %s)",
    ]
    assert len(cols) == SUMMARY_COLUMNS
    params = [t.pk, Table.Status.OPEN.value, t.pk, Entry.Status.ALTERNATE.value, t.pk, t.pk]
    named = ", ".join(f"{c} AS s{i}" for i, c in enumerate(cols))
    return f"SELECT {named} FROM {COUNT} WHERE tournament_id = %s AND tables <> 0", params


def summary_of(row: Sequence, apart: dict[int, int | None]) -> OpenSummary:
    """The ``OpenSummary`` of a ``summary_select`` row; ``apart``: players at the tables
    left out of most and least (None: not open)."""
    tables, players, seats, counted, first, waiting, top = row
    apart = {n: c for n, c in apart.items() if c is not None}
    by_players: Counter = Counter()
    for bucket in (counted or "").split(","):
        if bucket:
            p, n = bucket.split(":")
            by_players[int(p)] += int(n)
    by_players.subtract(Counter(apart.values()))
    others = [p for p, n in by_players.items() if n > 0]
    return OpenSummary(
        tables=int(tables),
        players=int(players),
        seats=int(seats),
        first_capacity=first or 0,
        most=max(others, default=None),
        least=min(others, default=None),
        apart=apart,
        waiting=waiting,
        top_number=top or 0,
    )


def settled_after(t: Tournament, summary: OpenSummary, gone: Counter) -> bool:
    """``balancing.settled`` for the open tables of ``summary`` once the players counted in
    ``gone`` (table number -> how many) have left their seats."""
    counts = [c - gone[n] for n, c in summary.apart.items()]
    if summary.most is not None:
        counts += [summary.most, summary.least]
    if not counts:
        return True
    return balancing.settled(
        tables=summary.tables,
        players=summary.players - sum(gone[n] for n in summary.apart),
        seats=summary.seats,
        first_capacity=summary.first_capacity,
        most=max(counts),
        least=min(counts),
        settings=seating_settings(t),
    )


def blocked_sql() -> tuple[str, str]:
    """The unavailable seats as JSON text, and their count, in this database's SQL."""
    if connection.vendor == "postgresql":
        return "unavailable_seats::text", "jsonb_array_length(unavailable_seats)"
    return "unavailable_seats", "json_array_length(unavailable_seats)"


TABLE_COLUMNS = "id, number, seats, break_rank, button_seat, blocked, players"


def _fewest_sql() -> str:
    """RULES 1.3 candidates: the open tables with an open seat and, among those, the fewest
    players, each with its open seats (``room``); one pass over the tables (a window)."""
    blocked, length = blocked_sql()
    return (
        f"SELECT * FROM (SELECT id, number, seats, break_rank, button_seat, {blocked} AS blocked, "
        f"players, seats - {length} - players AS room, MIN(players) OVER () AS fewest "
        f"FROM {TABLE} WHERE tournament_id = %s AND status = %s AND players < seats - {length}) "
        "candidates WHERE players = fewest"
    )


def fewest_tables(t: Tournament) -> list[TableRow]:
    """RULES 1.3: the open tables with an open seat and, among those, the fewest players —
    the only tables a late entry can draw into, found by the database."""
    with kept_cursor() as cursor:
        cursor.execute(
            f"SELECT {TABLE_COLUMNS} FROM ({_fewest_sql()}) f ORDER BY number",
            [t.pk, Table.Status.OPEN.value],
        )
        return _table_rows(cursor.fetchall())


def late_pick(t: Tournament, rng) -> tuple[Table, em.Table] | None:
    """The table a late entry draws into (RULES 1.3) with its seats, or None when every seat
    is taken: ``pick.pick_table``'s draw (``x = rng.random() * open seats``, the first
    candidate by number whose open seats so far exceed ``x``), made by the database in one
    statement. It finds the fewest players and their tables' open seats in the tournament's
    ``TableCount`` rows; when every table with the fewest players has the same open seats
    (a field of like tables, as most are), the drawn one is the n-th of them by number, read
    by its index (``table_by_players``) with its seats — a big field right after the draw
    has a thousand tied candidates, and none but the drawn one is read. Otherwise the
    database draws over those candidates' rows (``_drawn_sql``)."""
    x = rng.random()  # drawn even when no seat is open, as pick_table does
    open_ = Table.Status.OPEN.value
    found = load_rows_with(
        Table,
        f"{TABLE}.id = ({_picked_sql()})",
        [t.pk, x, t.pk, open_, t.pk, open_, x],
        extra="s.number, s.entry_id, s.waits_for_button",
        joins=f"LEFT JOIN {SEAT} s ON s.table_id = {TABLE}.id",
    )
    return _with_seats(found) if found else None


def _picked_sql() -> str:
    """The drawn table's id (parameters: tournament, x; tournament, open; ``_drawn_sql``'s).
    ``g``: the buckets with the fewest players among those with room, ``y`` the draw over
    their open seats; ``k``: where they are alike, the candidates before the drawn one,
    ``floor(y / room)`` set right where the division rounded (a draw on a table's last
    open seat goes to the next table: ``>``, as ``pick_table`` compares)."""
    floor = "FLOOR(y / room)" if connection.vendor == "postgresql" else "CAST(y / room AS INTEGER)"
    return (
        f"WITH b AS (SELECT players, room, tables FROM {COUNT} "
        "WHERE tournament_id = %s AND tables > 0), "
        "g AS (SELECT players AS fewest, MIN(room) AS room, MAX(room) AS most, "
        "SUM(tables) AS n, CAST(%s AS DOUBLE PRECISION) * SUM(room * tables) AS y FROM b "
        "WHERE players = (SELECT MIN(players) FROM b WHERE room > 0) GROUP BY players), "
        f"f AS (SELECT fewest, room, n, y, {floor} AS k0 FROM g WHERE room = most), "
        "k AS (SELECT fewest, n, CASE WHEN k0 * room > y THEN k0 - 1 "
        "WHEN (k0 + 1) * room <= y THEN k0 + 1 ELSE k0 END AS k1 FROM f) "
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM k) THEN "
        f"(SELECT id FROM {TABLE} WHERE tournament_id = %s AND status = %s "
        "AND players = (SELECT fewest FROM k) ORDER BY number LIMIT 1 OFFSET "
        "(SELECT CAST(CASE WHEN k1 > n - 1 THEN n - 1 ELSE k1 END AS BIGINT) FROM k)) "
        f"ELSE ({_drawn_sql()}) END"
    )


def _drawn_sql() -> str:
    """The drawn table's id as SQL (parameters: tournament, open, the random fraction), for
    candidates of different open seats: the first by number whose open seats, added up,
    exceed the fraction of them all."""
    return (
        "SELECT id FROM (SELECT id, number, "
        "SUM(room) OVER (ORDER BY number) AS upto, SUM(room) OVER () AS total "
        f"FROM ({_fewest_sql()}) f) c "
        "WHERE upto > CAST(%s AS DOUBLE PRECISION) * total ORDER BY number LIMIT 1"
    )


def _with_seats(found: list[tuple[Table, tuple]]) -> tuple[Table, em.Table]:
    """A table row read with one row per seat (number, entry, waits; NULLs: no seat)."""
    row = found[0][0]
    return row, _engine_table(row, [(n, e, bool(w)) for _, (n, e, w) in found if n is not None])


def _engine_table(row: Table, seats: Iterable[tuple[int, int, bool]]) -> em.Table:
    occupants, waiting = {}, set()
    for number, entry_id, waits in seats:
        occupants[number] = entry_id
        if waits:
            waiting.add(entry_id)
    return em.Table(
        number=row.number,
        seats=row.seats,
        occupants=occupants,
        waiting=frozenset(waiting),
        unavailable=frozenset(row.unavailable_seats or ()),
        button_seat=row.button_seat,
    )


def engine_tables(rows: Sequence[Table]) -> dict[int, em.Table]:
    """These tables with their seats as engine data, by table number."""
    seats: dict[int, list[tuple[int, int, bool]]] = {r.pk: [] for r in rows}
    if seats:
        # Plain SQL: a late entry, an elimination and a button move each read a table.
        with kept_cursor() as cursor:
            cursor.execute(
                f"SELECT table_id, number, entry_id, waits_for_button FROM {SEAT} "
                f"WHERE table_id IN ({in_marks(seats)})",
                list(seats),
            )
            for table_id, number, entry_id, waits in cursor.fetchall():
                seats[table_id].append((number, entry_id, bool(waits)))
    return {r.number: _engine_table(r, seats[r.pk]) for r in rows}


def player_counts(rows: Sequence[TableRow | Table]) -> dict[int, int]:
    """Players per open table, as the seat triggers keep them (tables migration 0002)."""
    return {r.number: r.players for r in rows}


def break_order(rows: Sequence[Table]) -> list[int]:
    """The table numbers in the order they break, the next first."""
    # RULES 3.5: lower rank breaks sooner; the default rank (-number) breaks the highest first.
    return [r.number for r in sorted(rows, key=lambda r: (r.break_rank, -r.number))]


def seats_of(t: Tournament, entry_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
    """Entry id -> (table number, seat) for those of these entries that are seated."""
    return {
        e: (tn, s)
        for e, tn, s in Seat.objects.filter(tournament=t, entry_id__in=entry_ids).values_list(
            "entry_id", "table__number", "number"
        )
    }


# ---------------------------------------------------------------- one table, the alternates


def table_of(t: Tournament, number: int) -> Table:
    """The table with this number (open or broken), or the ``table_not_found`` error."""
    found = load_rows(Table, "tournament_id = %s AND number = %s", [t.pk, number])
    row = found[0] if found else None
    if row is None:
        raise DomainError("table_not_found", MSG_NO_TABLE, status=404, fields={"table": number})
    return row


def table_loaded(t: Tournament, number: int) -> tuple[Table, em.Table]:
    """``table_of`` and its seats as engine data, in one read (a button move after each hand)."""
    if not 0 < number < 2**63:  # no such table, and beyond what SQLite's integers hold
        raise DomainError("table_not_found", MSG_NO_TABLE, status=404, fields={"table": number})
    found = load_rows_with(
        Table,
        f"{TABLE}.tournament_id = %s AND {TABLE}.number = %s",
        [t.pk, number],
        extra="s.number, s.entry_id, s.waits_for_button",
        joins=f"LEFT JOIN {SEAT} s ON s.table_id = {TABLE}.id",
    )
    if not found:
        raise DomainError("table_not_found", MSG_NO_TABLE, status=404, fields={"table": number})
    return _with_seats(found)


def alternates_waiting(t: Tournament, *, besides: int | None = None) -> bool:
    """Is anyone on the alternates list? One probe of the (tournament, status) index: asked
    at every registration. The status is written in the statement, not bound: PostgreSQL's
    plan of the prepared statement then knows how rare it is (bound, the generic plan walked
    the primary key through every entry: 3 ms at 10,000 entries once the table had
    statistics)."""
    with kept_cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {ENTRY} WHERE tournament_id = %s "
            f"AND status = '{Entry.Status.ALTERNATE.value}' AND id <> %s LIMIT 1",
            [t.pk, besides or 0],
        )
        return cursor.fetchone() is not None


def seating_settings(t: Tournament) -> em.SeatingSettings:
    """The tournament's settings the seating engines take (balancing, redraws)."""
    return em.SeatingSettings(
        tolerance=t.balance_tolerance,
        redraw_at_three=t.redraw_at_three,
        redraw_at_two=t.redraw_at_two,
        redraw_at_one=t.redraw_at_one,
        started_tables=t.started_tables,
    )
