"""Issue 26: the director changes where a Day 1 flight ends (RULES 10.2) from its dashboard:
the clock panel links the form, the level is typed as the clock numbers it (breaks not
counted), refusals show in place with what was typed kept and change nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.services.test_flights_services import _event, _flights
from tourney.models import Event
from tourney.selectors.clock import structure_items

pytestmark = pytest.mark.django_db


def _flight(director):
    (t,) = _flights(_event(director, letters=["A"], end_at_players=None, end_at_level=0))
    return t


def test_the_clock_panel_links_the_form_which_changes_the_end(td, director):
    t = _flight(director)
    url = reverse("tourney-dashboard-flight-end", args=[t.pk])
    assert f'href="{url}"' in td.get(reverse("tourney-dashboard", args=[t.pk])).content.decode()
    page = td.get(url).content.decode()
    assert "Day 1A — bagging at the end of level 1" in page and 'value="1"' in page
    r = td.post(url, {"level": "2", "players": "12"})  # level 2 is item 2, after the break
    assert r.status_code == 302 and r["Location"] == reverse("tourney-dashboard", args=[t.pk])
    t.refresh_from_db()
    assert (t.end_at_level, t.end_at_players) == (2, 12)
    html = td.get(reverse("tourney-dashboard", args=[t.pk])).content.decode()
    assert "bagging at the end of level 2 or at 12 players" in html


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ({"level": "9", "players": ""}, "The structure has no level 9."),
        ({"level": "", "players": ""}, "A flight needs an end"),
        ({"level": "two", "players": ""}, "Last level: give a whole number."),
        ({"level": "1", "players": ""}, "The flight already ends there"),
    ],
)
def test_refusals_show_in_place_and_change_nothing(td, director, typed, shown):
    t = _flight(director)
    count = Event.objects.count()
    r = td.post(reverse("tourney-dashboard-flight-end", args=[t.pk]), typed)
    assert 400 <= r.status_code < 500
    html = r.content.decode()
    assert shown in html and f'value="{typed["level"]}"' in html
    t.refresh_from_db()
    assert (t.end_at_level, t.end_at_players) == (0, None) and Event.objects.count() == count


def test_not_for_a_tournament_of_no_event(td, tournament):
    r = td.get(reverse("tourney-dashboard-flight-end", args=[tournament.pk]))
    assert r.status_code == 404


def test_the_log_says_the_new_end_in_words(td, director):
    from tourney.views.dashboard.reads import _event_words, kind_label

    t = _flight(director)
    td.post(reverse("tourney-dashboard-flight-end", args=[t.pk]), {"level": "2", "players": "12"})
    payload = Event.objects.get(tournament=t, kind="flight_end_set").payload
    items = structure_items(t)
    assert (
        _event_words("flight_end_set", payload, {"items": items})
        == "Flight's end: level 2 or 12 players"
    )
    assert kind_label("flight_end_set") == "Flight's end changed"
