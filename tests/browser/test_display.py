"""Issue 9 in a real browser: the countdown ticks, the level rolls over at zero while the
server does not answer, a move shows on the seating board, and the TV layouts at 1366x768,
1920x1080 and 3840x2160 fit without scrollbars (screenshots in artifacts/screenshots/)."""

from __future__ import annotations

import time

import pytest

from tables.models import Seat
from tourney import services
from tourney.models import Entry, Tournament
from tourney.selectors import display as public

from .conftest import RESOLUTIONS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = [
    "Ann",
    "Bob",
    "Carla",
    "Dmitri",
    "Elena",
    "Farid",
    "Grace",
    "Hiro",
    "Ines",
    "Jonas",
    "Kemal",
    "Lucia",
    "Marek",
    "Nadia",
    "Oscar",
    "Priya",
    "Quentin",
    "Rosa",
    "Sven",
    "Tamara",
]
LAST = [
    "Lee",
    "Stone",
    "Okafor",
    "Novak",
    "García",
    "Haddad",
    "Murphy",
    "Tanaka",
    "Silva",
    "Berg",
    "Yilmaz",
    "Romano",
    "Kowalski",
    "Petrova",
    "Lindqvist",
]


def _tournament(director, *, players: int, levels=None, tables: int = 3, names="full"):
    t = services.tournament_create(
        actor=director,
        name="Friday Night Deepstack",
        seats_per_table=9,
        tables=tables,
        starting_stack=20000,
        buy_in=5000,
        fee=500,
        seed=11,
        levels=levels,
    )
    Tournament.objects.filter(pk=t.pk).update(public_names=names)
    for i in range(players):
        name = f"{FIRST[i % len(FIRST)]} {LAST[(i * 7 + i // len(FIRST)) % len(LAST)]}"
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    t.refresh_from_db()
    return t


