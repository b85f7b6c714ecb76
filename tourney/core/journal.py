"""The undo journal: what one action changed, so that undo restores the state before it.

A write service opens ``journal(t)`` right after locking the tournament row. The low-level
writers (seats, tables, entries) call ``note_*`` before they change a row; the journal keeps
the first (the "before") image of each row, and the ids of the rows the action created. The
service's Event carries the journal in ``payload["undo"]``. Undo restores those images in
reverse; prizes are derived from places and recomputed afterwards.

Only the rows an action touched are kept, so an elimination at a thousand tables journals a
few rows, not the room.
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager
from typing import Any

from tourney.core.rows import kept_cursor

TOURNAMENT_FIELDS = (
    "status",
    "registration_open",
    "rebuys_open",
    "started_tables",
    "draw_counter",
    "clock_index",
    "clock_left_ms",
    "clock_at",
    "clock_running",
    "clock_started",
    "clock_announced",
    "hand_for_hand",
    "hand_for_hand_round",
    "chips_color_up_delta",
    "rounding_unit",
    "place_lag",
)
# The payout table and the frozen prizes (a thousand numbers each in a big field) are kept
# only by the actions that change them, which say so first (``note_tournament``): copied
# into every action's undo data they were most of its size. The mystery envelopes left
# (RULES 9.4) are kept the same way, by the actions that draw or set them.
TOURNAMENT_NOTED_FIELDS = ("payout_percentages", "frozen_prizes")
ENTRY_FIELDS = (
    "status",
    "chips_bought",
    "paid",
    "fee_paid",
    "rebuys",
    "addons",
    "place",
    "place_to",
    "bust_stack",
    "bust_hand",
    "bust_table",
    "bust_seat",
    "busted_at",
    "h4h_round",
    "deal_amount",
    "bounty",  # RULES 9.11: the heads and the cash won come back with an undo
    "bounty_won",
)
TABLE_FIELDS = ("status", "button_seat", "break_rank", "unavailable_seats")
# RULES 12: a satellite's ticket as an action found it (used at the target's desk, refunded,
# handed to another player); kept only by the actions that change one.
TICKET_FIELDS = (
    "status",
    "player_id",
    "used_by_id",
    "refund_reason",
    "refunded_by_id",
    "refunded_at",
)

_current: contextvars.ContextVar[Journal | None] = contextvars.ContextVar(
    "tourney_journal", default=None
)
# Set while an undone action is redone: its new Event says which one it redoes.
redoing: contextvars.ContextVar[int | None] = contextvars.ContextVar("tourney_redo", default=None)


def _jsonable(v: Any) -> Any:
    if hasattr(v, "isoformat"):
        return {"__dt__": v.isoformat()}
    return v


def _restore(v: Any) -> Any:
    if isinstance(v, dict) and "__dt__" in v:
        from datetime import datetime

        return datetime.fromisoformat(v["__dt__"])
    return v


class Journal:
    def __init__(self, t) -> None:
        self.tournament_id = t.pk
        self.tournament = {f: _jsonable(getattr(t, f, None)) for f in TOURNAMENT_FIELDS}
        self.entries: dict[int, dict[str, Any]] = {}
        self.seats: dict[int, list | None] = {}  # entry id -> [table_id, number, waits] or None
        self.tables: dict[int, dict[str, Any]] = {}  # table id -> fields
        self.created: dict[str, list[int]] = {
            "entry": [],
            "table": [],
            "player": [],
            "knockout": [],
            "chipcount": [],  # RULES 10.8: the counts an action entered
        }
        self.chip_counts: list[dict[str, Any]] = []  # ChipCount rows deleted (RULES 10.4)
        self.tickets: dict[int, dict[str, Any]] = {}  # Ticket rows changed (RULES 12)
        self.events: list = []  # Event rows recorded by this action; the last is its own
        self.call: dict[str, Any] | None = None  # how to redo it
        self.changed: list = []  # earlier Events whose payload the action rewrote
        # Counters of the tournament row written once, at the end (flush_counters): the
        # version screens poll (one step per Event) and the draw counter (RULES 1.1 seeds).
        self.version_steps = 0
        self.draw_counter: int | None = None
        self.draw_counter_dirty = False
        # Row writes left to the action's last statement (``Counters.writes``): nothing in
        # the action reads those rows after. A nested service's lock writes them first.
        self.writes: list[tuple[str, list]] = []
        self.levels: list[dict[str, Any]] | None = None  # the structure before, if changed
        self.shift_places = 0  # busted entries' stored places moved by places_settle
        self.sealed = False  # the action's own event is written (``seal``)

    # -- before images
    def note_entries(self, ids) -> None:
        from tourney.core.rows import load, marks
        from tourney.models import Entry

        todo = [i for i in ids if i not in self.entries]
        if todo:
            self.note_entry_rows(load(Entry, f"id IN ({marks(todo)})", todo))

    def note_entry_rows(self, rows) -> None:
        """The before images of Entry instances the caller has just loaded (no query). A
        place that this action's ``places_settle`` already moved is kept as it was before
        (undo moves every other place back by ``shift_places`` and puts these images back)."""
        from tourney.models import Entry

        for e in rows:
            if e.pk not in self.entries:
                image = {f: _jsonable(getattr(e, f)) for f in ENTRY_FIELDS}
                if self.shift_places and e.place is not None and e.status == Entry.Status.BUSTED:
                    image["place"] -= self.shift_places
                    image["place_to"] -= self.shift_places
                self.entries[e.pk] = image

    def note_seat_rows(self, rows) -> None:
        """Before images of seats the caller has read: (entry_id, table_id, number, waits)."""
        for e, table_id, number, waits in rows:
            self.seats.setdefault(e, [table_id, number, waits])

    def note_seats(self, entry_ids) -> None:
        from tables.models import Seat

        todo = [i for i in entry_ids if i not in self.seats]
        if not todo:
            return
        for i in todo:
            self.seats[i] = None

        from tourney.core.rows import marks

        with kept_cursor() as cursor:  # plain SQL: every move and elimination
            cursor.execute(
                "SELECT entry_id, table_id, number, waits_for_button "
                f"FROM {Seat._meta.db_table} WHERE entry_id IN ({marks(todo)})",
                todo,
            )
            for e, table_id, number, waits in cursor.fetchall():
                self.seats[e] = [table_id, number, bool(waits)]

    def note_tables(self, *, ids=None, numbers=None) -> None:
        from tables.models import Table

        qs = Table.objects.filter(tournament_id=self.tournament_id)
        qs = qs.filter(pk__in=ids) if ids is not None else qs.filter(number__in=numbers)
        for row in qs.values("pk", *TABLE_FIELDS):
            pk = row.pop("pk")
            self.tables.setdefault(pk, row)

    def note_table_rows(self, rows) -> None:
        """Before images of tables the caller has read: ``Table`` rows, or the open tables'
        ``tables.selectors.TableRow`` tuples."""
        for r in rows:
            image = {f: getattr(r, f, "open") for f in TABLE_FIELDS}
            image["unavailable_seats"] = list(image["unavailable_seats"] or [])
            self.tables.setdefault(r.pk, image)

    def note_tournament(self, fields=TOURNAMENT_NOTED_FIELDS) -> None:
        """Before images of tournament fields kept only when changed, as the row holds them
        now (read from it: an instance in hand may already carry the new values)."""
        todo = [f for f in fields if f not in self.tournament]
        if not todo:
            return
        from tourney.models import Tournament

        row = Tournament.objects.filter(pk=self.tournament_id).values(*todo).get()
        for f in todo:
            self.tournament[f] = _jsonable(row[f])

    def note_levels(self, items) -> None:
        from dataclasses import asdict

        if self.levels is None:
            self.levels = [dict(asdict(i), color_up=list(i.color_up)) for i in items]

    def note_created(self, kind: str, ids) -> None:
        self.created.setdefault(kind, []).extend(ids)  # "ticket" only when one is (RULES 12)

    def note_tickets(self, rows) -> None:
        """Before images of Ticket rows the action is about to change (RULES 12.6-12.8)."""
        for r in rows:
            self.tickets.setdefault(r.pk, {f: _jsonable(getattr(r, f)) for f in TICKET_FIELDS})

    def note_chip_counts_deleted(self, rows) -> None:
        """ChipCount rows (a queryset) the action is about to delete, as they are: a table's
        bags entered again (RULES 10.4). Undo puts them back."""
        for row in rows.values():
            self.chip_counts.append({f: _jsonable(v) for f, v in row.items()})

    def caused(self, event) -> None:
        """``event``, just recorded deferred, is one the action's own event caused (a
        flight's end after an elimination's busts, RULES 10.2): listed before the own one,
        which stays last and keeps the undo data."""
        self.events.remove(event)
        self.events.insert(len(self.events) - 1, event)

    def pending_counters(self):
        """The counters not yet written, and forget them (the caller writes them)."""
        from tourney.core.event_rows import Counters

        c = Counters(
            self.tournament_id,
            self.version_steps,
            self.draw_counter if self.draw_counter_dirty else None,
            writes=self.writes,
        )
        self.version_steps = 0
        self.draw_counter_dirty = False
        self.writes = []
        return c

    def flush_counters(self) -> None:
        """Write the pending version steps and draw counter in one UPDATE."""
        from tourney.core.event_rows import counters_write

        counters_write(self.pending_counters())

    def complete(self, event) -> None:
        """Give the action's own (last) event its undo data, the ids of the action's other
        events and how to redo it. A deferred last event is inserted with all this; its own
        id joins the list of the action's events when undo reads it (tourney/services/undo.py)."""
        event.payload = {
            **event.payload,
            "undo": self.as_payload(),
            "events": [e.pk for e in self.events if e.pk is not None],
        }
        if self.call is not None:
            event.payload["call"] = self.call
        if redoing.get() is not None:
            event.payload["redo_of"] = redoing.get()

    def seal(self, event):
        """For an action that writes its own event (the last one, not yet inserted) in one
        statement with its last writes: ``complete`` it now, and hand back the pending
        counters to write with it. Nothing may be noted after this; the journal's end then
        writes no event."""
        assert event is self.events[-1] and event.pk is None
        assert all(e.pk is not None for e in self.events[:-1])
        self.complete(event)
        self.sealed = True
        return self.pending_counters()

    def as_payload(self) -> dict[str, Any]:
        return {
            "tournament_id": self.tournament_id,
            "tournament": self.tournament,
            "entries": {str(k): v for k, v in self.entries.items()},
            "seats": {str(k): v for k, v in self.seats.items()},
            "tables": {str(k): v for k, v in self.tables.items()},
            "created": self.created,
            "levels": self.levels,
            "shift_places": self.shift_places,
            **({"chip_counts": self.chip_counts} if self.chip_counts else {}),
            **({"tickets": {str(k): v for k, v in self.tickets.items()}} if self.tickets else {}),
        }


