"""Issue 8: the director dashboard — panels, actions and roles, bad input, constant query
counts from 20 to 10,000 entries, setup and copy, the structure chart, floor tools, printouts."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, strip_tags

from tables import services as table_services
from tables.models import Move, Seat, Table
from tourney import charts, services
from tourney.engine import payouts as payouts_engine
from tourney.engine import structure as structure_engine
from tourney.engine.errors import DomainError
from tourney.engine.money_format import money_exact
from tourney.models import ChipDenomination, Entry, Event, Level, Player, Tournament
from tourney.selectors import clock as clock_reads
from tourney.selectors import money as money_reads
from tourney.selectors.colorup import colorup_rack_plan
from tourney.services import colorup, money, setup
from tourney.views.dashboard import panels, reads, tables_panel

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, t: Tournament, *args) -> str:
    return reverse(name, args=[t.pk, *args])


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
    # Exactly one seat is marked, and it is Player 07's (the button may sit there too).
    assert re.search(
        rf'class="seat( dealer)? hit"><b>{seat.number}</b><span class="pn">Player 07</span>', html
    )
    assert len(re.findall(r'class="seat[^"]* hit"', html)) == 1


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
            "Row 1: give the table and the seat.",
        ),
        ({}, 400, "Give the table and seat of at least one player who is out."),
        (  # RULES 7.1: two out in one hand are ordered by their starting stacks
            {"table_1": "1", "seat_1": "1", "stack_1": "500", "table_2": "1", "seat_2": "2"},
            400,
            "Row 2: several players are out in this hand: give each one&#x27;s stack",
        ),
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


def _played(director, entries: int, name: str) -> Tournament:
    """A field in play: the clock running, two busted in one hand and one more in the next
    (places, the balancing moves they cause), a manual move still to announce, the events
    of all that, and the payout table the money panel shows its prizes from."""
    t = _large(director, entries, name)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    first = list(Seat.objects.filter(tournament=t, table__number=1).order_by("number")[:3])
    services.elimination_record(
        tournament_id=t.pk,
        busts=[(first[0].entry_id, 5000), (first[1].entry_id, 7000)],
        actor=director,
    )
    services.elimination_record(
        tournament_id=t.pk, busts=[(first[2].entry_id, 4000)], actor=director
    )
    mover = Seat.objects.filter(tournament=t, table__number=2).order_by("number").first()
    free = next(
        s
        for s in range(1, 10)
        if not Seat.objects.filter(tournament=t, table__number=1, number=s).exists()
    )
    table_services.move_manual(
        tournament_id=t.pk, entry_id=mover.entry_id, table_number=1, seat=free, actor=director
    )
    t.refresh_from_db()
    assert Move.objects.filter(tournament=t, announced=False).filter(reads.TO_ANNOUNCE).exists()
    assert Entry.objects.filter(tournament=t, status="busted").count() == 3
    return t


# Every screen that reads the field, and the version number the other screens poll, with
# its queries pinned (the session, the user and its groups included): as a whole page, then
# as the htmx fragment. The same at 20 and at 10,000 entries (issue 8), on SQLite and on
# PostgreSQL. A read that starts to loop over tables, seats or entries fails here at once;
# a deliberate new read updates its number.
QUERY_COUNTS = [  # the page and the log: + the Undo and Redo buttons' targets (issue 10)
    # the page: + the alternates list (tables) and the entry a manual move names (log)
    # + the satellites of this tournament (the money panel: tickets into a target, RULES 12.5)
    ("tourney-dashboard", {}, 22, 7),
    ("tourney-dashboard-clock", {}, 22, 7),
    ("tourney-dashboard-tables", {}, 22, 8),  # + the alternates list
    ("tourney-dashboard-tables", {"q": "P00003"}, 23, 9),  # + the search
    ("tourney-dashboard-tables", {"table": "2"}, 22, 8),
    ("tourney-dashboard-eliminations", {}, 22, 8),  # + the last hand's moves
    ("tourney-dashboard-moves", {}, 22, 7),
    ("tourney-dashboard-log", {}, 22, 10),  # + the entry the manual move names
    ("tourney-dashboard-log", {"kind": "elimination"}, 22, 10),  # the Undo button names it
    ("tourney-dashboard-money", {}, 22, 7),
    ("tourney-dashboard-colorup", {}, 18, 18),  # a page of its own: no fragment saves reads
    ("tourney-dashboard-version", {}, 5, 5),
]


def test_dashboard_queries_are_pinned_and_do_not_grow_with_the_field(
    td, director, django_assert_num_queries
):
    small = _played(director, 20, "Small")
    large = _played(director, 10_000, "Large")  # built once: the slow part of the test
    assert Table.objects.filter(tournament=large, status="open").count() > 1000
    for t in (small, large):  # the search finds somebody in both fields
        assert Seat.objects.filter(tournament=t, entry__player__name__icontains="P00003").exists()
    for name, params, plain, htmx in QUERY_COUNTS:
        for headers, expected in (({}, plain), (HX, htmx)):
            td.get(url(name, small), params, **headers)  # warm the session and group caches
            for t in (small, large):
                with django_assert_num_queries(expected):
                    r = td.get(url(name, t), params, **headers)
                assert r.status_code == 200, (name, params, headers, t.name)
                assert r.content


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
    items = clock_reads.structure_items(t)
    assert items == structure_engine.preset("regular", starting_stack=10000)
    # RULES 4.4: late registration closes at the end of level 6 (item 6: a break after 5).
    assert t.late_reg_until == 6 and items[t.late_reg_until].big_blind == 400
    assert _events(t, "tournament_created") == 1


def test_setup_takes_rebuy_and_add_on_prices_with_their_fees_and_a_copy_keeps_them(td):
    data = dict(
        SETUP,
        rebuy_level="4",
        rebuy_price="100",
        rebuy_fee="10",
        rebuy_chips="10000",
        addon_break="1",
        addon_price="50",
        addon_fee="5",
    )
    assert td.post(reverse("tourney-dashboard-setup"), data).status_code == 302
    t = Tournament.objects.get(name="Friday Deepstack")
    assert (t.rebuy_price, t.rebuy_fee, t.addon_price, t.addon_fee) == (10000, 1000, 5000, 500)

    assert td.post(url("tourney-dashboard-copy", t), {"name": "Next Friday"}).status_code == 302
    copy = Tournament.objects.get(name="Next Friday")
    assert (copy.rebuy_fee, copy.addon_fee) == (1000, 500)
    form = td.get(reverse("tourney-dashboard-setup"), {"from": t.pk}).content.decode()
    assert 'name="rebuy_fee" value="10"' in form and 'name="addon_fee" value="5"' in form


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
        ({"chips": "\u00b2 green, 25 red"}, setup.MSG_BAD_CHIPS),  # "²".isdigit() is true
        ({"chips": "25 green, 1234567890 red"}, setup.MSG_BAD_CHIPS),
        ({"buy_in": "1O0"}, "An amount like 100 or 12.50, zero or more."),
        ({"payouts": "50 30"}, "payout"),
        ({"structure": "custom", "levels_text": "10/20 20"}, "not a multiple of 25"),
        ({"structure": "custom", "levels_text": "blinds go up"}, "Line 1"),
        ({"late_reg_level": "99"}, "The structure has no level 99."),
        ({"rebuy_fee": "10"}, "A rebuy fee needs a rebuy price"),
        ({"addon_fee": "-5"}, "An amount like 100 or 12.50, zero or more."),
        ({"name": ""}, "This field is required."),
    ],
)
def test_bad_setup_shows_a_message_and_creates_nothing(td, change, message):
    r = td.post(reverse("tourney-dashboard-setup"), dict(SETUP, **change))
    assert r.status_code == 400
    assert escape(message).lower() in r.content.decode().lower()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("source", ["\u00b2", "9" * 30, "x", "-1"])
def test_copy_from_an_id_that_is_not_one_shows_the_blank_form(td, source):
    r = td.get(reverse("tourney-dashboard-setup"), {"from": source})
    assert r.status_code == 200
    assert r.context["form"].initial == {}


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
    assert clock_reads.structure_items(t) == clock_reads.structure_items(seated_tournament)
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
    for place, prize in enumerate(money_reads.prizes_of(t), start=1):
        assert f"<li><span>{place}</span> {prize // 100:,}.00</li>" in html
    assert [p // 100 for p in money_reads.prizes_of(t)] == [421, 257, 181, 141]
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


def _agree(stacks: dict[str, str], *, leave_out: int | None = None) -> dict[str, str]:
    """The director's ticks: every player of the quote agrees (but ``leave_out``)."""
    ids = [int(k[6:]) for k in stacks]
    return {f"agree_{pk}": "1" for pk in ids if pk != leave_out}


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


