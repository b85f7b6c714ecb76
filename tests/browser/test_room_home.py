"""Issue 28 in a real browser: the director home with two events running at once in a room
with a floor plan. Both rows show their level and blinds, a clock that moves (the rows are
polled every five seconds), players left and their tables (numbers shared by the room, RULES
13.1); the Turbo, a minute from its level's end, shows the alert. Then the room's page lists
the tables in use by event. Screenshots: room-home.png, room-settings.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tourney import services
from tourney.services.room import room_update

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_events_running_on_the_home_with_clocks_players_tables_and_an_alert(
    page, live_url, director, screenshot
):
    room_update(name="Riverside Card Room", floor_plan="1-12", actor=director)
    main = services.tournament_create(actor=director, name="Main Event", tables=3, seed=2)
    turbo = services.tournament_create(actor=director, name="Turbo", tables=2, seed=3)
    for t, n in ((main, 25), (turbo, 14)):
        for i in range(n):
            services.entry_register(tournament_id=t.pk, name=f"{t.name} {i + 1}", actor=director)
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=turbo.pk, action="set", seconds=75, actor=director)

    log_in(page, live_url, "/")
    expect(page.locator("h1")).to_have_text("Riverside Card Room")
    main_row = page.locator(f"#room-row-{main.pk}")
    turbo_row = page.locator(f"#room-row-{turbo.pk}")
    expect(main_row.locator(".r-name")).to_have_text("Main Event")
    expect(main_row.locator(".r-status")).to_have_text("running")
    expect(main_row.locator(".r-level")).to_contain_text("Level 1")
    expect(main_row.locator(".r-players")).to_have_text("25 / 25")
    expect(main_row.locator(".r-tables")).to_have_text("1–3")
    expect(turbo_row.locator(".r-tables")).to_have_text("4, 5")  # RULES 13.1: 1-3 are Main's
    expect(turbo_row.locator(".r-players")).to_have_text("14 / 14")
    expect(turbo_row.locator(".r-alerts")).to_contain_text(re.compile(r"Level ends in 1:\d\d"))

    before = turbo_row.locator(".r-left").inner_text()
    # The rows are polled every five seconds: the clock shown moves on.
    expect(turbo_row.locator(".r-left")).not_to_have_text(before, timeout=12_000)
    expect(main_row.locator(".r-name a")).to_have_attribute("href", f"/td/{main.pk}/")
    screenshot(page, "room-home")

    page.click("#room-link")
    page.wait_for_url(f"{live_url}/td/room/")
    in_use = page.locator("#tables-in-use")
    expect(in_use).to_contain_text("Main Event")
    expect(in_use.locator("tr", has_text="Turbo")).to_contain_text("4, 5")
    expect(page.locator("textarea[name=floor_plan]")).to_have_value("1-12")
    page.fill("textarea[name=floor_plan]", "1-4")
    page.click("#room-form button[type=submit]")
    expect(page.locator("#room-error")).to_contain_text("leaves out table(s) 5")
    screenshot(page, "room-settings")
    assert page.js_errors == []
