"""Undo and redo of the last actions, in reverse order (issue 10).

Every write service journals the rows it changes (tourney/journal.py) into its Event. Undo
puts those rows back exactly — seats, entries, tables, the tournament's own fields, the
moves it made — and recomputes prizes, which derive from places. Redo runs the undone
action again with the same arguments; the journal restored the draw counter, so every
random draw replays the same way."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tables.models import Move
from tourney.engine.errors import DomainError
from tourney.journal import redoing, restore
from tourney.models import Event, Tournament
from tourney.services import lock_tournament, record_event

# Transitions the clock derives by itself: announcing them again is the clock's job.
AUTOMATIC = {"level_started", "break_started"}
MSG_NOTHING_TO_UNDO = "There is nothing to undo."
MSG_CANNOT_UNDO = "The last action ({kind}) cannot be undone here; it has an undo of its own."
# Records of undos done by a screen's own undo: the stack goes on below them.
SELF_UNDOS = ("undo", "entry_registration_undone", "chip_race_undone")
# The bottom of the stack: nothing before these is undone.
NO_UNDO_NEEDED = {"tournament_created"}
MSG_NOTHING_TO_REDO = "There is nothing to redo."
MSG_CANNOT_REDO = "This action cannot be redone automatically; do it again by hand."


def _journaled(t: Tournament):
    return (
        Event.objects.filter(tournament=t)
        .exclude(kind__in=AUTOMATIC)
        .order_by("-id")
        .only("id", "kind", "payload", "undone")
    )


def undo_target(t: Tournament) -> Event | None:
    """The last action not undone yet. Actions that keep no journal (a chip race, with its own
    undo) stop the walk: undoing past them would lose what they did."""
    for e in (
        _journaled(t).filter(undone=False).exclude(kind__in=SELF_UNDOS).iterator(chunk_size=50)
    ):
        if "undo" in (e.payload or {}):
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


def action_undo(*, tournament_id: int, actor=None) -> dict[str, Any]:
    """Undo the last action not yet undone."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        target = undo_target(t)
        if target is None:
            raise DomainError("nothing_to_undo", MSG_NOTHING_TO_UNDO, status=409)
        fields = restore(target.payload["undo"])
        for name, value in fields.items():
            setattr(t, name, value)
        t.save(update_fields=list(fields))
        events = sorted({*(target.payload.get("events") or ()), target.pk})
        Move.objects.filter(event_id__in=events).delete()
        Event.objects.filter(pk__in=events).update(undone=True)
        from tourney.money import prizes_assign

        prizes_assign(t)
        record_event(t, "undo", {"undid": target.pk, "kind": target.kind}, actor)
    return {"undid": target.pk, "kind": target.kind}


def redo_target(t: Tournament) -> Event | None:
    redone = 0
    for e in _journaled(t).iterator(chunk_size=50):
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
    return None


def _services() -> dict[str, Any]:
    from tables import services as ts
    from tourney import money, services

    table = {
        "elimination_record": services.elimination_record,
        "entry_register": services.entry_register,
        "clock_action": services.clock_action,
        "table_set_button": ts.table_set_button,
        "move_manual": ts.move_manual,
    }
    for name in (
        "entry_rebuy",
        "entry_addon",
        "entry_reenter",
        "payouts_set",
        "payouts_freeze",
        "deal_record",
    ):
        if hasattr(money, name):
            table[name] = getattr(money, name)
    return table


def action_redo(*, tournament_id: int, actor=None) -> dict[str, Any]:
    """Run the last undone action again (only while no new action came after the undo)."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        raise DomainError("not_found", "No such tournament.", status=404)
    target = redo_target(t)
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
        kwargs["busts"] = [tuple(b) for b in kwargs["busts"]]
    token = redoing.set(target.pk)
    try:
        fn(tournament_id=tournament_id, actor=actor, **kwargs)
    finally:
        redoing.reset(token)
    return {"redid": target.pk, "kind": target.kind}