@pytest.mark.parametrize("key", ["stack_\u00b2", "stack_" + "9" * 30])
def test_a_deal_stack_keyed_by_no_entry_number_is_not_a_server_error(td, three_left, director, key):
    t = three_left
    services.registration_close(tournament_id=t.pk, actor=director)
    r = td.post(url("tourney-dashboard-deal", t), dict(_stacks_of(t), **{key: "5"}), **HX)
    assert r.status_code < 500
    assert _events(t, "deal_recorded") == 0
    # the stray key names no entry: the quote of the three players still in is shown
    assert r.status_code == 200 and "Record ICM deal" in r.content.decode()


def test_close_registration_from_the_dashboard_freezes_the_payouts(td, three_left, desk_clerk):
    t = three_left
    clerk = Client()
    clerk.force_login(desk_clerk)
    assert clerk.post(url("tourney-dashboard-registration-close", t)).status_code == 403

    r = td.post(url("tourney-dashboard-registration-close", t), **HX)

    assert r.status_code == 200 and "Close registration" not in r.content.decode()
    t.refresh_from_db()
    assert t.registration_open is False
    assert t.frozen_prizes == list(money_reads.prizes_of(t)) and sum(t.frozen_prizes) == 40000
    assert _events(t, "registration_closed") == 1 and _events(t, "payouts_frozen") == 1
    again = td.post(url("tourney-dashboard-registration-close", t), **HX)
    assert again.status_code == 409 and escape(money.MSG_ALREADY_CLOSED) in again.content.decode()
    assert _events(t, "registration_closed") == 1


