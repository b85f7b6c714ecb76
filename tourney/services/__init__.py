"""Every write to a tournament: one function per action, each in one transaction that first
locks the tournament row, so all writers of one tournament are serialised in one order.
Each records an Event (the audit log). Rules come from the pure engines."""

from __future__ import annotations

import random
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import slugify

from tourney.core import schedule
from tourney.core.event_rows import (
    combined_statements,
    insert_statement,
)
from tourney.core.events import event_payload_set, event_saved, record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.core.messages import MSG_TOURNAMENT_FINISHED
from tourney.core.rows import insert as insert_row
from tourney.core.rows import kept_cursor, marks
from tourney.core.rows import load_with as load_rows_with
from tourney.engine import clock as clock_engine
from tourney.engine import places as places_engine
from tourney.engine import structure as structure_engine
from tourney.engine.errors import DomainError
from tourney.models import ChipDenomination, Entry, Event, Level, Player, Tournament
from tourney.selectors.clock import anchor_of, clock_index, structure_items
from tourney.services.money import (
    MSG_ALREADY_CLOSED,
    MSG_NO_REENTRIES,
    MSG_REENTRY_NOT_BUSTED,
    MSG_REENTRY_STILL_IN,
    _action,
    _window_passed,
)

DEFAULT_CHIPS: tuple[tuple[int, str], ...] = (
    (25, "green"),
    (100, "black"),
    (500, "purple"),
    (1000, "yellow"),
    (5000, "orange"),
    (25000, "gray"),
)

MSG_ENTRY_NOT_FOUND = "No such entry in this tournament."
MSG_ENTRY_NOT_SEATED = "This entry is not in play (already out or not seated)."
MSG_DUPLICATE_ENTRY = "The same entry is listed twice."
MSG_NAME_REQUIRED = "The name is empty: type the player name first."
MSG_NAME_TOO_LONG = "The name is too long (120 characters at most)."
MSG_NAME_CONTROL = "The name holds control characters; type it again."
MSG_PLAYER_STILL_IN = "This player already has an entry in play."
MSG_REGISTRATION_CLOSED = "Registration is closed."
MSG_REGISTER_FINISHED = (
    "The tournament is over: one player is left, so nobody can register any more. "
    "Undo the last elimination on the dashboard if it was a mistake."
)
MSG_NO_BUSTS = "List at least one entry."
MSG_STACKS_NEEDED = (
    "Several players are out in this hand: give each one's stack at the start of the hand "
    "(the bigger stack finishes higher)."
)
MSG_STACK_IN_H4H = (
    "Hand for hand is on: give the player's stack at the start of the hand (every bust of "
    "the round is ordered by it)."
)
MSG_TOO_MANY_TABLES = "At most 1,000 tables."
MSG_LEVELS_CHANGE_STARTED = "The structure cannot be replaced once the clock has started."


# ---------------------------------------------------------------- structure and clock


def _store_anchor(t: Tournament, a: clock_engine.Anchor) -> None:
    t.clock_index = a.index
    t.clock_left_ms = a.left_ms
    t.clock_at = a.at
    t.clock_running = a.running
    t.clock_started = a.started


def _anchor_dict(a: clock_engine.Anchor) -> dict[str, Any]:
    d = asdict(a)
    d["at"] = a.at.isoformat() if a.at else None
    return d


def _write_levels(t: Tournament, items: Sequence[clock_engine.Item]) -> None:
    Level.objects.filter(tournament=t).delete()
    Level.objects.bulk_create(
        Level(
            tournament=t,
            index=i,
            kind=it.kind,
            small_blind=it.small_blind,
            big_blind=it.big_blind,
            ante=it.ante,
            big_blind_ante=it.big_blind_ante,
            seconds=it.seconds,
            color_up=list(it.color_up),
        )
        for i, it in enumerate(items)
    )


def _unique_slug(name: str) -> str:
    base = slugify(name)[:100] or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def tournament_create(
    *,
    actor,
    name: str,
    seats_per_table: int = 9,
    tables: int = 1,
    starting_stack: int = 10000,
    buy_in: int = 0,
    fee: int = 0,
    seed: int | None = None,
    levels: list[dict[str, Any]] | None = None,
    chips: Sequence[tuple[int, str]] | None = None,
    options: dict[str, Any] | None = None,
) -> Tournament:
    """Create a tournament with its chip set, structure and opened tables."""
    from tables.services import tables_open

    name = (name or "").strip()
    if not name:
        raise DomainError("bad_input", MSG_NAME_REQUIRED, fields={"name": MSG_NAME_REQUIRED})
    if tables > 1000:
        raise DomainError("bad_input", MSG_TOO_MANY_TABLES, fields={"tables": MSG_TOO_MANY_TABLES})
    chip_set = tuple(chips or DEFAULT_CHIPS)
    if levels:
        items = structure_engine.parse_levels(levels)
        # RULES 4.5, 5.1: as for a structure set later (``structure_set``), before any write.
        problems = structure_engine.check_structure(items, [v for v, _ in chip_set])
        if problems:
            raise DomainError(
                "bad_structure", MSG_STRUCTURE_PROBLEMS, fields={"levels": "; ".join(problems)}
            )
    else:
        items = structure_engine.preset(
            "regular",
            starting_stack=starting_stack,
            denominations=tuple(v for v, _ in chip_set),
        )
    with transaction.atomic():
        t = Tournament(
            name=name,
            slug=_unique_slug(name),
            seats_per_table=seats_per_table,
            starting_stack=starting_stack,
            buy_in=buy_in,
            fee=fee,
            rng_seed=seed if seed is not None else random.SystemRandom().getrandbits(62),
            created_by=actor if getattr(actor, "is_authenticated", False) else None,
            **(options or {}),
        )
        a = clock_engine.initial_anchor(items)
        _store_anchor(t, a)
        t.save()
        ChipDenomination.objects.bulk_create(
            ChipDenomination(tournament=t, value=v, color=c) for v, c in chip_set
        )
        _write_levels(t, items)
        if tables:
            tables_open(t, count=tables)
        record_event(
            t,
            "tournament_created",
            {"name": name, "tables": tables, "seed": t.rng_seed, "levels": len(items)},
            actor,
        )
    return t


