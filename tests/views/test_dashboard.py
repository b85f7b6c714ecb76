"""Issue 8: the director dashboard — panels, actions and roles, bad input, constant query
counts from 20 to 10,000 entries, setup and copy, the structure chart, floor tools, printouts."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from tables import services as table_services
from tables.models import Move, Seat, Table
from tourney import charts, colorup, money, services, setup
from tourney.engine import payouts as payouts_engine
from tourney.engine import structure as structure_engine
from tourney.engine.errors import DomainError
from tourney.models import ChipDenomination, Entry, Event, Level, Player, Tournament
from tourney.views.dashboard import reads

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, t: Tournament, *args) -> str:
    return reverse(name, args=[t.pk, *args])


@pytest.fixture
def td(client, director):
    client.force_login(director)
    return client


def _events(t: Tournament, kind: str) -> int:
    return Event.objects.filter(tournament=t, kind=kind).count()


def _seat_of(t: Tournament, table: int, seat: int) -> Seat:
    return Seat.objects.select_related("entry__player").get(
        tournament=t, table__number=table, number=seat
    )


def _trigger(response) -> dict:
    return json.loads(response["HX-Trigger"])


# ---------------------------------------------------------------- access


GET_PANELS = [
    "tourney-dashboard",
    "tourney-dashboard-clock",
    "tourney-dashboard-tables",
    "tourney-dashboard-eliminations",
    "tourney-dashboard-moves",
    "tourney-dashboard-log",
    "tourney-dashboard-money",
    "tourney-dashboard-colorup",
    "tourney-dashboard-floor",
    "tourney-dashboard-structure",
    "tourney-dashboard-print-tables",
    "tourney-dashboard-print-seating",
    "tourney-dashboard-version",
]


@pytest.mark.parametrize("name", GET_PANELS)
def test_every_screen_is_for_directors_only(client, seated_tournament, desk_clerk, stranger, name):
    target = url(name, seated_tournament)
    anon = client.get(target)
    assert anon.status_code == 302 and anon["Location"].startswith(reverse("login"))
    for user in (desk_clerk, stranger):
        client.force_login(user)
        assert client.get(target).status_code == 403


@pytest.mark.parametrize("name", GET_PANELS)
def test_every_screen_renders_for_the_director(td, seated_tournament, name):
    r = td.get(url(name, seated_tournament))
    assert r.status_code == 200


def test_actions_refuse_the_desk_clerk_and_change_nothing(client, seated_tournament, desk_clerk):
    client.force_login(desk_clerk)
    r = client.post(url("tourney-dashboard-clock", seated_tournament), {"action": "start"})
    assert r.status_code == 403
    seated_tournament.refresh_from_db()
    assert not seated_tournament.clock_started
    assert _events(seated_tournament, "clock_start") == 0


def test_setup_is_for_directors_only(client, desk_clerk):
    target = reverse("tourney-dashboard-setup")
    assert client.get(target).status_code == 302
    client.force_login(desk_clerk)
    assert client.post(target, {"name": "X"}).status_code == 403
    assert not Tournament.objects.filter(name="X").exists()


def test_missing_tournament_is_404(td):
    assert td.get(reverse("tourney-dashboard", args=[999999])).status_code == 404


# ---------------------------------------------------------------- the page


def test_page_shows_every_panel_with_the_field(td, seated_tournament):
    r = td.get(url("tourney-dashboard", seated_tournament))
    html = r.content.decode()
    for panel in (
        'id="clock"',
        'id="tables"',
        'id="eliminations"',
        'id="moves"',
        'id="log"',
        'id="money"',
    ):
        assert panel in html
    assert "Player 01" in html and "Player 20" in html
    assert "<kbd>Space</kbd> pause / resume" in html
    assert 'data-remaining-ms="1200000"' in html
    assert "20<small> / 20</small>" in html
    assert r[reads_version_header()] == str(Tournament.objects.get(pk=seated_tournament.pk).version)


def reads_version_header() -> str:
    from tourney.views.dashboard.base import VERSION_HEADER

    return VERSION_HEADER


def test_panel_get_with_htmx_is_only_the_fragment(td, seated_tournament):
    r = td.get(url("tourney-dashboard-tables", seated_tournament), **HX)
    html = r.content.decode()
    assert html.lstrip().startswith('<section id="tables"')
    assert "<html" not in html and "Player 01" in html


def test_version_changes_when_a_service_writes(td, seated_tournament, director):
    before = td.get(url("tourney-dashboard-version", seated_tournament)).json()["version"]
    services.clock_action(tournament_id=seated_tournament.pk, action="start", actor=director)
    after = td.get(url("tourney-dashboard-version", seated_tournament)).json()["version"]
    assert after > before


# ---------------------------------------------------------------- clock


def test_start_pause_resume_by_htmx_refresh_the_siblings(td, seated_tournament):
    target = url("tourney-dashboard-clock", seated_tournament)
    r = td.post(target, {"action": "start"}, **HX)
    assert r.status_code == 200
    assert "tourney-changed" in _trigger(r)
    assert 'data-shortcut="space">Pause' in r.content.decode()
    seated_tournament.refresh_from_db()
    assert seated_tournament.clock_started and seated_tournament.clock_running
    r = td.post(target, {"action": "pause"}, **HX)
    assert 'data-shortcut="space">Resume' in r.content.decode()
    seated_tournament.refresh_from_db()
    assert not seated_tournament.clock_running
    assert [e.kind for e in Event.objects.filter(tournament=seated_tournament)[:2]] == [
        "clock_pause",
        "clock_start",
    ]


def test_plain_form_post_redirects_back_to_the_panel(td, seated_tournament):
    r = td.post(url("tourney-dashboard-clock", seated_tournament), {"action": "start"})
    assert r.status_code == 302
    assert r["Location"] == url("tourney-dashboard", seated_tournament) + "#clock"
    seated_tournament.refresh_from_db()
    assert seated_tournament.clock_running


def test_add_a_minute_and_next_level(td, seated_tournament):
    target = url("tourney-dashboard-clock", seated_tournament)
    td.post(target, {"action": "start"}, **HX)
    td.post(target, {"action": "pause"}, **HX)
    td.post(target, {"action": "adjust", "seconds": "60"}, **HX)
    seated_tournament.refresh_from_db()
    assert seated_tournament.clock_left_ms > 20 * 60 * 1000
    td.post(target, {"action": "next"}, **HX)
    seated_tournament.refresh_from_db()
    assert seated_tournament.clock_index == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"action": "explode"}, services.MSG_BAD_CLOCK_ACTION),
        ({"action": "adjust", "seconds": "ten"}, "Seconds: give a whole number."),
        ({"action": "adjust"}, "Seconds: give a whole number."),
    ],
)
def test_bad_clock_input_shows_a_message_and_changes_nothing(td, seated_tournament, data, message):
    version = seated_tournament.version
    r = td.post(url("tourney-dashboard-clock", seated_tournament), data, **HX)
    assert r.status_code == 400
    assert message in r.content.decode()
    assert "HX-Trigger" not in r
    seated_tournament.refresh_from_db()
    assert seated_tournament.version == version and not seated_tournament.clock_started


def test_bad_input_on_a_plain_form_renders_the_page_with_the_message(td, seated_tournament):
    r = td.post(url("tourney-dashboard-clock", seated_tournament), {"action": "explode"})
    assert r.status_code == 400
    html = r.content.decode()
    assert services.MSG_BAD_CLOCK_ACTION in html and 'id="tables"' in html


# ---------------------------------------------------------------- tables


def test_click_a_seat_sets_the_button(td, seated_tournament):
    r = td.post(url("tourney-dashboard-button", seated_tournament, 2), {"seat": "4"}, **HX)
    assert r.status_code == 200
    assert Table.objects.get(tournament=seated_tournament, number=2).button_seat == 4
    ev = Event.objects.filter(tournament=seated_tournament, kind="button_set").get()
    assert ev.payload["after"] == 4 and ev.payload["table"] == 2


def test_a_seat_beyond_the_table_is_refused(td, seated_tournament):
    r = td.post(url("tourney-dashboard-button", seated_tournament, 2), {"seat": "12"}, **HX)
    assert r.status_code == 400
    assert table_services.MSG_BAD_SEAT in r.content.decode()
    assert Table.objects.get(tournament=seated_tournament, number=2).button_seat is None
    assert _events(seated_tournament, "button_set") == 0


def test_break_order_by_numbers_on_the_tiles(td, seated_tournament):
    r = td.post(
        url("tourney-dashboard-break-order", seated_tournament),
        {"rank_1": "1", "rank_2": "3", "rank_3": "2"},
        **HX,
    )
    assert r.status_code == 200
    ranks = dict(
        Table.objects.filter(tournament=seated_tournament).values_list("number", "break_rank")
    )
    assert ranks == {1: 1, 3: 2, 2: 3}
    assert Event.objects.get(tournament=seated_tournament, kind="break_order_set").payload[
        "after"
    ] == [1, 3, 2]


def test_break_order_missing_a_table_is_refused(td, seated_tournament):
    r = td.post(url("tourney-dashboard-break-order", seated_tournament), {"order": "1 2"}, **HX)
    assert r.status_code == 400
    assert table_services.MSG_BAD_ORDER in r.content.decode()
    assert _events(seated_tournament, "break_order_set") == 0


def test_open_and_break_a_table(td, seated_tournament):
    td.post(url("tourney-dashboard-table-open", seated_tournament), {"count": "1"}, **HX)
    assert Table.objects.filter(tournament=seated_tournament, status="open").count() == 4
    r = td.post(url("tourney-dashboard-table-close", seated_tournament), {"table": "1"}, **HX)
    assert r.status_code == 200
    assert Table.objects.get(tournament=seated_tournament, number=1).status == "broken"
    assert not Seat.objects.filter(tournament=seated_tournament, table__number=1).exists()
    assert Move.objects.filter(tournament=seated_tournament, reason="break").count() >= 6


def test_close_and_reopen_an_empty_seat(td, seated_tournament):
    occupied = set(
        Seat.objects.filter(tournament=seated_tournament, table__number=1).values_list(
            "number", flat=True
        )
    )
    empty = next(s for s in range(1, 10) if s not in occupied)
    target = url("tourney-dashboard-seat", seated_tournament)
    td.post(target, {"table": "1", "seat": str(empty), "available": "0"}, **HX)
    assert Table.objects.get(tournament=seated_tournament, number=1).unavailable_seats == [empty]
    r = td.post(target, {"table": "1", "seat": str(min(occupied)), "available": "0"}, **HX)
    assert r.status_code == 409
    assert table_services.MSG_SEAT_OCCUPIED in r.content.decode()
    td.post(target, {"table": "1", "seat": str(empty), "available": "1"}, **HX)
    assert Table.objects.get(tournament=seated_tournament, number=1).unavailable_seats == []


def test_manual_move_from_seat_to_seat(td, seated_tournament):
    seat = Seat.objects.filter(tournament=seated_tournament, table__number=1).first()
    taken = set(
        Seat.objects.filter(tournament=seated_tournament, table__number=2).values_list(
            "number", flat=True
        )
    )
    free = next(s for s in range(1, 10) if s not in taken)
    r = td.post(
        url("tourney-dashboard-move", seated_tournament),
        {"from_table": "1", "from_seat": str(seat.number), "to_table": "2", "to_seat": str(free)},
        **HX,
    )
    assert r.status_code == 200
    moved = Seat.objects.get(entry=seat.entry_id)
    assert (moved.table.number, moved.number) == (2, free)
    assert Move.objects.filter(entry=seat.entry_id, reason="manual").exists()


def test_search_marks_the_player(td, seated_tournament):
    seat = Seat.objects.select_related("entry__player", "table").get(
        tournament=seated_tournament, entry__player__name="Player 07"
    )
    r = td.get(url("tourney-dashboard-tables", seated_tournament), {"q": "player 07"}, **HX)
    html = r.content.decode()
    assert f"Player 07 — T{seat.table.number} S{seat.number}" in html
    assert 'class="seat hit"' in html or "hit" in html


# ---------------------------------------------------------------- eliminations and moves


def _bust_two(td, t: Tournament, stacks=("5400", "9000")):
    a = Seat.objects.filter(tournament=t, table__number=1).order_by("number")[0]
    b = Seat.objects.filter(tournament=t, table__number=1).order_by("number")[1]
    data = {
        "table_1": "1",
        "seat_1": str(a.number),
        "stack_1": stacks[0],
        "table_2": "1",
        "seat_2": str(b.number),
        "stack_2": stacks[1],
    }
    return a, b, data


def test_bust_check_shows_names_and_changes_nothing(td, seated_tournament):
    a, b, data = _bust_two(td, seated_tournament)
    version = seated_tournament.version
    r = td.post(url("tourney-dashboard-eliminations", seated_tournament), data, **HX)
    html = r.content.decode()
    assert r.status_code == 200
    assert a.entry.player.name in html and b.entry.player.name in html
    assert "Confirm 2 out" in html
    seated_tournament.refresh_from_db()
    assert seated_tournament.version == version
    assert Entry.objects.filter(tournament=seated_tournament, status="busted").count() == 0


def test_two_busted_in_one_hand_get_places_and_the_moves_to_announce(td, seated_tournament):
    a, b, _ = _bust_two(td, seated_tournament)
    r = td.post(
        url("tourney-dashboard-eliminations", seated_tournament),
        {
            "confirm": "1",
            "entry_1": a.entry_id,
            "stack_1": "5400",
            "entry_2": b.entry_id,
            "stack_2": "9000",
        },
        **HX,
    )
    assert r.status_code == 200
    html = r.content.decode()
    ea, eb = Entry.objects.get(pk=a.entry_id), Entry.objects.get(pk=b.entry_id)
    assert (ea.status, ea.place, eb.place) == ("busted", 20, 19)  # RULES 7.1: bigger stack higher
    assert "Last hand" in html and "20th" in html and "19th" in html
    ev = Event.objects.get(tournament=seated_tournament, kind="elimination")
    assert ev.actor is not None
    for m in Move.objects.filter(event=ev).select_related("entry__player"):
        assert (
            f"{m.entry.player.name}, table {m.from_table} seat {m.from_seat}, move to table "
            f"{m.to_table} seat {m.to_seat}" in html
        )


def test_a_tie_shows_both_places(td, seated_tournament):
    a, b, _ = _bust_two(td, seated_tournament)
    td.post(
        url("tourney-dashboard-eliminations", seated_tournament),
        {
            "confirm": "1",
            "entry_1": a.entry_id,
            "stack_1": "5000",
            "entry_2": b.entry_id,
            "stack_2": "5000",
        },
        **HX,
    )
    r = td.get(url("tourney-dashboard-eliminations", seated_tournament), **HX)
    assert "19th–20th (tie)" in r.content.decode()


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        (
            {"table_1": "1", "seat_1": "1", "stack_1": "5O0"},
            400,
            "Row 1 starting stack: give a whole number.",
        ),
        (
            {"table_1": "1", "seat_1": "12", "stack_1": "500"},
            409,
            "Nobody sits at table 1 seat 12.",
        ),
        (
            {"table_1": "1", "seat_1": "", "stack_1": "500"},
            400,
            "Row 1: give the table, the seat and the starting stack.",
        ),
        ({}, 400, "Give the table, seat and starting stack of at least one player."),
        (
            {"confirm": "1", "entry_1": "999999", "stack_1": "500"},
            404,
            services.MSG_ENTRY_NOT_FOUND,
        ),
    ],
)
def test_bad_bust_input_shows_a_message_and_changes_nothing(
    td, seated_tournament, data, status, message
):
    version = seated_tournament.version
    r = td.post(url("tourney-dashboard-eliminations", seated_tournament), data, **HX)
    assert r.status_code == status
    assert message in r.content.decode()
    seated_tournament.refresh_from_db()
    assert seated_tournament.version == version
    assert not Entry.objects.filter(tournament=seated_tournament, status="busted").exists()


def test_the_typed_rows_survive_a_refused_check(td, seated_tournament):
    r = td.post(
        url("tourney-dashboard-eliminations", seated_tournament),
        {"table_1": "1", "seat_1": "1", "stack_1": "5O0"},
        **HX,
    )
    assert 'value="5O0"' in r.content.decode()


def test_moves_are_ticked_off_as_announced(td, seated_tournament, director):
    seat = Seat.objects.filter(tournament=seated_tournament, table__number=1).first()
    taken = set(
        Seat.objects.filter(tournament=seated_tournament, table__number=2).values_list(
            "number", flat=True
        )
    )
    free = next(s for s in range(1, 10) if s not in taken)
    move = table_services.move_manual(
        tournament_id=seated_tournament.pk,
        entry_id=seat.entry_id,
        table_number=2,
        seat=free,
        actor=director,
    )
    r = td.get(url("tourney-dashboard-moves", seated_tournament), **HX)
    assert f'name="move" value="{move["id"]}"' in r.content.decode()
    r = td.post(url("tourney-dashboard-moves", seated_tournament), {"move": move["id"]}, **HX)
    assert r.status_code == 200
    assert Move.objects.get(pk=move["id"]).announced
    assert "Nothing to announce." in r.content.decode()
    ev = Event.objects.get(tournament=seated_tournament, kind="moves_announced")
    assert ev.payload["moves"] == [move["id"]]


def test_registration_seats_are_not_moves_to_announce(td, seated_tournament):
    r = td.get(url("tourney-dashboard-moves", seated_tournament), **HX)
    assert "Nothing to announce." in r.content.decode()


def test_unknown_move_is_refused_and_nothing_is_ticked(td, seated_tournament, director):
    r = td.post(url("tourney-dashboard-moves", seated_tournament), {"move": "999999"}, **HX)
    assert r.status_code == 404
    assert setup.MSG_MOVE_NOT_FOUND in r.content.decode()
    assert _events(seated_tournament, "moves_announced") == 0


def test_move_mark_announced_refuses_another_tournaments_move(seated_tournament, director):
    other = services.tournament_create(actor=director, name="Other", tables=1, seed=1)
    entry = services.entry_register(tournament_id=other.pk, name="X", actor=director)
    foreign = Move.objects.create(
        tournament=other, entry=entry, to_table=1, to_seat=2, reason=Move.Reason.MANUAL
    )
    with pytest.raises(DomainError) as info:
        setup.move_mark_announced(
            tournament_id=seated_tournament.pk, move_ids=[foreign.pk], actor=director
        )
    assert info.value.code == "move_not_found"
    assert not Move.objects.get(pk=foreign.pk).announced


def test_hand_for_hand_on_and_next_round(td, seated_tournament):
    target = url("tourney-dashboard-hand-for-hand", seated_tournament)
    r = td.post(target, {"on": "1"}, **HX)
    assert "Hand for hand · round 1" in r.content.decode()
    td.post(target, {"next": "1"}, **HX)
    seated_tournament.refresh_from_db()
    assert seated_tournament.hand_for_hand and seated_tournament.hand_for_hand_round == 2


def test_event_log_is_newest_first(td, seated_tournament):
    td.post(url("tourney-dashboard-button", seated_tournament, 1), {"seat": "3"}, **HX)
    html = td.get(url("tourney-dashboard-log", seated_tournament), **HX).content.decode()
    assert html.index("Table 1: button to seat 3") < html.index("Entry #20 Player 20")
    assert html.index("Entry #20 Player 20") < html.index("Entry #1 Player 01")


# ---------------------------------------------------------------- big fields, query counts


def _large(director, entries: int, name: str) -> Tournament:
    t = services.tournament_create(
        actor=director, name=name, tables=0, seats_per_table=9, seed=3, starting_stack=10000
    )
    tables = -(-entries // 9)
    Table.objects.bulk_create(
        Table(tournament=t, number=n, seats=9, break_rank=-n) for n in range(1, tables + 1)
    )
    rows = {r.number: r.pk for r in Table.objects.filter(tournament=t)}
    players = Player.objects.bulk_create(Player(name=f"{name} P{i:05d}") for i in range(entries))
    created = Entry.objects.bulk_create(
        Entry(
            tournament=t,
            player=p,
            number=i + 1,
            status=Entry.Status.SEATED,
            chips_bought=10000,
            paid=5000,
        )
        for i, p in enumerate(players)
    )
    if any(e.pk is None for e in created):
        created = list(Entry.objects.filter(tournament=t).order_by("number"))
    Seat.objects.bulk_create(
        Seat(tournament=t, table_id=rows[i // 9 + 1], number=i % 9 + 1, entry_id=e.pk)
        for i, e in enumerate(created)
    )
    Tournament.objects.filter(pk=t.pk).update(started_tables=tables)
    t.refresh_from_db()
    return t


def _count_queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        r = client.get(path)
    assert r.status_code == 200
    return len(ctx.captured_queries)


def test_dashboard_queries_do_not_grow_with_the_field(td, director):
    small = _large(director, 20, "Small")
    large = _large(director, 10_000, "Large")
    for name in ("tourney-dashboard", "tourney-dashboard-tables", "tourney-dashboard-clock"):
        td.get(url(name, small))  # warm the session and group caches alike
        n_small = _count_queries(td, url(name, small))
        n_large = _count_queries(td, url(name, large))
        assert n_small == n_large, name


def test_a_big_field_collapses_tiles_and_search_opens_the_table(td, director):
    t = _large(director, 1000, "Big")
    html = td.get(url("tourney-dashboard-tables", t), **HX).content.decode()
    assert "tile-grid compact" in html
    assert "Big P00500" not in html  # collapsed: counts only
    assert html.count('class="tile') >= 100
    tables_url = url("tourney-dashboard-tables", t)
    assert f'id="mini-56" href="{tables_url}?table=56#table-56" hx-get="{tables_url}?table=56"' in (
        html
    )
    assert (
        'title="Table 56: 9 of 9, button seat' in html or 'title="Table 56: 9 of 9, breaks' in html
    )
    html = td.get(url("tourney-dashboard-tables", t), {"q": "P00500"}, **HX).content.decode()
    assert "Big P00500 — T56 S6" in html
    assert 'id="table-56"' in html and "Big P00501" in html  # its table in full
    assert 'class="tile mini open" id="mini-56"' in html  # and its small tile marked open


# ---------------------------------------------------------------- setup and copy


SETUP = {
    "name": "Friday Deepstack",
    "seats_per_table": "9",
    "tables": "4",
    "starting_stack": "10000",
    "buy_in": "100",
    "fee": "20",
    "guarantee": "1000",
    "added_money": "0",
    "rounding": "5",
    "chips": "25 green, 100 black, 500 purple, 1000 yellow, 5000 orange, 25000 gray",
    "structure": "regular",
    "level_minutes": "20",
    "target_hours": "8",
    "break_every": "4",
    "break_minutes": "10",
    "bb_ante_from": "4",
    "levels_text": "",
    "late_reg_level": "6",
    "reentries": "1",
    "payouts": "50 30 20",
    "race_threshold": "half_or_more",
    "public_names": "initial",
    "redraw_at_two": "on",
    "redraw_at_one": "on",
    "auto_open_tables": "on",
    "draw_at_registration": "on",
    "seed": "11",
}


def test_setup_creates_a_tournament_with_its_settings(td):
    r = td.post(reverse("tourney-dashboard-setup"), SETUP)
    t = Tournament.objects.get(name="Friday Deepstack")
    assert r.status_code == 302 and r["Location"] == url("tourney-dashboard", t)
    assert (t.buy_in, t.fee, t.guarantee, t.rounding_unit) == (10000, 2000, 100000, 500)
    assert t.payout_percentages == [5000, 3000, 2000]
    assert t.redraw_at_three is False and t.redraw_at_two is True
    assert Table.objects.filter(tournament=t).count() == 4
    items = services.structure_items(t)
    assert items == structure_engine.preset("regular", starting_stack=10000)
    # RULES 4.4: late registration closes at the end of level 6 (item 6: a break after 5).
    assert t.late_reg_until == 6 and items[t.late_reg_until].big_blind == 400
    assert _events(t, "tournament_created") == 1


def test_setup_with_typed_levels(td):
    data = dict(
        SETUP,
        structure="custom",
        levels_text="25/50 20\n50/100/100 20\nbreak 10 color-up 25\n100/200/200 15",
        late_reg_level="2",
        payouts="",
    )
    r = td.post(reverse("tourney-dashboard-setup"), data)
    assert r.status_code == 302
    t = Tournament.objects.get(name="Friday Deepstack")
    assert list(
        Level.objects.filter(tournament=t).values_list(
            "kind", "big_blind", "seconds", "big_blind_ante"
        )
    ) == [
        ("level", 50, 1200, 0),
        ("level", 100, 1200, 100),
        ("break", 0, 600, 0),
        ("level", 200, 900, 200),
    ]
    assert t.late_reg_until == 1 and t.payout_percentages is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"chips": "25 green, 25 red"}, setup.MSG_BAD_CHIPS),
        ({"buy_in": "1O0"}, "An amount like 100 or 12.50, zero or more."),
        ({"payouts": "50 30"}, "payout"),
        ({"structure": "custom", "levels_text": "10/20 20"}, "not a multiple of 25"),
        ({"structure": "custom", "levels_text": "blinds go up"}, "Line 1"),
        ({"late_reg_level": "99"}, "The structure has no level 99."),
        ({"name": ""}, "This field is required."),
    ],
)
def test_bad_setup_shows_a_message_and_creates_nothing(td, change, message):
    r = td.post(reverse("tourney-dashboard-setup"), dict(SETUP, **change))
    assert r.status_code == 400
    assert escape(message).lower() in r.content.decode().lower()
    assert not Tournament.objects.exists()


def test_preview_draws_the_chart_and_creates_nothing(td):
    r = td.post(reverse("tourney-dashboard-setup"), dict(SETUP, preview="1"), **HX)
    html = r.content.decode()
    assert r.status_code == 200
    assert "<svg" in html and 'class="bb"' in html and 'class="break"' in html
    assert "25/50 20\n50/100 20" in html  # the levels box filled in for editing
    assert not Tournament.objects.exists()


def test_copy_takes_settings_structure_and_tables_not_the_play(td, seated_tournament, director):
    services.entry_register(tournament_id=seated_tournament.pk, name="Late", actor=director)
    Tournament.objects.filter(pk=seated_tournament.pk).update(
        balance_tolerance=2, redraw_at_three=False, late_reg_until=2
    )
    r = td.post(url("tourney-dashboard-copy", seated_tournament), {"name": "Friday 51"})
    t = Tournament.objects.get(name="Friday 51")
    assert r.status_code == 302 and r["Location"] == url("tourney-dashboard", t)
    assert (t.balance_tolerance, t.redraw_at_three, t.late_reg_until) == (2, False, 2)
    assert (t.buy_in, t.fee, t.starting_stack) == (5000, 500, 20000)
    assert services.structure_items(t) == services.structure_items(seated_tournament)
    assert list(ChipDenomination.objects.filter(tournament=t).values_list("value", flat=True)) == [
        25,
        100,
        500,
        1000,
        5000,
        25000,
    ]
    assert Table.objects.filter(tournament=t).count() == 3
    assert not Entry.objects.filter(tournament=t).exists()
    assert Event.objects.get(tournament=t, kind="tournament_copied").payload == {
        "source": seated_tournament.pk
    }


def test_edit_a_copy_fills_the_form(td, seated_tournament):
    r = td.get(reverse("tourney-dashboard-setup"), {"from": seated_tournament.pk})
    html = r.content.decode()
    assert 'value="Friday 50 (copy)"' in html
    assert "100/200/200 20\nbreak 10 color-up 25\n200/400/400 20" in html


# ---------------------------------------------------------------- chart, floor tools, printouts


def test_structure_chart_marks_breaks_and_color_ups():
    items = structure_engine.preset("regular", starting_stack=10000)
    svg = charts.structure_svg(items, starting_stack=10000, field=72)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="break"') >= 3
    assert "B 25" in svg  # the first break colors up the 25s
    assert "<script" not in svg
    players = charts.expected_players(items, 10000, 72)
    assert players[0] == pytest.approx(72) and min(players) == pytest.approx(1)
    assert players == sorted(players, reverse=True)


def test_floor_settle_gives_the_api_example(td, seated_tournament):
    data = {
        "s_button": "3",
        "s_unit": "1",
        "s_board": "AdKd3c9s4h",
        "s_seat_1": "1",
        "s_committed_1": "10",
        "s_cards_1": "AsAh",
        "s_seat_2": "2",
        "s_committed_2": "50",
        "s_cards_2": "KsKh",
        "s_seat_3": "3",
        "s_committed_3": "200",
        "s_cards_3": "7c2d",
    }
    r = td.post(url("tourney-dashboard-floor-tool", seated_tournament, "settle"), data, **HX)
    html = r.content.decode()
    assert r.status_code == 200
    assert "Main pot <b>30</b>" in html and "Side pot 1 <b>80</b>" in html
    assert "seat 3 150" in html
    assert 'name="s_cards_2" value="KsKh"' in html  # the hand stays on screen to adjust


def test_floor_tool_bad_input_is_a_message(td, seated_tournament):
    r = td.post(
        url("tourney-dashboard-floor-tool", seated_tournament, "icm"),
        {"i_stacks": "5000 x", "i_prizes": "500"},
        **HX,
    )
    assert r.status_code == 400
    assert "Stacks: whole numbers separated by spaces." in r.content.decode()


def test_floor_race_and_icm(td, seated_tournament):
    r = td.post(
        url("tourney-dashboard-floor-tool", seated_tournament, "race"),
        {
            "r_denominations": "25 100 500",
            "r_remove": "25",
            "r_seed": "5",
            "r_seat_1": "1",
            "r_chips_1": "25x7 100x12",
            "r_seat_2": "4",
            "r_chips_2": "25x3",
        },
        **HX,
    )
    assert r.status_code == 200 and "Unit 100" in r.content.decode()
    r = td.post(
        url("tourney-dashboard-floor-tool", seated_tournament, "icm"),
        {"i_stacks": "5000 5000", "i_prizes": "600 400"},
        **HX,
    )
    assert "500.00" in r.content.decode()


def test_printouts_list_every_seated_player(td, seated_tournament):
    sheets = td.get(url("tourney-dashboard-print-tables", seated_tournament)).content.decode()
    seating = td.get(url("tourney-dashboard-print-seating", seated_tournament)).content.decode()
    for seat in Seat.objects.filter(tournament=seated_tournament).select_related(
        "entry__player", "table"
    ):
        assert seat.entry.player.name in sheets
        assert (
            f"<span>{seat.entry.player.name}</span><b>T{seat.table.number} S{seat.number}</b>"
            in seating
        )
    assert sheets.count('class="sheet"') == 3


def test_structure_page_highlights_the_current_level(td, seated_tournament):
    html = td.get(url("tourney-dashboard-structure", seated_tournament)).content.decode()
    assert "<svg" in html and 'class=" current"' in html


# ---------------------------------------------------------------- money and color-up


def _bust_down_to(t: Tournament, left: int, director) -> None:
    """One bust per hand, the highest entry number first, until ``left`` players remain."""
    while len(seated := list(Entry.objects.filter(tournament=t, status="seated"))) > left:
        last = max(seated, key=lambda e: e.number)
        services.elimination_record(tournament_id=t.pk, busts=[(last.pk, 100)], actor=director)


def _money_html(td, t: Tournament) -> str:
    r = td.get(url("tourney-dashboard-money", t), **HX)
    assert r.status_code == 200
    return r.content.decode()


def test_money_panel_shows_pool_prizes_and_the_bubble(td, seated_tournament, director):
    t = seated_tournament  # 20 x 50.00; the default table pays 4 (RULES 8.2)
    html = _money_html(td, t)
    assert "<dt>Pool</dt><dd>1,000.00</dd>" in html
    assert "<dt>Paid</dt><dd>4<small> places</small></dd>" in html
    for place, prize in enumerate(money.prizes_of(t), start=1):
        assert f"<li><span>{place}</span> {prize // 100:,}.00</li>" in html
    assert [p // 100 for p in money.prizes_of(t)] == [421, 257, 181, 141]
    assert "Bubble" not in html and "In the money" not in html and "Overlay" not in html

    _bust_down_to(t, 5, director)
    html = _money_html(td, t)
    assert '<span class="badge warn">Bubble</span>' in html and "In the money" not in html

    _bust_down_to(t, 4, director)
    html = _money_html(td, t)
    assert '<span class="badge ok">In the money</span>' in html and "Bubble" not in html


def test_money_panel_shows_the_overlay_of_a_guarantee(td, director):
    t = services.tournament_create(
        actor=director, name="G", tables=1, seed=2, buy_in=10000, options={"guarantee": 100000}
    )
    for i in range(3):
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
    html = _money_html(td, t)
    # RULES 8.1: 3 x 100.00 raised to the 1,000.00 guarantee, 700.00 of it overlay
    assert "<dt>Pool</dt><dd>1,000.00</dd>" in html
    assert "Overlay 700.00 (guarantee)" in html


@pytest.fixture
def three_left(director):
    t = services.tournament_create(actor=director, name="Small", tables=1, seed=2, buy_in=10000)
    for i in range(4):
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    out = Seat.objects.filter(tournament=t).first()
    services.elimination_record(tournament_id=t.pk, busts=[(out.entry_id, 100)], actor=director)
    t.refresh_from_db()
    return t


def _stacks_of(t: Tournament) -> dict[str, str]:
    left = list(Entry.objects.filter(tournament=t, status="seated").order_by("pk"))
    return {f"stack_{e.pk}": str(s) for e, s in zip(left, (20000, 10000, 10000), strict=True)}


def test_a_deal_waits_for_registration_to_close(td, three_left):
    t = three_left
    stacks = _stacks_of(t)
    html = _money_html(td, t)
    assert "Close registration" in html

    r = td.post(url("tourney-dashboard-deal", t), dict(stacks, method="icm"), **HX)

    assert r.status_code == 409
    assert escape(money.MSG_DEAL_MONEY_OPEN) in r.content.decode()
    assert not Entry.objects.filter(tournament=t, deal_amount__isnull=False).exists()
    assert _events(t, "deal_recorded") == 0


def test_close_registration_from_the_dashboard_freezes_the_payouts(td, three_left, desk_clerk):
    t = three_left
    clerk = Client()
    clerk.force_login(desk_clerk)
    assert clerk.post(url("tourney-dashboard-registration-close", t)).status_code == 403

    r = td.post(url("tourney-dashboard-registration-close", t), **HX)

    assert r.status_code == 200 and "Close registration" not in r.content.decode()
    t.refresh_from_db()
    assert t.registration_open is False
    assert t.frozen_prizes == list(money.prizes_of(t)) and sum(t.frozen_prizes) == 40000
    assert _events(t, "registration_closed") == 1 and _events(t, "payouts_frozen") == 1
    again = td.post(url("tourney-dashboard-registration-close", t), **HX)
    assert again.status_code == 409 and escape(money.MSG_ALREADY_CLOSED) in again.content.decode()
    assert _events(t, "registration_closed") == 1


def test_deal_quote_and_record_the_chip_chop_the_quote_gave(td, three_left, director):
    t = three_left
    money.registration_close(tournament_id=t.pk, actor=director)
    stacks = _stacks_of(t)
    assert "Deal (ICM / chip chop)" in _money_html(td, t)

    r = td.post(url("tourney-dashboard-deal", t), stacks, **HX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "Record ICM deal" in html and "Record custom deal" in html
    quote = money.deal_quote(t, {int(k[6:]): int(v) for k, v in stacks.items()})
    for p in quote["players"]:
        assert f'name="amount_{p["entry"]}" value="{reads.cash(p["icm"])}"' in html

    r = td.post(url("tourney-dashboard-deal", t), dict(stacks, method="chip_chop"), **HX)

    assert r.status_code == 200
    recorded = dict(
        Entry.objects.filter(tournament=t, deal_amount__isnull=False).values_list(
            "pk", "deal_amount"
        )
    )
    assert recorded == {p["entry"]: p["chip_chop"] for p in quote["players"]}
    assert sum(recorded.values()) == quote["unpaid"]
    event = Event.objects.get(tournament=t, kind="deal_recorded")
    assert event.payload["method"] == "chip_chop"
    # The panel shows what each player still in was agreed (RULES 8.3).
    html = r.content.decode()
    assert "A deal is recorded" in html
    for p in quote["players"]:
        assert reads.cash(p["chip_chop"]) in html


def test_a_custom_deal_from_the_dashboard(td, three_left, director):
    t = three_left
    money.registration_close(tournament_id=t.pk, actor=director)
    stacks = _stacks_of(t)
    ids = sorted(int(k[6:]) for k in stacks)
    unpaid = money.deal_quote(t)["unpaid"]  # 400.00, everything still to pay
    typed = {ids[0]: "200.00", ids[1]: "125", ids[2]: "75"}
    amounts = {f"amount_{pk}": v for pk, v in typed.items()}

    r = td.post(url("tourney-dashboard-deal", t), {**stacks, **amounts, "method": "custom"}, **HX)

    assert r.status_code == 200, r.content.decode()
    recorded = dict(
        Entry.objects.filter(tournament=t, deal_amount__isnull=False).values_list(
            "pk", "deal_amount"
        )
    )
    assert recorded == {ids[0]: 20000, ids[1]: 12500, ids[2]: 7500}
    assert sum(recorded.values()) == unpaid
    assert Event.objects.get(tournament=t, kind="deal_recorded").payload["method"] == "custom"
    html = r.content.decode()
    assert "200.00" in html and "125.00" in html and "75.00" in html


@pytest.mark.parametrize(
    ("typed", "code_text"),
    [
        (("200.00", "125.00", "74.99"), payouts_engine.MSG_DEAL_DOES_NOT_ADD_UP),
        (("200.00", "125.00", "lots"), "An amount like 100 or 12.50, zero or more."),
        (("200.00", "125.00", ""), payouts_engine.MSG_DEAL_DOES_NOT_ADD_UP),
    ],
)
def test_a_custom_deal_that_does_not_add_up_is_400_and_changes_nothing(
    td, three_left, director, typed, code_text
):
    t = three_left
    money.registration_close(tournament_id=t.pk, actor=director)
    stacks = _stacks_of(t)
    ids = sorted(int(k[6:]) for k in stacks)
    amounts = {f"amount_{pk}": v for pk, v in zip(ids, typed, strict=True)}
    version = Tournament.objects.get(pk=t.pk).version

    r = td.post(url("tourney-dashboard-deal", t), {**stacks, **amounts, "method": "custom"}, **HX)

    assert r.status_code == 400
    assert escape(code_text) in r.content.decode()
    assert not Entry.objects.filter(tournament=t, deal_amount__isnull=False).exists()
    assert _events(t, "deal_recorded") == 0
    assert Tournament.objects.get(pk=t.pk).version == version


def test_payouts_form_sets_the_table_and_rounding_unit(td, seated_tournament, desk_clerk):
    t = seated_tournament
    clerk = Client()
    clerk.force_login(desk_clerk)
    body = {"payouts": "50 30 20", "rounding": "5.00"}
    assert clerk.post(url("tourney-dashboard-payouts", t), body).status_code == 403
    assert Tournament.objects.get(pk=t.pk).payout_percentages is None

    r = td.post(url("tourney-dashboard-payouts", t), body, **HX)

    assert r.status_code == 200
    t.refresh_from_db()
    assert t.payout_percentages == [5000, 3000, 2000] and t.rounding_unit == 500
    assert money.prizes_of(t) == (50000, 30000, 20000)
    html = r.content.decode()
    assert "<li><span>1</span> 500.00</li>" in html and 'value="50 30 20"' in html
    event = Event.objects.get(tournament=t, kind="payouts_set")
    assert event.payload["percentages"] == [5000, 3000, 2000]
    assert event.payload["rounding_unit"] == 500

    r = td.post(url("tourney-dashboard-payouts", t), {"default": "1"}, **HX)
    assert r.status_code == 200
    t.refresh_from_db()
    assert t.payout_percentages is None and t.rounding_unit == 500


def test_payouts_form_after_the_freeze_is_the_logged_change(td, seated_tournament, director):
    t = seated_tournament
    money.registration_close(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    frozen = list(t.frozen_prizes)

    r = td.post(url("tourney-dashboard-payouts", t), {"payouts": "60 40", "rounding": ""}, **HX)

    assert r.status_code == 200
    t.refresh_from_db()
    assert t.frozen_prizes == [60000, 40000]
    event = Event.objects.get(tournament=t, kind="payouts_set")
    assert event.payload["before"]["prizes"] == frozen
    assert event.payload["prizes"] == [60000, 40000]


@pytest.mark.parametrize(
    ("body", "field_text"),
    [
        ({"payouts": "50 30", "rounding": ""}, money.MSG_BAD_TABLE),
        ({"payouts": "fifty", "rounding": ""}, None),
        ({"payouts": "", "rounding": "0"}, None),
        ({"payouts": "", "rounding": "-5"}, "An amount like 100 or 12.50, zero or more."),
        ({"payouts": "", "rounding": ""}, money.MSG_NOTHING_TO_SET),
        ({"payouts": "50 30 20", "rounding": "1e9999"}, None),
    ],
)
def test_bad_payouts_form_is_400_and_changes_nothing(td, seated_tournament, body, field_text):
    t = seated_tournament
    version = Tournament.objects.get(pk=t.pk).version

    r = td.post(url("tourney-dashboard-payouts", t), body, **HX)

    assert r.status_code == 400
    assert 'class="error" role="alert"' in r.content.decode()
    if field_text:
        assert escape(field_text) in r.content.decode()
    t.refresh_from_db()
    assert t.payout_percentages is None and t.rounding_unit == 100
    assert t.version == version
    assert _events(t, "payouts_set") == 0


def test_colorup_race_at_a_table(td, seated_tournament, director):
    services.clock_action(tournament_id=seated_tournament.pk, action="start", actor=director)
    services.clock_action(tournament_id=seated_tournament.pk, action="next", actor=director)
    html = td.get(url("tourney-dashboard-colorup", seated_tournament)).content.decode()
    assert "Chips leaving play" in html
    seats = list(
        Seat.objects.filter(tournament=seated_tournament, table__number=1).order_by("number")
    )
    r = td.post(
        url("tourney-dashboard-colorup-race", seated_tournament, 1),
        {
            "remove": "25",
            f"odd_{seats[0].number}": "3",
            f"odd_{seats[1].number}": "2",
            "deal": "software",
        },
        **HX,
    )
    assert r.status_code == 200
    assert _events(seated_tournament, "chip_race") == 1
    html = r.content.decode()
    assert "25s raced · 1 chip(s) of 100 won" in html
    # 125 in odd 25s: one 100 is won, the 25 left is below half and leaves play (RULES 5.6).
    race = Event.objects.get(tournament=seated_tournament, kind="chip_race").payload
    (winner,) = [p for p in race["players"] if p["won"]]
    cards = " ".join(winner["cards"])
    assert f"S{winner['seat']} {winner['name']}: {winner['odd_chips']} odd · {cards} · " in html
    assert html.count("<b>wins 1</b>") == 1
    assert race["chips_delta"] == -25
    assert f"Chips in play {20 * 20000 - 25:,}" in html  # RULES 5.9
    seats_2 = list(
        Seat.objects.filter(tournament=seated_tournament, table__number=2).order_by("number")
    )
    r = td.post(
        url("tourney-dashboard-colorup-race", seated_tournament, 2),
        {"remove": "25", f"odd_{seats_2[0].number}": "9", "deal": "software"},
        **HX,
    )
    assert r.status_code == 400  # four 25s make a 100: at most 3 odd chips (RULES 5.2)
    assert escape(colorup.MSG_BAD_ODD) in r.content.decode()
    assert _events(seated_tournament, "chip_race") == 1


def test_reads_place_words():
    assert reads.place_words(21, 21) == "21st"
    assert reads.place_words(12, 13) == "12th–13th (tie)"
    assert reads.cash(123456) == "1,234.56"


# ---------------------------------------------------------------- color-up: cards, undo, finish


@pytest.fixture
def colorup_break(seated_tournament, director):
    """At the break that colors up the 25s (four to a 100), 20 players of 20,000."""
    services.clock_action(tournament_id=seated_tournament.pk, action="start", actor=director)
    services.clock_action(tournament_id=seated_tournament.pk, action="next", actor=director)
    return seated_tournament


def _table_seats(t: Tournament, table: int) -> list[int]:
    return list(
        Seat.objects.filter(tournament=t, table__number=table)
        .order_by("number")
        .values_list("number", flat=True)
    )


def _race_table_1_with_cards(td, t: Tournament):
    """Three seats report 3, 2 and 1 odd 25s; the last one's whole stack (RULES 5.7); the
    dealer's cards (RULES 5.8); 46 counted before the change-up."""
    a, b, c = _table_seats(t, 1)[:3]
    return td.post(
        url("tourney-dashboard-colorup-race", t, 1),
        {
            "remove": "25",
            f"odd_{a}": "3",
            f"odd_{b}": "2",
            f"odd_{c}": "1",
            "whole": str(c),
            f"cards_{a}": "2c 3d 4h",
            f"cards_{b}": "As, 2d",
            f"cards_{c}": "Kd",
            "counted": "46",
            "deal": "cards",
        },
        **HX,
    )