def current() -> Journal | None:
    return _current.get()


@contextmanager
def journal(t):
    """Journal one action; a service called inside another shares the outer journal. On a
    clean exit the action's own (first) Event gets the journal in ``payload["undo"]``."""
    outer = _current.get()
    if outer is not None:
        yield outer
        return
    j = Journal(t)
    token = _current.set(j)
    try:
        yield j
        from tourney.core.event_rows import counters_write, event_insert, event_payload_write

        counters = j.pending_counters()  # written with the action's own event: one statement
        if j.sealed:  # the action wrote its own event, undo data and counters already
            counters_write(counters)
        elif j.events:
            event = j.events[-1]  # the action's own event comes last (after e.g. buttons_drawn)
            for earlier in j.events[:-1]:  # deferred ones (record_event), in their order
                if earlier.pk is None:
                    event_insert(earlier)
            j.complete(event)
            if event.pk is None:
                event_insert(event, counters)
            else:
                event_payload_write(event, counters)
        else:
            counters_write(counters)
        for other in j.changed:
            if not j.events or other is not j.events[-1]:
                event_payload_write(other)
    finally:
        _current.reset(token)


def restore(payload: dict[str, Any]) -> dict[str, Any]:
    """Put back the rows an action changed (inside the caller's transaction and lock).
    Returns the tournament fields for the caller to set on its locked row."""
    from tables.models import Seat, Table
    from tourney.models import ChipCount, Entry, Knockout, Player

    tournament_id = payload["tournament_id"]
    seats = {int(k): v for k, v in payload["seats"].items()}
    entries = {int(k): v for k, v in payload["entries"].items()}
    created = payload["created"]
    if payload.get("shift_places"):
        from django.db.models import F

        by = payload["shift_places"]
        Entry.objects.filter(
            tournament_id=tournament_id, status=Entry.Status.BUSTED, place__isnull=False
        ).exclude(pk__in=list(entries)).update(place=F("place") - by, place_to=F("place_to") - by)
    _tickets_restore(payload, created, entries)
    # Free every seat the action touched, then put the old ones back: a batch may swap seats.
    Seat.objects.filter(entry_id__in=list(seats) + created.get("entry", [])).delete()
    if created.get("knockout"):  # RULES 9.11: the knockouts of an undone elimination
        Knockout.objects.filter(pk__in=created["knockout"]).delete()
    if created.get("chipcount"):  # RULES 10.8: the chip counts an undone action entered
        ChipCount.objects.filter(pk__in=created["chipcount"]).delete()
    if payload.get("chip_counts"):  # RULES 10.4: the bags an action replaced come back
        ChipCount.objects.bulk_create(
            ChipCount(**{f: _restore(v) for f, v in row.items()}) for row in payload["chip_counts"]
        )
    for pk, fields in entries.items():
        Entry.objects.filter(pk=pk).update(**{f: _restore(v) for f, v in fields.items()})
    for pk, fields in payload["tables"].items():
        Table.objects.filter(pk=int(pk)).update(**fields)
    if created.get("entry"):
        Entry.objects.filter(pk__in=created["entry"]).delete()
    if created.get("player"):
        Player.objects.filter(pk__in=created["player"], entries__isnull=True).delete()
    if created.get("table"):
        Table.objects.filter(pk__in=created["table"]).delete()
    if payload.get("levels") is not None:
        from tourney.models import Level

        Level.objects.filter(tournament_id=tournament_id).delete()
        Level.objects.bulk_create(
            Level(tournament_id=tournament_id, index=i, **item)
            for i, item in enumerate(payload["levels"])
        )
    Seat.objects.bulk_create(
        Seat(
            tournament_id=tournament_id,
            table_id=v[0],
            number=v[1],
            entry_id=e,
            waits_for_button=v[2],
        )
        for e, v in seats.items()
        if v is not None
    )
    return {f: _restore(v) for f, v in payload["tournament"].items()}


