"""RULES 12.4: the tickets a satellite issues, in the action that gives the seat places (an
elimination, the last one, the satellite's deal): every entry whose places are all seat
places and that holds no ticket yet gets one. Called where prizes are assigned
(tourney/services/money.py), so a ticket follows a place as a prize does. Kept apart from
tourney/services/tickets.py, which registers entries (and so imports the money services)."""

from __future__ import annotations

from django.db.models import Count, Sum

from tourney.core.journal import current as journal_current
from tourney.models import Entry, Tournament
from tourney.room_models import Ticket
from tourney.selectors.money import event_field, pool_for_paid
from tourney.selectors.tickets import satellite_payout_for


def tickets_issue(t: Tournament) -> list[int]:
    """Issue the tickets the seat places call for and not yet issued; returns their ids (the
    action's journal notes them, so its undo takes them away)."""
    if t.satellite_target_id is None:
        return []
    agg = event_field(t) or Entry.objects.filter(tournament=t).aggregate(
        entries=Count("id"), paid=Sum("paid")
    )
    pool = pool_for_paid(t, agg["paid"] or 0)
    if t.frozen_prizes is not None:  # RULES 8.2: the seats as frozen
        pool = sum(t.frozen_prizes)
    payout = satellite_payout_for(t, entries=agg["entries"], pool=pool)
    if payout is None:
        return []
    seats, value = payout.seats, payout.seat_value
    if not seats:
        return []
    lag = t.place_lag  # stored places are the places less this (RULES 7.1)
    winners = list(
        Entry.objects.filter(
            tournament=t, place__isnull=False, place_to__lte=seats - lag, ticket_won__isnull=True
        )
        .order_by("place", "number")
        .values_list("pk", "player_id")
    )
    if not winners:
        return []
    made = [
        Ticket.objects.create(
            satellite=t,
            target_id=t.satellite_target_id,
            entry_id=pk,
            player_id=player,
            value=value,
        ).pk
        for pk, player in winners
    ]
    if j := journal_current():
        j.note_created("ticket", made)
    return made