def _chips_in_play(t: Tournament) -> int:
    from tourney import selectors

    return selectors.total_chips(Tournament.objects.get(pk=t.pk))


def test_colorup_with_the_dealers_cards_a_whole_stack_and_the_count(td, colorup_break):
    t = colorup_break
    a, b, c = _table_seats(t, 1)[:3]

    r = _race_table_1_with_cards(td, t)

    assert r.status_code == 200, r.content.decode()
    html = r.content.decode()
    # 150 in odd 25s: As wins a 100 (RULES 5.4), the 50 left is half: Kd wins one more (5.6).
    assert "25s raced · 2 chip(s) of 100 won (dealer's cards)" in html
    name = {
        s.number: s.entry.player.name for s in Seat.objects.filter(tournament=t, table__number=1)
    }
    assert f"S{b} {name[b]}: 2 odd · As 2d · <b>wins 1</b>" in html
    assert f"S{c} {name[c]}: 1 odd · Kd · <b>wins 1</b>" in html
    assert f"S{a} {name[a]}: 3 odd · 2c 3d 4h · –" in html
    race = Event.objects.get(tournament=t, kind="chip_race").payload
    assert race["cards_given"] is True and race["seed"] is None
    assert [p["seat"] for p in race["players"] if p["whole_stack"]] == [c]
    assert (race["counted"], race["direct_chips"]) == (46, 10)  # (46 - 6) / 4
    assert _chips_in_play(t) == 20 * 20000 + 50
    assert "Only odd chips" in html and "All in" not in html  # RULES 5.7's column


