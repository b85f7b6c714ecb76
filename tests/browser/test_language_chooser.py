"""Issue 29 in a real browser: the director picks German in the footer's chooser, the page
comes back in German (the same page), the choice holds on the next page, and English again.
No console error (the chooser is a plain form: no inline script, CSRF token posted)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_director_switches_to_german_and_back(page, live_url, director, screenshot):
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    log_in(page, live_url, "/past/")
    expect(page.locator("h1")).to_have_text("Past tournaments")
    page.locator("#language-select").select_option("de")
    page.locator("#language-form button").click()
    expect(page.locator("h1")).to_have_text("Vergangene Turniere")
    assert page.url.endswith("/past/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.goto(live_url + "/")
    expect(page.locator("h2").first).to_have_text("Heute und demnächst")
    screenshot(page, "language-german-home")
    page.locator("#language-select").select_option("en")
    page.locator("#language-form button").click()
    expect(page.locator("h2").first).to_have_text("Today and upcoming")
    assert errors == []
