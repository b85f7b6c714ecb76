"""Issue 28 in a real browser: a satellite played down on the director's dashboard (RULES 12).
The money panel says what the satellite pays (2 seats of 55.00 + 10.00 cash to place 3), the
seats won and left; the deal button appears only when the players left equal the seats left,
asks to confirm and ends the satellite with a ticket each; a ticket is refunded with its
reason, which the list and the log then show. Screenshots in
artifacts/screenshots/satellite-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import log_in as _log_in
from tourney import services
from tourney.models import Entry, Tournament
from tourney.room_models import Ticket

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _bust_down_to(t, left, director):
    while True:
        seated = list(Entry.objects.filter(tournament=t, status="seated").order_by("number"))
        if len(seated) <= left:
            return
        services.elimination_record(tournament_id=t.pk, busts=[(seated[-1].pk, 1)], actor=director)


def test_a_satellite_played_down_the_deal_and_a_refund(page, live_url, director, screenshot):
    target = services.tournament_create(
        actor=director, name="Sunday Main", tables=1, seed=3, buy_in=5000, fee=500
    )
    sat = services.tournament_create(
        actor=director,
        name="Sunday satellite",
        tables=2,
        seed=4,
        buy_in=1000,
        fee=100,
        options={"satellite_target": target.pk},
    )
    names = [f"Player {c}" for c in "ABCDEFGHIJKL"]
    for name in names:
        services.entry_register(tournament_id=sat.pk, name=name, actor=director)
    services.clock_action(tournament_id=sat.pk, action="start", actor=director)
    _bust_down_to(sat, 3, director)

    _log_in(page, live_url, f"/td/{sat.pk}/")
    panel = page.locator("#money")
    expect(panel.locator(".satellite-line")).to_contain_text(
        "Satellite for Sunday Main: 2 seats of 55.00 + 10.00 cash to place 3"
    )
    expect(panel.locator("ol.prizes")).to_contain_text("Seat (55.00)")
    expect(panel.locator("#seats-left")).to_have_text("2")
    expect(panel.locator("form.satellite-deal")).to_have_count(0)  # 3 players, 2 seats
    expect(panel).to_contain_text("3 players, 2 seats left")

    _bust_down_to(sat, 2, director)  # 3rd place: the 10.00 cash
    page.reload()
    deal = panel.locator("form.satellite-deal")
    expect(deal.locator("button")).to_have_text("All 2 players take seats")
    screenshot(page, "satellite-deal-offered")
    deal.locator("input[name=confirm]").check()
    page.once("dialog", lambda dialog: dialog.accept())  # hx-confirm
    deal.locator("button").click()
    expect(panel.locator("#seats-won")).to_have_text("2")
    expect(panel.locator("table.tickets tbody tr")).to_have_count(2)
    expect(panel.locator("table.tickets")).to_contain_text("Not used yet")
    sat.refresh_from_db()
    assert sat.status == Tournament.Status.FINISHED and not sat.clock_running
    tickets = list(Ticket.objects.filter(satellite=sat).order_by("pk"))
    assert [t.status for t in tickets] == ["issued", "issued"]

    row = panel.locator(f"#ticket-{tickets[0].pk}")
    row.locator("summary:has-text('Refund')").click()
    row.locator("input[name=reason]").fill("Cannot play on Sunday")
    row.locator("button:has-text('Refund to cash')").click()
    row = panel.locator(f"#ticket-{tickets[0].pk}")
    expect(row).to_contain_text("Refunded")
    expect(row).to_contain_text("Cannot play on Sunday")
    tickets[0].refresh_from_db()
    assert (tickets[0].status, tickets[0].refund_reason) == ("refunded", "Cannot play on Sunday")
    expect(page.locator("#log")).to_contain_text("refunded (55.00): Cannot play on Sunday")
    panel.scroll_into_view_if_needed()
    screenshot(page, "satellite-tickets-refund")