MSG_TICKET_USED = (
    "Cannot undo: the seat ticket of {name} from this action was used to register them into "
    "{target} (entry #{number}). Undo that registration there first."
)


def _tickets_restore(payload: dict[str, Any], created: dict[str, Any], entries: dict) -> None:
    """RULES 12.4: the tickets an action issued go with its undo, as does the ticket of an
    entry whose seat place the undo takes away; unless one was used since (refused, nothing
    changed). The tickets the action changed are put back as they were."""
    from django.db.models import Q

    from tourney.room_models import Ticket

    unplaced = [pk for pk, image in entries.items() if image.get("place") is None]
    if created.get("ticket") or unplaced:
        doomed = Ticket.objects.filter(
            Q(pk__in=created.get("ticket") or []) | Q(entry_id__in=unplaced)
        )
        used = (
            doomed.filter(status=Ticket.Status.USED)
            .select_related("player", "target", "used_by")
            .first()
        )
        if used is not None:
            from tourney.engine.errors import DomainError

            raise DomainError(
                "ticket_used",
                MSG_TICKET_USED.format(
                    name=used.player.name,
                    target=used.target.name,
                    number=used.used_by.number if used.used_by else "?",
                ),
                status=409,
                fields={"ticket": used.pk, "entry": used.used_by_id},
            )
        doomed.delete()
    for pk, fields in (payload.get("tickets") or {}).items():
        Ticket.objects.filter(pk=int(pk)).update(**{f: _restore(v) for f, v in fields.items()})
