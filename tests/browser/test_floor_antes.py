"""The side-pot tool with antes, in a real browser (RULES 6.5, 6.6): the level's antes are
pre-filled, the big blind's ante is dead money, no player takes two odd chips in one hand.
Screenshot: artifacts/screenshots/floor-antes.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import log_in as _log_in
from tourney import services
from tourney.models import Level

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _row(page, n: int, seat: int, chips: int, *, rank: int | None = None, folded=False):
    page.fill(f"input[name=s_seat_{n}]", str(seat))
    page.fill(f"input[name=s_committed_{n}]", str(chips))
    if rank is not None:
        page.fill(f"input[name=s_rank_{n}]", str(rank))
    page.set_checked(f"input[name=s_folded_{n}]", folded)


def test_the_big_blind_ante_is_dead_money_in_the_side_pot_tool(
    page, live_url, director, screenshot
):
    t = services.tournament_create(actor=director, name="Antes", tables=1, seed=5)
    Level.objects.filter(tournament=t).update(ante=0, big_blind_ante=0)
    Level.objects.filter(tournament=t, index=0).update(big_blind_ante=200)
    _log_in(page, live_url, f"/td/{t.pk}/floor/")
    # The level's big-blind ante is there already; the director names the big blind's seat.
    expect(page.locator("input[name=s_bba]")).to_have_value("200")
    expect(page.locator("input[name=s_ante_1]")).to_have_value("")
    page.fill("input[name=s_button]", "1")
    page.fill("input[name=s_bb]", "3")
    _row(page, 1, 2, 100, folded=True)  # the small blind folds
    _row(page, 2, 3, 700, rank=2)  # the big blind: 200 ante + 500
    _row(page, 3, 4, 500, rank=1)
    page.click("#tool-settle button.primary")
    result = page.locator("#tool-settle .result")
    result.wait_for()
    expect(result).to_contain_text("Main pot 1,300")
    expect(result).to_contain_text("seat 4: 1,300")
    expect(result).not_to_contain_text("Returned")
    expect(result).to_contain_text("Antes (dead money, in the first pot): 200")
    screenshot(page, "floor-antes")

    # RULES 6.5: seats 2 and 3 tie; the side pot's odd chip to seat 2, the main pot's to 3.
    page.fill("input[name=s_bb]", "")
    page.fill("input[name=s_bba]", "")
    for n, (seat, chips, rank, folded) in enumerate(
        ((2, 21, 1, False), (3, 21, 1, False), (4, 5, None, True), (5, 16, None, True)), start=1
    ):
        page.fill(f"input[name=s_rank_{n}]", "")
        _row(page, n, seat, chips, rank=rank, folded=folded)
    _row(page, 5, 6, 11, rank=2)
    page.click("#tool-settle button.primary")
    expect(page.locator("#tool-settle .result")).to_contain_text("seat 2: 37 · seat 3: 37")
    assert page.js_errors == []
