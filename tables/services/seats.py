"""The row writes every table service is built of: seats taken (``apply_moves``, with the
Move rows to announce) and freed (``unseat``), tables opened (``tables_open``, numbered by the
room: RULES 13). Called inside a tournament service's transaction, the tournament row already
locked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from tables.engine import model as em
from tables.models import Move, Seat, Table
from tables.selectors import ENTRY, SEAT
from tourney.core.events import event_saved
from tourney.core.journal import current as journal_current
from tourney.core.locking import lock_room_tables
from tourney.core.rows import kept_cursor
from tourney.core.rows import marks as in_marks
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Room, Tournament
from tourney.selectors.room import events_using, tables_in_use

MSG_TABLE_BROKEN = N_("That table is broken (closed): choose an open table.")
MSG_BAD_SEAT = N_(
    "That seat does not exist at this table: seats go from 1 to the number of seats at the table."
)


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


MSG_NO_FREE_TABLE = (
    "No free table in the room: its floor plan has {count} table(s), and {free} of them "
    "{free_verb} free for this event ({needed} needed). In use: {using}. Break a table in "
    "another event, or add tables to the floor plan (the room's settings)."
)


def _numbers(t: Tournament, count: int) -> list[int]:
    """The numbers of ``count`` new tables (RULES 13.1-13.2): none open in another unfinished
    event, none this tournament has had (a number is unique per tournament); the floor plan's
    first free ones, or without a plan the next ones after this tournament's highest."""
    lock_room_tables()  # two events opening tables at once never get the same number
    mine = set(Table.objects.filter(tournament=t).values_list("number", flat=True))
    in_use = tables_in_use(exclude_tournament_id=t.pk)
    taken = mine | {row["number"] for row in in_use}
    room = Room.objects.filter(pk=1).first()
    plan = [int(n) for n in (room.floor_plan if room else None) or []]
    if not plan:  # a home game: counting up, around the numbers other events hold
        out: list[int] = []
        n = max(mine, default=0)
        while len(out) < count:
            n += 1
            if n not in taken:
                out.append(n)
        return out
    free = [n for n in plan if n not in taken]
    if len(free) < count:
        message = MSG_NO_FREE_TABLE.format(
            count=len(plan),
            free=len(free),
            free_verb="is" if len(free) == 1 else "are",
            needed=count,
            using=events_using(in_use) or "none",
        )
        raise DomainError("no_free_table", message, status=409)
    return free[:count]


def tables_open(t: Tournament, *, count: int = 1) -> list[Table]:
    """Open ``count`` new tables, numbered by the room (``_numbers``, RULES 13.1)."""
    rows = Table.objects.bulk_create(
        Table(tournament=t, number=n, seats=t.seats_per_table, break_rank=-n)
        for n in _numbers(t, count)
    )
    if j := journal_current():
        j.note_created("table", [r.pk for r in rows])
    # RULES 3.7: "started with six or more tables" counts the tables open when play began.
    # Before the start the count follows the tables opened; a table opened later (for late
    # entries) is not one the event started with. The clock's start sets the final count.
    if t.status == Tournament.Status.SETUP:
        open_now = Table.objects.filter(tournament=t, status=Table.Status.OPEN).count()
        if open_now > t.started_tables:
            t.started_tables = open_now
            Tournament.objects.filter(pk=t.pk).update(started_tables=open_now)
    return rows