def test_deal_quote_and_record_the_chip_chop_the_quote_gave(td, three_left, director):
    t = three_left
    services.registration_close(tournament_id=t.pk, actor=director)
    stacks = _stacks_of(t)
    assert "Deal (ICM / chip chop)" in _money_html(td, t)

    r = td.post(url("tourney-dashboard-deal", t), stacks, **HX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "Record ICM deal" in html and "Record custom deal" in html
    quote = money_reads.deal_quote(t, {int(k[6:]): int(v) for k, v in stacks.items()})
    for p in quote["players"]:
        assert f'name="amount_{p["entry"]}" value="{money_exact(p["icm"])}"' in html

    assert all(f'name="agree_{p["entry"]}"' in html for p in quote["players"])

    r = td.post(
        url("tourney-dashboard-deal", t), dict(stacks, **_agree(stacks), method="chip_chop"), **HX
    )

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
        assert money_exact(p["chip_chop"]) in html


def test_a_custom_deal_from_the_dashboard(td, three_left, director):
    t = three_left
    services.registration_close(tournament_id=t.pk, actor=director)
    stacks = _stacks_of(t)
    ids = sorted(int(k[6:]) for k in stacks)
    unpaid = money_reads.deal_quote(t)["unpaid"]  # 400.00, everything still to pay
    typed = {ids[0]: "200.00", ids[1]: "125", ids[2]: "75"}
    amounts = {f"amount_{pk}": v for pk, v in typed.items()}

    body = {**stacks, **amounts, **_agree(stacks), "method": "custom"}
    r = td.post(url("tourney-dashboard-deal", t), body, **HX)

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
    services.registration_close(tournament_id=t.pk, actor=director)
    stacks = _stacks_of(t)
    ids = sorted(int(k[6:]) for k in stacks)
    amounts = {f"amount_{pk}": v for pk, v in zip(ids, typed, strict=True)}
    version = Tournament.objects.get(pk=t.pk).version

    body = {**stacks, **amounts, **_agree(stacks), "method": "custom"}
    r = td.post(url("tourney-dashboard-deal", t), body, **HX)

    assert r.status_code == 400
    assert escape(code_text) in r.content.decode()
    assert not Entry.objects.filter(tournament=t, deal_amount__isnull=False).exists()
    assert _events(t, "deal_recorded") == 0
    assert Tournament.objects.get(pk=t.pk).version == version


@pytest.mark.parametrize("method", ["icm", "chip_chop", "custom"])
def test_a_deal_a_player_has_not_agreed_to_is_refused_and_changes_nothing(
    td, three_left, director, method
):
    """RULES 8.3: recorded only when every remaining player agrees. The director ticks two of
    the three: the panel names the third, nothing is written; all three ticked, it records."""
    t = three_left
    services.registration_close(tournament_id=t.pk, actor=director)
    stacks = _stacks_of(t)
    ids = sorted(int(k[6:]) for k in stacks)
    amounts = {f"amount_{pk}": v for pk, v in zip(ids, ("200", "125", "75"), strict=True)}
    holdout = Entry.objects.select_related("player").get(pk=ids[1])
    version = Tournament.objects.get(pk=t.pk).version

    body = {**stacks, **amounts, "method": method}
    ticks = _agree(stacks, leave_out=ids[1])
    r = td.post(url("tourney-dashboard-deal", t), {**body, **ticks}, **HX)

    assert r.status_code == 400
    html = r.content.decode()
    assert "every player still in agrees (RULES 8.3)" in shown(r) and holdout.player.name in html
    assert '#rule-8-3">RULES 8.3</a>' in html  # the cite links to the rule (issue 22)
    # the numbers stay on screen with the ticks the director gave, ready to correct
    assert all(f'name="agree_{pk}" value="1"' in html for pk in ids)
    assert html.count(" checked>") == 2
    assert not Entry.objects.filter(tournament=t, deal_amount__isnull=False).exists()
    assert _events(t, "deal_recorded") == 0
    assert Tournament.objects.get(pk=t.pk).version == version

    r = td.post(url("tourney-dashboard-deal", t), {**body, **_agree(stacks)}, **HX)
    assert r.status_code == 200, r.content.decode()
    assert _events(t, "deal_recorded") == 1


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
    assert money_reads.prizes_of(t) == (50000, 30000, 20000)
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
    services.registration_close(tournament_id=t.pk, actor=director)
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
        ({"payouts": "50 30", "rounding": ""}, setup.MSG_PAYOUTS_SUM % {"total": "80"}),
        (
            {"payouts": "30 50 20", "rounding": ""},
            setup.MSG_PAYOUTS_ORDER % {"place": 2, "above": 1},
        ),
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
    assert colorup.MSG_BAD_ODD in shown(r)  # its "RULES 5.2" is a link to the rule
    assert _events(seated_tournament, "chip_race") == 1


def test_reads_place_words():
    assert reads.place_words(21, 21) == "21st"
    assert reads.place_words(12, 13) == "12th–13th (tie)"
    assert money_exact(123456) == "1,234.56"


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


def shown(response) -> str:
    """The page's text as the director reads it: no tags (a "RULES n.m" is a link), no escapes."""
    from html import unescape

    return unescape(strip_tags(response.content.decode()))


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

    from tourney.selectors.display import build_state

    t = colorup_break
    page = td.get(url("tourney-dashboard", t)).content.decode()
    assert "<dt>Avg stack</dt><dd>20,000</dd>" in page
    assert build_state(Tournament.objects.get(pk=t.pk))["average_stack"] == 20000

    _race_table_1_with_cards(td, t)  # +50 chips

    page = td.get(url("tourney-dashboard", t)).content.decode()
    assert "<dt>Avg stack</dt><dd>20,003</dd>" in page  # 20,002.5: a half chip up (RULES 10.8)
    cache.clear()  # the display's one-second version cache
    state = client.get(reverse("tourney-display-state", args=[t.display_token])).json()
    assert state["average_stack"] == 20003


# ---------------------------------------------------------------- issue 8 audit: bad input


def test_a_nul_in_the_search_or_the_log_filter_is_a_400_not_a_server_error(td, seated_tournament):
    """PostgreSQL text cannot hold NUL: the request is refused before any read."""
    for name, params in (
        ("tourney-dashboard-tables", {"q": "Player\x0007"}),
        ("tourney-dashboard-log", {"kind": "\x00"}),
        ("tourney-dashboard-log-csv", {"kind": "elimination\x00"}),
    ):
        r = td.get(url(name, seated_tournament), params, **HX)
        assert r.status_code == 400, name


def test_the_panels_drop_a_nul_from_a_search_and_a_filter_themselves(rf, seated_tournament):
    """Even without the middleware in front, a NUL never reaches a query."""
    from tourney.views.dashboard.base import panel_context

    request = rf.get("/", {"q": "\x00Player 07\x00"})
    ctx = panel_context(request, seated_tournament, "tables")
    assert [f["name"] for f in ctx["found"]] == ["Player 07"]
    assert ctx["q"] == "Player 07"
    request = rf.get("/", {"kind": "\x00entry_registered"})
    ctx = panel_context(request, seated_tournament, "log")
    assert ctx["log_kind"] == "entry_registered"
    assert {ev["kind"] for ev in ctx["events"]} == {"entry_registered"}


def test_an_overlong_table_number_opens_no_tile_in_a_big_field(td, director):
    t = _large(director, 900, "Wide")  # 100 tables: tiles collapse
    for raw in ("9" * 25, "\u00b2", "-3", "12a"):
        r = td.get(url("tourney-dashboard-tables", t), {"table": raw}, **HX)
        assert r.status_code == 200, raw
        html = r.content.decode()
        assert "tile-grid compact" in html and "tile-grid focus" not in html
    r = td.get(url("tourney-dashboard-tables", t), {"table": "56"}, **HX)
    assert 'id="table-56"' in r.content.decode()  # a real number still opens its table


@pytest.mark.parametrize("raw", ["9" * 25, "\u00b2", "-1", "1.0"])
def test_an_overlong_or_odd_move_id_is_refused_and_nothing_is_ticked(td, seated_tournament, raw):
    r = td.post(url("tourney-dashboard-moves", seated_tournament), {"move": raw}, **HX)
    assert r.status_code == 400
    assert setup.MSG_MOVE_NOT_FOUND in r.content.decode()
    assert _events(seated_tournament, "moves_announced") == 0


@pytest.mark.parametrize("order", ["9" * 25 + " 2 1", "\u00b2 2 1", "3 2 x"])
def test_a_break_order_that_is_not_table_numbers_is_refused(td, seated_tournament, order):
    before = list(
        Table.objects.filter(tournament=seated_tournament).values_list("number", "break_rank")
    )
    r = td.post(url("tourney-dashboard-break-order", seated_tournament), {"order": order}, **HX)
    assert r.status_code == 400
    assert escape(panels.MSG_BAD_ORDER_TEXT) in r.content.decode()
    after = list(
        Table.objects.filter(tournament=seated_tournament).values_list("number", "break_rank")
    )
    assert after == before and _events(seated_tournament, "break_order_set") == 0


def test_a_huge_icm_stack_is_a_message_on_the_floor_form(td, seated_tournament):
    from tourney.engine import icm

    for stacks, message in (
        ("9" * 5000, "Stacks: whole numbers separated by spaces."),  # past int()'s own limit
        ("9" * 400 + " 5000", icm.MSG_STACK_TOO_LARGE),  # was an OverflowError: a 500
        (f"{icm.MAX_STACK + 1} 5000", icm.MSG_STACK_TOO_LARGE),
    ):
        r = td.post(
            url("tourney-dashboard-floor-tool", seated_tournament, "icm"),
            {"i_stacks": stacks, "i_prizes": "600 400"},
            **HX,
        )
        assert r.status_code == 400, stacks
        assert escape(message) in r.content.decode()
    r = td.post(
        url("tourney-dashboard-floor-tool", seated_tournament, "icm"),
        {"i_stacks": f"{icm.MAX_STACK} {icm.MAX_STACK}", "i_prizes": "600 400"},
        **HX,
    )
    assert r.status_code == 200 and "500.00" in r.content.decode()  # the bound itself is fine


def test_the_icm_engine_bounds_stacks_and_payouts():
    from tourney.engine import icm

    with pytest.raises(DomainError) as info:
        icm.icm_equities([10**400, 5], [10])
    assert (info.value.code, info.value.status) == ("bad_stack", 400)
    assert info.value.fields == {"index": 0}
    with pytest.raises(DomainError) as info:
        icm.icm_equities([5, 5], [10, icm.MAX_PAYOUT * 10])
    assert (info.value.code, info.value.fields) == ("bad_payout", {"index": 1})
    assert icm.icm_equities([icm.MAX_STACK, icm.MAX_STACK], [icm.MAX_PAYOUT, 0]) == [
        icm.MAX_PAYOUT / 2,
        icm.MAX_PAYOUT / 2,
    ]


def test_a_huge_icm_stack_is_a_400_with_a_code_in_the_api(director_api):
    r = director_api.post("/api/v1/floor/icm", {"stacks": [int("9" * 400), 5], "payouts": [1]})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "bad_input"
    assert set(r.json()["error"]["fields"]) == {"stacks.0"}


def test_copy_with_a_name_too_long_is_refused_and_creates_nothing(td, seated_tournament):
    before = Tournament.objects.count()
    r = td.post(url("tourney-dashboard-copy", seated_tournament), {"name": "N" * 121})
    assert r.status_code == 400
    assert escape(setup.MSG_COPY_NAME_TOO_LONG) in r.content.decode()
    assert Tournament.objects.count() == before


def test_copy_of_a_long_named_tournament_keeps_the_name_in_bounds(td, seated_tournament):
    Tournament.objects.filter(pk=seated_tournament.pk).update(name="L" * 118)
    r = td.post(url("tourney-dashboard-copy", seated_tournament))
    copy = Tournament.objects.exclude(pk=seated_tournament.pk).get()
    assert r.status_code == 302 and r["Location"] == url("tourney-dashboard", copy)
    assert copy.name == "L" * 113 + " (copy)" and len(copy.name) == 120
    html = td.get(reverse("tourney-dashboard-setup"), {"from": seated_tournament.pk}).content
    assert f'value="{"L" * 113} (copy)"'.encode() in html  # the form's default fits too
    r = td.post(url("tourney-dashboard-copy", seated_tournament), {"name": "  Short  "})
    assert Tournament.objects.filter(name="Short").exists()


# ---------------------------------------------------------------- issue 8 audit: color-up live


def _at_colorup_break(t: Tournament, director) -> None:
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="next", actor=director)


