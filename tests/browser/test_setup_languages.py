"""Issue 29 in a real browser: the setup page in German and Spanish (the browser's
Accept-Language) at 1366x768: the form's labels, choices and buttons speak the language, no
button's label overflows its button, and a typed structure with a problem is refused in the
words of the levels box. Screenshots in artifacts/screenshots/setup-{de,es}-1366x768.png."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tourney.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OVERFLOWING = """() => [...document.querySelectorAll('button, a.button')]
  .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1)
  .map(b => b.textContent.trim())"""

WORDS = {
    "de": {
        "title": "Neues Turnier",
        "create": "Turnier anlegen",
        "stack": "Startstack",
        "preset": "Regulär (20-Minuten-Level)",
        "problem": "Level 1: der Small Blind muss eine ganze Zahl über null sein",
    },
    "es": {
        "title": "Nuevo torneo",
        "create": "Crear torneo",
        "stack": "Stack inicial",
        "preset": "Normal (niveles de 20 minutos)",
        "problem": "Nivel 1: la ciega pequeña debe ser un número entero mayor que cero",
    },
}


@pytest.mark.parametrize("lang", ["de", "es"])
def test_the_setup_page_in_german_and_spanish(page, live_url, director, screenshot, lang):
    words = WORDS[lang]
    page.set_extra_http_headers({"Accept-Language": lang})
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, live_url, reverse("tourney-dashboard-setup"))
    form = page.locator("#setup-form")
    expect(form.locator("h2")).to_have_text(words["title"])
    expect(form.locator("button.primary.big")).to_have_text(words["create"])
    expect(form).to_contain_text(words["stack"])
    expect(form.locator("select[name=structure] option[value=regular]")).to_have_text(
        words["preset"]
    )
    assert page.evaluate(OVERFLOWING) == []
    screenshot(page, f"setup-{lang}-1366x768")
    # A typed structure with a problem: refused in place, in the words of the levels box.
    form.locator("input[name=name]").fill("Sonntag")
    form.locator("select[name=structure]").select_option("custom")
    form.locator("textarea[name=levels_text]").fill("0/100 20")
    form.locator("button.primary.big").click()
    expect(page.locator("#setup-form .field-error").first).to_contain_text(words["problem"])
    assert not Tournament.objects.filter(name="Sonntag").exists()
    assert page.js_errors == []
