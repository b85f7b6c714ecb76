"""Issue 26 in a real browser: the TV's clock view of a Day 1 flight says where the flight
stops (RULES 10.2), big enough to read across the room and clear of the clock, at 1920x1080
and 1366x768; once the field is down to its number it says the day is over, the clock
stopped (screenshots in artifacts/screenshots/)."""

from __future__ import annotations

import pytest

from tests.browser.test_display import FIRST, LAST, _overflows
from tests.services.test_flights_services import _event, _flights
from tourney import services
from tourney.engine import clock as clock_engine
from tourney.engine.structure import item_number_of
from tourney.models import Entry, Tournament
from tourney.selectors import display as public
from tourney.selectors.clock import structure_items

from .conftest import RESOLUTIONS
from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINE = "Day 1B — bagging at the end of level 12 or at 40 players"
OVER = "Day 1B — the day is over: bag and tag"


def _day_1b(director, players: int = 60) -> Tournament:
    """Day 1B of a two-flight event on the standard structure, ending after level 12 or at 40
    players, its clock running."""
    _, b = _flights(
        _event(
            director,
            name="Winter Main Event",
            letters=["A", "B"],
            levels=None,
            tables=7,
            end_at_players=40,
        )
    )
    items = structure_items(b)
    last = next(
        i
        for i, it in enumerate(items)
        if it.kind == clock_engine.LEVEL and item_number_of(items, clock_engine.LEVEL, i) == 12
    )
    Tournament.objects.filter(pk=b.pk).update(end_at_level=last)
    for i in range(players):
        name = f"{FIRST[i % len(FIRST)]} {LAST[(i * 7 + i // len(FIRST)) % len(LAST)]}"
        services.entry_register(tournament_id=b.pk, name=name, actor=director)
    services.clock_action(tournament_id=b.pk, action="start", actor=director)
    b.refresh_from_db()
    return b


def _readable(page, height: int) -> None:
    """The line is one of the big things on the screen, and clear of the level and clock."""
    size = page.evaluate(
        "() => parseFloat(getComputedStyle(document.getElementById('flight-line')).fontSize)"
    )
    assert size >= 0.034 * height, size  # about the tournament's name, ~37 px at 1080
    line = page.locator("#flight-line").bounding_box()
    for other in ("#level-title", "#countdown"):
        box = page.locator(other).bounding_box()
        assert line["y"] + line["height"] <= box["y"] + 1, other  # above it, not over it
    assert line["height"] <= 0.13 * height  # two lines at most


@pytest.mark.parametrize("resolution", ["1920x1080", "1366x768"])
def test_the_tv_shows_the_flights_line(page, live_url, director, screenshot, resolution):
    width, height = RESOLUTIONS[resolution]
    t = _day_1b(director)
    page.set_viewport_size({"width": width, "height": height})
    base = f"{live_url}/display/{t.display_token}/"

    page.goto(base + "?view=clock")
    page.wait_for_timeout(300)
    assert page.text_content("#flight-line") == LINE
    screenshot(page, f"display-flight-{resolution}")
    assert not (bad := _overflows(page)), bad
    _readable(page, height)
    assert page.locator("#countdown").bounding_box()["height"] > 0.2 * height

    # Paused: the note joins the clock, the blinds and the ante, and all still fit.
    services.clock_action(tournament_id=t.pk, action="pause", actor=director)
    public.forget_version(t.display_token)
    page.wait_for_function("() => document.getElementById('clock-note').textContent === 'Paused'")
    assert not (bad := _overflows(page)), bad
    _readable(page, height)
    services.clock_action(tournament_id=t.pk, action="resume", actor=director)

    # Down to 40 players: the flight ends, its clock stops; the open screen follows the poll.
    services.registration_close(tournament_id=t.pk, actor=director)
    while Entry.objects.filter(tournament=t).exclude(status=Entry.Status.BUSTED).count() > 40:
        first = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).order_by("number")
        services.elimination_record(tournament_id=t.pk, busts=[(first[0].pk, 100)], actor=director)
    public.forget_version(t.display_token)
    page.wait_for_function(
        "line => document.getElementById('flight-line').textContent === line", arg=OVER
    )
    page.wait_for_function("() => document.getElementById('clock-note').textContent === 'Day over'")
    assert "over" in page.get_attribute("#flight-line", "class")
    screenshot(page, f"display-flight-over-{resolution}")
    assert not (bad := _overflows(page)), bad
    _readable(page, height)
    assert page.js_errors == []


def test_the_phone_and_the_dashboard_show_the_flights_line(page, live_url, director, screenshot):
    t = _day_1b(director, players=20)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{t.display_token}/")
    assert page.text_content("#flight-line") == LINE
    line = page.locator("#flight-line").bounding_box()
    assert line["x"] >= 0 and line["x"] + line["width"] <= 390  # wraps, never off the screen
    screenshot(page, "player-flight-390x844")

    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, live_url, f"/td/{t.pk}/")
    assert page.text_content("#clock #flight-line") == LINE
    screenshot(page, "dashboard-flight-1366x768")
    assert page.js_errors == []


def test_the_desk_warns_about_a_player_bagged_in_another_flight(
    page, live_url, director, desk_clerk, screenshot
):
    """RULES 10.3: in the search before buying in, and above the seat card after; the card
    itself (what is printed) does not carry it."""
    from tests.views.test_desk_flight_warning import _bagged_in_a, _largest

    b, ann, chips = _bagged_in_a(director)
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, live_url, f"/desk/{b.pk}/", "clerk", "clerk-pass-123")
    page.keyboard.type("ann l")
    row = page.locator("#desk-results .opt.active", has_text="Ann Lee")
    row.wait_for()
    assert row.locator(".flight-warning").text_content() == _largest(chips)
    screenshot(page, "desk-flight-warning-search")
    page.keyboard.press("Enter")
    page.locator("#seat-card .sc-name", has_text="Ann Lee").wait_for()
    assert page.text_content("#flight-warning") == f"{_largest(chips)} The entry stands."
    assert "already bagged" not in page.text_content("#seat-card")
    assert Entry.objects.filter(tournament=b, player=ann).exists()
    screenshot(page, "desk-flight-warning-card")
    page.emulate_media(media="print")  # only the card is printed
    assert page.locator("#flight-warning").is_hidden()
    assert page.locator("#seat-card").is_visible()
    assert page.js_errors == []
