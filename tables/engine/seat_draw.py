"""Seat draws (RULES 1 and 2.1): the initial draw, late seats and the high card for the button.

Pure Python; randomness comes in as a ``random.Random`` (seed it to replay a draw, RULES 1.1).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tables.engine.blinds import waits_for_button
from tables.engine.model import Move, Table, entries_of
from tourney.engine.errors import N_, DomainError

MSG_BAD_PLAYERS = N_("The number of players cannot be negative.")
MSG_BAD_SEATS_PER_TABLE = N_("A table must have at least two seats.")
MSG_NOT_ENOUGH_SEATS = N_("There are more players than available seats at these tables.")
MSG_DUPLICATE_ENTRY = N_("An entry appears more than once.")
MSG_DUPLICATE_TABLE = N_("A table number appears more than once.")
MSG_TABLE_NOT_EMPTY = N_("The initial draw needs empty tables.")
MSG_NO_OPEN_SEAT = N_("Every available seat is taken.")
MSG_ALREADY_SEATED = N_("This entry already has a seat.")
MSG_EMPTY_TABLE = N_("No player sits at this table.")


def tables_needed(players: int, seats_per_table: int) -> int:
    """The fewest tables of ``seats_per_table`` seats that hold ``players`` — RULES 1.2."""
    if not isinstance(players, int) or players < 0:
        raise DomainError("invalid_players", MSG_BAD_PLAYERS, fields={"players": players})
    if not isinstance(seats_per_table, int) or seats_per_table < 2:
        raise DomainError(
            "invalid_seats_per_table",
            MSG_BAD_SEATS_PER_TABLE,
            fields={"seats_per_table": seats_per_table},
        )
    return -(-players // seats_per_table)


def even_sizes(players: int, capacities: Sequence[int], rng: random.Random) -> list[int]:
    """Table sizes for ``players`` over tables of ``capacities``, as even as possible — RULES 1.2.

    Sizes differ by at most one; which tables get the extra player is drawn with ``rng``. When
    unavailable seats make that impossible, tables fill to a common level and the small ones
    stay full (water filling). Raises 409 ``not_enough_seats`` when the players do not fit.
    """
    if players > sum(capacities):
        raise DomainError(
            "not_enough_seats",
            MSG_NOT_ENOUGH_SEATS,
            fields={"players": players, "seats": sum(capacities)},
            status=409,
        )
    top = max(capacities, default=0)
    # Every table holds at least min(capacities) players, so start from the level that fills
    # all tables equally; the loop then runs once or twice when the capacities are alike.
    level = min(players // len(capacities), *capacities) if capacities else 0
    while level < top and sum(min(c, level + 1) for c in capacities) <= players:
        level += 1
    sizes = [min(c, level) for c in capacities]
    extra = players - sum(sizes)
    roomy = [i for i, c in enumerate(capacities) if c > level]
    for i in rng.sample(roomy, extra):
        sizes[i] += 1
    return sizes


def draw(entries: Sequence[int], tables: Sequence[Table], rng: random.Random) -> tuple[Move, ...]:
    """The initial random draw of ``entries`` over the empty ``tables`` — RULES 1.1 and 1.2.

    Every given table is used (the caller passes the fewest that hold the players, or more if
    the director opened more); sizes differ by at most one (``even_sizes``). The entries are
    shuffled onto randomly chosen available seats. Moves have reason "seat", nobody waits, and
    come in table order (as ``tables`` lists them), then seat order. Reproducible for one seed.
    """
    if len(set(entries)) != len(entries):
        raise DomainError("duplicate_entry", MSG_DUPLICATE_ENTRY)
    if len({t.number for t in tables}) != len(tables):
        raise DomainError("duplicate_table", MSG_DUPLICATE_TABLE)
    for table in tables:
        if table.occupants:
            raise DomainError(
                "table_not_empty", MSG_TABLE_NOT_EMPTY, fields={"table": table.number}
            )
    sizes = even_sizes(len(entries), [t.capacity for t in tables], rng)
    slots: list[tuple[int, int]] = []
    for table, size in zip(tables, sizes, strict=True):
        chosen = sorted(rng.sample(table.open_seats(), size))
        slots.extend((table.number, seat) for seat in chosen)
    order = list(entries)
    rng.shuffle(order)
    return tuple(
        Move(entry, None, None, number, seat, "seat", False)
        for entry, (number, seat) in zip(order, slots, strict=True)
    )


def late_seat(entry: int, tables: Sequence[Table], rng: random.Random) -> Move:
    """Seat a late entry, alternate or re-entry — RULES 1.3.

    A random open seat drawn uniformly from the pool of open seats at the tables with the
    fewest players (among tables that have an open seat). The player waits for the button when
    the seat is the button seat or between the button and the small blind (``waits_for_button``).
    Raises 409 ``no_open_seat`` when every seat is taken, 409 ``already_seated`` if the entry
    sits at one of the tables.
    """
    if entry in entries_of(tables):
        raise DomainError("already_seated", MSG_ALREADY_SEATED, fields={"entry": entry}, status=409)
    with_room = [t for t in tables if t.players < t.capacity]
    if not with_room:
        raise DomainError("no_open_seat", MSG_NO_OPEN_SEAT, status=409)
    fewest = min(t.players for t in with_room)
    pool = [(t, seat) for t in with_room if t.players == fewest for seat in t.open_seats()]
    table, seat = rng.choice(pool)
    return Move(entry, None, None, table.number, seat, "seat", waits_for_button(table, seat))


def draw_button(table: Table, rng: random.Random) -> int:
    """Seat of the high card when play starts at ``table`` — RULES 2.1 (a random seated player)."""
    seated = sorted(table.occupants)
    if not seated:
        raise DomainError(
            "empty_table", MSG_EMPTY_TABLE, fields={"table": table.number}, status=409
        )
    return rng.choice(seated)
