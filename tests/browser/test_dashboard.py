"""Issue 8 in a real browser: create a tournament through the setup form, see registrations
arrive without reloading, start the clock, bust two players in one hand, see the places and
the moves to announce, tick a move off, pause with the space key. Screenshots of each step in
artifacts/screenshots/dashboard-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables.models import Seat
from tests.browser.helpers import log_in as _log_in
from tourney import services
from tourney.models import ChipDenomination, Entry, Event, Tournament
from tourney.services import colorup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ann Lee",
    "Bob Marsh",
    "Carla Diaz",
    "Dev Patel",
    "Emma Stone",
    "Farid Haddad",
    "Grace Murphy",
    "Hiro Tanaka",
    "Ines Silva",
    "Jonas Berg",
    "Kemal Yilmaz",
    "Lena Fischer",
]


def _seconds(text: str) -> int:
    parts = [int(p) for p in text.strip().split(":")]
    total = 0
    for p in parts:
        total = total * 60 + p
    return total


def test_director_runs_a_tournament_from_the_dashboard(page, live_url, director, screenshot):
    _log_in(page, live_url, "/td/new/")

    # 1. Create the tournament through the setup form (preview the structure first).
    page.fill("input[name=name]", "Friday Night Deepstack")
    page.fill("input[name=tables]", "2")
    page.fill("input[name=seed]", "11")
    page.fill("input[name=payouts]", "")
    page.click("button[name=preview]")
    page.locator("#setup-form svg.chart").wait_for()
    screenshot(page, "dashboard-setup")
    page.click("text=Create tournament")
    page.wait_for_url(re.compile(r".*/td/\d+/$"))
    t = Tournament.objects.get(name="Friday Night Deepstack")
    assert page.url.endswith(f"/td/{t.pk}/")

    # 2. The desk registers players: the dashboard shows them without a reload (version poll).
    for name in NAMES:
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    page.locator("#tables .seat", has_text="Lena Fischer").wait_for(timeout=10_000)
    # The clock panel refreshes on its own poll, maybe a beat after the tables panel.
    expect(page.locator("#clock .stats")).to_contain_text("12 / 12", timeout=10_000)

    # 3. Start the clock: the countdown runs in the browser.
    page.click("#clock button[value=start]")
    page.locator("#clock button[value=pause]").wait_for()
    first = _seconds(page.locator("[data-countdown]").inner_text())
    page.wait_for_timeout(2200)
    second = _seconds(page.locator("[data-countdown]").inner_text())
    assert 0 < second < first <= 20 * 60
    t.refresh_from_db()
    assert t.clock_running

    # 4. Two players bust in the same hand, with their starting stacks.
    seats = list(
        Seat.objects.filter(tournament=t, table__number=1)
        .select_related("entry__player")
        .order_by("number")[:2]
    )
    for n, (seat, stack) in enumerate(zip(seats, ("4500", "7200"), strict=True), start=1):
        page.fill(f"input[name=table_{n}]", "1")
        page.fill(f"input[name=seat_{n}]", str(seat.number))
        page.fill(f"input[name=stack_{n}]", stack)
    page.click("#eliminations button:has-text('Bust…')")
    page.locator("#eliminations .confirm-bust", has_text=seats[0].entry.player.name).wait_for()
    screenshot(page, "dashboard-bust-check")
    page.click("#eliminations button:has-text('Confirm 2 out')")
    last = page.locator("#eliminations .last-hand")
    last.wait_for()
    text = last.inner_text()
    assert f"12th {seats[0].entry.player.name}" in text  # smaller starting stack: lower place
    assert f"11th {seats[1].entry.player.name}" in text
    busted = Entry.objects.filter(tournament=t, status="busted")
    assert sorted(busted.values_list("place", flat=True)) == [11, 12]
    # 10 players at two tables of 4 and 6: one balancing move to announce (RULES 3.2–3.3).
    ev = Event.objects.get(tournament=t, kind="elimination")
    assert len(ev.payload["moves"]) == 1
    assert "move to table 1 seat" in text and "balance" in text
    page.locator("#moves .move-list li").first.wait_for()
    screenshot(page, "dashboard-after-bust")

    # 5. Tick the move off as announced: the bust's batch, by its "Announced" button.
    page.click("#moves .move-batch button.announced")
    page.locator("#moves", has_text="Nothing to announce.").wait_for()

    # 6. Space pauses the clock (as the screen says).
    page.locator("#clock .kbd-hint", has_text="Space").wait_for()
    page.mouse.click(5, 600)  # focus the page, not a form field
    # The panels refresh after "Announced"; a clock action sent meanwhile keeps the
    # clock's refresh from swapping (static/js/dashboard.js), so the press takes effect
    # whenever it lands.
    page.keyboard.press("Space")
    expect(page.locator("#clock button[value=resume]")).to_be_visible(timeout=10_000)
    t.refresh_from_db()
    assert not t.clock_running
    screenshot(page, "dashboard-paused")
    assert page.js_errors == []


def test_big_field_stays_readable(page, live_url, director, screenshot):
    from tests.views.test_dashboard import _large

    t = _large(director, 1200, "Main Event")
    _log_in(page, live_url, f"/td/{t.pk}/")
    assert page.locator("#tables .tile-grid.compact").count() == 1
    page.keyboard.press("/")
    page.keyboard.type("P00777")
    page.keyboard.press("Enter")
    page.locator("#tables .found", has_text="Main Event P00777").wait_for()
    page.locator("#tables .seat.hit", has_text="Main Event P00777").wait_for()
    screenshot(page, "dashboard-big-field")


def test_color_up_and_floor_tools_pages(page, live_url, director, screenshot):
    t = services.tournament_create(
        actor=director,
        name="Color-up night",
        tables=2,
        seed=5,
        starting_stack=20000,
        levels=[
            {
                "kind": "level",
                "small_blind": 100,
                "big_blind": 200,
                "big_blind_ante": 200,
                "minutes": 20,
            },
            {"kind": "break", "minutes": 10, "color_up": [25]},
            {
                "kind": "level",
                "small_blind": 200,
                "big_blind": 400,
                "big_blind_ante": 400,
                "minutes": 20,
            },
        ],
    )
    for name in NAMES:
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="next", actor=director)
    _log_in(page, live_url, f"/td/{t.pk}/colorup/")
    first = page.locator("form[action$='/colorup/1/']")
    seat_inputs = first.locator("input[name^=odd_]")
    seat_inputs.nth(0).fill("3")
    seat_inputs.nth(1).fill("2")
    first.locator("button[value=software]").click()
    page.locator("#table-1 .result", has_text="25s raced").wait_for()
    assert Event.objects.filter(tournament=t, kind="chip_race").count() == 1
    screenshot(page, "dashboard-colorup")

    # A mistyped race is taken back (the confirm accepted) and raced again with the cards
    # the dealer dealt (RULES 5.8).
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#table-1 .result button", has_text="Undo this table's race of the 25s").click()
    expect(page.locator("#table-1 .result")).to_have_count(0)
    assert Event.objects.get(tournament=t, kind="chip_race").undone is True
    # The undo's change event refreshes the page's tables: type into the form it leaves.
    page.wait_for_load_state("networkidle")
    first = page.locator("form[action$='/colorup/1/']")
    first.locator("input[name^=odd_]").nth(0).fill("2")
    first.locator("input[name^=cards_]").nth(0).fill("Ah Kh")
    first.locator("button[value=cards]").click()
    page.locator("#table-1 .result", has_text="(dealer's cards)").wait_for()
    expect(page.locator("#table-1 .result")).to_contain_text("Ah Kh · wins 1")
    # Finishing without table 2's race is refused, then done with "finish anyway".
    page.click("#colorup-finish button")
    expect(page.locator("#colorup .error")).to_contain_text("Not every table with players")
    assert ChipDenomination.objects.get(tournament=t, value=25).in_play is True
    page.check("#colorup-finish input[name=force]")
    page.click("#colorup-finish button")
    page.locator("#colorup", has_text="No color-up is due").wait_for()
    assert ChipDenomination.objects.get(tournament=t, value=25).in_play is False
    assert Event.objects.get(tournament=t, kind="color_up_finished").payload["forced"] is True

    page.goto(f"{live_url}/td/{t.pk}/floor/")
    page.fill("input[name=s_button]", "3")
    page.fill("input[name=s_board]", "AdKd3c9s4h")
    for n, (seat, chips, cards) in enumerate(
        (("1", "10", "AsAh"), ("2", "50", "KsKh"), ("3", "200", "7c2d")), start=1
    ):
        page.fill(f"input[name=s_seat_{n}]", seat)
        page.fill(f"input[name=s_committed_{n}]", chips)
        page.fill(f"input[name=s_cards_{n}]", cards)
    page.click("#tool-settle button.primary")
    page.locator("#tool-settle .result", has_text="Main pot").wait_for()
    screenshot(page, "dashboard-floor")
    assert page.js_errors == []


def test_a_clock_action_is_never_lost_behind_panel_refreshes(page, live_url, director):
    """Two refreshes of the clock panel in flight or queued, then Space: the pause reaches
    the server. (htmx queued the action behind the second refresh, whose swap removed the
    form, so the action was silently dropped: a director's pause lost.)"""
    t = services.tournament_create(actor=director, name="Refresh race", tables=2, seed=3)
    for name in NAMES[:6]:
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    _log_in(page, live_url, f"/td/{t.pk}/")
    page.locator("#clock button[value=pause]").wait_for()
    # One JS task: two change events (the second one queues behind the first refresh), then
    # the key press, before any response can arrive.
    page.evaluate(
        """() => {
          for (let i = 0; i < 2; i++) {
            document.body.dispatchEvent(new CustomEvent("tourney-changed", {bubbles: true}));
          }
          const space = {key: " ", code: "Space", bubbles: true};
          document.dispatchEvent(new KeyboardEvent("keydown", space));
        }"""
    )
    expect(page.locator("#clock button[value=resume]")).to_be_visible(timeout=10_000)
    assert Event.objects.filter(tournament=t, kind="clock_pause").count() == 1
    t.refresh_from_db()
    assert not t.clock_running
    assert page.js_errors == []


def test_break_order_by_dragging_a_tile(page, live_url, director, screenshot):
    """RULES 3.5 "drag or number": a tile dropped on another takes its place in the order."""
    t = services.tournament_create(actor=director, name="Drag night", tables=3, seed=4)
    for name in NAMES:
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    _log_in(page, live_url, f"/td/{t.pk}/")
    tools = page.locator("#tables .table-tools")
    expect(tools).to_contain_text("breaks next: 3, 2, 1")  # the default: highest first
    expect(page.locator("input[name=rank_1]")).to_have_value("3")

    page.locator("#table-1 header").drag_to(page.locator("#table-3"))

    expect(tools).to_contain_text("breaks next: 1, 3, 2", timeout=10_000)
    expect(page.locator("input[name=rank_1]")).to_have_value("1")
    expect(page.locator("input[name=rank_2]")).to_have_value("3")
    ev = Event.objects.get(tournament=t, kind="break_order_set")
    assert ev.payload["after"] == [1, 3, 2] and ev.actor == director
    ranks = dict(t.tables.values_list("number", "break_rank"))
    assert sorted(ranks, key=ranks.get) == [1, 3, 2]

    # Down the order too: table 1 dropped on table 2 takes its place, the last.
    page.locator("#table-1 header").drag_to(page.locator("#table-2"))
    expect(tools).to_contain_text("breaks next: 3, 2, 1", timeout=10_000)
    screenshot(page, "dashboard-break-order-dragged")
    # The numbers still work the same way.
    page.fill("input[name=rank_2]", "0")
    page.click("#break-order button:has-text('Save break order')")
    expect(tools).to_contain_text("breaks next: 2, 3, 1", timeout=10_000)
    assert page.js_errors == []


def test_colorup_page_sees_races_entered_on_another_screen(page, live_url, director, screenshot):
    """The color-up page polls the version like the dashboard: a race entered on another
    tablet shows up, but never over odd chips typed here and not sent yet."""
    t = services.tournament_create(
        actor=director,
        name="Two tablets",
        tables=2,
        seed=6,
        starting_stack=20000,
        levels=[
            {"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20},
            {"kind": "break", "minutes": 10, "color_up": [25]},
            {"kind": "level", "small_blind": 200, "big_blind": 400, "minutes": 20},
        ],
    )
    for name in NAMES:
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="next", actor=director)
    _log_in(page, live_url, f"/td/{t.pk}/colorup/")

    # Another tablet races table 2: this page shows it within a poll or two.
    seats_2 = list(Seat.objects.filter(tournament=t, table__number=2).order_by("number"))
    colorup.colorup_race_table(
        tournament_id=t.pk,
        table_number=2,
        remove=25,
        odd_chips={seats_2[0].number: 3},
        seed=9,
        actor=director,
    )
    expect(page.locator("#table-2 .result")).to_contain_text("25s raced", timeout=10_000)
    expect(page.locator("#table-2 .rack-plan")).to_contain_text("needs")

    # Odd chips typed at table 1 and not sent: a race elsewhere waits for them.
    odd = page.locator("form[action$='/colorup/1/'] input[name^=odd_]").first
    odd.fill("3")
    colorup.colorup_race_undo(
        tournament_id=t.pk, table_number=2, remove=25, actor=director
    )  # the other tablet takes its race back
    expect(page.locator("#colorup.stale")).to_be_visible(timeout=10_000)
    expect(odd).to_have_value("3")
    expect(page.locator("#table-2 .result")).to_have_count(1)  # not refreshed under the typing
    screenshot(page, "dashboard-colorup-held")
    odd.fill("")  # nothing typed any more: the page catches up
    expect(page.locator("#table-2 .result")).to_have_count(0, timeout=10_000)
    expect(page.locator("#colorup.stale")).to_have_count(0)
    assert page.js_errors == []