# The most ticks one sweep queues for one clock (1-second levels and a long sweep interval).
MAX_SWEEP_TICKS = 20

CLOCK_ACTIONS = ("start", "pause", "resume", "next", "previous", "adjust", "set", "jump")
MSG_BAD_CLOCK_ACTION = "Unknown clock action."


def clock_action(
    *,
    tournament_id: int,
    action: str,
    actor=None,
    seconds: int | None = None,
    index: int | None = None,
    now: datetime | None = None,
) -> clock_engine.ClockState:
    """start, pause, resume, next, previous, adjust (seconds), set (``seconds``: the time left
    of the current item), jump (index) — RULES 4.3."""
    if action not in CLOCK_ACTIONS:
        raise DomainError("bad_action", MSG_BAD_CLOCK_ACTION, fields={"action": action})
    now = now or timezone.now()
    call = {
        "service": "clock_action",
        "kwargs": {"action": action, "seconds": seconds, "index": index, "now": now.isoformat()},
    }
    with tournament_action(tournament_id, call=call) as t:
        if t.status == Tournament.Status.FINISHED:
            raise DomainError("tournament_finished", MSG_TOURNAMENT_FINISHED, status=409)
        items = structure_items(t)
        before = anchor_of(t)
        # Transitions the clock already made under the old anchor but nobody recorded yet (the
        # worker was down, or its tick is a moment away) are recorded first, once: the action
        # then re-anchors from where the clock really is (RULES 4.3). A refused action rolls
        # them back with it; the sweep records them then.
        if before.started:
            _announce_locked(t, items, before, now)
        if action == "start":
            after = clock_engine.start(items, now, anchor=before)
        elif action == "pause":
            after = clock_engine.pause(items, before, now)
        elif action == "resume":
            after = clock_engine.resume(items, before, now)
        elif action == "next":
            after = clock_engine.next_item(items, before, now)
        elif action == "previous":
            after = clock_engine.previous_item(items, before, now)
        elif action == "adjust":
            if seconds is None:
                raise DomainError(
                    "bad_input",
                    "Give the seconds to add or remove.",
                    fields={"seconds": "required with adjust"},
                )
            after = clock_engine.adjust(items, before, now, seconds)
        elif action == "set":
            # The time left typed in (issue 31: not 19 clicks on "-1 min"), RULES 4.3.
            if seconds is None:
                raise DomainError(
                    "bad_input",
                    clock_engine.MSG_BAD_TIME_LEFT,
                    fields={"seconds": clock_engine.MSG_BAD_TIME_LEFT},
                )
            after = clock_engine.set_remaining(items, before, now, seconds)
        else:
            if index is None:
                raise DomainError(
                    "bad_input",
                    "Give the index to jump to.",
                    fields={"index": "required with jump"},
                )
            after = clock_engine.jump(items, before, now, index)
        _store_anchor(t, after)
        state = clock_engine.state(items, after, now)
        if action == "start":
            t.status = Tournament.Status.RUNNING
            from tables.services import buttons_draw_at_start

            buttons_draw_at_start(t, actor=actor)
        # A director's jump is its own announcement: transitions start from here.
        if action in ("start", "next", "previous", "jump") or (
            action == "adjust" and state.index != t.clock_announced
        ):
            t.clock_announced = state.index
        _apply_level_windows(t, state.index)
        t.save()
        _freeze_if_closed(t, actor)
        record_event(
            t,
            f"clock_{action}",
            {
                "before": _anchor_dict(before),
                "after": _anchor_dict(after),
                "seconds": seconds,
                "index": index,
            },
            actor,
        )
        _schedule_next_boundary(t, items, after, now)
    return state


def _apply_level_windows(t: Tournament, index: int) -> list[str]:
    """RULES 4.4: late registration / rebuys close at the end of their configured level."""
    closed = []
    if t.late_reg_until is not None and index > t.late_reg_until and t.registration_open:
        t.registration_open = False
        closed.append("registration")
    if t.rebuy_until is not None and index > t.rebuy_until and t.rebuys_open:
        t.rebuys_open = False
        closed.append("rebuys")
    return closed


def _freeze_if_closed(t: Tournament, actor=None) -> None:
    """RULES 8.2: once registration closes, the payouts freeze (idempotent); and the busted
    entries' places, final now, are written into their rows (RULES 7.1, ``place_lag``)."""
    if not t.registration_open:
        places_settle(t)
    if t.registration_open or t.frozen_prizes is not None:
        return
    if not Entry.objects.filter(tournament=t).exists():
        return
    from tourney.services.money import payouts_freeze_locked

    payouts_freeze_locked(t, actor=actor)


def _schedule_next_boundary(t, items, anchor, now, within: timedelta | None = None) -> None:
    """After commit, queue an ETA task for each of the next few boundaries, so the worker
    holds them well before they are due (a stale one, after a pause or a jump, finds nothing
    to announce: the announcement is derived from the anchors). ``within``: every boundary
    before ``now + within`` instead (the sweep's, so a restarted worker that lost the ticks
    it held gets them again before they are due)."""
    if not anchor.running:
        return
    if within is None:
        upcoming = clock_engine.boundaries(items, anchor, now, now + timedelta(hours=2))[:3]
    else:
        upcoming = clock_engine.boundaries(items, anchor, now, now + within)[:MAX_SWEEP_TICKS]
    if not upcoming:
        return
    tid = t.pk

    def send() -> None:
        for index, at in upcoming:
            schedule.clock_tick(tid, index, at)

    transaction.on_commit(send)


