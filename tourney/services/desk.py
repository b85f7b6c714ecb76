"""The registration desk's own writes: register-or-re-enter, and the undo of the clerk's last
registration. The reads its screen shows (type-ahead over known players, the seat card,
alternates, today's totals by clerk) are ``tourney.selectors.desk``.

Registration, re-entry, rebuy and add-on rules stay in ``tourney.services`` and
``tourney.services.money``; this module only chooses which of them a desk action means."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from tables.models import Move, Seat, Table
from tables.selectors import alternates_waiting
from tables.services import seat_alternates
from tourney.core.events import event_payload_set, record_event
from tourney.core.locking import lock_tournament, tournament_action
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Player, Tournament
from tourney.room_models import Ticket
from tourney.selectors.desk import UNDO_SECONDS
from tourney.services import money
from tourney.services.entries import entry_reenter, entry_register, place_lag_step

MAX_ID = 2**63  # ids are 64-bit: a larger one names no row (and overflows SQLite's driver)

MSG_PLAYER_IN_PLAY = N_("This player already has an entry in play.")
MSG_ENTRY_NOT_FOUND = N_("No such entry in this tournament.")
MSG_UNDO_NOT_YOURS = N_("Only the clerk who registered an entry can undo it.")
MSG_UNDO_NOT_LAST = N_("Only your last registration can be undone.")
MSG_UNDO_TOO_LATE = N_("Too late to undo: a registration can be undone within a minute.")
MSG_UNDO_DEPENDS = N_(
    "Cannot undo: something has happened to this entry since (a move, a bust, a rebuy or an "
    "add-on). Ask the director."
)
MSG_FINISHED = N_("The tournament is finished.")


# ---------------------------------------------------------------- writes


def desk_register(
    *,
    tournament_id: int,
    name: str = "",
    player_id: int | None = None,
    actor=None,
    override: bool = False,
) -> tuple[Entry, str]:
    """What Enter at the desk means: a known player whose entries here are all out re-enters
    (``services.entry_reenter``); a known player still in is refused; anyone else is registered
    (``services.entry_register``, RULES 1.3). ``override``: the director's, after registration
    closed, for either. Returns the entry and "registered" or "reentered"."""
    with transaction.atomic():
        # Locked first, so two desks choosing for the same player are serialised.
        t = lock_tournament(tournament_id)
        if player_id is not None and not 0 < player_id < MAX_ID:
            raise DomainError("not_found", N_("No such player."), status=404)
        if player_id is not None:
            mine = list(Entry.objects.filter(tournament=t, player_id=player_id).order_by("-number"))
            live = [e for e in mine if e.status != Entry.Status.BUSTED]
            if live:
                raise DomainError(
                    "player_in_play",
                    MSG_PLAYER_IN_PLAY,
                    status=409,
                    fields={"entry": live[0].pk, "number": live[0].number},
                )
            if mine:
                entry = entry_reenter(
                    tournament_id=t.pk, entry_id=mine[0].pk, actor=actor, override=override
                )
                return entry, "reentered"
        entry = entry_register(
            tournament_id=t.pk, name=name, player_id=player_id, actor=actor, override=override
        )
        return entry, "registered"


def _undo_refusal(t: Tournament, e: Entry, actor, now: datetime) -> DomainError | None:
    if actor is None or not getattr(actor, "is_authenticated", False):
        return DomainError("undo_not_yours", MSG_UNDO_NOT_YOURS, status=403)
    if e.created_by_id != actor.pk:
        return DomainError("undo_not_yours", MSG_UNDO_NOT_YOURS, status=403)
    last = (
        Entry.objects.filter(tournament=t, created_by=actor)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)
        .first()
    )
    if last != e.pk:
        return DomainError("undo_not_last", MSG_UNDO_NOT_LAST, status=409)
    if now - e.created_at > timedelta(seconds=UNDO_SECONDS):
        return DomainError("undo_too_late", MSG_UNDO_TOO_LATE, status=409)
    return None


def entry_registration_undo(
    *, tournament_id: int, entry_id: int, actor, now: datetime | None = None
) -> dict[str, Any]:
    """Undo the clerk's own last registration within a minute, if nothing depends on it: the
    entry, its seat and its seating Move go, as does a player created by it; the registration
    events are marked undone and an ``entry_registration_undone`` Event records what was
    removed."""
    now = now or timezone.now()
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if t.status == Tournament.Status.FINISHED:
            raise DomainError("tournament_finished", MSG_FINISHED, status=409)
        e = Entry.objects.filter(tournament=t, pk=entry_id).select_related("player").first()
        if e is None:
            raise DomainError(
                "entry_not_found", MSG_ENTRY_NOT_FOUND, status=404, fields={"entry": entry_id}
            )
        refusal = _undo_refusal(t, e, actor, now)
        if refusal is not None:
            raise refusal
        registered, reentered, moves = _registration_undoable(t, e)
        seat = Seat.objects.filter(entry=e).select_related("table").first()
        payload: dict[str, Any] = {
            "entry": e.pk,
            "number": e.number,
            "player": e.player_id,
            "name": e.player.name,
            "status": e.status,
            "paid": e.paid,
            "fee_paid": e.fee_paid,
            "chips": e.chips_bought,
            "table": seat.table.number if seat else None,
            "seat": seat.number if seat else None,
            "waits_for_button": seat.waits_for_button if seat else False,
            "moves": [m.pk for m in moves],
            "events": [registered.pk, *reentered],
            "player_removed": False,
        }
        # RULES 12.5: the ticket it was registered with is the player's again, unused
        payload["ticket"] = Ticket.objects.filter(used_by=e).values_list("pk", flat=True).first()
        if payload["ticket"] is not None:
            Ticket.objects.filter(pk=payload["ticket"]).update(
                status=Ticket.Status.ISSUED, used_by=None
            )
        payload.update(_registration_removed(t, e, moves, payload["events"]))
        Event.objects.filter(pk__in=payload["events"]).update(undone=True)
        record_event(t, "entry_registration_undone", payload, actor)
        money.prizes_assign(t)
        payload["alternates_seated"] = (
            _alternates_take_freed_seat(t.pk, payload["entry"], actor)
            if seat is not None and alternates_waiting(t)
            else []
        )
    return payload


OWN_KINDS = ("entry_reentered", "ticket_used")


def _registration_undoable(t: Tournament, e: Entry) -> tuple[Event, list[int], list[Move]]:
    """The entry's registration event, its re-entry events and its seating moves; refused
    (``undo_depends``) when something has happened to the entry since."""
    registered = (
        Event.objects.filter(
            tournament=t, kind="entry_registered", payload__entry=e.pk, undone=False
        )
        .order_by("pk")
        .first()
    )
    moves = list(Move.objects.filter(entry=e).order_by("pk"))
    later = Event.objects.filter(
        tournament=t, pk__gt=registered.pk if registered else 0, payload__entry=e.pk
    ).exclude(kind__in=OWN_KINDS)
    # its re-entry, and the satellite's ticket it was registered with (RULES 12.5), are the
    # registration's own events
    reentered = list(
        Event.objects.filter(
            tournament=t, kind__in=OWN_KINDS, payload__entry=e.pk, undone=False
        ).values_list("pk", flat=True)
    )
    own = [registered.pk, *reentered] if registered else []
    if (
        registered is None
        or e.status == Entry.Status.BUSTED
        or e.place is not None
        or e.rebuys
        or e.addons
        or e.deal_amount is not None
        or any(m.event_id != registered.pk for m in moves)
        or later.exists()
        # RULES 3.3: the table it opened was filled by moving other players; taking the
        # entry away alone would leave the tables outside the balance tolerance.
        or Move.objects.filter(event_id__in=own).exclude(entry=e).exists()
        # A later action changed the entry's row or seat (an alternate seated since,
        # which is no Move row: RULES 3.8); its journal names the entry.
        or _touched_since(t, e, after=registered.pk, own=own)
    ):
        raise DomainError("undo_depends", MSG_UNDO_DEPENDS, status=409, fields={"entry": e.pk})
    return registered, reentered, moves


def _registration_removed(
    t: Tournament, e: Entry, moves: list[Move], events: list[int]
) -> dict[str, Any]:
    """Take the entry, its seat and moves away (and the player it created, the tables it
    opened, the places it moved down); says what went: ``player_removed``,
    ``tables_removed``, ``places_shifted``."""
    journal = next(
        (
            ev.payload["undo"]
            for ev in Event.objects.filter(pk__in=events).order_by("pk")
            if "undo" in (ev.payload or {})
        ),
        {},
    )
    created = journal.get("created") or {}
    Move.objects.filter(pk__in=[m.pk for m in moves]).delete()
    Seat.objects.filter(entry=e).delete()
    player_id = e.player_id
    e.delete()
    removed: dict[str, Any] = {"player_removed": False}
    # A player the registration created (a typo, usually) goes too, so the type-ahead
    # does not offer it again.
    if not Entry.objects.filter(player_id=player_id).exists():
        Player.objects.filter(pk=player_id).delete()
        removed["player_removed"] = True
    removed["tables_removed"] = _undo_table_changes(t, journal, created)
    # RULES 7.1: places count from the bottom of the whole field; one entry fewer moves
    # every player already out one place up (as the registration moved them down).
    removed["places_shifted"] = Entry.objects.filter(
        tournament=t, status=Entry.Status.BUSTED, place__isnull=False
    ).count()
    if removed["places_shifted"]:
        place_lag_step(t, -1)
    return removed


def _touched_since(t: Tournament, e: Entry, *, after: int, own: list[int]) -> bool:
    """Has an action since the registration (not undone) journaled this entry's row or seat?"""
    key = str(e.pk)
    return (
        Event.objects.filter(tournament=t, pk__gt=after, undone=False)
        .exclude(pk__in=own)
        .filter(Q(payload__undo__entries__has_key=key) | Q(payload__undo__seats__has_key=key))
        .exists()
    )


