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
  ``rebalance`` returns these steps as made; what is recorded and announced is
  ``one_move_each`` of them: when a redraw follows, the break is part of it, and each player
  gets one ``redraw`` move from the seat they actually sit in to the seat they draw (none
  if that is the same seat) — never a move through a seat nobody sat in (RULES 3.8).
* A table the director breaks out of order (``close``) breaks first and counts as a break of
  the call: its players are seated as in RULES 3.6, and a redraw follows at 3, 2 or 1 tables.
* RULES 3.2/3.3 run after breaking and redrawing, with the tolerance of the tables left
  (RULES 3.1). The destination is the table with the fewest players among tables with an open
  seat; balancing stops when no move can shrink the spread (only possible when unavailable
  seats leave a table full while it is short).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from tables.engine.blinds import bb_next, waits_for_button, worst_position
from tables.engine.model import Move, SeatingSettings, Table
from tables.engine.seat_draw import draw_button, even_sizes
from tourney.engine.errors import N_, DomainError

MSG_TABLES_MISMATCH = N_("Counts, capacities and the break order must list the same open tables.")
MSG_BAD_COUNT = N_("A table's player count must lie between zero and its available seats.")
MSG_LOADED_MISMATCH = N_("A loaded table does not match its count or capacity.")
MSG_ENTRY_TWICE = N_("An entry sits at two tables.")
MSG_BAD_OPEN_TABLES = N_("The number of open tables cannot be negative.")
MSG_CLOSE = N_("Only an open table can be broken, and not the last one.")
MSG_CLOSE_NO_ROOM = N_("The other tables have no room for this table's players.")


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


PRELOAD_MAX = 32  # more tables than this tie only in contrived fields: load those lazily


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
    """The engine's working copy: counts of every open table, seats of the loaded ones.

    Tables break from the front of the order (RULES 3.5), so the open tables are always
    ``order[first:]``; ``counts`` is kept aligned with ``order`` and updated in place, so
    every choice is one C-level scan (``min``, ``max``, ``list.index``) over a slice.
    """

    __slots__ = (
        "_load",
        "_load_many",
        "_pos",
        "_seen",
        "cap",
        "cnt",
        "counts",
        "first",
        "moves",
        "order",
        "players",
        "seats",
        "tables",
    )

    def __init__(
        self,
        counts: Mapping[int, int],
        capacity: Mapping[int, int],
        break_order: Sequence[int],
        load: Callable[[int], Table],
        load_many: Callable[[Sequence[int]], Mapping[int, Table]] | None = None,
    ) -> None:
        order = self.order = list(break_order)
        cnt = self.cnt = dict(counts)
        cap = self.cap = dict(capacity)
        size = len(order)
        self._pos = dict(zip(order, range(size), strict=True))
        # Same length, every name found and no name twice => the same tables (cheaper than
        # comparing key sets).
        if len(self._pos) != size or len(cnt) != size or len(cap) != size:
            raise DomainError("invalid_tables", MSG_TABLES_MISMATCH)
        try:
            self.counts = list(map(cnt.__getitem__, order))
            capacities = list(map(cap.__getitem__, order))
        except KeyError:
            raise DomainError("invalid_tables", MSG_TABLES_MISMATCH) from None
        if min(self.counts, default=0) < 0 or not all(map(operator.le, self.counts, capacities)):
            number = next(t for t in order if not 0 <= cnt[t] <= cap[t])
            raise DomainError(
                "invalid_count",
                MSG_BAD_COUNT,
                fields={"table": number, "players": cnt[number], "capacity": cap[number]},
            )
        self.first = 0
        self.players = sum(self.counts)
        self.seats = sum(capacities)
        self.tables: dict[int, Table] = {}
        self.moves: list[Move] = []
        self._load = load
        self._load_many = load_many
        self._seen: set[int] = set()

    @property
    def open_count(self) -> int:
        return len(self.order) - self.first

    def open_tables(self) -> list[int]:
        """The open tables in break order."""
        return self.order[self.first :]

    def open_counts(self) -> list[int]:
        """Player counts of the open tables, aligned with ``open_tables()``."""
        return self.counts[self.first :]

    def set_count(self, number: int, players: int) -> None:
        self.cnt[number] = players
        self.counts[self._pos[number]] = players

    def table(self, number: int) -> Table:
        """The working copy of table ``number``, loading it on first use."""
        table = self.tables.get(number)
        if table is None:
            table = self._accept(number, self._load(number))
        return table

    def preload(self, numbers: Sequence[int]) -> None:
        """Load, in one call of ``load_many``, tables the next steps will surely or likely
        read (a database answers one query for several tables faster than one each)."""
        if self._load_many is None:
            return
        todo = [n for n in dict.fromkeys(numbers) if n not in self.tables and n in self.cnt]
        if len(todo) < 2 or len(todo) > PRELOAD_MAX:
            return
        loaded = self._load_many(todo)
        for n in todo:
            if n not in loaded:
                raise DomainError("inconsistent_table", MSG_LOADED_MISMATCH, fields={"table": n})
            self._accept(n, loaded[n])

    def _accept(self, number: int, table: Table) -> Table:
        if (
            not isinstance(table, Table)
            or table.number != number
            or table.players != self.cnt[number]
            or table.capacity != self.cap[number]
        ):
            raise DomainError("inconsistent_table", MSG_LOADED_MISMATCH, fields={"table": number})
        entries = set(table.occupants.values())
        if not self._seen.isdisjoint(entries):
            raise DomainError("inconsistent_table", MSG_ENTRY_TWICE, fields={"table": number})
        self._seen |= entries
        self.tables[number] = table
        return table

    def close_next(self) -> int:
        """Take the next table of the order out of the open tables (RULES 3.5)."""
        number = self.order[self.first]
        self.first += 1
        self.players -= self.cnt.pop(number)
        self.seats -= self.cap.pop(number)
        return number

    def move(self, entry: int, src: int, src_seat: int, dst: int, dst_seat: int, reason: str,
             waits: bool) -> None:  # fmt: skip
        if src in self.cnt:
            self.tables[src] = self.tables[src].without_seat(src_seat)
            self.set_count(src, self.cnt[src] - 1)
        else:
            self.players += 1  # a broken table's player joins the open tables
        self.tables[dst] = self.tables[dst].with_player(dst_seat, entry, waits=waits)
        self.set_count(dst, self.cnt[dst] + 1)
        self.moves.append(Move(entry, src, src_seat, dst, dst_seat, reason, waits))

    def shortest(self, counts: list[int] | None = None) -> tuple[int, list[int]]:
        """(fewest players among open tables with an open seat, those tables in break order).

        ``counts``: ``open_counts()`` if the caller has them. All tables full: ``(-1, [])``.
        """
        order, cap = self.open_tables(), self.cap
        if counts is None:
            counts = self.open_counts()
        least = min(counts, default=-1)
        ties = _positions(counts, least)
        with_room = [order[i] for i in ties if cap[order[i]] > least]
        if with_room or not ties:
            return (least, with_room)
        # The shortest tables are full (unavailable seats, RULES 1.4): look among the others.
        roomy = [c for t, c in zip(order, counts, strict=True) if c < cap[t]]
        if not roomy:
            return (-1, [])
        least = min(roomy)
        return (least, [order[i] for i in _positions(counts, least) if cap[order[i]] > least])


