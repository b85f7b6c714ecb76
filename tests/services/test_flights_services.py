"""Issue 26, multi-day events through the services (RULES 10): the event and its flights,
a flight's end by its clock and by its field, bag and tag, the Day 2 build, its money, the
desk's warning, and the undo of each action."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tables.models import Seat
from tests.conftest import TWO_LEVELS
from tourney import services, tasks
from tourney.engine import clock as clock_engine
from tourney.engine import event_money, payouts
from tourney.engine.errors import DomainError
from tourney.models import ChipCount, Entry, Event, MultiDayEvent, Player, Tournament
from tourney.selectors import flights as reads
from tourney.selectors.money import money_summary, pool_of, prizes_of
from tourney.services import flights
from tourney.services.undo import action_redo, action_undo

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def _event(director, letters=("A", "B", "C"), **kw) -> MultiDayEvent:
    args = {
        "actor": director,
        "name": "Main Event",
        "flights": list(letters),
        "levels": TWO_LEVELS,
        "tables": 1,
        "seats_per_table": 9,
        "starting_stack": 20000,
        "buy_in": 10000,
        "fee": 1000,
        "seed": 11,
        "end_at_players": 3,
        "options": {"reentries_allowed": 2},
    }
    args.update(kw)
    return flights.event_create(**args)


def _flights(event) -> list[Tournament]:
    return list(Tournament.objects.filter(multi_day_event=event, day=1).order_by("pk"))


def _still_in(t) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=t).exclude(status=Entry.Status.BUSTED).order_by("number")
    )


def _play(t, director, players, *, reenter=(), at=T0) -> None:
    """Register ``players``, start, bust and re-enter the ``reenter`` players' first entries,
    close registration and bust the lowest numbers until the flight ends (RULES 10.2)."""
    with time_machine.travel(at, tick=False):
        entries = {
            p.pk: services.entry_register(tournament_id=t.pk, player_id=p.pk, actor=director)
            for p in players
        }
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    with time_machine.travel(at + timedelta(minutes=2), tick=False):
        for p in reenter:
            services.elimination_record(
                tournament_id=t.pk, busts=[(entries[p.pk].pk, 100)], actor=director
            )
            services.entry_reenter(tournament_id=t.pk, entry_id=entries[p.pk].pk, actor=director)
        services.registration_close(tournament_id=t.pk, actor=director)
        t.refresh_from_db()
        while len(_still_in(t)) > t.end_at_players:
            services.elimination_record(
                tournament_id=t.pk, busts=[(_still_in(t)[0].pk, 100)], actor=director
            )
            t.refresh_from_db()


def _bag_all(t, director, chips_for=None) -> dict[int, int]:
    """Bag every player still in, table by table, the chips in play shared out exactly."""
    alive = _still_in(t)
    total = reads.bag_status(t).chips_in_play
    counts = {e.pk: (chips_for(e) if chips_for else total // len(alive)) for e in alive}
    counts[alive[-1].pk] += total - sum(counts.values())
    by_table: dict[int, dict[int, int]] = {}
    for e in alive:
        seat = Seat.objects.select_related("table").get(entry=e)
        by_table.setdefault(seat.table.number, {})[e.pk] = counts[e.pk]
    for table, own in by_table.items():
        flights.bags_record(tournament_id=t.pk, table=table, counts=own, actor=director)
    return counts


# ---------------------------------------------------------------- RULES 10.1


def test_event_create_makes_one_flight_per_letter_on_one_structure(director):
    event = _event(director)
    a, b, c = _flights(event)
    assert [x.name for x in (a, b, c)] == [
        "Main Event Day 1A",
        "Main Event Day 1B",
        "Main Event Day 1C",
    ]
    assert [x.flight for x in (a, b, c)] == ["A", "B", "C"]
    assert {
        (x.day, x.end_at_players, x.end_at_level, x.buy_in, x.reentries_allowed) for x in (a, b, c)
    } == {(1, 3, None, 10000, 2)}
    assert a.levels.count() == b.levels.count() == 3
    assert len({x.rng_seed for x in (a, b, c)}) == 3  # each flight draws its own seats
    assert (event.policy, event.pays_on_day1) == ("largest", False)


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"pays_on_day1": True}, "pays_on_day1"),
        ({"end_at_players": None}, "no_flight_end"),
        ({"end_at_level": 3}, "bad_last_level"),
        ({"flights": ["A", "A"]}, "bad_input"),
        ({"policy": "biggest"}, "unknown_policy"),
        ({"options": {"bounty_kind": "fixed", "bounty": 500}}, "no_bounties"),
    ],
)
def test_event_create_refusals_create_nothing(director, kw, code):
    with pytest.raises(DomainError) as exc:
        _event(director, **kw)
    assert exc.value.code == code
    assert not MultiDayEvent.objects.exists()
    assert not Tournament.objects.exists()


def test_pays_on_day1_refusal_says_why(director):
    with pytest.raises(DomainError) as exc:
        _event(director, pays_on_day1=True)
    assert exc.value.message == flights.MSG_PAYS_ON_DAY1


# ---------------------------------------------------------------- RULES 10.2


def test_the_clock_stops_at_the_end_of_the_flights_last_level(director):
    event = _event(director, letters=["A"], end_at_players=None, end_at_level=0)
    (t,) = _flights(event)
    with time_machine.travel(T0, tick=False):
        for i in range(4):
            services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    # Read before any tick: the flight has ended, its clock shows it finished at level 1.
    late = T0 + timedelta(minutes=25)
    t.refresh_from_db()
    shown = reads.flight_clock(t, late)
    assert (shown.status, shown.index, shown.remaining_ms) == (clock_engine.FINISHED, 0, 0)
    assert reads.flight_end_reason(t, now=late) == "level"
    services.clock_announce(tournament_id=t.pk, now=late)  # the beat's tick or sweep
    t.refresh_from_db()
    assert (t.clock_index, t.clock_left_ms, t.clock_running) == (0, 0, False)
    assert t.clock_at == T0 + timedelta(minutes=20)  # stopped at the level's end
    assert t.clock_announced == 0  # the break after it never started
    ended = Event.objects.get(tournament=t, kind="flight_ended")
    assert ended.payload["reason"] == "level" and ended.payload["index"] == 0
    assert not Event.objects.filter(tournament=t, kind="break_started").exists()
    # Later sweeps find nothing: the clock stays where it stopped.
    assert services.clock_announce(tournament_id=t.pk, now=late + timedelta(hours=1)) == []
    with time_machine.travel(late + timedelta(hours=2), tick=False):
        assert tasks.clock_sweep() == 0
    t.refresh_from_db()
    assert (t.clock_index, t.clock_running, t.clock_announced) == (0, False, 0)
    assert Event.objects.filter(tournament=t, kind="flight_ended").count() == 1


def test_the_director_cannot_run_an_ended_flights_clock_but_may_replay_its_last_level(
    director,
):
    event = _event(director, letters=["A"], end_at_players=None, end_at_level=0)
    (t,) = _flights(event)
    with time_machine.travel(T0, tick=False):
        services.entry_register(tournament_id=t.pk, name="P1", actor=director)
        services.entry_register(tournament_id=t.pk, name="P2", actor=director)
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    late = T0 + timedelta(minutes=21)
    services.clock_announce(tournament_id=t.pk, now=late)
    before = Event.objects.count()
    for action, kw in (("resume", {}), ("next", {}), ("jump", {"index": 2})):
        with pytest.raises(DomainError) as exc:
            services.clock_action(tournament_id=t.pk, action=action, actor=director, now=late, **kw)
        assert exc.value.code == "flight_ended"
        assert "its last level is over" in exc.value.message
    assert Event.objects.count() == before
    t.refresh_from_db()
    assert (t.clock_index, t.clock_left_ms, t.clock_running) == (0, 0, False)
    # Back to the last level: it plays again, and the flight ends again at its end.
    services.clock_action(tournament_id=t.pk, action="previous", actor=director, now=late)
    services.clock_action(tournament_id=t.pk, action="resume", actor=director, now=late)
    services.clock_announce(tournament_id=t.pk, now=late + timedelta(minutes=21))
    t.refresh_from_db()
    assert (t.clock_index, t.clock_left_ms, t.clock_running) == (0, 0, False)
    assert t.clock_at == late + timedelta(minutes=20)
    assert Event.objects.filter(tournament=t, kind="flight_ended").count() == 2


def test_a_bust_to_the_flights_number_stops_the_clock_and_undo_restarts_it(director):
    event = _event(director, letters=["A"])
    (t,) = _flights(event)
    players = [Player.objects.create(name=f"P{i}") for i in range(5)]
    with time_machine.travel(T0, tick=False):
        entries = [
            services.entry_register(tournament_id=t.pk, player_id=p.pk, actor=director)
            for p in players
        ]
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    with time_machine.travel(T0 + timedelta(minutes=3), tick=False):
        services.elimination_record(tournament_id=t.pk, busts=[(entries[0].pk, 5)], actor=director)
        t.refresh_from_db()
        assert t.clock_running  # registration still open: the field can grow back
        services.registration_close(tournament_id=t.pk, actor=director)
        services.elimination_record(tournament_id=t.pk, busts=[(entries[1].pk, 5)], actor=director)
    t.refresh_from_db()
    assert not t.clock_running and t.clock_index == 0
    assert t.clock_left_ms == 17 * 60 * 1000  # stopped where it stood, 3 minutes in
    ended = Event.objects.get(tournament=t, kind="flight_ended")
    assert ended.payload["reason"] == "players"
    assert reads.flight_end_reason(t) == "players"
    last = Event.objects.filter(tournament=t).exclude(kind="flight_ended").first()
    assert last.kind == "elimination" and ended.pk in last.payload["events"]
    with time_machine.travel(T0 + timedelta(minutes=4), tick=False):
        out = action_undo(tournament_id=t.pk, actor=director)
    assert out["kind"] == "elimination"
    t.refresh_from_db()
    assert t.clock_running and t.clock_at == T0  # the running anchor, as it was
    assert Entry.objects.get(pk=entries[1].pk).status == Entry.Status.SEATED
    ended.refresh_from_db()
    assert ended.undone
    with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
        action_redo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert not t.clock_running
    assert Event.objects.filter(tournament=t, kind="flight_ended", undone=False).count() == 1


# ---------------------------------------------------------------- RULES 10.4


def _ended_flight(director):
    event = _event(director, letters=["A"])
    (t,) = _flights(event)
    _play(t, director, [Player.objects.create(name=f"P{i}") for i in range(5)])
    t.refresh_from_db()
    return t


def test_bags_wait_for_the_flights_end(director):
    event = _event(director, letters=["A"])
    (t,) = _flights(event)
    e = services.entry_register(tournament_id=t.pk, name="Early", actor=director)
    with pytest.raises(DomainError) as exc:
        flights.bags_record(tournament_id=t.pk, table=1, counts={e.pk: 100}, actor=director)
    assert exc.value.code == "flight_not_ended"
    assert not ChipCount.objects.exists()


def test_bag_and_tag_table_by_table_with_the_difference_shown(director):
    t = _ended_flight(director)
    alive = _still_in(t)
    assert len(alive) == 3
    status = reads.bag_status(t)
    assert status.missing == tuple(sorted(e.pk for e in alive))
    assert status.chips_in_play == 5 * 20000
    with pytest.raises(DomainError) as exc:
        flights.flight_bag_close(tournament_id=t.pk, actor=director)
    assert exc.value.code == "counts_missing"
    counts = {alive[0].pk: 30000, alive[1].pk: 30000, alive[2].pk: 39000}
    flights.bags_record(tournament_id=t.pk, table=1, counts=counts, actor=director)
    status = reads.bag_status(t)
    assert (status.counted, status.difference, status.missing) == (99000, -1000, ())
    assert [(x.table, x.players, x.chips) for x in status.tables] == [(1, 3, 99000)]
    # A recount of the table replaces its bags.
    counts[alive[2].pk] = 40000
    flights.bags_record(tournament_id=t.pk, table=1, counts=counts, actor=director)
    assert ChipCount.objects.filter(tournament=t, bag=True).count() == 3
    assert reads.bag_status(t).balanced
    labels = reads.bag_labels_of(t)
    assert [x.number for x in labels] == [1, 2, 3]
    assert [x.seat for x in labels] == sorted(x.seat for x in labels)
    report = reads.chip_report_of(t)
    assert [r.chips for r in report.by_chips] == [40000, 30000, 30000]
    assert [r.rank for r in report.by_chips] == [1, 2, 2]
    flights.flight_bag_close(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert t.bagged
    ev = Event.objects.get(tournament=t, kind="flight_bagged")
    assert ev.payload["difference"] == 0
    with pytest.raises(DomainError) as exc:
        flights.bags_record(tournament_id=t.pk, table=1, counts=counts, actor=director)
    assert exc.value.code == "flight_bagged"


@pytest.mark.parametrize(
    ("bad", "code"),
    [("not_at_table", "not_at_table"), ("zero", "bad_count"), ("table", "no_table")],
)
def test_bag_refusals_change_nothing(director, bad, code):
    t = _ended_flight(director)
    alive = _still_in(t)
    busted = Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED).first()
    table, counts = 1, {alive[0].pk: 5000}
    if bad == "not_at_table":
        counts = {busted.pk: 5000}
    elif bad == "zero":
        counts = {alive[0].pk: 0}
    else:
        table = 9
    before = Event.objects.count()
    with pytest.raises(DomainError) as exc:
        flights.bags_record(tournament_id=t.pk, table=table, counts=counts, actor=director)
    assert exc.value.code == code
    assert not ChipCount.objects.exists()
    assert Event.objects.count() == before


def test_undo_and_redo_of_bags_and_their_close_are_exact(director):
    t = _ended_flight(director)
    alive = _still_in(t)
    first = {e.pk: 33000 for e in alive}
    flights.bags_record(tournament_id=t.pk, table=1, counts=first, actor=director)
    rows_before = list(ChipCount.objects.order_by("pk").values())
    flights.bags_record(tournament_id=t.pk, table=1, counts={alive[0].pk: 34000}, actor=director)
    assert ChipCount.objects.count() == 1
    action_undo(tournament_id=t.pk, actor=director)
    assert list(ChipCount.objects.order_by("pk").values()) == rows_before
    action_redo(tournament_id=t.pk, actor=director)
    assert list(ChipCount.objects.values_list("entry_id", "chips")) == [(alive[0].pk, 34000)]
    _bag_all(t, director)
    flights.flight_bag_close(tournament_id=t.pk, actor=director)
    action_undo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert not t.bagged
    action_redo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert t.bagged


# ---------------------------------------------------------------- RULES 10.3, 10.5, 10.6


def _three_flights(director, policy="largest"):
    """The issue's case: three flights, re-entries, and players who bag in two flights."""
    event = _event(director, policy=policy)
    a, b, c = _flights(event)
    shared = [Player.objects.create(name=f"Shared {i}") for i in range(2)]
    own = {
        x.flight: [Player.objects.create(name=f"{x.flight}{i}") for i in range(4)]
        for x in (a, b, c)
    }
    # Day 1A: the shared players and four more, one re-entry; the shared ones are kept in.
    _play(a, director, [*own["A"], *shared], reenter=[own["A"][0]], at=T0)
    _play(b, director, [*own["B"], *shared], reenter=[own["B"][1]], at=T0 + timedelta(days=1))
    _play(c, director, [*own["C"], shared[0]], at=T0 + timedelta(days=2))
    return event, (a, b, c), shared


