"""Reads shaped for the screens and the API. No writes."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils import timezone

from tables.models import Seat, Table
from tourney.engine import clock as clock_engine
from tourney.models import Entry, Tournament
from tourney.selectors.clock import clock_read, structure_items
from tourney.selectors.money import pool_of, results_rows


def item_dict(item: clock_engine.Item | None) -> dict[str, Any] | None:
    if item is None:
        return None
    d = asdict(item)
    d["color_up"] = list(item.color_up)
    return d


def clock_payload(
    t: Tournament, now: datetime | None = None, *, state: clock_engine.ClockState | None = None
) -> dict[str, Any]:
    """The clock as docs/api.md gives it: status, level_index, level, remaining_ms, next.
    ``state``: the clock as the caller read it (a Day 1 flight's, stopped at its end: RULES
    10.2, ``flights.flight_clock``), else ``clock_read``'s."""
    now = now or timezone.now()
    items = structure_items(t)
    s = state or clock_read(t, now, items=items)  # finished where it stopped once it is over
    nxt = items[s.next_index] if s.next_index is not None else None
    return {
        "status": s.status,
        "level_index": s.index,
        "level_number": s.level_number,
        "level": item_dict(s.item),
        "remaining_ms": s.remaining_ms,
        "next": item_dict(nxt),
        "next_break_index": s.next_break_index,
        "ms_to_next_break": s.ms_to_next_break,
        "server_time": now.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
    }


def total_chips(t: Tournament, *, bought: int | None = None) -> int:
    """RULES 5.9: chips in play change only by buy-ins, rebuys, add-ons and color-ups.
    ``bought``: the entries' chips bought, if the caller summed them."""
    if bought is None:
        bought = Entry.objects.filter(tournament=t).aggregate(s=Sum("chips_bought"))["s"] or 0
    return bought + t.chips_color_up_delta


def average_stack(chips: int, left: int) -> int:
    """The average stack every screen shows: chips in play (RULES 5.9) over players left, to
    the nearest chip, a half chip up (RULES 10.8, the engine's ``average_stack``)."""
    from tourney.engine.bags import average_stack as nearest

    return nearest(chips_in_play=chips, players=left) if left else 0


def entry_totals(t: Tournament) -> dict[str, int]:
    """One pass over the entries for the clock's figures: entries, players still seated,
    chips bought (RULES 5.9, before color-ups) and money paid in (RULES 8.1)."""
    agg = Entry.objects.filter(tournament=t).aggregate(
        entries=Count("id"),
        seated=Count("id", filter=Q(status=Entry.Status.SEATED)),
        chips_bought=Sum("chips_bought"),
        paid=Sum("paid"),
    )
    return {k: v or 0 for k, v in agg.items()}


def players_left(t: Tournament) -> int:
    return Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count()


def seating(t: Tournament) -> dict[str, Any]:
    """docs/api.md GET seating: occupied seats only, tables open and broken."""
    seats_by_table: dict[int, list[dict[str, Any]]] = {}
    for table_id, number, entry_id, name, waits in (
        Seat.objects.filter(tournament=t)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "entry_id", "entry__player__name", "waits_for_button")
    ):
        seats_by_table.setdefault(table_id, []).append(
            {"seat": number, "entry": entry_id, "name": name, "waits_for_button": waits}
        )
    tables = [
        {
            "number": row.number,
            "status": row.status,
            "seats_total": row.seats,
            "button_seat": row.button_seat,
            "break_rank": row.break_rank,
            "unavailable": list(row.unavailable_seats or []),
            "seats": seats_by_table.get(row.pk, []),
        }
        for row in Table.objects.filter(tournament=t).order_by("number")
    ]
    return {"tables": tables, "players_left": players_left(t)}


def results(t: Tournament) -> dict[str, Any]:
    """docs/api.md GET results; ``deal`` (an added field): the prize is a deal amount
    (RULES 8.3); ``bounties`` (added): the bounty money each won, and ``bounties_paid`` all
    of it (RULES 9.9)."""
    from tourney.selectors.bounties import bounty_totals

    keys = ("place", "place_to", "entry", "name", "prize", "deal", "bounties")
    return {
        "places": [{k: row[k] for k in keys} for row in results_rows(t)],
        "prize_pool": pool_of(t),
        "bounties_paid": bounty_totals(t)["paid"],
    }
