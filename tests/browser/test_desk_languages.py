"""Issue 29 in a real browser: a clerk whose browser speaks German logs in, registers a player
at the desk by keyboard and prints the seat card, all in German; the card's longer words fit
the 80 mm receipt (nothing overflows its box) and it still prints on one receipt. Screenshots
of the desk and of the card, on screen and as printed, in artifacts/screenshots/ (and /tmp)."""

from __future__ import annotations

import shutil

import pytest

from tables.models import Seat
from tourney import services
from tourney.models import Entry

from .conftest import SCREENSHOTS
from .helpers import log_in
from .test_desk import MM, _pdf_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every element of a box whose text is wider or taller than the box (cut off or spilling out).
OVERFLOWING = """(root) => Array.from(root.querySelectorAll('*'))
  .filter((el) => el.offsetParent !== null && el.tagName.toLowerCase() !== 'svg'
    && !el.closest('svg')
    && (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible'
        || el.getBoundingClientRect().right > root.getBoundingClientRect().right + 1))
  .map((el) => el.className + ': ' + el.textContent.trim().slice(0, 40))"""


def _keep(path, name: str) -> None:
    shutil.copy(path, f"/tmp/{name}.png")


def test_a_german_clerk_registers_and_prints_a_german_seat_card(
    browser, live_url, director, desk_clerk
):
    t = services.tournament_create(
        actor=director,
        name="Freitag Deepstack",
        seats_per_table=9,
        tables=2,
        starting_stack=25000,
        buy_in=5000,
        fee=500,
        seed=11,
        options={"draw_at_registration": True},
    )
    services.entry_register(tournament_id=t.pk, name="Grete Vogel", actor=director)
    context = browser.new_context(locale="de-DE", viewport={"width": 1366, "height": 768})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        desk_path = f"/desk/{t.pk}/"
        page.goto(f"{live_url}/login/?next={desk_path}")
        assert page.locator("h1").inner_text() == "Einloggen"
        log_in(page, live_url, desk_path, user="clerk", password="clerk-pass-123")
        assert page.locator("label[for=desk-name]").inner_text() == "Name des Spielers"

        page.keyboard.type("Friedrich-Wilhelm Schäfer-Hohenberg")
        page.locator("#desk-results .opt-new", has_text="Neuer Spieler").wait_for()
        page.keyboard.press("Enter")
        card = page.locator("#seat-card")
        card.locator(".sc-name", has_text="Schäfer-Hohenberg").wait_for()
        entry = Entry.objects.get(tournament=t, player__name__startswith="Friedrich")
        seat = Seat.objects.select_related("table").get(entry=entry)
        assert (
            page.locator(".msg.ok")
            .inner_text()
            .startswith(
                f"Angemeldet #2 Friedrich-Wilhelm Schäfer-Hohenberg: Tisch {seat.table.number}"
            )
        )
        labels = card.locator(".sc-label").all_inner_texts()
        assert [x.strip().lower() for x in labels] == ["tisch", "platz"]  # CSS may capitalise
        assert "25.000" in card.inner_text() and "Scannen für Uhr" in card.inner_text()
        assert page.locator("#print-card").inner_text().startswith("Karte drucken")
        assert page.locator("#totals h2").inner_text().startswith("Heute an der Kasse")

        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        whole = SCREENSHOTS / "desk-de.png"
        page.screenshot(path=str(whole))
        _keep(whole, "desk-de")
        assert page.locator("#desk-main").evaluate(OVERFLOWING) == []

        # Printed: one 80 mm receipt, and nothing on the card spills out of it.
        pages = _pdf_pages(page, "receipt")
        assert len(pages) == 1 and pages[0] == pytest.approx((80 * MM, 150 * MM), abs=1)
        page.emulate_media(media="print")
        assert card.is_visible() and page.locator("#desk-side").is_hidden()
        printed = SCREENSHOTS / "desk-seat-card-de-print.png"
        card.screenshot(path=str(printed))
        _keep(printed, "desk-seat-card-de-print")
        assert card.evaluate(OVERFLOWING) == []
        page.emulate_media(media="screen")
        assert errors == []
    finally:
        context.close()


def test_the_spanish_desk_fits(browser, live_url, director, desk_clerk):
    """The desk in Spanish (the language chosen in the footer, kept in its cookie): the
    header, the form and the lists with their longer words fit their boxes."""
    t = services.tournament_create(
        actor=director, name="Viernes Deepstack", tables=2, buy_in=5000, fee=500, seed=4
    )
    for name in ("Lucía Gómez", "Javier Fernández"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    try:
        desk_path = f"/desk/{t.pk}/"
        log_in(page, live_url, desk_path, user="clerk", password="clerk-pass-123")
        page.select_option("#language-select", "es")
        page.locator("#language-form button[type=submit]").click()
        page.locator("label[for=desk-name]", has_text="Nombre del jugador").wait_for()
        page.keyboard.type("Lu")
        page.locator("#desk-results .opt", has_text="Lucía Gómez").wait_for()
        assert "Jugador nuevo «Lu»" in page.locator("#desk-results").inner_text()
        shot = SCREENSHOTS / "desk-es.png"
        page.screenshot(path=str(shot))
        _keep(shot, "desk-es")
        assert page.locator("#desk-main").evaluate(OVERFLOWING) == []
        assert page.locator("#desk-side").evaluate(OVERFLOWING) == []
    finally:
        context.close()
