"""Issue 31, item 7: registering the 28th player with "open tables when full" opened a table
for one player (9/9/9/1, no balancing moves). Now the new table is balanced at once (RULES
1.2 before the start, 3.1-3.3 in play): the moves are recorded for "moves to announce", and
the desk says a table was opened."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Move, Seat, Table
from tables.services import table_open
from tourney import services
from tourney.models import Event, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _sizes(t) -> list[int]:
    return [
        Seat.objects.filter(table=table).count()
        for table in Table.objects.filter(tournament=t, status=Table.Status.OPEN).order_by("number")
    ]


def _full(director, *, start: bool, tables: int = 3):
    t = services.tournament_create(
        actor=director, name="Full house", seats_per_table=9, tables=tables, seed=11
    )
    for i in range(9 * tables):
        services.entry_register(tournament_id=t.pk, name=f"Player {i + 1:02d}", actor=director)
    if start:
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    assert _sizes(t) == [9] * tables
    return t


@pytest.mark.parametrize("start", [False, True])
def test_a_table_opened_for_one_player_is_balanced_at_once(director, start):
    t = _full(director, start=start)
    entry = services.entry_register(tournament_id=t.pk, name="Player 28", actor=director)
    assert _sizes(t) == [7, 7, 7, 7]  # RULES 1.2 / 3.1: within one at four tables
    event = Event.objects.get(tournament=t, kind="entry_registered", payload__entry=entry.pk)
    moves = Move.objects.filter(event=event).exclude(entry=entry)
    assert moves.count() == 6
    assert set(moves.values_list("reason", flat=True)) == {"balance"}
    assert set(moves.values_list("to_table", flat=True)) == {4}
    assert not moves.filter(announced=True).exists()  # they wait in "moves to announce"
    assert event.payload["table_opened"] == 4
    assert event.payload["balancing_moves"] == 6


def test_the_desk_says_a_table_was_opened_and_players_moved(director):
    t = _full(director, start=False)
    c = Client()
    c.force_login(director)
    r = c.post(reverse("tourney-desk-register", args=[t.pk]), {"name": "Player 28"}, **HTMX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "Every seat was taken: table 4 was opened" in html
    assert "6 players moved there to balance the tables (RULES 3.3)" in html
    assert "announce the moves" in html


def test_a_table_opened_with_nobody_else_is_not_balanced(director):
    t = services.tournament_create(actor=director, name="Empty", seats_per_table=9, tables=0)
    services.entry_register(tournament_id=t.pk, name="First", actor=director)
    assert _sizes(t) == [1]
    assert not Move.objects.filter(tournament=t, reason="balance").exists()


def _button(t, number: int) -> int | None:
    """The table's button seat (None: no button, or no such table)."""
    row = Table.objects.filter(tournament=t, number=number).values_list("button_seat").first()
    return row and row[0]


def test_a_table_opened_in_play_draws_its_button_when_it_gets_players(director):
    """RULES 2.1: the button is drawn by high card when play starts at a table; a table opened
    while the clock runs and filled by balancing starts play then, so it draws its button (a
    random seated player, from the tournament's recorded randomness), in the same action's
    event, and the undo takes it back with the rest."""
    from tourney.services.undo import action_undo

    t = _full(director, start=True)
    entry = services.entry_register(tournament_id=t.pk, name="Player 28", actor=director)
    button = _button(t, 4)
    seated = set(
        Seat.objects.filter(tournament=t, table__number=4).values_list("number", flat=True)
    )
    assert len(seated) == 7 and button in seated
    event = Event.objects.get(tournament=t, kind="entry_registered", payload__entry=entry.pk)
    assert event.payload["buttons_drawn"] == {"4": button}
    action_undo(tournament_id=t.pk, actor=director)
    assert _sizes(t) == [9, 9, 9] and _button(t, 4) is None


def test_a_table_the_director_opens_in_play_draws_its_button(director):
    from tourney.services.undo import action_undo

    t = _full(director, start=True)
    Tournament.objects.filter(pk=t.pk).update(auto_open_tables=False)
    for name in ("Late One", "Late Two"):  # every seat taken: alternates
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    assert _sizes(t) == [9, 9, 9]
    table_open(tournament_id=t.pk, actor=director)  # they sit there, balancing fills it
    assert sorted(_sizes(t)) == [7, 7, 7, 8]
    button = _button(t, 4)
    assert button in Seat.objects.filter(tournament=t, table__number=4).values_list(
        "number", flat=True
    )
    event = Event.objects.get(tournament=t, kind="tables_opened")
    assert event.payload["buttons_drawn"] == {"4": button}
    action_undo(tournament_id=t.pk, actor=director)
    assert sorted(_sizes(t)) == [9, 9, 9] and _button(t, 4) is None


def test_before_the_start_a_table_opened_when_full_draws_no_button(director):
    t = _full(director, start=False)
    services.entry_register(tournament_id=t.pk, name="Player 28", actor=director)
    assert _button(t, 4) is None  # drawn at the start with the others (RULES 2.1)
