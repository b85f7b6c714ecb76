"""RULES 12.5-12.7: a satellite's ticket registers its player into the target at no charge,
a director refunds one with a reason, a non-transferable one stays with its player; every
refusal changes nothing, and undo/redo are exact."""

from __future__ import annotations

import pytest

from tables.models import Seat
from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Player, Tournament
from tourney.room_models import Ticket
from tourney.selectors.tickets import tickets_for_target, tickets_open_for
from tourney.services import tickets as svc
from tourney.services.undo import action_redo, action_undo

pytestmark = pytest.mark.django_db


def _event(director, name, **kw) -> Tournament:
    return services.tournament_create(
        actor=director,
        name=name,
        tables=2,
        starting_stack=20000,
        buy_in=kw.pop("buy_in", 5000),
        fee=kw.pop("fee", 500),
        seed=3,
        levels=TWO_LEVELS,
        **kw,
    )


@pytest.fixture
def pair(director):
    """A target (5,000 + 500) and its satellite with one ticket issued to its entry #1."""
    target = _event(director, "Main event")
    sat = _event(director, "Satellite", buy_in=500, fee=50)
    Tournament.objects.filter(pk=sat.pk).update(satellite_target=target, seat_value=5500)
    e = services.entry_register(tournament_id=sat.pk, name="Ana Sat", actor=director)
    ticket = Ticket.objects.create(
        satellite=sat, target=target, entry=e, player=e.player, value=5500
    )
    return sat, target, ticket


def _state(target: Tournament, ticket: Ticket):
    ticket.refresh_from_db()
    return (
        list(Entry.objects.filter(tournament=target).values_list("pk", "player_id", "status")),
        list(Seat.objects.filter(tournament=target).values_list("entry_id", "table_id", "number")),
        (ticket.status, ticket.used_by_id, ticket.player_id, ticket.refund_reason),
        Event.objects.filter(tournament=target).count(),
    )


def test_ticket_registers_player_into_target_at_no_charge(pair, director):
    sat, target, ticket = pair
    assert [r.id for r in tickets_open_for(ticket.player_id)] == [ticket.pk]
    entry = svc.ticket_register(ticket_id=ticket.pk, actor=director)
    assert entry.tournament_id == target.pk and entry.player_id == ticket.player_id
    assert (entry.paid, entry.fee_paid) == (5000, 500)  # RULES 12.5: the ticket pays them
    assert Seat.objects.filter(entry=entry).exists()  # seated as the desk seats anyone
    ticket.refresh_from_db()
    assert (ticket.status, ticket.used_by_id) == ("used", entry.pk)
    ev = Event.objects.filter(tournament=target).latest("pk")
    assert ev.kind == "ticket_used" and ev.payload["ticket"] == ticket.pk
    assert tickets_open_for(ticket.player_id) == []
    rows = tickets_for_target(target.pk)
    assert [(r.id, r.status, r.used_by, r.label) for r in rows] == [
        (ticket.pk, "used", entry.pk, f"ticket from satellite #{sat.pk}")
    ]


def test_ticket_register_undo_and_redo_exact(pair, director):
    sat, target, ticket = pair
    before = _state(target, ticket)
    svc.ticket_register(ticket_id=ticket.pk, actor=director)
    after = _state(target, ticket)
    action_undo(tournament_id=target.pk, actor=director)
    now = _state(target, ticket)
    assert now[:3] == before[:3]
    action_redo(tournament_id=target.pk, actor=director)
    again = _state(target, ticket)
    assert again[2][0] == "used" and len(again[0]) == len(after[0]) == 1


@pytest.mark.parametrize("status", ["used", "refunded"])
def test_ticket_register_refused_when_not_issued(pair, director, status):
    sat, target, ticket = pair
    if status == "used":
        svc.ticket_register(ticket_id=ticket.pk, actor=director)
    else:
        svc.ticket_refund(ticket_id=ticket.pk, reason="went home", actor=director)
    before = _state(target, ticket)
    with pytest.raises(DomainError) as exc:
        svc.ticket_register(ticket_id=ticket.pk, actor=director)
    assert exc.value.code == {"used": "ticket_used", "refunded": "ticket_refunded"}[status]
    assert _state(target, ticket) == before


def test_ticket_register_refused_when_value_short(pair, director):
    sat, target, ticket = pair
    Ticket.objects.filter(pk=ticket.pk).update(value=5000)
    before = _state(target, ticket)
    with pytest.raises(DomainError) as exc:
        svc.ticket_register(ticket_id=ticket.pk, actor=director)
    assert exc.value.code == "ticket_value_short"
    assert exc.value.fields["difference"] == 500
    assert "500 short" in exc.value.message
    assert _state(target, ticket) == before


