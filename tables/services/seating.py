"""RULES 1.1–1.3: seats drawn (all at once for a home game, one by one for a late entry),
alternates seated as seats open, and the director's manual move."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop as N_

from tables.engine import model as em
from tables.engine import seat_draw
from tables.engine.blinds import waits_for_button
from tables.models import Seat, Table
from tables.selectors import (
    alternates_waiting,
    engine_tables,
    late_pick,
    open_tables,
    table_of,
)
from tables.services.balancing import rebalance
from tables.services.buttons import button_draw_if_due
from tables.services.seats import MSG_BAD_SEAT, MSG_TABLE_BROKEN, apply_moves, tables_open
from tourney.core.events import event_payload_set, record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.core.rng import next_rng
from tourney.core.rows import load as load_rows
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Tournament

MSG_NO_SEAT = N_("Every seat is taken and opening tables is not allowed: added to the alternates.")
MSG_DRAW_STARTED = N_("Seats are drawn at the start only once.")
MSG_NOBODY_TO_DRAW = N_("Nobody is waiting for a seat.")
MSG_SEAT_NOT_FREE = N_("That seat is taken or closed: choose an empty seat, or reopen it first.")
MSG_ENTRY_NOT_SEATED = N_("This entry has no seat.")


def seat_entry(
    t: Tournament,
    entry: Entry,
    *,
    event: Event | None,
    may_open: bool | None = None,
    last: bool = False,
) -> dict[str, Any] | None:
    """RULES 1.3: a random open seat at one of the tables with the fewest players. When every
    seat is taken, open a table if the director allows it, else the entry is an alternate.
    A new entry (``may_open`` None) never goes ahead of the alternates already waiting.
    ``last``: the action reads no seat after this (a registration), see ``apply_moves``.

    A table opened because every seat was taken is balanced at once, before the start as in
    play (issue 31: 9/9/9/1 is no way to start or play): the card rooms' reading, where the
    floor opens the table and fills it from the full ones, rather than leaving one player
    alone at it (or keeping the player waiting until enough arrive for a table). Before the
    start this is the even fill of RULES 1.2; in play the balancing of RULES 3.1-3.3 (the
    big blind next at the fullest tables moves to the worst position, until within the
    tolerance). The moves are recorded (reason "balance", RULES 3.8), so they appear in
    "moves to announce"; the entry gets ``table_opened`` (the new table's number) and
    ``balancing_moves`` (how many players moved there), and the action's event says both."""
    allowed = t.auto_open_tables if may_open is None else may_open
    behind = False
    if may_open is None and alternates_waiting(t, besides=entry.pk):
        # The alternates take any open seat first, in their order (and the tables opened
        # for them, if allowed); while one still waits, the new entry waits behind them.
        seat_alternates(t, event=event, may_open=allowed)
        behind = alternates_waiting(t, besides=entry.pk)
    rng, seed = next_rng(t)
    picked = None if behind else late_pick(t, rng)
    opened = others = False
    if picked is None:
        if behind or not allowed:
            if entry.status != Entry.Status.ALTERNATE:  # an alternate not seated stays one
                if j := journal_current():
                    j.note_entries([entry.pk])
                Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.ALTERNATE)
                entry.status = Entry.Status.ALTERNATE
            return None
        others = Table.objects.filter(tournament=t, status=Table.Status.OPEN).exists()
        row = tables_open(t, count=1)[0]
        opened = True
        picked = row, engine_tables([row])[row.number]
    row, table = picked
    move = seat_draw.late_seat(entry.pk, [table], rng)
    balance = opened and others
    written = apply_moves(
        t,
        [move],
        event=event,
        table_ids={row.number: row.pk},
        last=last and not balance,
        # An alternate taking a seat is called to it: a move to announce (issue 31).
        announce_seats=entry.status == Entry.Status.ALTERNATE,
    )
    entry.status = Entry.Status.SEATED
    button_draw_if_due(
        t, table.with_player(move.to_seat, entry.pk, waits=move.waits_for_button), event
    )
    if balance:
        # A table just opened for this player: RULES 3.3 balancing fills it from the
        # fullest tables (their big blinds next) until the sizes are within tolerance
        # (before the start: RULES 1.2, no button yet, so a random player and seat).
        balanced = rebalance(t, event=event)["moves"]
        written += balanced
        entry.table_opened, entry.balancing_moves = row.number, len(balanced)
        if event is not None:
            event_payload_set(
                event,
                {**event.payload, "table_opened": row.number, "balancing_moves": len(balanced)},
            )
    elif opened:
        entry.table_opened, entry.balancing_moves = row.number, 0
    return written[0]