def _seconds(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    total = 0
    for p in parts:
        total = total * 60 + p
    return total


# Every visible element of the page: inside the screen, and its content inside its own box
# (html, body and .screen clip, so a document-level scrollbar check could never fail). Only
# names may be cut short with an ellipsis (a long tournament or player name); any other text
# cut, a panel whose rows run past its bottom, a box past the screen's edge is reported.
# test_the_layout_check_sees_what_does_not_fit shows it fails when it should.
OVERFLOWS_JS = """
() => {
  const W = innerWidth, H = innerHeight, bad = [];
  const label = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + (typeof e.className === 'string' && e.className.trim()
       ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  for (const e of document.querySelectorAll('body *')) {
    if (e.tagName === 'SCRIPT' || !e.getClientRects().length) continue;
    const cs = getComputedStyle(e);
    if (cs.visibility === 'hidden') continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
      bad.push(label(e) + ' leaves the screen');
    if (cs.display === 'inline' || e instanceof SVGElement) continue;
    // A box that clips gets 1 px; one that does not may let its text's own ascent and descent
    // spill a little past a tight line-height (nothing is cut), not a row or a block.
    const clips = cs.overflowX !== 'visible' || cs.overflowY !== 'visible';
    const slack = clips ? 1 : Math.max(1, 0.2 * parseFloat(cs.fontSize));
    if (e.scrollHeight > e.clientHeight + slack) bad.push(label(e) + ' overflows its height');
    const mayCut = cs.textOverflow === 'ellipsis' && e.matches('.tv-name, .who');
    if (e.scrollWidth > e.clientWidth + slack && !mayCut)
      bad.push(label(e) + ' overflows its width');
  }
  return bad;
}
"""


def _overflows(page) -> list[str]:
    """What does not fit on the screen (an empty list when everything does)."""
    return page.evaluate(OVERFLOWS_JS)


def test_the_countdown_ticks(page, live_url, director):
    t = _tournament(director, players=12)
    services.clock_action(tournament_id=t.pk, action="start")
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock")
    first = _seconds(page.text_content("#countdown"))
    page.wait_for_timeout(2300)
    second = _seconds(page.text_content("#countdown"))
    assert 19 * 60 <= first <= 20 * 60
    assert first - second in (2, 3)
    assert page.text_content("#level-title") == "Level 1"
    assert page.js_errors == []


def test_the_level_switches_at_zero_with_the_server_silent(page, live_url, director):
    levels = [
        {"kind": "level", "small_blind": 100, "big_blind": 200, "ante": 0, "seconds": 6},
        {"kind": "level", "small_blind": 200, "big_blind": 400, "ante": 50, "seconds": 60},
        {"kind": "break", "seconds": 600, "color_up": [25]},
    ]
    t = _tournament(director, players=6, levels=levels, tables=1)
    # The server stops answering polls: the browser must roll over by itself.
    page.route("**/state.json", lambda route: route.abort())
    services.clock_action(tournament_id=t.pk, action="start")
    t.refresh_from_db()
    boundary_ms = public._epoch_ms(t.clock_at) + 6000
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock")
    assert page.text_content("#blinds") == "100 / 200"
    assert page.get_attribute("body", "data-level-index") == "0"
    page.wait_for_function("() => document.body.dataset.levelIndex === '1'", timeout=10_000)
    switched_ms = int(page.get_attribute("body", "data-switched-at"))
    assert -50 <= switched_ms - boundary_ms < 1000, switched_ms - boundary_ms
    assert page.text_content("#level-title") == "Level 2"
    assert page.text_content("#blinds") == "200 / 400"
    assert page.text_content("#ante") == "Ante 50"
    assert 58 <= _seconds(page.text_content("#countdown")) <= 60
    assert page.get_attribute("body", "data-last-chime") == "level"
    assert page.text_content("#next-level") == "Break · 10:00"
    assert page.js_errors == []


def test_a_move_appears_on_the_seating_board(page, live_url, director):
    t = _tournament(director, players=20)
    page.goto(f"{live_url}/display/{t.display_token}/?view=seating&page=600")
    page.wait_for_selector("#seating-board .seat-row")
    assert page.locator("#seating-board .seat-row").count() == 20
    assert page.locator(".seat-row.moved").count() == 0

    by_table: dict[int, list[int]] = {}
    for entry_id, number in Seat.objects.filter(tournament=t).values_list(
        "entry_id", "table__number"
    ):
        by_table.setdefault(number, []).append(entry_id)
    shortest = min(by_table.values(), key=len)
    result = services.elimination_record(
        tournament_id=t.pk, busts=[(shortest[0], 5000), (shortest[1], 6000)], actor=director
    )
    moved = result["moves"][-1]
    name = Entry.objects.select_related("player").get(pk=moved["entry"]).player.name
    seat = Seat.objects.select_related("table").get(entry_id=moved["entry"])

    page.wait_for_selector(".seat-row.moved", timeout=6000)
    row = page.locator(".seat-row.moved", has_text=name).first
    assert row.locator(".tbl").text_content() == str(seat.table.number)
    assert row.locator(".st").text_content() == str(seat.number)
    assert page.locator("#seating-board .seat-row").count() == 18
    # The moves panel: the newest that fit, then "+k earlier" for the rest.
    moves = [m["name"] for m in public.build_state(t)["moves"]]
    assert name in moves
    shown = page.locator("#moves li:not(.more) .who").all_text_contents()
    more = int(page.get_attribute("#moves", "data-more"))
    assert shown == moves[: len(shown)] and len(shown) + more == len(moves)
    if more:
        assert page.text_content("#moves li.more") == f"+{more} earlier"
    assert page.js_errors == []


@pytest.mark.parametrize("resolution", list(RESOLUTIONS))
def test_tv_layouts_fit_without_scrollbars(page, live_url, director, screenshot, resolution):
    width, height = RESOLUTIONS[resolution]
    t = _tournament(director, players=60, tables=7)
    services.clock_action(tournament_id=t.pk, action="start")
    services.clock_action(tournament_id=t.pk, action="jump", index=4)
    by_table: dict[int, list[int]] = {}
    for entry_id, number in Seat.objects.filter(tournament=t).values_list(
        "entry_id", "table__number"
    ):
        by_table.setdefault(number, []).append(entry_id)
    shortest = min(by_table.values(), key=len)
    services.elimination_record(
        tournament_id=t.pk, busts=[(shortest[0], 5000), (shortest[1], 6000)], actor=director
    )
    page.set_viewport_size({"width": width, "height": height})
    base = f"{live_url}/display/{t.display_token}/"

    page.goto(base + "?view=clock")
    page.wait_for_timeout(300)
    assert not (bad := _overflows(page)), bad
    box = page.locator("#countdown").bounding_box()
    assert box["height"] > 0.2 * height  # readable across the room
    for sel in ("#countdown", "#blinds", "#next-level", ".clock-side"):
        fits = page.evaluate(
            "s => { const e = document.querySelector(s); const r = e.getBoundingClientRect();"
            " return e.scrollWidth <= e.clientWidth + 1 && r.right <= innerWidth"
            " && r.bottom <= innerHeight; }",
            sel,
        )
        assert fits, sel
    screenshot(page, f"display-clock-{resolution}")

    page.goto(base + "?view=seating&page=600")
    page.wait_for_selector("#seating-board .seat-row")
    assert not (bad := _overflows(page)), bad
    inside = page.evaluate(
        "() => { const b = document.getElementById('seating-board').getBoundingClientRect();"
        " return [...document.querySelectorAll('#seating-board .seat-row')].every(r => {"
        " const x = r.getBoundingClientRect(); return x.bottom <= b.bottom + 1"
        " && x.right <= b.right + 1; }); }"
    )
    assert inside
    shown = page.locator("#seating-board .seat-row").count()
    pages = page.text_content("#seating-page")
    assert shown == 58 or (pages.startswith("Page 1 of") and shown < 58)
    screenshot(page, f"display-seating-{resolution}")

    services.clock_action(tournament_id=t.pk, action="jump", index=5)  # the color-up break
    public.forget_version(t.display_token)
    page.goto(base + "?view=clock")
    page.wait_for_selector("#color-up:not([hidden])")
    assert not (bad := _overflows(page)), bad
    screenshot(page, f"display-break-{resolution}")
    assert page.js_errors == []


def test_phone_page_finds_my_seat(page, live_url, director, screenshot):
    t = _tournament(director, players=20, names="initial")
    services.clock_action(tournament_id=t.pk, action="start")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{t.display_token}/")
    # Names show as "Ann L.": the surname alone confirms nothing ...
    page.fill("#find-name", "Lee")
    page.click("#find-form button")
    page.wait_for_selector(".find-error")
    assert page.locator(".seat-card").count() == 0
    # ... the whole full name finds the seat, shown under the public name only.
    entry = Entry.objects.select_related("player").filter(player__name__endswith=" Lee").first()
    page.fill("#find-name", entry.player.name)
    page.click("#find-form button")
    page.wait_for_selector(".seat-card")
    seat = Seat.objects.select_related("table").get(entry=entry)
    card = page.locator(".seat-card", has_text=entry.player.name.split()[0] + " L.").first
    assert card.locator(".tbl").text_content() == str(seat.table.number)
    assert card.locator(".st").text_content() == str(seat.number)
    assert "name=" + entry.player.name.split()[0] in page.url
    assert " Lee" not in page.text_content("#find-results")
    time.sleep(0.2)
    screenshot(page, "player-phone-390x844")
    assert page.js_errors == []


# ---------------------------------------------------------------- the layout check can fail


def test_the_layout_check_sees_what_does_not_fit(page, live_url, director):
    t = _tournament(director, players=6, tables=1)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock")
    assert not (bad := _overflows(page)), bad
    # A block far bigger than the screen, inside boxes that all clip: html, body and .screen
    # hide it from any scrollbar, the check does not.
    page.evaluate(
        "() => { const d = document.createElement('div'); d.id = 'huge';"
        " d.style.height = '5000px'; d.style.width = '9000px';"
        " document.querySelector('.clock-main').appendChild(d); }"
    )
    assert "div#huge leaves the screen" in _overflows(page)
    page.evaluate("() => document.getElementById('huge').remove()")
    assert not (bad := _overflows(page)), bad
    # Rows clipped at the bottom of the payouts panel; a level text cut short.
    page.evaluate(
        "() => { const l = document.getElementById('payouts');"
        " for (let k = 0; k < 80; k++) { const li = document.createElement('li');"
        " li.textContent = 'row ' + k; l.appendChild(li); } }"
    )
    bad = _overflows(page)
    assert any(b.startswith("section.payouts overflows") for b in bad), bad
    page.reload()
    page.evaluate("() => { document.getElementById('next-level').textContent = 'x'.repeat(400); }")
    assert "span#next-level.next-level overflows its width" in _overflows(page)


# ---------------------------------------------------------------- payouts of a big field


def _place_span(text: str) -> tuple[int, int]:
    first, _, last = text.partition("–")
    return int(first), int(last or first)


def test_a_big_payout_table_shows_in_order_with_a_notice(page, live_url, director, screenshot):
    t = _tournament(director, players=400, tables=45)
    services.clock_action(tournament_id=t.pk, action="start")
    payouts = public.build_state(t)["payouts"]
    paid = _place_span(payouts[-1]["places"])[1]
    assert len(payouts) > 30  # more than any of the three screens holds
    for resolution, (width, height) in RESOLUTIONS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_url}/display/{t.display_token}/?view=clock")
        rows = page.evaluate(
            "() => { const l = document.getElementById('payouts');"
            " const p = l.parentElement.getBoundingClientRect();"
            " return [...l.children].map(li => { const r = li.getBoundingClientRect();"
            " return [li.className, li.querySelector('.place').textContent,"
            " li.querySelector('.amount').textContent, r.left, r.top, r.right, r.bottom,"
            " p.left, p.top, p.right, p.bottom]; }); }"
        )
        shown = rows
        # In place order from 1, no gap, each with its amount; column one first (1..k top to
        # bottom), then column two.
        expected_next = 1
        for k, row in enumerate(shown):
            assert row[0] == "", (resolution, row)
            first, last = _place_span(row[1])
            assert first == expected_next, (resolution, [r[1] for r in shown])
            assert row[2] == payouts[k]["amount"]
            expected_next = last + 1
        lefts = [row[3] for row in shown]
        column_two = [k for k, x in enumerate(lefts) if x > lefts[0] + 1]
        assert column_two and column_two == list(range(column_two[0], len(shown))), resolution
        # The notice names exactly the places not shown.
        hidden = paid - expected_next + 1
        assert page.is_visible("#payouts-more")
        assert page.text_content("#payouts-more") == (
            f"+{hidden} more: places {expected_next}–{paid}"
        ), resolution
        assert page.get_attribute("#payouts", "data-more") == str(hidden)
        note = page.locator("#payouts-more").bounding_box()
        for row in rows:  # every row wholly inside the panel, above the notice
            left, top, right, bottom, pl, pt, pr, pb = row[3:]
            assert pl <= left and right <= pr + 1 and pt <= top and bottom <= note["y"] + 1, row
        assert note["y"] + note["height"] <= rows[0][10] + 1
        assert not (bad := _overflows(page)), (resolution, bad)
        screenshot(page, f"display-payouts-400-{resolution}")
    assert page.js_errors == []


