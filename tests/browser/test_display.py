"""Issue 9 in a real browser: the countdown ticks, the level rolls over at zero while the
server does not answer, a move shows on the seating board, and the TV layouts at 1366x768,
1920x1080 and 3840x2160 fit without scrollbars (screenshots in artifacts/screenshots/)."""

from __future__ import annotations

import time

import pytest

from tables.models import Seat
from tourney import selectors_public as public
from tourney import services
from tourney.models import Entry, Tournament

from .conftest import RESOLUTIONS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = [
    "Ann",
    "Bob",
    "Carla",
    "Dmitri",
    "Elena",
    "Farid",
    "Grace",
    "Hiro",
    "Ines",
    "Jonas",
    "Kemal",
    "Lucia",
    "Marek",
    "Nadia",
    "Oscar",
    "Priya",
    "Quentin",
    "Rosa",
    "Sven",
    "Tamara",
]
LAST = [
    "Lee",
    "Stone",
    "Okafor",
    "Novak",
    "García",
    "Haddad",
    "Murphy",
    "Tanaka",
    "Silva",
    "Berg",
    "Yilmaz",
    "Romano",
    "Kowalski",
    "Petrova",
    "Lindqvist",
]


def _tournament(director, *, players: int, levels=None, tables: int = 3, names="full"):
    t = services.tournament_create(
        actor=director,
        name="Friday Night Deepstack",
        seats_per_table=9,
        tables=tables,
        starting_stack=20000,
        buy_in=5000,
        fee=500,
        seed=11,
        levels=levels,
    )
    Tournament.objects.filter(pk=t.pk).update(public_names=names)
    for i in range(players):
        name = f"{FIRST[i % len(FIRST)]} {LAST[(i * 7 + i // len(FIRST)) % len(LAST)]}"
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    t.refresh_from_db()
    return t


