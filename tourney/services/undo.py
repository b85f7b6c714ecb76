"""Undo and redo of the last actions, in reverse order (issue 10).

Every write service journals the rows it changes (tourney/core/journal.py) into its Event. Undo
puts those rows back exactly — seats, entries, tables, the tournament's own fields, the
moves it made — and recomputes prizes, which derive from places. Redo runs the undone
action again with the same arguments; the journal restored the draw counter, so every
random draw replays the same way."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tables.models import Move
from tourney.core.events import record_event
from tourney.core.journal import redoing, restore
from tourney.core.locking import lock_tournament
from tourney.engine.errors import DomainError
from tourney.models import Event, Tournament

# Transitions the clock derives by itself: announcing them again is the clock's job.
# A flight's end (RULES 10.2) is the clock's too, or part of the elimination that caused it.
AUTOMATIC = {"level_started", "break_started", "flight_ended"}
# Bookkeeping, not actions on the game: ticking moves off the list, a new display token.
# Undo and redo walk past them (RULES 7.4: "undo, and everything it caused" must not be
# stopped by the director ticking off the moves the elimination caused).
NOT_ACTIONS = {"moves_announced", "display_token_rotated", "announced"}  # issue 29: a text said
MSG_NOTHING_TO_UNDO = "There is nothing to undo."
MSG_CANNOT_UNDO = (
    "The last action ({kind}) keeps no undo record, so the log cannot undo it or anything "
    "before it. Undo it where it was done if that screen offers an undo, or put it right "
    "by hand."
)
MSG_STALE = "That action is no longer the one to {what}: someone else just did. Look again."
# Records of undos done by a screen's own undo: the stack goes on below them.
SELF_UNDOS = (
    "undo",
    "entry_registration_undone",
    "chip_race_undone",
    "color_up_finish_undone",
)
# Actions that keep no journal but have an exact undo of their own, which the general undo
# calls (``tourney.services.colorup.colorup_undo_event``): a chip race and a color-up finish.
DELEGATED = {"chip_race", "color_up_finished"}
# The bottom of the stack: nothing before these is undone (a copy starts a new tournament).
NO_UNDO_NEEDED = {"tournament_created", "tournament_copied"}
MSG_NOTHING_TO_REDO = "There is nothing to redo."
MSG_CANNOT_REDO = "This action cannot be redone automatically; do it again by hand."


def _journaled(t: Tournament):
    return (
        Event.objects.filter(tournament=t)
        .exclude(kind__in=AUTOMATIC | NOT_ACTIONS)
        .order_by("-id")
        .only("id", "kind", "payload", "undone")
    )


def _newest_first(t: Tournament):
    """The journaled actions, newest first, read a page at a time (keyset on the id; pages of
    1, 4, 16, then 64 events): the walks below almost always stop at the first one, and an
    action's payload carries its undo journal, which can be large. ``.iterator()`` opened a
    server-side cursor instead, which PostgreSQL materialises whole on commit outside a
    transaction: every event of the day, payloads included, on each dashboard refresh."""
    last, size = None, 1
    while True:
        rows = _journaled(t) if last is None else _journaled(t).filter(pk__lt=last)
        page = list(rows[:size])
        yield from page
        if len(page) < size:
            return
        last, size = page[-1].pk, min(size * 4, 64)


def undo_target(t: Tournament) -> Event | None:
    """The last action not undone yet. Actions that keep no journal and have no undo the
    general undo can call stop the walk: undoing past them would lose what they did."""
    for e in _newest_first(t):
        if e.undone or e.kind in SELF_UNDOS:
            continue
        if "undo" in (e.payload or {}) or e.kind in DELEGATED:
            return e
        if e.kind in NO_UNDO_NEEDED:
            return None
        raise DomainError(
            "cannot_undo",
            MSG_CANNOT_UNDO.format(kind=e.kind),
            status=409,
            fields={"event": e.pk, "kind": e.kind},
        )
    return None


def _check_expected(target: Event | None, expected: int | None, what: str) -> None:
    """``expected``: the event the director's screen offered to undo or redo. Checked under
    the lock, so a double click or two directors at once act once, not on the next action."""
    if expected is not None and (target is None or target.pk != expected):
        raise DomainError(
            "stale", MSG_STALE.format(what=what), status=409, fields={"event": expected}
        )


def action_undo(*, tournament_id: int, actor=None, expected: int | None = None) -> dict[str, Any]:
    """Undo the last action not yet undone (``expected``: only if that is this event)."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        target = undo_target(t)
        _check_expected(target, expected, "undo")
        if target is None:
            raise DomainError("nothing_to_undo", MSG_NOTHING_TO_UNDO, status=409)
        if target.kind in DELEGATED and "undo" not in (target.payload or {}):
            from tourney.services.colorup import colorup_undo_event

            colorup_undo_event(t, target, actor)  # records its own undo event
            return {"undid": target.pk, "kind": target.kind}
        fields = restore(target.payload["undo"])
        for name, value in fields.items():
            setattr(t, name, value)
        t.save(update_fields=list(fields))
        events = sorted({*(target.payload.get("events") or ()), target.pk})
        Move.objects.filter(event_id__in=events).delete()
        Event.objects.filter(pk__in=events).update(undone=True)
        from tourney.services.money import prizes_assign

        prizes_assign(t)
        record_event(t, "undo", {"undid": target.pk, "kind": target.kind}, actor)
    return {"undid": target.pk, "kind": target.kind}