def test_flight_warning_names_the_stack_going_forward(director):
    event = _event(director, letters=["A", "B"])
    a, b = _flights(event)
    p = Player.objects.create(name="Ann Lee")
    _play(a, director, [*[Player.objects.create(name=f"X{i}") for i in range(4)], p])
    assert reads.flight_warning(b, p) is None  # Day 1A not bagged yet
    a.refresh_from_db()
    counts = _bag_all(a, director)
    flights.flight_bag_close(tournament_id=a.pk, actor=director)
    entry = Entry.objects.get(tournament=a, player=p)  # the last registered: still in
    warning = reads.flight_warning(b, p.pk)
    assert warning.code == "already_qualified" and warning.bag.entry == entry.pk
    assert f"{counts[entry.pk]:,} chips" in warning.message and "(flight 1)" in warning.message
    other = Player.objects.create(name="New Face")
    assert reads.flight_warning(b, other) is None


def test_day2_waits_for_every_flight_to_bag(director):
    event, (a, b, c), _ = _three_flights(director)
    for x in (a, b):
        x.refresh_from_db()
        _bag_all(x, director)
        flights.flight_bag_close(tournament_id=x.pk, actor=director)
    with pytest.raises(DomainError) as exc:
        flights.day2_build(event_id=event.pk, tables=2, seats_per_table=6, actor=director)
    assert exc.value.code == "flights_not_bagged" and exc.value.fields["flights"] == ["C"]
    assert not Tournament.objects.filter(day=2).exists()