def clock_announce(
    *, tournament_id: int, now: datetime | None = None, schedule_within: timedelta | None = None
) -> list[int]:
    """Record each level or break that has started since the last announcement, exactly once
    (LevelStarted / BreakStarted), and apply what a transition does: close late registration
    and rebuys at their levels (RULES 4.4), prepare a color-up break. Idempotent: the
    tournament lock and `clock_announced` make a second or concurrent run record nothing.
    ``schedule_within`` (the sweep's): also queue the ticks of the boundaries coming before
    ``now + schedule_within``, whether or not anything was recorded."""
    now = now or timezone.now()
    with tournament_action(tournament_id) as t:
        if not t.clock_started or t.status == Tournament.Status.FINISHED:
            return []
        items = structure_items(t)
        anchor = anchor_of(t)
        recorded = _announce_locked(t, items, anchor, now)
        if recorded:
            _freeze_if_closed(t)
            _schedule_next_boundary(t, items, anchor, now)
        if schedule_within is not None:
            _schedule_next_boundary(t, items, anchor, now, within=schedule_within)
    return recorded


def _announce_locked(t: Tournament, items, anchor: clock_engine.Anchor, now: datetime) -> list[int]:
    """The body of ``clock_announce`` for a caller holding the lock: record every item started
    under ``anchor`` since ``t.clock_announced`` (a paused anchor's own item too), apply its
    windows (RULES 4.4) and, at a color-up break, the color-up it prepares (RULES 5.1)."""
    if not anchor.started:
        return []
    state = clock_engine.state(items, anchor, now)
    if state.index <= t.clock_announced:
        return []
    recorded: list[int] = []
    for idx in range(t.clock_announced + 1, state.index + 1):
        item = items[idx]
        kind = "break_started" if item.kind == "break" else "level_started"
        closed = _apply_level_windows(t, idx)
        due = _item_start(items, anchor, idx, now)
        payload = {
            "index": idx,
            "due": due,
            "recorded_at": now.isoformat(),
            "closed": closed,
            "color_up": list(item.color_up),
        }
        if item.kind == "break" and item.color_up:
            due_at = datetime.fromisoformat(due) if due else now
            payload["color_up_pending"] = _color_up_prepared(t, due_at)
        record_event(t, kind, payload)
        recorded.append(idx)
    t.clock_announced = state.index
    Tournament.objects.filter(pk=t.pk).update(
        clock_announced=state.index,
        registration_open=t.registration_open,
        rebuys_open=t.rebuys_open,
    )
    return recorded


def _color_up_prepared(t: Tournament, at: datetime) -> dict[str, Any]:
    """What the color-up of the break starting at ``at`` will do (``colorup.colorup_pending``
    at that instant, RULES 5.1): the chips it removes, the chip each changes up into, the
    tables that have to race and the chips in play; recorded in the BreakStarted event, so
    the floor has the plan at the boundary (the color-up page derives the same live)."""
    from tourney.services.colorup import colorup_pending

    p = colorup_pending(t, at)
    return {
        "break_index": p["break_index"],
        "denominations": p["denominations"],
        "tables": [x["table"] for x in p["tables"] if x["to_race"]],
        "total_chips": p["total_chips"],
        "players_left": p["players_left"],
        "average_stack": p["average_stack"],
    }


def _item_start(items, anchor, idx, now) -> str | None:
    if anchor.at is None:
        return None
    for i, at in clock_engine.boundaries(items, anchor, anchor.at, now):
        if i == idx:
            return at.isoformat()
    return None


# ---------------------------------------------------------------- entries


def _player_for(name: str, player_id: int | None) -> Player:
    """The known player, or a new one (not yet saved: the caller inserts it)."""
    if player_id is not None:
        # beyond what the column holds is no player (and no overflow in the driver)
        p = Player.objects.filter(pk=player_id).first() if 0 < player_id < 2**63 else None
        if p is None:
            raise DomainError("not_found", "No such player.", status=404)
        return p
    name = " ".join((name or "").split())
    if not name:
        raise DomainError("bad_input", MSG_NAME_REQUIRED, fields={"name": MSG_NAME_REQUIRED})
    if len(name) > 120:
        raise DomainError("bad_input", MSG_NAME_TOO_LONG, fields={"name": MSG_NAME_TOO_LONG})
    if any(unicodedata.category(c) == "Cc" for c in name):  # NUL, bell, escape …
        raise DomainError("bad_input", MSG_NAME_CONTROL, fields={"name": MSG_NAME_CONTROL})
    return Player(name=name)


def entry_register(
    *,
    tournament_id: int,
    name: str = "",
    player_id: int | None = None,
    actor=None,
    override: bool = False,
) -> Entry:
    """Register and buy in one entry; draw its seat now (RULES 1.3) when the event seats at
    registration, else it waits for the draw at the start."""
    call = {
        "service": "entry_register",
        "kwargs": {"name": name, "player_id": player_id, "override": override},
    }
    with tournament_action(tournament_id, call=call) as t:
        if t.status == Tournament.Status.FINISHED:
            raise DomainError("tournament_finished", MSG_REGISTER_FINISHED, status=409)
        closed = not t.registration_open or (
            # RULES 4.4, from the clock itself: shut even before beat announces the level
            t.late_reg_until is not None and t.clock_started and clock_index(t) > t.late_reg_until
        )
        if closed and not override:
            raise DomainError("registration_closed", MSG_REGISTRATION_CLOSED, status=409)
        new_player = player_id is None
        player = _player_for(name, player_id)
        if (
            not new_player
            and Entry.objects.filter(tournament=t, player=player)
            .exclude(status=Entry.Status.BUSTED)
            .exists()
        ):
            raise DomainError(
                "player_still_in", MSG_PLAYER_STILL_IN, status=409, fields={"player_id": player_id}
            )
        return entry_add(t, player, actor=actor)


