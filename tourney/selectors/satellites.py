"""Satellites as the screens, the API and the writes read them (RULES 12): the settings checked
(the target, the seat value), what locks them, the targets a director may choose, and the
satellite's summary (seats, cash, seats won and left, whether the deal may be made). Reads
only; the writes are tourney/services/satellites.py and tourney/services/tickets.py."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Sum

from tourney.engine import satellites as engine
from tourney.engine.errors import DomainError
from tourney.models import Entry, Tournament
from tourney.room_models import Ticket
from tourney.selectors.money import event_field, pool_for_paid
from tourney.selectors.tickets import (
    satellite_payout_for,
    target_price,
    tickets_for_target,
    tickets_of_satellite,
)

MSG_TARGET_MISSING = "No such tournament to be the satellite's target."
MSG_TARGET_SELF = "A satellite cannot give seats in itself: choose another event."
MSG_TARGET_FINISHED = "That event is finished: a satellite cannot give seats in it."
MSG_TARGET_CYCLE = (
    "That event is a satellite of this one (directly or through others): seats cannot go "
    "round in a circle."
)
MSG_TARGET_FREE = "That event costs nothing to enter: give the seat value (what one seat is worth)."
MSG_NOT_SATELLITE = "A seat value or transferable tickets need a target: choose 'Satellite for'."
MSG_LOCKED = "Locked: {n} ticket(s) already issued (undo them first to change this)."
MSG_FROZEN = (
    "Locked: the payouts are frozen (registration closed). Set a satellite's target before "
    "registration closes."
)
MAX_ID = 2**63
SATELLITE_FIELDS = ("satellite_target_id", "seat_value", "tickets_transferable")


def satellite_check(
    t: Tournament | None, *, target_id: int | None, seat_value: int, transferable: bool
) -> dict[str, Any]:
    """RULES 12.1: the satellite settings of ``t`` (None: a tournament being created), checked;
    returns them as the row keeps them. Refused (``bad_satellite``, the field named)."""
    if target_id is None:
        if seat_value or transferable:
            raise _refuse(MSG_NOT_SATELLITE, "satellite_target")
        return {"satellite_target_id": None, "seat_value": 0, "tickets_transferable": False}
    target = Tournament.objects.filter(pk=target_id).first() if 0 < target_id < MAX_ID else None
    if target is None:
        raise _refuse(MSG_TARGET_MISSING, "satellite_target", status=404)
    if t is not None and target.pk == t.pk:
        raise _refuse(MSG_TARGET_SELF, "satellite_target")
    if target.status == Tournament.Status.FINISHED:
        raise _refuse(MSG_TARGET_FINISHED, "satellite_target")
    if t is not None and _feeds(t.pk, target):
        raise _refuse(MSG_TARGET_CYCLE, "satellite_target")
    if type(seat_value) is not int or seat_value < 0:
        raise _refuse(engine.MSG_BAD_SEAT_VALUE, "seat_value", status=400)
    if not seat_value and target_price(target) < 1:
        raise _refuse(MSG_TARGET_FREE, "seat_value")
    return {
        "satellite_target_id": target.pk,
        "seat_value": seat_value,
        "tickets_transferable": bool(transferable),
    }


def _refuse(msg: str, field: str, status: int = 409) -> DomainError:
    return DomainError("bad_satellite", msg, status=status, fields={field: msg})


def _feeds(satellite_id: int, target: Tournament) -> bool:
    """Whether ``target`` is, at any depth, a satellite of ``satellite_id`` (RULES 12.1)."""
    seen: set[int] = set()
    at: int | None = target.satellite_target_id
    while at is not None and at not in seen:
        if at == satellite_id:
            return True
        seen.add(at)
        at = Tournament.objects.filter(pk=at).values_list("satellite_target_id", flat=True).first()
    return False


def satellite_options(options: dict[str, Any]) -> dict[str, Any]:
    """A new tournament's options with its satellite settings checked (RULES 12.1): the
    ``satellite_target`` key (an id) becomes the row's ``satellite_target_id``."""
    options = dict(options)
    target = options.pop("satellite_target", None)
    if target is None and "satellite_target_id" in options:
        target = options.pop("satellite_target_id")
    checked = satellite_check(
        None,
        target_id=target,
        seat_value=options.pop("seat_value", 0) or 0,
        transferable=bool(options.pop("tickets_transferable", False)),
    )
    if checked["satellite_target_id"] is None:
        return options
    return {**options, **checked}


