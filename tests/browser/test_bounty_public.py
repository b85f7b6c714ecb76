"""Issue 25 in a real browser: a progressive knockout registered at the desk (the price in its
parts, the starting bounty on the seat card); a bust moves half the bounty onto the winner's
head, and the TV's seating board and biggest bounties show it without a reload; the phone
page shows a player's own bounty; the bounty panels fit the TV at 1366x768 and 1920x1080.
Screenshots in artifacts/screenshots/bounty-*.png."""

from __future__ import annotations

import pytest

from tourney import services
from tourney.models import Entry, Tournament

from .conftest import SCREENSHOTS
from .helpers import log_in
from .test_desk import MEDIA_BOX, MM
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


def _pko(director, players=NAMES, kind="progressive", **options) -> Tournament:
    """A PKO of 30.00 prize pool + 20.00 bounty + 5.00 fee, two tables."""
    t = services.tournament_create(
        actor=director,
        name="Thursday PKO",
        seats_per_table=9,
        tables=2,
        starting_stack=20000,
        buy_in=3000,
        fee=500,
        seed=11,
        options={"public_names": "full", "bounty_kind": kind, "bounty": 2000, **options},
    )
    for name in players:
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    t.refresh_from_db()
    return t


def _seated(t: Tournament, name: str) -> Entry:
    return Entry.objects.get(tournament=t, player__name=name, status="seated")


def _knock_out(t: Tournament, busted: str, winner: str, director) -> None:
    services.elimination_record(
        tournament_id=t.pk,
        busts=[(_seated(t, busted).pk, 20000)],
        winners=[_seated(t, winner).pk],
        actor=director,
    )


def _receipt_pages(page) -> list[tuple[float, float]]:
    """The seat card printed on the 80 mm receipt: each page's size in points."""
    page.select_option("#print-format", "receipt")
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    (SCREENSHOTS / "bounty-seat-card-receipt.pdf").write_bytes(pdf)
    return [
        (float(x1) - float(x0), float(y1) - float(y0)) for x0, y0, x1, y1 in MEDIA_BOX.findall(pdf)
    ]


def _row(page, name: str):
    return page.locator("#seating-board .seat-row", has_text=name).first


