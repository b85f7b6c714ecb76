"""The clock as every screen and every write reads it: derived from the anchor in the
tournament row and the structure's items (RULES 4.3). Reads only."""

from __future__ import annotations

import json
from datetime import datetime
from functools import lru_cache

from django.db import connection
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
