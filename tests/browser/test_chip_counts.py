"""Issue 26 in a real browser: the director counts a table's chips on the dashboard, keyboard
only (table number, Enter, the chips seat by seat with Tab, Enter), a typo is refused with
what was typed kept, the next table comes up; the TV open on the clock view shows the chip
leaders without anyone touching it, and they fit the screen at 1366x768 and 1920x1080; the
phone page shows a player's own latest count. Screenshots in
artifacts/screenshots/chip-counts-*.png."""

from __future__ import annotations

import pytest

from tables.models import Seat
from tourney import services
from tourney.models import ChipCount, Tournament
from tourney.services.chip_counts import chip_counts_record

from .helpers import log_in
from .test_display import _overflows

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ann Lee",
    "Bob Stone",
    "Carla Okafor",
    "Dmitri Novak",
    "Elena García",
    "Farid Haddad",
    "Grace Murphy",
    "Hiro Tanaka",
    "Ines Silva",
    "Jonas Berg",
    "Kemal Yilmaz",
    "Lucia Romano",
    "Marek Kowalski",
    "Nadia Petrova",
    "Oscar Lindqvist",
    "Priya Shah",
]


def _event(director, **options) -> Tournament:
    t = services.tournament_create(
        actor=director,
        name="Sunday Deep Stack",
        seats_per_table=9,
        tables=2,
        starting_stack=30000,
        buy_in=10000,
        fee=1000,
        seed=26,
        options={"public_names": "full", **options},
    )
    for name in NAMES:
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    t.refresh_from_db()
    return t


def _table(t: Tournament, number: int) -> list[tuple[int, int, str]]:
    return list(
        Seat.objects.filter(tournament=t, table__number=number)
        .order_by("number")
        .values_list("entry_id", "number", "entry__player__name")
    )


def test_a_table_counted_on_the_dashboard_shows_on_the_tv(
    page, live_url, director, browser, screenshot
):
    t = _event(director)
    tv = browser.new_page(viewport={"width": 1920, "height": 1080})
    tv.goto(f"{live_url}/display/{t.display_token}/?view=clock")
    assert tv.locator("#chip-leaders").count() == 0

    log_in(page, live_url, f"/td/{t.pk}/")
    panel = page.locator("#chip-counts")
    panel.locator("input[name=table]").wait_for()
    panel.locator("input[name=table]").fill("1")
    panel.locator("input[name=table]").press("Enter")
    first = panel.locator("input[name^=chips_]").first
    first.wait_for()
    assert first.evaluate("el => el === document.activeElement")  # typed straight in
    seats = _table(t, 1)
    stacks = [61500, 12000, 45250, 30000, 8800, 27400, 39000, 22100]
    typed = [f"{s:,}" for s in stacks[: len(seats)]]
    typed[2] = "45.250"  # a typo
    for i, text in enumerate(typed):
        page.keyboard.type(text)
        page.keyboard.press("Tab" if i < len(typed) - 1 else "Enter")
    error = panel.locator("#cc-error")
    error.wait_for()
    assert f"Seat {seats[2][1]}" in error.text_content()
    assert panel.locator(f"input[name=chips_{seats[0][1]}]").input_value() == "61,500"
    assert not ChipCount.objects.exists()
    screenshot(page, "chip-counts-refused")

    bad = panel.locator(f"input[name=chips_{seats[2][1]}]")
    bad.fill("45250")
    bad.press("Enter")
    panel.locator(".ok", has_text=f"Recorded {len(seats)} counts at table 1").wait_for()
    panel.locator("input[name=table][type=hidden][value='2']").wait_for(state="attached")
    assert ChipCount.objects.count() == len(seats)
    assert panel.locator(".cc-latest li").first.text_content().count("61,500") == 1
    screenshot(page, "chip-counts-dashboard")

    # The TV, open all along, shows the chip leaders by itself (it polls the state).
    tv.locator("#chip-leaders").wait_for(timeout=10000)
    rows = tv.locator("#chip-leader-list li")
    assert rows.count() == 5
    assert "61,500" in rows.first.text_content() and seats[0][2] in rows.first.text_content()
    tv.wait_for_timeout(300)
    screenshot(tv, "chip-counts-tv-1920x1080")
    assert not (bad_fit := _overflows(tv)), bad_fit

    # A new count replaces the player's old one on the TV, without a reload.
    chip_counts_record(tournament_id=t.pk, counts={seats[1][0]: 98000}, actor=director)
    rows.first.locator(".chips", has_text="98,000").wait_for(timeout=10000)
    tv.close()


@pytest.mark.parametrize(
    ("size", "options"),
    [
        ((1366, 768), {}),
        ((3840, 2160), {}),
        ((1366, 768), {"bounty_kind": "progressive", "bounty": 2000}),  # with the bounty panel
    ],
)
def test_the_chip_leaders_fit_the_tv(page, live_url, director, screenshot, size, options):
    t = _event(director, **options)
    seats = _table(t, 1) + _table(t, 2)
    chip_counts_record(
        tournament_id=t.pk,
        counts={e: 60000 - 4000 * i for i, (e, _, _) in enumerate(seats[:9])},
        actor=director,
    )
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock")
    page.locator("#chip-leaders").wait_for()
    page.wait_for_timeout(300)
    screenshot(page, f"chip-counts-tv-{size[0]}x{size[1]}{'-pko' if options else ''}")
    assert not (bad := _overflows(page)), bad


def test_the_phone_shows_my_latest_count(page, live_url, director, screenshot):
    t = _event(director)
    entry, _, name = _table(t, 1)[0]
    chip_counts_record(tournament_id=t.pk, counts={entry: 47300}, actor=director)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{t.display_token}/?name={name.replace(' ', '+')}")
    page.locator(".seat-card .my-chips", has_text="47,300").wait_for()
    screenshot(page, "chip-counts-phone")
    page.locator("#chip-leaders").scroll_into_view_if_needed()
    screenshot(page, "chip-counts-phone-leaders")