def test_a_pko_at_the_desk_and_on_the_display(page, live_url, director, desk_clerk, screenshot):
    t = _pko(director, players=NAMES[:9], reentries_allowed=1)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)

    # The desk: the price in its parts; a new player's card says the bounty and the parts.
    log_in(page, live_url, f"/desk/{t.pk}/", user="clerk", password="clerk-pass-123")
    price = page.locator("[data-testid=price]")
    assert price.inner_text() == "Price 55.00 = 30.00 prize pool + 20.00 bounty + 5.00 fee"
    page.keyboard.type("Zoe Winter")
    page.locator("#desk-results .opt-new").wait_for()
    page.keyboard.press("Enter")
    card = page.locator("#seat-card")
    card.locator(".sc-name", has_text="Zoe Winter").wait_for()
    assert card.locator("[data-testid=card-starting-bounty]").inner_text() == "20.00"
    assert card.locator("[data-testid=card-parts]").inner_text() == (
        "Paid 55.00 = 30.00 prize pool + 20.00 bounty + 5.00 fee"
    )
    page.locator("[data-testid=bounty-collected]", has_text="200.00").wait_for()
    screenshot(page, "bounty-desk")
    # The bounty lines keep the card on one receipt.
    assert _receipt_pages(page) == [pytest.approx((80 * MM, 150 * MM), abs=1)]
    assert page.js_errors == []

    # The TV's seating board: every head at 20; a knockout puts 30 on the winner's.
    page.goto(f"{live_url}/display/{t.display_token}/?view=seating&page=600")
    page.wait_for_selector("#seating-board .seat-row")
    assert page.locator("#seating-board .seat-row").count() == 10
    assert set(page.locator("#seating-board .bty").all_text_contents()) == {"20"}
    _knock_out(t, "Bob Stone", "Ann Lee", director)
    ann = _row(page, "Ann Lee").locator(".bty")
    ann.filter(has_text="30").wait_for(timeout=6000)
    assert page.locator("#seating-board .seat-row").count() == 9
    assert _row(page, "Carla Okafor").locator(".bty").inner_text() == "20"
    # The bounties line up in one column, the table and seat after them.
    rights = page.evaluate(
        "() => [...document.querySelectorAll('#seating-board .bty')]"
        ".map(e => Math.round(e.getBoundingClientRect().right))"
    )
    assert len(set(rights)) <= 3  # one right edge per board column (3 columns)
    page.wait_for_timeout(300)
    screenshot(page, "bounty-seating")
    assert not (bad := _overflows(page)), bad

    # The clock view: the biggest bounties, growing as the knockouts come.
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock")
    first = page.locator("#bounty-list li").first
    assert first.locator(".who").inner_text() == "Ann Lee"
    assert first.locator(".amount").inner_text() == "30"
    _knock_out(t, "Carla Okafor", "Ann Lee", director)
    _knock_out(t, "Elena García", "Dmitri Novak", director)
    first.locator(".amount", has_text="40").wait_for(timeout=6000)
    rows = page.locator("#bounty-list li")
    rows.nth(1).locator(".who", has_text="Dmitri Novak").wait_for(timeout=6000)
    assert rows.count() == 2
    assert page.locator("#players-left").inner_text() == "7"
    page.wait_for_timeout(300)
    screenshot(page, "bounty-clock")
    assert not (bad := _overflows(page)), bad

    # The phone: my bounty and what I have won.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{t.display_token}/?name=Ann+Lee")
    page.locator(".seat-card .bounty-head", has_text="40").wait_for()
    assert page.locator(".seat-card .bounty-won").inner_text() == "20"
    screenshot(page, "bounty-phone")
    page.locator("#bounties").scroll_into_view_if_needed()
    assert page.locator("#bounties .bounty-list li .who").first.inner_text() == "Ann Lee"
    screenshot(page, "bounty-phone-panel")

    # Back at the desk: Bob re-enters with a new bounty of his own.
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_url}/desk/{t.pk}/")
    bob = page.locator("#desk-side tr", has_text="Bob Stone")
    button = bob.locator("button[data-action=reenter]")
    assert button.inner_text() == "Re-enter\nnew bounty 20.00"
    button.click()
    page.locator("#seat-card .sc-name", has_text="Bob Stone").wait_for()
    assert page.locator("#seat-card .sc-head .sc-label").text_content() == "New bounty"
    assert page.locator("[data-testid=card-starting-bounty]").inner_text() == "20.00"
    assert "A new bounty of 20.00 on their head." in page.inner_text(".flash")
    page.locator("[data-testid=bounty-collected]", has_text="220.00").wait_for()
    screenshot(page, "bounty-desk-reentry")
    assert page.js_errors == []


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_bounty_panels_fit_the_tv(page, live_url, director, screenshot, size):
    names = [f"{n.split()[0]} {last}" for last in ("Lindqvist", "Kowalski") for n in NAMES[:9]]
    t = _pko(director, players=names)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    seated = list(Entry.objects.filter(tournament=t, status="seated").select_related("player"))
    # Six winners, each busting one: six grown heads, five of them shown.
    for k in range(6):
        _knock_out(t, seated[2 * k + 1].player.name, seated[2 * k].player.name, director)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock")
    assert page.locator("#bounty-list li").count() == 5
    page.wait_for_timeout(300)
    assert not (bad := _overflows(page)), bad
    screenshot(page, f"bounty-clock-{size[0]}x{size[1]}")
    page.goto(f"{live_url}/display/{t.display_token}/?view=seating&page=600")
    page.wait_for_selector("#seating-board .bty")
    page.wait_for_timeout(300)
    assert not (bad := _overflows(page)), bad
    screenshot(page, f"bounty-seating-{size[0]}x{size[1]}")
    assert page.js_errors == []


def test_a_mystery_event_shows_its_envelopes(page, live_url, director, screenshot):
    t = _pko(
        director,
        players=NAMES[:8],
        kind="mystery",
        mystery_envelopes={"10000": 1, "2500": 2, "1000": 5, "500": 2},
        mystery_from_players=5,
    )
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock")
    figures = page.locator("#bounty-figures dd").all_text_contents()
    assert figures == ["10", "210"]
    assert page.inner_text("#bounty-note") == "Top envelope 100 · from 5 players left"
    page.wait_for_timeout(300)
    assert not (bad := _overflows(page)), bad
    screenshot(page, "bounty-mystery-clock")
    page.goto(f"{live_url}/display/{t.display_token}/?view=seating&page=600")
    page.wait_for_selector("#seating-board .seat-row")
    assert page.locator("#seating-board .bty").count() == 0
    assert page.js_errors == []


def test_the_final_results_show_the_bounties_won(page, live_url, director, screenshot):
    """RULES 9.8, 9.9: the TV's winner card and places, and the phone's, show the bounties
    each won beside the prize, and fit the TV."""
    t = _pko(director, players=NAMES[:4])
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    for busted in ("Dmitri Novak", "Carla Okafor", "Bob Stone"):
        winner = "Ann Lee" if busted != "Carla Okafor" else "Bob Stone"
        _knock_out(t, busted, winner, director)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{live_url}/display/{t.display_token}/")
    card = page.locator(".winner-bounties")
    assert card.inner_text() == "+ 70.00 in bounties"  # 10 + 15 cash, then her own 45
    assert (
        page.locator("#results li", has_text="Bob Stone").inner_text().endswith("+ 10.00 bounties")
    )
    page.wait_for_timeout(300)
    assert not (bad := _overflows(page)), bad
    screenshot(page, "bounty-final-results-1366x768")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{t.display_token}/")
    assert page.locator(".winner-bounties").inner_text() == "+ 70.00 in bounties"
    screenshot(page, "bounty-final-results-phone")
    assert page.js_errors == []
