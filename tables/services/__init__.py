"""Writes to tables and seats. Called inside a tournament service's transaction (the
tournament row already locked) or as services of their own (the ``table_*`` functions)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Max
from django.utils import timezone

from tables.engine import balancing, seat_draw
from tables.engine import model as em
from tables.engine.blinds import released_by_button_move
from tables.models import Move, Seat, Table
from tourney.core.events import event_payload_set, event_saved, record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.core.rng import next_rng
from tourney.core.rows import kept_cursor
from tourney.core.rows import load as load_rows
from tourney.core.rows import load_with as load_rows_with
from tourney.core.rows import marks as in_marks
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Tournament

MSG_NO_TABLE = "There is no table with that number: check the number on the table tile."
MSG_TABLE_BROKEN = "That table is broken (closed): choose an open table."
MSG_BAD_SEAT = (
    "That seat does not exist at this table: seats go from 1 to the number of seats at the table."
)
MSG_NO_SEAT = "Every seat is taken and opening tables is not allowed: added to the alternates."
MSG_DRAW_STARTED = "Seats are drawn at the start only once."
MSG_NOBODY_TO_DRAW = "Nobody is waiting for a seat."


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
    sql, params = summary_select(
        t,
        f"number NOT IN ({', '.join(['%s'] * len(apart))})" if apart else "1 = 1",
        apart,
        more=[f"MAX(players) FILTER (WHERE number = {n:d})" for n in apart],
    )
    with kept_cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return summary_of(row[:SUMMARY_COLUMNS], dict(zip(apart, row[SUMMARY_COLUMNS:], strict=True)))


SUMMARY_COLUMNS = 8


def summary_select(
    t: Tournament, outside: str, outside_params: Sequence, *, more: Sequence[str] = ()
) -> tuple[str, list]:
    """``open_summary``'s one-row SELECT (``SUMMARY_COLUMNS`` columns, ``s0``…, then those
    of ``more``, which take no parameters), most and least counted over the open tables
    where ``outside`` (SQL) holds."""
    _, length = blocked_sql()
    ent = Entry._meta.db_table
    cols = [
        "COUNT(*)",
        "COALESCE(SUM(players), 0)",
        f"COALESCE(SUM(seats - {length}), 0)",
        f"MAX(players) FILTER (WHERE {outside})",
        f"MIN(players) FILTER (WHERE {outside})",
        f"(SELECT seats - {length} FROM {TABLE} WHERE tournament_id = %s AND status = %s "
        "ORDER BY break_rank, number DESC LIMIT 1)",
        f"(SELECT COUNT(*) FROM {ent} WHERE tournament_id = %s AND status = %s)",
        f"(SELECT MAX(number) FROM {ent} WHERE tournament_id = %s)",
    ]
    assert len(cols) == SUMMARY_COLUMNS
    cols += more
    open_ = [t.pk, Table.Status.OPEN.value]
    params = [
        *outside_params,
        *outside_params,
        *open_,
        t.pk,
        Entry.Status.ALTERNATE.value,
        t.pk,
        *open_,
    ]
    named = ", ".join(f"{c} AS s{i}" for i, c in enumerate(cols))
    return f"SELECT {named} FROM {TABLE} WHERE tournament_id = %s AND status = %s", params


def summary_of(row: Sequence, apart: dict[int, int | None]) -> OpenSummary:
    """The ``OpenSummary`` of a ``summary_select`` row; ``apart``: players at the tables
    left out (None: not open)."""
    tables, players, seats, most, least, first, waiting, top = row
    return OpenSummary(
        tables=tables,
        players=int(players),
        seats=int(seats),
        first_capacity=first or 0,
        most=most,
        least=least,
        apart={n: c for n, c in apart.items() if c is not None},
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
        settings=_settings(t),
    )


def nothing_to_rebalance(t: Tournament) -> dict[str, Any]:
    """What ``rebalance`` returns when it does nothing; the draw counter steps as it would
    (RULES 1.1: the next draw gets the same seed either way)."""
    _, seed = next_rng(t)
    return {"moves": [], "seed": seed, "broken": [], "redraw": False}


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
    candidate by number whose open seats so far exceed ``x``) made by the database over the
    candidates it found, and the drawn table read with its seats, in one statement — a big
    field right after the draw has a thousand tied candidates, and only the one drawn is
    read."""
    x = rng.random()  # drawn even when no seat is open, as pick_table does
    drawn = (
        f"{TABLE}.id = (SELECT id FROM (SELECT id, number, "
        "SUM(room) OVER (ORDER BY number) AS upto, SUM(room) OVER () AS total "
        f"FROM ({_fewest_sql()}) f) c "
        "WHERE upto > CAST(%s AS DOUBLE PRECISION) * total ORDER BY number LIMIT 1)"
    )
    found = load_rows_with(
        Table,
        drawn,
        [t.pk, Table.Status.OPEN.value, x],
        extra="s.number, s.entry_id, s.waits_for_button",
        joins=f"LEFT JOIN {SEAT} s ON s.table_id = {TABLE}.id",
    )
    return _with_seats(found) if found else None


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


