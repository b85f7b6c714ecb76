"""Issue 28 in a real browser: at the Main Event's desk the "Other events" panel shows the
Turbo with its seats and price; once the Turbo is full (two seats, no new tables) a known
player joins its waiting list from the Main Event's desk, and the Turbo's own desk lists them
among its alternates. Screenshots at 1366x768 and 1920x1080."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tourney import services
from tourney.models import Entry

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _event(director, name, *, seats=9, tables=1, auto=True, **options):
    return services.tournament_create(
        actor=director,
        name=name,
        seats_per_table=seats,
        tables=tables,
        buy_in=5000,
        fee=500,
        seed=5,
        options={"auto_open_tables": auto, **options},
    )


def test_a_player_joins_another_events_waiting_list_from_this_desk(
    page, live_url, director, desk_clerk, screenshot
):
    past = _event(director, "Last Friday")
    services.entry_register(tournament_id=past.pk, name="Ann Lee", actor=director)
    main = _event(director, "Main Event", tables=3, late_reg_until=5)
    for name in ("Grace Murphy", "Hiro Tanaka", "Ines Silva"):
        services.entry_register(tournament_id=main.pk, name=name, actor=director)
    soon = timezone.now() + timedelta(minutes=90)
    turbo = _event(director, "Turbo 55", seats=2, auto=False, starts_at=soon)
    services.entry_register(tournament_id=turbo.pk, name="Bea One", actor=director)
    _event(director, "Deepstack 200", tables=4, starts_at=soon + timedelta(hours=3))

    desk = f"/desk/{main.pk}/"
    log_in(page, live_url, desk, user="clerk", password="clerk-pass-123")
    row = page.locator(f"#desk-events .ev[data-event='{turbo.pk}']")
    assert row.locator("[data-testid=ev-seats]").inner_text() == "1 seat left"
    assert row.locator("[data-testid=ev-price]").inner_text().startswith("55.00")
    assert row.locator("[data-testid=ev-registration]").inner_text() == "registration open"
    assert page.locator("#desk-events .ev").count() == 3  # not the Main Event itself

    # The turbo fills up; the panel refreshes with the desk's next change (here: a reload).
    services.entry_register(tournament_id=turbo.pk, name="Bea Two", actor=director)
    page.reload()
    assert row.locator("[data-testid=ev-seats]").inner_text() == "full"

    page.locator("#desk-name").type("ann l")
    found = page.locator("#desk-results .opt", has_text="Ann Lee")
    found.wait_for()
    found.locator("a.other-events").click()
    page.locator("[data-testid=events-who]", has_text="Ann Lee").wait_for()
    button = row.locator("button[data-action=waiting_list]")
    assert button.inner_text() == "Join the waiting list · 55.00"
    button.click()
    page.locator("#events-joined").wait_for()
    joined = page.locator("#events-joined").inner_text()
    assert "Ann Lee is on the waiting list of Turbo 55: alternate no. 1 (#3)" in joined
    assert row.locator("[data-testid=ev-place]").inner_text() == "On its waiting list, no. 1"
    ann = Entry.objects.get(tournament=turbo, player__name="Ann Lee")
    assert ann.status == Entry.Status.ALTERNATE
    assert not Entry.objects.filter(tournament=main, player__name="Ann Lee").exists()

    screenshot(page, "desk-other-events-1920x1080")
    page.set_viewport_size({"width": 1366, "height": 768})
    screenshot(page, "desk-other-events-1366x768")

    # One click opens the turbo's desk, whose alternates list shows her.
    row.locator("a.ev-name").click()
    page.wait_for_url(f"{live_url}/desk/{turbo.pk}/")
    alternates = page.locator("#alternates .alts li")
    assert alternates.all_inner_texts() == ["#3 Ann Lee"]
    assert page.locator("[data-testid=seats-free]").inner_text() == "0"
    screenshot(page, "desk-other-events-turbo-1366x768")


def test_a_ticket_holder_registers_with_the_ticket_at_no_charge(
    page, live_url, director, desk_clerk, screenshot
):
    from tourney.models import Tournament
    from tourney.room_models import Ticket

    main = _event(director, "Sunday Main", tables=2)
    sat = _event(director, "Mega Satellite")
    Tournament.objects.filter(pk=sat.pk).update(satellite_target=main, seat_value=5500)
    won = services.entry_register(tournament_id=sat.pk, name="Sam Winner", actor=director)
    ticket = Ticket.objects.create(
        satellite=sat, target=main, entry=won, player=won.player, value=5500
    )
    log_in(page, live_url, f"/desk/{main.pk}/", user="clerk", password="clerk-pass-123")
    page.locator("#desk-name").type("sam w")
    found = page.locator("#desk-results .opt", has_text="Sam Winner")
    found.wait_for()
    note = found.locator("[data-testid=search-ticket]").inner_text()
    assert note == f"Ticket from satellite #{sat.pk} (Mega Satellite)"
    page.set_viewport_size({"width": 1366, "height": 768})
    screenshot(page, "desk-ticket-search-1366x768")
    page.keyboard.press("Enter")  # the ticket's button is the row's first choice
    page.locator("#seat-card .sc-name", has_text="Sam Winner").wait_for()
    paid = page.locator("#seat-card [data-testid=card-paid]").inner_text()
    assert paid == f"Paid by ticket from satellite #{sat.pk}"
    ticket.refresh_from_db()
    entry = Entry.objects.get(tournament=main, player=won.player)
    assert (ticket.status, ticket.used_by_id) == ("used", entry.pk)
    screenshot(page, "desk-ticket-card-1366x768")
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(page, "desk-ticket-card-1920x1080")
