"""RULES 2.1: the buttons. Drawn by high card where play starts (at the start, or at a table
that gets its second player in play), and moved by the director after each hand."""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine import model as em
from tables.engine import seat_draw
from tables.engine.blinds import released_by_button_move
from tables.models import Table
from tables.selectors import SEAT, TABLE, TableRow, engine_tables, open_tables, table_loaded
from tables.services.seats import MSG_BAD_SEAT, MSG_TABLE_BROKEN
from tourney.core.events import event_payload_set, record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.core.rng import next_rng
from tourney.core.rows import kept_cursor
from tourney.core.rows import marks as in_marks
from tourney.engine.errors import DomainError
from tourney.models import Event, Tournament


def button_draw_if_due(t: Tournament, table: em.Table, event: Event | None = None) -> int | None:
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


def buttons_draw_new(t: Tournament, rows: Sequence[TableRow], rng, event: Event | None):
    """RULES 2.1 in play: an open table without a button (opened while the clock runs) that
    now has two players or more starts play, so its button is drawn by high card: a random
    seated player, from the action's recorded randomness. Before the start the buttons are
    drawn at the start (``buttons_draw_at_start``)."""
    if not t.clock_started:
        return {}
    waiting = [r for r in rows if r.button_seat is None]
    tables = engine_tables(waiting) if waiting else {}
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


def buttons_draw_at_start(t: Tournament, *, actor=None) -> dict[int, int]:
    """RULES 2.1: at the start every table with players draws its button by high card."""
    rows = [r for r in open_tables(t) if r.button_seat is None]
    if not rows:
        return {}
    tables = engine_tables(rows)
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


def table_set_button(*, tournament_id: int, table_number: int, seat: int, actor=None) -> Table:
    """RULES 2.1: the button is at ``seat`` for the table's next hand; players whose wait
    the button passed are dealt in (RULES 1.3)."""
    call = {"service": "table_set_button", "kwargs": {"table_number": table_number, "seat": seat}}
    with tournament_action(tournament_id, call=call) as t:
        row, table = table_loaded(t, table_number)
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
