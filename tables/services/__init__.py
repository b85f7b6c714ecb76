"""Writes to tables and seats, one module per domain: seats (the row writes: seats taken and
freed, Move rows, tables opened), buttons (RULES 2.1), balancing (RULES 3: breaks, redraws,
balancing moves), seating (RULES 1: the draws, the alternates, a manual move) and tables (the
director's table services). Called inside a tournament service's transaction (the tournament
row already locked) or as services of their own (the ``table_*`` functions). The reads they
build on are in ``tables.selectors``.

This module only re-exports the names the project imports from ``tables.services``, so
``table_services.table_close(...)`` reads as before. The modules of this package import each
other directly, never through this one (no import cycle)."""

from __future__ import annotations

from tables.selectors import MSG_NO_TABLE, seats_of
from tables.services.buttons import table_set_button
from tables.services.seating import move_manual, seat_alternates, seating_draw_all
from tables.services.seats import MSG_BAD_SEAT
from tables.services.tables import (
    MSG_BAD_ORDER,
    MSG_SEAT_OCCUPIED,
    seat_set_available,
    table_break_order_set,
    table_close,
    table_open,
)

__all__ = [
    "MSG_BAD_ORDER",
    "MSG_BAD_SEAT",
    "MSG_NO_TABLE",
    "MSG_SEAT_OCCUPIED",
    "move_manual",
    "seat_alternates",
    "seat_set_available",
    "seating_draw_all",
    "seats_of",
    "table_break_order_set",
    "table_close",
    "table_open",
    "table_set_button",
]
