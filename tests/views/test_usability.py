"""Issue 31, items 8, 9, 11 (CSV), 12 and 13: what a new director reached for on the
dashboard, the desk and the users page."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from tables.models import Seat
from tourney import services
from tourney.models import Entry, Tournament
from tourney.selectors import clock as clock_reads

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, t: Tournament, *args) -> str:
    return reverse(name, args=[t.pk, *args])


def _seat(t: Tournament, table: int, seat: int) -> Seat:
    return Seat.objects.select_related("entry__player").get(
        tournament=t, table__number=table, number=seat
    )


# ---------------------------------------------------------------- item 8: a single bust


def test_a_single_bust_needs_table_and_seat_only(td, seated_tournament):
    """RULES 7.1: the starting stack orders players out in the same hand; one alone needs none."""
    t = seated_tournament
    victim = _seat(t, 1, 1).entry
    r = td.post(url("tourney-dashboard-eliminations", t), {"table_1": "1", "seat_1": "1"}, **HX)
    assert r.status_code == 200
    body = r.content.decode()
    assert victim.player.name in body and 'name="confirm"' in body
    r = td.post(
        url("tourney-dashboard-eliminations", t),
        {"confirm": "1", "entry_1": str(victim.pk), "stack_1": ""},
        **HX,
    )
    assert r.status_code == 200
    victim.refresh_from_db()
    assert victim.status == Entry.Status.BUSTED
    assert victim.place == 20
    assert victim.bust_stack is None


def test_a_single_bust_through_the_service_needs_no_stack(seated_tournament, director):
    t = seated_tournament
    victim = _seat(t, 2, 3).entry
    services.elimination_record(tournament_id=t.pk, busts=[(victim.pk, None)], actor=director)
    victim.refresh_from_db()
    assert (victim.status, victim.place, victim.bust_stack) == (Entry.Status.BUSTED, 20, None)


def test_two_out_in_one_hand_still_need_their_stacks(seated_tournament, director):
    from tourney.engine.errors import DomainError

    t = seated_tournament
    a, b = _seat(t, 1, 1).entry, _seat(t, 1, 2).entry
    with pytest.raises(DomainError) as err:
        services.elimination_record(tournament_id=t.pk, busts=[(a.pk, 500), (b.pk, None)])
    assert err.value.message == services.MSG_STACKS_NEEDED
    assert not Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED).exists()


def test_hand_for_hand_needs_the_stack_of_a_single_bust(td, seated_tournament, director):
    """RULES 7.3: every bust of a hand-for-hand round is ordered by the starting stacks."""
    t = seated_tournament
    services.hand_for_hand_set(tournament_id=t.pk, on=True, actor=director)
    r = td.post(url("tourney-dashboard-eliminations", t), {"table_1": "1", "seat_1": "1"}, **HX)
    assert r.status_code == 400
    assert "hand for hand is on: give the stack" in r.content.decode()
    assert not Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED).exists()


def test_the_bust_button_says_what_it_does(td, seated_tournament):
    body = td.get(url("tourney-dashboard", seated_tournament)).content.decode()
    assert "Bust…</button>" in body
    assert "Check players" not in body


def test_an_alternate_seated_after_a_bust_is_a_move_to_announce(td, director):
    """RULES 1.3: the first alternate takes the seat a bust freed; the floor calls them to
    it, so the dashboard lists it with the moves to announce (from "alternate")."""
    from tables.models import Move

    t = services.tournament_create(
        actor=director,
        name="Small room",
        tables=1,
        seats_per_table=3,
        seed=3,
        options={"auto_open_tables": False},
    )
    entries = [
        services.entry_register(tournament_id=t.pk, name=f"Guest {n}", actor=director)
        for n in range(1, 5)
    ]
    alternate = entries[3]
    assert Entry.objects.get(pk=alternate.pk).status == Entry.Status.ALTERNATE
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.elimination_record(tournament_id=t.pk, busts=[(entries[0].pk, None)], actor=director)
    seat = Seat.objects.get(entry=alternate)
    body = td.get(url("tourney-dashboard-moves", t), **HX).content.decode()
    assert "<b>Guest 4</b>, alternate → <b>T1 S" in body
    assert f"T{seat.table.number} S{seat.number}</b>" in body
    move = Move.objects.get(tournament=t, entry=alternate)
    assert (move.reason, move.from_table, move.announced) == ("seat", None, False)
    # ticked off like any move
    td.post(url("tourney-dashboard-moves", t), {"move": str(move.pk)}, **HX)
    move.refresh_from_db()
    assert move.announced


# ---------------------------------------------------------------- item 11: the results CSV


def test_the_results_csv_gives_money_in_units():
    from tourney.views.money import csv_money

    assert (csv_money(96300), csv_money(5), csv_money(123456789)) == (
        "963.00",
        "0.05",
        "1234567.89",
    )


# ---------------------------------------------------------------- item 12: navigation


@pytest.mark.parametrize(
    "name",
    [
        "tourney-dashboard",
        "tourney-dashboard-structure",
        "tourney-dashboard-colorup",
        "tourney-dashboard-floor",
    ],
)
def test_every_director_page_has_log_out(td, seated_tournament, name):
    body = td.get(url(name, seated_tournament)).content.decode()
    assert f'action="{reverse("logout")}"' in body
    assert "Log out</button>" in body


@pytest.mark.parametrize("name", ["tourney-dashboard-users", "tourney-dashboard-setup"])
def test_the_users_and_setup_pages_have_log_out(td, name):
    body = td.get(reverse(name)).content.decode()
    assert "Log out</button>" in body


def test_the_desk_links_back_to_the_dashboard_for_a_director(td, seated_tournament):
    t = seated_tournament
    body = td.get(url("tourney-desk", t)).content.decode()
    assert f'href="{url("tourney-dashboard", t)}"' in body
    assert "Log out</button>" in body


def test_the_desk_shows_a_clerk_no_dashboard_link(client, desk_clerk, seated_tournament):
    client.force_login(desk_clerk)
    t = seated_tournament
    body = client.get(url("tourney-desk", t)).content.decode()
    assert f'href="{url("tourney-dashboard", t)}"' not in body
    assert "Log out</button>" in body


def test_add_user_defaults_to_desk_clerk(td):
    body = td.get(reverse("tourney-dashboard-users")).content.decode()
    form = body[body.index('id="add-user"') :]
    form = form[: form.index("</form>")]
    assert '<option value="desk" selected>desk clerk</option>' in form
    assert '<option value="director">director</option>' in form


def test_the_event_log_filter_is_in_words(td, seated_tournament, director):
    t = seated_tournament
    victim = _seat(t, 1, 1).entry
    services.elimination_record(tournament_id=t.pk, busts=[(victim.pk, 100)], actor=director)
    body = td.get(url("tourney-dashboard-log", t), **HX).content.decode()
    assert '<option value="elimination">Eliminations</option>' in body
    assert '<option value="entry_registered">Registrations</option>' in body
    assert ">elimination<" not in body and ">entry_registered<" not in body
    # the filter still works by kind
    body = td.get(url("tourney-dashboard-log", t) + "?kind=elimination", **HX).content.decode()
    assert '<option value="elimination" selected>Eliminations</option>' in body


# ---------------------------------------------------------------- item 13: console, demo


def test_every_page_names_its_icon(td, seated_tournament, client):
    t = seated_tournament
    for path in (
        url("tourney-dashboard", t),
        url("tourney-desk", t),
        reverse("tourney-display", args=[t.display_token]),
        reverse("tourney-player", args=[t.display_token]),
        reverse("tourney-results-print", args=[t.pk]),
    ):
        body = td.get(path).content.decode()
        assert 'rel="icon" href="/static/img/favicon.svg"' in body, path
    r = client.get("/favicon.ico")
    assert r.status_code == 301 and r["Location"] == "/static/img/favicon.svg"


def test_demo_prints_the_urls_of_the_port_served(capsys, monkeypatch):
    monkeypatch.setenv("PORT", "8123")
    call_command("demo")
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8123/td/" in out and "http://127.0.0.1:8123/desk/" in out
    assert ":8000" not in out


def test_demo_defaults_to_the_procfile_port(capsys, monkeypatch):
    from pathlib import Path

    from django.conf import settings

    monkeypatch.delenv("PORT", raising=False)
    call_command("demo")
    assert "http://127.0.0.1:8000/td/" in capsys.readouterr().out
    procfile = (Path(settings.BASE_DIR) / "Procfile").read_text()
    assert "gunicorn --config gunicorn.conf.py" in procfile
    conf = (Path(settings.BASE_DIR) / "gunicorn.conf.py").read_text()
    assert "os.environ.get('PORT', '8000')" in conf


# ---------------------------------------------------------------- item 9: clock and structure


@pytest.mark.parametrize(
    ("typed", "seconds"),
    [("12", 720), ("12:30", 750), (" 7:05 ", 425), ("1:05:00", 3900), ("90", 5400)],
)
def test_time_left_is_read_as_a_director_types_it(typed, seconds):
    from tourney.views.dashboard.panels import time_left_seconds

    assert time_left_seconds(typed) == seconds


@pytest.mark.parametrize("typed", ["", "abc", "12:75", "1:2:3:4", "-5", "12.5", "١٢"])
def test_time_left_that_is_no_time_is_none(typed):
    from tourney.views.dashboard.panels import time_left_seconds

    assert time_left_seconds(typed) is None


def test_the_director_types_the_time_left_and_can_undo_it(td, seated_tournament, director):
    """RULES 4.3: the current item's time left changes; recorded, undoable."""
    from tourney.models import Event
    from tourney.services.undo import action_undo

    t = seated_tournament
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="pause", actor=director)
    t.refresh_from_db()
    left_before = clock_reads.clock_read(t).remaining_ms
    r = td.post(url("tourney-dashboard-clock", t), {"action": "set", "left": "12:30"}, **HX)
    assert r.status_code == 200
    assert 'data-remaining-ms="750000"' in r.content.decode()
    t.refresh_from_db()
    clock = clock_reads.clock_read(t)
    assert (clock.index, clock.remaining_ms, clock.status) == (0, 750_000, "paused")
    ev = Event.objects.filter(tournament=t).latest("id")
    assert (ev.kind, ev.payload["seconds"]) == ("clock_set", 750)
    log = td.get(url("tourney-dashboard-log", t), **HX).content.decode()
    assert "Clock set to 12:30 left" in log
    action_undo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert clock_reads.clock_read(t).remaining_ms == left_before


