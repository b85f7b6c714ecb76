"""Issue 29 in a real browser: the TV chimes and speaks. The speech synthesizer and the audio
element are stubbed (``page.add_init_script``) to record what would be said (with its
language) and which chime files would play. "Test sound" chimes and says the test sentence;
a level that starts is said in the display's language; a text announced from the dashboard
is chimed, said once and shown in a banner big enough to read across the room (screenshot
at 1920x1080, artifacts/screenshots/announce-banner-1920x1080.png)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tourney import services
from tourney.models import Tournament

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STUBS = """
window.__spoken = [];
window.__chimes = [];
const synth = {
  speak(u) { window.__spoken.push({ text: u.text, lang: u.lang }); },
  getVoices() { return []; },
  addEventListener() {},
  cancel() {},
};
Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
HTMLMediaElement.prototype.play = function () {
  window.__chimes.push(this.src.split("/").pop());
  return Promise.resolve();
};
"""
LEVELS = [
    {"kind": "level", "small_blind": 100, "big_blind": 200, "ante": 0, "seconds": 600},
    {"kind": "level", "small_blind": 200, "big_blind": 400, "ante": 50, "seconds": 600},
    {"kind": "break", "seconds": 600, "color_up": [25]},
]
LEVEL_2_DE = "Level 2, Blinds 200 – 400, Ante 50."


def _tournament(director) -> Tournament:
    t = services.tournament_create(
        actor=director,
        name="Friday Night Deepstack",
        seats_per_table=9,
        tables=1,
        starting_stack=20000,
        buy_in=5000,
        fee=500,
        seed=11,
        levels=LEVELS,
    )
    Tournament.objects.filter(pk=t.pk).update(language="de")
    for name in ("Ann Lee", "Bob Stone", "Carla Okafor"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    # Started half a minute ago: the page opens well after level 1 began (a page opened
    # within seconds of a start says it, once: not what these tests look at).
    started = timezone.now() - timedelta(seconds=30)
    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=started)
    t.refresh_from_db()
    return t


def _spoken(page) -> list[dict]:
    return page.evaluate("window.__spoken")


def test_the_tv_says_the_test_sentence_the_new_level_and_an_announcement_once(
    page, live_url, director, screenshot
):
    t = _tournament(director)
    page.add_init_script(STUBS)
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock&poll=0.5")
    assert page.text_content("#sound-test") == "Ton testen"
    assert page.get_attribute("body", "data-sound") == "off"

    # "Test sound": the sound turns on (remembered), the chime, then the test sentence.
    page.click("#sound-test")
    page.wait_for_function("() => window.__spoken.length === 1", timeout=5000)
    assert page.evaluate("window.__chimes") == ["chime.wav"]
    assert _spoken(page) == [
        {"text": "Tontest. Diese Anzeige sagt die Levels und die Pausen an.", "lang": "de"}
    ]
    assert page.evaluate("localStorage.getItem('tourney-sound')") == "on"

    # Three seconds before level 1 ends: at zero the display says level 2, in German.
    services.clock_action(tournament_id=t.pk, action="set", seconds=3, actor=director)
    page.wait_for_function("() => document.body.dataset.levelIndex === '1'", timeout=10_000)
    page.wait_for_function("() => window.__spoken.length === 2", timeout=5000)
    assert _spoken(page)[1] == {"text": LEVEL_2_DE, "lang": "de"}
    assert page.evaluate("window.__chimes") == ["chime.wav", "chime.wav"]

    # The director announces a free text on the dashboard (a page of their own).
    desk = page.context.new_page()
    log_in(desk, live_url, f"/td/{t.pk}/")
    desk.wait_for_selector("#announce input[name=text]")
    desk.fill("#announce input[name=text]", "Seat open at table 7")
    desk.click("#announce button[type=submit]")
    desk.wait_for_selector("#announce >> text=Announced: Seat open at table 7")
    assert desk.input_value("#announce input[name=text]") == ""  # the field is cleared
    screenshot(desk, "announce-dashboard-panel")
    desk.goto(f"{live_url}/td/{t.pk}/settings/")
    desk.wait_for_selector("#announce-settings textarea")
    desk.locator("#announce-settings").scroll_into_view_if_needed()
    screenshot(desk, "announce-settings")
    desk.close()

    page.wait_for_selector("#announce-banner:not([hidden])", timeout=10_000)
    assert page.text_content("#announce-text") == "Seat open at table 7"
    page.wait_for_function("() => window.__spoken.length === 3", timeout=5000)
    assert _spoken(page)[2] == {"text": "Seat open at table 7", "lang": "de"}
    assert page.evaluate("window.__chimes")[-1] == "attention.wav"
    screenshot(page, "announce-banner-1920x1080")
    box = page.locator("#announce-text").bounding_box()
    assert box["height"] >= 80  # read across the room
    page.wait_for_timeout(2500)  # several polls later: said once, not again
    assert [s["text"] for s in _spoken(page)].count("Seat open at table 7") == 1

    # A reload says nothing again: not the announcement, not the level.
    page.reload()
    page.wait_for_timeout(2500)
    assert page.evaluate("window.__spoken") == []
    assert page.get_attribute("body", "data-sound") == "on"  # remembered, still allowed here
    assert page.js_errors == []


def test_with_speech_off_the_test_button_only_chimes(page, live_url, director):
    t = _tournament(director)
    Tournament.objects.filter(pk=t.pk).update(announce_speech=False)
    page.add_init_script(STUBS)
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock&lang=es")
    assert page.text_content("#sound-test") == "Probar sonido"
    page.click("#sound-test")
    page.wait_for_timeout(1800)
    assert page.evaluate("window.__chimes") == ["chime.wav"]
    assert _spoken(page) == []
    assert page.js_errors == []