# ---------------------------------------------------------------- rotation and paging


def test_the_screen_rotates_between_clock_and_seating(page, live_url, director):
    t = _tournament(director, players=20)
    services.clock_action(tournament_id=t.pk, action="start")
    page.goto(f"{live_url}/display/{t.display_token}/?rotate=5&page=3")
    start = time.monotonic()
    seen: list[tuple[float, str]] = []
    while time.monotonic() - start < 11.5:
        seen.append((time.monotonic() - start, page.evaluate("document.body.dataset.view")))
        page.wait_for_timeout(200)
    changes = [(at, view) for k, (at, view) in enumerate(seen) if k == 0 or seen[k - 1][1] != view]
    assert [view for _, view in changes] == ["clock", "seating", "clock"], changes
    # 5 s each (the board holds one page, so the seating view stays the rotation's 5 s)
    assert 4.0 <= changes[1][0] <= 6.0, changes
    assert 4.0 <= changes[2][0] - changes[1][0] <= 6.0, changes
    assert page.js_errors == []


def test_a_big_field_pages_through_the_seating_board(page, live_url, director):
    t = _tournament(director, players=160, tables=18)
    names = [row[0] for row in public.build_state(t)["seating"]]
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{live_url}/display/{t.display_token}/?view=seating&page=3")
    page.wait_for_selector("#seating-board .seat-row")
    first = page.locator("#seating-board .seat-row .who").all_text_contents()
    size = len(first)
    pages = -(-len(names) // size)
    assert pages >= 2
    assert page.text_content("#seating-page") == f"Page 1 of {pages}"
    assert first == names[:size]  # alphabetical, from the top
    page.wait_for_function(
        "() => document.getElementById('seating-page').textContent.startsWith('Page 2')",
        timeout=6000,
    )
    assert page.text_content("#seating-page") == f"Page 2 of {pages}"
    second = page.locator("#seating-board .seat-row .who").all_text_contents()
    assert second == names[size : 2 * size]  # the next names, in order
    assert not (bad := _overflows(page)), bad
    assert page.js_errors == []


# ---------------------------------------------------------------- chimes and sound

# The chimes are sound files (issue 29, static/js/announce.js): record which ones play.
COUNT_PLAYS = (
    "window.__plays = []; HTMLMediaElement.prototype.play = function () {"
    " window.__plays.push(this.src.split('/').pop()); return Promise.resolve(); };"
)
WARNING_LEVELS = [
    {"kind": "level", "small_blind": 100, "big_blind": 200, "ante": 0, "seconds": 63},
    {"kind": "level", "small_blind": 200, "big_blind": 400, "ante": 0, "seconds": 600},
]


@pytest.mark.parametrize("sound", [True, False], ids=["sound-on", "muted"])
def test_the_warning_and_level_chimes_sound_only_when_on(page, live_url, director, sound):
    t = _tournament(director, players=6, levels=WARNING_LEVELS, tables=1)
    page.add_init_script(COUNT_PLAYS)
    services.clock_action(tournament_id=t.pk, action="start")
    query = "?view=clock&sound=1" if sound else "?view=clock"  # muted unless asked
    page.goto(f"{live_url}/display/{t.display_token}/{query}")
    assert page.get_attribute("body", "data-sound") == ("on" if sound else "off")
    assert page.text_content("#sound") == ("Sound on" if sound else "Sound off · click to turn on")
    assert "attention.wav" not in page.evaluate("window.__plays")
    # A minute before the level ends: the warning, the attention chime.
    page.wait_for_function("() => document.body.dataset.lastChime === 'warning'", timeout=8000)
    plays = page.evaluate("window.__plays")
    assert plays.count("attention.wav") == (1 if sound else 0)
    assert "is-last-minute" in page.get_attribute("body", "class")
    # The next level: the level chime.
    services.clock_action(tournament_id=t.pk, action="jump", index=1)
    page.wait_for_function("() => document.body.dataset.lastChime === 'level'", timeout=6000)
    after = page.evaluate("window.__plays")
    assert after.count("chime.wav") == plays.count("chime.wav") + (1 if sound else 0)
    assert after == [] or sound
    assert page.js_errors == []


def test_sound_a_tv_browser_blocks_says_off_until_clicked(browser, live_url, director):
    from .conftest import CHROMIUM, CHROMIUM_ARGS

    # A TV's browser as it comes: audio only after a user gesture (no autoplay flag).
    strict = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[a for a in CHROMIUM_ARGS if "autoplay" not in a]
    )
    try:
        page = strict.new_page(viewport={"width": 1920, "height": 1080})
        t = _tournament(director, players=6, levels=WARNING_LEVELS, tables=1)
        page.goto(f"{live_url}/display/{t.display_token}/?view=clock&sound=1")
        page.wait_for_timeout(300)
        assert page.evaluate("window.AudioContext !== undefined")
        assert page.get_attribute("body", "data-sound") == "blocked"
        assert page.text_content("#sound") == "Sound off · click to turn on"
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        page.click("#sound")  # the gesture the browser waits for
        page.wait_for_function("() => document.body.dataset.sound === 'on'", timeout=3000)
        assert page.text_content("#sound") == "Sound on"
        assert page.get_attribute("#sound", "aria-pressed") == "true"
        page.click("#sound")  # and off again
        assert page.get_attribute("body", "data-sound") == "off"
        assert page.text_content("#sound") == "Sound off · click to turn on"
    finally:
        strict.close()


