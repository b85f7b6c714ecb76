"""Issue 31, item 7: registering the 28th player with "open tables when full" opened a table
for one player (9/9/9/1, no balancing moves). Now the new table is balanced at once (RULES
1.2 before the start, 3.1-3.3 in play): the moves are recorded for "moves to announce", and
the desk says a table was opened."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Move, Seat, Table
from tourney import services
from tourney.models import Event

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
