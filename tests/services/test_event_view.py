"""The event page's read (RULES 10): each flight's field and bags, what goes to Day 2 and what
is forfeited (10.3), the event's pool (10.6), Day 2 once built."""

from __future__ import annotations

import pytest

from tests.services.test_flights_services import _bag_all, _three_flights
from tourney.engine import event_money
from tourney.models import Entry
from tourney.selectors import flights as reads
from tourney.selectors.event_view import event_summary, events_list
from tourney.services import flights

pytestmark = pytest.mark.django_db


def test_no_such_event_reads_none():
    assert event_summary(999_999) is None


def test_the_event_through_its_flights_to_day2(director):
    event, days, shared = _three_flights(director)
    s = event_summary(event.pk)
    assert [f.letter for f in s.flights] == ["A", "B", "C"]
    assert [f.ended for f in s.flights] == ["players"] * 3  # each played down to 3
    assert [f.players_in for f in s.flights] == [3, 3, 3]
    # A: 6 players + 1 re-entry, B: 6 + 1, C: 5; the pool is every flight's money.
    assert [f.entries for f in s.flights] == [7, 7, 5] and s.entries == 19
    assert s.pool == event_money.event_pool(reads.flight_money(event.pk), buy_in=10000)
    assert s.pool == sum(Entry.objects.filter(tournament__in=days).values_list("paid", flat=True))
    assert not s.all_bagged and s.prizes is None and s.day2 is None and s.day2_players == 0
    chips = {}
    for n, x in enumerate(days):
        x.refresh_from_db()
        chips.update(_bag_all(x, director, chips_for=lambda e, n=n: 1000 * (n + 1) + e.pk))
        flights.flight_bag_close(tournament_id=x.pk, actor=director)
    s = event_summary(event.pk)
    assert s.all_bagged and [f.bags for f in s.flights] == [3, 3, 3]
    assert [f.bagged_chips for f in s.flights] == [
        sum(
            chips[e]
            for e in Entry.objects.filter(tournament=x).values_list("pk", flat=True)
            if e in chips
        )
        for x in days
    ]
    # Shared players bagged in A, B (and C): the largest stack goes on, three bags stay behind.
    assert len(s.forfeited) == 3 and {f.player for f in s.forfeited} == {p.name for p in shared}
    assert all(f.chips <= f.kept_chips and f.message for f in s.forfeited)
    assert s.day2_players == 9 - 3 == sum(f.qualified for f in s.flights)
    assert (
        s.day2_chips
        == sum(f.qualified_chips for f in s.flights)
        == sum(f.bagged_chips for f in s.flights) - sum(f.chips for f in s.forfeited)
    )
    assert s.prizes is not None and sum(s.prizes) == s.pool
    day2 = flights.day2_build(event_id=event.pk, tables=1, seats_per_table=9, actor=director)
    s = event_summary(event.pk)
    assert s.day2.tournament_id == day2.pk
    assert (s.day2.players, s.day2.chips) == (s.day2_players, s.day2_chips)
    assert events_list()[0] == {"id": event.pk, "name": "Main Event", "flights": ["A", "B", "C"]}