def _load(rows: Sequence[Table]) -> dict[int, em.Table]:
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


def _counts(rows: Sequence[TableRow | Table]) -> dict[int, int]:
    """Players per open table, as the seat triggers keep them (tables migration 0002)."""
    return {r.number: r.players for r in rows}


def _break_order(rows: Sequence[Table]) -> list[int]:
    # RULES 3.5: lower rank breaks sooner; the default rank (-number) breaks the highest first.
    return [r.number for r in sorted(rows, key=lambda r: (r.break_rank, -r.number))]


def seats_of(t: Tournament, entry_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
    return {
        e: (tn, s)
        for e, tn, s in Seat.objects.filter(tournament=t, entry_id__in=entry_ids).values_list(
            "entry_id", "table__number", "number"
        )
    }


# ---------------------------------------------------------------- applying engine results


def _move_dict(m: Move) -> dict[str, Any]:
    return {
        "id": m.pk,
        "entry": m.entry_id,
        "from": None if m.from_table is None else {"table": m.from_table, "seat": m.from_seat},
        "to": {"table": m.to_table, "seat": m.to_seat},
        "reason": m.reason,
        "waits_for_button": m.waits_for_button,
    }


INSERT_CHUNK = 500  # rows per statement: 2,500 parameters, within every SQLite's limit


def _insert(model, columns: Sequence[str], rows: Sequence[tuple]) -> None:
    """Plain multi-row INSERTs: a draw writes ten thousand seats in twenty statements,
    without building a model instance per row (and the seat triggers run per statement)."""
    if not rows:
        return
    with kept_cursor() as cursor:
        for sql, params in _insert_statements(model, columns, rows):
            cursor.execute(sql, params)


def _insert_statements(model, columns: Sequence[str], rows: Sequence[tuple]):
    """``_insert``'s statements: (SQL, parameters), ``INSERT_CHUNK`` rows each."""
    q = connection.ops.quote_name
    head = "INSERT INTO {} ({}) VALUES ".format(
        q(model._meta.db_table), ", ".join(q(model._meta.get_field(c).column) for c in columns)
    )
    one = "({})".format(", ".join(["%s"] * len(columns)))
    rows = list(rows)
    for i in range(0, len(rows), INSERT_CHUNK):
        chunk = rows[i : i + INSERT_CHUNK]
        yield head + ", ".join([one] * len(chunk)), [v for r in chunk for v in r]


def apply_moves(
    t: Tournament,
    moves: Sequence[em.Move],
    *,
    event: Event | None,
    table_ids: dict[int, int] | None = None,
    last: bool = False,
    announce_seats: bool = False,
) -> list[dict[str, Any]]:
    """Write a batch of moves: the movers leave their seats first, so a batch may swap seats
    (a redraw) without ever holding two entries in one seat. Every move but a first seating
    is recorded as a Move row (RULES 3.8). ``table_ids``: table number -> id, if known.
    ``announce_seats``: the first seatings are recorded too (an alternate called to a seat is
    announced like a move; a new entry's seat is on its seat card instead).
    ``last``: the action reads no seat after this, so the new seats are written with its
    last statement (``journal.writes``)."""
    if not moves:
        return []
    if table_ids is None:
        table_ids = dict(
            Table.objects.filter(tournament=t, number__in={m.to_table for m in moves}).values_list(
                "number", "id"
            )
        )
    final = {m.entry: m for m in moves}  # a player may move twice: a break, then a redraw
    j = journal_current()
    # Entries this action made (created seated, RULES 1.3) need no before image and no
    # status change: undo deletes them with their seats.
    fresh = set(j.created["entry"]) if j else set()
    newly = [m.entry for m in moves if m.from_table is None and m.entry not in fresh]
    if j:
        j.note_seats([e for e in final if e not in fresh])
        j.note_entries(newly)  # a first seating sets the status
    if any(m.from_table is not None for m in final.values()):
        unseat(t, list(final), noted=True)
    seat_rows = [
        (t.pk, table_ids[m.to_table], m.to_seat, m.entry, m.waits_for_button)
        for m in final.values()
    ]
    columns = ("tournament", "table", "number", "entry", "waits_for_button")
    if last and j is not None:
        j.writes.extend(_insert_statements(Seat, columns, seat_rows))
    else:
        _insert(Seat, columns, seat_rows)
    recorded = [m for m in moves if m.reason != "seat" or announce_seats]
    if recorded and event is not None:
        event_saved(event)  # the moves point at it
    ids = iter(_insert_moves(t, event, recorded))
    if newly:
        with kept_cursor() as cursor:
            cursor.execute(
                f"UPDATE {ENTRY} SET status = %s WHERE id IN ({in_marks(newly)}) AND status <> %s",
                [Entry.Status.SEATED, *newly, Entry.Status.SEATED],
            )
    return [
        {
            "id": next(ids) if m.reason != "seat" or announce_seats else None,
            "entry": m.entry,
            "from": None if m.from_table is None else {"table": m.from_table, "seat": m.from_seat},
            "to": {"table": m.to_table, "seat": m.to_seat},
            "reason": m.reason,
            "waits_for_button": m.waits_for_button,
        }
        for m in moves
    ]


MOVE_COLUMNS = (
    "tournament",
    "entry",
    "event",
    "from_table",
    "from_seat",
    "to_table",
    "to_seat",
    "reason",
    "waits_for_button",
    "announced",
    "created_at",
)


def _insert_moves(t: Tournament, event: Event | None, moves: Sequence[em.Move]) -> list[int]:
    """The Move rows of these moves in plain SQL (a table break writes nine): their ids, in
    order."""
    if not moves:
        return []
    now = Move._meta.get_field("created_at").get_db_prep_save(timezone.now(), connection)
    event_id = event.pk if event is not None else None
    rows = [
        (
            t.pk,
            m.entry,
            event_id,
            m.from_table,
            m.from_seat,
            m.to_table,
            m.to_seat,
            m.reason,
            m.waits_for_button,
            False,
            now,
        )
        for m in moves
    ]
    if not connection.features.can_return_rows_from_bulk_insert:  # an old SQLite
        _insert(Move, MOVE_COLUMNS, rows)
        return list(
            Move.objects.filter(tournament=t)
            .order_by("-id")
            .values_list("id", flat=True)[: len(rows)]
        )[::-1]
    ids: list[int] = []
    with kept_cursor() as cursor:
        for sql, params in _insert_statements(Move, MOVE_COLUMNS, rows):
            cursor.execute(f"{sql} RETURNING id", params)
            ids.extend(r[0] for r in cursor.fetchall())
    return ids


def unseat(t: Tournament, entry_ids: Sequence[int], *, noted: bool = False) -> None:
    """Free the seats of these entries (``noted``: the journal has their images already)."""
    if not noted and (j := journal_current()):
        j.note_seats(entry_ids)
    if entry_ids:  # plain SQL (every elimination); no model signals or cascades hang on seats
        with kept_cursor() as cursor:
            cursor.execute(
                f"DELETE FROM {SEAT} WHERE tournament_id = %s "
                f"AND entry_id IN ({in_marks(entry_ids)})",
                [t.pk, *entry_ids],
            )


def tables_open(t: Tournament, *, count: int = 1) -> list[Table]:
    """Open ``count`` new tables numbered after the highest so far."""
    top = Table.objects.filter(tournament=t).aggregate(m=Max("number"))["m"] or 0
    rows = Table.objects.bulk_create(
        Table(tournament=t, number=n, seats=t.seats_per_table, break_rank=-n)
        for n in range(top + 1, top + 1 + count)
    )
    if j := journal_current():
        j.note_created("table", [r.pk for r in rows])
    open_now = Table.objects.filter(tournament=t, status=Table.Status.OPEN).count()
    if open_now > t.started_tables:
        t.started_tables = open_now
        Tournament.objects.filter(pk=t.pk).update(started_tables=open_now)
    return rows


def _maybe_draw_button(t: Tournament, table: em.Table, event: Event | None = None) -> int | None:
    """RULES 2.1: a table's button is drawn by high card when play starts at it."""
    if not t.clock_started or table.button_seat is not None or table.players < 2:
        return None
    rng, _ = next_rng(t)
    seat = seat_draw.draw_button(table, rng)
    if j := journal_current():
        j.note_tables(numbers=[table.number])
    Table.objects.filter(tournament=t, number=table.number).update(button_seat=seat)
    _note_buttons(event, {table.number: seat})
    return seat


def _note_buttons(event: Event | None, drawn: dict[int, int]) -> None:
    """The buttons an action drew (RULES 2.1), in its event's ``buttons_drawn``."""
    if event is not None and drawn:
        before = event.payload.get("buttons_drawn") or {}
        after = {**before, **{str(n): s for n, s in drawn.items()}}
        event_payload_set(event, {**event.payload, "buttons_drawn": after})


def _draw_new_buttons(t: Tournament, rows: Sequence[TableRow], rng, event: Event | None):
    """RULES 2.1 in play: an open table without a button (opened while the clock runs) that
    now has two players or more starts play, so its button is drawn by high card: a random
    seated player, from the action's recorded randomness. Before the start the buttons are
    drawn at the start (``buttons_draw_at_start``)."""
    if not t.clock_started:
        return {}
    waiting = [r for r in rows if r.button_seat is None]
    tables = _load(waiting) if waiting else {}
    drawn = {
        n: seat_draw.draw_button(tb, rng) for n, tb in sorted(tables.items()) if tb.players >= 2
    }
    if not drawn:
        return {}
    if j := journal_current():
        j.note_table_rows(r for r in waiting if r.number in drawn)
    for number, seat in drawn.items():
        Table.objects.filter(tournament=t, number=number).update(button_seat=seat)
    _note_buttons(event, drawn)
    return drawn


def seat_entry(
    t: Tournament,
    entry: Entry,
    *,
    event: Event | None,
    may_open: bool | None = None,
    last: bool = False,
) -> dict[str, Any] | None:
    """RULES 1.3: a random open seat at one of the tables with the fewest players. When every
    seat is taken, open a table if the director allows it, else the entry is an alternate.
    A new entry (``may_open`` None) never goes ahead of the alternates already waiting.
    ``last``: the action reads no seat after this (a registration), see ``apply_moves``.

    A table opened because every seat was taken is balanced at once, before the start as in
    play (issue 31: 9/9/9/1 is no way to start or play): the card rooms' reading, where the
    floor opens the table and fills it from the full ones, rather than leaving one player
    alone at it (or keeping the player waiting until enough arrive for a table). Before the
    start this is the even fill of RULES 1.2; in play the balancing of RULES 3.1-3.3 (the
    big blind next at the fullest tables moves to the worst position, until within the
    tolerance). The moves are recorded (reason "balance", RULES 3.8), so they appear in
    "moves to announce"; the entry gets ``table_opened`` (the new table's number) and
    ``balancing_moves`` (how many players moved there), and the action's event says both."""
    allowed = t.auto_open_tables if may_open is None else may_open
    behind = False
    if may_open is None and alternates_waiting(t, besides=entry.pk):
        # The alternates take any open seat first, in their order (and the tables opened
        # for them, if allowed); while one still waits, the new entry waits behind them.
        seat_alternates(t, event=event, may_open=allowed)
        behind = alternates_waiting(t, besides=entry.pk)
    rng, seed = next_rng(t)
    picked = None if behind else late_pick(t, rng)
    opened = others = False
    if picked is None:
        if behind or not allowed:
            if entry.status != Entry.Status.ALTERNATE:  # an alternate not seated stays one
                if j := journal_current():
                    j.note_entries([entry.pk])
                Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.ALTERNATE)
                entry.status = Entry.Status.ALTERNATE
            return None
        others = Table.objects.filter(tournament=t, status=Table.Status.OPEN).exists()
        row = tables_open(t, count=1)[0]
        opened = True
        picked = row, _load([row])[row.number]
    row, table = picked
    move = seat_draw.late_seat(entry.pk, [table], rng)
    balance = opened and others
    written = apply_moves(
        t,
        [move],
        event=event,
        table_ids={row.number: row.pk},
        last=last and not balance,
        # An alternate taking a seat is called to it: a move to announce (issue 31).
        announce_seats=entry.status == Entry.Status.ALTERNATE,
    )
    entry.status = Entry.Status.SEATED
    _maybe_draw_button(
        t, table.with_player(move.to_seat, entry.pk, waits=move.waits_for_button), event
    )
    if balance:
        # A table just opened for this player: RULES 3.3 balancing fills it from the
        # fullest tables (their big blinds next) until the sizes are within tolerance
        # (before the start: RULES 1.2, no button yet, so a random player and seat).
        balanced = rebalance(t, event=event)["moves"]
        written += balanced
        entry.table_opened, entry.balancing_moves = row.number, len(balanced)
        if event is not None:
            event_payload_set(
                event,
                {**event.payload, "table_opened": row.number, "balancing_moves": len(balanced)},
            )
    elif opened:
        entry.table_opened, entry.balancing_moves = row.number, 0
    return written[0]


