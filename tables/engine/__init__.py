"""The seating engine (RULES 1-3): pure Python, no Django."""

from tables.engine.balancing import Rebalance, rebalance, tolerance_for
from tables.engine.blinds import (
    bb_next,
    blinds,
    released_by_button_move,
    waits_for_button,
    worst_position,
)
from tables.engine.model import Move, SeatingSettings, Table, parse_table
from tables.engine.seat_draw import draw, draw_button, even_sizes, late_seat, tables_needed

__all__ = [
    "Move",
    "Rebalance",
    "SeatingSettings",
    "Table",
    "bb_next",
    "blinds",
    "draw",
    "draw_button",
    "even_sizes",
    "late_seat",
    "parse_table",
    "rebalance",
    "released_by_button_move",
    "tables_needed",
    "tolerance_for",
    "waits_for_button",
    "worst_position",
]
