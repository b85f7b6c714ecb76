"""Issue 31 item 2 in a real browser: after a bust breaks table 3 and the field is redrawn to
two tables (RULES 3.4, 3.7), the TV's seating board and the phone page show each player's
true move, from the seat they really sat in to the seat they drew — never "2·8 → 1·1" through
a seat nobody sat in. Screenshots: artifacts/screenshots/redraw-*.png."""

from __future__ import annotations

import re

import pytest

from tables.models import Seat
from tourney import services
from tourney.models import Entry, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ann Lee",
    "Bob Stone",
    "Carla Okafor",
    "Dmitri Novak",
    "Elena Garcia",
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
    "Quentin Roy",
    "Rosa Diaz",
    "Sven Aalto",
]


def _where(t) -> dict[str, tuple[int, int]]:
    return {
        name: (tn, s)
        for name, tn, s in Seat.objects.filter(tournament=t).values_list(
            "entry__player__name", "table__number", "number"
        )
    }


def test_after_a_break_and_redraw_the_tv_and_phone_show_the_real_from_seat(
    page, live_url, director, screenshot
):
    t = services.tournament_create(
        actor=director, name="Redraw Night", seats_per_table=9, tables=3, seed=11
    )
    Tournament.objects.filter(pk=t.pk).update(public_names="full")
    for name in NAMES:  # 19 players: 7, 6, 6
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    t.refresh_from_db()
    page.goto(f"{live_url}/display/{t.display_token}/?view=seating&page=600")
    page.wait_for_selector("#seating-board .seat-row")
    assert page.locator("#seating-board .seat-row").count() == 19

    before = _where(t)
    victim = Entry.objects.select_related("player").get(
        pk=Seat.objects.filter(tournament=t, table__number=3).order_by("number")[0].entry_id
    )
    result = services.elimination_record(
        tournament_id=t.pk, busts=[(victim.pk, 5000)], actor=director
    )
    assert {m["reason"] for m in result["moves"]} == {"redraw"}
    del before[victim.player.name]
    after = _where(t)
    moved = {n for n in after if after[n] != before[n]}
    broken = sorted(n for n in after if before[n][0] == 3)
    assert broken and set(broken) <= moved

    from playwright.sync_api import expect

    expect(page.locator("#seating-board .seat-row")).to_have_count(18, timeout=8000)
    page.wait_for_selector("#moves li .who")
    shown = page.locator("#moves li:not(.more)").all()
    assert shown
    seen = set()
    for li in shown:
        name = li.locator(".who").text_content()
        text = li.locator(".move").text_content()
        f, to = before[name], after[name]
        # the seat they sat in, to the seat they drew: one line each
        assert re.sub(r"\s+", " ", text).strip() == f"{f[0]}·{f[1]} → {to[0]}·{to[1]}", name
        assert name not in seen
        seen.add(name)
    assert seen <= moved
    # the board marks every moved player at the seat they drew
    marked = page.locator("#seating-board .seat-row.moved").all()
    assert {row.locator(".who").text_content() for row in marked} == moved
    for row in marked:
        name = row.locator(".who").text_content()
        assert row.locator(".tbl").text_content() == str(after[name][0])
        assert row.locator(".st").text_content() == str(after[name][1])
    screenshot(page, "redraw-tv-seating")
    assert page.js_errors == []

    # The phone page: a player of the broken table finds the one true move.
    who = broken[0]
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{t.display_token}/")
    page.fill("#find-name", who)
    page.click("#find-form button")
    page.wait_for_selector(".seat-card")
    card = page.locator(".seat-card", has_text=who).first
    assert card.locator(".tbl").text_content() == str(after[who][0])
    assert card.locator(".st").text_content() == str(after[who][1])
    lines = card.locator(".my-moves li").all_text_contents()
    f, to = before[who], after[who]
    assert len(lines) == 1, lines
    assert f"moved from Table {f[0]}, seat {f[1]} to Table {to[0]}, seat {to[1]}" in lines[0]
    screenshot(page, "redraw-phone")
    assert page.js_errors == []

    # The director's dashboard links the printable redraw sheet from the move list.
    page.set_viewport_size({"width": 1366, "height": 768})
    dashboard = f"/td/{t.pk}/"
    page.goto(f"{live_url}/login/?next={dashboard}")
    page.fill("input[name=username]", "td")
    page.fill("input[name=password]", "td-pass-123")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_url}{dashboard}")
    link = page.locator("#moves a", has_text="Redraw sheet")
    href = link.get_attribute("href")
    assert href == f"/td/{t.pk}/print/redraw/"
    page.goto(live_url + href)
    row = page.locator(".redraw-sheet tbody tr", has_text=who).first
    cells = [c.strip() for c in row.locator("td").all_text_contents()]
    assert cells[0] == f"T{f[0]} S{f[1]}" and cells[2] == f"→ T{to[0]} S{to[1]}"
    assert page.locator(".redraw-sheet tbody tr").count() == 18
    screenshot(page, "redraw-sheet")
    assert page.js_errors == []