@pytest.mark.parametrize("policy", ["largest", "first"])
def test_three_flights_to_day2_and_its_end(director, policy):
    event, days, shared = _three_flights(director, policy)
    for n, x in enumerate(days):
        x.refresh_from_db()
        # every stack different, the shared players' biggest in a later flight
        alive = _still_in(x)
        chips = {e.pk: 1000 * (i + 1) * (n + 1) for i, e in enumerate(alive)}
        _bag_all(x, director, chips_for=lambda e, c=chips: c[e.pk])
        flights.flight_bag_close(tournament_id=x.pk, actor=director)
    bags = reads.event_bags(event.pk)
    q = reads.day2_qualifiers(event)
    kept_chips = {b.entry: b.chips for b in q.qualified}
    for player in {b.player for b in bags}:  # RULES 10.3, the policy, checked by hand
        own = [b for b in bags if b.player == player]
        best = max(own, key=lambda b: b.chips) if policy == "largest" else own[0]
        assert kept_chips.get(best.entry) == best.chips
    day2 = flights.day2_build(event_id=event.pk, tables=2, seats_per_table=6, actor=director)
    entries = list(Entry.objects.filter(tournament=day2))
    # One entry per player who bagged, each with exactly the chips of the bag kept.
    assert len(entries) == len({b.player for b in bags}) == len(q.qualified)
    assert {e.carried_from_id: e.chips_bought for e in entries} == kept_chips
    assert all(e.paid == 0 and e.fee_paid == 0 for e in entries)
    assert sum(e.chips_bought for e in entries) == q.chips_in_play
    # Shared 0 bagged in all three flights, Shared 1 in A and B: three bags forfeited.
    assert len(q.forfeited) == 3
    assert {f.bag.player for f in q.forfeited} == {p.pk for p in shared}
    # Seats: each player once, one to a seat, the tables filled evenly.
    seats = list(Seat.objects.filter(tournament=day2).values_list("entry_id", "table_id", "number"))
    assert len(seats) == len(entries) == len({s[0] for s in seats})
    assert len({(s[1], s[2]) for s in seats}) == len(seats)
    per_table = Counter(s[1] for s in seats)
    assert max(per_table.values()) - min(per_table.values()) <= 1
    assert (day2.day, day2.registration_open, day2.multi_day_event_id) == (2, False, event.pk)
    # The money of all flights is the event's pool; the flights pay nothing themselves.
    paid = sum(Entry.objects.filter(tournament__in=days).values_list("paid", flat=True))
    expected = event_money.event_pool(reads.flight_money(event.pk), buy_in=10000)
    assert pool_of(day2) == expected == paid
    assert all(prizes_of(x) == () for x in days)
    assert money_summary(day2)["prize_pool"] == expected
    field = sum(m.entries for m in reads.flight_money(event.pk))  # the table: the whole field
    assert money_summary(day2)["percentages"] == list(payouts.default_percentages(field))
    assert sum(prizes_of(day2)) == expected
    # Day 2 plays to its end: the event's prizes go to its places.
    with time_machine.travel(T0 + timedelta(days=3), tick=False):
        services.clock_action(tournament_id=day2.pk, action="start", actor=director)
        day2.refresh_from_db()
        assert sum(day2.frozen_prizes) == expected  # the event's, frozen as Day 2 was seated
        for e in sorted(entries, key=lambda e: e.chips_bought)[:-1]:
            services.elimination_record(tournament_id=day2.pk, busts=[(e.pk, 1)], actor=director)
    day2.refresh_from_db()
    assert day2.status == Tournament.Status.FINISHED
    prizes = Entry.objects.filter(tournament=day2).values_list("place", "prize")
    assert sum(p for _, p in prizes) == expected
    assert sorted(p for p, _ in prizes) == list(range(1, len(entries) + 1))