def seat_alternates(
    t: Tournament, *, event: Event | None, waiting: int | None = None, may_open: bool = False
) -> list[dict[str, Any]]:
    """Alternates take the open seats in the order they registered, each by the RULES 1.3
    draw, whenever seats open (an elimination, a table opened, a seat made available, a
    registration undone). ``may_open``: a table may be opened for them (a new entry arrives
    while they wait and the director allows it). ``waiting``: how many there are, if known."""
    if waiting == 0:
        return []
    seated = []
    # Plain SQL: asked after every elimination, and almost always there is nobody.
    waiting = load_rows(
        Entry,
        "tournament_id = %s AND status = %s",
        [t.pk, Entry.Status.ALTERNATE.value],
        suffix="ORDER BY number",
    )
    for entry in waiting:
        move = seat_entry(t, entry, event=event, may_open=may_open)
        if move is None:
            break
        seated.append(move)
    return seated


def seating_draw_all(*, tournament_id: int, actor=None) -> list[dict[str, Any]]:
    """Home games: everyone registers, then all seats are drawn at once (RULES 1.1–1.2)."""
    with tournament_action(tournament_id) as t:
        if Seat.objects.filter(tournament=t).exists():
            raise DomainError("already_drawn", MSG_DRAW_STARTED, status=409)
        entries = list(
            Entry.objects.filter(tournament=t, status=Entry.Status.REGISTERED)
            .order_by("number")
            .values_list("pk", flat=True)
        )
        if not entries:
            raise DomainError("nobody_to_draw", MSG_NOBODY_TO_DRAW, status=409)
        rows = open_tables(t)
        need = seat_draw.tables_needed(len(entries), t.seats_per_table)
        if need > len(rows):
            rows += tables_open(t, count=need - len(rows))
        tables = engine_tables(rows)
        rng, seed = next_rng(t)
        moves = seat_draw.draw(entries, [tables[r.number] for r in rows], rng)
        event = record_event(t, "seats_drawn", {"entries": len(entries), "seed": seed}, actor)
        return apply_moves(t, moves, event=event)


def move_manual(
    *, tournament_id: int, entry_id: int, table_number: int, seat: int, actor=None
) -> dict[str, Any]:
    """The director moves a player to an open seat; the player waits for the button if the
    seat lies between the small blind and the button (RULES 1.3)."""
    call = {
        "service": "move_manual",
        "kwargs": {"entry_id": entry_id, "table_number": table_number, "seat": seat},
    }
    with tournament_action(tournament_id, call=call) as t:
        current = Seat.objects.filter(tournament=t, entry_id=entry_id).select_related("table")
        current = current.first()
        if current is None:
            raise DomainError("entry_not_seated", MSG_ENTRY_NOT_SEATED, status=409)
        row = table_of(t, table_number)
        if row.status != Table.Status.OPEN:
            raise DomainError("table_broken", MSG_TABLE_BROKEN, status=409)
        if not 1 <= seat <= row.seats:
            raise DomainError("bad_seat", MSG_BAD_SEAT, fields={"seat": MSG_BAD_SEAT})
        table = engine_tables([row])[table_number]
        if not table.is_open(seat):
            raise DomainError("seat_not_free", MSG_SEAT_NOT_FREE, status=409)
        move = em.Move(
            entry_id,
            current.table.number,
            current.number,
            table_number,
            seat,
            "manual",
            waits_for_button(table, seat),
        )
        event = record_event(t, "move_manual", {"entry": entry_id}, actor)
        return apply_moves(t, [move], event=event)[0]