def _alternates_take_freed_seat(tournament_id: int, undone_entry: int, actor) -> list[int]:
    """The seat the undone registration held goes to the first alternate (RULES 1.3), as an
    action of its own with its journal, so the director can undo it like any other."""
    with tournament_action(tournament_id) as t:
        # The event first: the alternates' seat moves (to announce) point at it, and undoing
        # it takes them away with the seats.
        event = record_event(
            t,
            "alternates_seated",
            {"entries": [], "after_undo_of": undone_entry},
            actor,
            defer=True,
        )
        seated = [m["entry"] for m in seat_alternates(t, event=event)]
        event_payload_set(event, {**event.payload, "entries": seated})
    return seated


def _undo_table_changes(t: Tournament, journal: dict[str, Any], created: dict[str, Any]) -> list:
    """A table the registration opened goes again while nobody sits there; a button it drew
    (RULES 2.1) is taken back when fewer than two players are left at that table."""
    removed = []
    for table in Table.objects.filter(tournament=t, pk__in=created.get("table") or []):
        if (
            not Seat.objects.filter(table=table).exists()
            and not Move.objects.filter(tournament=t, to_table=table.number).exists()
        ):
            removed.append(table.number)
            table.delete()
    if removed:
        before = (journal.get("tournament") or {}).get("started_tables")
        open_now = Table.objects.filter(tournament=t, status=Table.Status.OPEN).count()
        if before is not None and t.started_tables > max(before, open_now):
            t.started_tables = max(before, open_now)
            Tournament.objects.filter(pk=t.pk).update(started_tables=t.started_tables)
    for pk, fields in (journal.get("tables") or {}).items():
        if "button_seat" in fields and fields["button_seat"] is None:
            if Seat.objects.filter(table_id=int(pk)).count() < 2:
                Table.objects.filter(pk=int(pk)).update(button_seat=None)
    return removed
