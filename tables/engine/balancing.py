"""Breaking, redrawing and balancing tables after players leave (RULES 3).

Pure Python. Built for a field of a thousand tables: the caller passes cheap per-table counts
and capacities plus a ``load`` callable, and the engine loads only the tables whose seats it
needs (the next table to break, the tables players move from and to). Every choice is a scan
over the open tables — no search — so ties cost nothing more than a scan.

Readings of the rule book:

* RULES 3.4 uses capacities: the next table in the order breaks while the players fit in the
  available seats of the other open tables (unavailable seats do not count, RULES 1.4). The
  last open table never breaks.
* RULES 3.6 "a random open seat among the tables that currently have the fewest players": one
  seat drawn uniformly from the pool of open seats of those tables (tables with no open seat
  are left out, so a table with unavailable seats that is full is skipped).
* RULES 3.7: the redraw happens in the call whose break brought the open tables down to
  three (if the event ever had six or more tables open), two or one, each if its setting is on.
  The broken table's players first get their "break" moves (RULES 3.6), then everyone left is
  redrawn in one batch of "redraw" moves; a player who draws the seat they hold gets no move.
  After a redraw no one waits, and the new buttons are in ``Rebalance.buttons``.
* RULES 3.2/3.3 run after breaking and redrawing, with the tolerance of the tables left
  (RULES 3.1). The destination is the table with the fewest players among tables with an open
  seat; balancing stops when no move can shrink the spread (only possible when unavailable
  seats leave a table full while it is short).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from tables.engine.blinds import bb_next, waits_for_button, worst_position
from tables.engine.model import Move, SeatingSettings, Table
from tables.engine.seat_draw import draw_button, even_sizes
from tourney.engine.errors import DomainError

MSG_TABLES_MISMATCH = "Counts, capacities and the break order must list the same open tables."
MSG_BAD_COUNT = "A table's player count must lie between zero and its available seats."
MSG_LOADED_MISMATCH = "A loaded table does not match its count or capacity."
MSG_ENTRY_TWICE = "An entry sits at two tables."
MSG_BAD_OPEN_TABLES = "The number of open tables cannot be negative."


@dataclass(frozen=True, slots=True)
class Rebalance:
    """What one ``rebalance`` call decided.

    ``moves`` in the order made (a redraw's moves are one batch); ``broken`` table numbers in
    the order they broke; ``buttons`` the new button seat per table after a redraw (RULES
    3.7); ``redraw`` whether a redraw happened (then every player at the open tables is dealt
    in); ``tables`` the final state of every table the engine loaded (broken ones empty).
    """

    moves: tuple[Move, ...]
    broken: tuple[int, ...]
    buttons: dict[int, int]
    redraw: bool
    tables: Mapping[int, Table] = field(default_factory=dict)


def tolerance_for(open_tables: int, settings: SeatingSettings) -> int:
    """Allowed spread of table sizes — RULES 3.1: the setting, or else 2 above six tables, 1."""
    if open_tables < 0:
        raise DomainError(
            "invalid_open_tables", MSG_BAD_OPEN_TABLES, fields={"open_tables": open_tables}
        )
    if settings.tolerance is not None:
        return settings.tolerance
    return 2 if open_tables > 6 else 1


class _Field:
    """The engine's working copy: counts of every open table, seats of the loaded ones."""

    __slots__ = ("_load", "_seen", "cap", "cnt", "moves", "order", "players", "seats", "tables")

    def __init__(
        self,
        counts: Mapping[int, int],
        capacity: Mapping[int, int],
        break_order: Sequence[int],
        load: Callable[[int], Table],
    ) -> None:
        self.order = list(break_order)
        self.cnt = dict(counts)
        self.cap = dict(capacity)
        names = set(self.order)
        if len(names) != len(self.order) or names != self.cnt.keys() or names != self.cap.keys():
            raise DomainError("invalid_tables", MSG_TABLES_MISMATCH)
        cap = self.cap
        for number, count in self.cnt.items():
            if not 0 <= count <= cap[number]:
                raise DomainError(
                    "invalid_count",
                    MSG_BAD_COUNT,
                    fields={"table": number, "players": count, "capacity": cap[number]},
                )
        self.players = sum(self.cnt.values())
        self.seats = sum(cap.values())
        self.tables: dict[int, Table] = {}
        self.moves: list[Move] = []
        self._load = load
        self._seen: set[int] = set()

    def table(self, number: int) -> Table:
        """The working copy of table ``number``, loading it on first use."""
        table = self.tables.get(number)
        if table is None:
            table = self._load(number)
            if (
                not isinstance(table, Table)
                or table.number != number
                or table.players != self.cnt[number]
                or table.capacity != self.cap[number]
            ):
                raise DomainError(
                    "inconsistent_table", MSG_LOADED_MISMATCH, fields={"table": number}
                )
            entries = set(table.occupants.values())
            if not self._seen.isdisjoint(entries):
                raise DomainError("inconsistent_table", MSG_ENTRY_TWICE, fields={"table": number})
            self._seen |= entries
            self.tables[number] = table
        return table

    def close(self, number: int) -> None:
        """Take ``number`` out of the open tables (its players still sit in the working copy)."""
        self.order.remove(number)
        self.players -= self.cnt.pop(number)
        self.seats -= self.cap.pop(number)

    def move(self, entry: int, src: int, src_seat: int, dst: int, dst_seat: int, reason: str,
             waits: bool) -> None:  # fmt: skip
        self.tables[src] = self.tables[src].without_seat(src_seat)
        self.tables[dst] = self.tables[dst].with_player(dst_seat, entry, waits=waits)
        if src in self.cnt:
            self.cnt[src] -= 1
        else:
            self.players += 1  # a broken table's player joins the open tables
        self.cnt[dst] += 1
        self.moves.append(Move(entry, src, src_seat, dst, dst_seat, reason, waits))

    def fewest_with_room(self) -> int | None:
        """Fewest players among open tables with an open seat, or None if all are full."""
        cap = self.cap
        return min((c for t, c in self.cnt.items() if c < cap[t]), default=None)


def _break_next(fld: _Field, rng: random.Random) -> int:
    """Break the next table of the order and seat its players — RULES 3.4, 3.5, 3.6."""
    number = fld.order[0]
    if fld.cnt[number] == 0:
        fld.close(number)  # nothing to seat: no need to load it
        return number
    broken = fld.table(number)
    fld.close(number)
    leaving = sorted(broken.occupants.items())
    rng.shuffle(leaving)
    for seat, entry in leaving:
        fewest = fld.fewest_with_room()
        assert fewest is not None  # the break condition guarantees room
        ties = [t for t in fld.order if fld.cnt[t] == fewest and fld.cap[t] > fewest]
        pick = rng.randrange(sum(fld.cap[t] - fewest for t in ties))
        for dst in ties:
            room = fld.cap[dst] - fewest
            if pick < room:
                break
            pick -= room
        table = fld.table(dst)
        dst_seat = table.open_seats()[pick]
        fld.move(entry, number, seat, dst, dst_seat, "break", waits_for_button(table, dst_seat))
    return number


def _redraw(fld: _Field, rng: random.Random) -> dict[int, int]:
    """Full random redraw of the open tables — RULES 3.7. Returns the new buttons."""
    tables = [fld.table(n) for n in fld.order]
    seated = [(t.number, s, e) for t in tables for s, e in sorted(t.occupants.items())]
    sizes = even_sizes(len(seated), [t.capacity for t in tables], rng)
    slots: list[tuple[int, int]] = []
    for table, size in zip(tables, sizes, strict=True):
        available = [s for s in range(1, table.seats + 1) if s not in table.unavailable]
        slots.extend((table.number, s) for s in sorted(rng.sample(available, size)))
    rng.shuffle(seated)
    occupants: dict[int, dict[int, int]] = {t.number: {} for t in tables}
    batch: list[Move] = []
    for (old_table, old_seat, entry), (new_table, new_seat) in zip(seated, slots, strict=True):
        occupants[new_table][new_seat] = entry
        if (old_table, old_seat) != (new_table, new_seat):
            batch.append(Move(entry, old_table, old_seat, new_table, new_seat, "redraw", False))
    buttons: dict[int, int] = {}
    for table in tables:
        fresh = Table(table.number, table.seats, occupants[table.number], frozenset(),
                      table.unavailable, None)  # fmt: skip
        if fresh.occupants:
            buttons[table.number] = draw_button(fresh, rng)
            fresh = fresh.with_button(buttons[table.number])
        fld.tables[table.number] = fresh
        fld.cnt[table.number] = fresh.players
    batch.sort(key=lambda m: (m.to_table, m.to_seat))
    fld.moves.extend(batch)
    return buttons


def _wants_redraw(open_tables: int, settings: SeatingSettings) -> bool:
    if open_tables == 3:
        return settings.redraw_at_three and settings.started_tables >= 6
    if open_tables == 2:
        return settings.redraw_at_two
    if open_tables == 1:
        return settings.redraw_at_one
    return False


def _balance(fld: _Field, tolerance: int, rng: random.Random) -> None:
    """Balancing moves while sizes differ by more than ``tolerance`` — RULES 3.2, 3.3."""
    cnt, cap, order = fld.cnt, fld.cap, fld.order
    while len(order) > 1:
        most = max(cnt.values())
        if most - min(cnt.values()) <= tolerance:
            return
        least = fld.fewest_with_room()
        if least is None or most - least < 2:
            return  # no move can shrink the spread (full short tables, RULES 1.4)
        # RULES 3.2: ties give the table due to break soonest; 3.3: receive the one due last.
        src = next(t for t in order if cnt[t] == most)
        dst = next(t for t in reversed(order) if cnt[t] == least and cap[t] > least)
        source = fld.table(src)
        seat = bb_next(source, rng)
        dst_seat, waits = worst_position(fld.table(dst), rng)
        fld.move(source.occupants[seat], src, seat, dst, dst_seat, "balance", waits)


def rebalance(
    *,
    counts: Mapping[int, int],
    capacity: Mapping[int, int],
    break_order: Sequence[int],
    load: Callable[[int], Table],
    settings: SeatingSettings,
    rng: random.Random,
) -> Rebalance:
    """Break, redraw and balance the open tables after players left — RULES 3.

    ``counts``: players per open table (every open table, 0 allowed); ``capacity``: available
    seats per open table; ``break_order``: the open tables, first to break first (RULES 3.5);
    ``load(number)``: the current ``Table`` (called at most once per table per call).

    Order: (1) while the players fit in the other open tables, the next table in the order
    breaks and its players are seated at random at the tables with the fewest players (3.4,
    3.6); (2) a redraw if a break brought the open tables down to 3, 2 or 1 (3.7); (3) while
    the sizes differ by more than the tolerance (3.1), the player to be big blind next at the
    fullest table (ties: due to break soonest) moves to the worst position of the shortest
    table (ties: due to break last) (3.2, 3.3). Later moves see the effect of earlier ones.
    """
    fld = _Field(counts, capacity, break_order, load)
    broken: list[int] = []
    while len(fld.order) > 1 and fld.players <= fld.seats - fld.cap[fld.order[0]]:
        broken.append(_break_next(fld, rng))
    buttons: dict[int, int] = {}
    redraw = bool(broken) and _wants_redraw(len(fld.order), settings)
    if redraw:
        buttons = _redraw(fld, rng)
    _balance(fld, tolerance_for(len(fld.order), settings), rng)
    return Rebalance(tuple(fld.moves), tuple(broken), buttons, redraw, dict(fld.tables))
