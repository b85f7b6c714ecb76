"""Issue 27 in a real browser: a director opens Players from the home page, imports a CSV file
with one bad row (sees the row's error, nothing imported), corrects the file and imports it,
merges two records of one person after the confirm page, and undoes the merge from Recent
changes. Screenshots: players-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tourney import services
from tourney.models import Entry, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BAD = "Name;Email;Member no\nAnn Lee;ann@example.org;101\nBob Marsh;bob@@example;102\n"
GOOD = BAD.replace("bob@@example", "bob@example.org")


def test_director_imports_merges_and_undoes(page, live_url, director, screenshot, tmp_path):
    t = services.tournament_create(actor=director, name="Friday 50", tables=2, seed=3)
    services.entry_register(tournament_id=t.pk, name="Annie L", actor=director)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    log_in(page, live_url, "/")
    page.locator("#players-link").click()
    page.wait_for_url(f"{live_url}/players/")
    page.get_by_role("link", name="Import CSV").click()

    # 1. A file with one bad row: columns guessed, the row's error shown, nothing imported.
    bad = tmp_path / "players.csv"
    bad.write_text(BAD, encoding="utf-8-sig")
    page.locator("#import-upload input[name=file]").set_input_files(str(bad))
    page.get_by_role("button", name="Next: match the columns").click()
    expect(page.locator("#map-email")).to_have_value("1")
    expect(page.locator("#map-membership")).to_have_value("2")
    page.get_by_role("button", name="Preview").click()
    preview = page.locator("#import-preview")
    expect(preview.locator("tr.row-error")).to_contain_text("Enter a valid email address.")
    expect(page.locator("#import-summary")).to_contain_text("1 row with errors")
    expect(page.locator("#import-confirm")).to_have_count(0)
    screenshot(page, "players-import-error")
    assert not Player.objects.filter(name="Bob Marsh").exists()

    # 2. The file corrected and uploaded again: preview clean, import.
    bad.write_text(GOOD, encoding="utf-8-sig")
    page.get_by_role("link", name="Start again with another file").click()
    page.locator("#import-upload input[name=file]").set_input_files(str(bad))
    page.get_by_role("button", name="Next: match the columns").click()
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#import-summary")).to_contain_text("2 players in the file, no errors")
    screenshot(page, "players-import-preview")
    page.get_by_role("button", name="Import 2 players").click()
    page.wait_for_url(f"{live_url}/players/changes/")
    expect(page.locator("#changes")).to_contain_text("Players imported")
    assert Player.objects.filter(name__in=["Ann Lee", "Bob Marsh"]).count() == 2

    # 3. Merge the desk's "Annie L" into the imported "Ann Lee".
    page.get_by_role("link", name="Players", exact=True).click()
    page.locator("#q").fill("Ann Lee")
    page.keyboard.press("Enter")
    page.get_by_role("link", name="Ann Lee").click()
    page.get_by_role("link", name="Merge another record into this one").click()
    page.get_by_role("searchbox").fill("annie")
    page.keyboard.press("Enter")
    page.locator("#merge-found").get_by_role("link", name="Choose").click()
    expect(page.locator("#merge-moves")).to_contain_text("1 entry moves to Ann Lee (Friday 50)")
    screenshot(page, "players-merge-confirm")
    page.get_by_role("button", name="Merge Annie L into Ann Lee").click()
    expect(page.locator("#history")).to_contain_text("Friday 50")
    screenshot(page, "players-after-merge")
    ann = Player.objects.get(name="Ann Lee")
    assert Entry.objects.get(tournament=t).player_id == ann.pk

    # 4. Undo from Recent changes: the entry is Annie L's again, she is listed again.
    page.get_by_role("link", name="Recent changes").click()
    merged_row = page.locator("#changes tr", has_text="Players merged")
    merged_row.get_by_role("button", name="Undo").click()
    expect(page.locator("#changes tr.undone")).to_contain_text("Players merged")
    expect(page.locator("#changes tbody tr").first).to_contain_text("Undo")
    screenshot(page, "players-changes-undone")
    assert Entry.objects.get(tournament=t).player.name == "Annie L"
    page.get_by_role("link", name="Players", exact=True).click()
    expect(page.locator("#results")).to_contain_text("Annie L")
    screenshot(page, "players-list")
    assert errors == []