@pytest.mark.parametrize(
    "change",
    [{"whole": "\u00b2"}, {"odd_\u00b2": "1"}, {"cards_\u00b2": "As"}, {"odd_12345678901": "1"}],
)
def test_colorup_form_with_a_seat_that_is_not_a_number_is_a_message(td, colorup_break, change):
    """ "²" passes str.isdigit() but not int(): a message, not a server error."""
    r = td.post(
        url("tourney-dashboard-colorup-race", colorup_break, 1),
        {"remove": "25", "deal": "cards", **change},
        **HX,
    )
    assert r.status_code == 400
    assert "Seats are whole numbers." in r.content.decode()
    assert _events(colorup_break, "chip_race") == 0


def test_floor_race_with_a_superscript_count_is_a_message(td, seated_tournament):
    r = td.post(
        url("tourney-dashboard-floor-tool", seated_tournament, "race"),
        {
            "r_denominations": "25 100 500",
            "r_remove": "25",
            "r_seat_1": "1",
            "r_chips_1": "\u00b2x1",
        },
        **HX,
    )
    assert r.status_code == 400
    assert escape('Row 1: chips as "25x7 100x12" (value x count).') in r.content.decode()


def test_undo_a_tables_race_from_the_colorup_page(td, colorup_break):
    t = colorup_break
    _race_table_1_with_cards(td, t)
    html = td.get(url("tourney-dashboard-colorup", t)).content.decode()
    undo_url = url("tourney-dashboard-colorup-undo", t, 1)
    assert f'action="{undo_url}"' in html and "Undo this table's race of the 25s" in html

    r = td.post(undo_url, {"remove": "25"}, **HX)

    assert r.status_code == 200
    assert _trigger(r)["tourney-changed"] == {"panel": "colorup"}
    assert Event.objects.get(tournament=t, kind="chip_race").undone is True
    assert _chips_in_play(t) == 20 * 20000
    assert "25s raced" not in r.content.decode()
    assert url("tourney-dashboard-colorup-race", t, 1) in r.content.decode()  # races again
    # Nothing left to undo at that table: a message, and nothing changes.
    r = td.post(undo_url, {"remove": "25"}, **HX)
    assert r.status_code == 404
    assert escape(colorup.MSG_RACE_NOT_FOUND) in r.content.decode()
    assert _events(t, "chip_race_undone") == 1
    # A plain form goes back to the table.
    _race_table_1_with_cards(td, t)
    r = td.post(undo_url, {"remove": "25"})
    assert r.status_code == 302 and r["Location"].endswith("/colorup/#table-1")


