"""Issue 28's day in a real browser: two events run at once (a satellite and its target), a
lobby display shows both clocks ticking, the satellite is played down to its seats and its
deal clicked on the dashboard, and a seat winner registers into the target at its desk with
the ticket, at no charge; the lobby then counts the new player. Screenshots in
artifacts/screenshots/card-room-*.png."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tourney import services
from tourney.models import Entry, Tournament
from tourney.room_models import Ticket
from tourney.services import lobbies

from .helpers import log_in
from .test_display import _seconds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAIN_PLAYERS = [f"Main Player {n}" for n in range(1, 10)]
# Twelve buy-ins of 10.00 into a seat of 55.00: two seats and 10.00 cash (RULES 12.2)
SAT_PLAYERS = [
    "Ann Lee",
    "Bob Stone",
    "Carla Okafor",
    "Dmitri Novak",
    "Elena Garcia",
    "Farid Haddad",
    "Grace Murphy",
    "Hiro Tanaka",
    "Ines Silva",
    "Jonas Berg",
    "Kemal Yilmaz",
    "Lucia Romano",
]


def _running(director, name, players, *, buy_in, fee, **options):
    t = services.tournament_create(
        actor=director, name=name, tables=2, seed=7, buy_in=buy_in, fee=fee, options=options
    )
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    for player in players:
        services.entry_register(tournament_id=t.pk, name=player, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    t.refresh_from_db()
    return t


def _countdowns(page) -> dict[str, int]:
    cards = page.locator(".ev-card")
    out = {}
    for i in range(cards.count()):
        card = cards.nth(i)
        out[card.locator(".ev-name").inner_text()] = _seconds(
            card.locator(".ev-countdown").inner_text()
        )
    return out


def test_two_events_a_lobby_and_a_satellite_seat_registered_with_its_ticket(
    page, browser, live_url, director, screenshot
):
    main = _running(director, "Sunday Main", MAIN_PLAYERS, buy_in=5000, fee=500)
    sat = _running(
        director, "Sunday satellite", SAT_PLAYERS, buy_in=1000, fee=100, satellite_target=main.pk
    )
    lobby = lobbies.lobby_create(name="Card room", actor=director)

    # The lobby's TV: both events, both clocks ticking.
    tv = browser.new_page(viewport={"width": 1920, "height": 1080})
    tv_errors: list[str] = []
    tv.on("pageerror", lambda error: tv_errors.append(str(error)))
    tv.goto(f"{live_url}/lobby/{lobby.token}/")
    expect(tv.locator(".ev-card")).to_have_count(2)
    before = _countdowns(tv)
    assert set(before) == {"Sunday Main", "Sunday satellite"}
    tv.wait_for_timeout(2300)
    after = _countdowns(tv)
    assert all(before[name] - after[name] in (2, 3) for name in before), (before, after)
    main_card = tv.locator(".ev-card", has=tv.locator(".ev-name", has_text="Sunday Main"))
    expect(main_card.locator(".ev-players dd")).to_have_text("9 / 9")
    screenshot(tv, "card-room-lobby-1920x1080")

    # The satellite is played down to its seats: the deal on its dashboard.
    log_in(page, live_url, f"/td/{sat.pk}/")
    panel = page.locator("#money")
    expect(panel.locator(".satellite-line")).to_contain_text("Satellite for Sunday Main")
    while True:
        seated = list(Entry.objects.filter(tournament=sat, status="seated").order_by("number"))
        if len(seated) <= int(panel.locator("#seats-left").inner_text()):
            break
        services.elimination_record(
            tournament_id=sat.pk, busts=[(seated[-1].pk, 1)], actor=director
        )
        page.reload()
    deal = panel.locator("form.satellite-deal")
    deal.locator("input[name=confirm]").check()
    page.once("dialog", lambda dialog: dialog.accept())
    deal.locator("button").click()
    expect(panel.locator("table.tickets tbody tr")).to_have_count(len(seated))
    ticket = Ticket.objects.filter(satellite=sat).order_by("pk").first()
    winner = ticket.player.name

    # The winner at the target's desk: the ticket found with the player, Enter registers.
    page.goto(f"{live_url}/desk/{main.pk}/")
    page.locator("#desk-name").type(winner[:6].lower())
    found = page.locator("#desk-results .opt", has_text=winner)
    expect(found.locator("[data-testid=search-ticket]")).to_have_text(
        f"Ticket from satellite #{sat.pk} (Sunday satellite)"
    )
    page.keyboard.press("Enter")
    card = page.locator("#seat-card")
    expect(card.locator(".sc-name")).to_contain_text(winner)
    expect(card.locator("[data-testid=card-paid]")).to_have_text(
        f"Paid by ticket from satellite #{sat.pk}"
    )
    expect(page.locator("#ticket-entries")).to_contain_text(
        "Of the entries, 1 paid by satellite ticket (55.00): no cash taken for it"
    )
    screenshot(page, "card-room-desk-ticket")
    ticket.refresh_from_db()
    entry = Entry.objects.get(tournament=main, player=ticket.player)
    assert (ticket.status, ticket.used_by_id) == ("used", entry.pk)
    assert entry.paid == main.buy_in and entry.fee_paid == main.fee  # the ticket paid them

    # The lobby counts the new player; the satellite, finished, leaves it.
    expect(main_card.locator(".ev-players dd")).to_have_text("10 / 10", timeout=15000)
    expect(tv.locator(".ev-card")).to_have_count(1, timeout=15000)
    screenshot(tv, "card-room-lobby-after")
    assert page.js_errors == [] and tv_errors == []
    tv.close()
