"""Issue 29 in a real browser: the director's dashboard in German and Spanish (the browser's
Accept-Language) at 1366x768, a running tournament with a bust: the panels speak German, and
no button's label overflows its button (their words are longer than English ones).
Screenshots in artifacts/screenshots/dashboard-{de,es}-1366x768.png."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tourney import services
from tourney.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Buttons whose label is wider than the button itself (a label cut off or spilling over).
OVERFLOWING = """() => [...document.querySelectorAll('button, a.button')]
  .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1)
  .map(b => b.textContent.trim())"""


# The log line of the bust, exactly (the other words as the catalog translates them).
OUT_LINE = {"de": "Ausgeschieden: 12.", "es": "Eliminados: 12.º"}


@pytest.mark.parametrize("lang", ["de", "es"])
def test_the_dashboard_in_german_and_spanish_fits_at_1366(
    page, live_url, director, screenshot, lang
):
    with translation.override(lang):
        log, running, pause, last_hand = (
            gettext(w) for w in ("Event log", "Running", "Pause", "Last hand")
        )
    assert log != "Event log" and last_hand != "Last hand"
    t = services.tournament_create(
        actor=director, name="Freitag 50", seats_per_table=9, tables=2, starting_stack=10000
    )
    for i in range(12):
        services.entry_register(tournament_id=t.pk, name=f"Spieler {i + 1:02d}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    out = Entry.objects.filter(tournament=t, seat__isnull=False).order_by("pk").first()
    services.elimination_record(tournament_id=t.pk, busts=[(out.pk, None)], actor=director)
    page.set_extra_http_headers({"Accept-Language": lang})
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, live_url, reverse("tourney-dashboard", args=[t.pk]))
    expect(page.locator("#log h2")).to_have_text(log)
    expect(page.locator("#clock .status")).to_have_text(running)
    expect(page.locator("#clock button[value=pause]")).to_have_text(pause)
    expect(page.locator("#log ol.log")).to_contain_text(OUT_LINE[lang])
    expect(page.locator("#eliminations")).to_contain_text(last_hand)
    assert page.evaluate(OVERFLOWING) == []
    screenshot(page, f"dashboard-{lang}-1366x768")
    assert page.js_errors == []