def test_finish_the_colorup_needs_every_table_or_the_force_box(td, colorup_break):
    t = colorup_break
    _race_table_1_with_cards(td, t)
    finish = url("tourney-dashboard-colorup-finish", t)
    assert f'action="{finish}"' in td.get(url("tourney-dashboard-colorup", t)).content.decode()

    r = td.post(finish, {"remove": "25"}, **HX)

    assert r.status_code == 409
    assert "Not every table with players has raced yet (25s at tables 2, 3)" in escape_free(r)
    assert ChipDenomination.objects.get(tournament=t, value=25).in_play is True
    assert _events(t, "color_up_finished") == 0

    r = td.post(finish, {"remove": "25", "force": "1"}, **HX)

    assert r.status_code == 200
    assert ChipDenomination.objects.get(tournament=t, value=25).in_play is False
    event = Event.objects.get(tournament=t, kind="color_up_finished").payload
    assert event["forced"] is True and event["not_raced"] == {"25": [2, 3]}
    assert "No color-up is due at the current or next break." in r.content.decode()
    assert _chips_in_play(t) == 20 * 20000 + 50  # the race's chips stay (RULES 5.9)
    # No chip ticked: a message.
    r = td.post(finish, {}, **HX)
    assert r.status_code == 400 and escape(colorup.MSG_NOTHING_TO_FINISH) in r.content.decode()


