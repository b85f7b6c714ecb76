"""Issue 26, the flight's line on the clock screens (RULES 10.2): the TV, the phone page and
the dashboard's clock panel say where a Day 1 flight stops (its last level by the number the
clock shows, its field size, or both), that the day is over once it has ended (and the clock
they show is the flight's, stopped at its end), and "Day 2" on a later day; a tournament of
no multi-day event shows nothing and costs no query more."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from tests.services.test_flights_services import T0, _bag_all, _event, _flights, _play
from tourney import services
from tourney.models import Player, Tournament
from tourney.selectors import display as public
from tourney.selectors import flights as reads
from tourney.services import flights
from tourney.views.dashboard.reads import clock_panel

pytestmark = pytest.mark.django_db

LEVEL_END = "Day 1A — bagging at the end of level 2"  # TWO_LEVELS: item 2, after a break
PLAYERS_END = "Day 1A — plays down to 3 players"
BOTH_ENDS = "Day 1A — bagging at the end of level 2 or at 3 players"
OVER = "Day 1A — the day is over: bag and tag"
BAGGED = "Day 1A — the day is over: the chips are bagged for Day 2"


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # the display's version and state caches
    yield
    cache.clear()


def _flight(director, **end) -> Tournament:
    (t,) = _flights(_event(director, letters=["A"], **end))
    return t


def _screens(client, director, t: Tournament) -> dict[str, str]:
    """The TV page, the phone page and the dashboard, as HTML."""
    cache.clear()
    client.force_login(director)
    return {
        "tv": client.get(reverse("tourney-display", args=[t.display_token])).content.decode(),
        "phone": client.get(reverse("tourney-player", args=[t.display_token])).content.decode(),
        "dashboard": client.get(reverse("tourney-dashboard", args=[t.pk])).content.decode(),
    }


def _line_in(html: str) -> str:
    """The text of the page's one flight line element."""
    assert html.count('id="flight-line"') == 1
    start = html.index('id="flight-line"')
    return html[html.index(">", start) + 1 : html.index("</p>", start)]


def _start(t: Tournament, director, players: int = 4) -> None:
    with time_machine.travel(T0, tick=False):
        for i in range(players):
            services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
        services.clock_action(tournament_id=t.pk, action="start", actor=director)


# ---------------------------------------------------------------- the wording


@pytest.mark.parametrize(
    ("end", "line"),
    [
        ({"end_at_level": 2, "end_at_players": None}, LEVEL_END),
        ({"end_at_players": 3}, PLAYERS_END),
        ({"end_at_level": 2, "end_at_players": 3}, BOTH_ENDS),
    ],
)
def test_every_screen_says_where_the_flight_stops(client, director, end, line):
    t = _flight(director, **end)
    assert reads.flight_line(t) == line
    for screen, html in _screens(client, director, t).items():
        assert _line_in(html) == escape(line), screen


def _level(sb: int) -> dict:
    return {"kind": "level", "small_blind": sb, "big_blind": 2 * sb, "ante": 0, "minutes": 20}


BREAK = {"kind": "break", "minutes": 10}
# Items 0..4: level 1, a break, level 2, a break, level 3.
TWO_BREAKS = [_level(100), BREAK, _level(200), BREAK, _level(300)]


def test_the_level_is_the_number_the_clock_shows_not_the_item_index(client, director):
    """RULES 10.2: the flight's last level is an item index; the breaks before it do not
    count (item 4 is level 3)."""
    t = _flight(director, levels=TWO_BREAKS, end_at_level=4, end_at_players=None)
    line = "Day 1A — bagging at the end of level 3"
    assert reads.flight_line(t) == line
    for screen, html in _screens(client, director, t).items():
        assert _line_in(html) == escape(line), screen
    t.end_at_level = 0
    assert reads.flight_line(t) == "Day 1A — bagging at the end of level 1"
    t.end_at_level = 3  # a break as the last item: the break after level 2
    assert reads.flight_line(t) == "Day 1A — bagging at the break after level 2"