def entry_add(t: Tournament, player: Player, *, actor=None) -> Entry:
    """The new entry of ``player`` (a new, unsaved Player is inserted with it), bought in
    and seated: ``entry_register`` once its checks passed, and a re-entry (tourney.services.money),
    inside the caller's action on ``t``. ``entry.seat_move``: its seating (``seat_entry``'s
    move: "to" table and seat), None while it waits for the draw or a seat."""
    from tables.models import Seat
    from tables.services import seat_entry

    if not t.registration_open:  # a director's override: a deal needs registration closed
        from tourney.services.money import refuse_after_deal

        refuse_after_deal(t)  # RULES 8.3: the deal's amounts would no longer add up
    new_player = player.pk is None
    # RULES 1.3: once the home game's seats are drawn (or play started), a late arrival draws
    # a seat from the same pool at once: the draw at the start cannot be run again.
    seat_now = (
        t.draw_at_registration or t.clock_started or Seat.objects.filter(tournament=t).exists()
    )
    entry = Entry(
        tournament=t,
        player=player,
        # Seated at once (RULES 1.3) unless it waits for the draw at the start; seat_entry
        # makes it an alternate if every seat is taken.
        status=Entry.Status.SEATED if seat_now else Entry.Status.REGISTERED,
        chips_bought=t.starting_stack,
        paid=t.buy_in,
        fee_paid=t.fee,
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    # Plain SQL, the next number computed by the INSERT itself (the row lock serialises);
    # a new player is inserted by the same statement where the database allows it.
    values = {"number": (NEXT_NUMBER_SQL, [t.pk])}
    if new_player:
        values["player_id"] = ("(SELECT id FROM w)", [])
    # On PostgreSQL the late entry's step of ``place_lag`` (RULES 7.1) rides along (below).
    step = (
        (LAG_STEP_SQL, [t.pk, t.pk, t.pk, t.pk], LAG_STEP_SUMMARY)
        if combined_statements()
        else None
    )
    stepped = insert_row(entry, sql_values=values, with_=player if new_player else None, also=step)
    number = entry.number
    if j := journal_current():
        j.note_created("entry", [entry.pk])
        if new_player:
            j.note_created("player", [player.pk])
    event = record_event(
        t,
        "entry_registered",
        {"entry": entry.pk, "number": number, "name": player.name},
        actor,
        defer=True,
    )
    entry.seat_move = seat_entry(t, entry, event=event, last=True) if seat_now else None
    _places_move_down(t, done=stepped or None)
    if t.frozen_prizes is not None:  # a director's late override: share the new money
        from tourney.services.money import _log_refreeze, _money_added

        _log_refreeze(event, _money_added(t))  # RULES 8.2: a change of frozen prizes is logged
    return entry


ENTRY = Entry._meta.db_table
NEXT_NUMBER_SQL = (
    f"(SELECT COALESCE(MAX(number), 0) + 1 FROM {Entry._meta.db_table} WHERE tournament_id = %s)"
)


# RULES 7.1: a late entry moves every player already out one place down, counted in
# ``Tournament.place_lag`` instead of in their rows (see there); only when someone is out.
_OUT = (
    f"FROM {ENTRY} WHERE tournament_id = %s AND status = '{Entry.Status.BUSTED.value}' "
    "AND place IS NOT NULL"
)
# On PostgreSQL, with what ``prizes_refresh`` asks about the finishers (their best stored
# place, how many hold a prize or a deal), in the new entry's INSERT; NULLs: nobody is out.
LAG_STEP_SQL = (
    f"UPDATE {Tournament._meta.db_table} SET place_lag = place_lag + 1 "
    f"WHERE id = %s AND EXISTS (SELECT 1 {_OUT}) "
    f"RETURNING place_lag, (SELECT MIN(place) {_OUT}) AS best, "
    f"(SELECT COUNT(*) {_OUT} AND (prize > 0 OR deal_amount IS NOT NULL)) AS prized"
)
LAG_STEP_SUMMARY = [f"(SELECT {c} FROM also)" for c in ("place_lag", "best", "prized")]


def _places_move_down(t: Tournament, *, done: tuple | None = None) -> None:
    """Places count from the bottom of the whole field (RULES 7.1): while late entries keep
    arriving, every player already out finishes one place lower per new entry (the first out
    finishes last). One step of ``place_lag`` says so for all of them; undo restores it.

    On PostgreSQL the step runs inside the new entry's INSERT (``done``: what it returned,
    ``LAG_STEP_SUMMARY``), with what ``prizes_refresh`` asks about the finishers. Elsewhere
    the finishers are read first and the step is a statement of its own."""
    from tourney.services.money import finishers_of, prizes_refresh

    if done is not None:
        lag, best, prized = done
    else:
        best, prized = finishers_of(t)
        lag = None
    if best is None:
        return  # nobody is out yet
    if lag is None:
        place_lag_step(t, +1)
    else:
        t.place_lag = lag
    # only if someone out now holds, or held, a paid place or a prize
    prizes_refresh(t, finishers=(best + t.place_lag, prized))


def place_lag_step(t: Tournament, by: int) -> None:
    """Every busted entry's place moves ``by`` (RULES 7.1: an entry more or fewer below
    them): ``place_lag`` steps, no entry row is written."""
    with kept_cursor() as cursor:  # plain SQL: every late entry on SQLite
        cursor.execute(
            f"UPDATE {Tournament._meta.db_table} SET place_lag = place_lag + %s WHERE id = %s",
            [by, t.pk],
        )
    t.place_lag += by


PLACES_SETTLE_SQL = (
    f"UPDATE {ENTRY} SET place = place + %s, place_to = place_to + %s "
    "WHERE tournament_id = %s AND status = %s AND place IS NOT NULL"
)


def places_provisional(t: Tournament, now: datetime | None = None) -> bool:
    """Whether the places of the players out can still change without an undo (docs/rules.md
    7.6, 7.7): while late entries, re-entries and alternates can still come (registration
    open and its last level not passed, RULES 4.4) each new entry moves them one place down;
    in hand-for-hand play a later bust of the same round shares the round's places anew
    (RULES 7.3). Once the tournament is over, nothing can come."""
    if t.status == Tournament.Status.FINISHED:
        return False
    if t.hand_for_hand:
        return True
    if not t.registration_open:
        return False
    return not (
        t.late_reg_until is not None and t.clock_started and clock_index(t, now) > t.late_reg_until
    )


def places_settle(t: Tournament) -> None:
    """Write ``place_lag`` into the busted entries' places and set it to 0 (the places
    themselves do not change). Undo moves them back (``journal.shift_places``)."""
    lag = t.place_lag
    if not lag:
        return
    with kept_cursor() as cursor:  # plain SQL: once per late registration, mostly
        cursor.execute(PLACES_SETTLE_SQL, [lag, lag, t.pk, Entry.Status.BUSTED.value])
    if j := journal_current():
        j.shift_places += lag
    Tournament.objects.filter(pk=t.pk).update(place_lag=0)
    t.place_lag = 0


def elimination_record(
    *, tournament_id: int, busts: Sequence[tuple[int, int]], actor=None
) -> dict[str, Any]:
    """Players broke in one hand, with their stacks at the start of it (RULES 7.1–7.3):
    places, then the breaks, redraws and balancing moves this causes (RULES 3), at once.

    Places (docs/rules.md 7.5–7.7): the players still in before the hand are every entry not
    out, seated or waiting on the alternate list (an alternate has bought in and holds a
    starting stack); the ``k`` players out take the ``k`` places just above them. Places count
    from the bottom of the whole field, so while entries can still come (``places_provisional``)
    each new entry moves every player already out one place down (``place_lag``); the answer
    says ``provisional`` then, and once registration closes the places are final: every entry
    ends with a place 1..N of its own (ties aside) in bust order."""
    from tables.models import Seat, Table
    from tables.services import (
        SUMMARY_COLUMNS,
        nothing_to_rebalance,
        rebalance,
        seat_alternates,
        settled_after,
        summary_of,
        summary_select,
    )

    if not busts:
        raise DomainError("bad_input", MSG_NO_BUSTS, fields={"entries": MSG_NO_BUSTS})
    ids = [b[0] for b in busts]
    if len(set(ids)) != len(ids):
        raise DomainError("bad_input", MSG_DUPLICATE_ENTRY, fields={"entries": MSG_DUPLICATE_ENTRY})
    # RULES 7.1: the starting stacks only order players out in the same hand; one player
    # alone needs none (stored as unknown).
    stackless = [eid for eid, stack in busts if stack is None]
    if stackless and len(busts) > 1:
        raise DomainError(
            "bad_input",
            MSG_STACKS_NEEDED,
            fields={"entries": MSG_STACKS_NEEDED, "id": stackless[0]},
        )
    call = {"service": "elimination_record", "kwargs": {"busts": [list(b) for b in busts]}}
    with tournament_action(tournament_id, call=call) as t:
        if t.status == Tournament.Status.FINISHED:
            raise DomainError("tournament_finished", MSG_TOURNAMENT_FINISHED, status=409)
        if stackless and t.hand_for_hand:
            # RULES 7.3: every bust of a hand-for-hand round counts as one hand.
            raise DomainError("bad_input", MSG_STACK_IN_H4H, fields={"entries": MSG_STACK_IN_H4H})
        # The entries with their seats and tables, and the open tables in totals, in one
        # read. Every seated entry sits at an open table, and each table's count is kept by
        # the seat triggers: the totals give the players still in, and whether anything is
        # to break or balance after this hand, without reading every table. The tables
        # where players break are counted apart (``open_summary``).
        totals, totals_params = summary_select(
            t,
            f"id NOT IN (SELECT table_id FROM {Seat._meta.db_table} "
            f"WHERE tournament_id = %s AND entry_id IN ({marks(ids)}))",
            [t.pk, *ids],
        )
        found = load_rows_with(
            Entry,
            f"{ENTRY}.tournament_id = %s AND {ENTRY}.id IN ({marks(ids)})",
            [t.pk, *ids],
            extra="s.table_id, tb.number, s.number, s.waits_for_button, tb.players, "
            + ", ".join(f"summary.s{i}" for i in range(SUMMARY_COLUMNS)),
            extra_params=totals_params,
            joins=f"LEFT JOIN {Seat._meta.db_table} s ON s.entry_id = {ENTRY}.id "
            f"LEFT JOIN {Table._meta.db_table} tb ON tb.id = s.table_id "
            f"CROSS JOIN ({totals}) summary",
        )
        entries = {e.pk: e for e, _ in found}
        for eid in ids:
            e = entries.get(eid)
            if e is None:
                raise DomainError(
                    "entry_not_found", MSG_ENTRY_NOT_FOUND, status=404, fields={"id": eid}
                )
            if e.status != Entry.Status.SEATED:
                raise DomainError(
                    "entry_not_seated", MSG_ENTRY_NOT_SEATED, status=409, fields={"id": eid}
                )
        seat_rows = [
            (e.pk, tid, tn, s, bool(w)) for e, (tid, tn, s, w, *_) in found if tid is not None
        ]
        where = {e: (tn, s) for e, _, tn, s, _ in seat_rows}
        summary = summary_of(found[0][1][5:], {x[1]: x[4] for _, x in found if x[0] is not None})
        waiting = summary.waiting if summary.tables else None
        seated_now = summary.players
        if len(ids) >= seated_now:  # even with alternates waiting, a hand has a winner
            raise DomainError(
                "no_winner",
                places_engine.MSG_NO_WINNER,
                fields={"busted": len(ids), "players_before": seated_now},
                status=409,
            )
        # RULES 7.1 (docs/rules.md 7.5): the players still in are the seated ones and the
        # alternates waiting for a seat: they are entries, and finish above this hand's busts.
        still_in = seated_now + (waiting or 0)
        # Busted places are stored less ``place_lag`` (RULES 7.1 during late registration):
        # written into the rows first when this hand's could drop below 1 or end the day,
        # and in hand-for-hand play, where the round's earlier busts are placed anew.
        if t.place_lag and (t.hand_for_hand or still_in - len(ids) <= max(t.place_lag, 1)):
            places_settle(t)
        lag = t.place_lag
        busts_all = [
            places_engine.Bust(
                entry=eid,
                starting_stack=1 if stack is None else stack,  # alone in its hand
                table=where.get(eid, (0, 0))[0],
                seat=where.get(eid, (0, 0))[1],
            )
            for eid, stack in busts
        ]
        players_before = still_in
        earlier: list[Entry] = []
        if t.hand_for_hand:
            # RULES 7.3: every bust of this hand-for-hand round counts as one hand.
            earlier = list(
                Entry.objects.filter(
                    tournament=t, h4h_round=t.hand_for_hand_round, status=Entry.Status.BUSTED
                )
            )
            players_before += len(earlier)
            busts_all += [
                places_engine.Bust(
                    entry=e.pk,
                    starting_stack=e.bust_stack or 0,
                    table=e.bust_table or 0,
                    seat=e.bust_seat or 0,
                )
                for e in earlier
            ]
        placed = places_engine.assign_places(players_before=players_before, busted=busts_all)
        if j := journal_current():
            j.note_entry_rows([*entries.values(), *earlier])
            j.note_seat_rows([(e, tid, s, w) for e, tid, _, s, w in seat_rows])
        now = timezone.now()
        # The event, the first bust and the seats freed are one statement where the database
        # allows it (PostgreSQL: INSERT and DELETE in WITH); the event's id is each bust's hand.
        event = record_event(
            t, "elimination", {"busts": [list(b) for b in busts]}, actor, defer=True
        )
        if j is not None:
            for prior in j.events[:-1]:  # event ids follow the order they were recorded in
                event_saved(prior)
            j.note_seats(ids)  # known from the read above: no query
        by_entry = {p.entry: p for p in placed}
        before_rows, bust_rows = {}, []
        for eid, stack in busts:
            e = entries[eid]
            before_rows[eid] = {
                "status": e.status,
                "table": where.get(eid, (None, None))[0],
                "seat": where.get(eid, (None, None))[1],
            }
            p = by_entry[eid]
            e.bust_table, e.bust_seat = where.get(eid, (None, None))
            bust_rows.append(
                [
                    Entry.Status.BUSTED.value,
                    p.place - lag,
                    p.place_to - lag,
                    stack,
                    e.bust_table,
                    e.bust_seat,
                    connection.ops.adapt_datetimefield_value(now),
                    t.hand_for_hand_round if t.hand_for_hand else None,
                    eid,
                ]
            )
        from tourney.services.money import place_is_paid, prizes_assign, prizes_assign_placed

        gone = Counter(tn for tn, _ in where.values())
        dealt = any(e.deal_amount is not None for e in entries.values())  # RULES 8.3 deal
        # Most hands: nobody waits for a seat, nothing breaks or balances, play goes on and
        # the new places are below the paid ones. Then the outcome is known before anything
        # is written, and the event (with its undo data), the counters, the freed seats and
        # the busts are one statement.
        quiet = (
            j is not None
            and combined_statements()
            and waiting == 0
            and not earlier
            and not dealt
            and seated_now - len(ids) > 1
            and settled_after(t, summary, gone)
            and not place_is_paid(t, min(p.place for p in placed), top=summary.top_number)
        )
        if quiet:
            result = nothing_to_rebalance(t)
            event.payload = _elimination_payload(busts, placed, before_rows, result, None)
            _write_busts(t, event, ids, bust_rows, counters=j.seal(event))
            return _elimination_answer(placed, entries, result, None, places_provisional(t))
        _write_busts(t, event, ids, bust_rows)
        for e in earlier:  # the round's earlier busts share the places anew (RULES 7.3)
            p = by_entry[e.pk]
            if (e.place, e.place_to) != (p.place, p.place_to):
                Entry.objects.filter(pk=e.pk).update(place=p.place, place_to=p.place_to)
        alternates = seat_alternates(t, event=event, waiting=waiting)
        if not alternates and settled_after(t, summary, gone):
            result = nothing_to_rebalance(t)  # most hands: no table read at all
        else:
            result = rebalance(t, event=event)  # reads the open tables as they are now
        result["moves"] = alternates + result["moves"]
        winner = None
        if seated_now - len(ids) + len(alternates) <= 1:
            remaining = list(
                Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).order_by()[:2]
            )
            if len(remaining) == 1:
                winner = remaining[0]
                if j := journal_current():
                    j.note_entries([winner.pk])
                winner.place = winner.place_to = 1
                winner.save(update_fields=["place", "place_to"])
                t.status = Tournament.Status.FINISHED
                Tournament.objects.filter(pk=t.pk).update(status=t.status)
                tournament_end(t, now=now)
        # An elimination changes no money: only the places it gave can change prizes. Far
        # from the money (every new place below the paid ones) there is nothing to assign;
        # with the prizes frozen, only the entries just placed get theirs.
        if winner is not None or dealt:
            prizes_assign(t)
        elif place_is_paid(t, min(p.place for p in placed), top=summary.top_number):
            if t.frozen_prizes is not None:
                rows = {e.pk: e for e in [*entries.values(), *earlier]}  # read above
                prizes_assign_placed(
                    t,
                    [p.entry for p in placed],
                    finished=[
                        (
                            p.entry,
                            p.place,
                            p.place_to,
                            rows[p.entry].bust_table or 0,
                            rows[p.entry].bust_seat or 0,
                            rows[p.entry].prize,
                        )
                        for p in placed
                    ],
                )
            else:
                prizes_assign(t)
        event_payload_set(event, _elimination_payload(busts, placed, before_rows, result, winner))
        provisional = places_provisional(t)
    return _elimination_answer(placed, entries, result, winner, provisional)