def test_colorup_page_shows_each_tables_rack_plan(td, seated_tournament, director):
    t = seated_tournament
    _at_colorup_break(t, director)
    seats = [s for s in _seats_at(t, 1)][:2]
    r = td.post(
        url("tourney-dashboard-colorup-race", t, 1),
        {
            "remove": "25",
            f"odd_{seats[0]}": "3",
            f"odd_{seats[1]}": "3",
            f"cards_{seats[0]}": "As 2c 3d",
            f"cards_{seats[1]}": "Kh 4d 5s",
            "counted": "10",
            "deal": "cards",
        },
        **HX,
    )
    assert r.status_code == 200, r.content.decode()
    html = r.content.decode()
    # 150 in odd 25s: one 100 to the ace, the 50 left is half: a second 100 (RULES 5.4, 5.6);
    # the 10 counted 25s less the 6 odd ones change up directly: one 100 (RULES 5.2).
    section = html[html.index('id="table-1"') : html.index('id="table-2"')]
    assert "25s: needs <b>3 × 100</b> (2 race + 1 change-up)" in section
    players_2 = Table.objects.get(tournament=t, number=2).players
    section = html[html.index('id="table-2"') :]
    assert f"25s: not raced yet · at most <b>{players_2} × 100</b> for the race" in section
    plan = colorup_rack_plan(Tournament.objects.get(pk=t.pk))
    assert [line["needed"] for line in plan["tables"][0]["races"]] == [3]


