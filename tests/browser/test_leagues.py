"""Issue 27 in a real browser: a director goes from the home page to the leagues, creates a
league and a season with a formula (a typo refused in place with its column marked, fixed),
adds two finished tournaments and sees the standings; the public standings at 1920x1080 and
on a phone (390 wide); the TV's standings view (taking turns with a finished tournament's
results) and the phone page of a tournament of the season. Screenshots in
artifacts/screenshots/leagues-*.png."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.services.test_leagues import T0, play
from tourney.models import Player, Season, Tournament
from tourney.selectors.standings import season_standings

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
]


def _two_finished(director) -> list[Tournament]:
    players = [Player.objects.create(name=n) for n in NAMES]
    first = play(director, players[:12], name="Thursday #1", at=T0)
    second = play(
        director, players[2:][::-1], name="Thursday #2", at=T0 + timedelta(days=7), seed=9
    )
    return [first, second]


def _new_season(page, live_url) -> None:
    page.goto(f"{live_url}/")
    page.click("#leagues-link")
    page.fill("#league-new input[name=name]", "Thursday League")
    page.keyboard.press("Enter")
    page.wait_for_selector("text=New season")
    page.click("text=New season")
    page.fill("input[name=name]", "Winter 2026")
    page.select_option("select[name=scoring]", "entrants_minus_place")
    page.wait_for_selector("#formula-check >> text=30th → 1")  # the preset on the sample
    page.select_option("select[name=scoring]", "formula")
    page.wait_for_selector("#formula-check >> text=The formula is empty.")
    page.fill("textarea[name=formula]", "sqrt(entrants) / sqrt(plcae) * 10")
    page.click("#check-button")
    page.wait_for_selector("#formula-check >> text=Column 23")


def test_a_director_sets_up_a_season_and_sees_its_standings(page, live_url, director, screenshot):
    tournaments = _two_finished(director)
    log_in(page, live_url, "/")
    _new_season(page, live_url)
    assert "Column 23: unknown name 'plcae'" in page.text_content("#formula-check")
    assert page.text_content("#formula-check .caret").endswith("^")
    screenshot(page, "leagues-formula-check")
    page.fill("input[name=best_n]", "10")
    page.click("button.primary.big")
    page.wait_for_selector("#form-message")
    assert "Column 23" in page.text_content("label:has(textarea[name=formula]) .field-error")
    assert page.input_value("input[name=best_n]") == "10"  # what was typed is kept
    assert Season.objects.count() == 0
    page.fill("textarea[name=formula]", "sqrt(entrants) / sqrt(place) * 10")
    page.click("#check-button")
    page.wait_for_selector("#formula-check .sample")
    assert "1st → 54.77" in page.text_content("#formula-check")
    page.click("button.primary.big")
    page.wait_for_selector("#season-tournaments")
    season = Season.objects.get()
    assert (season.formula, season.best_n) == ("sqrt(entrants) / sqrt(place) * 10", 10)
    for t in tournaments:
        page.select_option("#add-select", str(t.pk))
        page.click("#add-tournament button")
        page.wait_for_selector(f"#season-tournaments >> text={t.name}")
    rows = page.locator("#season-standings tbody tr")
    assert rows.count() == 10
    top = season_standings(season).rows[0]
    assert top.name in rows.first.text_content()
    # two events of 12: Carla won one (sqrt(12) * 10 = 34.64), 10th in the other (10.95)
    assert (top.name, str(top.points)) == ("Carla Okafor", "45.59")
    screenshot(page, "leagues-season")
    page.click("text=Standings >> nth=0")
    page.wait_for_selector(".standings-table")
    assert page.locator(".standings-table tbody tr").count() == 14
    screenshot(page, "leagues-standings")
    page.emulate_media(media="print")
    screenshot(page, "leagues-standings-print")
    assert page.is_hidden(".topbar")
    page.emulate_media(media="screen")
    assert page.js_errors == []


def test_public_standings_across_a_room_and_on_a_phone(page, live_url, director, screenshot):
    from tourney.services import leagues

    league = leagues.league_create(name="Thursday League", actor=director)
    season = leagues.season_create(
        league_id=league.pk, name="Winter 2026", scoring="place_table", attendance_points=5
    )
    for t in _two_finished(director):
        leagues.tournament_season_set(tournament_id=t.pk, season_id=season.pk)
    page.goto(f"{live_url}/standings/{season.public_token}/")
    assert page.locator(".st-list").count() == 2  # 14 players: two columns
    assert page.locator(".st-row:not(.st-labels)").count() == 14
    screenshot(page, "leagues-public-1920")
    assert _overflows(page) == []
    assert "Nadia P." in page.text_content("#standings")
    assert "Nadia Petrova" not in page.content()
    page.set_viewport_size({"width": 390, "height": 844})
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    screenshot(page, "leagues-public-390")
    assert page.js_errors == []


def test_the_tv_and_the_phone_of_a_tournament_in_a_season(page, live_url, director, screenshot):
    from tourney.services import leagues

    league = leagues.league_create(name="Thursday League", actor=director)
    season = leagues.season_create(league_id=league.pk, name="Winter 2026")
    players = [Player.objects.create(name=n) for n in NAMES[:10]]
    done = play(director, players, name="Thursday #1", at=T0)
    leagues.tournament_season_set(tournament_id=done.pk, season_id=season.pk)
    live = play(director, players[::-1], name="Thursday #2", stop_at=6, season=season)
    page.goto(f"{live_url}/display/{live.display_token}/?view=standings")
    page.wait_for_selector("#standings-view:not([hidden])")
    assert page.locator("#standings-list li").count() == 10
    screenshot(page, "leagues-tv-standings")
    overflows = _overflows(page)
    assert overflows == [], overflows
    page.goto(f"{live_url}/display/{live.display_token}/?rotate=5&page=3")
    page.wait_for_selector("#standings-view:not([hidden])", timeout=20000)
    # a finished tournament's TV: its results take turns with the standings
    page.goto(f"{live_url}/display/{done.display_token}/?rotate=5")
    assert page.is_visible("#results-view") and page.is_hidden("#standings-view")
    page.wait_for_selector("#standings-view:not([hidden])", timeout=8000)
    assert page.is_hidden("#results-view")
    screenshot(page, "leagues-tv-finished-standings")
    page.wait_for_selector("#results-view:not([hidden])", timeout=8000)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{live.display_token}/")
    page.wait_for_selector("#p-standings")
    page.locator("#p-standings").scroll_into_view_if_needed()
    screenshot(page, "leagues-phone-standings")
    page.click("#p-standings >> text=The whole standings")
    page.wait_for_url(f"{live_url}/standings/{season.public_token}/")
    assert page.js_errors == []