def tournament_end(t: Tournament, *, now: datetime) -> None:
    """One player is left: the tournament is over (called by ``elimination_record`` with the
    lock held, after it marks the tournament finished). The clock stops where it stands, so
    every screen shows it finished and the worker's ticks and sweeps find nothing to announce
    (``clock_announce`` and ``clock_sweep`` skip finished tournaments). The elimination's
    journal keeps the clock's anchor as it was before: undoing the last bust (RULES 7.4)
    puts back the running clock, which reads exactly as if it had never stopped."""
    if not t.clock_started:
        return
    after = clock_engine.stop(structure_items(t), anchor_of(t), now)
    _store_anchor(t, after)
    Tournament.objects.filter(pk=t.pk).update(
        clock_index=t.clock_index,
        clock_left_ms=t.clock_left_ms,
        clock_at=t.clock_at,
        clock_running=t.clock_running,
    )


def _elimination_payload(busts, placed, before_rows, result, winner) -> dict[str, Any]:
    return {
        "busts": [list(b) for b in busts],
        "places": [{"entry": p.entry, "place": p.place, "place_to": p.place_to} for p in placed],
        "before": before_rows,
        "moves": [m["id"] for m in result["moves"]],
        "winner": winner.pk if winner else None,
        "seed": result.get("seed"),
    }