def alternates_waiting(t: Tournament, *, besides: int | None = None) -> bool:
    """Is anyone on the alternates list? One probe of the (tournament, status) index: asked
    at every registration."""
    with kept_cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {ENTRY} WHERE tournament_id = %s AND status = %s AND id <> %s LIMIT 1",
            [t.pk, Entry.Status.ALTERNATE.value, besides or 0],
        )
        return cursor.fetchone() is not None


def seat_alternates(
    t: Tournament, *, event: Event | None, waiting: int | None = None, may_open: bool = False
) -> list[dict[str, Any]]:
    """Alternates take the open seats in the order they registered, each by the RULES 1.3
    draw, whenever seats open (an elimination, a table opened, a seat made available, a
    registration undone). ``may_open``: a table may be opened for them (a new entry arrives
    while they wait and the director allows it). ``waiting``: how many there are, if known."""
    if waiting == 0:
        return []
    seated = []
    # Plain SQL: asked after every elimination, and almost always there is nobody.
    waiting = load_rows(
        Entry,
        "tournament_id = %s AND status = %s",
        [t.pk, Entry.Status.ALTERNATE.value],
        suffix="ORDER BY number",
    )
    for entry in waiting:
        move = seat_entry(t, entry, event=event, may_open=may_open)
        if move is None:
            break
        seated.append(move)
    return seated


