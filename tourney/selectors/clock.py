"""The clock as every screen and every write reads it: derived from the anchor in the
tournament row and the structure's items (RULES 4.3). Reads only."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from tourney.core.rows import kept_cursor
from tourney.engine import clock as clock_engine
from tourney.models import Level, Tournament


def structure_items(t: Tournament) -> tuple[clock_engine.Item, ...]:
    """The structure's items, in order. Read by every clock read (a late entry asks whether
    registration is still open), so in plain SQL, and the items are built once per distinct
    structure."""
    color_up = "color_up::text" if connection.vendor == "postgresql" else "color_up"
    with kept_cursor() as cursor:
        cursor.execute(
            f"SELECT kind, seconds, small_blind, big_blind, ante, big_blind_ante, {color_up} "
            f'FROM {Level._meta.db_table} WHERE tournament_id = %s ORDER BY "index"',
            [t.pk],
        )
        return _items(tuple(cursor.fetchall()))


def structures_items(ids) -> dict[int, tuple[clock_engine.Item, ...]]:
    """The structure items of several tournaments in one statement (the director home's, the
    lobby's and the desk's other events), built as ``structure_items`` builds one (the same
    cache of items per distinct structure); every id is in the answer, () without levels."""
    ids = list(ids)
    if not ids:
        return {}
    color_up = "color_up::text" if connection.vendor == "postgresql" else "color_up"
    rows: dict[int, list[tuple]] = {i: [] for i in ids}
    with kept_cursor() as cursor:
        cursor.execute(
            f"SELECT tournament_id, kind, seconds, small_blind, big_blind, ante, big_blind_ante, "
            f"{color_up} FROM {Level._meta.db_table} WHERE tournament_id IN "
            f'({", ".join(["%s"] * len(ids))}) ORDER BY tournament_id, "index"',
            ids,
        )
        for tid, *row in cursor.fetchall():
            rows[tid].append(tuple(row))
    return {tid: _items(tuple(r)) for tid, r in rows.items()}


@lru_cache(maxsize=64)
def _items(rows: tuple[tuple, ...]) -> tuple[clock_engine.Item, ...]:
    return tuple(
        clock_engine.Item(
            kind=kind,
            seconds=seconds,
            small_blind=sb,
            big_blind=bb,
            ante=ante,
            big_blind_ante=bba,
            color_up=tuple(json.loads(cu) if isinstance(cu, str) else (cu or ())),
        )
        for kind, seconds, sb, bb, ante, bba, cu in rows
    )


def anchor_of(t: Tournament) -> clock_engine.Anchor:
    return clock_engine.Anchor(
        index=t.clock_index,
        left_ms=t.clock_left_ms,
        at=t.clock_at,
        running=t.clock_running,
        started=t.clock_started,
    )


def clock_read(
    t: Tournament,
    now: datetime | None = None,
    *,
    items: tuple[clock_engine.Item, ...] | None = None,
) -> clock_engine.ClockState:
    """The clock as every screen shows it: derived from the anchor (RULES 4.3), and finished
    where it stopped once the tournament is over (``tournament_end``). ``items``: the
    structure, if the caller read it."""
    if items is None:
        items = structure_items(t)
    state = clock_engine.state(items, anchor_of(t), now or timezone.now())
    if t.status == Tournament.Status.FINISHED:
        return clock_engine.over(state)
    return state


def clock_index(t: Tournament, now: datetime | None = None) -> int:
    """The item the clock is in (RULES 4.3): from the anchor alone while its item still has
    time left (most late entries), else by the walk through the structure."""
    now = now or timezone.now()
    index = clock_engine.index_within_anchor(anchor_of(t), now)
    return index if index is not None else clock_read(t, now).index


# ---------------------------------------------------------------- the sweep's work (issue 30)


@dataclass(frozen=True)
class ClockDue:
    """A clock the sweep has work for (``clocks_due``): ``announce``, something to record or
    to stop now, under the tournament's lock (``clock_announce``); else only the ticks of the
    boundaries before the next sweep to queue."""

    tournament_id: int
    anchor: clock_engine.Anchor
    announce: bool


def clocks_due(now: datetime, within: timedelta) -> list[ClockDue]:
    """The clocks with something for the sweep to do before ``now + within``, in one statement
    whatever the number of events (issue 30: a sweep with nothing due costs the same at 1 or
    50 events). A clock's next boundary is derived as the clock derives it (RULES 4.3): the
    end of the anchor's item, plus the items from it up to the last one recorded
    (``clock_announced``). Due now: a transition not yet recorded (a paused clock's own item
    too), or a flight whose end may come at any moment (RULES 10.2: its field's size, or its
    last level reached), which the sweep checks every time as before. Finished events and
    clocks never started are not read."""
    announced = OuterRef("clock_announced")
    passed = (
        Level.objects.filter(
            tournament=OuterRef("pk"), index__gt=OuterRef("clock_index"), index__lte=announced
        )
        .order_by()
        .values("tournament")
        .annotate(total=Sum("seconds"))
        .values("total")
    )
    rows = (
        Tournament.objects.filter(
            Q(clock_running=True) | Q(clock_started=True, clock_index__gt=F("clock_announced"))
        )
        .exclude(status=Tournament.Status.FINISHED)
        .annotate(
            passed=Subquery(passed),
            has_next=Exists(Level.objects.filter(tournament=OuterRef("pk"), index=announced + 1)),
        )
        .values_list(
            "pk",
            "clock_index",
            "clock_left_ms",
            "clock_at",
            "clock_running",
            "clock_started",
            "clock_announced",
            "passed",
            "has_next",
            "multi_day_event_id",
            "day",
            "end_at_level",
            "end_at_players",
        )
    )
    now_ms = clock_engine.to_ms(now)
    until_ms = clock_engine.to_ms(now + within)
    due = []
    for pk, index, left, at, running, started, last, passed_s, has_next, *flight in rows:
        anchor = clock_engine.Anchor(index, left, at, running, started)
        if (started and index > last) or (running and _flight_end_near(last, *flight)):
            due.append(ClockDue(pk, anchor, announce=True))
        elif running and has_next and at is not None:
            # RULES 4.3: the item after the last one recorded starts here (``boundaries``)
            starts = clock_engine.to_ms(at) + left + (passed_s or 0) * 1000
            if starts <= until_ms:
                due.append(ClockDue(pk, anchor, announce=starts <= now_ms))
    return due


def _flight_end_near(last: int, event_id, day, end_at_level, end_at_players) -> bool:
    """A running Day 1 flight that may end without a boundary (RULES 10.2: its field down to
    its number once registration closes) or stands past its last level: checked by
    every sweep under the lock (``flight_clock_stop``), as every clock was before issue 30.
    At its last level, its end is that level's end: the next boundary, as for any clock."""
    if event_id is None or day != 1:
        return False
    return end_at_players is not None or (end_at_level is not None and last > end_at_level)