def _seats_at(t: Tournament, table: int) -> list[int]:
    return list(
        Seat.objects.filter(tournament=t, table__number=table)
        .order_by("number")
        .values_list("number", flat=True)
    )


def test_colorup_page_polls_the_version_and_shows_races_entered_elsewhere(
    td, seated_tournament, director
):
    t = seated_tournament
    _at_colorup_break(t, director)
    version = Tournament.objects.get(pk=t.pk).version
    page = td.get(url("tourney-dashboard-colorup", t)).content.decode()
    assert (
        f'<div id="dash-live" hidden data-version="{version}"\n'
        f'     data-version-url="{url("tourney-dashboard-version", t)}"></div>'
    ) in page
    assert 'hx-trigger="tourney-changed from:body"' in page  # what the poll fires
    assert "races" not in page.split('id="table-1"')[1].split("</h2>")[0]
    # Another director's tablet races table 1: the version moves, and the refresh the poll
    # asks for shows the result.
    seat = _seats_at(t, 1)[0]
    colorup.colorup_race_table(
        tournament_id=t.pk, table_number=1, remove=25, odd_chips={seat: 2}, seed=3, actor=director
    )
    assert td.get(url("tourney-dashboard-version", t)).json()["version"] > version
    r = td.get(url("tourney-dashboard-colorup", t), **HX)
    html = r.content.decode()
    assert html.lstrip().startswith('<div id="colorup"')
    assert '<span class="badge ok">raced 25</span>' in html and "25s raced" in html
    assert r["X-Tourney-Version"] == str(Tournament.objects.get(pk=t.pk).version)