def _seconds(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    total = 0
    for p in parts:
        total = total * 60 + p
    return total


def _no_scrollbars(page) -> bool:
    return page.evaluate(
        "() => { const d = document.documentElement;"
        " return d.scrollWidth <= innerWidth && d.scrollHeight <= innerHeight; }"
    )


def test_the_countdown_ticks(page, live_url, director):
    t = _tournament(director, players=12)
    services.clock_action(tournament_id=t.pk, action="start")
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock")
    first = _seconds(page.text_content("#countdown"))
    page.wait_for_timeout(2300)
    second = _seconds(page.text_content("#countdown"))
    assert 19 * 60 <= first <= 20 * 60
    assert first - second in (2, 3)
    assert page.text_content("#level-title") == "Level 1"
    assert page.js_errors == []


def test_the_level_switches_at_zero_with_the_server_silent(page, live_url, director):
    levels = [
        {"kind": "level", "small_blind": 100, "big_blind": 200, "ante": 0, "seconds": 6},
        {"kind": "level", "small_blind": 200, "big_blind": 400, "ante": 50, "seconds": 60},
        {"kind": "break", "seconds": 600, "color_up": [25]},
    ]
    t = _tournament(director, players=6, levels=levels, tables=1)
    # The server stops answering polls: the browser must roll over by itself.
    page.route("**/state.json", lambda route: route.abort())
    services.clock_action(tournament_id=t.pk, action="start")
    t.refresh_from_db()
    boundary_ms = public._epoch_ms(t.clock_at) + 6000
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock")
    assert page.text_content("#blinds") == "100 / 200"
    assert page.get_attribute("body", "data-level-index") == "0"
    page.wait_for_function("() => document.body.dataset.levelIndex === '1'", timeout=10_000)
    switched_ms = int(page.get_attribute("body", "data-switched-at"))
    assert -50 <= switched_ms - boundary_ms < 1000, switched_ms - boundary_ms
    assert page.text_content("#level-title") == "Level 2"
    assert page.text_content("#blinds") == "200 / 400"
    assert page.text_content("#ante") == "Ante 50"
    assert 58 <= _seconds(page.text_content("#countdown")) <= 60
    assert page.get_attribute("body", "data-last-chime") == "level"
    assert page.text_content("#next-level") == "Break · 10:00"
    assert page.js_errors == []


def test_a_move_appears_on_the_seating_board(page, live_url, director):
    t = _tournament(director, players=20)
    page.goto(f"{live_url}/display/{t.display_token}/?view=seating&page=600")
    page.wait_for_selector("#seating-board .seat-row")
    assert page.locator("#seating-board .seat-row").count() == 20
    assert page.locator(".seat-row.moved").count() == 0

    by_table: dict[int, list[int]] = {}
    for entry_id, number in Seat.objects.filter(tournament=t).values_list(
        "entry_id", "table__number"
    ):
        by_table.setdefault(number, []).append(entry_id)
    shortest = min(by_table.values(), key=len)
    result = services.elimination_record(
        tournament_id=t.pk, busts=[(shortest[0], 5000), (shortest[1], 6000)], actor=director
    )
    moved = result["moves"][-1]
    name = Entry.objects.select_related("player").get(pk=moved["entry"]).player.name
    seat = Seat.objects.select_related("table").get(entry_id=moved["entry"])

    page.wait_for_selector(".seat-row.moved", timeout=6000)
    row = page.locator(".seat-row.moved", has_text=name).first
    assert row.locator(".tbl").text_content() == str(seat.table.number)
    assert row.locator(".st").text_content() == str(seat.number)
    assert page.locator("#seating-board .seat-row").count() == 18
    assert name in page.text_content("#moves")
    assert page.js_errors == []


@pytest.mark.parametrize("resolution", list(RESOLUTIONS))
def test_tv_layouts_fit_without_scrollbars(page, live_url, director, screenshot, resolution):
    width, height = RESOLUTIONS[resolution]
    t = _tournament(director, players=60, tables=7)
    services.clock_action(tournament_id=t.pk, action="start")
    services.clock_action(tournament_id=t.pk, action="jump", index=4)
    by_table: dict[int, list[int]] = {}
    for entry_id, number in Seat.objects.filter(tournament=t).values_list(
        "entry_id", "table__number"
    ):
        by_table.setdefault(number, []).append(entry_id)
    shortest = min(by_table.values(), key=len)
    services.elimination_record(
        tournament_id=t.pk, busts=[(shortest[0], 5000), (shortest[1], 6000)], actor=director
    )
    page.set_viewport_size({"width": width, "height": height})
    base = f"{live_url}/display/{t.display_token}/"

    page.goto(base + "?view=clock")
    page.wait_for_timeout(300)
    assert _no_scrollbars(page)
    box = page.locator("#countdown").bounding_box()
    assert box["height"] > 0.2 * height  # readable across the room
    for sel in ("#countdown", "#blinds", "#next-level", ".clock-side"):
        fits = page.evaluate(
            "s => { const e = document.querySelector(s); const r = e.getBoundingClientRect();"
            " return e.scrollWidth <= e.clientWidth + 1 && r.right <= innerWidth"
            " && r.bottom <= innerHeight; }",
            sel,
        )
        assert fits, sel
    screenshot(page, f"display-clock-{resolution}")

    page.goto(base + "?view=seating&page=600")
    page.wait_for_selector("#seating-board .seat-row")
    assert _no_scrollbars(page)
    inside = page.evaluate(
        "() => { const b = document.getElementById('seating-board').getBoundingClientRect();"
        " return [...document.querySelectorAll('#seating-board .seat-row')].every(r => {"
        " const x = r.getBoundingClientRect(); return x.bottom <= b.bottom + 1"
        " && x.right <= b.right + 1; }); }"
    )
    assert inside
    shown = page.locator("#seating-board .seat-row").count()
    pages = page.text_content("#seating-page")
    assert shown == 58 or (pages.startswith("Page 1 of") and shown < 58)
    screenshot(page, f"display-seating-{resolution}")

    services.clock_action(tournament_id=t.pk, action="jump", index=5)  # the color-up break
    public.forget_version(t.display_token)
    page.goto(base + "?view=clock")
    page.wait_for_selector("#color-up:not([hidden])")
    assert _no_scrollbars(page)
    screenshot(page, f"display-break-{resolution}")
    assert page.js_errors == []


def test_phone_page_finds_my_seat(page, live_url, director, screenshot):
    t = _tournament(director, players=20, names="initial")
    services.clock_action(tournament_id=t.pk, action="start")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{t.display_token}/")
    # Names show as "Ann L.": the surname alone confirms nothing ...
    page.fill("#find-name", "Lee")
    page.click("#find-form button")
    page.wait_for_selector(".find-error")
    assert page.locator(".seat-card").count() == 0
    # ... the whole full name finds the seat, shown under the public name only.
    entry = Entry.objects.select_related("player").filter(player__name__endswith=" Lee").first()
    page.fill("#find-name", entry.player.name)
    page.click("#find-form button")
    page.wait_for_selector(".seat-card")
    seat = Seat.objects.select_related("table").get(entry=entry)
    card = page.locator(".seat-card", has_text=entry.player.name.split()[0] + " L.").first
    assert card.locator(".tbl").text_content() == str(seat.table.number)
    assert card.locator(".st").text_content() == str(seat.number)
    assert "name=" + entry.player.name.split()[0] in page.url
    assert " Lee" not in page.text_content("#find-results")
    time.sleep(0.2)
    screenshot(page, "player-phone-390x844")
    assert page.js_errors == []
