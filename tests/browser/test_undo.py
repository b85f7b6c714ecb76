"""Issue 10 in a real browser: bust a player from the dashboard, the Undo button names the
elimination, undo it (the player is back in the seat and the log marks it undone), redo it,
filter the log and open one event's before and after; the users page: add a desk clerk,
issue a token (shown once) and revoke it. Screenshots in artifacts/screenshots/undo-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables.models import Seat
from tests.browser.helpers import log_in as _log_in
from tourney import services
from tourney.models import ApiToken, Entry, Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_bust_undo_redo_and_filter_the_log(page, live_url, director, screenshot):
    t = services.tournament_create(actor=director, name="Undo night", tables=2, seed=5)
    for i in range(8):
        services.entry_register(tournament_id=t.pk, name=f"Player {i}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    seat = Seat.objects.filter(tournament=t, table__number=1).select_related("entry__player")
    seat = seat.order_by("number").first()
    name = seat.entry.player.name
    _log_in(page, live_url, f"/td/{t.pk}/")

    # Bust one player.
    page.fill("input[name=table_1]", "1")
    page.fill("input[name=seat_1]", str(seat.number))
    page.fill("input[name=stack_1]", "5000")
    page.click("#eliminations button:has-text('Bust…')")
    page.locator("#eliminations .confirm-bust", has_text=name).wait_for()
    page.click("#eliminations button:has-text('Confirm 1 out')")
    page.locator("#eliminations .last-hand").wait_for()
    expect(page.locator("#undo-button")).to_contain_text("Out:", timeout=10_000)
    assert Entry.objects.get(pk=seat.entry_id).status == "busted"
    screenshot(page, "undo-before")

    # Undo: the button said what it undoes; the player is back, the log marks it undone.
    page.click("#undo-button")
    expect(page.locator("#redo-button")).to_contain_text("Redo: Out:", timeout=10_000)
    expect(page.locator("#log li.undone", has_text="Out:")).to_have_count(1)
    expect(page.locator("#tables .seat", has_text=name)).to_have_count(1, timeout=10_000)
    assert Entry.objects.get(pk=seat.entry_id).status == "seated"
    screenshot(page, "undo-undone")

    # Redo: the elimination again, the same way.
    page.click("#redo-button")
    expect(page.locator("#redo-button")).to_be_disabled(timeout=10_000)
    expect(page.locator("#undo-button")).to_contain_text("Out:")
    assert Entry.objects.get(pk=seat.entry_id).status == "busted"
    assert Event.objects.filter(tournament=t, kind="elimination", undone=False).count() == 1

    # Filter the log by kind; then open the elimination's before and after.
    page.select_option("#log select[name=kind]", "elimination")
    expect(page.locator("#log li")).to_have_count(2, timeout=10_000)  # the undone one, the redo
    expect(page.locator("#log li", has_text="Entry #")).to_have_count(0)
    screenshot(page, "undo-filtered")
    page.locator("#log li:not(.undone) a.words").first.click()
    page.wait_for_url(re.compile(rf".*/td/{t.pk}/log/\d+/$"))
    expect(page.locator("#log-detail")).to_contain_text(name)
    expect(page.locator("#log-detail td.before", has_text="seated")).to_have_count(1)
    expect(page.locator("#log-detail td.after", has_text="busted")).to_have_count(1)
    screenshot(page, "undo-detail")
    assert page.js_errors == []


def test_users_page_adds_a_clerk_and_issues_and_revokes_a_token(page, live_url, director):
    _log_in(page, live_url, "/td/users/")
    expect(page.locator(".help")).to_contain_text("one card room")
    form = page.locator("#add-user")
    form.locator("input[name=username]").fill("kim")
    form.locator("input[name=password]").fill("desk-pass-9x")
    form.locator("select[name=role]").select_option("desk")
    form.locator("button:has-text('Add user')").click()
    expect(page.locator("[role=status]")).to_contain_text("User kim added.")
    row = page.locator("tr", has_text="kim")
    expect(row.locator("select[name=role]")).to_have_value("desk")
    row.locator("button:has-text('Issue token')").click()
    key = page.locator("#new-token").inner_text()
    assert key.startswith("tny_")
    token = ApiToken.objects.get(user__username="kim")
    assert token.prefix == key[:12]
    page.goto(f"{live_url}/td/users/")
    assert key not in page.content()  # shown once
    page.locator("tr", has_text="kim").locator(
        f"button[aria-label='Revoke {token.prefix}']"
    ).click()
    expect(page.locator("[role=status]")).to_contain_text("revoked")
    token.refresh_from_db()
    assert token.revoked
    expect(page.locator(".account-log li")).to_have_count(3)
    assert page.js_errors == []


def test_rotating_the_display_link_from_the_dashboard_asks_first(page, live_url, director):
    t = services.tournament_create(actor=director, name="Rotate", tables=1, seed=1)
    old = t.display_token
    _log_in(page, live_url, f"/td/{t.pk}/")
    page.click("nav >> text=Rotate display link")
    page.click("button:has-text('Rotate display link…')")
    expect(page.locator("[role=alertdialog]")).to_contain_text("Rotate the display link?")
    t.refresh_from_db()
    assert t.display_token == old  # asked, not done
    page.click("button:has-text('Yes, rotate the display link')")
    expect(page.locator("[role=status]")).to_contain_text("rotated")
    t.refresh_from_db()
    assert t.display_token != old
    expect(page.locator("#display-link")).to_contain_text(t.display_token)
    assert page.js_errors == []
