"""Issue 26 in a real browser (RULES 10.1, 10.3, 10.5, 10.6): a director goes from the home
page to the new multi-day event's form, types the event and its three flights with the
keyboard, creates it with the mouse and lands on the event's page with its flights; the
flights are played and bagged through the services, the page shows the totals, the bags left
behind and the prizes, and Day 2 is built and seated from it. Screenshots in
artifacts/screenshots/event-*.png."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tests.services.test_flights_services import T0, _bag_all, _play
from tourney.models import Entry, MultiDayEvent, Player, Tournament
from tourney.services import flights

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ann Lee",
    "Bob Stone",
    "Carla Okafor",
    "Dmitri Novak",
    "Elena García",
    "Farid Haddad",
    "Grace Murphy",
    "Hiro Tanaka",
    "Ines Silva",
    "Jonas Berg",
    "Kemal Yilmaz",
    "Lucia Romano",
]


def _type_field(page, name: str, text: str) -> None:
    """Focus the field by its label's input and type over what it holds, keys only."""
    page.focus(f"#event-form [name={name}]")
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def _play_and_bag(director, days: list[Tournament]) -> None:
    """Four players of their own in each flight, Ann and Bob in all three (RULES 10.3)."""
    shared = [Player.objects.create(name=n) for n in NAMES[:2]]
    own = iter(NAMES[2:])
    for n, t in enumerate(days):
        players = [Player.objects.create(name=next(own)) for _ in range(3)]
        _play(t, director, [*players, *shared], at=T0 + timedelta(days=n))
        t.refresh_from_db()
        _bag_all(t, director, chips_for=lambda e, n=n: 10000 + 1000 * n + 37 * (e.pk % 7))
        flights.flight_bag_close(tournament_id=t.pk, actor=director)


def test_a_director_creates_an_event_and_builds_its_day2(page, live_url, director, screenshot):
    log_in(page, live_url, "/")
    page.get_by_role("link", name="New multi-day event").click()
    page.wait_for_url(f"{live_url}/td/events/new/")
    _type_field(page, "name", "Winter Main Event")
    page.keyboard.press("Tab")  # on to the tables
    page.keyboard.press("Control+A")
    page.keyboard.type("1")
    _type_field(page, "flights", "A, B, C")
    page.keyboard.press("Tab")
    page.keyboard.type("8")  # the last level, as the clock numbers it
    page.keyboard.press("Tab")
    page.keyboard.type("3")  # or three players left
    screenshot(page, "event-new-form")
    page.get_by_role("button", name="Create event and flights").click()
    page.wait_for_url(re.compile(r"/td/events/\d+/$"))

    event = MultiDayEvent.objects.get()
    days = list(Tournament.objects.filter(multi_day_event=event).order_by("pk"))
    assert [t.flight for t in days] == ["A", "B", "C"]
    assert {(t.end_at_players, t.tables.count()) for t in days} == {(3, 1)}
    assert page.locator("h1").inner_text() == "Winter Main Event"
    rows = page.locator("table.event-flights tbody tr")
    assert rows.count() == 3
    assert rows.nth(1).locator("a").inner_text() == "Winter Main Event Day 1B"
    assert "Waiting for: Day 1A, Day 1B, Day 1C" in page.locator("#day2").inner_text()
    screenshot(page, "event-new-flights")

    _play_and_bag(director, days)
    # no reload: the page refreshes itself while flights play, and stops once all have bagged
    page.wait_for_selector("tr.total >> text=✓ all", timeout=15000)
    assert page.locator("#event-live[hx-trigger]").count() == 0
    total = page.locator("tr.total").inner_text()
    assert "15" in total and "9" in total  # 5 entries a flight, 3 still in each
    assert page.locator("#forfeited tbody tr").count() == 4  # Ann's and Bob's second, third
    assert page.locator(".event-prizes li").count() >= 1
    assert page.locator("input[name=tables]").input_value() == "1"  # 5 players, 9 seats
    screenshot(page, "event-bagged")

    page.locator("input[name=seats]").fill("6")
    page.get_by_role("button", name="Build and seat Day 2").click()
    page.wait_for_selector("text=Day 2 dashboard")
    day2 = Tournament.objects.get(multi_day_event=event, day=2)
    assert Entry.objects.filter(tournament=day2).count() == 5
    assert "5 players" in page.locator("#day2").inner_text()
    screenshot(page, "event-day2")
    page.get_by_role("link", name="Tourney").click()
    page.wait_for_url(f"{live_url}/")
    assert page.locator("#events").inner_text().count("Winter Main Event") == 1
    screenshot(page, "event-home")
    assert page.js_errors == []