# ---------------------------------------------------------------- issue 8 audit: clock panel


def test_late_registration_closes_with_the_clock_before_the_worker_says_so(
    td, seated_tournament, director
):
    t = seated_tournament
    Tournament.objects.filter(pk=t.pk).update(late_reg_until=0)  # open to the end of level 1
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    t.refresh_from_db()
    assert t.registration_open  # the boundary task has not run
    assert reads.clock_panel(t)["late_reg"] == "open until the end of level 1"
    later = timezone.now() + timedelta(minutes=25)  # level 1 (20 min) is over: the break
    ctx = reads.clock_panel(t, now=later)
    assert ctx["clock"].index == 1
    assert ctx["late_reg"] == "closed"
    assert Tournament.objects.get(pk=t.pk).registration_open  # a read, nothing written
    # Without a late-registration level, the clock closes nothing (the director does).
    Tournament.objects.filter(pk=t.pk).update(late_reg_until=None)
    t.refresh_from_db()
    assert reads.clock_panel(t, now=later)["late_reg"] == "open"


def test_resume_previous_jump_and_minus_a_minute(td, seated_tournament):
    t = seated_tournament
    target = url("tourney-dashboard-clock", t)
    td.post(target, {"action": "start"}, **HX)
    td.post(target, {"action": "pause"}, **HX)
    t.refresh_from_db()
    left = t.clock_left_ms
    r = td.post(target, {"action": "adjust", "seconds": "-60"}, **HX)
    assert r.status_code == 200 and "tourney-changed" in _trigger(r)
    t.refresh_from_db()
    assert t.clock_left_ms == left - 60_000
    r = td.post(target, {"action": "resume"}, **HX)
    assert 'data-shortcut="space">Pause' in r.content.decode()
    t.refresh_from_db()
    assert t.clock_running
    td.post(target, {"action": "jump", "index": "2"}, **HX)
    t.refresh_from_db()
    assert t.clock_index == 2
    r = td.post(target, {"action": "previous"}, **HX)
    t.refresh_from_db()
    assert t.clock_index == 1
    assert "On break" in r.content.decode()  # item 1 is the color-up break
    kinds = list(Event.objects.filter(tournament=t).values_list("kind", flat=True)[:5])
    assert kinds == ["clock_previous", "clock_jump", "clock_resume", "clock_adjust", "clock_pause"]
    r = td.post(target, {"action": "jump", "index": "9"}, **HX)
    assert r.status_code == 400
    assert Tournament.objects.get(pk=t.pk).clock_index == 1


