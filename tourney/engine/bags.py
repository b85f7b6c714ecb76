"""Bag and tag, and chip counts during play (RULES 10.4, 10.8).

Pure Python, like every engine. Chips are ``int`` chips. A count is of one entry, where it sat:
a ``Bag`` at the end of a flight (``tourney.engine.flights``) or a ``Count`` taken at any time.

How the rules are read here:

* RULES 10.4 (``bag_check``, ``bag_labels``, ``chip_report``): the counts are checked against
  the chips in play and the difference is shown, never fixed; a count of an entry not still
  in, and an entry still in without a count, are reported too. Each bag gets a label numbered
  in table, then seat order; the chip count report lists the biggest stack first, equal stacks
  sharing a rank, and table by table in seat order.
* RULES 10.8 (``chip_counts``, ``average_stack``): counts taken during play show each player's
  latest count; the average stack is the exact chips in play over the players still in, never
  the sum of the counts (they are of some players, taken at different times).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Protocol

from tourney.engine.errors import N_, DomainError
from tourney.engine.flights import MSG_DUPLICATE_ENTRY, Bag, check_bags

MSG_BAD_COUNT = N_(
    "A chip count needs an entry, at least one chip (a player with no chips is out), and "
    "table and seat numbers of zero or more."
)
MSG_SEAT_TWICE = N_("Two players are counted in the same seat.")
MSG_BAD_CHIPS_IN_PLAY = N_("The chips in play must be a whole number, zero or more.")
MSG_NO_PLAYERS = N_("An average needs at least one player still in.")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(name: str, value: object, code: str, message: str, least: int = 0) -> int:
    if not _is_int(value) or value < least:  # type: ignore[operator]
        raise DomainError(code, message, fields={name: value})
    return value  # type: ignore[return-value]


# --------------------------------------------------------------------------- RULES 10.4


class Counted(Protocol):
    """A chip count of one entry, where it sat: a ``Bag`` or a ``Count``."""

    @property
    def entry(self) -> int: ...
    @property
    def chips(self) -> int: ...
    @property
    def table(self) -> int: ...
    @property
    def seat(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Count:
    """A chip count of one entry taken during play or at the end of a day (RULES 10.4, 10.8).
    ``at`` orders the counts of one entry (any number that grows: a time, a sequence)."""

    entry: int
    chips: int
    table: int = 0
    seat: int = 0
    at: int = 0


@dataclass(frozen=True, slots=True)
class TableTotal:
    """The chips counted at one table."""

    table: int
    players: int
    chips: int


@dataclass(frozen=True, slots=True)
class BagCheck:
    """The counts against the chips in play (RULES 10.4). ``difference`` is counted minus in
    play: above zero, more chips were counted than are in play. ``missing``: entries still in
    with no count; ``not_in``: counts of entries not still in. Nothing is corrected."""

    tables: tuple[TableTotal, ...]
    counted: int
    chips_in_play: int
    difference: int
    missing: tuple[int, ...] = ()
    not_in: tuple[int, ...] = ()

    @property
    def balanced(self) -> bool:
        return self.difference == 0 and not self.missing and not self.not_in


def _check_counts(counts: Iterable[Counted]) -> tuple[Counted, ...]:
    out = tuple(counts)
    entries: set[int] = set()
    seats: set[tuple[int, int]] = set()
    for c in out:
        try:
            values = (c.entry, c.chips, c.table, c.seat)
        except AttributeError:
            raise DomainError("bad_count", MSG_BAD_COUNT, fields={"count": repr(c)}) from None
        if not all(_is_int(v) for v in values) or c.chips < 1 or c.table < 0 or c.seat < 0:
            raise DomainError("bad_count", MSG_BAD_COUNT, fields={"count": repr(c)})
        if c.entry in entries:
            raise DomainError("duplicate_entry", MSG_DUPLICATE_ENTRY, fields={"entry": c.entry})
        entries.add(c.entry)
        if c.table and c.seat:
            if (c.table, c.seat) in seats:
                raise DomainError(
                    "seat_twice", MSG_SEAT_TWICE, fields={"table": c.table, "seat": c.seat}
                )
            seats.add((c.table, c.seat))
    return out


def bag_check(
    counts: Iterable[Counted], *, chips_in_play: int, players: Collection[int] | None = None
) -> BagCheck:
    """Table by table totals of the counts and the difference to the chips in play (RULES
    10.4).

    ``chips_in_play`` is what the chip accounting says is in play (every starting stack,
    rebuy and add-on, after the color-ups); ``players``, when given, the entries still in, so
    an entry without a count (``missing``) and a count of an entry not in (``not_in``) show.
    The difference is shown, never spread over the counts: a recount settles it.
    """
    checked = _check_counts(counts)
    _count("chips_in_play", chips_in_play, "bad_chips_in_play", MSG_BAD_CHIPS_IN_PLAY)
    per_table: dict[int, list[int]] = {}
    for c in checked:
        per_table.setdefault(c.table, []).append(c.chips)
    tables = tuple(
        TableTotal(table, len(chips), sum(chips)) for table, chips in sorted(per_table.items())
    )
    counted = sum(c.chips for c in checked)
    missing: tuple[int, ...] = ()
    not_in: tuple[int, ...] = ()
    if players is not None:
        seen = {c.entry for c in checked}
        missing = tuple(sorted(set(players) - seen))
        not_in = tuple(sorted(seen - set(players)))
    return BagCheck(tables, counted, chips_in_play, counted - chips_in_play, missing, not_in)


@dataclass(frozen=True, slots=True)
class BagLabel:
    """What is written on one player's bag (RULES 10.4): the bag ``number`` (1, 2, … in table
    and seat order), the player, flight, entry, table, seat and chips."""

    number: int
    player: int
    flight: int
    entry: int
    table: int
    seat: int
    chips: int


def bag_labels(bags: Iterable[Bag]) -> tuple[BagLabel, ...]:
    """One label per bag, numbered in table, then seat order (RULES 10.4)."""
    checked = check_bags(bags)
    _check_counts(checked)
    ordered = sorted(checked, key=lambda b: (b.table, b.seat, b.entry))
    return tuple(
        BagLabel(n, b.player, b.flight, b.entry, b.table, b.seat, b.chips)
        for n, b in enumerate(ordered, start=1)
    )


@dataclass(frozen=True, slots=True)
class ChipRow:
    """One line of the chip count report: ``rank`` 1 for the biggest stack, equal stacks
    sharing a rank (1, 2, 2, 4)."""

    rank: int
    entry: int
    chips: int
    table: int
    seat: int


@dataclass(frozen=True, slots=True)
class TableCounts:
    """The rows of one table, in seat order, and their total."""

    table: int
    rows: tuple[ChipRow, ...]
    chips: int


@dataclass(frozen=True, slots=True)
class ChipReport:
    """The chip count report (RULES 10.4): biggest stack first, and table by table."""

    by_chips: tuple[ChipRow, ...]
    by_table: tuple[TableCounts, ...]


def chip_report(counts: Iterable[Counted]) -> ChipReport:
    """The chip count report of ``counts`` (RULES 10.4): sorted by chips (ties by table, seat,
    entry, sharing a rank) and grouped by table in seat order."""
    checked = _check_counts(counts)
    ordered = sorted(checked, key=lambda c: (-c.chips, c.table, c.seat, c.entry))
    rows: list[ChipRow] = []
    for i, c in enumerate(ordered):
        rank = rows[-1].rank if rows and rows[-1].chips == c.chips else i + 1
        rows.append(ChipRow(rank, c.entry, c.chips, c.table, c.seat))
    per_table: dict[int, list[ChipRow]] = {}
    for row in rows:
        per_table.setdefault(row.table, []).append(row)
    by_table = tuple(
        TableCounts(
            table,
            tuple(sorted(own, key=lambda r: (r.seat, r.entry))),
            sum(r.chips for r in own),
        )
        for table, own in sorted(per_table.items())
    )
    return ChipReport(tuple(rows), by_table)


# --------------------------------------------------------------------------- RULES 10.8


def average_stack(*, chips_in_play: int, players: int) -> int:
    """The average stack (RULES 10.8): the exact chips in play over the players still in,
    to the nearest chip (a half chip rounds up)."""
    _count("chips_in_play", chips_in_play, "bad_chips_in_play", MSG_BAD_CHIPS_IN_PLAY)
    _count("players", players, "no_players", MSG_NO_PLAYERS, least=1)
    return (2 * chips_in_play + players) // (2 * players)


@dataclass(frozen=True, slots=True)
class ChipCounts:
    """Chip counts during play (RULES 10.8): each player's latest count, biggest first; the
    players still in without one; the average from the exact chips in play."""

    counts: tuple[Count, ...]
    not_counted: tuple[int, ...]
    players: int
    chips_in_play: int
    average: int


def chip_counts(
    records: Iterable[Count], *, players: Collection[int], chips_in_play: int
) -> ChipCounts:
    """The chip counts to show now (RULES 10.8).

    ``records`` are every count taken (several per entry over time); each entry still in
    (``players``) shows its latest (the largest ``at``; equal ``at``: the one recorded last).
    Counts of entries no longer in are left out (they busted since). The average is
    ``average_stack`` of ``chips_in_play``: counts are of some players, taken at different
    times, so their sum is not the chips in play.
    """
    still_in = set(players)
    latest: dict[int, Count] = {}
    for record in records:
        if not isinstance(record, Count) or not _is_int(record.at):
            raise DomainError("bad_count", MSG_BAD_COUNT, fields={"count": repr(record)})
        _check_counts((record,))
        if record.entry not in still_in:
            continue
        previous = latest.get(record.entry)
        if previous is None or record.at >= previous.at:
            latest[record.entry] = record
    counts = tuple(sorted(latest.values(), key=lambda c: (-c.chips, c.table, c.seat, c.entry)))
    not_counted = tuple(sorted(still_in - set(latest)))
    average = average_stack(chips_in_play=chips_in_play, players=len(still_in))
    return ChipCounts(counts, not_counted, len(still_in), chips_in_play, average)