def _elimination_answer(placed, entries, result, winner, provisional) -> dict[str, Any]:
    return {
        "places": [
            {"entry": p.entry, "place": p.place, "place_to": p.place_to}
            for p in placed
            if p.entry in entries
        ],
        "moves": result["moves"],
        "winner": winner.pk if winner else None,
        # docs/rules.md 7.6: the places may still move down (entries can still come)
        "provisional": provisional,
    }


# ``hand``: the event's id, or the SQL that gives it.
BUST_SQL = (
    f"UPDATE {Entry._meta.db_table} SET status = %s, place = %s, place_to = %s, "
    "bust_stack = %s, bust_hand = {hand}, bust_table = %s, bust_seat = %s, busted_at = %s, "
    "h4h_round = %s WHERE id = %s"
)


def _write_busts(t: Tournament, event: Event, ids, bust_rows, *, counters=None) -> None:
    """The busts (``BUST_SQL`` values), their seats freed and the event inserted (its id is
    each bust's hand), in one statement on PostgreSQL; ``counters``: the tournament's, with
    them (a sealed journal's). Plain SQL: every elimination."""
    from tables.models import Seat
    from tables.services import unseat

    unseat_sql = (
        f"DELETE FROM {Seat._meta.db_table} WHERE tournament_id = %s AND entry_id IN ({marks(ids)})"
    )
    unseated = False
    with kept_cursor() as cursor:
        for values in bust_rows:
            if event.pk is None and combined_statements():
                insert, params = insert_statement(event)
                ctes = [f"ev AS ({insert} RETURNING id)", f"gone AS ({unseat_sql})"]
                params += [t.pk, *ids]
                if counters:
                    items, head_params = counters.ctes()
                    ctes += items
                    params += head_params
                cursor.execute(
                    f"WITH {', '.join(ctes)} "
                    + BUST_SQL.format(hand="(SELECT id FROM ev)")
                    + " RETURNING bust_hand",
                    [*params, *values],
                )
                event.pk = cursor.fetchone()[0]
                event._state.adding = False
                unseated = True
            else:
                assert counters is None or unseated  # written with the first bust
                event_saved(event)
                cursor.execute(BUST_SQL.format(hand=event.pk), values)
    if not unseated:
        unseat(t, ids)


