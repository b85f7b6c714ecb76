"""Issue 31, items 4 and 5 through Django's client: a refused form comes back (4xx) with the
message next to what was typed, and the message says what is wrong and how to fix it (the
level and line of a structure, not "levels[1].small_blind"). The browser side, with DEBUG on
and off: tests/browser/test_form_errors.py."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from tables import services as table_services
from tables.models import Seat
from tourney import form_messages, services
from tourney.engine import places as places_engine
from tourney.engine import structure as structure_engine
from tourney.models import Entry, Tournament
from tourney.selectors import clock as clock_reads
from tourney.services import setup
from tourney.views.dashboard import panels

from .test_dashboard import SETUP

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _text(response) -> str:
    return response.content.decode()


# ---------------------------------------------------------------- item 5: levels in words


@pytest.mark.parametrize(
    ("levels", "message"),
    [
        (
            "100/200 20\nbreak 10\n200/100 20",
            f"Level 2 (line 3): {form_messages.FIELD_FIX['big_blind']}.",
        ),
        ("0/100 20", f"Level 1: {form_messages.FIELD_FIX['small_blind']}."),
        (
            "25/50 20\n50/100 20\n\n30/60 20",
            form_messages.MSG_NOT_MULTIPLE
            % {"where": "Level 3 (line 4)", "what": "small blind", "value": "30", "chip": "25"},
        ),
        (
            "25/50 20\nbreak 10 color-up 25\n25/50 20",
            "The break after level 1 (line 2): 25 is still needed",
        ),
    ],
)
def test_setup_names_the_level_and_the_line_of_a_bad_structure(td, levels, message):
    data = dict(SETUP, structure="custom", levels_text=levels)
    r = td.post(reverse("tourney-dashboard-setup"), data, **HX)
    assert r.status_code == 400
    html = _text(r)
    assert escape(message) in html
    assert "levels[" not in html  # the API's path is not the director's words
    assert escape(levels) in html  # the box keeps what was typed
    assert not Tournament.objects.exists()


def test_the_structure_editor_names_the_level_and_the_line(td, director):
    t = services.tournament_create(actor=director, name="Edit", tables=0)
    before = clock_reads.structure_items(t)
    text = "25/50 20\nbreak 10\n50/25 20"
    url = reverse("tourney-dashboard-structure", args=[t.pk])
    r = td.post(url, {"levels_text": text, "save": "1"}, **HX)
    assert r.status_code == 400
    html = _text(r)
    assert escape(f"Level 2 (line 3): {form_messages.FIELD_FIX['big_blind']}.") in html
    assert "levels[" not in html and escape(structure_engine.MSG_BAD_STRUCTURE) not in html
    assert escape(text) in html
    assert clock_reads.structure_items(t) == before


def test_a_level_label_counts_levels_not_breaks():
    text = "# a comment\n25/50 20\n\nbreak 10\n50/100 20"
    assert form_messages.item_label(0, text) == "Level 1 (line 2)"
    assert form_messages.item_label(1, text) == "The break after level 1 (line 4)"
    assert form_messages.item_label(2, text) == "Level 2 (line 5)"
    assert form_messages.item_label(0, "25/50 20") == "Level 1"
    assert form_messages.item_label(4, None) == "Item 5 of the structure"


# ---------------------------------------------------------------- item 5: busts in words


def _seated(t: Tournament) -> list[Seat]:
    return list(
        Seat.objects.filter(tournament=t, entry__isnull=False)
        .select_related("table")
        .order_by("table__number", "number")
    )


def test_a_bad_starting_stack_says_what_to_type(td, seated_tournament):
    t = seated_tournament
    seat = _seated(t)[0]
    url = reverse("tourney-dashboard-eliminations", args=[t.pk])
    data = {"table_1": str(seat.table.number), "seat_1": str(seat.number), "stack_1": "0"}
    r = td.post(url, data, **HX)
    assert r.status_code == 400
    html = _text(r)
    assert escape(panels.MSG_BAD_STACK.format(n=1)) in html
    assert "is above zero" not in html
    assert 'name="stack_1" value="0"' in html  # what was typed stays in the row


def test_the_same_seat_twice_names_the_rows(td, seated_tournament):
    t = seated_tournament
    seat = _seated(t)[0]
    row = {"table": str(seat.table.number), "seat": str(seat.number), "stack": "5000"}
    data = {f"{k}_{n}": v for n in (1, 2) for k, v in row.items()}
    r = td.post(reverse("tourney-dashboard-eliminations", args=[t.pk]), data, **HX)
    assert r.status_code == 400
    msg = panels.MSG_SAME_PLAYER_TWICE.format(
        first=1, n=2, table=seat.table.number, seat=seat.number
    )
    assert escape(msg) in _text(r)


def test_everyone_out_in_one_hand_says_someone_won_it(td, director):
    t = services.tournament_create(actor=director, name="Heads-up", tables=1, seed=1)
    for name in ("Ann Lee", "Bob Marsh"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    ids = list(Entry.objects.filter(tournament=t).values_list("pk", flat=True))
    data = {"confirm": "1"}
    for n, eid in enumerate(ids, start=1):
        data[f"entry_{n}"] = str(eid)
        data[f"stack_{n}"] = str(1000 * n)
    r = td.post(reverse("tourney-dashboard-eliminations", args=[t.pk]), data, **HX)
    assert r.status_code in (400, 409)
    html = _text(r)
    assert escape(places_engine.MSG_NO_WINNER) in html
    assert "someone wins it" in places_engine.MSG_NO_WINNER
    assert "cannot go broke" not in html
    assert Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() == 2


# ---------------------------------------------------------------- item 4: typed values kept


def test_a_refused_move_keeps_the_seats_typed_and_a_done_one_clears_them(td, seated_tournament):
    t = seated_tournament
    url = reverse("tourney-dashboard-move", args=[t.pk])
    data = {"from_table": "99", "from_seat": "4", "to_table": "1", "to_seat": "2"}
    r = td.post(url, data, **HX)
    assert r.status_code == 409
    html = _text(r)
    assert escape(panels.MSG_NOBODY_THERE.format(table=99, seat=4)) in html
    for name, value in data.items():
        assert f'name="{name}" size="3" placeholder' in html
        assert f'value="{value}"' in html
    # A refusal of another form of the panel does not fill the move form.
    r = td.post(reverse("tourney-dashboard-table-open", args=[t.pk]), {"count": "x"}, **HX)
    assert r.status_code == 400 and 'value="x"' in _text(r)
    assert 'value="99"' not in _text(r)


def test_a_refused_break_order_keeps_the_ranks_typed(td, seated_tournament):
    t = seated_tournament
    url = reverse("tourney-dashboard-break-order", args=[t.pk])
    r = td.post(url, {"rank_1": "3", "rank_2": "first", "rank_3": "1"}, **HX)
    assert r.status_code == 400
    html = _text(r)
    assert 'name="rank_2" form="break-order" value="first"' in html
    assert 'name="rank_1" form="break-order" value="3"' in html


def test_a_wrong_password_answers_400_with_the_username_kept(client, director):
    r = client.post(reverse("login"), {"username": "td", "password": "nope"})
    assert r.status_code == 400
    html = _text(r)
    assert 'role="alert"' in html and "Check the spelling" in html
    assert 'name="username" autocomplete="username" value="td"' in html
    assert (
        client.post(reverse("login"), {"username": "td", "password": "td-pass-123"}).status_code
        == 302
    )


def test_a_refused_color_up_race_keeps_its_table_form(td, seated_tournament, director):
    t = seated_tournament
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="next", actor=director)  # the break
    seats = list(Seat.objects.filter(tournament=t, table__number=1).order_by("number"))
    data = {
        "remove": "25",
        f"odd_{seats[0].number}": "3",
        f"odd_{seats[1].number}": "two",
        f"cards_{seats[0].number}": "As 7d 9c",
        "whole": str(seats[0].number),
        "counted": "41",
        "deal": "software",
    }
    url = reverse("tourney-dashboard-colorup-race", args=[t.pk, 1])
    r = td.post(url, data, **HX)
    assert r.status_code == 400
    html = _text(r)
    form = html[html.index('id="table-1"') : html.index('id="table-2"')]
    assert 'role="alert"' in form and f"Seat {seats[1].number} odd chips" in form
    assert f'aria-label="Seat {seats[0].number} odd chips" value="3"' in form
    assert f'aria-label="Seat {seats[1].number} odd chips" value="two"' in form
    assert 'value="As 7d 9c"' in form and 'name="counted" size="5" value="41"' in form
    assert (
        f'value="{seats[0].number}" aria-label="Seat {seats[0].number} whole stack" checked' in form
    )
    # The other tables' forms stay empty.
    assert 'value="two"' not in html[html.index('id="table-2"') :]


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("50 30", setup.MSG_PAYOUTS_SUM % {"total": "80"}),
        ("50.5 30 20", setup.MSG_PAYOUTS_SUM % {"total": "100.5"}),
        ("30 50 20", setup.MSG_PAYOUTS_ORDER % {"place": 2, "above": 1}),
    ],
)
def test_payout_percentages_are_refused_in_percent_not_basis_points(
    td, seated_tournament, typed, message
):
    url = reverse("tourney-dashboard-payouts", args=[seated_tournament.pk])
    r = td.post(url, {"payouts": typed, "rounding": ""}, **HX)
    assert r.status_code == 400
    html = _text(r)
    assert escape(message) in html and "basis points" not in html
    assert f'name="payouts" value="{typed}"' in html


def test_an_empty_name_at_the_desk_says_to_type_it(td, tournament):
    r = td.post(reverse("tourney-desk-register", args=[tournament.pk]), {"name": "  "}, **HX)
    assert r.status_code == 400
    html = _text(r)
    assert escape(services.MSG_NAME_REQUIRED) in html and 'id="register-form"' in html
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_table_refusals_say_how_to_fix_them(td, seated_tournament):
    t = seated_tournament
    r = td.post(reverse("tourney-dashboard-button", args=[t.pk, 2]), {"seat": "12"}, **HX)
    assert r.status_code == 400
    assert escape(table_services.MSG_BAD_SEAT) in _text(r) and "seats go from 1" in _text(r)
    r = td.post(reverse("tourney-dashboard-table-close", args=[t.pk]), {"table": "99"}, **HX)
    assert r.status_code == 404
    assert escape(table_services.MSG_NO_TABLE) in _text(r) and "table tile" in _text(r)
    assert 'aria-label="Table to break" value="99"' in _text(r)
