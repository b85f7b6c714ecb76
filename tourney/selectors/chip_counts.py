"""Chip counts during play as the dashboard and the API read them (RULES 10.8): each player
still in with their latest count and when it was taken, the chip leaders, and the average stack
from the exact chips in play (never from the counts: they are of some players, taken at
different times). The rules are the engine's (``tourney.engine.bags.chip_counts``); the writes
are in tourney/services/chip_counts.py. No writes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tables.models import Seat
from tourney.engine import bags
from tourney.models import ChipCount, Entry, Tournament
from tourney.selectors import total_chips

LEADERS_SHOWN = 5


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)


def at_int(at: datetime) -> int:
    """A count's time as the engine orders it: microseconds since the epoch, exactly."""
    return (at - EPOCH) // MICROSECOND


def at_time(us: int) -> datetime:
    return EPOCH + us * MICROSECOND


def count_records(t: Tournament, entries: list[int] | None = None) -> list[bags.Count]:
    """The counts taken during play of the players still in (of ``entries`` only, when
    given), in the order they were entered, as the engine takes them (``at``: ``at_int``)."""
    qs = ChipCount.objects.filter(tournament=t, bag=False, entry__status=Entry.Status.SEATED)
    if entries is not None:
        qs = qs.filter(entry_id__in=entries)
    return [
        bags.Count(entry=e, chips=chips, table=table or 0, seat=seat or 0, at=at_int(at))
        for e, chips, table, seat, at in qs.order_by("id").values_list(
            "entry_id", "chips", "table", "seat", "at"
        )
    ]


def latest_counts(records: list[bags.Count], players: list[int]) -> list[bags.Count]:
    """Each player's latest count (RULES 10.8: the one taken last; at the same time, the one
    entered last), biggest first; counts of players out since are left out."""
    if not players:
        return []
    return list(bags.chip_counts(records, players=players, chips_in_play=0).counts)


def chip_counts_read(t: Tournament, *, limit: int | None = None) -> dict[str, Any]:
    """The chip counts (RULES 10.8): every player still in with their latest count, biggest
    first (``limit``: the chip leaders only), where they sit now and where they were counted,
    when; how many have none; the exact chips in play, the players still in and the average
    stack. Three queries: the players, their counts, the chips in play."""
    seated = {
        e: (number, name, table, seat)
        for e, number, name, table, seat in Seat.objects.filter(
            tournament=t, entry__status=Entry.Status.SEATED
        ).values_list("entry_id", "entry__number", "entry__player__name", "table__number", "number")
    }
    players = list(
        Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).values_list("pk", flat=True)
    )
    chips = total_chips(t)
    read = (
        bags.chip_counts(count_records(t), players=players, chips_in_play=chips)
        if players
        else None
    )
    latest = list(read.counts) if read else []
    rows = [
        {
            "entry": c.entry,
            "number": seated.get(c.entry, (None, "", None, None))[0],
            "name": seated.get(c.entry, (None, "", None, None))[1],
            "table": seated.get(c.entry, (None, "", None, None))[2],
            "seat": seated.get(c.entry, (None, "", None, None))[3],
            "chips": c.chips,
            "counted_table": c.table or None,
            "counted_seat": c.seat or None,
            "at": at_time(c.at),
        }
        for c in (latest[:limit] if limit else latest)
    ]
    return {
        "counts": rows,
        "counted": len(latest),
        "not_counted": len(read.not_counted) if read else 0,
        "players": len(players),
        "chips_in_play": chips,
        "average_stack": read.average if read else 0,
    }


def chip_leaders(t: Tournament, limit: int = LEADERS_SHOWN) -> list[dict[str, Any]]:
    """The ``limit`` biggest latest counts of the players still in (RULES 10.8)."""
    return chip_counts_read(t, limit=limit)["counts"]


def table_counts(t: Tournament, number: int) -> list[dict[str, Any]]:
    """The players at one table, in seat order, each with their latest count and its time
    (None without one): the rows of the dashboard's chip count form."""
    seats = list(
        Seat.objects.filter(tournament=t, table__number=number, entry__status=Entry.Status.SEATED)
        .order_by("number")
        .values_list("entry_id", "number", "entry__player__name")
    )
    ids = [e for e, _, _ in seats]
    latest = {c.entry: c for c in latest_counts(count_records(t, ids), ids)}
    return [
        {
            "entry": e,
            "seat": seat,
            "name": name,
            "chips": latest[e].chips if e in latest else None,
            "at": at_time(latest[e].at) if e in latest else None,
        }
        for e, seat, name in seats
    ]