def test_ticket_register_refused_when_player_in_play_or_closed(pair, director):
    sat, target, ticket = pair
    services.entry_register(tournament_id=target.pk, player_id=ticket.player_id, actor=director)
    before = _state(target, ticket)
    with pytest.raises(DomainError) as exc:
        svc.ticket_register(ticket_id=ticket.pk, actor=director)
    assert exc.value.code == "player_in_play"
    assert _state(target, ticket) == before
    Tournament.objects.filter(pk=target.pk).update(registration_open=False)
    Entry.objects.filter(tournament=target).update(status=Entry.Status.BUSTED)
    with pytest.raises(DomainError) as exc:
        svc.ticket_register(ticket_id=ticket.pk, actor=director)
    assert exc.value.code == "registration_closed"


def test_ticket_unknown_is_404(director):
    for bad in (0, 999999, 2**70):
        with pytest.raises(DomainError) as exc:
            svc.ticket_register(ticket_id=bad, actor=director)
        assert exc.value.code == "ticket_not_found" and exc.value.status == 404


def test_refund_needs_reason_and_is_undoable(pair, director):
    sat, target, ticket = pair
    for bad in ("", "   ", "x" * 501):
        with pytest.raises(DomainError) as exc:
            svc.ticket_refund(ticket_id=ticket.pk, reason=bad, actor=director)
        assert exc.value.code == "bad_input"
    svc.ticket_refund(ticket_id=ticket.pk, reason="Cannot play Sunday", actor=director)
    ticket.refresh_from_db()
    assert (ticket.status, ticket.refund_reason, ticket.refunded_by_id) == (
        "refunded",
        "Cannot play Sunday",
        director.pk,
    )
    ev = Event.objects.filter(tournament=sat).latest("pk")
    assert ev.kind == "ticket_refunded" and ev.payload["reason"] == "Cannot play Sunday"
    with pytest.raises(DomainError) as exc:
        svc.ticket_refund(ticket_id=ticket.pk, reason="again", actor=director)
    assert exc.value.code == "ticket_not_issued"
    action_undo(tournament_id=sat.pk, actor=director)
    ticket.refresh_from_db()
    assert (ticket.status, ticket.refund_reason, ticket.refunded_by_id, ticket.refunded_at) == (
        "issued",
        "",
        None,
        None,
    )
    action_redo(tournament_id=sat.pk, actor=director)
    ticket.refresh_from_db()
    assert ticket.status == "refunded"


def test_transfer_refused_unless_transferable(pair, director):
    sat, target, ticket = pair
    other = Player.objects.create(name="Bo Other")
    with pytest.raises(DomainError) as exc:
        svc.ticket_transfer(ticket_id=ticket.pk, player_id=other.pk, actor=director)
    assert exc.value.code == "ticket_not_transferable"
    ticket.refresh_from_db()
    assert ticket.player_id != other.pk
    Tournament.objects.filter(pk=sat.pk).update(tickets_transferable=True)
    owner = ticket.player_id
    svc.ticket_transfer(ticket_id=ticket.pk, player_id=other.pk, actor=director)
    ticket.refresh_from_db()
    assert ticket.player_id == other.pk
    action_undo(tournament_id=sat.pk, actor=director)
    ticket.refresh_from_db()
    assert ticket.player_id == owner


def test_desk_totals_count_ticket_entries_apart_from_cash(pair, director):
    from tourney.selectors.desk import desk_totals

    sat, target, ticket = pair
    services.entry_register(tournament_id=target.pk, name="Cash Payer", actor=director)
    svc.ticket_register(ticket_id=ticket.pk, actor=director)
    total = desk_totals(target)["total"]
    # RULES 12.5: two entries, one paid in cash (5,500), one by the ticket
    assert (total["entries"], total["money"], total["tickets"], total["ticket_money"]) == (
        2,
        5500,
        1,
        5500,
    )


def test_the_desks_quick_undo_gives_the_ticket_back(pair, director):
    from tourney.services.desk import entry_registration_undo

    sat, target, ticket = pair
    entry = svc.ticket_register(ticket_id=ticket.pk, actor=director)
    entry_registration_undo(tournament_id=target.pk, entry_id=entry.pk, actor=director)
    ticket.refresh_from_db()
    assert (ticket.status, ticket.used_by_id) == ("issued", None)
    assert not Entry.objects.filter(pk=entry.pk).exists()
