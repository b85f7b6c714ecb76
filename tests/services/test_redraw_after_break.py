"""Issue 31 item 2: a table break that brings the field to a redraw count (RULES 3.4–3.7).
When a redraw follows, the break is part of it: one ``redraw`` move per player, from the seat
they actually sit in to the seat they draw (RULES 3.8), and nothing through a seat nobody
sat in — for a bust, several busts in one hand, the director's table break and the API; the
undo restores everything exactly (RULES 7.4)."""

from __future__ import annotations

import random

import pytest

from tables import services as ts
from tables.models import Move, Seat, Table
from tourney import services
from tourney.services.undo import action_redo, action_undo

from .test_undo import snapshot

pytestmark = pytest.mark.django_db


def make(director, *, tables, seats=9, players, seed=11, **options):
    t = services.tournament_create(
        actor=director, name="R", tables=tables, seats_per_table=seats, seed=seed, options=options
    )
    entries = [
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
        for i in range(players)
    ]
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    return t, entries


def where(t) -> dict[int, tuple[int, int]]:
    return {
        e: (tn, s)
        for e, tn, s in Seat.objects.filter(tournament=t).values_list(
            "entry_id", "table__number", "number"
        )
    }


def at_table(t, number: int) -> list[int]:
    return sorted(
        Seat.objects.filter(tournament=t, table__number=number).values_list("entry_id", flat=True)
    )


def assert_one_true_move_each(t, before, moves, *, redraw: bool) -> None:
    """Each player who changed seat has exactly one move, from the seat they sat in before
    the action to the seat they sit in now; nobody else has a move; the answer and the Move
    rows agree."""
    after = where(t)
    entries = [m["entry"] for m in moves]
    assert len(entries) == len(set(entries)), "a player is listed twice"
    changed = {e for e in after if before.get(e) != after[e]}
    assert set(entries) == changed
    for m in moves:
        assert (m["from"]["table"], m["from"]["seat"]) == before[m["entry"]]
        assert (m["to"]["table"], m["to"]["seat"]) == after[m["entry"]]
        if redraw:
            assert m["reason"] == "redraw" and m["waits_for_button"] is False
    rows = Move.objects.filter(tournament=t, pk__in=[m["id"] for m in moves])
    assert sorted(
        (r.entry_id, r.from_table, r.from_seat, r.to_table, r.to_seat, r.reason) for r in rows
    ) == sorted(
        (
            m["entry"],
            m["from"]["table"],
            m["from"]["seat"],
            m["to"]["table"],
            m["to"]["seat"],
            m["reason"],
        )
        for m in moves
    )


def test_a_bust_that_breaks_three_tables_to_two_gives_one_redraw_move_per_player(director):
    # 19 players at 3 tables of 9 (7, 6, 6): one bust and 18 fit at two tables: table 3 breaks
    # (RULES 3.4, 3.5) and the redraw at two tables follows (RULES 3.7).
    t, _ = make(director, tables=3, players=19)
    broken = at_table(t, 3)
    before = where(t)
    snap = snapshot(t)
    r = services.elimination_record(tournament_id=t.pk, busts=[(broken[0], 500)])
    assert Table.objects.get(tournament=t, number=3).status == "broken"
    del before[broken[0]]
    assert_one_true_move_each(t, before, r["moves"], redraw=True)
    # every player of the broken table moves once, from table 3 (where they really sat)
    assert sorted(m["entry"] for m in r["moves"] if m["from"]["table"] == 3) == broken[1:]
    # the Move rows of the action: each entry once, none from a seat nobody sat in
    rows = list(Move.objects.filter(tournament=t, event__kind="elimination"))
    assert len(rows) == len({m.entry_id for m in rows}) == len(r["moves"])
    assert all((m.from_table, m.from_seat) == before[m.entry_id] for m in rows)
    assert not Seat.objects.filter(tournament=t, waits_for_button=True).exists()
    # undo restores seats, tables, moves and entries exactly (RULES 7.4); redo replays it
    done = snapshot(t, times=False)
    action_undo(tournament_id=t.pk, actor=director)
    assert snapshot(t) == snap
    action_redo(tournament_id=t.pk, actor=director)
    assert snapshot(t, times=False) == done


def test_several_busts_in_one_hand_that_break_a_table_and_bring_the_redraw(director):
    # 20 players (7, 7, 6): two busts at table 1 in one hand leave 18: table 3 breaks, redraw.
    t, _ = make(director, tables=3, players=20)
    out = at_table(t, 1)[:2]
    before = where(t)
    snap = snapshot(t)
    r = services.elimination_record(tournament_id=t.pk, busts=[(out[0], 500), (out[1], 800)])
    assert Table.objects.get(tournament=t, number=3).status == "broken"
    for e in out:
        del before[e]
    assert_one_true_move_each(t, before, r["moves"], redraw=True)
    assert len(r["moves"]) > len(at_table(t, 1)) // 2  # a real redraw, not a few moves
    action_undo(tournament_id=t.pk, actor=director)
    assert snapshot(t) == snap


