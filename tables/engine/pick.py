"""Choosing a table without loading every table's seats (RULES 1.3 at scale).

Pure Python. ``late_seat`` draws uniformly over the open seats of the tables with the fewest
players. Picking one of those tables with probability proportional to its open seats, then a
uniform open seat at it, is the same distribution — and needs only per-table counts.

The read (``tables.selectors.late_pick``) has the database find the candidates, make the
same draw and read the drawn table with its seats, in one statement; a test checks it picks
the same table as this function over every table, for the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping


def pick_table(
    counts: Mapping[int, int], capacity: Mapping[int, int], rng: random.Random
) -> int | None:
    """The table a late entry draws into (RULES 1.3), or None when every seat is taken.

    The draw: ``x = rng.random() * open seats`` (one draw, even when there is no seat), and
    the first candidate by table number whose open seats so far exceed ``x`` — arithmetic a
    database does alike (IEEE doubles), so ``tables.selectors.late_pick`` makes it there."""
    x = rng.random()
    fewest: int | None = None
    pool: list[tuple[int, int]] = []
    for number in sorted(capacity):
        players = counts.get(number, 0)
        room = capacity[number] - players
        if room <= 0:
            continue
        if fewest is None or players < fewest:
            fewest, pool = players, [(number, room)]
        elif players == fewest:
            pool.append((number, room))
    if not pool:
        return None
    x *= sum(room for _, room in pool)  # < the open seats: random() < 1
    upto = 0
    for number, room in pool:
        upto += room
        if upto > x:
            return number
    raise AssertionError("unreachable")  # pragma: no cover