# ---------------------------------------------------------------- issue 8 audit: tables


def _tile(t: Tournament, number: int) -> dict:
    ctx = tables_panel.tables_panel(Tournament.objects.get(pk=t.pk))
    return next(tile for tile in ctx["tiles"] if tile["number"] == number)


def test_short_mark_respects_the_balance_tolerance(td, seated_tournament, director):
    t = seated_tournament
    sizes = dict(Table.objects.filter(tournament=t).values_list("number", "players"))
    assert sorted(sizes.values()) == [6, 7, 7]
    # 7/7/6 is balanced (RULES 3.1: within one at three tables): nobody is short.
    assert not any(_tile(t, n)["short"] for n in sizes)
    html = td.get(url("tourney-dashboard-tables", t), **HX).content.decode()
    assert 'class="mark short"' not in html
    # One player from the 6 to a 7: 8/7/5, the 5 is three behind: short; the 7 is not.
    small = min(sizes, key=sizes.get)
    big = next(n for n in sizes if n != small)
    free = next(s for s in range(1, 10) if s not in _seats_at(t, big))
    table_services.move_manual(
        tournament_id=t.pk,
        entry_id=Seat.objects.filter(tournament=t, table__number=small).first().entry_id,
        table_number=big,
        seat=free,
        actor=director,
    )
    assert [n for n in sizes if _tile(t, n)["short"]] == [small]
    html = td.get(url("tourney-dashboard-tables", t), **HX).content.decode()
    assert html.count('class="mark short"') == 1
    # A house tolerance of 3 players (RULES 3.1's setting): 8/7/5 is within it.
    Tournament.objects.filter(pk=t.pk).update(balance_tolerance=3)
    assert not any(_tile(t, n)["short"] for n in sizes)


def test_tiles_show_their_status_and_broken_tables(td, seated_tournament, director):
    t = seated_tournament
    Table.objects.filter(tournament=t).update(button_seat=None)
    table_services.table_set_button(tournament_id=t.pk, table_number=1, seat=1, actor=director)
    empty = next(s for s in range(1, 10) if s not in _seats_at(t, 2))
    table_services.seat_set_available(
        tournament_id=t.pk, table_number=2, seat=empty, available=False, actor=director
    )
    html = td.get(url("tourney-dashboard-tables", t), **HX).content.decode()

    def status(number: int) -> str:
        tile = html.split(f'id="table-{number}"')[1].split("</article>")[0]
        found = re.search(r'<p class="tile-status">([^<]*)</p>', tile)
        return found.group(1) if found else ""

    assert status(1) == ""  # button set, not next to break, no closed seat
    assert status(2) == "no button · 1 seat closed"
    assert status(3) == "breaks next · no button"  # RULES 3.5: highest number first
    assert tables_panel.tables_panel(t)["break_order"] == [3, 2, 1]
    td.post(url("tourney-dashboard-break-order", t), {"order": "1 3 2"}, **HX)
    html = td.get(url("tourney-dashboard-tables", t), **HX).content.decode()
    assert status(1) == "breaks next" and status(3) == "no button"
    # A table opened and broken again shows as a broken tile (and in the header).
    td.post(url("tourney-dashboard-table-open", t), {"count": "1"}, **HX)
    r = td.post(url("tourney-dashboard-table-close", t), {"table": "4"}, **HX)
    assert r.status_code == 200
    html = td.get(url("tourney-dashboard-tables", t), **HX).content.decode()
    assert '<article class="tile broken" id="table-4">' in html and "broken: 4" in html


def test_the_elimination_form_has_every_row_the_server_takes(td, seated_tournament):
    html = td.get(url("tourney-dashboard-eliminations", seated_tournament), **HX).content.decode()
    for n in range(1, panels.BUST_ROWS + 1):
        assert f'name="table_{n}"' in html and f'name="stack_{n}"' in html
    assert f'name="table_{panels.BUST_ROWS + 1}"' not in html
    # Six busted in one hand, from the form's sixth row too.
    seats = list(
        Seat.objects.filter(tournament=seated_tournament)
        .select_related("table", "entry__player")
        .order_by("table__number", "number")[: panels.BUST_ROWS]
    )
    data = {}
    for n, seat in enumerate(seats, start=1):
        data.update(
            {f"table_{n}": seat.table.number, f"seat_{n}": seat.number, f"stack_{n}": 1000 * n}
        )
    r = td.post(url("tourney-dashboard-eliminations", seated_tournament), data, **HX)
    assert r.status_code == 200
    html = r.content.decode()
    assert f"Confirm {panels.BUST_ROWS} out" in html
    assert all(seat.entry.player.name in html for seat in seats)


