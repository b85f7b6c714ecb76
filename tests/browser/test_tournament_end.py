"""Issue 31 items 3 and 10 in a real browser: a final table with a recorded deal plays to the
end. The TV's payouts show the deal; the director's last bust on the dashboard stops the
clock; the TV (1920x1080) and the phone switch by themselves to the winner and the final
results, deal amounts included; the phone finds a player out with place and prize; the
dashboard offers the results sheet. Screenshots in artifacts/screenshots/end-*.png."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.models import Seat
from tests.browser.helpers import log_in as _log_in
from tourney import services
from tourney.models import Entry, Tournament
from tourney.services import money
from tourney.services.undo import action_undo

from .conftest import RESOLUTIONS
from .test_display import _overflows

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ann Lee",
    "Bob Marsh",
    "Carla Diaz",
    "Gina Hall",
    "Ed Fox",
    "Flo Grey",
    "Hiro Tanaka",
    "Ines Silva",
    "Jonas Berg",
]
DEAL = {"Ann Lee": 33000, "Bob Marsh": 29000, "Carla Diaz": 19000}  # 360 + 270 + 180


def _final_three_with_a_deal(director) -> tuple[Tournament, dict[str, Entry]]:
    """Nine players at 100.00 + 10.00, four paid (40/30/20/10 % of 900.00: 360, 270, 180,
    90); six out, Gina Hall last of them (4th, 90.00); the three left agree a deal."""
    t = services.tournament_create(
        actor=director,
        name="Sunday Final",
        tables=1,
        seats_per_table=9,
        seed=8,
        buy_in=10000,
        fee=1000,
    )
    Tournament.objects.filter(pk=t.pk).update(public_names="full")
    e = {n: services.entry_register(tournament_id=t.pk, name=n, actor=director) for n in NAMES}
    services.registration_close(tournament_id=t.pk, actor=director)
    money.payouts_set(tournament_id=t.pk, percentages=[4000, 3000, 2000, 1000], actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    for n in ("Jonas Berg", "Ines Silva", "Hiro Tanaka", "Flo Grey", "Ed Fox", "Gina Hall"):
        services.elimination_record(tournament_id=t.pk, busts=[(e[n].pk, 100)], actor=director)
    amounts = {e[n].pk: a for n, a in DEAL.items()}
    money.deal_record(
        tournament_id=t.pk, amounts=amounts, method="custom", agreed=list(amounts), actor=director
    )
    t.refresh_from_db()
    return t, e


def test_the_tournament_ends_on_the_tv_the_phone_and_the_dashboard(
    page, browser, live_url, director, screenshot
):
    t, e = _final_three_with_a_deal(director)

    # The TV while the three play on: the deal's amounts lead the payouts.
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock&poll=1")
    rows = page.locator("#payouts li")
    expect(rows.nth(0)).to_have_text("DealAnn Lee330")
    expect(rows.nth(1)).to_have_text("DealBob Marsh290")
    expect(rows.nth(2)).to_have_text("DealCarla Diaz190")
    expect(rows.nth(3)).to_have_text("490")
    screenshot(page, "end-tv-deal-1920x1080")

    phone = browser.new_page(viewport={"width": 390, "height": 844})
    desk = browser.new_page(viewport={"width": 1440, "height": 900})
    try:
        _play_the_end(page, phone, desk, live_url, t, e, director, screenshot)
    finally:  # no page polls the server once the test's database is gone
        phone.close()
        desk.close()


def _play_the_end(page, phone, desk, live_url, t, e, director, screenshot) -> None:
    phone.goto(f"{live_url}/p/{t.display_token}/?poll=1")
    expect(phone.locator("#countdown")).to_be_visible()

    # The director records the last two busts: Carla out in 3rd, then Bob on the dashboard.
    services.elimination_record(
        tournament_id=t.pk, busts=[(e["Carla Diaz"].pk, 100)], actor=director
    )
    bob = Seat.objects.select_related("table").get(entry=e["Bob Marsh"])
    dashboard = reverse("tourney-dashboard", args=[t.pk])
    _log_in(desk, live_url, dashboard)
    desk.fill("input[name=table_1]", str(bob.table.number))
    desk.fill("input[name=seat_1]", str(bob.number))
    desk.fill("input[name=stack_1]", "5000")
    desk.locator(".bust-form button[type=submit]").click()
    desk.locator(".confirm-bust button[type=submit]").click()
    expect(desk.locator("#tournament-over")).to_contain_text("winner Ann Lee", timeout=10_000)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and not t.clock_running

    # The TV switches by itself to the winner and the final results, deal included.
    expect(page.locator("#winner-name")).to_have_text("Ann Lee", timeout=10_000)
    expect(page.locator(".winner-prize")).to_have_text("330.00 deal")
    expect(page.locator("#clock-view")).to_be_hidden()
    expect(page.locator("#badge-final")).to_be_hidden()
    places = page.locator("#results li")
    expect(places.nth(0)).to_have_text("2ndBob Marsh290.00 deal")
    expect(places.nth(1)).to_have_text("3rdCarla Diaz190.00 deal")
    expect(places.nth(2)).to_have_text("4thGina Hall90.00")
    expect(places.nth(3)).to_have_text("5thEd Fox–")
    assert _overflows(page) == []
    screenshot(page, "end-tv-results-1920x1080")
    page.wait_for_timeout(2500)  # polls go on: the results stay, nothing reloads in a loop
    expect(page.locator("#winner-name")).to_have_text("Ann Lee")
    assert page.js_errors == []

    # The phone too, and its search finds a player out with place and prize (item 10).
    expect(phone.locator("#winner-name")).to_have_text("Ann Lee", timeout=15_000)
    expect(phone.locator("#countdown")).to_be_hidden()
    phone.fill("#find-name", "Gina Hall")
    phone.locator("#find-form button[type=submit]").click()
    card = phone.locator("#find-results .seat-card")
    expect(card).to_contain_text("Gina Hall")
    expect(card).to_contain_text("Out in 4th place · 90.00")
    screenshot(phone, "end-phone-results")

    # The dashboard offers the results sheet, deal amounts on it.
    screenshot(desk, "end-dashboard")
    desk.locator("#tournament-over a", has_text="Results sheet").click()
    expect(desk.locator("body")).to_contain_text("Ann Lee")
    expect(desk.locator("body")).to_contain_text("330")
    screenshot(desk, "end-results-sheet")


def _played_to_the_end(director, players: int) -> Tournament:
    """A field of ``players`` on three tables busted one by one to a winner (breaks and
    redraws on the way), the default payouts frozen at registration close."""
    t = services.tournament_create(
        actor=director,
        name="Thursday 27 · Deepstack Turbo",
        tables=3,
        seats_per_table=9,
        seed=27,
        buy_in=10000,
        fee=1000,
    )
    Tournament.objects.filter(pk=t.pk).update(public_names="full")
    first = ["Ann", "Bob", "Carla", "Dmitri", "Elena", "Farid", "Gina", "Hiro", "Ines"]
    last = ["Lee", "Marsh", "Okafor"]
    for i in range(players):
        name = f"{first[i % 9]} {last[i // 9 % 3]}"
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.registration_close(tournament_id=t.pk, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    while True:
        seated = list(Seat.objects.filter(tournament=t).order_by("table__number", "number"))
        if len(seated) < 2:
            break
        services.elimination_record(
            tournament_id=t.pk, busts=[(seated[-1].entry_id, 100)], actor=director
        )
    t.refresh_from_db()
    return t


@pytest.mark.parametrize("size", ["1366x768", "1920x1080", "3840x2160"])
def test_the_results_of_27_players_fit_the_tv(page, live_url, director, screenshot, size):
    t = _played_to_the_end(director, 27)
    assert t.status == Tournament.Status.FINISHED
    width, height = RESOLUTIONS[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_url}/display/{t.display_token}/")
    expect(page.locator("#winner-name")).to_be_visible()
    assert page.locator("#results li").count() == 20  # 2nd to 21st; the sheet has them all
    expect(page.locator(".results-box .payout-more")).to_have_text(
        "Every place: on the results sheet"
    )
    assert _overflows(page) == []
    screenshot(page, f"end-tv-27-{size}")
    assert page.js_errors == []


def test_undoing_the_last_bust_brings_the_clock_back_on_the_tv(page, live_url, director):
    t = _played_to_the_end(director, 6)
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock&poll=1")
    expect(page.locator("#winner-name")).to_be_visible()
    action_undo(tournament_id=t.pk, actor=director)
    expect(page.locator("#countdown")).to_be_visible(timeout=10_000)
    expect(page.locator("#winner-name")).to_have_count(0)
    expect(page.locator("#players-left")).to_have_text("2")
    assert page.js_errors == []
