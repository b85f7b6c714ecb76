"""Multi-day events: the event's settings, flight ends, one stack per player with the desk's
warning, the Day 2 draw, and a three-flight event played through (RULES 10.1-10.3, 10.5; the
bag and tag and chip counts are in test_flights_bags.py, the event's money and places in
test_flights_event_money.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.model import Move, Table
from tables.engine.seat_draw import draw, tables_needed
from tourney.engine.bags import Count, bag_check
from tourney.engine.errors import DomainError
from tourney.engine.event_money import FlightMoney, event_payouts, event_places
from tourney.engine.flights import (
    END_LEVEL,
    END_PLAYERS,
    FIRST,
    FORFEIT_REASONS,
    LARGEST,
    LATER_FLIGHT,
    MSG_ALREADY_QUALIFIED_FIRST,
    MSG_ALREADY_QUALIFIED_LARGEST,
    MSG_BAD_BAG,
    MSG_BAD_END_PLAYERS,
    MSG_BAD_LAST_LEVEL,
    MSG_BAGGED_TWICE,
    MSG_DRAW_MISMATCH,
    MSG_DUPLICATE_ENTRY,
    MSG_NO_DAY2,
    MSG_NO_END,
    MSG_PLAYER_TWICE,
    MSG_UNKNOWN_POLICY,
    SAME_STACK_LATER_FLIGHT,
    SMALLER_STACK,
    Bag,
    EventSettings,
    FlightEnd,
    day2_draw,
    day2_start,
    entry_warning,
    flight_end,
    flight_end_due,
    qualifiers,
)
from tourney.engine.payouts import place_prizes
from tourney.engine.places import Bust

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _raises(code: str, message: str, call, *args, **kwargs) -> DomainError:
    with pytest.raises(DomainError) as info:
        call(*args, **kwargs)
    assert info.value.code == code
    assert info.value.message == message
    return info.value


def _tables(players: int, seats: int = 9, extra: int = 0) -> list[Table]:
    count = max(tables_needed(players, seats), 1) + extra
    return [Table(n, seats, {}) for n in range(1, count + 1)]


def _drawer(tables: list[Table], seed: int):
    rng = random.Random(seed)
    return lambda entries: draw(entries, tables, rng)


# ----------------------------------------------------------------------------- RULES 10.1


def test_event_settings_default_to_the_largest_stack_and_no_day1_places():
    assert EventSettings() == EventSettings(policy=LARGEST, pays_on_day1=False)
    assert EventSettings(policy=FIRST).policy == FIRST
    _raises("unknown_policy", MSG_UNKNOWN_POLICY, EventSettings, policy="all")


# ----------------------------------------------------------------------------- RULES 10.2


def test_a_flight_needs_an_end():
    _raises("no_flight_end", MSG_NO_END, FlightEnd)
    _raises("bad_last_level", MSG_BAD_LAST_LEVEL, FlightEnd, last_level=-1)
    _raises("bad_last_level", MSG_BAD_LAST_LEVEL, FlightEnd, last_level=True)
    _raises("bad_end_players", MSG_BAD_END_PLAYERS, FlightEnd, players=0)
    assert FlightEnd(last_level=0).players is None


def test_flight_ends_once_the_clock_is_past_its_last_level():
    end = FlightEnd(last_level=11)
    assert flight_end(end, level_index=11, players_left=300) is None  # the level is played
    assert flight_end(end, level_index=12, players_left=300) == END_LEVEL
    assert flight_end_due(end, level_index=12, players_left=300)
    assert not flight_end_due(end, level_index=11, players_left=300)


def test_flight_ends_when_the_field_reaches_its_number():
    end = FlightEnd(players=40)
    assert flight_end(end, level_index=8, players_left=41) is None
    assert flight_end(end, level_index=8, players_left=40) == END_PLAYERS
    # RULES 10.2: the hands in progress are played out, so the field may end below the number.
    assert flight_end(end, level_index=8, players_left=37) == END_PLAYERS


def test_the_number_of_players_counts_only_once_registration_closed():
    end = FlightEnd(players=40)
    assert flight_end(end, level_index=3, players_left=12, registration_open=True) is None
    assert flight_end(end, level_index=3, players_left=12) == END_PLAYERS


def test_a_flight_not_started_never_ends():
    end = FlightEnd(last_level=0, players=40)
    assert flight_end(end, level_index=None, players_left=5) is None


def test_whichever_end_comes_first_and_the_level_is_named_when_both():
    end = FlightEnd(last_level=11, players=40)
    assert flight_end(end, level_index=9, players_left=40) == END_PLAYERS
    assert flight_end(end, level_index=12, players_left=90) == END_LEVEL
    assert flight_end(end, level_index=12, players_left=30) == END_LEVEL


# ----------------------------------------------------------------------------- RULES 10.3


def test_largest_stack_goes_to_day2_and_the_smaller_is_forfeited():
    small = Bag(player=7, flight=1, entry=101, chips=20_000)
    big = Bag(player=7, flight=2, entry=205, chips=35_000)
    other = Bag(player=8, flight=1, entry=102, chips=50_000)
    q = qualifiers([big, other, small])
    assert q.qualified == (other, big)  # flight order
    assert len(q.forfeited) == 1
    forfeit = q.forfeited[0]
    assert (forfeit.bag, forfeit.kept, forfeit.reason) == (small, big, SMALLER_STACK)
    assert forfeit.message == FORFEIT_REASONS[SMALLER_STACK]
    assert q.chips_in_play == 85_000


def test_equal_stacks_keep_the_earlier_flight():
    first = Bag(player=7, flight=1, entry=101, chips=30_000)
    third = Bag(player=7, flight=3, entry=301, chips=30_000)
    q = qualifiers([third, first])
    assert q.qualified == (first,)
    assert q.forfeited[0].bag == third
    assert q.forfeited[0].reason == SAME_STACK_LATER_FLIGHT


def test_first_policy_keeps_the_first_flight_even_when_smaller():
    small = Bag(player=7, flight=1, entry=101, chips=20_000)
    big = Bag(player=7, flight=2, entry=205, chips=35_000)
    q = qualifiers([big, small], FIRST)
    assert q.qualified == (small,)
    assert [(f.bag, f.reason) for f in q.forfeited] == [(big, LATER_FLIGHT)]


def test_qualifiers_refuse_bad_bags():
    _raises("unknown_policy", MSG_UNKNOWN_POLICY, qualifiers, [], "all")
    _raises("bad_bag", MSG_BAD_BAG, qualifiers, [Bag(1, 1, 10, 0)])
    _raises("bad_bag", MSG_BAD_BAG, qualifiers, [Bag(1, 0, 10, 100)])
    _raises("bad_bag", MSG_BAD_BAG, qualifiers, [Bag(1, 1, 10, 100, table=-1)])
    _raises("bad_bag", MSG_BAD_BAG, qualifiers, [Count(10, 100)])
    _raises(
        "duplicate_entry",
        MSG_DUPLICATE_ENTRY,
        qualifiers,
        [Bag(1, 1, 10, 100), Bag(2, 2, 10, 100)],
    )
    error = _raises(
        "bagged_twice",
        MSG_BAGGED_TWICE,
        qualifiers,
        [Bag(1, 1, 10, 100), Bag(1, 1, 11, 100)],
    )
    assert error.fields == {"player": 1, "flight": 1}


def test_desk_warns_a_qualified_player_entering_another_flight():
    bags = [Bag(7, 1, 101, 20_000), Bag(7, 2, 205, 35_000), Bag(8, 1, 102, 9_000)]
    assert entry_warning(bags, player=9) is None
    warning = entry_warning(bags, player=7)
    assert warning is not None
    assert warning.code == "already_qualified"
    assert warning.bag == bags[1]
    assert warning.message == MSG_ALREADY_QUALIFIED_LARGEST.format(chips="35,000", flight=2)
    first = entry_warning(bags, player=7, policy=FIRST)
    assert first is not None and first.bag == bags[0]
    assert first.message == (
        "This player already has 20,000 chips bagged for Day 2 (flight 1). Only that stack "
        "goes to Day 2: any chips they bag in this flight are forfeited."
    )
    assert first.message == MSG_ALREADY_QUALIFIED_FIRST.format(chips="20,000", flight=1)


# ----------------------------------------------------------------------------- RULES 10.5


def test_day2_draw_seats_each_qualified_bag_with_its_chips():
    bags = [Bag(p, 1 + p % 3, 100 + p, 1_000 * p, table=1, seat=1 + p % 9) for p in range(1, 21)]
    tables = _tables(20, seats=9)
    day2 = day2_draw(bags, _drawer(tables, 5))
    assert sorted((s.entry, s.chips) for s in day2.seats) == sorted(
        (b.entry, b.chips) for b in bags
    )
    assert day2.chips_in_play == sum(b.chips for b in bags)
    sizes = Counter(s.table for s in day2.seats)
    assert sorted(sizes.values()) == [6, 7, 7]
    # The same seed draws the same seats whatever the order the bags came in.
    again = day2_draw(list(reversed(bags)), _drawer(tables, 5))
    assert again == day2


def test_day2_draw_refuses_two_stacks_of_one_player_and_a_bad_draw():
    bags = [Bag(1, 1, 10, 500), Bag(1, 2, 20, 600)]
    _raises("player_twice", MSG_PLAYER_TWICE, day2_draw, bags, _drawer(_tables(2), 1))
    _raises("no_day2", MSG_NO_DAY2, day2_draw, [], _drawer(_tables(0), 1))
    two = [Bag(1, 1, 10, 500), Bag(2, 1, 20, 600)]
    moves = draw((10, 20), _tables(2), random.Random(1))
    _raises("draw_mismatch", MSG_DRAW_MISMATCH, day2_draw, two, lambda entries: moves[:1])
    first = moves[0]
    same_seat = [first, Move(20, None, None, first.to_table, first.to_seat, "seat", False)]
    _raises("draw_mismatch", MSG_DRAW_MISMATCH, day2_draw, two, lambda entries: same_seat)


# ------------------------------------------------------------- a three-flight event, examples


def test_three_flights_with_re_entries_and_a_shared_player():
    """Flights 1A, 1B, 1C of a 100-unit event, 10,000 chips a stack. Player 7 busts in 1A,
    re-enters and bags 12,000; plays 1B and bags 22,000; plays 1C and busts there. Player 9
    bags 12,000 in 1B and again 12,000 in 1C."""
    entries_1a = {701: 7, 702: 7, 801: 8, 1001: 10, 1101: 11}  # 701 busts, 702 re-enters
    entries_1b = {703: 7, 901: 9, 1201: 12, 1301: 13}
    entries_1c = {704: 7, 902: 9, 1401: 14}
    bags_1a = [
        Bag(7, 1, 702, 12_000, 1, 1),
        Bag(8, 1, 801, 26_000, 1, 2),
        Bag(11, 1, 1101, 12_000, 2, 3),
    ]
    bags_1b = [
        Bag(7, 2, 703, 22_000, 1, 1),
        Bag(9, 2, 901, 12_000, 1, 4),
        Bag(13, 2, 1301, 6_000, 1, 6),
    ]
    bags_1c = [Bag(9, 3, 902, 12_000, 1, 2), Bag(14, 3, 1401, 18_000, 1, 3)]
    for entries, own in ((entries_1a, bags_1a), (entries_1b, bags_1b), (entries_1c, bags_1c)):
        alive = [b.entry for b in own]
        check = bag_check(own, chips_in_play=10_000 * len(entries), players=alive)
        assert check.balanced
    # Entering 1B, player 7 holds a bag from 1A: the desk warns; player 12 has none.
    warning = entry_warning(bags_1a, player=7)
    assert warning is not None and warning.bag.entry == 702
    assert entry_warning(bags_1a, player=12) is None

    bags = bags_1a + bags_1b + bags_1c
    q = qualifiers(bags)
    assert sorted((b.player, b.entry) for b in q.qualified) == [
        (7, 703),
        (8, 801),
        (9, 901),
        (11, 1101),
        (13, 1301),
        (14, 1401),
    ]
    assert {(f.bag.entry, f.reason) for f in q.forfeited} == {
        (702, SMALLER_STACK),
        (902, SAME_STACK_LATER_FLIGHT),
    }
    assert q.chips_in_play == 96_000  # the forfeited 24,000 leave play
    first = qualifiers(bags, FIRST)
    assert {b.entry for b in first.qualified} == {702, 801, 901, 1101, 1301, 1401}

    day2 = day2_draw(q.qualified, _drawer(_tables(6, seats=4), 26))
    assert day2.chips_in_play == 96_000
    assert sorted(Counter(s.table for s in day2.seats).values()) == [3, 3]

    flights = [FlightMoney(len(e)) for e in (entries_1a, entries_1b, entries_1c)]
    money = event_payouts(flights, buy_in=100, day2_players=len(day2.seats))
    assert money.entries == 12 and money.pool == 1_200  # re-entries and forfeits count
    assert money.prizes == (600, 360, 240)

    day1 = [[Bust(701, 10_000)], [Bust(1001, 4_000)], [Bust(1201, 9_000)], [Bust(704, 2_000)]]
    day2_busts = [
        [Bust(1401, 18_000), Bust(1301, 6_000)],
        [Bust(1101, 30_000)],
        [Bust(801, 60_000)],
        [Bust(901, 20_000)],
    ]
    result = event_places(day2_entries=[s.entry for s in day2.seats], day2=day2_busts, day1=day1)
    assert [(p.entry, p.place) for p in result.places] == [
        (703, 1),
        (901, 2),
        (801, 3),
        (1101, 4),
        (1401, 5),
        (1301, 6),
    ]
    assert result.unplaced == (701, 704, 1001, 1201)
    finishers = [(p.entry, p.place, p.place_to, 0, 0) for p in result.places]
    prizes = place_prizes(prizes=money.prizes, finishers=finishers)
    assert (prizes[703], prizes[901], prizes[801]) == (600, 360, 240)
    assert sum(prizes.values()) == money.pool


# --------------------------------------------------------------------------- properties


@st.composite
def event_bags(draw_) -> list[Bag]:
    """Bags of up to 6 flights by up to 40 players, each player at most once a flight."""
    flights = draw_(st.integers(1, 6))
    players = draw_(st.integers(1, 40))
    pairs = draw_(st.sets(st.tuples(st.integers(1, players), st.integers(1, flights)), min_size=1))
    bags = []
    for entry, (player, flight) in enumerate(sorted(pairs), start=1000):
        chips = draw_(
            st.sampled_from([1, 25, 5_000, 20_000, 20_000, 150_000]) | st.integers(1, 10**7)
        )
        bags.append(Bag(player, flight, entry, chips, table=0, seat=0))
    return draw_(st.permutations(bags))


@FAST
@given(bags=event_bags(), policy=st.sampled_from([LARGEST, FIRST]))
def test_qualified_and_forfeited_are_all_bags_one_stack_per_player(bags, policy):
    q = qualifiers(bags, policy)
    kept = {b.entry for b in q.qualified}
    lost = {f.bag.entry for f in q.forfeited}
    assert kept.isdisjoint(lost) and kept | lost == {b.entry for b in bags}
    assert len(q.qualified) + len(q.forfeited) == len(bags)
    assert sorted(b.player for b in q.qualified) == sorted({b.player for b in bags})
    assert q.chips_in_play + sum(f.bag.chips for f in q.forfeited) == sum(b.chips for b in bags)
    by_player = {b.player: b for b in q.qualified}
    for f in q.forfeited:
        assert f.kept is by_player[f.bag.player]
    for bag in bags:
        best = by_player[bag.player]
        if policy == LARGEST:
            assert (best.chips, -best.flight) >= (bag.chips, -bag.flight)
        else:
            assert best.flight <= bag.flight


@FAST
@given(
    bags=event_bags(),
    policy=st.sampled_from([LARGEST, FIRST]),
    seats=st.integers(2, 10),
    extra=st.integers(0, 2),
    seed=st.integers(0, 2**32),
)
def test_day2_stacks_are_the_qualified_bags_seated_once_on_balanced_tables(
    bags, policy, seats, extra, seed
):
    q = qualifiers(bags, policy)
    tables = _tables(len(q.qualified), seats=seats, extra=extra)
    day2 = day2_draw(q.qualified, _drawer(tables, seed))
    # Chips conserved: Day 2 starts with exactly the qualified bags' chips, stack for stack.
    assert sorted((s.entry, s.player, s.chips) for s in day2.seats) == sorted(
        (b.entry, b.player, b.chips) for b in q.qualified
    )
    assert day2.chips_in_play == q.chips_in_play
    assert len({s.player for s in day2.seats}) == len(day2.seats)
    assert len({(s.table, s.seat) for s in day2.seats}) == len(day2.seats)
    assert all(1 <= s.seat <= seats for s in day2.seats)
    sizes = Counter(s.table for s in day2.seats)
    counts = [sizes.get(t.number, 0) for t in tables]
    assert max(counts) - min(counts) <= 1


# ---------------------------------------------------------------- RULES 10.5: Day 2's level

KINDS = ("level", "level", "break", "level", "level")


@pytest.mark.parametrize(
    ("stops", "start"),
    [
        ([], 0),  # no flight played: the first level
        ([(0, False)], 0),  # stopped during level 1: level 1 again
        ([(0, True)], 1),  # level 1 played to its end: level 2
        ([(1, True), (0, False)], 3),  # the furthest flight; the break after level 2 skipped
        ([(1, False), (3, True)], 4),
        ([(4, True)], 4),  # past the structure's end: its last level
    ],
)
def test_day2_starts_where_day1_stopped(stops, start):
    assert day2_start(KINDS, stops, "level") == start


def test_day2_start_needs_a_level():
    with pytest.raises(DomainError):
        day2_start(("break",), [], "level")
