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
# Bookkeeping, not actions on the game: ticking moves off the list, a new display token.
# Undo and redo walk past them (RULES 7.4: "undo, and everything it caused" must not be
# stopped by the director ticking off the moves the elimination caused).
NOT_ACTIONS = {"moves_announced", "display_token_rotated"}
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
# calls (``tourney.colorup.colorup_undo_event``): a chip race and a color-up finish.
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


def undo_target(t: Tournament) -> Event | None:
    """The last action not undone yet. Actions that keep no journal and have no undo the
    general undo can call stop the walk: undoing past them would lose what they did."""
    for e in (
        _journaled(t).filter(undone=False).exclude(kind__in=SELF_UNDOS).iterator(chunk_size=50)
    ):
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
            from tourney.colorup import colorup_undo_event

            colorup_undo_event(t, target, actor)  # records its own undo event
            return {"undid": target.pk, "kind": target.kind}
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
        if e.kind in DELEGATED:
            return None  # a chip race or finish since (even undone): it cannot be redone
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
        "registration_close",
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
            kwargs["busts"] = [tuple(b) for b in kwargs["busts"]]
        token = redoing.set(target.pk)
        try:
            fn(tournament_id=tournament_id, actor=actor, **kwargs)
        finally:
            redoing.reset(token)
    return {"redid": target.pk, "kind": target.kind}
