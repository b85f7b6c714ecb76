"""RULES 12: a satellite's payouts (seats and leftover cash), the tickets issued by the busts
into seat places and by the last one, the satellite's deal, its settings and their checks;
every refusal changes nothing; undo and redo are exact."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Tournament
from tourney.room_models import Ticket
from tourney.selectors import money as money_reads
from tourney.selectors.satellites import satellite_summary
from tourney.services import money
from tourney.services.satellites import satellite_deal, satellite_set
from tourney.services.tickets import ticket_register
from tourney.services.undo import action_redo, action_undo

pytestmark = pytest.mark.django_db


def _event(director, name, *, buy_in, fee, players=0, **options) -> Tournament:
    t = services.tournament_create(
        actor=director,
        name=name,
        tables=2,
        starting_stack=20000,
        buy_in=buy_in,
        fee=fee,
        seed=5,
        levels=TWO_LEVELS,
        options=options,
    )
    for i in range(players):
        services.entry_register(tournament_id=t.pk, name=f"{name[:3]} P{i + 1:02d}", actor=director)
    t.refresh_from_db()
    return t


@pytest.fixture
def target(director):
    return _event(director, "Main event", buy_in=5000, fee=500)  # a seat: 5,500


@pytest.fixture
def sat(director, target):
    # 12 entries of 1,000 (+100 fee): pool 12,000 = 2 seats of 5,500 and 1,000 cash to 3rd
    return _event(
        director, "Satellite", buy_in=1000, fee=100, players=12, satellite_target=target.pk
    )


def _seated(t):
    return list(Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).order_by("number"))


def _bust_down_to(t, left, director):
    while len(seated := _seated(t)) > left:
        services.elimination_record(
            tournament_id=t.pk, busts=[(seated[-1].pk, 1000)], actor=director
        )


def _snapshot(t):
    t.refresh_from_db()
    return (
        t.status,
        sorted(
            Entry.objects.filter(tournament=t).values_list(
                "pk", "status", "place", "place_to", "prize"
            )
        ),
        sorted(Ticket.objects.filter(satellite=t).values_list("pk", "entry_id", "status", "value")),
    )


def test_created_with_a_target_pays_seats_and_cash(sat, target):
    assert sat.satellite_target_id == target.pk and sat.seat_value == 0
    # RULES 12.2: N = 12,000 // 5,500 = 2 seats, 1,000 cash to place 3
    assert money_reads.prizes_of(sat) == (5500, 5500, 1000)
    s = satellite_summary(sat)
    assert (s["seats"], s["cash"], s["cash_place"], s["seat_value"]) == (2, 1000, 3, 5500)
    assert (s["seats_won"], s["seats_left"], s["players_left"]) == (0, 2, 12)
    assert s["deal_possible"] is False


def test_busts_into_seat_places_issue_tickets_and_the_winner_too(sat, target, director):
    _bust_down_to(sat, 3, director)
    assert Ticket.objects.filter(satellite=sat).count() == 0
    _bust_down_to(sat, 2, director)
    third = Entry.objects.get(tournament=sat, place=3)
    assert third.prize == 1000 and not Ticket.objects.filter(entry=third).exists()
    _bust_down_to(sat, 1, director)
    sat.refresh_from_db()
    assert sat.status == Tournament.Status.FINISHED
    tickets = list(Ticket.objects.filter(satellite=sat).order_by("entry__place"))
    assert [(tk.entry.place, tk.value, tk.target_id, tk.status) for tk in tickets] == [
        (1, 5500, target.pk, "issued"),
        (2, 5500, target.pk, "issued"),
    ]
    assert [tk.player_id for tk in tickets] == [tk.entry.player_id for tk in tickets]
    assert sorted(
        Entry.objects.filter(tournament=sat, place__lte=2).values_list("prize", flat=True)
    ) == [5500, 5500]
    s = satellite_summary(sat)
    assert (s["seats_won"], s["seats_left"]) == (2, 0)


def test_undo_takes_the_tickets_away_exactly_and_redo_gives_them(sat, director):
    _bust_down_to(sat, 2, director)
    before = _snapshot(sat)
    _bust_down_to(sat, 1, director)
    after = _snapshot(sat)
    assert len(after[2]) == 2
    action_undo(tournament_id=sat.pk, actor=director)
    assert _snapshot(sat) == before
    action_redo(tournament_id=sat.pk, actor=director)
    again = _snapshot(sat)
    assert again[:2] == after[:2] and len(again[2]) == 2


def test_a_used_ticket_blocks_the_undo(sat, target, director):
    _bust_down_to(sat, 1, director)
    ticket = Ticket.objects.filter(satellite=sat).order_by("pk").last()
    entry = ticket_register(ticket_id=ticket.pk, actor=director)
    before = _snapshot(sat)
    events = Event.objects.filter(tournament=sat).count()
    with pytest.raises(DomainError) as exc:
        action_undo(tournament_id=sat.pk, actor=director)
    assert exc.value.code == "ticket_used"
    assert f"entry #{entry.number}" in exc.value.message and target.name in exc.value.message
    assert _snapshot(sat) == before
    assert Event.objects.filter(tournament=sat).count() == events
    # once the registration is undone at the target, the satellite's undo goes through
    action_undo(tournament_id=target.pk, actor=director)
    action_undo(tournament_id=sat.pk, actor=director)
    sat.refresh_from_db()
    assert sat.status != Tournament.Status.FINISHED
    # the last bust placed 2nd and 1st: both its tickets went with it
    assert Ticket.objects.filter(satellite=sat).count() == 0


def test_the_deal_gives_every_player_left_a_seat(sat, director):
    _bust_down_to(sat, 3, director)
    before = _snapshot(sat)
    with pytest.raises(DomainError) as exc:
        satellite_deal(tournament_id=sat.pk, actor=director)
    assert exc.value.code == "deal_counts"
    assert exc.value.fields == {"players_left": 3, "seats_left": 2}
    assert "3 players left, 2 seats left" in exc.value.message
    assert _snapshot(sat) == before
    _bust_down_to(sat, 2, director)
    assert satellite_summary(sat)["deal_possible"] is True
    before = _snapshot(sat)
    left = [e.pk for e in _seated(sat)]
    out = satellite_deal(tournament_id=sat.pk, actor=director)
    assert sorted(out["entries"]) == sorted(left) and out["seats"] == 2
    sat.refresh_from_db()
    assert sat.status == Tournament.Status.FINISHED and not sat.clock_running
    rows = Entry.objects.filter(pk__in=left)
    assert {(e.place, e.place_to, e.prize) for e in rows} == {(1, 2, 5500)}
    assert sorted(
        Ticket.objects.filter(satellite=sat).values_list("entry_id", flat=True)
    ) == sorted(left)
    ev = Event.objects.filter(tournament=sat).latest("pk")
    assert ev.kind == "satellite_deal" and sorted(ev.payload["tickets"]) == sorted(out["tickets"])
    with pytest.raises(DomainError) as exc:
        satellite_deal(tournament_id=sat.pk, actor=director)
    assert exc.value.code == "tournament_finished"
    action_undo(tournament_id=sat.pk, actor=director)
    assert _snapshot(sat) == before
    action_redo(tournament_id=sat.pk, actor=director)
    assert Ticket.objects.filter(satellite=sat).count() == 2


def test_deal_refused_for_no_satellite(director, target):
    with pytest.raises(DomainError) as exc:
        satellite_deal(tournament_id=target.pk, actor=director)
    assert exc.value.code == "not_satellite"


def test_frozen_payouts_are_seats_and_busts_still_issue_tickets(sat, director):
    services.registration_close(tournament_id=sat.pk, actor=director)
    sat.refresh_from_db()
    assert sat.frozen_prizes == [5500, 5500, 1000]
    _bust_down_to(sat, 1, director)
    assert Ticket.objects.filter(satellite=sat).count() == 2


def test_payout_table_refused_for_a_satellite(sat, director):
    with pytest.raises(DomainError) as exc:
        money.payouts_set(tournament_id=sat.pk, percentages=[6000, 4000], actor=director)
    assert exc.value.code == "satellite_payouts"


def test_seat_value_set_by_the_director(director, target):
    sat = _event(
        director,
        "Mega",
        buy_in=1000,
        fee=0,
        players=10,
        satellite_target=target.pk,
        seat_value=3000,
    )
    assert money_reads.prizes_of(sat) == (3000, 3000, 3000, 1000)


def test_no_seat_the_pool_is_cash_to_first(director, target):
    sat = _event(director, "Tiny", buy_in=1000, fee=0, players=3, satellite_target=target.pk)
    assert money_reads.prizes_of(sat) == (3000,)
    _bust_down_to(sat, 1, director)
    assert Ticket.objects.filter(satellite=sat).count() == 0


@pytest.mark.parametrize(
    ("which", "message"),
    [
        ("self", "cannot give seats in itself"),
        ("missing", "No such tournament"),
        ("finished", "finished"),
        ("cycle", "circle"),
        ("no_target", "need a target"),
    ],
)
def test_satellite_settings_refused(director, target, sat, which, message):
    if which == "finished":
        Tournament.objects.filter(pk=target.pk).update(status=Tournament.Status.FINISHED)
        other = _event(director, "Other", buy_in=100, fee=0)
        kwargs = {"tournament_id": other.pk, "satellite_target": target.pk}
    elif which == "cycle":  # the target made a satellite of its own satellite
        kwargs = {"tournament_id": target.pk, "satellite_target": sat.pk}
    elif which == "self":
        kwargs = {"tournament_id": sat.pk, "satellite_target": sat.pk}
    elif which == "missing":
        kwargs = {"tournament_id": sat.pk, "satellite_target": 10**9}
    else:
        kwargs = {"tournament_id": target.pk, "satellite_target": None, "seat_value": 100}
    t = Tournament.objects.get(pk=kwargs["tournament_id"])
    events = Event.objects.count()
    with pytest.raises(DomainError) as exc:
        satellite_set(actor=director, **kwargs)
    assert exc.value.code == "bad_satellite" and message in exc.value.message
    t2 = Tournament.objects.get(pk=t.pk)
    assert (t2.satellite_target_id, t2.seat_value) == (t.satellite_target_id, t.seat_value)
    assert Event.objects.count() == events


def test_create_refused_with_a_bad_target(director, target):
    with pytest.raises(DomainError) as exc:
        _event(director, "Bad", buy_in=100, fee=0, satellite_target=10**9)
    assert exc.value.code == "bad_satellite"
    assert not Tournament.objects.filter(name="Bad").exists()


def test_settings_set_undone_and_locked_once_a_ticket_is_issued(director, target):
    t = _event(director, "Later sat", buy_in=2750, fee=0, players=4)
    assert money_reads.prizes_of(t) != (5500, 5500)
    satellite_set(tournament_id=t.pk, satellite_target=target.pk, actor=director)
    t.refresh_from_db()
    assert t.satellite_target_id == target.pk
    assert money_reads.prizes_of(t) == (5500, 5500)
    action_undo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert (t.satellite_target_id, t.seat_value, t.tickets_transferable) == (None, 0, False)
    action_redo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert t.satellite_target_id == target.pk
    _bust_down_to(t, 1, director)
    with pytest.raises(DomainError) as exc:
        satellite_set(
            tournament_id=t.pk, satellite_target=target.pk, seat_value=100, actor=director
        )
    assert exc.value.code == "settings_locked" and "2 ticket(s)" in exc.value.message


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    players=st.integers(2, 9),
    buy_in=st.integers(1, 40).map(lambda x: x * 250),
    seat=st.integers(1, 30).map(lambda x: x * 500),
)
def test_played_out_the_tickets_are_the_seats_and_the_prizes_the_pool(
    director, target, players, buy_in, seat
):
    # RULES 12.2, 12.4: whatever the field and the seat value
    t = _event(
        director,
        "Any sat",
        buy_in=buy_in,
        fee=0,
        players=players,
        satellite_target=target.pk,
        seat_value=seat,
    )
    _bust_down_to(t, 1, director)
    pool = money_reads.pool_of(t)
    seats = min(pool // seat, players)
    tickets = list(Ticket.objects.filter(satellite=t).select_related("entry"))
    assert len(tickets) == seats
    assert sorted(tk.entry.place for tk in tickets) == list(range(1, seats + 1))
    assert all(tk.value == seat and tk.player_id == tk.entry.player_id for tk in tickets)
    prizes = Entry.objects.filter(tournament=t).values_list("prize", flat=True)
    assert sum(prizes) == pool