# ---------------------------------------------------------------- the clock against the server


@pytest.mark.parametrize("skew_ms", [7 * 60 * 1000, -5 * 60 * 1000], ids=["fast", "slow"])
def test_the_countdown_follows_the_server_when_the_tv_clock_is_wrong(
    page, live_url, director, skew_ms
):
    page.add_init_script(
        f"(() => {{ const skew = {skew_ms}; const real = Date.now.bind(Date);"
        " Date.now = () => real() + skew; const origin = performance.timeOrigin + skew;"
        " Object.defineProperty(performance, 'timeOrigin', { get: () => origin }); })();"
    )
    t = _tournament(director, players=6, tables=1)
    services.clock_action(tournament_id=t.pk, action="start")
    t.refresh_from_db()
    end_ms = public._epoch_ms(t.clock_at) + t.clock_left_ms
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock&poll=1")
    assert abs(page.evaluate("Date.now()") - time.time() * 1000 - skew_ms) < 1000
    off = []
    for _ in range(30):  # 3 s, across a few polls
        shown = _seconds(page.text_content("#countdown"))
        expected = -(-(end_ms - time.time() * 1000) // 1000)
        if abs(shown - expected) > 1:
            off.append((shown, expected))
        page.wait_for_timeout(100)
    assert off == []
    assert page.text_content("#level-title") == "Level 1"
    assert page.js_errors == []


def test_the_server_confirms_the_rollover_on_the_next_poll(page, live_url, director):
    levels = [
        {"kind": "level", "small_blind": 100, "big_blind": 200, "ante": 0, "seconds": 4},
        {"kind": "level", "small_blind": 200, "big_blind": 400, "ante": 0, "seconds": 60},
        {"kind": "break", "seconds": 600, "color_up": []},
    ]
    t = _tournament(director, players=6, levels=levels, tables=1)
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if "state.json" in r.url else None)
    services.clock_action(tournament_id=t.pk, action="start")
    t.refresh_from_db()
    first_etag = public.etag_of(t)
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock&poll=1")
    # The browser rolls over by itself; the server has nothing new (no worker announced the
    # level, the anchor did not move): the polls stay 304.
    page.wait_for_function("() => document.body.dataset.levelIndex === '1'", timeout=8000)
    switched = page.get_attribute("body", "data-switched-at")
    page.wait_for_timeout(1500)
    assert statuses and set(statuses) == {304}, statuses
    # The worker's announcement (what the Celery task runs at the boundary) writes the level
    # start: the next poll gets the new state and it agrees with what the screen shows.
    with page.expect_response(
        lambda r: "state.json" in r.url and r.status == 200, timeout=5000
    ) as answer:
        assert services.clock_announce(tournament_id=t.pk) == [1]
    body = answer.value.json()
    assert body["level_index"] == 1 and body["status"] == "running"
    assert body["etag"] != first_etag
    page.wait_for_function(f"() => document.body.dataset.stateEtag === {body['etag']!r}")
    assert page.get_attribute("body", "data-level-index") == "1"
    assert page.get_attribute("body", "data-switched-at") == switched  # no second switch
    assert page.text_content("#level-title") == "Level 2"
    expected = -(-body["remaining_ms"] // 1000)
    assert abs(_seconds(page.text_content("#countdown")) - expected) <= 2
    assert page.js_errors == []


def test_the_clock_goes_on_past_the_items_it_holds_without_a_worker(page, live_url, director):
    levels = [
        {"kind": "level", "small_blind": 25 * k, "big_blind": 50 * k, "ante": 0, "seconds": 1}
        for k in range(1, 17)
    ] + [{"kind": "level", "small_blind": 5000, "big_blind": 10000, "ante": 0, "seconds": 600}]
    t = _tournament(director, players=6, levels=levels, tables=1)
    services.clock_action(tournament_id=t.pk, action="start")
    t.refresh_from_db()
    end_ms = public._epoch_ms(t.clock_at) + 16_000 + 600_000
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock&poll=1")
    assert int(page.get_attribute("body", "data-level-index")) < public.UPCOMING_ITEMS
    # 13 items held, 17 levels: no worker announces anything, nothing is written, the ETag
    # never changes; the screen still gets to level 17 within a poll of its start.
    page.wait_for_function(
        "() => document.getElementById('level-title').textContent === 'Level 17'",
        timeout=25_000,
    )
    assert time.time() * 1000 - (end_ms - 600_000) < 2500
    assert page.text_content("#blinds") == "5,000 / 10,000"
    expected = -(-(end_ms - time.time() * 1000) // 1000)
    assert abs(_seconds(page.text_content("#countdown")) - expected) <= 1
    assert page.js_errors == []


def test_time_to_the_next_break_beyond_the_items_held_counts_from_the_server(
    page, live_url, director
):
    levels = [
        {"kind": "level", "small_blind": 25 * k, "big_blind": 50 * k, "ante": 0, "seconds": 60}
        for k in range(1, 16)
    ] + [{"kind": "break", "seconds": 600, "color_up": []}]
    t = _tournament(director, players=6, levels=levels, tables=1)
    services.clock_action(tournament_id=t.pk, action="start")
    t.refresh_from_db()
    break_ms = public._epoch_ms(t.clock_at) + 15 * 60_000  # 15 levels, 13 held
    page.goto(f"{live_url}/display/{t.display_token}/?view=clock")
    for _ in range(3):
        expected = -(-(break_ms - time.time() * 1000) // 1000)
        assert abs(_seconds(page.text_content("#next-break")) - expected) <= 1
        page.wait_for_timeout(700)
    assert page.js_errors == []
