"""The director's table services: open tables, break one now, set the break order, mark a
seat unavailable or available again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_noop as N_

from tables.models import Seat, Table
from tables.selectors import break_order, engine_tables, open_tables, player_counts, table_of
from tables.services.balancing import rebalance
from tables.services.seating import seat_alternates
from tables.services.seats import MSG_BAD_SEAT, MSG_TABLE_BROKEN, tables_open
from tourney.core.events import event_payload_set, record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.engine.errors import DomainError

MSG_SEAT_OCCUPIED = N_("Someone sits in that seat.")
MSG_BAD_ORDER = N_("List every open table exactly once.")
MSG_LAST_TABLE = N_("The last open table cannot be broken: its players would have nowhere to go.")
MSG_NO_ROOM = N_("The other tables have no room for this table's players.")


def table_open(*, tournament_id: int, count: int = 1, actor=None) -> list[Table]:
    """The director opens tables (numbered by the room, RULES 13.1); they break first (RULES
    3.5)."""
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
        row = table_of(t, table_number)
        if row.status != Table.Status.OPEN:
            raise DomainError("table_broken", MSG_TABLE_BROKEN, status=409)
        others = [r for r in open_tables(t) if r.number != table_number]
        if not others:
            raise DomainError("last_table", MSG_LAST_TABLE, status=409)
        leaving = engine_tables([row])[table_number]
        counts = player_counts(others)
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
        before = break_order(rows)
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
        row = table_of(t, table_number)
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
