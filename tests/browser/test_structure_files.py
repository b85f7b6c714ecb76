"""Issue 29, structure files in a real browser: a pasted text structure with one bad line is
refused line by line with nothing changed; corrected, it is previewed, confirmed, and the
structure page shows it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tourney.selectors.clock import structure_items

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BAD = "# Sunday turbo\n20, 100, 200\n15, Break, color up 25\n20, 400, 300\n"
GOOD = "# Sunday turbo\n20, 100, 200\n15, Break, color up 25\n20, 300, 600, 600 BBA\n"


def test_import_a_text_structure_bad_line_then_good(page, live_url, tournament, screenshot):
    before = structure_items(tournament)
    log_in(page, live_url, f"/td/{tournament.pk}/structure/")
    panel = page.locator("#structure-files")
    panel.locator("textarea[name=text]").fill(BAD)
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        panel.get_by_role("button", name="Preview the import").click()
    assert info.value.status == 400
    alert = page.locator("#structure-files .error[role=alert]")
    expect(alert).to_contain_text("Nothing was changed")
    expect(alert.locator("li")).to_have_text(
        [
            "Line 4: the big blind 300 is below the small blind 400: write the small blind first "
            '("20, 300, 400")'
        ]
    )
    expect(page.locator("#structure-files textarea[name=text]")).to_have_value(BAD)
    assert structure_items(tournament) == before
    screenshot(page, "structure-files-error")

    page.locator("#structure-files textarea[name=text]").fill(GOOD)
    page.locator("#structure-files").get_by_role("button", name="Preview the import").click()
    preview = page.locator("#structure-files table.structure-preview")
    expect(preview.locator("tbody tr")).to_have_count(3)
    assert structure_items(tournament) == before  # a preview writes nothing
    screenshot(page, "structure-files-preview")
    page.locator("#structure-files").get_by_role("button", name="Import this structure").click()
    page.wait_for_url(f"{live_url}/td/{tournament.pk}/structure/?imported=1")
    expect(page.locator("#structure-files [role=status]")).to_have_text(
        "The structure file was imported."
    )
    rows = page.locator("table.list").first.locator("tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(2)).to_contain_text("300")
    expect(rows.nth(2)).to_contain_text("600")
    assert [it.big_blind_ante for it in structure_items(tournament)] == [0, 0, 600]