def _settings(t: Tournament) -> em.SeatingSettings:
    return em.SeatingSettings(
        tolerance=t.balance_tolerance,
        redraw_at_three=t.redraw_at_three,
        redraw_at_two=t.redraw_at_two,
        redraw_at_one=t.redraw_at_one,
        started_tables=t.started_tables,
    )


def rebalance(t: Tournament, *, event: Event | None, close: int | None = None) -> dict[str, Any]:
    """RULES 3.4–3.7 then 3.2–3.3 after players left: breaks, redraws, balancing moves.
    ``close``: an open table the director breaks now (``table_close``), first. The moves are
    written as the floor makes them (``balancing.one_move_each``): when a redraw follows a
    break, one ``redraw`` move per player from the seat they sit in to the seat they draw."""
    rows = open_tables(t)
    if not rows:
        return {"moves": [], "seed": None}
    by_number = {r.number: r for r in rows}
    counts = _counts(rows)
    capacity = {r.number: r.seats - len(r.unavailable_seats or ()) for r in rows}
    rng, seed = next_rng(t)

    def load(number: int) -> em.Table:
        return _load([by_number[number]])[number]

    def load_many(numbers: Sequence[int]) -> dict[int, em.Table]:
        return _load([by_number[n] for n in numbers])

    result = balancing.rebalance(
        counts=counts,
        capacity=capacity,
        break_order=_break_order(rows),
        load=load,
        load_many=load_many,
        settings=_settings(t),
        rng=rng,
        close=close,
    )
    if j := journal_current():
        j.note_table_rows(by_number[n] for n in dict.fromkeys([*result.broken, *result.buttons]))
    with kept_cursor() as cursor:  # plain SQL: a thousand table breaks in a big field
        if result.broken:
            cursor.execute(
                f"UPDATE {TABLE} SET status = %s, button_seat = NULL "
                f"WHERE tournament_id = %s AND number IN ({in_marks(result.broken)})",
                [Table.Status.BROKEN.value, t.pk, *result.broken],
            )
        for number, seat in result.buttons.items():
            cursor.execute(
                f"UPDATE {TABLE} SET button_seat = %s WHERE tournament_id = %s AND number = %s",
                [seat, t.pk, number],
            )
    moves = balancing.one_move_each(result.moves, redraw=result.redraw)
    written = apply_moves(t, moves, event=event, table_ids={r.number: r.pk for r in rows})
    if result.redraw:
        # RULES 3.7: after a redraw everyone is dealt in, also those who drew their own seat.
        still = list(
            Seat.objects.filter(tournament=t, waits_for_button=True).values_list(
                "entry_id", flat=True
            )
        )
        if still:
            if j := journal_current():
                j.note_seats(still)
            Seat.objects.filter(entry_id__in=still).update(waits_for_button=False)
    kept = [r for r in rows if r.number not in result.broken and r.number not in result.buttons]
    drawn = _draw_new_buttons(t, kept, rng, event)
    return {
        "moves": written,
        "seed": seed,
        "broken": list(result.broken),
        "redraw": result.redraw,
        "buttons_drawn": drawn,
    }


