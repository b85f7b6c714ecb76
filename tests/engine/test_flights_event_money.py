"""The money and the places of a multi-day event as a whole (RULES 10.6, 10.7)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tourney.engine.errors import DomainError
from tourney.engine.event_money import (
    MSG_BAD_MONEY,
    MSG_BUSTED_ON_DAY1_AND_DAY2,
    MSG_BUSTED_TWICE,
    MSG_NOT_ON_DAY2,
    MSG_PAID_BELOW_DAY2,
    FlightMoney,
    event_entries,
    event_payouts,
    event_places,
    event_pool,
)
from tourney.engine.flights import MSG_NO_DAY2
from tourney.engine.payouts import place_prizes, prize_pool
from tourney.engine.places import MSG_NO_WINNER, Bust, Place

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _raises(code: str, message: str, call, *args, **kwargs) -> DomainError:
    with pytest.raises(DomainError) as info:
        call(*args, **kwargs)
    assert info.value.code == code
    assert info.value.message == message
    return info.value


# ----------------------------------------------------------------------------- RULES 10.6


def test_event_pool_is_every_flight_with_added_money_and_guarantee_once():
    flights = [FlightMoney(120, rebuys=0, addons=3_000), FlightMoney(80), FlightMoney(45, 500)]
    assert event_entries(flights) == 245
    assert event_pool(flights, buy_in=10_000) == 245 * 10_000 + 3_500
    assert event_pool(flights, buy_in=10_000, added=50_000) == 245 * 10_000 + 53_500
    assert event_pool(flights, buy_in=10_000, guarantee=3_000_000) == 3_000_000
    _raises("bad_amount", MSG_BAD_MONEY, FlightMoney, -1)


def test_event_payouts_are_chosen_by_the_whole_field():
    flights = [FlightMoney(100), FlightMoney(100), FlightMoney(100)]
    money = event_payouts(flights, buy_in=1_000, day2_players=90)
    assert money.entries == 300 and money.pool == 300_000
    assert len(money.prizes) == 45  # 15 % of 300 entries, not of any one flight
    assert sum(money.prizes) == money.pool


def test_paying_more_places_than_day2_players_needs_pay_on_day1():
    flights = [FlightMoney(100), FlightMoney(100)]
    error = _raises(
        "paid_below_day2",
        MSG_PAID_BELOW_DAY2.format(paid=30, players=25),
        event_payouts,
        flights,
        buy_in=1_000,
        day2_players=25,
    )
    assert error.status == 409
    money = event_payouts(flights, buy_in=1_000, day2_players=25, pays_on_day1=True)
    assert len(money.prizes) == 30


# ----------------------------------------------------------------------------- RULES 10.7


def test_day1_busts_have_no_place_unless_the_event_pays_on_day1():
    day1 = [[Bust(1, 5_000)], [Bust(2, 8_000), Bust(3, 4_000)]]
    day2 = [[Bust(10, 9_000)], [Bust(11, 20_000)]]
    result = event_places(day2_entries=[10, 11, 12], day2=day2, day1=day1)
    assert result.places == (Place(12, 1, 1), Place(11, 2, 2), Place(10, 3, 3))
    assert result.unplaced == (1, 2, 3)


def test_pay_on_day1_places_day1_busts_below_day2_in_the_order_played():
    # Flight 1's hand, then flight 2's hand with two busts: the bigger stack finishes higher.
    day1 = [[Bust(1, 5_000)], [Bust(2, 8_000), Bust(3, 4_000)]]
    day2 = [[Bust(10, 9_000)], [Bust(11, 20_000)]]
    result = event_places(day2_entries=[10, 11, 12], day2=day2, day1=day1, pays_on_day1=True)
    assert result.places == (
        Place(12, 1, 1),
        Place(11, 2, 2),
        Place(10, 3, 3),
        Place(2, 4, 4),
        Place(3, 5, 5),
        Place(1, 6, 6),
    )
    assert result.unplaced == ()


def test_day1_busts_with_equal_stacks_tie_across_a_hand():
    day1 = [[Bust(1, 5_000), Bust(2, 5_000)]]
    result = event_places(day2_entries=[10, 11], day1=day1, pays_on_day1=True)
    assert set(result.places) == {Place(1, 3, 4), Place(2, 3, 4)}


def test_event_places_refuse_inconsistent_busts():
    _raises("no_day2", MSG_NO_DAY2, event_places, day2_entries=[])
    _raises("not_on_day2", MSG_NOT_ON_DAY2, event_places, day2_entries=[1, 2], day2=[[Bust(3, 5)]])
    _raises(
        "busted_on_day1_and_day2",
        MSG_BUSTED_ON_DAY1_AND_DAY2,
        event_places,
        day2_entries=[1, 2],
        day1=[[Bust(1, 5)]],
    )
    _raises(
        "busted_twice",
        MSG_BUSTED_TWICE,
        event_places,
        day2_entries=[1, 2, 3],
        day2=[[Bust(1, 5)], [Bust(1, 5)]],
    )
    _raises(
        "no_winner",
        MSG_NO_WINNER,
        event_places,
        day2_entries=[1, 2],
        day2=[[Bust(1, 5), Bust(2, 5)]],
    )


# --------------------------------------------------------------------------- properties


@FAST
@given(
    flights=st.lists(
        st.tuples(st.integers(0, 400), st.integers(0, 10**6), st.integers(0, 10**6)),
        min_size=1,
        max_size=6,
    ),
    buy_in=st.integers(0, 10**6),
    added=st.integers(0, 10**6),
    guarantee=st.integers(0, 10**9),
)
def test_the_money_of_all_flights_is_the_event_pool(flights, buy_in, added, guarantee):
    money = [FlightMoney(e, r, a) for e, r, a in flights]
    each = sum(prize_pool(entries=e, buy_in=buy_in, rebuys=r, addons=a) for e, r, a in flights)
    assert event_pool(money, buy_in=buy_in, added=added) == each + added
    pool = event_pool(money, buy_in=buy_in, added=added, guarantee=guarantee)
    assert pool == max(each + added, guarantee)
    paid = event_payouts(
        money, buy_in=buy_in, added=added, guarantee=guarantee, day2_players=1, pays_on_day1=True
    )
    assert paid.pool == pool and sum(paid.prizes) == pool
    assert paid.entries == sum(e for e, _, _ in flights)


@st.composite
def played_events(draw_):
    """A Day 2 of 2-30 players played to a winner, Day 1 busts of 0-30 entries in hands."""
    starters = list(range(1, draw_(st.integers(2, 30)) + 1))
    stacks = st.sampled_from([1_000, 5_000, 5_000, 20_000])

    def hands(entries: list[int], leave: int) -> list[list[Bust]]:
        order = draw_(st.permutations(entries))
        out, i = [], 0
        while i < len(order) - leave:
            k = draw_(st.integers(1, min(3, len(order) - leave - i)))
            out.append([Bust(e, draw_(stacks)) for e in order[i : i + k]])
            i += k
        return out

    day1_entries = list(range(100, 100 + draw_(st.integers(0, 30))))
    return starters, hands(starters, 1), hands(day1_entries, 0)


@FAST
@given(event=played_events(), pays_on_day1=st.booleans())
def test_every_placed_entry_has_one_place_and_the_places_cover_the_field(event, pays_on_day1):
    starters, day2, day1 = event
    result = event_places(day2_entries=starters, day2=day2, day1=day1, pays_on_day1=pays_on_day1)
    day1_entries = {b.entry for h in day1 for b in h}
    placed = {p.entry for p in result.places}
    assert len(placed) == len(result.places)
    assert placed == set(starters) | (day1_entries if pays_on_day1 else set())
    assert set(result.unplaced) == (set() if pays_on_day1 else day1_entries)
    # Tie groups cover exactly their places, once; together 1..the players placed.
    groups = Counter((p.place, p.place_to) for p in result.places)
    covered = [n for (a, b), size in groups.items() for n in range(a, b + 1)]
    assert all(size == b - a + 1 for (a, b), size in groups.items())
    assert sorted(covered) == list(range(1, len(placed) + 1))
    # Every Day 2 player finishes above every Day 1 bust.
    worst_day2 = max(p.place_to for p in result.places if p.entry in set(starters))
    assert all(p.place > worst_day2 for p in result.places if p.entry in day1_entries)
    # All the prize money goes to the places when they are enough to take it.
    prizes = (500, 300, 200)[: len(placed)]
    finishers = [(p.entry, p.place, p.place_to, 0, 0) for p in result.places]
    assert sum(place_prizes(prizes=prizes, finishers=finishers).values()) == sum(prizes)
