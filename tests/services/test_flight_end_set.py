"""Changing where a Day 1 flight ends (RULES 10.2): the director plays on past the end (or
stops sooner) until the bags are closed; one action, undone and redone exactly; refusals
change nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from tests.services.test_flights_services import T0, _bag_all, _event, _flights
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Event, Tournament
from tourney.selectors import flights as reads
from tourney.services import flights
from tourney.services.undo import action_redo, action_undo

pytestmark = pytest.mark.django_db


def _ended_at_level_1(director) -> Tournament:
    """A flight whose last level is level 1 (item 0), its 20 minutes played."""
    (t,) = _flights(_event(director, letters=["A"], end_at_players=None, end_at_level=0))
    with time_machine.travel(T0, tick=False):
        for i in range(4):
            services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_announce(tournament_id=t.pk, now=T0 + timedelta(minutes=21))
    t.refresh_from_db()
    assert reads.flight_end_reason(t, now=T0 + timedelta(minutes=21)) == "level"
    return t


def _end(t: Tournament) -> tuple:
    t.refresh_from_db()
    return (t.end_at_level, t.end_at_players)


def test_the_director_plays_on_past_the_flights_end_and_undo_puts_it_back(director):
    t = _ended_at_level_1(director)
    later = T0 + timedelta(minutes=22)
    with time_machine.travel(later, tick=False):
        flights.flight_end_set(
            tournament_id=t.pk, end_at_level=2, end_at_players=None, actor=director
        )
        assert _end(t) == (2, None)
        assert reads.flight_end_reason(t, now=later) is None  # it plays on
        assert reads.flight_line(t, later) == "Day 1A — bagging at the end of level 2"
        services.clock_action(tournament_id=t.pk, action="resume", actor=director)
    t.refresh_from_db()
    assert t.clock_running  # the clock runs on into the break, then level 2
    event = Event.objects.get(tournament=t, kind="flight_end_set")
    assert event.payload["before"] == {"end_at_level": 0, "end_at_players": None}
    with time_machine.travel(later + timedelta(minutes=1), tick=False):
        action_undo(tournament_id=t.pk, actor=director)  # the resume
        action_undo(tournament_id=t.pk, actor=director)  # the new end
        assert _end(t) == (0, None)
        action_redo(tournament_id=t.pk, actor=director)
        assert _end(t) == (2, None)


def test_a_field_size_end_can_be_added_to_a_level_end(director):
    t = _ended_at_level_1(director)
    flights.flight_end_set(tournament_id=t.pk, end_at_level=2, end_at_players=2, actor=director)
    assert _end(t) == (2, 2)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"end_at_level": None, "end_at_players": None}, "no_flight_end"),
        ({"end_at_level": 3, "end_at_players": None}, "bad_last_level"),
        ({"end_at_level": 0, "end_at_players": None}, "unchanged"),
        ({"end_at_level": None, "end_at_players": 0}, "bad_end_players"),
    ],
)
def test_refusals_change_nothing(director, change, code):
    t = _ended_at_level_1(director)
    count = Event.objects.count()
    with pytest.raises(DomainError) as exc:
        flights.flight_end_set(tournament_id=t.pk, actor=director, **change)
    assert exc.value.code == code
    assert _end(t) == (0, None) and Event.objects.count() == count


def test_refused_once_bagged_and_for_a_tournament_of_no_event(director, tournament):
    t = _ended_at_level_1(director)
    with time_machine.travel(T0 + timedelta(minutes=22), tick=False):
        _bag_all(t, director)
        flights.flight_bag_close(tournament_id=t.pk, actor=director)
    with pytest.raises(DomainError) as exc:
        flights.flight_end_set(tournament_id=t.pk, end_at_level=2, end_at_players=None)
    assert exc.value.code == "flight_bagged"
    with pytest.raises(DomainError) as exc:
        flights.flight_end_set(tournament_id=tournament.pk, end_at_level=1, end_at_players=None)
    assert exc.value.code == "not_a_flight"