def test_a_flight_down_to_its_number_says_the_day_is_over_then_bagged(client, director):
    t = _flight(director)  # plays down to 3
    _play(t, director, [Player.objects.create(name=f"X{i}") for i in range(5)])
    t.refresh_from_db()
    for screen, html in _screens(client, director, t).items():
        assert _line_in(html) == escape(OVER), screen
        assert 'class="flight-line over"' in html, screen
    _bag_all(t, director)
    flights.flight_bag_close(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert reads.flight_line(t) == BAGGED
    for screen, html in _screens(client, director, t).items():
        assert _line_in(html) == escape(BAGGED), screen


def test_day2_says_day_2(client, director):
    t = _flight(director)
    _play(t, director, [Player.objects.create(name=f"X{i}") for i in range(5)])
    t.refresh_from_db()
    _bag_all(t, director)
    flights.flight_bag_close(tournament_id=t.pk, actor=director)
    day2 = flights.day2_build(event_id=t.multi_day_event_id, tables=1, actor=director)
    assert reads.flight_line(day2) == "Day 2"
    for screen, html in _screens(client, director, day2).items():
        assert _line_in(html) == "Day 2", screen
    cache.clear()
    assert public.build_state(day2)["flight"] == {"line": "Day 2", "over": False}


def test_a_tournament_of_no_event_shows_no_line(client, director, tournament):
    assert reads.flight_line(tournament) == ""
    assert reads.day_screen(tournament) is None
    for screen, html in _screens(client, director, tournament).items():
        assert "flight-line" not in html, screen
    assert "flight" not in public.build_state(tournament)
    assert clock_panel(tournament)["flight_line"] == ""


# ---------------------------------------------------------------- the flight's clock


def test_the_screens_show_the_flights_clock_stopped_at_its_last_level(client, director):
    t = _flight(director, end_at_level=0, end_at_players=None)
    _start(t, director)
    with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
        t.refresh_from_db()
        state = public.build_state(t)
        # The screens roll over by themselves: never into the break after the last level.
        assert [it["kind"] for it in state["items"]] == ["level"]
        assert state["more_items"] is False and state["ms_to_next_break"] is None
        assert clock_panel(t)["break_in_text"] is None  # the flight stops before the break
        flight = {k: state["flight"][k] for k in ("line", "over")}
        assert flight == {"line": "Day 1A — bagging at the end of level 1", "over": False}
    # Past the end, before the beat's sweep has written the stop: already the flight's clock.
    late = T0 + timedelta(minutes=25)
    with time_machine.travel(late, tick=False):
        cache.clear()
        state = public.build_state(t)
        assert (state["status"], state["level_index"], state["remaining_ms"]) == ("finished", 0, 0)
        assert (state["flight"]["line"], state["flight"]["over"]) == (OVER, True)
        assert public.clock_words(state)["note"] == "Day over"
        assert public.clock_words(state)["next"] == "Bag and tag"
        assert (state["items"][0]["kind"], state["items"][0]["number"]) == ("level", 1)
        panel = clock_panel(t)
        assert (panel["clock"].status, panel["clock"].index) == ("finished", 0)
        assert panel["flight_over"] and panel["next_item"] is None
        pages = _screens(client, director, t)
    assert "Day over" in pages["tv"] and "Tournament complete" not in pages["tv"]
    assert "is-day-over" in pages["tv"] and "is-day-over" in pages["phone"]
    assert "The day is over: the clock stopped at the flight's end" in pages["dashboard"]
    assert ">Level 1<" in pages["tv"]


def test_the_dashboard_says_the_last_level_of_a_running_flight(client, director):
    t = _flight(director, end_at_level=2, end_at_players=None)
    _start(t, director)
    with time_machine.travel(T0 + timedelta(minutes=35), tick=False):  # level 2
        t.refresh_from_db()
        panel = clock_panel(t)
        assert panel["clock"].index == 2 and panel["flight_last"]
        assert panel["next_item"] is None and not panel["flight_over"]
        html = _screens(client, director, t)["dashboard"]
    assert "Last level of the flight: the clock stops at its end" in html
    assert _line_in(html) == escape(LEVEL_END)


# ---------------------------------------------------------------- queries


def test_no_query_more_for_a_tournament_of_no_event(tournament, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert reads.day_screen(tournament) is None
        assert reads.flight_line(tournament) == ""


def _queries(t: Tournament) -> int:
    t = Tournament.objects.get(pk=t.pk)
    with CaptureQueriesContext(connection) as ctx:
        public.build_state(t)
    return len(ctx.captured_queries)


def test_a_flight_costs_the_display_at_most_two_queries_more(director):
    """A flight playing down to a number counts the players still in, once (RULES 10.2); the
    same tournament out of its event reads what any tournament reads."""
    t = _flight(director, end_at_level=2, end_at_players=3)
    other = _flight(director, end_at_level=2, end_at_players=3)
    _start(t, director)
    _start(other, director)
    Tournament.objects.filter(pk=other.pk).update(multi_day_event=None)
    with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
        flight, plain = _queries(t), _queries(other)
    assert flight <= plain + 2  # fewer, even: a flight reads no payouts of its own


# ---------------------------------------------------------------- the money (RULES 10.6)


def test_a_flights_screens_show_the_events_pool_and_pay_no_places(client, director):
    """A flight pays nothing of its own: the TV and the phone show the pool of every flight so
    far, as the event's, and say where the places are paid; a tournament of no event shows
    its own payouts."""
    event = _event(director, letters=["A", "B"])
    a, b = _flights(event)
    _start(a, director, players=4)
    _start(b, director, players=3)
    state = public.build_state(Tournament.objects.get(pk=b.pk))
    assert state["prize_pool"] == "700"  # 7 entries of 100.00 in two flights
    assert state["payouts"] == []
    assert state["flight"]["pool_label"] == "Event pool"
    assert state["flight"]["payouts_note"] == public.MSG_FLIGHT_PAYOUTS
    pages = _screens(client, director, b)
    for page in ("tv", "phone"):
        assert public.MSG_FLIGHT_PAYOUTS in pages[page]
        assert '<dt id="prize-pool-label">Event pool</dt>' in pages[page]
    Tournament.objects.filter(pk=b.pk).update(multi_day_event=None, day=1, flight="")
    plain = public.build_state(Tournament.objects.get(pk=b.pk))
    assert plain["prize_pool"] == "300" and plain["payouts"] and "flight" not in plain
