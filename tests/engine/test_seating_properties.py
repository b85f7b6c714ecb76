"""Property tests of the seating engine (RULES 1-3).

The main test plays random tournaments — 1 to 60 tables, late seatings, button moves and
eliminations of one or several players followed by a rebalance — and after every step checks
the seating rules. Each rebalance is replayed move by move against an independent reading of
RULES 3.2-3.7, so every move is checked at the moment it was made.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tables.engine.balancing import PRELOAD_MAX, Rebalance, rebalance, tolerance_for
from tables.engine.blinds import (
    bb_next,
    blinds,
    released_by_button_move,
    waits_for_button,
    worst_position,
)
from tables.engine.model import Move, SeatingSettings, Table
from tables.engine.seat_draw import draw, draw_button, even_sizes, late_seat

ROOT = Path(__file__).resolve().parents[2]
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ANY_RNG = random.Random(0)  # for calls that use no randomness (a button is set)


# --- strategies ----------------------------------------------------------------------------------


@st.composite
def single_tables(draw_, button: bool = True) -> Table:
    seats = draw_(st.integers(2, 10))
    kinds = draw_(st.lists(st.sampled_from(".pwx"), min_size=seats, max_size=seats))
    occupants = {s: 100 + s for s, k in enumerate(kinds, 1) if k in "pw"}
    waiting = frozenset(100 + s for s, k in enumerate(kinds, 1) if k == "w")
    unavailable = frozenset(s for s, k in enumerate(kinds, 1) if k == "x")
    seat = draw_(st.integers(1, seats)) if button else None
    return Table(1, seats, occupants, waiting, unavailable, seat)


# --- one table -----------------------------------------------------------------------------------


@FAST
@given(single_tables())
def test_worst_position_is_never_the_small_blind(table: Table):
    if not table.open_seats() or not table.dealt_in_seats():
        return  # alone at a table there are no blinds to avoid
    seat, waits = worst_position(table, ANY_RNG)
    assert table.is_open(seat)
    assert waits == waits_for_button(table, seat)
    dealt_in_seats = [s for s in table.open_seats() if not waits_for_button(table, s)]
    assert waits == (not dealt_in_seats)
    after = table.with_player(seat, 999, waits=waits)
    _, small, _ = blinds(after)
    assert small != seat


@FAST
@given(single_tables())
def test_worst_position_player_posts_the_big_blind_before_any_other_newcomer(table: Table):
    # RULES 2.4: a player put there posts the big blind soonest. Play hands (button moves to the
    # next seat) and count hands until each possible dealt-in newcomer seat posts the big blind.
    candidates = [s for s in table.open_seats() if not waits_for_button(table, s)]
    if not candidates or len(table.dealt_in_seats()) < 2:
        return
    seat, _ = worst_position(table, ANY_RNG)

    def hands_until_big_blind(newcomer: int) -> int:
        current = table.with_player(newcomer, 999)
        for hand in range(table.seats + 1):
            if blinds(current)[2] == newcomer:
                return hand
            current = current.with_button(current.button_seat % table.seats + 1)
        return table.seats + 1

    assert hands_until_big_blind(seat) == min(hands_until_big_blind(s) for s in candidates)


@FAST
@given(single_tables())
def test_button_orbit_releases_every_waiting_player_once(table: Table):
    released: list[int] = []
    current = table
    for _ in range(table.seats):
        step = current.button_seat % table.seats + 1
        now_free = released_by_button_move(current, step)
        released.extend(now_free)
        current = Table(
            current.number,
            current.seats,
            current.occupants,
            current.waiting - now_free,
            current.unavailable,
            step,
        )
    assert sorted(released) == sorted(table.waiting)


@FAST
@given(single_tables(button=False))
def test_bb_next_without_button_is_a_seated_player(table: Table):
    if table.occupants:
        seat = bb_next(table, random.Random(3))
        assert seat in (table.dealt_in_seats() or table.occupants)


@FAST
@given(
    players=st.integers(0, 400),
    tables=st.integers(1, 50),
    seats=st.integers(2, 10),
    seed=st.integers(0, 2**32),
)
def test_initial_draw_is_even_complete_and_reproducible(players, tables, seats, seed):
    if players > tables * seats:
        return
    empty = [Table(n, seats, {}) for n in range(1, tables + 1)]
    moves = draw(range(players), empty, random.Random(seed))
    assert moves == draw(range(players), empty, random.Random(seed))
    assert sorted(m.entry for m in moves) == list(range(players))
    assert len({(m.to_table, m.to_seat) for m in moves}) == players
    counts = [sum(m.to_table == n for m in moves) for n in range(1, tables + 1)]
    assert max(counts) - min(counts) <= 1


def test_engine_imports_no_django():
    code = (
        "import sys, tables.engine, tables.engine.balancing, tables.engine.seat_draw;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'celery')];"
        "assert not bad, bad"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# --- whole tournaments ---------------------------------------------------------------------------


class Tournament:
    """An independent model of the open tables, checking each engine answer against RULES."""

    def __init__(self, tables: dict[int, Table], order: list[int], rules: SeatingSettings):
        self.tables = tables
        self.order = order  # open tables, first to break first
        self.initial_order = list(order)
        self.broken: list[int] = []
        self.rules = rules
        self.alive: set[int] = set()
        self.next_entry = 1

    # helpers
    def counts(self) -> dict[int, int]:
        return {n: self.tables[n].players for n in self.order}

    def fewest_with_room(self) -> int | None:
        rooms = [t.players for t in self.tables.values() if t.players < t.capacity]
        return min(rooms, default=None)

    def fits_without_next(self) -> bool:
        caps = sum(t.capacity for t in self.tables.values())
        players = sum(t.players for t in self.tables.values())
        return len(self.order) > 1 and players <= caps - self.tables[self.order[0]].capacity

    def apply(self, move: Move) -> None:
        if move.from_table is not None:
            source = self.tables[move.from_table]
            assert source.occupants[move.from_seat] == move.entry
            self.tables[move.from_table] = source.without_seat(move.from_seat)
        target = self.tables[move.to_table]
        self.tables[move.to_table] = target.with_player(
            move.to_seat, move.entry, waits=move.waits_for_button
        )

    # steps
    def seat_everyone(self, players: int, rng: random.Random) -> None:
        entries = range(self.next_entry, self.next_entry + players)
        for move in draw(entries, [self.tables[n] for n in sorted(self.tables)], rng):
            assert (move.reason, move.waits_for_button) == ("seat", False)
            self.apply(move)
        self.alive |= set(entries)
        self.next_entry += players

    def late_entry(self, rng: random.Random) -> None:
        if self.fewest_with_room() is None:
            return
        fewest = self.fewest_with_room()
        before = dict(self.tables)
        move = late_seat(self.next_entry, list(self.tables.values()), rng)
        target = before[move.to_table]
        assert target.players == fewest and target.is_open(move.to_seat)
        assert move.waits_for_button == waits_for_button(target, move.to_seat)
        self.apply(move)
        self.alive.add(self.next_entry)
        self.next_entry += 1

    def move_button(self, number: int, seat: int, rng: random.Random) -> None:
        table = self.tables[number]
        if table.button_seat is None:
            if table.occupants:
                self.tables[number] = table.with_button(draw_button(table, rng))
            return
        released = released_by_button_move(table, seat)
        assert released <= table.waiting
        self.tables[number] = Table(
            number, table.seats, table.occupants, table.waiting - released, table.unavailable, seat
        )

    def eliminate(self, entries: list[int], rng: random.Random) -> None:
        for entry in entries:
            for number, table in self.tables.items():
                seat = table.seat_of(entry)
                if seat is not None:
                    self.tables[number] = table.without_seat(seat)
        self.alive -= set(entries)
        loads: list[int] = []
        snapshot = dict(self.tables)

        def load(number: int) -> Table:
            loads.append(number)
            return snapshot[number]

        args = dict(
            counts=self.counts(),
            capacity={n: self.tables[n].capacity for n in self.order},
            break_order=list(self.order),
            settings=self.rules,
        )
        state = rng.getstate()
        result = rebalance(**args, load=load, rng=rng)
        assert len(loads) == len(set(loads))
        # Loading several tables at once (what the services do) changes nothing but the
        # number of calls; every table is still loaded at most once.
        batches: list[list[int]] = []
        singles: list[int] = []

        def load_many(numbers):
            batches.append(list(numbers))
            return {n: snapshot[n] for n in numbers}

        def load_one(number: int) -> Table:
            singles.append(number)
            return snapshot[number]

        replay_rng = random.Random()
        replay_rng.setstate(state)
        again = rebalance(**args, load=load_one, load_many=load_many, rng=replay_rng)
        assert (again.moves, again.broken, again.buttons, again.redraw) == (
            result.moves,
            result.broken,
            result.buttons,
            result.redraw,
        )
        assert {n: again.tables[n] for n in result.tables} == dict(result.tables)
        loaded = [n for b in batches for n in b] + singles
        assert all(1 < len(b) <= PRELOAD_MAX for b in batches)
        assert len(loaded) == len(set(loaded)) and set(loads) <= set(loaded)
        for reason in sorted({m.reason for m in result.moves}):
            event(f"{reason} moves")  # shown by --hypothesis-show-statistics
        self.replay(result)

    def replay(self, result: Rebalance) -> None:
        moves = list(result.moves)
        # RULES 3.4-3.6: tables break in the order, while the players fit elsewhere.
        for number in result.broken:
            assert self.fits_without_next() and self.order[0] == number
            self.order.pop(0)
            leaving = self.tables.pop(number)
            self.broken.append(number)
            for _ in range(leaving.players):
                move = moves.pop(0)
                assert (move.reason, move.from_table) == ("break", number)
                target = self.tables[move.to_table]
                assert target.players == self.fewest_with_room() and target.is_open(move.to_seat)
                assert move.waits_for_button == waits_for_button(target, move.to_seat)
                leaving = leaving.without_seat(move.from_seat)
                self.tables[move.to_table] = target.with_player(
                    move.to_seat, move.entry, waits=move.waits_for_button
                )
        assert not self.fits_without_next()
        assert self.broken == self.initial_order[: len(self.broken)]
        # RULES 3.7: redraw when a break brought the field to 3 (big events), 2 or 1 tables.
        left = len(self.order)
        wanted = bool(result.broken) and (
            (left == 3 and self.rules.redraw_at_three and self.rules.started_tables >= 6)
            or (left == 2 and self.rules.redraw_at_two)
            or (left == 1 and self.rules.redraw_at_one)
        )
        assert result.redraw == wanted
        if wanted:
            self.redraw(result, [m for m in moves if m.reason == "redraw"])
            moves = [m for m in moves if m.reason != "redraw"]
        else:
            assert result.buttons == {}
        # RULES 3.1-3.3: balance moves, each checked at the moment it is made.
        tolerance = tolerance_for(left, self.rules)
        for move in moves:
            counts = self.counts()
            most, least = max(counts.values()), self.fewest_with_room()
            assert move.reason == "balance"
            assert most - min(counts.values()) > tolerance and least is not None
            assert move.from_table == next(n for n in self.order if counts[n] == most)
            assert move.to_table == next(
                n
                for n in reversed(self.order)
                if counts[n] == least and self.tables[n].capacity > least
            )
            source, target = self.tables[move.from_table], self.tables[move.to_table]
            if source.button_seat is not None:
                assert move.from_seat == bb_next(source, ANY_RNG)
            if target.button_seat is not None:
                assert (move.to_seat, move.waits_for_button) == worst_position(target, ANY_RNG)
            else:
                assert target.is_open(move.to_seat) and not move.waits_for_button
            self.apply(move)
        for number, table in result.tables.items():
            if number in self.tables:
                assert table == self.tables[number]
            else:
                assert not table.occupants

    def redraw(self, result: Rebalance, batch: list[Move]) -> None:
        before = {n: dict(t.occupants) for n, t in self.tables.items()}
        for move in batch:
            assert (move.from_table, move.from_seat) != (move.to_table, move.to_seat)
            assert not move.waits_for_button
            assert before[move.from_table].pop(move.from_seat) == move.entry
        for move in batch:
            assert move.to_seat not in before[move.to_table]
            before[move.to_table][move.to_seat] = move.entry
        assert result.buttons.keys() == {n for n, o in before.items() if o}
        for number, table in self.tables.items():
            self.tables[number] = Table(
                number,
                table.seats,
                before[number],
                frozenset(),
                table.unavailable,
                result.buttons.get(number),
            )
            assert result.buttons.get(number) in (None, *before[number])
        sizes = [t.players for t in self.tables.values()]
        for table in self.tables.values():
            assert table.players >= max(sizes) - 1 or table.players == table.capacity

    # the rules that hold after every step
    def check(self) -> None:
        seen = [e for t in self.tables.values() for e in t.occupants.values()]
        assert sorted(seen) == sorted(self.alive)  # each entry exactly once
        assert set(self.tables) == set(self.order)
        counts = self.counts()
        most = max(counts.values())
        tolerance = tolerance_for(len(self.order), self.rules)
        if most - min(counts.values()) > tolerance:
            # Only unavailable seats can leave a short table full; nothing else may be short.
            assert all(
                t.players >= most - 1 for t in self.tables.values() if t.players < t.capacity
            )
        assert not self.fits_without_next()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_tournaments_keep_the_seating_rules(data):
    # Small fields often, so the redraws at three, two and one tables come up.
    count = data.draw(st.one_of(st.integers(1, 8), st.integers(1, 60)), label="tables")
    seats = data.draw(st.sampled_from([6, 8, 9, 10]), label="seats")
    holes = data.draw(
        st.lists(st.tuples(st.integers(1, count), st.integers(1, seats)), max_size=4),
        label="unavailable",
    )
    tables = {
        n: Table(n, seats, {}, unavailable=frozenset(s for t, s in holes if t == n))
        for n in range(1, count + 1)
    }
    if data.draw(st.booleans(), label="custom order"):
        order = list(data.draw(st.permutations(range(1, count + 1))))
    else:
        order = list(range(count, 0, -1))  # RULES 3.5 default: highest number first
    rules = SeatingSettings(
        tolerance=data.draw(st.sampled_from([None, None, 1, 2, 3]), label="tolerance"),
        redraw_at_three=data.draw(st.booleans()),
        redraw_at_two=data.draw(st.booleans()),
        redraw_at_one=data.draw(st.booleans()),
        started_tables=count + data.draw(st.integers(0, 2), label="tables before"),
    )
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    capacity = sum(t.capacity for t in tables.values())
    fewest = capacity - tables[order[0]].capacity + 1 if count > 1 else 2
    game = Tournament(tables, order, rules)
    game.seat_everyone(data.draw(st.integers(fewest, capacity), label="players"), rng)
    for number in game.order:
        if data.draw(st.booleans(), label="play started"):
            game.move_button(number, 1, rng)
    game.check()
    for _ in range(data.draw(st.integers(1, 12), label="steps")):
        step = data.draw(st.sampled_from(["late", "button", "out", "out", "out"]))
        if step == "late":
            game.late_entry(rng)
        elif step == "button":
            number = data.draw(st.sampled_from(game.order))
            game.move_button(number, data.draw(st.integers(1, seats)), rng)
        elif len(game.alive) > 1:
            alive = sorted(game.alive)
            if data.draw(st.booleans(), label="one table"):
                table = game.tables[data.draw(st.sampled_from(game.order))]
                alive = sorted(table.occupants.values()) or alive
            size = data.draw(st.integers(1, min(len(alive), len(game.alive) - 1, 9)))
            game.eliminate(rng.sample(alive, size), rng)
        game.check()


@FAST
@given(capacities=st.lists(st.integers(0, 10), max_size=12), data=st.data())
def test_even_sizes_are_within_one_except_full_tables(capacities, data):
    players = data.draw(st.integers(0, sum(capacities)))
    sizes = even_sizes(players, capacities, random.Random(1))
    assert sum(sizes) == players
    assert all(0 <= size <= cap for size, cap in zip(sizes, capacities, strict=True))
    top = max(sizes, default=0)
    assert all(size >= top - 1 or size == cap for size, cap in zip(sizes, capacities, strict=True))