def buttons_draw_at_start(t: Tournament, *, actor=None) -> dict[int, int]:
    """RULES 2.1: at the start every table with players draws its button by high card."""
    rows = [r for r in open_tables(t) if r.button_seat is None]
    if not rows:
        return {}
    tables = _load(rows)
    rng, seed = next_rng(t)
    if j := journal_current():
        j.note_tables(ids=[r.pk for r in rows])
    drawn = {}
    for number, table in sorted(tables.items()):
        if table.players >= 2:
            drawn[number] = seat_draw.draw_button(table, rng)
            Table.objects.filter(tournament=t, number=number).update(button_seat=drawn[number])
    if drawn:
        record_event(t, "buttons_drawn", {"buttons": drawn, "seed": seed}, actor)
    return drawn


# ---------------------------------------------------------------- services of their own


def _table(t: Tournament, number: int) -> Table:
    found = load_rows(Table, "tournament_id = %s AND number = %s", [t.pk, number])
    row = found[0] if found else None
    if row is None:
        raise DomainError("table_not_found", MSG_NO_TABLE, status=404, fields={"table": number})
    return row


def _table_loaded(t: Tournament, number: int) -> tuple[Table, em.Table]:
    """``_table`` and its seats as engine data, in one read (a button move after each hand)."""
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


