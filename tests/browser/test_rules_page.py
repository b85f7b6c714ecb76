"""Issue 22 in a real browser: a director follows "RULES 7.1" from the dashboard's elimination
form to that rule on the Rules page, highlighted, and the table of contents jumps to a
section. Screenshots: artifacts/screenshots/rules-*.png."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_rule_link_on_the_dashboard_opens_that_rule(
    page, live_url, director, seated_tournament, screenshot
):
    t = seated_tournament
    dashboard = f"/td/{t.pk}/"
    page.goto(f"{live_url}/login/?next={dashboard}")
    page.fill("input[name=username]", "td")
    page.fill("input[name=password]", "td-pass-123")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_url}{dashboard}")

    link = page.locator("#eliminations a.rule-ref", has_text="RULES 7.1").first
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_url(f"{live_url}/td/rules/?t={t.pk}#rule-7-1")
    rule = page.locator("#rule-7-1")
    assert rule.is_visible()
    assert rule.inner_text().startswith("7.1 Bust order decides.")
    assert page.evaluate("document.querySelector(':target')?.id") == "rule-7-1"
    box = rule.bounding_box()
    assert box and 0 <= box["y"] < 1080  # scrolled to it, on screen
    # the tournament's top bar stays, with the way back to its dashboard
    assert page.locator("header .t-name").inner_text() == t.name
    screenshot(page, "rules-7-1")

    # the table of contents jumps to a section; narrow screens read it too
    page.locator(".rules-toc a", has_text="Seating").first.click()
    page.wait_for_url(f"{live_url}/td/rules/?t={t.pk}#section-1")
    assert page.evaluate("document.querySelector(':target')?.id") == "section-1"
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/td/rules/?t={t.pk}#rule-3-1")
    assert page.locator("#rule-3-1").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    screenshot(page, "rules-phone")
    assert page.js_errors == []