def redo_target(t: Tournament) -> Event | None:
    redone = 0
    for e in _newest_first(t):
        payload = e.payload or {}
        if e.kind == "undo":
            if redone:
                redone -= 1
                continue
            return Event.objects.filter(pk=payload.get("undid")).first()
        if "redo_of" in payload:
            redone += 1
            continue
        if "undo" in payload and not e.undone:
            return None  # a new action since the last undo: nothing to redo
        if e.kind in DELEGATED:
            return None  # a chip race or finish since (even undone): it cannot be redone
    return None


def _services() -> dict[str, Any]:
    from tables import services as ts
    from tourney.services import (
        announcements,
        chip_counts,
        clock,
        eliminations,
        entries,
        flights,
        money,
        tournament_settings,
    )

    table = {
        "elimination_record": eliminations.elimination_record,
        "entry_register": entries.entry_register,
        "clock_action": clock.clock_action,
        "table_set_button": ts.table_set_button,
        "move_manual": ts.move_manual,
        "tournament_settings_update": tournament_settings.tournament_settings_update,
        "entry_reenter": entries.entry_reenter,
        "registration_close": entries.registration_close,
        "bags_record": flights.bags_record,  # RULES 10.4, 10.5
        "flight_bag_close": flights.flight_bag_close,
        "day2_seat": flights.day2_seat,
        "flight_end_set": flights.flight_end_set,  # RULES 10.2
        "chip_counts_record": chip_counts.chip_counts_record,  # RULES 10.8
        "announce_settings_set": announcements.announce_settings_set,  # issue 29
    }
    from tourney.services import satellites, tickets

    table["satellite_set"] = satellites.satellite_set  # RULES 12.1
    table["satellite_deal"] = satellites.satellite_deal  # RULES 12.8

    table["ticket_register"] = tickets.ticket_register  # RULES 12.5 (takes the target's id)
    table["ticket_refund"] = lambda tournament_id, **kw: tickets.ticket_refund(**kw)
    table["ticket_transfer"] = lambda tournament_id, **kw: tickets.ticket_transfer(**kw)
    for name in (
        "entry_rebuy",
        "entry_addon",
        "payouts_set",
        "payouts_freeze",
        "deal_record",
    ):
        if hasattr(money, name):
            table[name] = getattr(money, name)
    return table


def action_redo(*, tournament_id: int, actor=None, expected: int | None = None) -> dict[str, Any]:
    """Run the last undone action again (only while no new action came after the undo).
    The target is chosen under the tournament lock and the service runs in the same
    transaction (its own lock nests in it): two redos at once apply the action once."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        target = redo_target(t)
        _check_expected(target, expected, "redo")
        if target is None:
            raise DomainError("nothing_to_redo", MSG_NOTHING_TO_REDO, status=409)
        call = target.payload.get("call")
        fn = _services().get((call or {}).get("service"))
        if fn is None:
            raise DomainError("cannot_redo", MSG_CANNOT_REDO, status=409)
        kwargs = dict(call["kwargs"])
        if "now" in kwargs and kwargs["now"]:
            from datetime import datetime

            kwargs["now"] = datetime.fromisoformat(kwargs["now"])
        if "busts" in kwargs:
            kwargs["busts"] = [tuple(b) for b in kwargs["busts"]]  # winners: {"busted": [ids]}
        token = redoing.set(target.pk)
        try:
            fn(tournament_id=tournament_id, actor=actor, **kwargs)
        finally:
            redoing.reset(token)
    return {"redid": target.pk, "kind": target.kind}


# ---------------------------------------------------------------- what the screens show


def next_steps(t: Tournament) -> dict[str, Any]:
    """What the log's Undo and Redo buttons would act on (the button says it, and posts the
    event id back so that a stale click is refused: ``expected``)."""
    try:
        undo, blocked = undo_target(t), ""
    except DomainError as exc:
        undo, blocked = None, exc.message
    return {"undo_event": undo, "undo_blocked": blocked, "redo_event": redo_target(t)}


def _current_rows(t: Tournament, before: dict[str, Any]) -> dict[str, dict]:
    """The rows of ``before`` (an undo payload) as they are now; a missing row is None."""
    from tables.models import Seat, Table
    from tourney.core.journal import ENTRY_FIELDS, TABLE_FIELDS, _jsonable
    from tourney.models import Entry

    entries = {str(k): None for k in before.get("entries", {})}
    for row in Entry.objects.filter(pk__in=[int(k) for k in entries]).values("pk", *ENTRY_FIELDS):
        entries[str(row.pop("pk"))] = {f: _jsonable(v) for f, v in row.items()}
    seats = {str(k): None for k in before.get("seats", {})}
    for e, table, number, waits in Seat.objects.filter(
        entry_id__in=[int(k) for k in seats]
    ).values_list("entry_id", "table_id", "number", "waits_for_button"):
        seats[str(e)] = [table, number, waits]
    tables = {str(k): None for k in before.get("tables", {})}
    for row in Table.objects.filter(pk__in=[int(k) for k in tables]).values("pk", *TABLE_FIELDS):
        tables[str(row.pop("pk"))] = row
    row = Tournament.objects.filter(pk=t.pk).values(*before.get("tournament", {})).first() or {}
    return {
        "tournament": {f: _jsonable(v) for f, v in row.items()},
        "entries": entries,
        "seats": seats,
        "tables": tables,
    }


def event_changes(event: Event) -> list[dict[str, Any]]:
    """The state before and after one journaled action, worked out when a director opens it
    (nothing extra is written by the actions): each row's before-image is in the event's undo
    data; its after-image is the before-image of the next later action that journaled the
    same row, else the row as it is now. Only fields that differ are listed. An undone
    action's "after" is looked for only before the undo that took it back."""
    before = (event.payload or {}).get("undo")
    if not before:
        return []
    kinds = ("tournament", "entries", "seats", "tables")
    todo = {k: set(before.get(k) or {}) for k in kinds}
    after: dict[str, dict] = {k: {} for k in kinds}
    later = Event.objects.filter(tournament_id=event.tournament_id, pk__gt=event.pk)
    if event.undone:
        undo = later.filter(kind="undo", payload__undid=event.pk).order_by("pk").first()
        later = later.filter(pk__lt=undo.pk) if undo else later.none()
    for other in later.order_by("pk").only("payload").iterator(chunk_size=50):
        images = (other.payload or {}).get("undo")
        if not images:
            continue
        for k in kinds:
            for key in list(todo[k]):
                if key in (images.get(k) or {}):
                    after[k][key] = images[k][key]
                    todo[k].discard(key)
        if not any(todo.values()):
            break
    if any(todo.values()) and not event.undone:
        now = _current_rows(event.tournament, {k: {key: 0 for key in todo[k]} for k in kinds})
        for k in kinds:
            for key in todo[k]:
                after[k][key] = now[k].get(key)
    out = _changes_list(before, after, undone=event.undone)
    for row in out:
        row["changes"] = [(f, _shown(b), _shown(a)) for f, b, a in row["changes"]]
    return out