def table_set_button(*, tournament_id: int, table_number: int, seat: int, actor=None) -> Table:
    """RULES 2.1: the button is at ``seat`` for the table's next hand; players whose wait
    the button passed are dealt in (RULES 1.3)."""
    call = {"service": "table_set_button", "kwargs": {"table_number": table_number, "seat": seat}}
    with tournament_action(tournament_id, call=call) as t:
        row, table = _table_loaded(t, table_number)
        if row.status != Table.Status.OPEN:
            raise DomainError("table_broken", MSG_TABLE_BROKEN, status=409)
        if not 1 <= seat <= row.seats:
            raise DomainError("bad_seat", MSG_BAD_SEAT, fields={"seat": MSG_BAD_SEAT})
        released = released_by_button_move(table, seat) if row.button_seat is not None else ()
        j = journal_current()
        if j is not None:
            j.note_table_rows([row])
            # the released seats' before images, from the seats just read (all were waiting)
            j.note_seat_rows(
                [(e, row.pk, s, True) for s, e in table.occupants.items() if e in released]
            )
        before = row.button_seat
        row.button_seat = seat
        # Plain SQL, after every hand: written with the event and counters (journal writes).
        writes = [(f"UPDATE {TABLE} SET button_seat = %s WHERE id = %s", [seat, row.pk])]
        if released:
            ids = sorted(released)
            writes.append(
                (
                    f"UPDATE {SEAT} SET waits_for_button = %s WHERE entry_id IN ({in_marks(ids)})",
                    [False, *ids],
                )
            )
        if j is not None:
            j.writes.extend(writes)
        else:  # pragma: no cover - every action keeps a journal
            with kept_cursor() as cursor:
                for statement in writes:
                    cursor.execute(*statement)
        record_event(
            t,
            "button_set",
            {"table": table_number, "before": before, "after": seat, "released": sorted(released)},
            actor,
            defer=True,
        )
    return row


