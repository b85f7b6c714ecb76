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
# the setup form's late registration runs to level 6 by default: a structure for it
SETUP = "20, 100, 200\n15, Break, color up 25\n" + "".join(
    f"20, {100 * n}, {200 * n}, {200 * n} BBA\n" for n in range(2, 9)
)
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


def test_a_structure_file_fills_the_new_tournament_form(page, live_url, director, screenshot):
    log_in(page, live_url, "/td/new/")
    page.fill("#setup-form input[name=name]", "Sunday Stack")
    panel = page.locator("#setup-structure-file")
    panel.locator("textarea[name=text]").fill("20, 100, 200\n20, x, 400\n")
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        panel.get_by_role("button", name="Fill the levels box").click()
    assert info.value.status == 400
    expect(page.locator("#setup-structure-file li")).to_have_text(
        ['Line 2: the small blind "x" is not a whole number: write digits, e.g. 100']
    )
    page.locator("#setup-structure-file textarea[name=text]").fill(SETUP)
    page.locator("#setup-structure-file").get_by_role("button", name="Fill the levels box").click()
    expect(page.locator("#setup-structure-file [role=status]")).to_contain_text("8 levels")
    expect(page.locator("#setup-form textarea[name=levels_text]")).to_have_value(
        "100/200 20\nbreak 15 color-up 25\n"
        + "\n".join(f"{100 * n}/{200 * n}/{200 * n} 20" for n in range(2, 9))
    )
    expect(page.locator("#setup-form input[name=name]")).to_have_value("Sunday Stack")
    screenshot(page, "structure-files-setup")
    page.locator("#setup-form").get_by_role("button", name="Create tournament").click()
    page.wait_for_url(lambda url: "/td/new/" not in url)
    from tourney.models import Tournament

    t = Tournament.objects.get(name="Sunday Stack")
    assert [it.big_blind for it in structure_items(t)] == [200, 0] + [200 * n for n in range(2, 9)]
