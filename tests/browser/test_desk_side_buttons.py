"""Issue 31, found at a live event: the buttons of the desk's side lists ("Card", "Re-enter")
answer into the registration panel without taking it away, so the desk keeps registering."""

from __future__ import annotations

import pytest

from tourney import services
from tourney.models import Entry, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _log_in(page, live_url: str, next_path: str) -> None:
    page.goto(f"{live_url}/login/?next={next_path}")
    page.fill("input[name=username]", "clerk")
    page.fill("input[name=password]", "clerk-pass-123")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_url}{next_path}")


def _register(page, name: str) -> None:
    page.fill("#desk-name", name)
    page.locator("#desk-results .opt-new").wait_for()
    page.click("#register-form button.primary")
    page.locator("#seat-card .sc-name", has_text=name).wait_for()


def _layout_intact(page) -> None:
    assert page.locator("#desk-main").count() == 1
    assert page.locator("#desk-side").count() == 1
    assert page.locator("#desk-main #register-form").count() == 1
    # Both boxes measured in one go: the side list refreshes itself (outerHTML) at any moment.
    main, side = page.evaluate(
        """() => ["#desk-main", "#desk-side"].map((sel) => {
          const r = document.querySelector(sel).getBoundingClientRect();
          return { x: r.x, width: r.width };
        })"""
    )
    assert side["x"] >= main["x"] + main["width"] - 1  # side by side, not below the form


def test_card_and_re_enter_in_the_side_lists_keep_the_desk_working(
    page, live_url, director, desk_clerk, screenshot
):
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    t = services.tournament_create(actor=director, name="Side Buttons", tables=2, seed=8)
    Tournament.objects.filter(pk=t.pk).update(reentries_allowed=1)
    ann = services.entry_register(tournament_id=t.pk, name="Ann Lee", actor=director)
    for name in ("Bob Stone", "Cy Berg"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.elimination_record(tournament_id=t.pk, busts=[(ann.pk, 20000)], actor=director)
    _log_in(page, live_url, f"/desk/{t.pk}/")

    # "Card" of Bob's row: his seat card in the panel, the panel still there.
    page.locator("#desk-side tr", has_text="Bob Stone").locator("a", has_text="Card").click()
    page.locator("#seat-card .sc-name", has_text="Bob Stone").wait_for()
    _layout_intact(page)
    _register(page, "Dana Ortiz")
    _layout_intact(page)

    # "Re-enter" on Ann's busted row: her new entry's card, then the next registration.
    page.locator("#desk-side tr.st-busted", has_text="Ann Lee").locator(
        "button", has_text="Re-enter"
    ).click()
    page.locator(".msg.ok", has_text="Re-entered #5 Ann Lee").wait_for()
    page.locator("#seat-card .sc-name", has_text="Ann Lee").wait_for()
    _layout_intact(page)
    assert Entry.objects.filter(tournament=t, player=ann.player).count() == 2
    _register(page, "Eve Park")
    _layout_intact(page)
    page.locator("#desk-side", has_text="Eve Park").wait_for()  # the side refreshed
    # Ann has used her one re-entry: no "Re-enter" left to offer.
    assert page.locator("#desk-side button", has_text="Re-enter").count() == 0
    screenshot(page, "desk-side-buttons")
    assert console == [] and page.js_errors == []
