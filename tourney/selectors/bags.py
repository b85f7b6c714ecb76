"""Bag and tag as the director's screens read it (RULES 10.4): a table's players with their
bags, the tables with their bag totals, who still has no bag and where they sit, the labels
and the chip count report with the players' names. The rules (the check, the label numbers,
the ranks) are the engine's (``tourney.engine.bags``) through tourney/selectors/flights.py;
the writes are in tourney/services/flights.py. No writes."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from tables.models import Seat
from tourney.engine.bags import ChipReport, ChipRow
from tourney.models import ChipCount, Entry, MultiDayEvent, Tournament
from tourney.selectors.flights import bag_labels_of, chip_report_of


def flight_label(t: Tournament) -> str:
    """The day and flight as the labels print them: "Day 1B" ("Day 1" without a letter)."""
    return f"Day {t.day}{t.flight}"


def event_name(t: Tournament) -> str:
    """The multi-day event's name (the tournament's own for a tournament of no event)."""
    if t.multi_day_event_id is None:
        return t.name
    names = MultiDayEvent.objects.filter(pk=t.multi_day_event_id).values_list("name", flat=True)
    return names.first() or t.name


def _bags(t: Tournament, entries: Iterable[int] | None = None) -> dict[int, int]:
    qs = ChipCount.objects.filter(tournament=t, bag=True)
    if entries is not None:
        qs = qs.filter(entry_id__in=list(entries))
    return dict(qs.values_list("entry_id", "chips"))


def table_bags(t: Tournament, number: int) -> list[dict[str, Any]]:
    """The players seated at table ``number`` in seat order (those ``bags_record`` takes),
    each with their bag's chips (None without one): the rows of the bag form."""
    seats = list(
        Seat.objects.filter(tournament=t, table__number=number)
        .order_by("number")
        .values_list("entry_id", "number", "entry__player__name")
    )
    bags = _bags(t, (e for e, _, _ in seats))
    return [{"entry": e, "seat": s, "name": n, "bag": bags.get(e)} for e, s, n in seats]


def bag_tables(t: Tournament) -> list[dict[str, Any]]:
    """Every table with players, in number order: how many sit there, how many have a bag,
    the chips bagged there and whether the table is done (every player bagged)."""
    seats = list(
        Seat.objects.filter(tournament=t).values_list("table__number", "entry_id").order_by()
    )
    bags = _bags(t)
    tables: dict[int, dict[str, Any]] = {}
    for number, entry in sorted(seats):
        row = tables.setdefault(number, {"number": number, "players": 0, "bagged": 0, "chips": 0})
        row["players"] += 1
        if entry in bags:
            row["bagged"] += 1
            row["chips"] += bags[entry]
    for row in tables.values():
        row["done"] = row["bagged"] == row["players"]
    return list(tables.values())


def who(t: Tournament, entries: Iterable[int]) -> list[dict[str, Any]]:
    """The entries named, in table and seat order (those with no seat last): their name,
    ticket number, table and seat (None when not seated)."""
    ids = list(entries)
    rows = Entry.objects.filter(tournament=t, pk__in=ids).values_list(
        "pk", "number", "player__name", "seat__table__number", "seat__number"
    )
    out = [
        {"entry": pk, "number": number, "name": name, "table": table, "seat": seat}
        for pk, number, name, table, seat in rows
    ]
    return sorted(out, key=lambda r: (r["table"] is None, r["table"] or 0, r["seat"] or 0))


def _names(t: Tournament, entries: Iterable[int]) -> dict[int, str]:
    return dict(
        Entry.objects.filter(tournament=t, pk__in=list(entries)).values_list("pk", "player__name")
    )


def label_rows(t: Tournament) -> list[dict[str, Any]]:
    """One label per bag (RULES 10.4, ``bag_labels_of``: numbered in table and seat order):
    the bag number, the player's name, the chips, table and seat, when it was bagged, and
    the display token of the phone page that finds the player: Day 2's once the bag was
    carried there, else the flight's own."""
    labels = bag_labels_of(t)
    ids = [x.entry for x in labels]
    names = _names(t, ids)
    bagged_at: dict[int, datetime] = dict(
        ChipCount.objects.filter(tournament=t, bag=True).values_list("entry_id", "at")
    )
    carried = dict(
        Entry.objects.filter(carried_from_id__in=ids).values_list(
            "carried_from_id", "tournament__display_token"
        )
    )
    return [
        {
            "number": x.number,
            "entry": x.entry,
            "name": names.get(x.entry, ""),
            "chips": x.chips,
            "table": x.table,
            "seat": x.seat,
            "at": bagged_at.get(x.entry),
            "token": carried.get(x.entry) or t.display_token,
        }
        for x in labels
    ]


def _row(r: ChipRow, names: dict[int, str]) -> dict[str, Any]:
    return {
        "rank": r.rank,
        "entry": r.entry,
        "name": names.get(r.entry, ""),
        "chips": r.chips,
        "table": r.table,
        "seat": r.seat,
    }


def report_rows(t: Tournament) -> dict[str, Any]:
    """The chip count report (RULES 10.4, ``chip_report_of``) with the players' names:
    ``by_chips`` biggest first with the rank (equal stacks share it), ``by_table`` table by
    table in seat order with each table's total."""
    report: ChipReport = chip_report_of(t)
    names = _names(t, (r.entry for r in report.by_chips))
    return {
        "by_chips": [_row(r, names) for r in report.by_chips],
        "by_table": [
            {"table": x.table, "chips": x.chips, "rows": [_row(r, names) for r in x.rows]}
            for x in report.by_table
        ],
    }