def seating_draw_all(*, tournament_id: int, actor=None) -> list[dict[str, Any]]:
    """Home games: everyone registers, then all seats are drawn at once (RULES 1.1–1.2)."""
    with tournament_action(tournament_id) as t:
        if Seat.objects.filter(tournament=t).exists():
            raise DomainError("already_drawn", MSG_DRAW_STARTED, status=409)
        entries = list(
            Entry.objects.filter(tournament=t, status=Entry.Status.REGISTERED)
            .order_by("number")
            .values_list("pk", flat=True)
        )
        if not entries:
            raise DomainError("nobody_to_draw", MSG_NOBODY_TO_DRAW, status=409)
        rows = open_tables(t)
        need = seat_draw.tables_needed(len(entries), t.seats_per_table)
        if need > len(rows):
            rows += tables_open(t, count=need - len(rows))
        tables = _load(rows)
        rng, seed = next_rng(t)
        moves = seat_draw.draw(entries, [tables[r.number] for r in rows], rng)
        event = record_event(t, "seats_drawn", {"entries": len(entries), "seed": seed}, actor)
        return apply_moves(t, moves, event=event)


MSG_SEAT_OCCUPIED = "Someone sits in that seat."
MSG_SEAT_NOT_FREE = "That seat is taken or closed: choose an empty seat, or reopen it first."
MSG_BAD_ORDER = "List every open table exactly once."
MSG_LAST_TABLE = "The last open table cannot be broken: its players would have nowhere to go."
MSG_NO_ROOM = "The other tables have no room for this table's players."
MSG_ENTRY_NOT_SEATED = "This entry has no seat."


def table_open(*, tournament_id: int, count: int = 1, actor=None) -> list[Table]:
    """The director opens tables (numbered after the highest); they break first (RULES 3.5)."""
    if not 1 <= count <= 100:
        raise DomainError("bad_input", "Open between 1 and 100 tables.", fields={"count": count})
    with tournament_action(tournament_id) as t:
        rows = tables_open(t, count=count)
        event = record_event(t, "tables_opened", {"tables": [r.number for r in rows]}, actor)
        # The alternates are seated first, in their order (RULES 1.3): seats opened.
        seated = seat_alternates(t, event=event)
        if seated:
            event_payload_set(event, {**event.payload, "alternates": [m["entry"] for m in seated]})
        if t.clock_started:
            # In play the new tables are filled by balancing (RULES 3.3) at once.
            rebalance(t, event=event)
    return rows


def table_close(*, tournament_id: int, table_number: int, actor=None) -> list[dict[str, Any]]:
    """Break a table now, out of order (the director's call): its players are put in random
    order and each draws a random open seat among the tables with the fewest players, dealt in
    except between the small blind and the button (RULES 3.6, 1.3); then balancing runs."""
    with tournament_action(tournament_id) as t:
        row = _table(t, table_number)
        if row.status != Table.Status.OPEN:
            raise DomainError("table_broken", MSG_TABLE_BROKEN, status=409)
        others = [r for r in open_tables(t) if r.number != table_number]
        if not others:
            raise DomainError("last_table", MSG_LAST_TABLE, status=409)
        leaving = _load([row])[table_number]
        counts = _counts(others)
        room = sum(
            r.seats - len(r.unavailable_seats or ()) - counts.get(r.number, 0) for r in others
        )
        if leaving.players > room:
            raise DomainError("no_room", MSG_NO_ROOM, status=409)
        event = record_event(t, "table_closed", {"table": table_number}, actor)
        # One engine call (RULES 3.6 for this table first, then any break, redraw and
        # balancing it brings), so a redraw it brings (RULES 3.7) gives each player one move
        # from the seat they sit in.
        result = rebalance(t, event=event, close=table_number)
        written, seed = result["moves"], result["seed"]
        event.payload = {"table": table_number, "seed": seed, "moves": [m["id"] for m in written]}
        if result["buttons_drawn"]:  # RULES 2.1: a table without a button got players
            event.payload["buttons_drawn"] = {str(n): s for n, s in result["buttons_drawn"].items()}
        event.save(update_fields=["payload"])
    return written


