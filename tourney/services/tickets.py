"""Satellite tickets' writes (RULES 12.5-12.7): a ticket registers its player into the target
at no charge, a director refunds one to cash with a reason, a transferable one changes hands.
Each is one action with its Event and undo journal: registering is the target's action (its
desk), refunding and handing over are the satellite's. Tickets are issued by the satellite's
eliminations and its deal (tourney/services/satellites.py)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from tourney.core.events import record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.engine.errors import DomainError
from tourney.models import Entry, Player
from tourney.room_models import Ticket
from tourney.selectors.tickets import target_price
from tourney.services.entries import entry_reenter, entry_register

MSG_TICKET_NOT_FOUND = N_("No such ticket.")
MSG_TICKET_USED = N_("This ticket was already used: it registered entry #%(number)s in %(target)s.")
MSG_TICKET_REFUNDED = N_("This ticket was refunded to cash; it registers nobody.")
MSG_TICKET_SHORT = N_(
    "This ticket is worth %(value)s, less than a buy-in of %(target)s now (%(price)s): "
    "%(difference)s short. Take the difference at the desk as a normal registration."
)
MSG_PLAYER_IN_PLAY = N_("This player already has an entry in play.")
MSG_REASON_REQUIRED = N_("Say why the ticket is refunded.")
MSG_REASON_TOO_LONG = N_("The reason is too long (500 characters at most).")
MSG_REFUND_NOT_ISSUED = N_("Only a ticket not yet used can be refunded; this one is %(status)s.")
MSG_NOT_TRANSFERABLE = N_(
    "Tickets of this satellite are not transferable: only %(name)s can use this one."
)
MSG_TRANSFER_NOT_ISSUED = N_(
    "Only a ticket not yet used can be handed over; this one is %(status)s."
)
MSG_TRANSFER_SAME = N_("The ticket already belongs to this player.")
MSG_NO_PLAYER = N_("No such player.")
REASON_MAX = 500
MAX_ID = 2**63


def _ticket(ticket_id: int, *, lock: bool = False) -> Ticket:
    qs = Ticket.objects.select_related("player", "target", "satellite", "used_by")
    if lock:
        qs = qs.select_for_update(of=("self",))
    found = qs.filter(pk=ticket_id).first() if 0 < ticket_id < MAX_ID else None
    if found is None:
        raise DomainError(
            "ticket_not_found", MSG_TICKET_NOT_FOUND, status=404, fields={"ticket": ticket_id}
        )
    return found


def _refuse_unless_issued(ticket: Ticket) -> None:
    if ticket.status == Ticket.Status.USED:
        raise DomainError(
            "ticket_used",
            MSG_TICKET_USED,
            params=dict(
                number=ticket.used_by.number if ticket.used_by else "?", target=ticket.target.name
            ),
            status=409,
            fields={"ticket": ticket.pk, "entry": ticket.used_by_id},
        )
    if ticket.status == Ticket.Status.REFUNDED:
        raise DomainError(
            "ticket_refunded", MSG_TICKET_REFUNDED, status=409, fields={"ticket": ticket.pk}
        )


def _note(ticket: Ticket) -> None:
    if j := journal_current():
        j.note_tickets([ticket])


def ticket_register(*, ticket_id: int, actor=None, tournament_id: int | None = None) -> Entry:
    """Register the ticket's player into its target at no charge (RULES 12.5): seated as the
    desk seats anyone (``entry_register``, or ``entry_reenter`` for a player whose entries
    there are all out: the target's late registration and re-entry rules hold); the entry's
    paid parts are the target's usual ones (the ticket pays them); the ticket is used.
    ``tournament_id``: the target, if the caller names it (a redo, the desk of that event)."""
    ticket = _ticket(ticket_id)
    if tournament_id is not None and tournament_id != ticket.target_id:
        raise DomainError(
            "ticket_not_found", MSG_TICKET_NOT_FOUND, status=404, fields={"ticket": ticket_id}
        )
    call = {"service": "ticket_register", "kwargs": {"ticket_id": ticket_id}}
    with tournament_action(ticket.target_id, call=call) as t:
        ticket = _ticket(ticket_id, lock=True)  # under the target's lock: used once
        _refuse_unless_issued(ticket)
        price = target_price(t)
        if ticket.value < price:
            raise DomainError(
                "ticket_value_short",
                MSG_TICKET_SHORT,
                params=dict(
                    value=ticket.value,
                    target=t.name,
                    price=price,
                    difference=price - ticket.value,
                ),
                status=409,
                fields={"value": ticket.value, "price": price, "difference": price - ticket.value},
            )
        mine = list(
            Entry.objects.filter(tournament=t, player_id=ticket.player_id).order_by("-number")
        )
        live = [e for e in mine if e.status != Entry.Status.BUSTED]
        if live:  # as the desk's own registration (tourney/services/desk.py)
            raise DomainError(
                "player_in_play",
                MSG_PLAYER_IN_PLAY,
                status=409,
                fields={"entry": live[0].pk, "number": live[0].number},
            )
        if mine:
            entry = entry_reenter(tournament_id=t.pk, entry_id=mine[0].pk, actor=actor)
        else:
            entry = entry_register(tournament_id=t.pk, player_id=ticket.player_id, actor=actor)
        _note(ticket)
        Ticket.objects.filter(pk=ticket.pk).update(status=Ticket.Status.USED, used_by=entry)
        record_event(
            t,
            "ticket_used",
            {
                "ticket": ticket.pk,
                "entry": entry.pk,
                "number": entry.number,
                "player": ticket.player_id,
                "name": ticket.player.name,
                "satellite": ticket.satellite_id,
                "value": ticket.value,
            },
            actor,
        )
    return entry


def ticket_refund(*, ticket_id: int, reason: str, actor=None) -> Ticket:
    """A director refunds an unused ticket to cash (RULES 12.6): the reason is required and
    kept, with who refunded it and when. The satellite's action (its undo brings it back)."""
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("bad_input", MSG_REASON_REQUIRED, fields={"reason": MSG_REASON_REQUIRED})
    if len(reason) > REASON_MAX:
        raise DomainError("bad_input", MSG_REASON_TOO_LONG, fields={"reason": MSG_REASON_TOO_LONG})
    ticket = _ticket(ticket_id)
    call = {"service": "ticket_refund", "kwargs": {"ticket_id": ticket_id, "reason": reason}}
    with tournament_action(ticket.satellite_id, call=call) as t:
        ticket = _ticket(ticket_id, lock=True)
        if ticket.status != Ticket.Status.ISSUED:
            raise DomainError(
                "ticket_not_issued",
                MSG_REFUND_NOT_ISSUED,
                params=dict(status=ticket.get_status_display().lower()),
                status=409,
                fields={"ticket": ticket.pk, "status": ticket.status},
            )
        _note(ticket)
        by = actor if getattr(actor, "is_authenticated", False) else None
        ticket.status = Ticket.Status.REFUNDED
        ticket.refund_reason = reason
        ticket.refunded_by = by
        ticket.refunded_at = timezone.now()
        ticket.save(update_fields=["status", "refund_reason", "refunded_by", "refunded_at"])
        record_event(
            t,
            "ticket_refunded",
            {
                "ticket": ticket.pk,
                "player": ticket.player_id,
                "name": ticket.player.name,
                "value": ticket.value,
                "target": ticket.target_id,
                "reason": reason,
            },
            actor,
        )
    return ticket


def ticket_transfer(*, ticket_id: int, player_id: int, actor=None) -> Ticket:
    """Hand an unused ticket to another player (RULES 12.7): refused unless the satellite's
    tickets are transferable. The satellite's action."""
    ticket = _ticket(ticket_id)
    call = {
        "service": "ticket_transfer",
        "kwargs": {"ticket_id": ticket_id, "player_id": player_id},
    }
    with tournament_action(ticket.satellite_id, call=call) as t:
        ticket = _ticket(ticket_id, lock=True)
        if not t.tickets_transferable:
            raise DomainError(
                "ticket_not_transferable",
                MSG_NOT_TRANSFERABLE,
                params=dict(name=ticket.player.name),
                status=409,
                fields={"ticket": ticket.pk},
            )
        if ticket.status != Ticket.Status.ISSUED:
            raise DomainError(
                "ticket_not_issued",
                MSG_TRANSFER_NOT_ISSUED,
                params=dict(status=ticket.get_status_display().lower()),
                status=409,
                fields={"ticket": ticket.pk, "status": ticket.status},
            )
        to = Player.objects.filter(pk=player_id).first() if 0 < player_id < MAX_ID else None
        if to is None:
            raise DomainError("not_found", MSG_NO_PLAYER, status=404, fields={"player": player_id})
        while to.merged_into_id is not None:  # a merged record's tickets go to the kept one
            to = Player.objects.get(pk=to.merged_into_id)
        if to.pk == ticket.player_id:
            raise DomainError(
                "bad_input", MSG_TRANSFER_SAME, fields={"player_id": MSG_TRANSFER_SAME}
            )
        _note(ticket)
        Ticket.objects.filter(pk=ticket.pk).update(player=to)
        record_event(
            t,
            "ticket_transferred",
            {
                "ticket": ticket.pk,
                "from_player": ticket.player_id,
                "from_name": ticket.player.name,
                "player": to.pk,
                "name": to.name,
                "target": ticket.target_id,
            },
            actor,
        )
        ticket.player = to
    return ticket