def test_day2_seating_undo_and_redo_are_exact(director):
    event, days, _ = _three_flights(director)
    for x in days:
        x.refresh_from_db()
        _bag_all(x, director)
        flights.flight_bag_close(tournament_id=x.pk, actor=director)
    day2 = flights.day2_build(event_id=event.pk, tables=1, seats_per_table=3, actor=director)
    seated = sorted(
        Seat.objects.filter(tournament=day2).values_list(
            "entry__carried_from_id", "table__number", "number"
        )
    )
    assert day2.tables.filter(status="open").count() >= 2  # opened as many as needed
    action_undo(tournament_id=day2.pk, actor=director)
    day2.refresh_from_db()
    assert (day2.payout_percentages, day2.frozen_prizes) == (None, None)
    assert not Entry.objects.filter(tournament=day2).exists()
    assert not Seat.objects.filter(tournament=day2).exists()
    action_redo(tournament_id=day2.pk, actor=director)
    again = sorted(
        Seat.objects.filter(tournament=day2).values_list(
            "entry__carried_from_id", "table__number", "number"
        )
    )
    assert again == seated  # the same seed draws the same seats
    with pytest.raises(DomainError) as exc:
        flights.day2_build(event_id=event.pk, tables=1, actor=director)
    assert exc.value.code == "day2_exists"
    with pytest.raises(DomainError) as exc:
        flights.day2_seat(tournament_id=day2.pk, actor=director)
    assert exc.value.code == "day2_seated"


