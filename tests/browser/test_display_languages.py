"""Issue 29 in a real browser: the TV in German at 1920x1080 (the clock ticks and rolls over
in German words, chips and money in German separators, the bounty panel, the break's color-up
and the seating board in German, nothing cut or past the screen's edge), the phone page in
Spanish finding a seat by its own script, and the lobby in German. Screenshots in
artifacts/screenshots/lang-*.png."""

from __future__ import annotations

import pytest

from tourney import services
from tourney.models import Tournament

from .test_display import FIRST, LAST, _overflows, _seconds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BIG = [  # chips in thousands, so the German grouping shows
    {"kind": "level", "small_blind": 1000, "big_blind": 2000, "big_blind_ante": 2000, "seconds": 5},
    {
        "kind": "level",
        "small_blind": 1500,
        "big_blind": 3000,
        "big_blind_ante": 3000,
        "seconds": 1200,
    },
    {"kind": "break", "seconds": 900, "color_up": [25, 100]},
    {
        "kind": "level",
        "small_blind": 2500,
        "big_blind": 5000,
        "big_blind_ante": 5000,
        "seconds": 1200,
    },
]


def _tournament(director, *, players: int, levels=None, **options) -> Tournament:
    t = services.tournament_create(
        actor=director,
        name="Freitag Deepstack",
        seats_per_table=9,
        tables=3,
        starting_stack=200000,
        buy_in=15000,
        fee=1500,
        seed=11,
        levels=levels or BIG,
        options={"public_names": "full", **options},
    )
    for i in range(players):
        name = f"{FIRST[i % len(FIRST)]} {LAST[(i * 7 + i // len(FIRST)) % len(LAST)]}"
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    t.refresh_from_db()
    return t


def test_the_tv_in_german_ticks_and_fits(page, live_url, director, screenshot):
    t = _tournament(
        director, players=24, bounty_kind="progressive", bounty=5000, bounty_cash_percent=50
    )
    services.clock_action(tournament_id=t.pk, action="start")
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock&lang=de")
    assert page.get_attribute("html", "lang") == "de"
    page.wait_for_function("() => document.body.dataset.levelIndex === '1'", timeout=10_000)
    # Rolled over by the script itself: its words are German, its numbers grouped with ".".
    assert page.text_content("#level-title") == "Level 2"
    assert page.text_content("#blinds") == "1.500 / 3.000"
    assert page.text_content("#ante") == "BB-Ante 3.000"
    assert page.text_content("#next-level") == "Pause · 15:00"
    first = _seconds(page.text_content("#countdown"))
    page.wait_for_timeout(2300)
    assert first - _seconds(page.text_content("#countdown")) in (2, 3)
    assert page.text_content("#average-stack") == "200.000"
    assert page.text_content("#prize-pool") == "3.600"  # 24 × 150
    assert page.text_content(".clock-side .stat dt >> nth=0") == "Spieler"
    assert page.text_content("#bounty-title") == "Höchste Kopfgelder"
    assert "Jedes Kopfgeld startet bei 50" in page.text_content("#bounty-note")
    assert page.text_content(".payouts h2") == "Auszahlungen"
    # The polls keep the language: a poll's answer re-renders in German.
    page.wait_for_function("() => document.body.dataset.stateEtag.endsWith('.de\"')")
    screenshot(page, "lang-de-tv-clock-1920x1080")
    assert not (bad := _overflows(page)), bad
    assert page.js_errors == []

    # The seating board, in German.
    page.goto(f"{live_url}/display/{t.display_token}/?view=seating&page=600&lang=de")
    page.wait_for_selector("#seating-board .seat-row")
    assert page.text_content(".seating-head .tv-name").startswith("Sitzplan")
    assert "24 Spieler" in page.text_content(".seating-meta")
    letter = "() => getComputedStyle(document.querySelector('.seat-row .st'), '::before').content"
    assert page.evaluate(letter) == '"P"'  # Platz
    assert page.text_content(".qr-box figcaption") == "Finde deinen Platzauf dem Handy"
    assert page.text_content("#moves .none") == "Keine Umsetzungen"
    screenshot(page, "lang-de-tv-seating-1920x1080")
    assert not (bad := _overflows(page)), bad
    assert page.js_errors == []