def _shown(v: Any) -> Any:
    if isinstance(v, dict) and "__dt__" in v:
        return v["__dt__"]
    return "none" if v is None else v


def _changes_list(
    before: dict[str, Any], after: dict[str, dict], *, undone: bool
) -> list[dict[str, Any]]:
    from tables.models import Table
    from tourney.models import Entry

    entry_ids = {int(k) for k in (before.get("entries") or {})} | {
        int(k) for k in (before.get("seats") or {})
    }
    names = {
        pk: f"Entry #{n} {name}"
        for pk, n, name in Entry.objects.filter(pk__in=entry_ids).values_list(
            "pk", "number", "player__name"
        )
    }
    table_ids = {int(k) for k in (before.get("tables") or {})}
    for v in (*(before.get("seats") or {}).values(), *after["seats"].values()):
        if v:
            table_ids.add(v[0])
    table_no = dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "number"))

    def seat(v) -> str:
        if isinstance(v, str):
            return v
        if not v:
            return "no seat"
        return f"table {table_no.get(v[0], '?')} seat {v[1]}" + (" (waits)" if v[2] else "")

    out = []
    gone = "(undone)" if undone else "(no longer there)"
    rows = [
        (f, v, after["tournament"].get(f, gone))
        for f, v in (before.get("tournament") or {}).items()
        if after["tournament"].get(f, gone) != v
    ]
    if rows:
        out.append({"row": "Tournament", "changes": rows})
    for key, image in (before.get("entries") or {}).items():
        a = after["entries"].get(key)
        changes = [
            (f, v, (a or {}).get(f, gone) if a is not None else gone)
            for f, v in image.items()
            if a is None or a.get(f) != v
        ]
        if changes:
            out.append({"row": names.get(int(key), f"Entry id {key}"), "changes": changes})
    for key, image in (before.get("seats") or {}).items():
        a = after["seats"].get(key)
        if undone and key not in after["seats"]:
            a = gone
        if (image or None) != (a or None):
            label = names.get(int(key), f"Entry id {key}")
            out.append({"row": f"Seat of {label}", "changes": [("seat", seat(image), seat(a))]})
    for key, image in (before.get("tables") or {}).items():
        a = after["tables"].get(key)
        changes = [
            (f, v, (a or {}).get(f, gone) if a is not None else gone)
            for f, v in image.items()
            if a is None or a.get(f) != v
        ]
        if changes:
            out.append({"row": f"Table {table_no.get(int(key), key)}", "changes": changes})
    created = before.get("created") or {}
    for kind, ids in created.items():
        if ids:
            out.append(
                {"row": f"Created {kind}(s)", "changes": [("ids", "", ", ".join(map(str, ids)))]}
            )
    return out