def _positions(values: list[int], value: int) -> list[int]:
    """Indexes of ``value`` in ``values``, found with C-level ``list.index``."""
    found: list[int] = []
    at = -1
    try:
        while True:
            at = values.index(value, at + 1)
            found.append(at)
    except ValueError:
        return found


def _break_next(fld: _Field, rng: random.Random) -> int:
    """Break the next table of the order and seat its players — RULES 3.4, 3.5, 3.6."""
    if fld.cnt[fld.order[fld.first]] == 0:
        return fld.close_next()  # nothing to seat: no need to load it
    fld.preload([fld.order[fld.first], *fld.shortest()[1]])
    broken = fld.table(fld.order[fld.first])
    number = fld.close_next()
    leaving = sorted(broken.occupants.items())
    rng.shuffle(leaving)
    ties: list[int] = []
    pool = fewest = 0
    for seat, entry in leaving:
        if not ties:
            fewest, ties = fld.shortest()
            assert ties  # the break condition guarantees room
            fld.preload(ties)
            pool = sum(fld.cap[t] for t in ties) - fewest * len(ties)
        # RULES 3.6: one seat drawn uniformly from all open seats of the shortest tables.
        pick = rng.randrange(pool)
        for dst in ties:
            room = fld.cap[dst] - fewest
            if pick < room:
                break
            pick -= room
        table = fld.table(dst)
        dst_seat = table.open_seats()[pick]
        fld.move(entry, number, seat, dst, dst_seat, "break", waits_for_button(table, dst_seat))
        ties.remove(dst)  # it has one more player now; the others are still the shortest
        pool -= room
    fld.tables[number] = broken._copy({}, frozenset(), broken.button_seat)
    return number


def _redraw(fld: _Field, rng: random.Random) -> dict[int, int]:
    """Full random redraw of the open tables — RULES 3.7. Returns the new buttons."""
    fld.preload(fld.open_tables())
    tables = [fld.table(n) for n in fld.open_tables()]
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
        fld.set_count(table.number, fresh.players)
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
    while fld.open_count > 1:
        counts = fld.open_counts()
        most = max(counts)
        if most - min(counts) <= tolerance:
            return
        least, ties = fld.shortest(counts)
        if not ties or most - least < 2:
            return  # no move can shrink the spread (full short tables, RULES 1.4)
        # RULES 3.2: ties give the table due to break soonest; 3.3: receive the one due last.
        src = fld.order[fld.first + counts.index(most)]
        dst = ties[-1]
        fld.preload([src, dst])
        source = fld.table(src)
        seat = bb_next(source, rng)
        dst_seat, waits = worst_position(fld.table(dst), rng)
        fld.move(source.occupants[seat], src, seat, dst, dst_seat, "balance", waits)