def test_the_break_and_its_color_up_in_german_fit(page, live_url, director, screenshot):
    t = _tournament(director, players=12)
    services.clock_action(tournament_id=t.pk, action="jump", index=2)
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock&lang=de")
    assert page.text_content("#level-title") == "Pause"
    assert page.text_content("#color-up") == (
        "Color-up: Die 25er (green) und 100er (black) gehen aus dem Spiel"
    )
    assert page.text_content("#next-break") == "Jetzt"
    assert page.text_content("#next-level") == "2.500 / 5.000 · BB-Ante 5.000"
    screenshot(page, "lang-de-tv-break-1920x1080")
    assert not (bad := _overflows(page)), bad
    assert page.js_errors == []


def test_the_phone_page_in_spanish_finds_a_seat(page, live_url, director, screenshot):
    t = _tournament(director, players=12)
    services.clock_action(tournament_id=t.pk, action="start")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{t.display_token}/?lang=es")
    assert page.get_attribute("html", "lang") == "es"
    assert page.text_content(".p-find label") == "Buscar mi asiento"
    name = f"{FIRST[0]} {LAST[0]}"
    page.fill("#find-name", name)
    page.click("#find-form button[type=submit]")
    card = page.locator(".seat-card", has_text=name)
    card.wait_for()
    assert card.locator(".seat-big").text_content().startswith("Mesa ")
    assert " Asiento " in card.locator(".seat-big").text_content()
    assert page.text_content(".p-stats .stat dt >> nth=1") == "Stack medio"
    assert page.text_content("#average-stack") == "200\u00a0000"  # Django's Spanish grouping
    assert "lang=es" in page.url and "name=" in page.url
    screenshot(page, "lang-es-phone")
    assert page.js_errors == []


def test_the_lobby_in_german(page, live_url, director, screenshot):
    from tourney.services import lobbies

    running = _tournament(director, players=12)
    services.clock_action(tournament_id=running.pk, action="start")
    later = _tournament(director, players=3)
    lobby = lobbies.lobby_create(name="Casino", tournament_ids=[running.pk, later.pk])
    page.goto(f"{live_url}/lobby/{lobby.token}/?lang=de")
    page.wait_for_selector(".ev-card .ev-badge")
    cards = page.locator(".ev-card")
    assert cards.count() == 2
    assert cards.nth(0).locator(".ev-level").text_content() in ("Level 1", "Level 2")
    assert "Spieler" in cards.nth(0).locator(".ev-players dt").text_content()
    assert cards.nth(1).locator(".ev-badge").text_content() == "Anmeldung offen"
    assert cards.nth(1).locator(".ev-seats dt").text_content() == "Freie Plätze"
    assert cards.nth(0).locator(".ev-link").get_attribute("href").endswith("&lang=de")
    screenshot(page, "lang-de-lobby-1920x1080")
    assert not (bad := _overflows(page)), bad
    assert page.js_errors == []


def test_the_tv_in_spanish_at_a_break_fits(page, live_url, director, screenshot):
    """The longest words: Spanish labels, a mystery bounty panel, the next level's blinds with
    its ante in the footer (its font shrinks until the line is whole, never cut short)."""
    t = _tournament(director, players=24, bounty_kind="mystery", bounty=5000)
    services.clock_action(tournament_id=t.pk, action="jump", index=2)
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock&lang=es")
    assert page.text_content("#level-title") == "Descanso"
    assert page.text_content("#next-level") == "2\u00a0500 / 5\u00a0000 · Ante BB 5\u00a0000"
    assert page.text_content("#bounty-title") == "Bounties misteriosos"
    assert page.text_content("#next-break") == "Ahora"
    screenshot(page, "lang-es-tv-break-1920x1080")
    assert not (bad := _overflows(page)), bad
    page.set_viewport_size({"width": 1366, "height": 768})
    page.wait_for_timeout(200)
    screenshot(page, "lang-es-tv-break-1366x768")
    assert not (bad := _overflows(page)), bad
    assert page.js_errors == []
