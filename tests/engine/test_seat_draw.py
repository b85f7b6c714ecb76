"""Seat draws (RULES 1.1-1.4, 2.1). Tables are pictures (see test_blinds)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tables.engine.model import Table, parse_table
from tables.engine.seat_draw import (
    MSG_ALREADY_SEATED,
    MSG_BAD_PLAYERS,
    MSG_BAD_SEATS_PER_TABLE,
    MSG_DUPLICATE_ENTRY,
    MSG_EMPTY_TABLE,
    MSG_NO_OPEN_SEAT,
    MSG_NOT_ENOUGH_SEATS,
    MSG_TABLE_NOT_EMPTY,
    draw,
    draw_button,
    even_sizes,
    late_seat,
    tables_needed,
)
from tourney.engine.errors import DomainError


def empty_tables(count: int, seats: int = 9) -> list[Table]:
    return [Table(number=n, seats=seats, occupants={}) for n in range(1, count + 1)]


def sizes(moves) -> dict[int, int]:
    return dict(Counter(m.to_table for m in moves))


# --- RULES 1.2 how many tables -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "seats", "tables"), [(0, 9, 0), (1, 9, 1), (9, 9, 1), (10, 9, 2), (19, 9, 3)]
)
def test_tables_needed_is_the_fewest_that_hold_the_players(players, seats, tables):
    assert tables_needed(players, seats) == tables


def test_tables_needed_refuses_negative_players():
    with pytest.raises(DomainError) as err:
        tables_needed(-1, 9)
    assert (err.value.code, err.value.message, err.value.status) == (
        "invalid_players",
        MSG_BAD_PLAYERS,
        400,
    )


def test_tables_needed_refuses_one_seat_tables():
    with pytest.raises(DomainError) as err:
        tables_needed(5, 1)
    assert (err.value.message, err.value.status) == (MSG_BAD_SEATS_PER_TABLE, 400)


# --- RULES 1.1, 1.2 initial draw -----------------------------------------------------------------


def test_initial_draw_fills_tables_evenly():
    moves = draw(range(1, 21), empty_tables(3), random.Random(5))
    assert sorted(sizes(moves).values()) == [6, 7, 7]
    assert sorted(m.entry for m in moves) == list(range(1, 21))
    assert len({(m.to_table, m.to_seat) for m in moves}) == 20
    assert {(m.reason, m.waits_for_button, m.from_table, m.from_seat) for m in moves} == {
        ("seat", False, None, None)
    }


def test_initial_draw_is_reproducible_with_a_seed():
    first = draw(range(1, 51), empty_tables(6), random.Random(42))
    again = draw(range(1, 51), empty_tables(6), random.Random(42))
    other = draw(range(1, 51), empty_tables(6), random.Random(43))
    assert first == again
    assert first != other


def test_initial_draw_spreads_the_extra_players_at_random():
    tables_with_extra = set()
    for seed in range(30):
        counts = sizes(draw(range(10), empty_tables(3), random.Random(seed)))
        tables_with_extra |= {n for n, c in counts.items() if c == 4}
    assert tables_with_extra == {1, 2, 3}


def test_initial_draw_never_uses_unavailable_seats():
    tables = [parse_table(". . x . . . . . x", n) for n in (1, 2)]
    for seed in range(20):
        moves = draw(range(14), tables, random.Random(seed))
        assert {m.to_seat for m in moves}.isdisjoint({3, 9})


def test_initial_draw_with_short_tables_fills_them_and_evens_the_rest():
    short = parse_table(". . x x x x x x x", 1)
    tables = [short, *empty_tables(3)[1:]]
    moves = draw(range(14), tables, random.Random(3))
    assert sizes(moves) == {1: 2, 2: 6, 3: 6}


def test_initial_draw_refuses_more_players_than_seats():
    with pytest.raises(DomainError) as err:
        draw(range(19), empty_tables(2), random.Random(1))
    assert (err.value.code, err.value.message, err.value.status) == (
        "not_enough_seats",
        MSG_NOT_ENOUGH_SEATS,
        409,
    )


def test_initial_draw_refuses_an_entry_twice():
    with pytest.raises(DomainError) as err:
        draw([1, 2, 2], empty_tables(1), random.Random(1))
    assert (err.value.code, err.value.message, err.value.status) == (
        "duplicate_entry",
        MSG_DUPLICATE_ENTRY,
        400,
    )


def test_initial_draw_needs_empty_tables():
    with pytest.raises(DomainError) as err:
        draw([1, 2], [parse_table("7 . .")], random.Random(1))
    assert (err.value.code, err.value.message, err.value.status) == (
        "table_not_empty",
        MSG_TABLE_NOT_EMPTY,
        400,
    )


def test_even_sizes_fill_to_a_common_level():
    assert even_sizes(14, [2, 9, 9], random.Random(1)) == [2, 6, 6]
    assert sorted(even_sizes(7, [9, 9, 9], random.Random(1))) == [2, 2, 3]
    assert even_sizes(0, [], random.Random(1)) == []


# --- RULES 1.3 late entries ---------------------------------------------------------------------


def test_late_entry_sits_at_a_table_with_the_fewest_players():
    tables = [parse_table("B1 2 3 . .", 1), parse_table("B. 7 . . .", 2)]
    for seed in range(30):
        move = late_seat(50, tables, random.Random(seed))
        assert move.to_table == 2
        assert move.to_seat in (1, 3, 4, 5)
        assert (move.entry, move.from_table, move.reason) == (50, None, "seat")


def test_late_entry_draws_every_open_seat_of_the_tied_tables():
    tables = [parse_table("1 . .", 1), parse_table(". 4 .", 2), parse_table("5 6 .", 3)]
    drawn = {
        (m.to_table, m.to_seat)
        for m in (late_seat(9, tables, random.Random(s)) for s in range(200))
    }
    assert drawn == {(1, 2), (1, 3), (2, 1), (2, 3)}


def test_late_entry_on_the_button_seat_waits():
    tables = [parse_table("1 2 3 .", 1), parse_table("B. 7 8", 2)]
    move = late_seat(50, tables, random.Random(1))
    assert (move.to_table, move.to_seat, move.waits_for_button) == (2, 1, True)


def test_late_entry_between_button_and_small_blind_waits():
    tables = [parse_table("B1 . 3 4", 1)]
    move = late_seat(50, tables, random.Random(1))
    assert (move.to_seat, move.waits_for_button) == (2, True)


def test_late_entry_after_the_blinds_is_dealt_in_at_once():
    tables = [parse_table("B1 2 3 .", 1)]
    move = late_seat(50, tables, random.Random(1))
    assert (move.to_seat, move.waits_for_button) == (4, False)


def test_late_entry_skips_full_tables_even_with_fewer_players():
    tables = [parse_table("1 2 x", 1), parse_table("3 4 5 .", 2)]
    move = late_seat(50, tables, random.Random(1))
    assert (move.to_table, move.to_seat) == (2, 4)


def test_late_entry_without_open_seat_is_refused():
    with pytest.raises(DomainError) as err:
        late_seat(50, [parse_table("1 2 x", 1)], random.Random(1))
    assert (err.value.code, err.value.message, err.value.status) == (
        "no_open_seat",
        MSG_NO_OPEN_SEAT,
        409,
    )


def test_late_entry_already_seated_is_refused():
    with pytest.raises(DomainError) as err:
        late_seat(2, [parse_table("1 2 .", 1)], random.Random(1))
    assert (err.value.code, err.value.message, err.value.status) == (
        "already_seated",
        MSG_ALREADY_SEATED,
        409,
    )


# --- RULES 2.1 high card for the button ----------------------------------------------------------


def test_button_goes_to_a_seated_player_drawn_by_seed():
    table = parse_table("1 . 3 . 5 x")
    picks = {draw_button(table, random.Random(s)) for s in range(50)}
    assert picks == {1, 3, 5}
    assert draw_button(table, random.Random(9)) == draw_button(table, random.Random(9))


def test_button_draw_at_an_empty_table_is_refused():
    with pytest.raises(DomainError) as err:
        draw_button(parse_table(". . ."), random.Random(1))
    assert (err.value.code, err.value.message, err.value.status) == (
        "empty_table",
        MSG_EMPTY_TABLE,
        409,
    )