def hand_for_hand_set(*, tournament_id: int, on: bool, actor=None) -> Tournament:
    """RULES 7.3: while on, every bust of one round counts as one hand. Turning it on starts
    round 1 of a new sequence."""
    with tournament_action(tournament_id) as t:
        if on and not t.hand_for_hand:
            t.hand_for_hand_round += 1
        t.hand_for_hand = on
        t.save(update_fields=["hand_for_hand", "hand_for_hand_round"])
        record_event(t, "hand_for_hand", {"on": on, "round": t.hand_for_hand_round}, actor)
    return t


def hand_for_hand_next_round(*, tournament_id: int, actor=None) -> Tournament:
    """Every table has played its hand: the next hand-for-hand round begins (RULES 7.3)."""
    with tournament_action(tournament_id) as t:
        if not t.hand_for_hand:
            raise DomainError("not_hand_for_hand", "Hand-for-hand play is off.", status=409)
        t.hand_for_hand_round += 1
        t.save(update_fields=["hand_for_hand_round"])
        record_event(t, "hand_for_hand_round", {"round": t.hand_for_hand_round}, actor)
    return t


MSG_STRUCTURE_PAST = "Levels already played or running cannot change; edit the ones after."
MSG_STRUCTURE_PROBLEMS = "The structure breaks the chip rules (RULES 4.5, 5.1)."