def test_the_final_table_redraw_after_a_break_lists_each_player_once(director):
    t, entries = make(director, tables=2, players=10)
    before = where(t)
    r = services.elimination_record(tournament_id=t.pk, busts=[(entries[0].pk, 100)])
    del before[entries[0].pk]
    assert Table.objects.filter(tournament=t, status="open").count() == 1
    assert_one_true_move_each(t, before, r["moves"], redraw=True)


def test_the_directors_break_that_leaves_two_tables_redraws_with_one_move_each(director):
    # RULES 3.7: the field reduced to two tables by the director's break is redrawn too, and
    # the break is part of the redraw.
    t, _ = make(director, tables=3, players=15)
    before = where(t)
    snap = snapshot(t)
    moves = ts.table_close(tournament_id=t.pk, table_number=2)
    assert Table.objects.get(tournament=t, number=2).status == "broken"
    assert {m["reason"] for m in moves} == {"redraw"}
    assert_one_true_move_each(t, before, moves, redraw=True)
    action_undo(tournament_id=t.pk, actor=director)
    assert snapshot(t) == snap


def test_a_break_without_a_redraw_still_moves_each_player_once(director):
    # Redraws off: the break's players, then balancing (RULES 3.2, 3.3); a player broken and
    # then balanced on is listed once, from the broken table.
    t, _ = make(
        director,
        tables=4,
        seats=4,
        players=13,
        redraw_at_two=False,
        redraw_at_three=False,
        redraw_at_one=False,
    )
    for _round in range(3):
        before = where(t)
        victim = at_table(t, max(n for n, _ in before.values()))[0]
        r = services.elimination_record(tournament_id=t.pk, busts=[(victim, 100)])
        del before[victim]
        assert_one_true_move_each(t, before, r["moves"], redraw=False)
        assert {m["reason"] for m in r["moves"]} <= {"break", "balance"}


@pytest.mark.parametrize("seed", range(8))
def test_random_bust_sequences_move_each_player_at_most_once_per_action(director, seed):
    """Random small fields and random busts (one to three a hand, with tables of 4 to 9
    seats): after every elimination each player who changed seat has exactly one move, from
    the seat they sat in."""
    rng = random.Random(seed)
    seats = rng.choice([4, 6, 9])
    tables = rng.randint(2, 5)
    players = rng.randint(seats + 2, tables * seats)
    t, _ = make(
        director,
        tables=tables,
        seats=seats,
        players=players,
        seed=seed,
        redraw_at_three=rng.random() < 0.5,
    )
    redraws = 0
    while len(seated := where(t)) > 1:
        busts = rng.sample(sorted(seated), min(len(seated) - 1, rng.choice([1, 1, 2, 3])))
        before = dict(seated)
        r = services.elimination_record(
            tournament_id=t.pk, busts=[(e, rng.randint(1, 9) * 100) for e in busts]
        )
        for e in busts:
            del before[e]
        redraw = any(m["reason"] == "redraw" for m in r["moves"])
        redraws += redraw
        assert_one_true_move_each(t, before, r["moves"], redraw=redraw)
    assert redraws >= 1


def test_the_api_answers_one_move_per_player_after_a_break_and_redraw(director_api):
    r = director_api.post(
        "/api/v1/tournaments", {"name": "A", "seats_per_table": 9, "tables": 3, "seed": 5}
    )
    tid = r.json()["id"]
    for i in range(19):
        assert (
            director_api.post(f"/api/v1/tournaments/{tid}/entries", {"name": f"N{i}"}).status_code
            == 201
        )
    director_api.post(f"/api/v1/tournaments/{tid}/clock", {"action": "start"})
    from tourney.models import Tournament

    t = Tournament.objects.get(pk=tid)
    victim = at_table(t, 3)[0]
    before = where(t)
    r = director_api.post(
        f"/api/v1/tournaments/{tid}/eliminations",
        {"entries": [{"id": victim, "starting_stack": 500}]},
    )
    assert r.status_code == 200, r.json()
    moves = r.json()["moves"]
    del before[victim]
    after = where(t)
    assert len({m["entry"] for m in moves}) == len(moves)
    assert {m["reason"] for m in moves} == {"redraw"}
    for m in moves:
        assert (m["from"]["table"], m["from"]["seat"]) == before[m["entry"]]
        assert (m["to"]["table"], m["to"]["seat"]) == after[m["entry"]]
