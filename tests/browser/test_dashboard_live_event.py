"""Issue 31, the live event's dashboard findings in Chromium: a stack typed "abc" in the deal
form is named next to the stack, with the form open and every stack kept; the moves to
announce come newest batch first, one tick or one "Announced" per batch clears them.
Screenshots in artifacts/screenshots/live-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables import services as table_services
from tables.models import Move, Seat
from tests.browser.helpers import log_in as _log_in
from tourney import services
from tourney.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_bad_stack_is_named_in_the_open_deal_form(page, live_url, director, screenshot):
    t = services.tournament_create(
        actor=director, name="Deal night", tables=1, seed=2, buy_in=10000, starting_stack=20000
    )
    for name in ("Ann Lee", "Bob Marsh", "Carla Diaz", "Dev Patel"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    out = Seat.objects.filter(tournament=t, entry__player__name="Dev Patel").get()
    services.elimination_record(tournament_id=t.pk, busts=[(out.entry_id, 100)], actor=director)
    services.registration_close(tournament_id=t.pk, actor=director)
    left = dict(
        Entry.objects.filter(tournament=t, status="seated").values_list("player__name", "pk")
    )

    _log_in(page, live_url, f"/td/{t.pk}/")
    panel = page.locator("#money")
    panel.locator("summary:has-text('Deal')").click()
    panel.locator(f"input[name=stack_{left['Ann Lee']}]").fill("40000")
    panel.locator(f"input[name=stack_{left['Bob Marsh']}]").fill("abc")
    panel.locator(f"input[name=stack_{left['Carla Diaz']}]").fill("20000")
    panel.locator("button:has-text('Show the numbers')").click()
    expect(panel.locator("form.deal")).to_contain_text("Bob Marsh's stack: give a whole number")
    expect(panel.locator("form.deal")).to_be_visible()  # the section stayed open
    expect(panel.locator(f"input[name=stack_{left['Ann Lee']}]")).to_have_value("40000")
    expect(panel.locator(f"input[name=stack_{left['Bob Marsh']}]")).to_have_value("abc")
    screenshot(page, "live-deal-bad-stack")

    panel.locator(f"input[name=stack_{left['Bob Marsh']}]").fill("19950")
    panel.locator("button:has-text('Show the numbers')").click()
    expect(panel).to_contain_text(
        "The stacks add up to 79,950; 80,000 chips are in play: 50 missing."
    )
    expect(panel.locator("button:has-text('Record ICM deal')")).to_be_visible()
    screenshot(page, "live-deal-warning")


def test_moves_newest_batch_first_cleared_by_announced(page, live_url, director, screenshot):
    t = services.tournament_create(
        actor=director,
        name="Two tables",
        tables=2,
        seats_per_table=6,
        seed=3,
        options={"auto_open_tables": False},
    )
    es = [
        services.entry_register(tournament_id=t.pk, name=f"Guest {n}", actor=director)
        for n in range(1, 7)
    ]
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.elimination_record(tournament_id=t.pk, busts=[(es[0].pk, None)], actor=director)
    seat = Seat.objects.filter(tournament=t).order_by("number").first()
    taken = set(Seat.objects.filter(tournament=t).values_list("number", flat=True))
    free = next(s for s in range(1, 7) if s not in taken)
    table_services.move_manual(
        tournament_id=t.pk, entry_id=seat.entry_id, table_number=1, seat=free, actor=director
    )

    _log_in(page, live_url, f"/td/{t.pk}/")
    panel = page.locator("#moves")
    titles = panel.locator(".batch-title")
    expect(titles).to_have_text(["Moved by the floor", "Redraw to the final table"])
    expect(panel.locator(".move-batch.redraw a:has-text('Redraw sheet')")).to_be_visible()
    screenshot(page, "live-moves-batches")

    # one tick: that move alone
    manual = Move.objects.get(tournament=t, reason="manual")
    panel.locator(f"button.tick[value='{manual.pk}']").click()
    expect(titles).to_have_text(["Redraw to the final table"])
    manual.refresh_from_db()
    assert manual.announced
    assert Move.objects.filter(tournament=t, reason="redraw", announced=False).count() == 5

    # the batch's Announced: every move of it
    panel.locator(".move-batch button.announced").click()
    expect(panel).to_contain_text("Nothing to announce.")
    assert not Move.objects.filter(tournament=t, announced=False).exists()
    assert page.js_errors == []
