"""Satellites' writes (RULES 12): a tournament's satellite settings (its target, the seat value,
whether its tickets are transferable) and the satellite's deal, where the players left all
take seats. Tickets are issued where prizes are assigned (tourney/services/ticket_issue.py)
and used, refunded and handed over in tourney/services/tickets.py."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from tourney.core.events import record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.engine import satellites as engine
from tourney.engine.errors import DomainError
from tourney.models import Entry, Tournament
from tourney.room_models import Ticket
from tourney.selectors.money import remaining_entries
from tourney.selectors.satellites import (
    SATELLITE_FIELDS,
    satellite_check,
    satellite_locks,
    satellite_payout_of,
)
from tourney.services.eliminations import tournament_end
from tourney.services.entries import places_settle
from tourney.services.money import prizes_assign

MSG_NOT_SATELLITE = N_("This tournament is no satellite: it has no seats to give.")
MSG_FINISHED = N_("The satellite is finished.")
MSG_NO_CHANGE = N_("Nothing to change: the satellite settings are already these.")


def satellite_set(
    *,
    tournament_id: int,
    satellite_target: int | None,
    seat_value: int = 0,
    tickets_transferable: bool = False,
    actor=None,
) -> Tournament:
    """Make ``tournament_id`` a satellite of ``satellite_target`` (None: no satellite), with
    its seat value (0: the target's full price) and transferability (RULES 12.1, 12.7).
    Locked once a ticket is issued or the payouts froze. One action, undoable."""
    kwargs = {
        "satellite_target": satellite_target,
        "seat_value": seat_value,
        "tickets_transferable": tickets_transferable,
    }
    with tournament_action(tournament_id, call={"service": "satellite_set", "kwargs": kwargs}) as t:
        checked = satellite_check(
            t, target_id=satellite_target, seat_value=seat_value, transferable=tickets_transferable
        )
        before = {f: getattr(t, f) for f in SATELLITE_FIELDS}
        if checked == before:
            raise DomainError("no_change", MSG_NO_CHANGE, status=409)
        if why := satellite_locks(t):
            raise DomainError("settings_locked", why, status=409, fields={"satellite_target": why})
        if j := journal_current():
            j.note_tournament(SATELLITE_FIELDS)
        for f, v in checked.items():
            setattr(t, f, v)
        Tournament.objects.filter(pk=t.pk).update(**checked)
        t.satellite_target = (
            Tournament.objects.get(pk=t.satellite_target_id) if t.satellite_target_id else None
        )
        prizes_assign(t)  # RULES 12.2: the places already out follow the new table
        record_event(
            t,
            "satellite_set",
            {
                "before": _shown(before),
                "after": _shown(checked),
                "target_name": t.satellite_target.name if t.satellite_target else "",
            },
            actor,
        )
    return t


def _shown(fields: dict[str, Any]) -> dict[str, Any]:
    return {
        "satellite_target": fields["satellite_target_id"],
        "seat_value": fields["seat_value"],
        "tickets_transferable": fields["tickets_transferable"],
    }


def satellite_deal(*, tournament_id: int, actor=None) -> dict[str, Any]:
    """RULES 12.8: when the players left equal the seats left, they all take seats: each a
    seat place (places 1..k shared, as ties are stored), a prize of the seat's value and a
    ticket; the satellite finishes and its clock stops, as with the last elimination.
    Refused with the counts otherwise. One action, undoable."""
    with tournament_action(tournament_id, call={"service": "satellite_deal", "kwargs": {}}) as t:
        if t.status == Tournament.Status.FINISHED:
            raise DomainError("tournament_finished", MSG_FINISHED, status=409)
        payout = satellite_payout_of(t)
        if payout is None:
            raise DomainError("not_satellite", MSG_NOT_SATELLITE, status=409)
        remaining = remaining_entries(t)
        won = Ticket.objects.filter(satellite=t).count()
        k = engine.deal_check(players_left=len(remaining), seats=payout.seats, won=won)
        places_settle(t)  # RULES 7.1: the stored places are the real ones from here
        if j := journal_current():
            j.note_entry_rows(remaining)
        ids = [e.pk for e in remaining]
        Entry.objects.filter(pk__in=ids).update(place=1, place_to=k)
        t.status = Tournament.Status.FINISHED
        Tournament.objects.filter(pk=t.pk).update(status=t.status)
        tournament_end(t, now=timezone.now())
        prizes_assign(t)  # the seats' prizes and the tickets (RULES 12.4)
        tickets = list(
            Ticket.objects.filter(satellite=t, entry_id__in=ids)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        record_event(
            t,
            "satellite_deal",
            {
                "entries": ids,
                "names": [e.player.name for e in remaining],
                "seats": k,
                "value": payout.seat_value,
                "tickets": tickets,
            },
            actor,
        )
    return {"entries": ids, "seats": k, "value": payout.seat_value, "tickets": tickets}
