"""Issue 31, item 7 in a real browser: the 28th player at three full tables of nine. The desk
says a table was opened and players moved to balance it; the dashboard lists the moves to
announce and the tables are 7/7/7/7. Screenshots: table-opened-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Seat, Table
from tourney import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_28th_player_opens_a_balanced_table_and_the_desk_says_so(
    page, live_url, director, screenshot
):
    t = services.tournament_create(
        actor=director, name="Full House", seats_per_table=9, tables=3, seed=4
    )
    for i in range(27):
        services.entry_register(tournament_id=t.pk, name=f"Player {i + 1:02d}", actor=director)
    page.goto(f"{live_url}/login/?next=/desk/{t.pk}/")
    page.fill("input[name=username]", "td")
    page.fill("input[name=password]", "td-pass-123")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_url}/desk/{t.pk}/")

    page.fill("#desk-name", "Zoe Late")
    page.keyboard.press("Enter")
    page.locator("#seat-card .sc-name", has_text="Zoe Late").wait_for()
    warning = page.locator(".flash .msg.warn")
    expect(warning).to_contain_text("Every seat was taken: table 4 was opened.")
    expect(warning).to_contain_text("6 players moved there to balance the tables")
    screenshot(page, "table-opened-desk")
    sizes = [
        Seat.objects.filter(table=table).count()
        for table in Table.objects.filter(tournament=t).order_by("number")
    ]
    assert sizes == [7, 7, 7, 7]

    page.goto(f"{live_url}/td/{t.pk}/")
    moves = page.locator("#moves")
    expect(moves.locator("li", has_text="→ T4 S")).to_have_count(6)
    screenshot(page, "table-opened-dashboard")