def satellite_locks(t: Tournament) -> str:
    """Why the satellite settings cannot change now ("" if they can): a ticket issued
    (RULES 12.1) or the payouts frozen."""
    n = Ticket.objects.filter(satellite=t).count()
    if n:
        return MSG_LOCKED.format(n=n)
    if t.frozen_prizes is not None and t.satellite_target_id is not None:
        return MSG_FROZEN
    return ""


def target_choices(t: Tournament | None = None) -> list[tuple[int, str]]:
    """The events a satellite may give seats in: not finished, not ``t`` itself (the cycle
    is checked when saved)."""
    qs = Tournament.objects.exclude(status=Tournament.Status.FINISHED)
    if t is not None:
        qs = qs.exclude(pk=t.pk)
    return [(pk, name) for pk, name in qs.order_by("-created_at", "-pk").values_list("pk", "name")]


def satellite_payout_of(t: Tournament) -> engine.SatellitePayout | None:
    """RULES 12.2: the satellite's seats and cash now (as frozen, once frozen)."""
    if t.satellite_target_id is None:
        return None
    agg = event_field(t) or Entry.objects.filter(tournament=t).aggregate(
        entries=Count("id"), paid=Sum("paid")
    )
    pool = pool_for_paid(t, agg["paid"] or 0)
    if t.frozen_prizes is not None:
        pool = sum(t.frozen_prizes)
    return satellite_payout_for(t, entries=agg["entries"], pool=pool)


def players_left(t: Tournament) -> int:
    return (
        Entry.objects.filter(tournament=t, place__isnull=True)
        .exclude(status=Entry.Status.BUSTED)
        .count()
    )


def satellite_summary(t: Tournament) -> dict[str, Any] | None:
    """What the dashboard shows of a satellite (RULES 12.2, 12.4, 12.8); None for any other
    tournament."""
    payout = satellite_payout_of(t)
    if payout is None:
        return None
    tickets = tickets_of_satellite(t.pk)
    won = len(tickets)
    left = engine.seats_left(seats=payout.seats, won=won)
    players = players_left(t)
    running = t.status != Tournament.Status.FINISHED
    return {
        "target": t.satellite_target,
        "seat_value": payout.seat_value,
        "seat_value_set": bool(t.seat_value),
        "seats": payout.seats,
        "cash": payout.cash,
        "cash_place": payout.cash_place,
        "seats_won": won,
        "seats_left": left,
        "players_left": players,
        "deal_possible": running and players >= 1 and players == left,
        "tickets": tickets,
        "transferable": t.tickets_transferable,
        "locked": satellite_locks(t),
    }


def target_summary(t: Tournament) -> dict[str, Any] | None:
    """What the target's dashboard shows: the tickets issued into it (RULES 12.5), used and
    not yet, and its satellites. None when it has neither."""
    satellites = list(t.satellites.order_by("pk").values_list("pk", "name"))  # one read if none
    if not satellites:  # a ticket's satellite keeps its target once it issued one (12.1)
        return None
    tickets = tickets_for_target(t.pk)
    return {
        "tickets": tickets,
        "satellites": satellites,
        "used": sum(1 for r in tickets if r.status == Ticket.Status.USED),
        "issued": sum(1 for r in tickets if r.status == Ticket.Status.ISSUED),
        "refunded": sum(1 for r in tickets if r.status == Ticket.Status.REFUNDED),
        "price": target_price(t),
    }


def seat_places(t: Tournament) -> int:
    """How many places are seats (0 for a tournament that is no satellite)."""
    payout = satellite_payout_of(t)
    return payout.seats if payout else 0


def seats_of(t: Tournament) -> tuple[int, int]:
    """(seat places, seat value) for the screens; (0, 0) for a tournament that is no
    satellite."""
    payout = satellite_payout_of(t)
    return (payout.seats, payout.seat_value) if payout else (0, 0)


def prize_words(amount: int, place_to: int, seats: tuple[int, int], fmt) -> str:
    """A prize as the screens say it (RULES 12.2): a seat place's is "Seat (5,500)" (and the
    leftover cash riding with it, if any), any other the amount (``fmt``: the money format)."""
    count, value = seats
    if count and place_to <= count and amount >= value:
        extra = amount - value
        return f"Seat ({fmt(value)})" + (f" + {fmt(extra)}" if extra else "")
    return fmt(amount)