def escape_free(response) -> str:
    from html import unescape

    return unescape(response.content.decode())


def test_the_dashboard_undo_takes_back_a_finish_and_a_race(td, colorup_break):
    """The log's "undo the last action" after a color-up: the finish first, then the race
    (its chips leave the total again), then the clock action before them."""
    t = colorup_break
    _race_table_1_with_cards(td, t)
    td.post(url("tourney-dashboard-colorup-finish", t), {"remove": "25", "force": "1"}, **HX)
    undo = url("tourney-dashboard-undo", t)

    r = td.post(undo, **HX)

    assert r.status_code == 200
    assert ChipDenomination.objects.get(tournament=t, value=25).in_play is True
    assert Event.objects.get(tournament=t, kind="color_up_finished").undone is True
    assert _chips_in_play(t) == 20 * 20000 + 50
    html = td.get(url("tourney-dashboard-colorup", t)).content.decode()
    assert "25s raced · 2 chip(s) of 100 won" in html  # the race counts again

    r = td.post(undo, **HX)

    assert r.status_code == 200
    assert Event.objects.get(tournament=t, kind="chip_race").undone is True
    assert _chips_in_play(t) == 20 * 20000
    assert Tournament.objects.get(pk=t.pk).clock_index == 1
    td.post(undo, **HX)  # the clock's "next": back to the first level
    assert Tournament.objects.get(pk=t.pk).clock_index == 0


def test_average_stack_on_the_dashboard_and_the_display_moves_after_a_race(
    td, client, colorup_break
):
    """RULES 5.9: the chips a race adds are in every screen's average stack."""
    from django.core.cache import cache

    from tourney.selectors_public import build_state

    t = colorup_break
    page = td.get(url("tourney-dashboard", t)).content.decode()
    assert "<dt>Avg stack</dt><dd>20,000</dd>" in page
    assert build_state(Tournament.objects.get(pk=t.pk))["average_stack"] == 20000

    _race_table_1_with_cards(td, t)  # +50 chips

    page = td.get(url("tourney-dashboard", t)).content.decode()
    assert "<dt>Avg stack</dt><dd>20,002</dd>" in page  # 400,050 // 20
    cache.clear()  # the display's one-second version cache
    state = client.get(reverse("tourney-display-state", args=[t.display_token])).json()
    assert state["average_stack"] == (20 * 20000 + 50) // 20
