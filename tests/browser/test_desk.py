"""Issue 7 in a real browser: three players registered at the desk by keyboard alone, each
seat card shown (and printable with one key); screenshots of the desk and of a seat card, on
screen and as printed, in artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest

from tables.models import Seat
from tourney import services
from tourney.models import Entry, Player

from .conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _log_in(page, live_url: str, username: str, password: str, next_path: str) -> None:
    page.goto(f"{live_url}/login/?next={next_path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_url}{next_path}")


def _card_matches_seat(page, entry: Entry) -> None:
    seat = Seat.objects.select_related("table").get(entry=entry)
    card = page.locator("#seat-card")
    assert card.get_attribute("data-entry") == str(entry.pk)
    assert card.locator(".sc-name").inner_text() == entry.player.name
    assert card.locator("[data-testid=card-table]").inner_text() == str(seat.table.number)
    assert card.locator("[data-testid=card-seat]").inner_text() == str(seat.number)
    assert card.locator("svg.qr").count() == 1


def test_three_players_registered_by_keyboard_alone(
    page, live_url, director, desk_clerk, screenshot
):
    past = services.tournament_create(actor=director, name="Last Friday", tables=1, seed=2)
    for name in ("Ann Lee", "Annette Berg", "Bobby Newman"):
        services.entry_register(tournament_id=past.pk, name=name, actor=director)
    t = services.tournament_create(
        actor=director,
        name="Friday Night Deepstack",
        seats_per_table=9,
        tables=3,
        starting_stack=20000,
        buy_in=5000,
        fee=500,
        seed=11,
    )
    for name in ("Grace Murphy", "Hiro Tanaka", "Ines Silva", "Jonas Berg", "Kemal Yilmaz"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    desk_path = f"/desk/{t.pk}/"
    _log_in(page, live_url, "clerk", "clerk-pass-123", desk_path)
    kb = page.keyboard

    # 1. A known player: a few letters, the best match is chosen, Enter.
    assert page.evaluate("document.activeElement.id") == "desk-name"
    kb.type("ann l")
    page.locator("#desk-results .opt.active", has_text="Ann Lee").wait_for()
    kb.press("Enter")
    page.locator("#seat-card .sc-name", has_text="Ann Lee").wait_for()
    ann = Entry.objects.get(tournament=t, player__name="Ann Lee")
    assert ann.player.entries.count() == 2  # the known player, not a new one
    _card_matches_seat(page, ann)

    # One key prints the card: Enter on the empty box.
    # (a function so that Playwright does not call the stub while installing it)
    page.evaluate(
        "() => { window.__printed = 0; window.print = () => { window.__printed += 1; }; }"
    )
    assert page.evaluate("document.activeElement.id") == "desk-name"
    kb.press("Enter")
    assert page.evaluate("window.__printed") == 1

    # 2. A new player whose name looks like a known one: Shift+Enter.
    kb.type("Bob New")
    page.locator("#desk-results .opt", has_text="Bobby Newman").wait_for()
    screenshot(page, "desk-typeahead")
    kb.press("Shift+Enter")
    page.locator("#seat-card .sc-name", has_text="Bob New").wait_for()
    bob = Entry.objects.get(tournament=t, player__name="Bob New")
    assert bob.player.entries.count() == 1
    _card_matches_seat(page, bob)

    # 3. A new player typed fast, Enter before the type-ahead has answered.
    kb.type("Carla Okafor", delay=0)
    kb.press("Enter")
    page.locator("#seat-card .sc-name", has_text="Carla Okafor").wait_for()
    carla = Entry.objects.get(tournament=t, player__name="Carla Okafor")
    _card_matches_seat(page, carla)
    assert carla.created_by == desk_clerk

    assert Entry.objects.filter(tournament=t).count() == 8
    page.locator("#desk-side", has_text="Carla Okafor").wait_for()  # the side refreshed
    clerk_row = page.locator("#totals tbody tr", has_text="clerk").inner_text().split()
    assert clerk_row[:2] == ["clerk", "3"]  # the director's five are on their own row
    assert page.locator(".msg.ok").inner_text().startswith("Registered #8 Carla Okafor")
    assert page.evaluate("document.activeElement.id") == "desk-name"  # ready for the next
    assert page.js_errors == []

    page.set_viewport_size({"width": 1366, "height": 768})
    screenshot(page, "desk")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#seat-card").screenshot(path=str(SCREENSHOTS / "desk-seat-card.png"))
    # The print stylesheet's page sizes, as Chromium prints them: one 80 x 150 mm receipt,
    # or one A4 / Letter sheet (``size: auto``: the printer's paper). Before any media
    # emulation: page.pdf prints with the emulated media.
    pages = _pdf_pages(page, "receipt")
    assert len(pages) == 1
    assert pages[0] == pytest.approx((80 * MM, 150 * MM), abs=1)
    pages = _pdf_pages(page, "sheet")
    assert len(pages) == 1
    assert pages[0] in (pytest.approx(A4, abs=1), pytest.approx(LETTER, abs=1))
    page.select_option("#print-format", "receipt")
    page.emulate_media(media="print")
    assert page.locator("#desk-side").is_hidden() and page.locator("#desk-name").is_hidden()
    assert page.locator("#seat-card").is_visible()
    page.locator("#seat-card").screenshot(path=str(SCREENSHOTS / "desk-seat-card-print.png"))
    page.emulate_media(media="screen")


MM = 72 / 25.4  # PDF points per millimetre
A4 = (210 * MM, 297 * MM)
LETTER = (612.0, 792.0)
MEDIA_BOX = re.compile(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]")


def _pdf_pages(page, fmt: str) -> list[tuple[float, float]]:
    """The seat card printed to PDF in the chosen printer format: each page's size in points
    (Chromium writes every page's /MediaBox uncompressed)."""
    page.select_option("#print-format", fmt)
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    (SCREENSHOTS / f"desk-seat-card-{fmt}.pdf").write_bytes(pdf)
    return [
        (float(x1) - float(x0), float(y1) - float(y0)) for x0, y0, x1, y1 in MEDIA_BOX.findall(pdf)
    ]


def test_without_javascript_enter_finds_the_known_player_instead_of_a_new_one(
    browser, live_url, director, desk_clerk
):
    past = services.tournament_create(actor=director, name="Last Friday", tables=1, seed=2)
    known = services.entry_register(tournament_id=past.pk, name="Ann Lee", actor=director)
    t = services.tournament_create(actor=director, name="No Script Night", tables=2, seed=3)
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        _log_in(page, live_url, "clerk", "clerk-pass-123", f"/desk/{t.pk}/")
        page.fill("#desk-name", "Ann Lee")
        page.locator("#desk-name").press("Enter")  # the form's default button: Find
        page.wait_for_url("**find=1**")
        option = page.locator("#desk-results .opt", has_text="Ann Lee").first
        assert option.get_attribute("data-action") == "register"
        assert Player.objects.filter(name="Ann Lee").count() == 1  # nobody was registered
        assert not Entry.objects.filter(tournament=t).exists()
        option.locator("button", has_text="Register").click()
        page.locator("#seat-card .sc-name", has_text="Ann Lee").wait_for()
        entry = Entry.objects.get(tournament=t)
        assert entry.player_id == known.player_id  # the known player, not a second Ann Lee
        assert Player.objects.filter(name="Ann Lee").count() == 1
    finally:
        context.close()


def test_refusal_shows_in_place_and_escape_clears(page, live_url, director, desk_clerk):
    t = services.tournament_create(actor=director, name="Closed Event", tables=1, seed=5)
    t.registration_open = False
    t.save(update_fields=["registration_open"])
    _log_in(page, live_url, "clerk", "clerk-pass-123", f"/desk/{t.pk}/")
    page.keyboard.type("Late Larry")
    page.locator("#desk-results .opt-new").wait_for()
    page.keyboard.press("Enter")
    page.locator(".msg.bad", has_text="Registration is closed.").wait_for()
    assert not Entry.objects.filter(tournament=t).exists()
    assert page.evaluate("document.activeElement.id") == "desk-name"
    page.keyboard.press("Escape")
    assert page.input_value("#desk-name") == ""
    assert page.js_errors == []