def table_break_order_set(*, tournament_id: int, order: Sequence[int], actor=None) -> None:
    """RULES 3.5: the director edits the predetermined order (first listed breaks first)."""
    with tournament_action(tournament_id) as t:
        rows = list(Table.objects.filter(tournament=t, status=Table.Status.OPEN))
        if sorted(order) != sorted(r.number for r in rows):
            raise DomainError("bad_order", MSG_BAD_ORDER, fields={"order": MSG_BAD_ORDER})
        before = _break_order(rows)
        if j := journal_current():
            j.note_tables(ids=[r.pk for r in rows])
        by_number = {r.number: r for r in rows}
        for rank, number in enumerate(order, start=1):
            by_number[number].break_rank = rank
        Table.objects.bulk_update(rows, ["break_rank"])
        record_event(t, "break_order_set", {"before": before, "after": list(order)}, actor)


def seat_set_available(
    *, tournament_id: int, table_number: int, seat: int, available: bool, actor=None
) -> Table:
    """RULES 1.4: mark an empty seat unavailable (or available again)."""
    with tournament_action(tournament_id) as t:
        row = _table(t, table_number)
        if not 1 <= seat <= row.seats:
            raise DomainError("bad_seat", MSG_BAD_SEAT, fields={"seat": MSG_BAD_SEAT})
        if not available and Seat.objects.filter(table=row, number=seat).exists():
            raise DomainError("seat_occupied", MSG_SEAT_OCCUPIED, status=409)
        if j := journal_current():
            j.note_tables(ids=[row.pk])
        blocked = set(row.unavailable_seats or ())
        blocked.discard(seat) if available else blocked.add(seat)
        row.unavailable_seats = sorted(blocked)
        row.save(update_fields=["unavailable_seats"])
        event = record_event(
            t,
            "seat_availability",
            {"table": table_number, "seat": seat, "available": available},
            actor,
        )
        if available:  # a seat opened: the first alternate takes a seat (RULES 1.3)
            seated = seat_alternates(t, event=event)
            if seated:
                event_payload_set(
                    event, {**event.payload, "alternates": [m["entry"] for m in seated]}
                )
    return row


def move_manual(
    *, tournament_id: int, entry_id: int, table_number: int, seat: int, actor=None
) -> dict[str, Any]:
    """The director moves a player to an open seat; the player waits for the button if the
    seat lies between the small blind and the button (RULES 1.3)."""
    call = {
        "service": "move_manual",
        "kwargs": {"entry_id": entry_id, "table_number": table_number, "seat": seat},
    }
    with tournament_action(tournament_id, call=call) as t:
        current = Seat.objects.filter(tournament=t, entry_id=entry_id).select_related("table")
        current = current.first()
        if current is None:
            raise DomainError("entry_not_seated", MSG_ENTRY_NOT_SEATED, status=409)
        row = _table(t, table_number)
        if row.status != Table.Status.OPEN:
            raise DomainError("table_broken", MSG_TABLE_BROKEN, status=409)
        if not 1 <= seat <= row.seats:
            raise DomainError("bad_seat", MSG_BAD_SEAT, fields={"seat": MSG_BAD_SEAT})
        table = _load([row])[table_number]
        if not table.is_open(seat):
            raise DomainError("seat_not_free", MSG_SEAT_NOT_FREE, status=409)
        from tables.engine.blinds import waits_for_button

        move = em.Move(
            entry_id,
            current.table.number,
            current.number,
            table_number,
            seat,
            "manual",
            waits_for_button(table, seat),
        )
        event = record_event(t, "move_manual", {"entry": entry_id}, actor)
        return apply_moves(t, [move], event=event)[0]
