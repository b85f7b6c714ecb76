"""Issue 26: a day of a multi-day event links its event page from the dashboard's tools, and a
Day 1 flight its bag and tag (RULES 10.4); a tournament of no event shows neither."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.services.test_flights_services import _event, _flights

pytestmark = pytest.mark.django_db


def test_a_flights_dashboard_links_its_event_and_its_bags(td, director):
    event = _event(director, letters=["A", "B"])
    b = _flights(event)[1]
    html = td.get(reverse("tourney-dashboard", args=[b.pk])).content.decode()
    assert f'href="{reverse("tourney-event", args=[event.pk])}"' in html
    assert f'href="{reverse("tourney-dashboard-bags", args=[b.pk])}"' in html


def test_a_tournament_of_no_event_has_neither_link(td, tournament):
    html = td.get(reverse("tourney-dashboard", args=[tournament.pk])).content.decode()
    assert "/td/events/" not in html and "/bags/" not in html