def test_day2_refuses_a_table_paying_more_places_than_day2_players(director):
    table = [4000, 3000, 2000, 1000]  # four places, three players reach Day 2
    event = _event(director, letters=["A"], options={"payout_percentages": table})
    (t,) = _flights(event)
    _play(t, director, [Player.objects.create(name=f"P{i}") for i in range(5)])
    t.refresh_from_db()
    _bag_all(t, director)
    flights.flight_bag_close(tournament_id=t.pk, actor=director)
    with pytest.raises(DomainError) as exc:
        flights.day2_build(event_id=event.pk, tables=1, actor=director)
    assert exc.value.code == "paid_below_day2"
    assert "Pay fewer places" in exc.value.message
    assert not Tournament.objects.filter(day=2).exists()


def test_day2_starts_where_day1_stopped_or_where_the_director_says(director):
    """RULES 10.5: a flight that played its last level (level 1) to its end: Day 2 starts at
    level 2 (the break between is skipped); the director may name another level."""
    event = _event(director, letters=["A"], end_at_players=None, end_at_level=0)
    (a,) = _flights(event)
    with time_machine.travel(T0, tick=False):
        for i in range(4):
            services.entry_register(tournament_id=a.pk, name=f"P{i}", actor=director)
        services.clock_action(tournament_id=a.pk, action="start", actor=director)
    services.clock_announce(tournament_id=a.pk, now=T0 + timedelta(minutes=21))
    a.refresh_from_db()
    _bag_all(a, director)
    flights.flight_bag_close(tournament_id=a.pk, actor=director)
    with pytest.raises(DomainError) as exc:  # a break is no level to start at
        flights.day2_build(event_id=event.pk, tables=1, start_level=1, actor=director)
    assert exc.value.code == "bad_start_level"
    assert not Tournament.objects.filter(day=2).exists()
    day2 = flights.day2_build(event_id=event.pk, tables=1, actor=director)
    assert (day2.clock_index, day2.clock_started) == (2, False)
    assert day2.clock_left_ms == 20 * 60 * 1000
    with time_machine.travel(T0 + timedelta(days=1), tick=False):
        state = services.clock_action(tournament_id=day2.pk, action="start", actor=director)
    assert (state.index, state.level_number) == (2, 2)
