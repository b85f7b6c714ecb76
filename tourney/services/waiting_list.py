"""The waiting list across events (issue 28): the registration desk of one event puts a
player on the alternate list of another event that is full (RULES 1.3).

Readings:

* The waiting list is for events that are full (``selectors.desk_events``: someone already
  waits, or no seat is left and *Open tables when full* is off). An event with seats is
  refused (``seats_open``): the player registers at that event's desk and gets a seat.
* Joining the list is a registration of that event, bought in like any (the desk takes the
  price): ``services.desk.desk_register`` (a known player whose entries there are all out
  re-enters, RULES 1.3), whose seat draw finds no seat and makes the entry an alternate
  (``tables.services.seating.seat_entry``). No override: after registration closed the
  director registers at the event's own desk.
* Refusals, in this order, nothing written: the event is over (``tournament_finished``),
  registration closed (``registration_closed``), the player already has an entry in play
  there (``player_in_play``, with ``place`` when they already wait), seats open
  (``seats_open``); then those of the registration itself (``no_reentries_left`` …).
* Undone like any registration at the desk: the clerk's own last one there within the
  minute (``services.desk.entry_registration_undo``), or the director's undo."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_noop as N_

from tourney.core.locking import lock_tournament
from tourney.engine.errors import DomainError
from tourney.models import Entry
from tourney.selectors.desk import offers
from tourney.selectors.desk_events import alternate_place, waiting_list_state
from tourney.services.desk import MAX_ID, MSG_PLAYER_IN_PLAY, desk_register
from tourney.services.entries import MSG_REGISTER_FINISHED, MSG_REGISTRATION_CLOSED

MSG_SEATS_OPEN = N_(
    "%(event)s has open seats: the waiting list is for full events. "
    "Register the player at its desk."
)
MSG_ALREADY_WAITING = N_("This player is already on the waiting list of %(event)s, no. %(place)s.")


def waiting_list_join(
    *,
    tournament_id: int,
    player_id: int | None = None,
    name: str = "",
    actor=None,
) -> tuple[Entry, int]:
    """Put a known player (``player_id``) or a new one (``name``) on the alternate list of the
    full event ``tournament_id`` (the module's readings). Returns the alternate entry and its
    place in the list (1: seated first)."""
    if player_id is not None and not 0 < player_id < MAX_ID:
        raise DomainError("not_found", N_("No such player."), status=404)
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        _refusal(t, player_id)
        entry, _kind = desk_register(
            tournament_id=t.pk, name=name, player_id=player_id, actor=actor
        )
        place = alternate_place(entry)
        if place is None:  # the lock holds: cannot happen unless the seating rules change
            raise DomainError("seats_open", MSG_SEATS_OPEN, params=dict(event=t.name), status=409)
    return entry, place


def _refusal(t, player_id: int | None) -> None:
    can = offers(t)
    if can["finished"]:
        raise DomainError("tournament_finished", MSG_REGISTER_FINISHED, status=409)
    if not can["registration"]:
        raise DomainError("registration_closed", MSG_REGISTRATION_CLOSED, status=409)
    if player_id is not None:
        live = (
            Entry.objects.filter(tournament=t, player_id=player_id)
            .exclude(status=Entry.Status.BUSTED)
            .order_by("-number")
            .first()
        )
        if live is not None:
            place = alternate_place(live)
            raise DomainError(
                "player_in_play",
                MSG_ALREADY_WAITING if place else MSG_PLAYER_IN_PLAY,
                params={"event": t.name, "place": place} if place else None,
                status=409,
                fields={"entry": live.pk, "number": live.number, "place": place},
            )
    state = waiting_list_state(t)
    if not state["full"]:
        raise DomainError(
            "seats_open",
            MSG_SEATS_OPEN,
            params=dict(event=t.name),
            status=409,
            fields={"seats_left": state["seats_left"], "new_tables": state["new_tables"]},
        )
