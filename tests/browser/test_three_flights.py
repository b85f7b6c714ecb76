"""Issue 26 end to end in a real browser: a three-flight event with re-entries and a player who
plays two flights (RULES 10). The director creates the event on its page; Day 1A is played
(through the services: registering and busting a field is not what this test is about) down
to its number; its dashboard and TV say the day is over and the director bags it with the
keyboard and closes the bags; the desk registers the same player into Day 1B and shows the
warning; Day 1B and 1C are played and bagged; the event's page shows each flight's survivors,
the total and the smaller bag left behind, and the director builds and seats Day 2 from it;
Day 2's stacks are exactly the bags kept and its pool is every flight's money.
Screenshots in artifacts/screenshots/three-flights-*.png."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache

from tables.models import Seat
from tests.services.test_flights_services import T0, _bag_all, _play, _still_in
from tourney import services
from tourney.engine import event_money
from tourney.models import Entry, MultiDayEvent, Player, Tournament
from tourney.selectors import average_stack
from tourney.selectors import flights as reads
from tourney.selectors.money import pool_of
from tourney.services import flights

from .helpers import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAM = "Sam Shared"


def _create_event(page, live_url) -> list[Tournament]:
    log_in(page, live_url, "/td/events/new/")
    form = page.locator("#event-form")
    form.locator("[name=name]").fill("Spring Main")
    form.locator("[name=tables]").fill("1")
    form.locator("[name=seats_per_table]").fill("9")
    form.locator("[name=reentries]").fill("1")
    form.locator("[name=flights]").fill("A, B, C")
    form.locator("[name=end_players]").fill("3")
    page.get_by_role("button", name="Create event and flights").click()
    page.wait_for_url(re.compile(r"/td/events/\d+/$"))
    event = MultiDayEvent.objects.get(name="Spring Main")
    days = list(Tournament.objects.filter(multi_day_event=event).order_by("pk"))
    assert [(t.flight, t.end_at_players) for t in days] == [("A", 3), ("B", 3), ("C", 3)]
    return days


def _play_down_keeping(t: Tournament, director, keep: Player, *, reenter: Player, at) -> None:
    """Start, bust and re-enter ``reenter``'s entry, close registration and bust the lowest
    numbers but ``keep``'s until three are left (RULES 10.2: the flight ends there)."""
    with time_machine.travel(at + timedelta(minutes=1), tick=False):
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
        first = Entry.objects.get(tournament=t, player=reenter)
        services.elimination_record(tournament_id=t.pk, busts=[(first.pk, 100)], actor=director)
        services.entry_reenter(tournament_id=t.pk, entry_id=first.pk, actor=director)
        services.registration_close(tournament_id=t.pk, actor=director)
        while len(alive := _still_in(t)) > 3:
            out = next(e for e in alive if e.player_id != keep.pk)
            services.elimination_record(tournament_id=t.pk, busts=[(out.pk, 100)], actor=director)
    t.refresh_from_db()


