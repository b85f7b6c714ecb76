"""Entries: registration, re-entry, closing registration, and the places the entries
already out move down by while the field still grows (RULES 8.2)."""

from __future__ import annotations

import unicodedata
from datetime import datetime

from django.utils.translation import gettext_noop as N_

from tourney.core.event_rows import (
    combined_statements,
)
from tourney.core.events import record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.core.rows import insert as insert_row
from tourney.core.rows import kept_cursor
from tourney.core.rows import load_with as load_rows_with
from tourney.engine.errors import DomainError
from tourney.models import Entry, Player, Tournament
from tourney.selectors.bounties import buy_in_split, starting_bounty
from tourney.selectors.clock import clock_index
from tourney.selectors.money import finishers_of
from tourney.services.money import (
    MSG_ALREADY_CLOSED,
    MSG_NO_REENTRIES,
    MSG_REENTRY_NOT_BUSTED,
    MSG_REENTRY_STILL_IN,
    _action,
    _window_passed,
)

MSG_ENTRY_NOT_FOUND = N_("No such entry in this tournament.")
MSG_NAME_REQUIRED = N_("The name is empty: type the player name first.")
MSG_NAME_TOO_LONG = N_("The name is too long (120 characters at most).")
MSG_NAME_CONTROL = N_("The name holds control characters; type it again.")
MSG_PLAYER_STILL_IN = N_("This player already has an entry in play.")
MSG_REGISTRATION_CLOSED = N_("Registration is closed.")
MSG_REGISTER_FINISHED = N_(
    "The tournament is over: one player is left, so nobody can register any more. "
    "Undo the last elimination on the dashboard if it was a mistake."
)


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


# ---------------------------------------------------------------- entries


def _player_for(name: str, player_id: int | None) -> Player:
    """The known player, or a new one (not yet saved: the caller inserts it)."""
    if player_id is not None:
        # beyond what the column holds is no player (and no overflow in the driver)
        p = Player.objects.filter(pk=player_id).first() if 0 < player_id < 2**63 else None
        if p is None:
            raise DomainError("not_found", N_("No such player."), status=404)
        while p.merged_into_id is not None:  # issue 27: a merged record's entries go on
            p = Player.objects.get(pk=p.merged_into_id)  # the kept one (a stale desk page)
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
    from tables.services.seating import seat_entry

    if not t.registration_open:  # a director's override: a deal needs registration closed
        from tourney.services.money import refuse_after_deal

        refuse_after_deal(t)  # RULES 8.3: the deal's amounts would no longer add up
    new_player = player.pk is None
    # RULES 1.3: once the home game's seats are drawn (or play started), a late arrival draws
    # a seat from the same pool at once: the draw at the start cannot be run again.
    decided = t.draw_at_registration or t.clock_started
    entry = Entry(
        tournament=t,
        player=player,
        # Seated at once (RULES 1.3) unless it waits for the draw at the start; seat_entry
        # makes it an alternate if every seat is taken.
        status=Entry.Status.SEATED if decided else Entry.Status.REGISTERED,
        chips_bought=t.starting_stack,
        paid=t.buy_in,
        fee_paid=t.fee,
        # RULES 9.1: a new bounty with every entry (none on a mystery head)
        bounty_paid=buy_in_split(t).bounty,
        bounty=starting_bounty(t),
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    # Plain SQL, the next number computed by the INSERT itself (the row lock serialises);
    # a new player is inserted by the same statement where the database allows it.
    values = {"number": (NEXT_NUMBER_SQL, [t.pk])}
    if not decided:  # seated at once if any seat is drawn already: asked by the INSERT
        values["status"] = (_seated_if_drawn(t), [])
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
    seat_now = entry.status == Entry.Status.SEATED
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


def _seated_if_drawn(t: Tournament) -> str:
    """The new entry's status, seated if any seat of ``t`` is drawn (RULES 1.3). The id is
    written in the statement (an integer): bound, PostgreSQL's generic plan of the prepared
    INSERT scanned every seat of the room for an event with none drawn yet."""
    return (
        f"(CASE WHEN EXISTS (SELECT 1 FROM tables_seat WHERE tournament_id = {int(t.pk)}) "
        f"THEN '{Entry.Status.SEATED.value}' ELSE '{Entry.Status.REGISTERED.value}' END)"
    )


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
    from tourney.services.money import prizes_refresh

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
