"""The director home (issue 28): today's and upcoming events, one row each with its clock,
field, tables and alerts, read in a fixed number of queries; the rows' partial the home polls;
the past events."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from tables.models import Seat, Table
from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.models import Tournament
from tourney.selectors import room_home

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 6, 5, 12, 0, tzinfo=UTC)


def make(director, name: str, *, tables: int = 2, players: int = 0, **fields) -> Tournament:
    t = services.tournament_create(
        actor=director, name=name, tables=tables, seed=3, levels=TWO_LEVELS
    )
    for i in range(players):
        services.entry_register(tournament_id=t.pk, name=f"{name} {i}", actor=director)
    if fields:
        Tournament.objects.filter(pk=t.pk).update(**fields)
    t.refresh_from_db()
    return t


def start(t: Tournament, director) -> None:
    services.clock_action(tournament_id=t.pk, action="start", actor=director)


def row_of(rows, t):
    return next(r for r in rows if r["id"] == t.pk)


@time_machine.travel(NOON, tick=False)
def test_today_and_upcoming_in_start_order_finished_last(director):
    late = make(director, "Late", starts_at=NOON + timedelta(hours=7))
    done = make(director, "Done", tables=0, status="finished", starts_at=NOON - timedelta(hours=3))
    early = make(director, "Early", starts_at=NOON - timedelta(hours=1))
    tomorrow = make(director, "Tomorrow", tables=0, starts_at=NOON + timedelta(days=1))
    old = make(director, "Old", tables=0, status="finished", starts_at=NOON - timedelta(days=3))
    stale = make(director, "Stale", tables=0, starts_at=NOON - timedelta(days=3))
    ids = [r["id"] for r in room_home.home_rows()]
    assert ids[-1] == done.pk  # finished today: at the bottom
    assert ids.index(early.pk) < ids.index(late.pk) < ids.index(tomorrow.pk)
    assert old.pk not in ids and stale.pk not in ids
    past, more = room_home.past_rows()
    assert {r["id"] for r in past} == {old.pk, stale.pk} and not more
    assert row_of(room_home.home_rows(), late)["starts_text"] == "19:00"
    assert row_of(room_home.home_rows(), tomorrow)["starts_text"] == "Sat 6 Jun 12:00"


def test_a_running_event_shows_its_level_clock_players_and_tables(director):
    with time_machine.travel(NOON, tick=False):
        t = make(director, "Main", tables=3, players=20)
        start(t, director)
        services.clock_action(tournament_id=t.pk, action="adjust", seconds=-300, actor=director)
        row = row_of(room_home.home_rows(), t)
    assert row["status"] == "running"
    assert row["level_text"] == "Level 1"
    assert row["blinds_text"] == "100 / 200 · BB ante 200"
    assert row["remaining_ms"] == 15 * 60 * 1000
    assert row["remaining_text"] == "15:00"
    assert (row["players_left"], row["entries"]) == (20, 20)
    assert row["tables"] == [1, 2, 3] and row["tables_text"] == "1–3"
    assert row["alerts"] == []


def test_a_registering_event_has_no_level_yet(director):
    t = make(director, "Turbo", players=3)
    row = row_of(room_home.home_rows(), t)
    assert (row["status"], row["level"], row["remaining_ms"]) == ("registering", None, None)
    assert row["alerts"] == []


def test_level_ending_and_paused(director):
    with time_machine.travel(NOON, tick=False) as clock:
        t = make(director, "Main", tables=1, players=4)
        start(t, director)
        clock.shift(timedelta(minutes=18, seconds=30))
        row = row_of(room_home.home_rows(), t)
        assert row["alerts"] == [
            {"code": "level_ending", "message": room_home.MSG_LEVEL_ENDING % {"left": "1:30"}}
        ]
        services.clock_action(tournament_id=t.pk, action="pause", actor=director)
        row = row_of(room_home.home_rows(), t)
    assert row["status"] == "paused"
    assert row["alerts"] == []  # a paused clock ends no level


def test_a_break_with_a_color_up_due(director):
    t = make(director, "Main", tables=1, players=4)
    start(t, director)
    services.clock_action(tournament_id=t.pk, action="jump", index=1, actor=director)
    row = row_of(room_home.home_rows(), t)
    assert row["status"] == "on break"
    assert row["level_text"] == "Break"
    assert {"code": "colorup_due", "message": "Color-up due: 25 (green)"} in row["alerts"]


def test_a_table_to_break_then_tables_to_balance(director):
    t = make(director, "Main", tables=3, players=12)  # 4, 4, 4
    start(t, director)
    # Players gone from the tables without the services (a pending state, as the dashboard
    # sees after manual moves): RULES 3.4 - 8 players fit in two tables of 9.
    for number in (1, 2):
        seats = Seat.objects.filter(tournament=t, table__number=number).order_by("number")
        Seat.objects.filter(pk__in=[s.pk for s in seats[:2]]).delete()
    row = row_of(room_home.home_rows(), t)
    first = Table.objects.filter(tournament=t, status="open").order_by("break_rank", "-number")[0]
    assert row["alerts"] == [
        {"code": "table_to_break", "message": room_home.MSG_TO_BREAK % {"table": first.number}}
    ]
    t2 = make(director, "Wide", tables=2, players=14)  # 7 and 7 at two tables of 9
    start(t2, director)
    gone = Seat.objects.filter(tournament=t2, table__number=t2.tables.order_by("number")[0].number)
    Seat.objects.filter(pk__in=[s.pk for s in gone.order_by("number")[:3]]).delete()  # 4 and 7
    row = row_of(room_home.home_rows(), t2)
    assert row["alerts"] == [
        {"code": "balance", "message": room_home.MSG_BALANCE % {"most": 7, "least": 4}}
    ]


@pytest.mark.parametrize("count", [1, 10])
def test_the_rows_are_read_in_a_fixed_number_of_queries(
    director, count, django_assert_max_num_queries
):
    for i in range(count):
        t = make(director, f"E{i}", tables=1, players=2)
        if i % 2:
            start(t, director)
    with django_assert_max_num_queries(5):
        rows = room_home.home_rows()
    assert len(rows) == count


# ---------------------------------------------------------------- the screens


def test_the_home_links_directors_to_the_dashboard_and_polls(client, director):
    t = make(director, "Main Event", players=2)
    client.force_login(director)
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("tourney-dashboard", args=[t.pk])}">Main Event</a>' in html
    assert f'hx-get="{reverse("tourney-home-rows")}" hx-trigger="every 5s"' in html
    assert f'href="{reverse("tourney-room")}"' in html
    assert f'href="{reverse("tourney-past")}"' in html
    assert f'href="{reverse("tourney-dashboard-setup")}"' in html  # the buttons stay


def test_the_desk_gets_the_desk_link_and_the_rows_partial(client, desk_clerk, director):
    t = make(director, "Main Event", tables=2, players=2)
    client.force_login(desk_clerk)
    html = client.get(reverse("tourney-home-rows")).content.decode()
    assert "<html" not in html
    assert f'href="{reverse("tourney-desk", args=[t.pk])}">Main Event</a>' in html
    assert reverse("tourney-dashboard", args=[t.pk]) not in html
    assert reverse("tourney-room") not in client.get(reverse("home")).content.decode()
    assert 'class="r-tables">1, 2</td>' in html


def test_the_past_page_pages(client, director):
    with time_machine.travel(NOON - timedelta(days=10), tick=False):
        old = [make(director, f"Old {i}", tables=0, status="finished") for i in range(3)]
    client.force_login(director)
    html = client.get(reverse("tourney-past")).content.decode()
    for t in old:
        assert t.name in html
    assert 'id="older"' not in html
    assert client.get(reverse("tourney-past") + "?page=x").status_code == 200
