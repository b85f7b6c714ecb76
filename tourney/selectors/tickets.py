"""Satellite tickets as the desk, the dashboards and the API read them (RULES 12): the tickets a
player holds and may use, the tickets into a target event, the tickets a satellite awarded,
and the value of a seat. Reads only; the writes are in tourney/services/tickets.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tourney.engine.satellites import SatellitePayout, satellite_payout
from tourney.models import Tournament
from tourney.room_models import Ticket
from tourney.selectors.bounties import buy_in_split

STATUS_WORDS = {"issued": "Not used yet", "used": "Used", "refunded": "Refunded"}


@dataclass(frozen=True)
class TicketRow:
    """One ticket, shaped for the screens and the API. ``label``: what the desk shows
    ("ticket from satellite #12": the satellite's id)."""

    id: int
    satellite_id: int
    satellite_name: str
    target_id: int
    target_name: str
    entry_id: int  # the satellite entry that won it
    player_id: int
    player_name: str
    value: int
    status: str
    used_by: int | None  # the target's entry it registered
    used_by_number: int | None
    refund_reason: str
    refunded_by: str
    refunded_at: Any
    transferable: bool

    @property
    def label(self) -> str:
        return f"ticket from satellite #{self.satellite_id}"

    @property
    def status_text(self) -> str:
        return STATUS_WORDS.get(self.status, self.status)

    @property
    def issued(self) -> bool:
        return self.status == Ticket.Status.ISSUED

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "satellite": self.satellite_id,
            "satellite_name": self.satellite_name,
            "target": self.target_id,
            "target_name": self.target_name,
            "entry": self.entry_id,
            "player": self.player_id,
            "player_name": self.player_name,
            "value": self.value,
            "status": self.status,
            "used_by": self.used_by,
            "used_by_number": self.used_by_number,
            "refund_reason": self.refund_reason,
            "refunded_at": self.refunded_at.isoformat() if self.refunded_at else None,
            "transferable": self.transferable,
            "label": self.label,
        }


def _rows(qs) -> list[TicketRow]:
    qs = qs.select_related("satellite", "target", "player", "used_by", "refunded_by")
    return [
        TicketRow(
            id=t.pk,
            satellite_id=t.satellite_id,
            satellite_name=t.satellite.name,
            target_id=t.target_id,
            target_name=t.target.name,
            entry_id=t.entry_id,
            player_id=t.player_id,
            player_name=t.player.name,
            value=t.value,
            status=t.status,
            used_by=t.used_by_id,
            used_by_number=t.used_by.number if t.used_by else None,
            refund_reason=t.refund_reason,
            refunded_by=t.refunded_by.get_username() if t.refunded_by else "",
            refunded_at=t.refunded_at,
            transferable=t.satellite.tickets_transferable,
        )
        for t in qs.order_by("id")
    ]


def tickets_open_for(player_id: int) -> list[TicketRow]:
    """The tickets ``player_id`` holds and may still use (RULES 12.5): issued, into an event
    not finished. The desk offers them when the player registers."""
    if not 0 < player_id < 2**63:
        return []
    return _rows(
        Ticket.objects.filter(player_id=player_id, status=Ticket.Status.ISSUED).exclude(
            target__status=Tournament.Status.FINISHED
        )
    )


def tickets_for_target(target_id: int) -> list[TicketRow]:
    """Every ticket into ``target_id`` (issued, used or refunded), oldest first."""
    if not 0 < target_id < 2**63:
        return []
    return _rows(Ticket.objects.filter(target_id=target_id))


def tickets_of_satellite(satellite_id: int) -> list[TicketRow]:
    """Every ticket ``satellite_id`` awarded, oldest first (RULES 12.3)."""
    if not 0 < satellite_id < 2**63:
        return []
    return _rows(Ticket.objects.filter(satellite_id=satellite_id))


def ticket_row(ticket_id: int) -> TicketRow | None:
    if not 0 < ticket_id < 2**63:
        return None
    found = _rows(Ticket.objects.filter(pk=ticket_id))
    return found[0] if found else None


def target_price(target: Tournament) -> int:
    """What one buy-in of the target costs at the desk (RULES 12.1): prize pool, bounty, fee."""
    return buy_in_split(target).price


def seat_value_of(satellite: Tournament) -> int:
    """The value of one seat (RULES 12.1): the satellite's own, else the target's full price;
    0 for a tournament that is no satellite."""
    if satellite.satellite_target_id is None:
        return 0
    if satellite.seat_value:
        return satellite.seat_value
    return target_price(satellite.satellite_target)


def satellite_payout_for(t: Tournament, *, entries: int, pool: int) -> SatellitePayout | None:
    """RULES 12.2: the satellite's seats and leftover cash for ``entries`` and ``pool``; None
    for a tournament that is no satellite (or whose seat is worth nothing)."""
    value = seat_value_of(t)
    if value < 1:
        return None
    return satellite_payout(pool=pool, seat_value=value, entries=entries)


def ticket_entry_ids(target_id: int) -> set[int]:
    """The target's entries registered with a ticket (the desk's cash figures leave them out,
    RULES 12.5)."""
    return set(
        Ticket.objects.filter(target_id=target_id, used_by__isnull=False).values_list(
            "used_by_id", flat=True
        )
    )
