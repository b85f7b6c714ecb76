"""Issue 26 in a real browser, bag and tag (RULES 10.4): a Day 1 flight has ended by its field;
the director bags two tables with the keyboard only (the table number, Enter, the chips seat
by seat with Tab, Enter), a typo is refused with what was typed kept, the difference with the
chips in play shows, Enter closes the bags; the labels and the report print from there.
Screenshots in artifacts/screenshots/bags-*.png."""

from __future__ import annotations

import pytest

from tables.models import Seat, Table
from tests.services.test_flights_services import _event, _flights, _play
from tourney.models import ChipCount, Player, Tournament

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ann Lee",
    "Bob Stone",
    "Carla Okafor",
    "Dmitri Novak",
    "Elena García",
    "Farid Haddad",
    "Grace Murphy",
    "Hiro Tanaka",
    "Ines Silva",
    "Jonas Berg",
    "Kemal Yilmaz",
    "Lucia Romano",
    "Marek Kowalski",
    "Nadia Petrova",
    "Oscar Lindqvist",
    "Priya Shah",
]


def _ended_flight(director) -> Tournament:
    """Day 1B of a two-flight event, ended by its field: 12 of 16 players left at two tables."""
    event = _event(director, letters=["A", "B"], tables=2, seats_per_table=9, end_at_players=12)
    t = _flights(event)[1]
    _play(t, director, [Player.objects.create(name=n) for n in NAMES])
    t.refresh_from_db()
    return t


def _table(t: Tournament, number: int) -> list[tuple[int, int, str]]:
    return list(
        Seat.objects.filter(tournament=t, table__number=number)
        .order_by("number")
        .values_list("entry_id", "number", "entry__player__name")
    )


def _type_rows(page, texts: list[str]) -> None:
    for i, text in enumerate(texts):
        page.keyboard.type(text)
        page.keyboard.press("Tab" if i < len(texts) - 1 else "Enter")


def test_the_director_bags_two_tables_by_keyboard_and_closes_the_bags(
    page, live_url, director, screenshot
):
    t = _ended_flight(director)
    # Day 1A holds tables 1 and 2 (RULES 13.1): Day 1B's are the next two numbers
    n1, n2 = sorted(Table.objects.filter(tournament=t).values_list("number", flat=True))
    one, two = _table(t, n1), _table(t, n2)
    assert len(one) + len(two) == 12
    in_play = 16 * 20000
    log_in(page, live_url, f"/td/{t.pk}/bags/")
    panel = page.locator("#bags")
    table = panel.locator("input[name=table]")
    table.wait_for()
    assert table.evaluate("el => el === document.activeElement")  # typed straight in
    page.keyboard.type(str(n1))
    page.keyboard.press("Enter")
    first = panel.locator("input[name^=chips_]").first
    first.wait_for()
    assert first.evaluate("el => el === document.activeElement")

    stacks = [61500, 12000, 45250, 30000, 8800, 27400, 39000, 22100, 18000][: len(one)]
    typed = [f"{s:,}" for s in stacks]
    typed[1] = "12k"  # a typo
    _type_rows(page, typed)
    panel.locator("#bag-error").wait_for()
    assert f"Seat {one[1][1]}" in panel.locator("#bag-error").text_content()
    assert panel.locator(f"input[name=chips_{one[0][1]}]").input_value() == "61,500"
    assert not ChipCount.objects.exists()
    bad = panel.locator(f"input[name=chips_{one[1][1]}]")
    assert bad.evaluate("el => el === document.activeElement")  # the cursor on the typo
    page.keyboard.press("Control+a")
    page.keyboard.type("12000")
    page.keyboard.press("Enter")
    panel.locator(".ok", has_text=f"Table {n1}: {len(one)} bags recorded").wait_for()
    # The second table comes up by itself, its first row ready for the chips.
    panel.locator(f"input[name=table][type=hidden][value='{n2}']").wait_for(state="attached")
    assert ChipCount.objects.filter(bag=True).count() == len(one)
    assert panel.locator("input[name^=chips_]").first.evaluate(
        "el => el === document.activeElement"
    )
    screenshot(page, "bags-form")

    rest = in_play - sum(stacks) - 600  # the counts come out 600 short
    share = [rest // len(two)] * len(two)
    share[-1] += rest - sum(share)
    _type_rows(page, [str(s) for s in share])
    panel.locator(".ok", has_text=f"Table {n2}: {len(two)} bags recorded").wait_for()
    totals = panel.locator("#bag-totals").text_content()
    assert f"Counted {in_play - 600:,} · in play {in_play:,} · difference −600" in " ".join(
        totals.split()
    )
    assert panel.locator("#bag-missing").count() == 0
    screenshot(page, "bags-all-tables")

    # Every player has a bag: the cursor is on "Close the bags", Enter closes them.
    close = panel.locator("button", has_text="Close the bags")
    assert close.evaluate("el => el === document.activeElement")
    page.keyboard.press("Enter")
    panel.locator(".ok", has_text="The bags are closed").wait_for()
    t.refresh_from_db()
    assert t.bagged
    assert panel.locator("input[name^=chips_]").count() == 0
    screenshot(page, "bags-closed")

    panel.locator("a", has_text="Bag labels").click()
    page.locator(".bag-label").first.wait_for()
    assert page.locator(".bag-label").count() == 12
    assert page.locator(".bag-label svg.qr").count() == 12
    first_label = page.locator(".bag-label").first.text_content()
    assert one[0][2] in first_label and "61,500" in first_label and "Day 1B" in first_label
    assert not page.js_errors, page.js_errors
    screenshot(page, "bags-labels")
    page.emulate_media(media="print")
    assert page.locator("button[data-print]").is_hidden()
    assert page.locator(".topbar").is_hidden()
    screenshot(page, "bags-labels-print")
    page.pdf(path=str(screenshot(page, "bags-labels-print").with_suffix(".pdf")), format="A4")
    page.emulate_media(media="screen")

    page.goto(f"{live_url}/td/{t.pk}/bags/report/")
    rows = page.locator(".cr-chips tbody tr")
    assert rows.count() == 12
    assert "61,500" in rows.first.text_content() and one[0][2] in rows.first.text_content()
    screenshot(page, "bags-report")