def test_a_time_left_that_is_no_time_is_refused_and_changes_nothing(td, seated_tournament):
    t = seated_tournament
    version = t.version
    r = td.post(url("tourney-dashboard-clock", t), {"action": "set", "left": "12:75"}, **HX)
    assert r.status_code == 400
    body = r.content.decode()
    assert "Type the time left as minutes" in body
    assert 'value="12:75"' in body  # what was typed stays in the box
    t.refresh_from_db()
    assert t.version == version


def test_the_break_in_countdown_ticks_in_the_browser(td, seated_tournament):
    """The clock panel gives the script the milliseconds to the next break (as the countdown)."""
    t = seated_tournament
    body = td.get(url("tourney-dashboard-clock", t), **HX).content.decode()
    # TWO_LEVELS: a 20-minute level, then the break
    assert 'data-break-in data-ms="1200000">20:00</b>' in body


def test_the_structure_chart_shows_every_level():
    from tourney import charts
    from tourney.engine.clock import LEVEL, Item

    items = [
        Item(kind=LEVEL, seconds=900, small_blind=100 * n, big_blind=200 * n) for n in range(1, 61)
    ]
    svg = charts.structure_svg(items, starting_stack=10000, field=20)
    assert svg.count('class="bb"') == 60
    assert "<title>Level 60: 6000/12000</title>" in svg


