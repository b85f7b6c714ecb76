"""RULES 3.2–3.7 after players left or a table was opened or closed: table breaks, redraws
and balancing moves (``tables.engine.balancing``), written as the floor makes them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tables.engine import balancing
from tables.engine import model as em
from tables.models import Seat, Table
from tables.selectors import (
    TABLE,
    break_order,
    engine_tables,
    open_tables,
    player_counts,
    seating_settings,
)
from tables.services.buttons import buttons_draw_new
from tables.services.seats import apply_moves
from tourney.core.journal import current as journal_current
from tourney.core.rng import next_rng
from tourney.core.rows import kept_cursor
from tourney.core.rows import marks as in_marks
from tourney.models import Event, Tournament


def nothing_to_rebalance(t: Tournament) -> dict[str, Any]:
    """What ``rebalance`` returns when it does nothing; the draw counter steps as it would
    (RULES 1.1: the next draw gets the same seed either way)."""
    _, seed = next_rng(t)
    return {"moves": [], "seed": seed, "broken": [], "redraw": False}


def rebalance(t: Tournament, *, event: Event | None, close: int | None = None) -> dict[str, Any]:
    """RULES 3.4–3.7 then 3.2–3.3 after players left: breaks, redraws, balancing moves.
    ``close``: an open table the director breaks now (``table_close``), first. The moves are
    written as the floor makes them (``balancing.one_move_each``): when a redraw follows a
    break, one ``redraw`` move per player from the seat they sit in to the seat they draw."""
    rows = open_tables(t)
    if not rows:
        return {"moves": [], "seed": None}
    by_number = {r.number: r for r in rows}
    counts = player_counts(rows)
    capacity = {r.number: r.seats - len(r.unavailable_seats or ()) for r in rows}
    rng, seed = next_rng(t)

    def load(number: int) -> em.Table:
        return engine_tables([by_number[number]])[number]

    def load_many(numbers: Sequence[int]) -> dict[int, em.Table]:
        return engine_tables([by_number[n] for n in numbers])

    result = balancing.rebalance(
        counts=counts,
        capacity=capacity,
        break_order=break_order(rows),
        load=load,
        load_many=load_many,
        settings=seating_settings(t),
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
    drawn = buttons_draw_new(t, kept, rng, event)
    return {
        "moves": written,
        "seed": seed,
        "broken": list(result.broken),
        "redraw": result.redraw,
        "buttons_drawn": drawn,
    }
