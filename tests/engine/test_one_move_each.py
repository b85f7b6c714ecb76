"""Issue 31 item 2, the engine's part: ``one_move_each`` turns a ``rebalance`` batch into what
the floor does (RULES 3.7, 3.8): one move per player, from the seat they sit in to the seat
they end in, all at once; and ``close`` breaks a named table first (the director's break),
which counts as a break for the redraw."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from tables.engine.balancing import one_move_each, rebalance
from tables.engine.model import Move, SeatingSettings, Table
from tourney.engine.errors import DomainError


def field(sizes: list[int], seats: int = 9) -> dict[int, Table]:
    """Tables 1..n, entry 100*table+seat in seats 1..size, the button on seat 1."""
    return {
        n: Table(
            n,
            seats,
            {s: 100 * n + s for s in range(1, size + 1)},
            button_seat=1 if size else None,
        )
        for n, size in enumerate(sizes, start=1)
    }


def run(tables: dict[int, Table], settings: SeatingSettings, seed: int, close=None):
    return rebalance(
        counts={n: t.players for n, t in tables.items()},
        capacity={n: t.capacity for n, t in tables.items()},
        break_order=sorted(tables, reverse=True),
        load=lambda n: tables[n],
        settings=settings,
        rng=random.Random(seed),
        close=close,
    )


def seats_of(tables: dict[int, Table]) -> dict[int, tuple[int, int]]:
    return {e: (n, s) for n, t in tables.items() for s, e in t.occupants.items()}


def assert_true_moves(before: dict[int, Table], result, moves: tuple[Move, ...]) -> None:
    """Made all at once (everyone leaves, then everyone sits), the moves give the engine's
    final seating; each player once, from the seat they sat in."""
    start = seats_of(before)
    final = seats_of({n: t for n, t in result.tables.items() if n not in result.broken})
    end = dict(start)
    for n in result.broken:  # a broken table keeps nobody: its players sit elsewhere
        assert n not in result.tables or not result.tables[n].occupants
        for e in before[n].occupants.values():
            assert e in final
    end.update(final)
    assert len({m.entry for m in moves}) == len(moves)
    for m in moves:
        assert (m.from_table, m.from_seat) == start[m.entry]
        assert (m.to_table, m.to_seat) == end[m.entry] != start[m.entry]
    unmoved = set(start) - {m.entry for m in moves}
    assert all(start[e] == end[e] for e in unmoved)
    assert len(set(end.values())) == len(end)  # nobody shares a seat
    if result.redraw:
        assert all(m.reason == "redraw" and not m.waits_for_button for m in moves)


def test_a_break_to_two_tables_is_one_redraw_move_per_player():
    before = field([7, 6, 5])  # 18 fit at two tables of 9: table 3 breaks, then the redraw
    result = run(before, SeatingSettings(), seed=3)
    assert result.broken == (3,) and result.redraw
    # the engine's steps chain through the break's seats ...
    steps = [m.entry for m in result.moves]
    assert len(steps) > len(set(steps))
    # ... the floor's moves do not
    moves = one_move_each(result.moves, redraw=True)
    assert_true_moves(before, result, moves)
    assert {m.entry for m in moves if m.from_table == 3} == {301, 302, 303, 304, 305}
    assert [(m.to_table, m.to_seat) for m in moves] == sorted(
        (m.to_table, m.to_seat) for m in moves
    )


def test_without_a_redraw_single_moves_are_kept_as_they_are():
    moves = (
        Move(1, 3, 2, 1, 5, "break", True),
        Move(2, 2, 4, 1, 6, "balance", False),
    )
    assert one_move_each(moves, redraw=False) == moves
    # a player broken then balanced on: one move, the first reason, the last wait
    chained = (Move(1, 3, 2, 1, 5, "break", False), Move(1, 1, 5, 2, 7, "balance", True))
    assert one_move_each(chained, redraw=False) == (Move(1, 3, 2, 2, 7, "break", True),)
    # back where they sat: no move at all
    back = (Move(1, 3, 2, 1, 5, "redraw", False), Move(1, 1, 5, 3, 2, "redraw", False))
    assert one_move_each(back, redraw=True) == ()


def test_the_directors_break_goes_first_and_brings_the_redraw():
    before = field([5, 5, 5])
    result = run(before, SeatingSettings(), seed=5, close=2)
    assert result.broken == (2,) and result.redraw
    assert_true_moves(before, result, one_move_each(result.moves, redraw=True))
    no_redraw = SeatingSettings(redraw_at_two=False)
    result = run(before, no_redraw, seed=5, close=1)
    assert result.broken == (1,) and not result.redraw
    assert {m.reason for m in result.moves} == {"break"}
    assert_true_moves(before, result, one_move_each(result.moves, redraw=False))


def test_the_directors_break_is_refused_without_room_or_for_an_unknown_table():
    with pytest.raises(DomainError) as err:
        run(field([9, 9, 5]), SeatingSettings(), seed=1, close=3)
    assert err.value.code == "no_room"
    with pytest.raises(DomainError) as err:
        run(field([5, 5]), SeatingSettings(), seed=1, close=7)
    assert err.value.code == "invalid_tables"


@hsettings(max_examples=300, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 9), min_size=2, max_size=8),
    seed=st.integers(0, 2**32),
    redraw=st.booleans(),
    started=st.integers(0, 8),
    close=st.booleans(),
)
def test_every_batch_gives_each_player_one_true_move(sizes, seed, redraw, started, close):
    before = field(sizes)
    settings = SeatingSettings(
        redraw_at_three=redraw, redraw_at_two=redraw, redraw_at_one=redraw, started_tables=started
    )
    target = None
    if close:
        target = max(before, key=lambda n: (before[n].players, n))  # may not fit
    try:
        result = run(before, settings, seed, close=target)
    except DomainError as err:
        assert err.code == "no_room"
        return
    assert_true_moves(before, result, one_move_each(result.moves, redraw=result.redraw))
