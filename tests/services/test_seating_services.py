"""Issue 3 through the services and the database: registration seats (RULES 1.3), the button
(2.1), balancing and breaking (3.2–3.6), redraws (3.7), places (7.1–7.3) and the director's
table tools. The engine's own scenario and property tests are in tests/engine/."""

from __future__ import annotations

from collections import Counter

import pytest

from tables import selectors as table_reads
from tables import services as ts
from tables.engine.blinds import bb_next, blinds, worst_position
from tables.models import Move, Seat, Table
from tourney import services
from tourney.core import locking
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Tournament
from tourney.services.undo import action_undo

pytestmark = pytest.mark.django_db


def sizes(t) -> dict[int, int]:
    c = Counter(Seat.objects.filter(tournament=t).values_list("table__number", flat=True))
    return {r.number: c.get(r.number, 0) for r in Table.objects.filter(tournament=t, status="open")}


def register(t, n, director, prefix="P"):
    return [
        services.entry_register(tournament_id=t.pk, name=f"{prefix}{i}", actor=director)
        for i in range(n)
    ]


def make(director, *, tables=3, seats=9, **options):
    return services.tournament_create(
        actor=director, name="T", tables=tables, seats_per_table=seats, seed=11, options=options
    )


def test_registration_fills_the_fewest_tables_evenly(director):
    t = make(director, tables=3)
    register(t, 14, director)
    assert sorted(sizes(t).values()) == [4, 5, 5]  # RULES 1.2/1.3
    assert not Move.objects.filter(tournament=t).exists()  # first seatings are not moves (3.8)
    assert Event.objects.filter(tournament=t, kind="entry_registered").count() == 14


def test_a_full_room_opens_a_table_when_allowed(director):
    t = make(director, tables=1, seats=2)
    register(t, 3, director)
    assert sizes(t) == {1: 2, 2: 1}


def test_a_full_room_makes_alternates_when_tables_may_not_open(director):
    t = make(director, tables=1, seats=2, auto_open_tables=False)
    a, b, c = register(t, 3, director)
    c.refresh_from_db()
    assert c.status == Entry.Status.ALTERNATE and not Seat.objects.filter(entry=c).exists()
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.elimination_record(tournament_id=t.pk, busts=[(a.pk, 100)], actor=director)
    c.refresh_from_db()
    assert c.status == Entry.Status.SEATED and Seat.objects.filter(entry=c).exists()


def test_home_game_draws_every_seat_at_the_start(director):
    t = make(director, tables=1, draw_at_registration=False)
    register(t, 20, director)
    assert Seat.objects.filter(tournament=t).count() == 0
    moves = ts.seating_draw_all(tournament_id=t.pk, actor=director)
    assert len(moves) == 20
    assert sorted(sizes(t).values()) == [6, 7, 7]  # RULES 1.2: fewest tables, even
    with pytest.raises(DomainError) as err:
        ts.seating_draw_all(tournament_id=t.pk, actor=director)
    assert err.value.code == "already_drawn"


def test_a_home_game_arrival_after_the_draw_draws_a_seat_at_once(director):
    # RULES 1.3: the draw at the start cannot run again, so a late arrival is seated like a
    # late entry (it was left without a seat, never counted as still in).
    t = make(director, tables=1, draw_at_registration=False)
    register(t, 12, director)
    ts.seating_draw_all(tournament_id=t.pk, actor=director)
    (late,) = register(t, 1, director, prefix="Late")
    late.refresh_from_db()
    assert late.status == Entry.Status.SEATED
    assert Seat.objects.filter(tournament=t).count() == 13
    assert sorted(sizes(t).values()) == [6, 7]  # RULES 1.3: at a table with the fewest


def test_the_draw_replays_from_the_seed(director):
    def seats_for(seed):
        t = services.tournament_create(actor=director, name="S", tables=2, seed=seed)
        register(t, 12, director)
        seats = sorted(
            Seat.objects.filter(tournament=t).values_list(
                "entry__player__name", "table__number", "number"
            )
        )
        # RULES 13.1: done with, its tables 1 and 2 are free for the next one
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
        return seats

    assert seats_for(5) == seats_for(5)
    assert seats_for(5) != seats_for(6)


