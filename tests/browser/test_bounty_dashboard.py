"""Issue 25, bounties on the dashboard in Chromium: a PKO bust at the desk's pace (table, seat,
Enter; the winner's seat key; Enter), the payment to announce with the winner's seat and
table, the bounty in the event log, and undo taking it all back. A bust without a winner is
refused inside the winners' list. Screenshot: /tmp/bounty_dashboard.png and
artifacts/screenshots/bounty-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables.models import Seat
from tests.browser.helpers import log_in as _log_in
from tourney import services
from tourney.models import Entry, Knockout
from tourney.services.bounties import MSG_WINNERS_NEEDED

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Ann Lee", "Bob Marsh", "Carla Diaz", "Dev Patel", "Eve Stone", "Finn Ode")


def _pko(director):
    t = services.tournament_create(
        actor=director,
        name="Thursday PKO",
        tables=1,
        seed=4,
        buy_in=8000,
        fee=1000,
        starting_stack=20000,
        options={"bounty_kind": "progressive", "bounty": 2000},
    )
    for name in NAMES:
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    return t


def _seat(t, name: str) -> Seat:
    return Seat.objects.select_related("table", "entry").get(tournament=t, entry__player__name=name)


def _type_bust(page, seat: Seat) -> None:
    form = page.locator("#eliminations form.bust-form")
    form.locator("input[name=table_1]").fill(str(seat.table.number))
    form.locator("input[name=seat_1]").fill(str(seat.number))
    form.locator("input[name=seat_1]").press("Enter")
    expect(page.locator("#eliminations form.confirm-bust")).to_be_visible()


def test_pko_bust_with_one_key_announced_logged_and_undone(page, live_url, director, screenshot):
    t = _pko(director)
    bob, ann = _seat(t, "Bob Marsh"), _seat(t, "Ann Lee")
    _log_in(page, live_url, f"/td/{t.pk}/")
    panel = page.locator("#eliminations")

    _type_bust(page, bob)
    choices = panel.locator("fieldset.winners input[name=winner]")
    expect(choices).to_have_count(len(NAMES) - 1)
    expect(panel.locator("[data-confirm-bust]")).to_be_focused()
    page.keyboard.press(str(ann.number))  # the winner's seat number ticks Ann
    expect(panel.locator(f"input[name=winner][value='{ann.entry_id}']")).to_be_checked()
    expect(panel.locator("fieldset.winners input[name=winner]:checked")).to_have_count(1)
    page.screenshot(path="/tmp/bounty_dashboard_confirm.png")
    page.keyboard.press("Enter")

    announce = panel.locator("ul.announce.bounties li")
    expect(announce).to_have_count(1)
    expect(announce).to_contain_text(
        f"Pay 10.00 bounty to Ann Lee, seat {ann.number}, table {ann.table.number}; "
        "10.00 more on their head"
    )
    log = page.locator("#log ol.log li").first
    expect(log).to_contain_text("bounty 20.00 to Ann Lee")
    paid = page.locator(
        "#money .bounty-money div", has=page.locator("dt", has_text="Bounties paid")
    )
    expect(paid.locator("dd")).to_have_text("10.00")
    page.screenshot(path="/tmp/bounty_dashboard.png", full_page=True)
    screenshot(page, "bounty-announced")
    ann.entry.refresh_from_db()
    assert (ann.entry.bounty_won, ann.entry.bounty) == (1000, 3000)

    page.locator("#undo-button").click()
    expect(announce).to_have_count(0)
    expect(page.locator("#log ol.log li.undone").first).to_contain_text("bounty 20.00 to Ann Lee")
    expect(paid.locator("dd")).to_have_text("0.00")
    assert not Knockout.objects.filter(tournament=t).exists()
    ann.entry.refresh_from_db()
    assert (ann.entry.bounty_won, ann.entry.bounty) == (0, 2000)
    assert Entry.objects.get(pk=bob.entry_id).status == Entry.Status.SEATED
    assert page.js_errors == []


def test_a_split_pot_by_two_keys_and_a_refusal_without_a_winner(page, live_url, director):
    t = _pko(director)
    bob, ann, eve = _seat(t, "Bob Marsh"), _seat(t, "Ann Lee"), _seat(t, "Eve Stone")
    _log_in(page, live_url, f"/td/{t.pk}/")
    panel = page.locator("#eliminations")

    _type_bust(page, bob)
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.keyboard.press("Enter")  # nobody ticked
    assert info.value.status == 400
    fieldset = panel.locator("fieldset.winners")
    expect(fieldset.locator(".error[role=alert]")).to_contain_text(
        MSG_WINNERS_NEEDED.split(" (RULES")[0]
    )
    expect(panel.locator("form.confirm-bust")).to_be_visible()  # still the confirm step
    expect(page.locator("header.topbar")).to_be_visible()  # the page around it intact
    screenshot_path = "/tmp/bounty_dashboard_refused.png"
    page.screenshot(path=screenshot_path)

    expect(panel.locator("[data-confirm-bust]")).to_be_focused()  # again after the refusal
    for s in (ann, eve):
        page.keyboard.press(str(s.number))
    expect(fieldset.locator("input[name=winner]:checked")).to_have_count(2)
    page.keyboard.press("Enter")
    announce = panel.locator("ul.announce.bounties li")
    expect(announce).to_have_count(2)
    expect(announce.nth(0)).to_contain_text(re.compile(r"Pay 5\.00 bounty to (Ann Lee|Eve Stone)"))
    assert Knockout.objects.filter(tournament=t).count() == 2
    assert page.js_errors == []


def test_escape_cancels_the_confirm_step(page, live_url, director):
    t = _pko(director)
    _log_in(page, live_url, f"/td/{t.pk}/")
    _type_bust(page, _seat(t, "Bob Marsh"))
    page.keyboard.press("Escape")
    expect(page.locator("#eliminations form.bust-form")).to_be_visible()
    expect(page.locator("#eliminations form.confirm-bust")).to_have_count(0)
    assert Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() == len(NAMES)


def test_space_at_the_confirm_step_pauses_the_clock_and_records_nothing(page, live_url, director):
    # The Confirm button has the focus; Space is still the clock's key (dashboard.js), and
    # must not press the focused button as well.
    t = _pko(director)
    _log_in(page, live_url, f"/td/{t.pk}/")
    _type_bust(page, _seat(t, "Bob Marsh"))
    page.keyboard.press(" ")
    expect(page.locator("#clock")).to_have_class(re.compile(r"status-paused"))
    page.wait_for_timeout(300)
    expect(page.locator("#eliminations form.confirm-bust")).to_be_visible()
    assert not Knockout.objects.filter(tournament=t).exists()
    assert Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() == len(NAMES)