def test_the_log_csv_link_keeps_the_filter_encoded(td, seated_tournament):
    r = td.get(url("tourney-dashboard-log", seated_tournament), {"kind": "a&b=c"}, **HX)
    html = r.content.decode()
    assert f'href="{url("tourney-dashboard-log-csv", seated_tournament)}?kind=a%26b%3Dc"' in html


def test_floor_race_with_the_dealers_cards(td, seated_tournament):
    data = {
        "r_denominations": "25 100 500",
        "r_remove": "25",
        "r_seat_1": "1",
        "r_chips_1": "25x3 100x12",
        "r_cards_1": "2c 3d 4h",
        "r_seat_2": "4",
        "r_chips_2": "25x2",
        "r_cards_2": "As, 2d",
    }
    target = url("tourney-dashboard-floor-tool", seated_tournament, "race")
    r = td.post(target, data, **HX)
    assert r.status_code == 200, r.content.decode()
    html = r.content.decode()
    # 125 in odd 25s: one 100, to the ace at seat 4 (RULES 5.4); the 25 left is under half.
    assert "Unit 100 · awarded 1" in html
    assert "<td>4</td><td>2</td><td>As 2d</td><td>1</td>" in html
    assert "<td>1</td><td>3</td><td>2c 3d 4h</td><td>–</td>" in html
    assert 'name="r_cards_2" value="As, 2d"' in html  # kept on screen
    r = td.post(target, dict(data, r_seed="5"), **HX)
    assert r.status_code == 400
    assert escape("Give either the cards the dealer dealt or a seed, not both.") in (
        r.content.decode()
    )
    r = td.post(target, dict(data, r_cards_2="As"), **HX)  # two odd chips, one card
    assert r.status_code == 400


def test_floor_settle_takes_the_big_blind_ante_as_dead_money(td, seated_tournament):
    """RULES 6.6 in the side-pot tool: the big blind (seat 3) put in 700, 200 of it the
    big-blind ante; seat 4 put in 500 and wins; the small blind folded 100: 1,300 to seat 4,
    nothing returned (as a bet the ante came back as uncalled)."""
    data = {
        "s_button": "1",
        "s_bb": "3",
        "s_bba": "200",
        "s_seat_1": "2",
        "s_committed_1": "100",
        "s_folded_1": "on",
        "s_seat_2": "3",
        "s_committed_2": "700",
        "s_rank_2": "2",
        "s_seat_3": "4",
        "s_committed_3": "500",
        "s_rank_3": "1",
    }
    r = td.post(url("tourney-dashboard-floor-tool", seated_tournament, "settle"), data, **HX)
    html = r.content.decode()
    assert r.status_code == 200, html
    assert "Main pot <b>1,300</b>" in html and "Returned" not in html
    assert "seat 4: 1,300" in html
    assert "Antes (dead money, in the first pot): <b>200</b>" in html


def test_floor_settle_a_short_player_covers_the_ante_first(td, seated_tournament):
    """RULES 6.6: classic antes of 25; seat 3 put in only 20 (all in on part of the ante):
    all of it is ante, the antes (95) are a pot of its own that seat 3 wins."""
    data = {"s_button": "1"}
    for n, (seat, chips, rank) in enumerate(((2, 125, 3), (3, 20, 1), (4, 125, 2)), start=1):
        data |= {f"s_seat_{n}": str(seat), f"s_committed_{n}": str(chips)}
        data |= {f"s_ante_{n}": "25", f"s_rank_{n}": str(rank)}
    r = td.post(url("tourney-dashboard-floor-tool", seated_tournament, "settle"), data, **HX)
    html = r.content.decode()
    assert r.status_code == 200, html
    assert "Main pot <b>70</b>" in html  # 25 + 20 + 25
    assert "Side pot 1 <b>200</b>" in html  # seats 2 and 4: 100 each beyond the ante
    assert "seat 3: 70" in html and "seat 4: 200" in html


def test_the_floor_tool_prefills_the_antes_of_the_level_being_played(td, seated_tournament):
    t = seated_tournament
    Level.objects.filter(tournament=t).update(ante=0, big_blind_ante=0)
    Level.objects.filter(tournament=t, index=0).update(ante=25, big_blind_ante=200)
    html = td.get(url("tourney-dashboard-floor", t)).content.decode()
    assert 'name="s_ante_1" value="25"' in html and 'name="s_ante_9" value="25"' in html
    assert 'name="s_bba" size="6" value="200"' in html
