"""Breaking, redrawing and balancing (RULES 3). Tables are pictures (see test_blinds):
``.`` empty, ``x`` unavailable, ``12`` entry 12, ``12w`` waiting, a leading ``B`` = button.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from tables.engine.balancing import (
    MSG_BAD_COUNT,
    MSG_LOADED_MISMATCH,
    MSG_TABLES_MISMATCH,
    Rebalance,
    rebalance,
    settled,
    tolerance_for,
)
from tables.engine.model import MSG_BAD_TOLERANCE, Move, SeatingSettings, Table, parse_table
from tourney.engine.errors import DomainError

NO_REDRAW = SeatingSettings(redraw_at_three=False, redraw_at_two=False, redraw_at_one=False)


def run(
    pictures: Mapping[int, str],
    *,
    order: list[int] | None = None,
    settings: SeatingSettings = NO_REDRAW,
    seed: int = 1,
) -> tuple[Rebalance, list[int]]:
    """Rebalance the tables drawn in ``pictures``; returns the result and the loads made."""
    tables = {n: parse_table(p, n) for n, p in pictures.items()}
    loads: list[int] = []

    def load(number: int) -> Table:
        loads.append(number)
        return tables[number]

    result = rebalance(
        counts={n: t.players for n, t in tables.items()},
        capacity={n: t.capacity for n, t in tables.items()},
        break_order=order if order is not None else sorted(tables, reverse=True),
        load=load,
        settings=settings,
        rng=random.Random(seed),
    )
    return result, loads


def final(pictures: Mapping[int, str], result: Rebalance) -> dict[int, Table]:
    """The tables after the result: loaded ones from ``result.tables``, the rest unchanged."""
    out = {n: parse_table(p, n) for n, p in pictures.items()}
    out.update(result.tables)
    return {n: t for n, t in out.items() if n not in result.broken}


def replay(pictures: Mapping[int, str], moves: tuple[Move, ...]) -> dict[int, Table]:
    """Apply ``moves`` in order (the redraw moves together, as one batch)."""
    tables = {n: parse_table(p, n) for n, p in pictures.items()}
    batch = [m for m in moves if m.reason == "redraw"]
    for move in moves:
        if move.reason == "redraw":
            continue
        entry = tables[move.from_table].occupants[move.from_seat]
        assert entry == move.entry
        tables[move.from_table] = tables[move.from_table].without_seat(move.from_seat)
        tables[move.to_table] = tables[move.to_table].with_player(
            move.to_seat, move.entry, waits=move.waits_for_button
        )
    for move in batch:
        assert tables[move.from_table].occupants[move.from_seat] == move.entry
        tables[move.from_table] = tables[move.from_table].without_seat(move.from_seat)
    for move in batch:
        tables[move.to_table] = tables[move.to_table].with_player(move.to_seat, move.entry)
    return tables


def row(number: int, players: int, seats: int = 9, button: bool = True) -> str:
    """Table ``number`` with entries 100*number+1, ... in seats 1..players, button on seat 1."""
    tokens = [str(100 * number + s) if s <= players else "." for s in range(1, seats + 1)]
    if button:
        tokens[0] = "B" + tokens[0]
    return " ".join(tokens)


def sizes(tables: Mapping[int, Table]) -> dict[int, int]:
    return {n: t.players for n, t in tables.items()}


# --- RULES 3.2 / 3.3 balancing -------------------------------------------------------------------


def test_bb_next_moves_to_worst_position():
    pictures = {
        1: "B1 2 3 4 5 6 . . .",  # button 1, blinds 2 and 3: entry 3 is big blind next
        2: "B11 12 . 14 15 . . . .",  # small blind 12: seat 3 is the worst position
    }
    result, _ = run(pictures)
    assert result.moves == (Move(3, 1, 3, 2, 3, "balance", False),)
    assert (result.broken, result.redraw, result.buttons) == ((), False, {})
    assert result.tables[1].picture() == "B1 2 . 4 5 6 . . ."
    assert result.tables[2].picture() == "B11 12 3 14 15 . . . ."


def test_balancing_repeats_until_within_tolerance_each_time_with_the_new_big_blind():
    pictures = {1: "B1 2 3 4 5 6 7 8 9", 2: "B11 12 13 . . . . . ."}
    result, _ = run(pictures)
    assert [(m.entry, m.to_table, m.to_seat) for m in result.moves] == [
        (3, 2, 4),
        (4, 2, 5),
        (5, 2, 6),
    ]
    assert sizes(final(pictures, result)) == {1: 6, 2: 6}


def test_source_tie_goes_to_the_table_due_to_break_soonest():
    pictures = {
        1: "B1 2 3 4 5 6 7 . .",
        2: "B11 12 13 14 15 16 17 . .",
        3: "B21 22 23 24 25 . . . .",
    }
    result, _ = run(pictures)  # default order breaks 3, then 2, then 1
    assert result.moves == (Move(13, 2, 3, 3, 6, "balance", False),)
    result, _ = run(pictures, order=[1, 3, 2])
    assert result.moves == (Move(3, 1, 3, 3, 6, "balance", False),)


def test_destination_tie_goes_to_the_table_due_to_break_last():
    pictures = {
        1: "B1 2 3 4 5 6 7 8 .",
        2: "B11 12 13 14 15 16 . . .",
        3: "B21 22 23 24 25 26 . . .",
    }
    result, _ = run(pictures)  # order 3, 2, 1: of tables 2 and 3, table 2 breaks last
    assert result.moves == (Move(3, 1, 3, 2, 7, "balance", False),)
    result, _ = run(pictures, order=[2, 3, 1])
    assert result.moves == (Move(3, 1, 3, 3, 7, "balance", False),)


def test_balance_move_skips_unavailable_seats():
    pictures = {1: "B1 2 3 4 5 6", 2: "B11 12 x 14 . ."}
    result, _ = run(pictures)
    assert result.moves == (Move(3, 1, 3, 2, 5, "balance", False),)


def test_balance_move_into_a_seat_before_the_small_blind_waits():
    pictures = {1: "B1 2 3 4 5 6 7 8 .", 2: "1:11 2:B12 3:. 4:14 5:15 6:16 7:x 8:x 9:18"}
    result, _ = run(pictures)
    assert result.moves == (Move(3, 1, 3, 2, 3, "balance", True),)
    assert result.tables[2].waiting == {3}


def test_seven_tables_tolerate_a_spread_of_two():
    pictures = {n: row(n, 9) for n in range(1, 8)} | {7: row(7, 7)}
    result, _ = run(pictures)
    assert result.moves == ()


def test_six_tables_tolerate_a_spread_of_one():
    pictures = {n: row(n, 9) for n in range(1, 7)} | {6: row(6, 7)}
    result, _ = run(pictures)
    assert [(m.from_table, m.to_table, m.reason) for m in result.moves] == [(5, 6, "balance")]


def test_tolerance_setting_overrides_the_automatic_one():
    pictures = {n: row(n, 9) for n in range(1, 7)} | {6: row(6, 7)}
    result, _ = run(pictures, settings=SeatingSettings(tolerance=2))
    assert result.moves == ()


def test_without_button_the_mover_and_seat_are_seeded_random_and_dealt_in():
    pictures = {1: "1 2 3 4 5 6 . . .", 2: "11 12 13 14 . . . . ."}
    first, _ = run(pictures, seed=8)
    again, _ = run(pictures, seed=8)
    assert first.moves == again.moves
    (move,) = first.moves
    assert (move.from_table, move.to_table, move.waits_for_button) == (1, 2, False)
    movers = {run(pictures, seed=s)[0].moves[0].entry for s in range(60)}
    assert movers == {1, 2, 3, 4, 5, 6}


# --- RULES 3.4 / 3.5 / 3.6 breaking --------------------------------------------------------------


def test_table_breaks_the_moment_its_players_fit_elsewhere():
    pictures = {1: row(1, 7), 2: row(2, 7), 3: row(3, 7), 4: row(4, 6)}  # 27 players, 27 seats
    result, _ = run(pictures)
    assert result.broken == (4,)
    assert len(result.moves) == 6
    assert {(m.from_table, m.reason) for m in result.moves} == {(4, "break")}
    assert sorted(m.entry for m in result.moves) == [401, 402, 403, 404, 405, 406]
    assert sizes(final(pictures, result)) == {1: 9, 2: 9, 3: 9}


def test_table_does_not_break_while_its_players_do_not_fit():
    pictures = {1: row(1, 7), 2: row(2, 7), 3: row(3, 7), 4: row(4, 7)}  # 28 players, 27 seats
    result, _ = run(pictures)
    assert (result.broken, result.moves) == ((), ())


def test_tables_break_in_the_predetermined_order():
    pictures = {1: row(1, 7), 2: row(2, 7), 3: row(3, 7), 4: row(4, 6)}
    result, _ = run(pictures, order=[2, 4, 3, 1])
    assert result.broken == (2,)
    assert sizes(final(pictures, result)) == {1: 9, 3: 9, 4: 9}


def test_several_tables_break_in_one_call_in_order():
    pictures = {1: row(1, 4), 2: row(2, 4), 3: row(3, 4), 4: row(4, 4), 5: row(5, 2)}
    result, _ = run(pictures)
    assert result.broken == (5, 4, 3)
    assert sizes(final(pictures, result)) == {1: 9, 2: 9}


def test_empty_table_breaks_without_being_loaded():
    pictures = {1: row(1, 5), 2: row(2, 5), 3: row(3, 0)}
    result, loads = run(pictures)
    assert (result.broken, result.moves, loads) == ((3,), (), [])


def test_broken_table_players_spread_without_breaking_tolerance():
    counts = {1: 9, 2: 9, 3: 8, 4: 8, 5: 8, 6: 7, 7: 7, 8: 5}  # 61 players fit in 7 x 10 seats
    pictures = {n: row(n, c, seats=10) for n, c in counts.items()}
    result, _ = run(pictures)
    assert result.broken == (8,)
    live = {n: c for n, c in counts.items() if n != 8}
    for move in result.moves:
        # RULES 3.6: each player lands at a table with the fewest players at that moment.
        assert move.reason == "break"
        assert live[move.to_table] == min(live.values())
        live[move.to_table] += 1
    after = sizes(final(pictures, result))
    assert after == live
    assert max(after.values()) - min(after.values()) <= tolerance_for(7, NO_REDRAW)


def test_broken_table_players_draw_every_open_seat_of_the_shortest_tables():
    pictures = {1: "B1 2 3 . .", 2: "B11 12 . . .", 3: "21 . . . ."}
    landed = set()
    for seed in range(100):
        result, _ = run(pictures, seed=seed)
        (move,) = result.moves
        landed.add((move.to_table, move.to_seat))
    assert landed == {(2, 3), (2, 4), (2, 5)}


def test_broken_table_player_between_button_and_small_blind_waits():
    pictures = {1: "B1 . 3 4 5 6", 2: "11 . . . . ."}
    result, _ = run(pictures)
    assert result.moves == (Move(11, 2, 1, 1, 2, "break", True),)
    assert result.tables[1].waiting == {11}


def test_broken_table_player_may_land_on_the_big_blind_and_is_dealt_in():
    pictures = {1: "B1 2 . 4 5 6", 2: "11 . . . . ."}
    result, _ = run(pictures)
    assert result.moves == (Move(11, 2, 1, 1, 3, "break", False),)


def test_unavailable_seats_are_never_used_when_breaking():
    pictures = {
        1: "B1 2 3 x x . . . .",
        2: "B11 12 13 x . . . x .",
        3: "B21 22 23 24 . . . . .",
    }
    for seed in range(40):
        for settings in (NO_REDRAW, SeatingSettings()):
            result, _ = run(pictures, seed=seed, settings=settings)
            assert result.broken == (3,)
            assert {(m.to_table, m.to_seat) for m in result.moves}.isdisjoint(
                {(1, 4), (1, 5), (2, 4), (2, 8)}
            )


def test_engine_loads_only_the_tables_it_needs_once_each():
    pictures = {n: row(n, 9) for n in range(1, 11)} | {9: row(9, 6)}
    result, loads = run(pictures)
    assert [(m.from_table, m.to_table) for m in result.moves] == [(10, 9)]
    assert sorted(loads) == [9, 10]
    assert len(loads) == len(set(loads))


# --- RULES 3.7 redraws ---------------------------------------------------------------------------


def assert_redrawn(pictures: Mapping[int, str], result: Rebalance) -> dict[int, Table]:
    """Common checks after a redraw; returns the final tables."""
    tables = final(pictures, result)
    replayed = replay(pictures, result.moves)
    for number in result.broken:
        assert not replayed[number].occupants
    for number, table in tables.items():
        assert table.occupants == replayed[number].occupants
        assert table.button_seat == result.buttons[number]
    every = sorted(e for p in pictures.values() for e in parse_table(p).occupants.values())
    assert sorted(e for t in tables.values() for e in t.occupants.values()) == every
    assert all(not t.waiting for t in tables.values())
    assert result.buttons.keys() == tables.keys()
    assert all(result.buttons[n] in t.occupants for n, t in tables.items())
    assert all((m.from_table, m.from_seat) != (m.to_table, m.to_seat) for m in result.moves)
    redraws = [i for i, m in enumerate(result.moves) if m.reason == "redraw"]
    assert redraws == list(range(len(result.moves) - len(redraws), len(result.moves)))
    return tables


def test_redraw_when_the_field_is_reduced_to_two_tables():
    pictures = {1: row(1, 6), 2: row(2, 6), 3: row(3, 5)}
    result, _ = run(pictures, settings=SeatingSettings())
    assert (result.broken, result.redraw) == ((3,), True)
    assert [m.reason for m in result.moves[:5]] == ["break"] * 5
    tables = assert_redrawn(pictures, result)
    assert sorted(sizes(tables).values()) == [8, 9]


def test_redraw_at_the_final_table():
    pictures = {1: row(1, 5), 2: "21 . 23 . 25 . 27 . ."}
    result, _ = run(pictures, settings=SeatingSettings())
    assert (result.broken, result.redraw) == ((2,), True)
    tables = assert_redrawn(pictures, result)
    assert sizes(tables) == {1: 9}


def test_player_who_draws_their_own_seat_gets_no_move():
    pictures = {1: row(1, 5), 2: "21 . 23 . . . . . ."}
    kept = 0
    for seed in range(30):
        result, _ = run(pictures, settings=SeatingSettings(), seed=seed)
        redrawn = {m.entry for m in result.moves if m.reason == "redraw"}
        before = replay(pictures, tuple(m for m in result.moves if m.reason == "break"))[1]
        for seat, entry in result.tables[1].occupants.items():
            if before.occupants.get(seat) == entry:
                kept += 1
                assert entry not in redrawn
            else:
                assert entry in redrawn
    assert kept > 0


def test_redraw_at_three_tables_only_when_the_event_started_with_six():
    pictures = {1: row(1, 7), 2: row(2, 7), 3: row(3, 7), 4: row(4, 6)}
    small_event, _ = run(pictures, settings=SeatingSettings(started_tables=5))
    big_event, _ = run(pictures, settings=SeatingSettings(started_tables=6))
    switched_off, _ = run(
        pictures, settings=SeatingSettings(started_tables=6, redraw_at_three=False)
    )
    assert (small_event.redraw, big_event.redraw, switched_off.redraw) == (False, True, False)
    assert_redrawn(pictures, big_event)


def test_no_redraw_when_the_setting_is_off():
    pictures = {1: row(1, 6), 2: row(2, 6), 3: row(3, 5)}
    result, _ = run(pictures, settings=SeatingSettings(redraw_at_two=False))
    assert (result.broken, result.redraw, result.buttons) == ((3,), False, {})


def test_no_redraw_without_a_break_in_the_call():
    pictures = {1: row(1, 9), 2: row(2, 5)}
    result, _ = run(pictures, settings=SeatingSettings())
    assert result.redraw is False
    assert {m.reason for m in result.moves} == {"balance"}


def test_redraw_is_reproducible_with_a_seed():
    pictures = {1: row(1, 6), 2: row(2, 6), 3: row(3, 5)}
    first, _ = run(pictures, settings=SeatingSettings(), seed=4)
    again, _ = run(pictures, settings=SeatingSettings(), seed=4)
    assert (first.moves, first.buttons) == (again.moves, again.buttons)


# --- RULES 3.1 tolerance and bad input ----------------------------------------------------------


@pytest.mark.parametrize(("tables", "tolerance"), [(1, 1), (6, 1), (7, 2), (60, 2)])
def test_automatic_tolerance(tables, tolerance):
    assert tolerance_for(tables, SeatingSettings()) == tolerance


def test_tolerance_of_zero_is_bad_input():
    with pytest.raises(DomainError) as err:
        SeatingSettings(tolerance=0)
    assert (err.value.code, err.value.message, err.value.status) == (
        "invalid_settings",
        MSG_BAD_TOLERANCE,
        400,
    )


def test_counts_and_break_order_must_name_the_same_tables():
    with pytest.raises(DomainError) as err:
        rebalance(
            counts={1: 5, 2: 5},
            capacity={1: 9, 2: 9},
            break_order=[2],
            load=lambda n: parse_table(row(n, 5), n),
            settings=SeatingSettings(),
            rng=random.Random(1),
        )
    assert (err.value.code, err.value.message, err.value.status) == (
        "invalid_tables",
        MSG_TABLES_MISMATCH,
        400,
    )


def test_count_above_capacity_is_bad_input():
    with pytest.raises(DomainError) as err:
        rebalance(
            counts={1: 10, 2: 5},
            capacity={1: 9, 2: 9},
            break_order=[2, 1],
            load=lambda n: parse_table(row(n, 5), n),
            settings=SeatingSettings(),
            rng=random.Random(1),
        )
    assert (err.value.code, err.value.message, err.value.status) == (
        "invalid_count",
        MSG_BAD_COUNT,
        400,
    )


def test_loaded_table_that_contradicts_its_count_is_refused():
    with pytest.raises(DomainError) as err:
        rebalance(
            counts={1: 9, 2: 3},
            capacity={1: 9, 2: 9},
            break_order=[2, 1],
            load=lambda n: parse_table(row(n, 5), n),
            settings=SeatingSettings(),
            rng=random.Random(1),
        )
    assert (err.value.code, err.value.message, err.value.status) == (
        "inconsistent_table",
        MSG_LOADED_MISMATCH,
        400,
    )


# --- the no-op test from totals (what an elimination asks before reading every table) ------


def _totals(tables: Mapping[int, Table], order: list[int]) -> dict:
    counts = [t.players for t in tables.values()]
    return {
        "tables": len(tables),
        "players": sum(counts),
        "seats": sum(t.capacity for t in tables.values()),
        "first_capacity": tables[order[0]].capacity,
        "most": max(counts),
        "least": min(counts),
    }


@pytest.mark.parametrize(
    ("counts", "settled_"),
    [
        ([9, 8, 7], False),  # RULES 3.1: three tables tolerate a spread of one
        ([9, 9, 8], True),
        ([9, 7], False),  # spread 2 at two tables: balance
        ([8, 7, 7], True),
        ([4, 4, 4], False),  # 12 players fit in two tables of nine: table 3 breaks
        ([9], True),
    ],
)
def test_settled_says_when_nothing_breaks_or_balances(counts, settled_):
    pictures = {n: row(n, c) for n, c in enumerate(counts, start=1)}
    tables = {n: parse_table(p, n) for n, p in pictures.items()}
    order = sorted(tables, reverse=True)
    assert settled(**_totals(tables, order), settings=NO_REDRAW) is settled_
    result, _ = run(pictures)
    if settled_:
        assert (result.moves, result.broken, result.redraw) == ((), (), False)
    else:
        assert result.moves or result.broken


@given(st.data())
@hsettings(max_examples=300, deadline=None)
def test_settled_only_where_rebalance_does_nothing(data):
    n = data.draw(st.integers(1, 12), label="tables")
    seats = data.draw(st.integers(2, 10), label="seats")
    pictures = {}
    for number in range(1, n + 1):
        players = data.draw(st.integers(0, seats), label=f"players at {number}")
        blocked = data.draw(st.integers(0, seats - players), label=f"blocked at {number}")
        tokens = [str(100 * number + s) for s in range(1, players + 1)]
        tokens += ["x"] * blocked + ["."] * (seats - players - blocked)
        if players:
            tokens[0] = "B" + tokens[0]
        pictures[number] = " ".join(tokens)
    tolerance = data.draw(st.sampled_from([None, 1, 2, 3]), label="tolerance")
    config = SeatingSettings(tolerance=tolerance, started_tables=n)
    tables = {k: parse_table(p, k) for k, p in pictures.items()}
    order = data.draw(st.permutations(sorted(tables)), label="break order")
    result, _ = run(pictures, order=list(order), settings=config)
    nothing = (result.moves, result.broken, result.redraw, result.buttons) == ((), (), False, {})
    if settled(**_totals(tables, list(order)), settings=config):
        assert nothing
    else:  # not settled: a table fits elsewhere, or the spread is beyond the tolerance
        totals = _totals(tables, list(order))
        breaks = totals["players"] <= totals["seats"] - totals["first_capacity"]
        spread = totals["most"] - totals["least"] > tolerance_for(n, config)
        assert n > 1 and (breaks or spread)
