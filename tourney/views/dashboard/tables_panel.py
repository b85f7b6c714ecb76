"""The dashboard's tables panel: a tile per open table (players, capacity, button, status
words, and its seats when shown in full), the name search, the alternates waiting. No writes.

A fixed number of queries whatever the field size (a test compares 20 and 10,000 entries):
rows, not model instances, and seat rows only for the tables a tile shows in full; from
``BIG_FIELD_TABLES`` open tables on, tiles collapse to counts and only the tables a search
finds (or the one asked for) open."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.engine import balancing
from tables.models import Seat, Table
from tables.selectors import break_order, seating_settings
from tourney.models import Entry, Tournament

BIG_FIELD_TABLES = 100  # from this many open tables on, tiles collapse to counts
SEARCH_LIMIT = 30
ALTERNATES_SHOWN = 12  # the tables panel names this many alternates, then counts the rest


def tables_panel(t: Tournament, *, q: str = "", expand: int | None = None) -> dict[str, Any]:
    rows = _table_rows(t)
    open_rows = [r for r in rows if r.status == Table.Status.OPEN]
    counts = {r.pk: r.players for r in open_rows}  # kept by the seat triggers
    big = len(open_rows) >= BIG_FIELD_TABLES
    q = (q or "").strip()[:60]
    found = _search(t, q) if q else []
    full_numbers = {r.number for r in open_rows} if not big else set()
    if big:
        full_numbers = {f["table"] for f in found} | ({expand} if expand else set())
    by_table = _seats_by_table(t, full_numbers)
    sizes = [counts.get(r.pk, 0) for r in open_rows]
    # RULES 3.1/3.3: a table is short when balancing would bring it a player, i.e. it has
    # more than the tolerance fewer than the biggest table (a 9/8 split is balanced).
    tolerance = balancing.tolerance_for(len(open_rows), seating_settings(t))
    order = break_order(open_rows)  # RULES 3.5, as the services break them
    breaks_next = {number: pos for pos, number in enumerate(order, start=1)}
    hits = {(f["table"], f["seat"]) for f in found}
    most = max(sizes) if sizes else 0
    tiles = []
    for r in open_rows:
        tile = _tile(
            r,
            counts.get(r.pk, 0),
            most=most,
            tolerance=tolerance,
            break_pos=breaks_next[r.number],
            expanded=r.number in full_numbers,
        )
        if tile["expanded"]:
            tile["seats"] = _tile_seats(r, by_table.get(r.pk, {}), hits)
        tile["status"] = _tile_status(
            tile, closed=len(r.unavailable_seats or ()), open_tables=len(open_rows)
        )
        tiles.append(tile)
    alternates, alternates_count = _alternates(t)
    return {
        "alternates": alternates,
        "alternates_count": alternates_count,
        "tiles": tiles,
        "focus": [tile for tile in tiles if big and tile["expanded"]],
        "big": big,
        "q": q,
        "found": found,
        "expand": expand,
        "broken": [r.number for r in rows if r.status == Table.Status.BROKEN],
        "open_count": len(open_rows),
        "seated": sum(sizes),
        "break_order": order,
        "tolerance": tolerance,
    }


def _table_rows(t: Tournament) -> list:
    return list(  # rows, not model instances: a 10,000-entry field has 1,100 tables
        Table.objects.filter(tournament=t)
        .order_by("number")
        .values_list(
            "pk",
            "number",
            "status",
            "players",
            "seats",
            "unavailable_seats",
            "break_rank",
            "button_seat",
            named=True,
        )
    )


def _search(t: Tournament, q: str) -> list[dict[str, Any]]:
    """The seated players whose name contains ``q``, by name, with their table and seat."""
    return [
        {"name": name, "table": tn, "seat": s, "entry": e}
        for e, name, tn, s in Seat.objects.filter(tournament=t, entry__player__name__icontains=q)
        .order_by("entry__player__name")
        .values_list("entry_id", "entry__player__name", "table__number", "number")[:SEARCH_LIMIT]
    ]


def _seats_by_table(t: Tournament, numbers: set[int]) -> dict[int, dict[int, dict[str, Any]]]:
    """Who sits where at the tables shown in full: {table id: {seat: entry, name, waits}}."""
    # Always one query, even when no tile is shown in full (0 is never a table number).
    seat_rows = Seat.objects.filter(tournament=t, table__number__in=sorted(numbers) or [0])
    by_table: dict[int, dict[int, dict[str, Any]]] = {}
    for table_id, number, entry_id, name, waits in seat_rows.values_list(
        "table_id", "number", "entry_id", "entry__player__name", "waits_for_button"
    ):
        by_table.setdefault(table_id, {})[number] = {
            "entry": entry_id,
            "name": name,
            "waits": waits,
        }
    return by_table


def _tile(
    r, n: int, *, most: int, tolerance: int, break_pos: int, expanded: bool
) -> dict[str, Any]:
    """A table's tile before its seats: players, capacity (closed seats left out), button,
    its turn to break, full or short."""
    capacity = r.seats - len(r.unavailable_seats or ())
    return {
        "number": r.number,
        "players": n,
        "seats_total": r.seats,
        "capacity": capacity,
        "button": r.button_seat,
        "break_pos": break_pos,
        "full": n >= capacity,
        "short": most - n > tolerance,
        "expanded": expanded,
        "seats": [],
    }


def _tile_seats(
    r, occupied: dict[int, dict[str, Any]], hits: set[tuple[int, int]]
) -> list[dict[str, Any]]:
    """Every seat of a table shown in full: who sits there, the button, closed, a search hit."""
    blocked = set(r.unavailable_seats or ())
    return [
        {
            "seat": s,
            "button": s == r.button_seat,
            "blocked": s in blocked,
            "hit": (r.number, s) in hits,
            **occupied.get(s, {}),
        }
        for s in range(1, r.seats + 1)
    ]


def _tile_status(tile: dict[str, Any], *, closed: int, open_tables: int) -> list[str]:
    """A tile's status words, beyond full/short: the table to break next (RULES 3.5), no
    button yet, closed seats, players waiting for the button to reach them."""
    words = []
    if tile["break_pos"] == 1 and open_tables > 1:
        words.append(_("breaks next"))
    if not tile["button"] and tile["players"]:
        words.append(_("no button"))
    if closed:
        words.append(ngettext("%(n)s seat closed", "%(n)s seats closed", closed) % {"n": closed})
    waiting = sum(1 for s in tile["seats"] if s.get("waits"))
    if waiting:
        words.append(_("%(n)s waiting for the button") % {"n": waiting})
    return words


def _alternates(t: Tournament) -> tuple[list[dict[str, Any]], int]:
    """The alternates list, in the order seats go to them (issue 31, live event: shown
    nowhere), the first ``ALTERNATES_SHOWN``; and how many wait in all."""
    waiting = Entry.objects.filter(tournament=t, status=Entry.Status.ALTERNATE)
    alternates = [
        {"name": name, "number": number}
        for name, number in waiting.order_by("number").values_list("player__name", "number")[
            :ALTERNATES_SHOWN
        ]
    ]
    count = waiting.count() if len(alternates) == ALTERNATES_SHOWN else len(alternates)
    return alternates, count