def test_start_draws_a_button_at_every_table(director):
    t = make(director, tables=2)
    register(t, 10, director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    rows = Table.objects.filter(tournament=t)
    for row in rows:
        assert Seat.objects.filter(table=row, number=row.button_seat).exists()  # RULES 2.1
    assert Event.objects.filter(tournament=t, kind="buttons_drawn").count() == 1


def test_late_entry_between_button_and_small_blind_waits_then_is_dealt_in(director):
    # Table of 9, players in 1, 5, 6 with the button at 1: SB 5, BB 6. Seats 2-4 lie between
    # the button and the small blind (RULES 1.3).
    t = make(director, tables=1)
    row = Table.objects.get(tournament=t)
    ts.seat_set_available(tournament_id=t.pk, table_number=1, seat=7, available=False)
    ts.seat_set_available(tournament_id=t.pk, table_number=1, seat=8, available=False)
    ts.seat_set_available(tournament_id=t.pk, table_number=1, seat=9, available=False)
    a, b, c = register(t, 3, director)
    for e, seat in zip((a, b, c), (1, 5, 6), strict=True):
        Seat.objects.filter(entry=e).update(number=seat)
    ts.table_set_button(tournament_id=t.pk, table_number=1, seat=1)
    late = services.entry_register(tournament_id=t.pk, name="Late", actor=director)
    s = Seat.objects.get(entry=late)
    assert s.number in (2, 3, 4) and s.waits_for_button
    ts.table_set_button(tournament_id=t.pk, table_number=1, seat=5)
    s.refresh_from_db()
    # the button moved from 1 to 5: seats 2..5 are passed, the wait is over
    assert not s.waits_for_button
    row.refresh_from_db()
    assert row.button_seat == 5
    assert Event.objects.filter(kind="button_set").first().payload["released"] == [late.pk]
    # undo puts the button back and the late player waits again (RULES 1.3)
    action_undo(tournament_id=t.pk)
    row.refresh_from_db()
    assert Seat.objects.get(entry=late).waits_for_button and row.button_seat == 1


def test_button_seat_out_of_range_is_400_and_changes_nothing(seated_tournament, director_api):
    t = seated_tournament
    r = director_api.put(f"/api/v1/tournaments/{t.pk}/tables/1/button", {"seat": 12})
    assert r.status_code == 400
    r = director_api.put(f"/api/v1/tournaments/{t.pk}/tables/99/button", {"seat": 2})
    assert r.status_code == 404 and r.json()["error"]["code"] == "table_not_found"
    assert Table.objects.get(tournament=t, number=1).button_seat is None


def _big_field(director, tables=20, players=170):
    t = make(director, tables=tables)
    register(t, players, director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    return t


def test_balancing_moves_the_big_blind_next_to_the_worst_position(director):
    import random

    t = _big_field(director, tables=8, players=70)  # 6 tables of 9, 2 of 8: tolerance 2
    short_no = min(sizes(t), key=lambda n: (sizes(t)[n], n))
    assert sizes(t)[short_no] == 8
    victims = list(
        Seat.objects.filter(table__tournament=t, table__number=short_no).values_list(
            "entry_id", flat=True
        )[:2]
    )
    before = table_reads.engine_tables(list(Table.objects.filter(tournament=t)))
    result = services.elimination_record(
        tournament_id=t.pk, busts=[(v, 1000 + i) for i, v in enumerate(victims)]
    )
    moves = result["moves"]
    assert len(moves) == 1 and moves[0]["reason"] == "balance"
    m = moves[0]
    src = before[m["from"]["table"]]
    assert src.players == 9  # RULES 3.2: from a table with the most players ...
    assert m["from"]["seat"] == bb_next(src, random.Random(0))  # ... its big blind next
    short = before[short_no]
    for v in victims:
        short = short.without_seat(short.seat_of(v))
    # RULES 3.3: to the worst position at the short table; never its small blind (2.4)
    assert m["to"]["table"] == short_no
    assert (m["to"]["seat"], m["waits_for_button"]) == worst_position(short, random.Random(0))
    assert m["to"]["seat"] != blinds(short)[1]
    assert max(sizes(t).values()) - min(sizes(t).values()) <= 2
    row = Move.objects.get(tournament=t, reason="balance")
    assert row.event.kind == "elimination" and row.from_seat == m["from"]["seat"]


def test_a_table_breaks_the_moment_its_players_fit_elsewhere(director):
    t = make(director, tables=3, seats=4)
    entries = register(t, 9, director)  # 3 + 3 + 3 in tables of 4
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    at3 = list(
        Seat.objects.filter(table__tournament=t, table__number=3).values_list("entry_id", flat=True)
    )
    # 8 players fit in 2 tables of 4: table 3 (highest number) breaks first (RULES 3.4/3.5)
    result = services.elimination_record(tournament_id=t.pk, busts=[(at3[0], 500)])
    assert Table.objects.get(tournament=t, number=3).status == "broken"
    reasons = Counter(m["reason"] for m in result["moves"])
    # two tables left: a redraw follows (RULES 3.7), and the break is part of it: the two
    # players of table 3 get one redraw move each, from their real seat (RULES 3.8)
    assert reasons["break"] == 0 and reasons["redraw"] >= 2
    from3 = [m for m in result["moves"] if m["from"]["table"] == 3]
    assert len(from3) == 2 and {m["entry"] for m in from3} == set(at3[1:])
    assert sorted(sizes(t).values()) == [4, 4]
    assert len(entries) == 9


def test_break_order_edited_by_the_director_is_followed(director):
    t = make(director, tables=3, seats=4)
    register(t, 9, director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    ts.table_break_order_set(tournament_id=t.pk, order=[1, 3, 2])
    victim = Seat.objects.filter(table__tournament=t, table__number=3).first().entry_id
    services.elimination_record(tournament_id=t.pk, busts=[(victim, 500)])
    assert Table.objects.get(tournament=t, number=1).status == "broken"
    with pytest.raises(DomainError) as err:
        ts.table_break_order_set(tournament_id=t.pk, order=[2, 2])
    assert err.value.code == "bad_order"


def test_final_table_redraw_puts_everyone_on_one_table_with_a_new_button(director):
    t = make(director, tables=2, seats=9)
    entries = register(t, 10, director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    result = services.elimination_record(tournament_id=t.pk, busts=[(entries[0].pk, 100)])
    assert list(sizes(t).values()) == [9]
    final = Table.objects.get(tournament=t, status="open")
    assert Seat.objects.filter(table=final, number=final.button_seat).exists()
    assert not Seat.objects.filter(tournament=t, waits_for_button=True).exists()
    assert any(m["reason"] == "redraw" for m in result["moves"])


def test_simultaneous_eliminations_finish_by_starting_stack_and_tie_when_equal(director):
    t = make(director, tables=1)
    e = register(t, 8, director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    r = services.elimination_record(
        tournament_id=t.pk, busts=[(e[0].pk, 300), (e[1].pk, 900), (e[2].pk, 300)]
    )
    places = {p["entry"]: (p["place"], p["place_to"]) for p in r["places"]}
    assert places == {e[1].pk: (6, 6), e[0].pk: (7, 8), e[2].pk: (7, 8)}  # RULES 7.1, 7.2


def test_hand_for_hand_busts_of_one_round_count_as_one_hand(director):
    t = make(director, tables=2)
    e = register(t, 12, director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.hand_for_hand_set(tournament_id=t.pk, on=True)
    services.elimination_record(tournament_id=t.pk, busts=[(e[0].pk, 2000)])
    services.elimination_record(tournament_id=t.pk, busts=[(e[1].pk, 5000)])
    e[0].refresh_from_db()
    e[1].refresh_from_db()
    # RULES 7.3: same round → ranked together; the bigger stack finishes higher
    assert (e[1].place, e[0].place) == (11, 12)
    services.hand_for_hand_next_round(tournament_id=t.pk)
    services.elimination_record(tournament_id=t.pk, busts=[(e[2].pk, 9000)])
    e[2].refresh_from_db()
    assert e[2].place == 10


def test_last_player_standing_wins(director):
    t = make(director, tables=1)
    a, b = register(t, 2, director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    r = services.elimination_record(tournament_id=t.pk, busts=[(a.pk, 100)])
    b.refresh_from_db()
    t.refresh_from_db()
    assert r["winner"] == b.pk and (b.place, b.place_to) == (1, 1)
    assert t.status == "finished"


def test_eliminating_a_busted_or_unknown_entry_changes_nothing(director, seated_tournament):
    t = seated_tournament
    e = Entry.objects.filter(tournament=t).first()
    services.elimination_record(tournament_id=t.pk, busts=[(e.pk, 100)])
    n_events = Event.objects.count()
    for busts, code in (([(e.pk, 100)], "entry_not_seated"), ([(10**9, 5)], "entry_not_found")):
        with pytest.raises(DomainError) as err:
            services.elimination_record(tournament_id=t.pk, busts=busts)
        assert err.value.code == code
    assert Event.objects.count() == n_events


def test_manual_move_unavailable_seat_and_closing_a_table(director):
    t = make(director, tables=3)
    register(t, 12, director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    mover = Seat.objects.filter(table__tournament=t, table__number=1).first()
    free = next(
        n
        for n in range(1, 10)
        if not Seat.objects.filter(table__tournament=t, table__number=2, number=n)
    )
    m = ts.move_manual(tournament_id=t.pk, entry_id=mover.entry_id, table_number=2, seat=free)
    assert m["reason"] == "manual" and Seat.objects.get(entry_id=mover.entry_id).number == free
    with pytest.raises(DomainError) as err:
        ts.seat_set_available(tournament_id=t.pk, table_number=2, seat=free, available=False)
    assert err.value.code == "seat_occupied"
    moves = ts.table_close(tournament_id=t.pk, table_number=3)
    assert Table.objects.get(tournament=t, number=3).status == "broken"
    assert {m["reason"] for m in moves} <= {"break", "balance", "redraw"}
    assert Seat.objects.filter(tournament=t).count() == 12
    assert max(sizes(t).values()) - min(sizes(t).values()) <= 1


def test_api_on_a_twenty_table_tournament(director_api):
    r = director_api.post(
        "/api/v1/tournaments", {"name": "Big", "seats_per_table": 9, "tables": 20, "seed": 3}
    )
    tid = r.json()["id"]
    ids = []
    for i in range(170):
        r = director_api.post(f"/api/v1/tournaments/{tid}/entries", {"name": f"N{i}"})
        assert r.status_code == 201
        ids.append(r.json()["id"])
    seating = director_api.get(f"/api/v1/tournaments/{tid}/seating").json()
    counts = sorted(len(tb["seats"]) for tb in seating["tables"])
    assert seating["players_left"] == 170 and counts[0] >= 8 and counts[-1] <= 9
    director_api.post(f"/api/v1/tournaments/{tid}/clock", {"action": "start"})
    total_moves = 0
    for k in range(0, 60, 3):
        r = director_api.post(
            f"/api/v1/tournaments/{tid}/eliminations",
            {
                "entries": [
                    {"id": ids[k], "starting_stack": 100 + k},
                    {"id": ids[k + 1], "starting_stack": 100 + k},
                    {"id": ids[k + 2], "starting_stack": 50},
                ]
            },
        )
        assert r.status_code == 200, r.json()
        body = r.json()
        assert sorted(p["place"] for p in body["places"]) in ([168 - k, 168 - k, 170 - k],)
        total_moves += len(body["moves"])
        seating = director_api.get(f"/api/v1/tournaments/{tid}/seating").json()
        open_tables = [tb for tb in seating["tables"] if tb["status"] == "open"]
        n = [len(tb["seats"]) for tb in open_tables]
        tol = 2 if len(open_tables) > 6 else 1
        assert max(n) - min(n) <= tol
        # the fewest tables that hold the players (RULES 3.4)
        assert sum(n) > (len(open_tables) - 1) * 9
    assert total_moves > 0
    res = director_api.get(f"/api/v1/tournaments/{tid}/results").json()
    assert len(res["places"]) == 60


def test_late_seating_candidates_are_the_shortest_tables_with_an_open_seat(director):
    # RULES 1.3 and 1.4: a late entry draws among the tables with the fewest players that
    # still have an open seat; a table whose other seats are unavailable is full.
    t = make(director, tables=4, seats=4)
    register(t, 10, director)  # sizes 3, 3, 2, 2
    assert sorted(sizes(t).values()) == [2, 2, 3, 3]
    short = sorted(n for n, k in sizes(t).items() if k == 2)
    # Block both free seats of one short table: it is full now, and no longer a candidate.
    free = [
        s
        for s in range(1, 5)
        if not Seat.objects.filter(table__tournament=t, table__number=short[0], number=s)
    ]
    for s in free:
        ts.seat_set_available(tournament_id=t.pk, table_number=short[0], seat=s, available=False)
    assert [r.number for r in table_reads.fewest_tables(t)] == [short[1]]
    e = services.entry_register(tournament_id=t.pk, name="Late", actor=director)
    assert Seat.objects.get(entry=e).table.number == short[1]
    # Now tables of 3 with room are the shortest: every one of them, in table order.
    expected = sorted(n for n, k in sizes(t).items() if k == 3)
    assert [r.number for r in table_reads.fewest_tables(t)] == expected
    assert all(r.players == 3 for r in table_reads.fewest_tables(t))


def test_the_database_pick_is_the_engine_pick_table_draw_for_draw(director):
    # RULES 1.3 at scale: the database picks the late entry's table (``late_pick``) exactly
    # as the pure engine ``pick_table`` does from the same seed, whatever the table sizes,
    # blocked seats and ties: the same table for every seed.
    import random

    from tables.engine.pick import pick_table

    t = make(director, tables=7, seats=6)
    register(t, 23, director)  # 4, 4, 3, 3, 3, 3, 3: five tables tie
    rng = random.Random(5)
    tables = list(Table.objects.filter(tournament=t).order_by("number"))
    most_tied = 0

    def compare() -> None:
        nonlocal most_tied
        rows = table_reads.open_tables(t)
        counts = {r.number: r.players for r in rows}
        capacity = {r.number: r.seats - len(r.unavailable_seats) for r in rows}
        most_tied = max(most_tied, len(table_reads.fewest_tables(t)))
        for seed in range(60):
            mine, theirs = random.Random(seed), random.Random(seed)
            expected = pick_table(counts, capacity, mine)
            picked = table_reads.late_pick(t, theirs)
            assert (picked[0].number if picked else None) == expected
            assert mine.random() == theirs.random()  # the same draws made: later ones agree
            if picked:
                row, table = picked
                assert table.players == row.players == counts[row.number]

    compare()
    for round_ in range(6):  # vary the sizes and the blocked seats, and compare again
        for e in rng.sample(list(Seat.objects.filter(tournament=t)), 3):
            services.elimination_record(tournament_id=t.pk, busts=[(e.entry_id, 100)])
        for tb in rng.sample(tables, 2):
            tb.refresh_from_db()
            if tb.status != "open":
                continue
            taken = set(Seat.objects.filter(table=tb).values_list("number", flat=True))
            free = [s for s in range(1, tb.seats + 1) if s not in taken]
            if free:
                ts.seat_set_available(
                    tournament_id=t.pk, table_number=tb.number, seat=free[0], available=False
                )
        register(t, 4, director, prefix=f"R{round_}-")
        compare()
    assert most_tied >= 5  # ties were there to be broken by the draw


def test_open_summary_gives_the_totals_of_the_open_tables_in_one_query(director):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    t = make(director, tables=4, seats=6)
    register(t, 17, director)
    Table.objects.filter(tournament=t, number=2).update(unavailable_seats=[5, 6])
    Table.objects.filter(tournament=t, number=3).update(break_rank=-10)  # breaks first
    rows = table_reads.open_tables(t)
    players = {r.number: r.players for r in rows}

    with CaptureQueriesContext(connection) as q:
        s = table_reads.open_summary(t, apart=[1, 4])
    assert len(q.captured_queries) == 1
    assert (s.tables, s.players, s.seats) == (4, 17, 4 * 6 - 2)
    assert s.first_capacity == 6  # table 3, the lowest break rank
    assert s.apart == {1: players[1], 4: players[4]}
    assert (s.most, s.least) == (max(players[2], players[3]), min(players[2], players[3]))
    assert s.waiting == 0
    whole = table_reads.open_summary(t)
    assert (whole.most, whole.least, whole.apart) == (
        max(players.values()),
        min(players.values()),
        {},
    )


def test_an_elimination_that_moves_nobody_reads_no_table_and_draws_as_rebalance_would(director):
    """Most eliminations break and balance nothing: the totals tell so, and the draw counter
    steps exactly as when ``rebalance`` ran (RULES 1.1: later draws keep their seeds)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    t = make(director, tables=3, seats=9)
    entries = register(t, 27, director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    before = locking.lock_tournament(t.pk).draw_counter
    with CaptureQueriesContext(connection) as q:
        out = services.elimination_record(
            tournament_id=t.pk, busts=[(entries[0].pk, 100)], actor=director
        )
    assert out["moves"] == []
    table_reads = [
        x["sql"] for x in q.captured_queries if "button_seat" in x["sql"] and "SELECT" in x["sql"]
    ]
    assert table_reads == []  # neither every open table nor any one of them
    after = locking.lock_tournament(t.pk).draw_counter
    assert after == before + 1
    event = Event.objects.filter(tournament=t, kind="elimination").latest("pk")
    assert event.payload["seed"] is not None


@pytest.mark.postgres
def test_a_quiet_elimination_writes_its_event_undo_data_seats_and_busts_in_one_statement(
    director,
):
    """Most hands move nobody and pay nobody: on PostgreSQL the event with its undo data,
    the tournament's counters, the freed seat and the bust are one statement, and undo
    still puts everything back (RULES 7.4)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.services.test_undo import snapshot
    from tourney.services.undo import action_undo

    t = make(director, tables=3, seats=9)
    entries = register(t, 27, director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    before = snapshot(t)
    version = locking.lock_tournament(t.pk).version
    with CaptureQueriesContext(connection) as q:
        out = services.elimination_record(
            tournament_id=t.pk, busts=[(entries[0].pk, 100)], actor=director
        )
    writes = [
        x["sql"]
        for x in q.captured_queries
        if not x["sql"].lstrip().startswith(("SELECT", "SAVEPOINT", "RELEASE SAVEPOINT"))
    ]  # the test's transaction makes the action's a savepoint
    assert len(writes) == 1, writes
    assert "INSERT INTO tourney_event" in writes[0] and "DELETE FROM tables_seat" in writes[0]
    assert out["places"] == [{"entry": entries[0].pk, "place": 27, "place_to": 27}]
    event = Event.objects.filter(tournament=t, kind="elimination").latest("pk")
    assert event.payload["places"] == out["places"] and event.payload["moves"] == []
    assert event.payload["undo"]["seats"] and event.payload["call"]["service"] == (
        "elimination_record"
    )
    assert locking.lock_tournament(t.pk).version == version + 1
    assert not Seat.objects.filter(entry=entries[0]).exists()
    action_undo(tournament_id=t.pk, actor=director)
    assert snapshot(t) == before


# ---------------------------------------------------------------- alternates as seats open


def _status(*entries) -> list[str]:
    return [Entry.objects.get(pk=e.pk).status for e in entries]


@pytest.mark.parametrize("started", [False, True])
def test_opening_a_table_seats_the_alternates_in_order_before_balancing(director, started):
    from tests.services.test_undo import snapshot

    t = make(director, tables=1, seats=2, auto_open_tables=False)
    a, b, c, d, e = register(t, 5, director)
    assert _status(c, d, e) == ["alternate"] * 3
    if started:
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    before = snapshot(t)
    ts.table_open(tournament_id=t.pk, actor=director)
    # RULES 1.3: the waiting players take the new table's seats, in their order, instead of
    # balancing moving seated players into it (3.3); the new table holds two seats.
    assert _status(c, d, e) == ["seated", "seated", "alternate"]
    assert sizes(t) == {1: 2, 2: 2}
    assert {Seat.objects.get(entry=x).table.number for x in (c, d)} == {2}
    # Nobody seated moved; the alternates are called to their seats: moves to announce
    # (issue 31), from no seat, pointing at the action (undone with it).
    event = Event.objects.get(tournament=t, kind="tables_opened")
    called = Move.objects.filter(tournament=t).order_by("id")
    assert [(m.entry_id, m.from_table, m.to_table, m.reason, m.event_id) for m in called] == [
        (c.pk, None, 2, "seat", event.pk),
        (d.pk, None, 2, "seat", event.pk),
    ]
    assert event.payload["alternates"] == [c.pk, d.pk]
    action_undo(tournament_id=t.pk, actor=director)  # the director's undo puts all back
    assert snapshot(t) == before


def test_a_seat_made_available_again_goes_to_the_first_alternate(director):
    from tests.services.test_undo import snapshot

    t = make(director, tables=1, seats=3, auto_open_tables=False)
    ts.seat_set_available(tournament_id=t.pk, table_number=1, seat=3, available=False)
    a, b, c, d = register(t, 4, director)
    assert _status(c, d) == ["alternate", "alternate"]
    before = snapshot(t)
    ts.seat_set_available(
        tournament_id=t.pk, table_number=1, seat=3, available=True, actor=director
    )
    assert _status(c, d) == ["seated", "alternate"]
    assert Seat.objects.get(entry=c).number == 3
    event = Event.objects.filter(tournament=t, kind="seat_availability").latest("pk")
    assert event.payload["alternates"] == [c.pk]
    action_undo(tournament_id=t.pk, actor=director)
    assert snapshot(t) == before


def test_a_new_entry_waits_behind_the_alternates(director):
    t = make(director, tables=1, seats=2, auto_open_tables=False)
    a, b, c = register(t, 3, director)
    # A free seat while c waits, left by no service (the services seat c at once): the
    # registration's own guard must still hand it to c.
    Seat.objects.filter(entry=b).delete()
    Entry.objects.filter(pk=b.pk).update(status=Entry.Status.BUSTED)
    (late,) = register(t, 1, director, prefix="Late")
    # c takes the free seat first; the late entry is behind c, not ahead of it.
    assert _status(c, late) == ["seated", "alternate"]
    (later,) = register(t, 1, director, prefix="Later")
    assert _status(later) == ["alternate"]
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.elimination_record(tournament_id=t.pk, busts=[(a.pk, 100)], actor=director)
    assert _status(late, later) == ["seated", "alternate"]  # in the order they came


def test_a_new_entry_with_tables_allowed_opens_them_for_the_alternates_first(director):
    t = make(director, tables=1, seats=2, auto_open_tables=False)
    a, b, c = register(t, 3, director)
    t.auto_open_tables = True
    t.save(update_fields=["auto_open_tables"])
    (late,) = register(t, 1, director, prefix="Late")
    assert _status(c, late) == ["seated", "seated"]
    assert Seat.objects.get(entry=c).table.number == 2  # the alternate's table, opened first
    assert sizes(t) == {1: 2, 2: 2}


def test_the_event_started_with_the_tables_open_when_play_began(director):
    """RULES 3.7: the redraw at three tables is for events that *started* with six or more. An
    event that started on five tables and opened a sixth for late entries started with five;
    tables opened or closed before the start count as they stand at the start."""
    t = make(director, tables=5, seats=2)
    register(t, 10, director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    t.refresh_from_db()
    assert t.started_tables == 5
    register(t, 1, director, prefix="late")  # every seat is taken: a sixth table opens
    assert Table.objects.filter(tournament=t, status="open").count() == 6
    t.refresh_from_db()
    assert t.started_tables == 5
    assert table_reads.seating_settings(t).started_tables == 5

    six = make(director, tables=5, seats=9)
    register(six, 40, director)  # five tables of nine are needed
    (opened,) = ts.table_open(tournament_id=six.pk, count=1, actor=director)  # counts
    six.refresh_from_db()
    assert six.started_tables == 6
    # RULES 13.1: the first event holds tables 1-6, so this one's are numbered after them
    ts.table_close(tournament_id=six.pk, table_number=opened.number, actor=director)
    services.clock_action(tournament_id=six.pk, action="start", actor=director)
    six.refresh_from_db()
    assert six.started_tables == 5  # the table closed before play: it started with five