def settled(
    *,
    tables: int,
    players: int,
    seats: int,
    first_capacity: int,
    most: int,
    least: int,
    settings: SeatingSettings,
) -> bool:
    """Whether ``rebalance`` would do nothing, from totals alone: no table breaks (the
    players do not fit in the open tables less the next in the break order, RULES 3.4) and
    the sizes are within the tolerance (RULES 3.1). ``tables``: open tables; ``players``,
    ``seats``: players and available seats at them; ``first_capacity``: available seats at
    the table due to break next; ``most``, ``least``: the most and fewest players at one.

    True only where ``rebalance`` returns no move, break or redraw (a property test checks
    it), so a caller may skip reading every table after most eliminations; False says
    nothing (``rebalance`` decides)."""
    if tables <= 1:
        return True
    if players <= seats - first_capacity:
        return False
    return most - least <= tolerance_for(tables, settings)


def one_move_each(moves: Sequence[Move], *, redraw: bool) -> tuple[Move, ...]:
    """What one batch of ``rebalance`` moves means on the floor (RULES 3.7, 3.8): one move
    per player, from the seat they sit in (their first move's start) to the seat they end in
    (their last move's end), never through a seat nobody sat in; a player who ends where
    they sat gets no move. ``redraw``: a redraw was part of the batch; then the break is part
    of it, every player who was broken or redrawn gets a ``redraw`` move, no one waits
    (RULES 3.7), and the moves come by new table and seat (the order of the redraw sheet).
    Without a redraw a player moved twice (broken, then balanced on) keeps the first
    reason and the last wait; a single move is kept as it is."""
    first: dict[int, Move] = {}
    last: dict[int, Move] = {}
    reasons: dict[int, set[str]] = {}
    for m in moves:
        first.setdefault(m.entry, m)
        last[m.entry] = m
        reasons.setdefault(m.entry, set()).add(m.reason)
    out: list[Move] = []
    for entry, start in first.items():
        end = last[entry]
        if start is end and not redraw:
            out.append(start)
            continue
        if (start.from_table, start.from_seat) == (end.to_table, end.to_seat):
            continue  # back in the seat they sat in: no move
        if redraw and reasons[entry] & {"break", "redraw"}:
            reason, waits = "redraw", False
        elif redraw:
            reason, waits = start.reason, False
        else:
            reason, waits = start.reason, end.waits_for_button
        out.append(
            Move(
                entry, start.from_table, start.from_seat, end.to_table, end.to_seat, reason, waits
            )  # fmt: skip
        )
    if redraw:
        out.sort(key=lambda m: (m.to_table, m.to_seat))
    return tuple(out)


def rebalance(
    *,
    counts: Mapping[int, int],
    capacity: Mapping[int, int],
    break_order: Sequence[int],
    load: Callable[[int], Table],
    settings: SeatingSettings,
    rng: random.Random,
    load_many: Callable[[Sequence[int]], Mapping[int, Table]] | None = None,
    close: int | None = None,
) -> Rebalance:
    """Break, redraw and balance the open tables after players left — RULES 3.

    ``counts``: players per open table (every open table, 0 allowed); ``capacity``: available
    seats per open table; ``break_order``: the open tables, first to break first (RULES 3.5);
    ``load(number)``: the current ``Table`` (called at most once per table per call);
    ``load_many(numbers)``, if given: several at once, ``{number: Table}``, used for the
    tables a step is about to read (up to ``PRELOAD_MAX``); the result is the same either way.

    Order: (1) while the players fit in the other open tables, the next table in the order
    breaks and its players are seated at random at the tables with the fewest players (3.4,
    3.6); (2) a redraw if a break brought the open tables down to 3, 2 or 1 (3.7); (3) while
    the sizes differ by more than the tolerance (3.1), the player to be big blind next at the
    fullest table (ties: due to break soonest) moves to the worst position of the shortest
    table (ties: due to break last) (3.2, 3.3). Later moves see the effect of earlier ones.

    ``close``: an open table the director breaks now, out of the order (RULES 3.5): it
    breaks first, its players seated as in (1), and it counts as a break for (2). Its players
    must fit at the other open tables.
    """
    if close is not None:
        if close not in counts or len(break_order) < 2:
            raise DomainError("invalid_tables", MSG_CLOSE, fields={"table": close})
        break_order = [close, *(n for n in break_order if n != close)]
    fld = _Field(counts, capacity, break_order, load, load_many)
    broken: list[int] = []
    if close is not None:
        if fld.players > fld.seats - fld.cap[close]:
            raise DomainError("no_room", MSG_CLOSE_NO_ROOM, fields={"table": close}, status=409)
        broken.append(_break_next(fld, rng))
    while fld.open_count > 1 and fld.players <= fld.seats - fld.cap[fld.order[fld.first]]:
        broken.append(_break_next(fld, rng))
    buttons: dict[int, int] = {}
    redraw = bool(broken) and _wants_redraw(fld.open_count, settings)
    if redraw:
        buttons = _redraw(fld, rng)
    _balance(fld, tolerance_for(fld.open_count, settings), rng)
    return Rebalance(tuple(fld.moves), tuple(broken), buttons, redraw, dict(fld.tables))