def test_the_structure_rows_and_generator_start_from_this_event(td, director):
    levels = [
        {
            "kind": "level",
            "small_blind": 25 * n,
            "big_blind": 50 * n,
            "ante": 0,
            "big_blind_ante": 50 * n if n >= 3 else 0,
            "minutes": 30,
        }
        for n in range(1, 7)
    ]
    levels.insert(5, {"kind": "break", "minutes": 15, "color_up": []})
    t = services.tournament_create(
        actor=director,
        name="Deep 30",
        seats_per_table=9,
        tables=1,
        starting_stack=30000,
        levels=levels,
    )
    body = td.get(url("tourney-dashboard-structure", t)).content.decode()
    # rows numbered as the levels are, from 1 (the break has no number)
    assert "<td>1</td>\n        <td>Level 1</td>" in body
    assert "<td>6</td>\n        <td>Level 6</td>" in body
    assert "<td>0</td>" not in body
    for name, value in (
        ("level_minutes", "30"),
        ("target_hours", "3.5"),  # 3 h 15 min of levels and breaks, to the half hour
        ("break_every", "5"),
        ("break_minutes", "15"),
        ("bb_ante_from", "3"),
    ):
        assert f'name="{name}" size' in body
        assert f'name="{name}" size="{3 if name != "target_hours" else 4}" value="{value}"' in body


def test_the_structure_editor_names_the_level_it_keeps(td, seated_tournament, director):
    """RULES 4.1: once the clock runs, the items up to the current one stay as played; the
    page says which as a director counts them (level 2 after the break, not "#2")."""
    t = seated_tournament
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="jump", index=2, actor=director)
    body = td.get(url("tourney-dashboard-structure", t)).content.decode()
    assert "the items up to the current one (level 2) stay as played" in body


def test_the_chart_axis_labels_fit_the_margin():
    from tourney import charts

    assert [charts.short_number(n) for n in (50, 800, 5000, 12500, 1_500_000)] == [
        "50",
        "800",
        "5k",
        "12.5k",
        "1.5M",
    ]
