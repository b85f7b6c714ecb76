"""Issue 28 in a real browser: the lobby display shows several events at once at 1920x1080
and 3840x2160 (screenshots in artifacts/screenshots/), each running clock ticking as its own
TV's, a registering event's seats left and price, the pages turning when more events than
fit, and each card's link to the event's seating board."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tourney import services
from tourney.models import Tournament
from tourney.services import lobbies

from .conftest import RESOLUTIONS
from .test_display import _overflows, _seconds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {k: RESOLUTIONS[k] for k in ("1920x1080", "3840x2160")}


def _event(director, name, *, players=12, start=True, starts_at=None, **options):
    t = services.tournament_create(
        actor=director,
        name=name,
        seats_per_table=9,
        tables=3,
        starting_stack=20000,
        buy_in=10000,
        fee=2000,
        seed=5,
    )
    Tournament.objects.filter(pk=t.pk).update(starts_at=starts_at, **options)
    for i in range(players):
        services.entry_register(tournament_id=t.pk, name=f"Player {i + 1}", actor=director)
    if start:
        services.clock_action(tournament_id=t.pk, action="start")
    t.refresh_from_db()
    return t


def _room(director):
    now = timezone.now()
    main = _event(director, "Friday Night Deepstack", players=20, starts_at=now)
    turbo = _event(director, "Turbo Bounty", players=9, starts_at=now)
    services.clock_action(tournament_id=turbo.pk, action="jump", index=2)
    sunday = _event(
        director, "Sunday Major", players=5, start=False, starts_at=now + timedelta(hours=2)
    )
    return main, turbo, sunday


def _bad(page) -> list[str]:
    """What does not fit (test_display's check), but an event's name, which may be cut short
    with an ellipsis as the TV's own name is."""
    return [b for b in _overflows(page) if not b.startswith("h2.ev-name overflows")]


def _countdowns(page) -> dict[str, int]:
    return {
        page.locator(f'.ev-card[data-token="{tok}"] .ev-name').text_content(): _seconds(
            page.locator(f'.ev-card[data-token="{tok}"] .ev-countdown').text_content()
        )
        for tok in page.eval_on_selector_all(
            ".ev-card.is-running", "els => els.map(e => e.dataset.token)"
        )
    }


@pytest.mark.parametrize("resolution", list(SIZES))
def test_the_lobby_shows_every_event_and_ticks(page, live_url, director, screenshot, resolution):
    width, height = SIZES[resolution]
    main, turbo, sunday = _room(director)
    lobby = lobbies.lobby_create(name="Card room", per_page=6, page_seconds=15)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_url}/lobby/{lobby.token}/")
    page.wait_for_selector(".ev-card")
    names = page.locator(".ev-card .ev-name").all_text_contents()
    assert names == ["Friday Night Deepstack", "Turbo Bounty", "Sunday Major"]
    assert page.is_hidden("#lobby-page")  # one page: no indicator

    first = _countdowns(page)
    assert set(first) == {"Friday Night Deepstack", "Turbo Bounty"}
    page.wait_for_timeout(2300)
    second = _countdowns(page)
    for name, left in first.items():
        assert left - second[name] in (2, 3), (name, first, second)

    card = page.locator(f'.ev-card[data-token="{main.display_token}"]')
    assert card.locator(".ev-level").text_content() == "Level 1"
    assert card.locator(".ev-players dd").text_content() == "20 / 20"
    assert card.locator(".ev-avg dd").text_content() == "20,000"
    assert card.locator(".ev-pool dd").text_content() == "2,000"
    turbo_card = page.locator(f'.ev-card[data-token="{turbo.display_token}"]')
    assert turbo_card.locator(".ev-level").text_content() == "Level 3"

    reg = page.locator(f'.ev-card[data-token="{sunday.display_token}"]')
    assert reg.locator(".ev-badge").text_content() == "Registering"
    assert reg.locator(".ev-seats dd").text_content() == str(27 - 5)
    assert reg.locator(".ev-price dd").text_content().startswith("120")
    assert reg.locator(".ev-soon").text_content().startswith("in ")

    # Readable across the room: the countdown a good share of the screen's height.
    box = card.locator(".ev-countdown").bounding_box()
    assert box["height"] > 0.08 * height, box
    name_box = card.locator(".ev-name").bounding_box()
    assert name_box["height"] > 0.025 * height, name_box
    assert not (bad := _bad(page)), bad
    screenshot(page, f"lobby-{resolution}")
    assert page.js_errors == []