def _bag_by_keyboard(page, t: Tournament) -> dict[int, int]:
    """Type each seat's chips at table 1 (Tab, Enter), then Enter closes the bags."""
    seats = list(
        Seat.objects.filter(tournament=t).order_by("number").values_list("entry_id", flat=True)
    )
    in_play = reads.bag_status(t).chips_in_play
    chips = [in_play // len(seats) + 1500 * i for i in range(len(seats))]
    chips[-1] = in_play - sum(chips[:-1])
    panel = page.locator("#bags")
    panel.locator("input[name=table]").wait_for()
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    panel.locator("input[name^=chips_]").first.wait_for()
    for i, c in enumerate(chips):
        page.keyboard.type(f"{c:,}")
        page.keyboard.press("Tab" if i < len(chips) - 1 else "Enter")
    panel.locator(".ok", has_text=f"Table 1: {len(chips)} bags recorded").wait_for()
    assert "difference 0" in " ".join(panel.locator("#bag-totals").text_content().split())
    page.keyboard.press("Enter")  # the cursor is on "Close the bags"
    panel.locator(".ok", has_text="The bags are closed").wait_for()
    return dict(zip(seats, chips, strict=True))


def test_three_flights_with_a_shared_player_to_day2(
    page, live_url, director, desk_clerk, screenshot
):
    a, b, c = _create_event(page, live_url)
    sam = Player.objects.create(name=SAM)
    field = {
        x.flight: [Player.objects.create(name=f"{x.flight} Player {i}") for i in range(4)]
        for x in (a, b, c)
    }

    # Day 1A: Sam and four more, one re-entry; played down to three, Sam among them.
    _play(a, director, [*field["A"], sam], reenter=[field["A"][0]], at=T0)
    a.refresh_from_db()
    assert SAM in [e.player.name for e in _still_in(a)]
    cache.clear()
    page.goto(f"{live_url}/td/{a.pk}/")
    line = page.locator("#flight-line")
    line.wait_for()
    assert line.text_content() == "Day 1A — the day is over: bag and tag"
    screenshot(page, "three-flights-a-over")
    page.get_by_role("link", name="Bag and tag").first.click()
    bags_a = _bag_by_keyboard(page, a)
    screenshot(page, "three-flights-a-bagged")
    a.refresh_from_db()
    assert a.bagged

    # Day 1B: its field registers, then the desk registers Sam and warns that only one stack
    # goes on; the flight is played down to three with Sam among them.
    day_b = T0 + timedelta(days=1)
    with time_machine.travel(day_b, tick=False):
        for p in field["B"]:
            services.entry_register(tournament_id=b.pk, player_id=p.pk, actor=director)
    desk = page.context.browser.new_page(viewport={"width": 1366, "height": 768})
    log_in(desk, live_url, f"/desk/{b.pk}/", "clerk", "clerk-pass-123")
    desk.keyboard.type("sam sh")
    desk.locator("#desk-results .opt.active", has_text=SAM).wait_for()
    desk.keyboard.press("Enter")
    desk.locator("#seat-card .sc-name", has_text=SAM).wait_for()
    warning = desk.text_content("#flight-warning")
    sam_a = next(e for e in bags_a if Entry.objects.get(pk=e).player_id == sam.pk)
    assert f"{SAM} already bagged {bags_a[sam_a]:,} in Day 1A" in warning
    screenshot(desk, "three-flights-desk-warning")
    desk.close()
    assert Entry.objects.filter(tournament=b, player=sam).count() == 1
    _play_down_keeping(b, director, sam, reenter=field["B"][1], at=day_b)
    counts_b = _bag_all(b, director, chips_for=lambda e: 30000 if e.player_id == sam.pk else 1000)
    big = counts_b[Entry.objects.get(tournament=b, player=sam).pk]
    assert big > bags_a[sam_a]  # the larger stack: Day 1B's goes on (RULES 10.3)
    flights.flight_bag_close(tournament_id=b.pk, actor=director)
    _play(c, director, field["C"], at=T0 + timedelta(days=2))
    c.refresh_from_db()
    _bag_all(c, director)
    flights.flight_bag_close(tournament_id=c.pk, actor=director)

    # The event's page: each flight's survivors and the total, Sam's smaller bag left behind.
    event = a.multi_day_event
    page.goto(f"{live_url}/td/events/{event.pk}/")
    page.locator("tr.total", has_text="✓ all").wait_for()
    rows = page.locator("table.event-flights tbody tr")
    assert [rows.nth(i).locator("td.letter").text_content() for i in range(3)] == ["A", "B", "C"]
    forfeited = page.locator("#forfeited tbody tr")
    assert forfeited.count() == 1
    assert SAM in forfeited.first.text_content() and "Day 1A" in forfeited.first.text_content()
    screenshot(page, "three-flights-event")
    page.get_by_role("button", name="Build and seat Day 2").click()
    page.get_by_role("link", name="Day 2 dashboard").wait_for()
    screenshot(page, "three-flights-day2-built")

    # Day 2: one stack per player, exactly the bags kept; the pool is every flight's money.
    day2 = Tournament.objects.get(multi_day_event=event, day=2)
    q = reads.day2_qualifiers(event)
    kept = {bag.entry: bag.chips for bag in q.qualified}
    entries = list(Entry.objects.filter(tournament=day2))
    assert {e.carried_from_id: e.chips_bought for e in entries} == kept
    assert len(entries) == 8 and len({e.player_id for e in entries}) == 8  # 9 bags, Sam's two
    sam_day2 = next(e for e in entries if e.player_id == sam.pk)
    assert sam_day2.chips_bought == big and sam_day2.carried_from.tournament_id == b.pk
    paid = sum(Entry.objects.filter(tournament__in=(a, b, c)).values_list("paid", flat=True))
    assert (
        pool_of(day2)
        == paid
        == event_money.event_pool(reads.flight_money(event.pk), buy_in=a.buy_in)
    )
    cache.clear()
    page.goto(f"{live_url}/display/{day2.display_token}/")
    page.locator("#flight-line", has_text="Day 2").wait_for()
    avg = average_stack(sum(kept.values()), len(kept))  # RULES 10.8
    assert page.text_content("#average-stack") == f"{avg:,}"
    screenshot(page, "three-flights-day2-tv")
    assert page.js_errors == []