def structure_set(
    *, tournament_id: int, levels: list[dict[str, Any]], actor=None, now: datetime | None = None
) -> tuple[clock_engine.Item, ...]:
    """Replace the structure (RULES 4.1). Before the start anything goes; once the clock runs,
    the items up to and including the current one must stay as they are (the clock's anchor
    stays valid and no played level is rewritten). The new structure must keep every blind and
    ante a multiple of the smallest chip in play (RULES 4.5) and color up only chips no later
    level needs (RULES 5.1)."""
    items = structure_engine.parse_levels(levels)
    now = now or timezone.now()
    with tournament_action(tournament_id) as t:
        old = structure_items(t)
        if t.clock_started:
            current = clock_engine.state(old, anchor_of(t), now).index
            if tuple(items[: current + 1]) != tuple(old[: current + 1]):
                raise DomainError(
                    "structure_past",
                    MSG_STRUCTURE_PAST,
                    status=409,
                    fields={"levels": f"keep items 0..{current} unchanged"},
                )
        chips = list(ChipDenomination.objects.filter(tournament=t).values_list("value", flat=True))
        problems = structure_engine.check_structure(items, chips)
        if problems:
            raise DomainError(
                "bad_structure", MSG_STRUCTURE_PROBLEMS, fields={"levels": "; ".join(problems)}
            )
        if not t.clock_started:
            _store_anchor(t, clock_engine.initial_anchor(items))
            t.save(
                update_fields=[
                    "clock_index",
                    "clock_left_ms",
                    "clock_at",
                    "clock_running",
                    "clock_started",
                ]
            )
        if j := journal_current():
            j.note_levels(old)
        _write_levels(t, items)
        record_event(t, "structure_set", {"before": len(old), "after": len(items)}, actor)
    return items


# ---------------------------------------------------------------- re-entry, closing registration
# (RULES 1.3, 4.4, 8.2: money actions that add an entry or freeze the payouts, so they live
# with ``entry_add`` and ``_freeze_if_closed``; tourney/services/money.py never imports this module)


def entry_reenter(
    *,
    tournament_id: int,
    entry_id: int,
    actor=None,
    now: datetime | None = None,
    override: bool = False,
) -> Entry:
    """A re-entry: a new Entry of the busted entry's player (RULES 1.3: seated like any late
    entry), while registration is open and the player has re-entries left. ``override``: the
    director's, after registration closed (as ``entry_register``'s); callers check the role."""
    kwargs = {"entry_id": entry_id, "now": now.isoformat() if now else None}
    if override:
        kwargs["override"] = True
    with _action(tournament_id, "entry_reenter", kwargs) as t:
        old, entries, still_in = _reentry_of(t, entry_id)
        if old.status != Entry.Status.BUSTED:
            raise DomainError(
                "entry_not_busted", MSG_REENTRY_NOT_BUSTED, status=409, fields={"entry": old.pk}
            )
        closed = not t.registration_open or _window_passed(t, t.late_reg_until, now)
        if closed and not override:
            raise DomainError("registration_closed", MSG_REGISTRATION_CLOSED, status=409)
        if still_in:
            raise DomainError(
                "player_still_in", MSG_REENTRY_STILL_IN, status=409, fields={"entry": old.pk}
            )
        used = entries - 1
        if used >= t.reentries_allowed:
            raise DomainError(
                "no_reentries_left",
                MSG_NO_REENTRIES,
                status=409,
                fields={"allowed": t.reentries_allowed, "used": used},
            )
        # Bought in and seated like any late entry (RULES 1.3), the prizes following the
        # new money and places (RULES 7.1, 8.2), under this action's lock.
        new = entry_add(t, old.player, actor=actor)
        record_event(
            t,
            "entry_reentered",
            {"entry": new.pk, "from_entry": old.pk, "player": old.player_id, "reentry": used + 1},
            actor,
        )
    return new


_MINE = f"FROM {ENTRY} m WHERE m.tournament_id = %s AND m.player_id = p.id"


def _reentry_of(t: Tournament, entry_id: int) -> tuple[Entry, int, bool]:
    """The entry a re-entry comes from, with its player, how many entries that player has in
    ``t`` and whether one of them is still in: one plain read (a re-entry is a hot path of
    late registration)."""
    found = load_rows_with(
        Entry,
        f"{ENTRY}.tournament_id = %s AND {ENTRY}.id = %s",
        [t.pk, entry_id],
        extra=f"p.name, p.nickname, (SELECT COUNT(*) {_MINE}), "
        f"EXISTS (SELECT 1 {_MINE} AND m.status <> %s)",
        extra_params=[t.pk, t.pk, Entry.Status.BUSTED.value],
        joins=f"JOIN {Player._meta.db_table} p ON p.id = {ENTRY}.player_id",
    )
    if not found:
        raise DomainError(
            "entry_not_found", MSG_ENTRY_NOT_FOUND, status=404, fields={"entry": entry_id}
        )
    old, (name, nickname, entries, still_in) = found[0]
    # The player as select_related would give it, its other fields deferred.
    old.player = Player.from_db(
        old._state.db, ["id", "name", "nickname"], [old.player_id, name, nickname]
    )
    return old, entries, bool(still_in)


def registration_close(*, tournament_id: int, rebuys: bool = False, actor=None) -> list[str]:
    """The director closes late registration now (and with ``rebuys`` the rebuy period), as
    the clock does at the configured level (RULES 4.4): for events with no such level, or a
    director's early call. The payouts freeze (RULES 8.2). Returns what it closed."""
    with _action(tournament_id, "registration_close", {"rebuys": rebuys}) as t:
        closed = []
        if t.registration_open:
            t.registration_open = False
            closed.append("registration")
        if rebuys and t.rebuys_open:
            t.rebuys_open = False
            closed.append("rebuys")
        if not closed:
            raise DomainError("already_closed", MSG_ALREADY_CLOSED, status=409)
        Tournament.objects.filter(pk=t.pk).update(
            registration_open=t.registration_open, rebuys_open=t.rebuys_open
        )
        _freeze_if_closed(t, actor)
        record_event(t, "registration_closed", {"closed": closed}, actor)
    return closed