def test_the_lobby_clock_agrees_with_the_tv(page, live_url, director, browser):
    main, _, _ = _room(director)
    lobby = lobbies.lobby_create(name="Room", tournament_ids=[main.pk])
    page.goto(f"{live_url}/lobby/{lobby.token}/")
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    try:
        tv.goto(f"{live_url}/display/{main.display_token}/?view=clock")
        page.wait_for_timeout(1200)
        for _ in range(3):
            a = _seconds(page.text_content(".ev-countdown"))
            b = _seconds(tv.text_content("#countdown"))
            assert abs(a - b) <= 1, (a, b)
            page.wait_for_timeout(700)
    finally:
        tv.context.close()


def test_the_pages_turn_and_a_card_leads_to_its_seating_board(page, live_url, director):
    main, turbo, sunday = _room(director)
    lobby = lobbies.lobby_create(name="Room", per_page=1, page_seconds=5)
    page.goto(f"{live_url}/lobby/{lobby.token}/")
    page.wait_for_selector(".ev-card")
    assert page.text_content("#lobby-page") == "1/3"
    assert page.locator(".ev-card").count() == 1
    assert page.text_content(".ev-name") == "Friday Night Deepstack"
    page.wait_for_function("() => document.body.dataset.page === '2'", timeout=7000)
    assert page.text_content("#lobby-page") == "2/3"
    assert page.text_content(".ev-name") == "Turbo Bounty"
    assert not (bad := _bad(page)), bad

    link = page.locator(".ev-link")
    assert link.get_attribute("href") == f"/display/{turbo.display_token}/?view=seating"
    link.click()
    page.wait_for_url(f"**/display/{turbo.display_token}/?view=seating")
    page.wait_for_selector("#seating-board .seat-row")
    assert page.locator("#seating-board .seat-row").count() == 9
    assert page.js_errors == []


def test_a_card_rolls_to_the_next_level_at_zero_with_the_server_silent(page, live_url, director):
    levels = [
        {"kind": "level", "small_blind": 100, "big_blind": 200, "ante": 0, "seconds": 5},
        {"kind": "level", "small_blind": 200, "big_blind": 400, "ante": 50, "seconds": 60},
        {"kind": "break", "seconds": 600, "color_up": [25]},
    ]
    t = services.tournament_create(
        actor=director, name="Fast", tables=1, starting_stack=20000, seed=2, levels=levels
    )
    services.entry_register(tournament_id=t.pk, name="Ann Lee", actor=director)
    lobby = lobbies.lobby_create(name="Room", tournament_ids=[t.pk])
    page.route("**/state.json", lambda route: route.abort())  # RULES 4.3: derived, not told
    services.clock_action(tournament_id=t.pk, action="start")
    page.goto(f"{live_url}/lobby/{lobby.token}/")
    card = page.locator(".ev-card")
    assert card.locator(".ev-blinds").text_content().startswith("100 / 200")
    page.wait_for_function(
        "() => document.querySelector('.ev-card').dataset.levelIndex === '1'", timeout=9000
    )
    assert card.locator(".ev-level").text_content() == "Level 2"
    assert card.locator(".ev-blinds").text_content() == "200 / 400 Ante 50"
    assert 57 <= _seconds(card.locator(".ev-countdown").text_content()) <= 60
    assert card.locator(".ev-break dd").text_content() in ("1:00", "0:59", "0:58", "0:57")
    page.wait_for_selector("#offline:not([hidden])", timeout=8000)  # the polls fail, it says so
    assert page.js_errors == []


def test_the_director_makes_a_lobby_from_the_home_page(page, live_url, director, screenshot):
    from .helpers import log_in

    main, turbo, sunday = _room(director)
    log_in(page, live_url, "/")
    page.click("#lobbies-link")
    page.wait_for_url(f"{live_url}/td/lobbies/")
    form = page.locator("#lobby-new")
    form.locator("input[name=name]").fill("Bar TV")
    form.locator("input[name=per_page]").fill("2")
    form.locator("input[name=page_seconds]").fill("8")
    form.locator("input[name=mode][value=chosen]").check()
    form.locator(f"input[name=tournaments][value='{main.pk}']").check()
    form.locator(f"input[name=tournaments][value='{sunday.pk}']").check()
    form.locator("button[type=submit]").click()
    page.wait_for_selector("#lobbies .lobby-link")
    row = page.locator("#lobbies tbody tr").first
    assert "Friday Night Deepstack · Sunday Major" in row.text_content()
    assert "2 per page · 8 s" in row.text_content()
    screenshot(page, "lobbies-director-1920x1080")
    href = row.locator(".lobby-link").get_attribute("href")
    page.goto(f"{live_url}{href}")
    page.wait_for_selector(".ev-card")
    assert page.locator(".ev-card .ev-name").all_text_contents() == [
        "Friday Night Deepstack",
        "Sunday Major",
    ]
    assert page.js_errors == []
