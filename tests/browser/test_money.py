"""Issue 6 in a real browser: the money panel's deal flow. Three players left; the director
closes registration from the panel (the payouts freeze), types the stacks, reads the ICM and
chip-chop numbers, records the chip chop, and sees each player's agreed amount in the panel and
on the printable results sheet (RULES 8.3). Screenshots in artifacts/screenshots/money-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Seat
from tests.browser.helpers import log_in as _log_in
from tourney import services
from tourney.engine.money_format import money_exact
from tourney.models import Entry, Event
from tourney.selectors import money as money_reads

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STACKS = (20000, 10000, 10000)


def test_director_records_a_chip_chop_deal_from_the_money_panel(
    page, live_url, director, screenshot
):
    t = services.tournament_create(
        actor=director, name="Deal night", tables=1, seed=2, buy_in=10000
    )
    for name in ("Ann Lee", "Bob Marsh", "Carla Diaz", "Dev Patel"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    out = Seat.objects.filter(tournament=t).first()
    services.elimination_record(tournament_id=t.pk, busts=[(out.entry_id, 100)], actor=director)
    left = list(Entry.objects.filter(tournament=t, status="seated").select_related("player"))
    left.sort(key=lambda e: e.number)

    _log_in(page, live_url, f"/td/{t.pk}/")
    panel = page.locator("#money")
    expect(panel).to_contain_text("400.00")  # the pool: 4 x 100.00
    page.once("dialog", lambda dialog: dialog.accept())  # hx-confirm
    panel.locator("button:has-text('Close registration')").click()
    expect(panel.locator("button:has-text('Close registration')")).to_have_count(0)
    assert Event.objects.filter(tournament=t, kind="payouts_frozen").count() == 1

    panel.locator("summary:has-text('Deal')").click()
    for e, stack in zip(left, STACKS, strict=True):
        panel.locator(f"input[name=stack_{e.pk}]").fill(str(stack))
    panel.locator("button:has-text('Show the numbers')").click()
    expect(panel.locator("button:has-text('Record chip chop')")).to_be_visible()
    quote = money_reads.deal_quote(t, {e.pk: s for e, s in zip(left, STACKS, strict=True)})
    for p in quote["players"]:
        expect(panel).to_contain_text(money_exact(p["chip_chop"]))
    screenshot(page, "money-deal-quote")

    # RULES 8.3: with one player not ticked as agreeing, the deal is refused and named.
    for e in left[:-1]:
        panel.locator(f"input[name=agree_{e.pk}]").check()
    panel.locator("button:has-text('Record chip chop')").click()
    expect(page.locator("body")).to_contain_text(f"Not agreed yet: {left[-1].player.name}.")
    assert not Entry.objects.filter(tournament=t, deal_amount__isnull=False).exists()
    panel.locator(f"input[name=agree_{left[-1].pk}]").check()
    panel.locator("button:has-text('Record chip chop')").click()

    expect(panel).to_contain_text("A deal is recorded")
    table = panel.locator("table.deal-amounts")
    for e, p in zip(left, quote["players"], strict=True):
        row = table.locator("tr", has_text=e.player.name)
        expect(row).to_contain_text(money_exact(p["chip_chop"]))
    screenshot(page, "money-deal-recorded")
    recorded = dict(
        Entry.objects.filter(tournament=t, deal_amount__isnull=False).values_list(
            "pk", "deal_amount"
        )
    )
    assert recorded == {p["entry"]: p["chip_chop"] for p in quote["players"]}
    assert sum(recorded.values()) == quote["unpaid"] == money_reads.pool_of(t)

    page.goto(f"{live_url}/td/{t.pk}/results/print/")
    expect(page.locator("h2")).to_have_text("Agreed deal")
    for e, p in zip(left, quote["players"], strict=True):
        expect(page.locator("tr", has_text=e.player.name)).to_contain_text(
            money_exact(p["chip_chop"])
        )
