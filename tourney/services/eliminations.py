"""Eliminations: the busts of one hand (places, prizes, unseating, rebalancing), whether
places are still provisional, hand for hand, and the end of the tournament."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from tourney.core.event_rows import (
    combined_statements,
    insert_statement,
)
from tourney.core.events import event_payload_set, event_saved, record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.core.messages import MSG_TOURNAMENT_FINISHED
from tourney.core.rows import kept_cursor, marks
from tourney.core.rows import load_with as load_rows_with
from tourney.engine import clock as clock_engine
from tourney.engine import places as places_engine
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Tournament
from tourney.selectors.clock import anchor_of, clock_index, structure_items
from tourney.selectors.money import place_is_paid
from tourney.services.clock import _store_anchor
from tourney.services.entries import ENTRY, MSG_ENTRY_NOT_FOUND, places_settle
from tourney.services.flights import flight_end_after_busts

MSG_ENTRY_NOT_SEATED = N_("This entry is not in play (already out or not seated).")
MSG_DUPLICATE_ENTRY = N_("The same entry is listed twice.")
MSG_NO_BUSTS = N_("List at least one entry.")
MSG_STACKS_NEEDED = N_(
    "Several players are out in this hand: give each one's stack at the start of the hand "
    "(the bigger stack finishes higher)."
)
MSG_STACK_IN_H4H = N_(
    "Hand for hand is on: give the player's stack at the start of the hand (every bust of "
    "the round is ordered by it)."
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


def elimination_record(
    *,
    tournament_id: int,
    busts: Sequence[tuple[int, int]],
    winners: Mapping[Any, Sequence[int]] | Sequence[int] | None = None,
    actor=None,
) -> dict[str, Any]:
    """Players broke in one hand, with their stacks at the start of it (RULES 7.1–7.3):
    places, then the breaks, redraws and balancing moves this causes (RULES 3), at once.

    Places (docs/rules.md 7.5–7.7): the players still in before the hand are every entry not
    out, seated or waiting on the alternate list (an alternate has bought in and holds a
    starting stack); the ``k`` players out take the ``k`` places just above them. Places count
    from the bottom of the whole field, so while entries can still come (``places_provisional``)
    each new entry moves every player already out one place down (``place_lag``); the answer
    says ``provisional`` then, and once registration closes the places are final: every entry
    ends with a place 1..N of its own (ties aside) in bust order.

    ``winners`` (RULES 9.5-9.7): who won the pot that busted them, for the hand or by busted
    entry (``bounties.winners_by_bust``); the bounties move in this action (undo: 9.11).

    Steps: validate (``_busts_checked``, ``_busted_read``), order (``_busts_placed``), unseat
    (``_bust_rows``, ``_write_busts``), knockouts, rebalance, place and pay, record."""
    from tables.services.balancing import nothing_to_rebalance
    from tourney.services.bounties import knockouts_check, knockouts_record, winners_by_bust

    ids, stackless = _busts_checked(busts)
    by_bust = winners_by_bust(ids, winners)
    with tournament_action(tournament_id, call=_redo_call(busts, by_bust)) as t:
        if t.status == Tournament.Status.FINISHED:
            raise DomainError("tournament_finished", MSG_TOURNAMENT_FINISHED, status=409)
        if stackless and t.hand_for_hand:  # RULES 7.3: a round's busts count as one hand
            raise DomainError("bad_input", MSG_STACK_IN_H4H, fields={"entries": MSG_STACK_IN_H4H})
        entries, seat_rows, where, summary, waiting = _busted_read(t, ids)
        winner_seats = knockouts_check(t, busted=entries, winners=by_bust)  # before any write
        seated_now = summary.players
        # RULES 7.1 (docs/rules.md 7.5): the players still in are the seated ones and the
        # alternates waiting for a seat: they are entries, and finish above this hand's busts.
        still_in = seated_now + (waiting or 0)
        placed, earlier, lag = _busts_placed(t, busts, where, still_in)
        j = _journaled(ids, [*entries.values(), *earlier], seat_rows)
        now = timezone.now()
        # The event, the first bust and the seats freed are one statement where the database
        # allows it (PostgreSQL: INSERT and DELETE in WITH); the event's id is each bust's hand.
        event = record_event(
            t, "elimination", {"busts": [list(b) for b in busts]}, actor, defer=True
        )
        if j is not None:
            for prior in j.events[:-1]:  # event ids follow the order they were recorded in
                event_saved(prior)
        by_entry = {p.entry: p for p in placed}
        before_rows, bust_rows = _bust_rows(t, busts, entries, where, by_entry, lag, now)
        gone = Counter(tn for tn, _ in where.values())
        dealt = any(e.deal_amount is not None for e in entries.values())  # RULES 8.3 deal
        # A quiet hand (``_quiet_hand``): the outcome is known before anything is written;
        # the event (with its undo data), counters, freed seats and busts are one statement.
        if (
            j is not None
            and waiting == 0
            and not (earlier or dealt or by_bust)
            and _quiet_hand(t, summary, gone, placed, left=seated_now - len(ids))
        ):
            result = nothing_to_rebalance(t)
            event.payload = _elimination_payload(busts, placed, before_rows, result, None, [])
            _write_busts(t, event, ids, bust_rows, counters=j.seal(event))
            return _elimination_answer(placed, entries, result, None, places_provisional(t), [])
        _write_busts(t, event, ids, bust_rows)
        # RULES 9: the bounties go before anyone moves (the winners are paid where they sat).
        paid = knockouts_record(t, event.pk, entries, by_bust, still_in, winner_seats)
        _places_shared(earlier, by_entry)
        result, alternates = _tables_after(t, event, waiting, summary, gone)
        winner = _winner_if_last(t, seated_now - len(ids) + len(alternates), now, event, paid)
        flight_end_after_busts(t, now=now, actor=actor)  # RULES 10.2: a flight's field size
        _prizes_after(t, placed, [*entries.values(), *earlier], winner, dealt, summary)
        event_payload_set(
            event, _elimination_payload(busts, placed, before_rows, result, winner, paid)
        )
        provisional = places_provisional(t)
    return _elimination_answer(placed, entries, result, winner, provisional, paid)


def _journaled(ids: list[int], rows: list[Entry], seat_rows):
    """The action's journal, told the rows the busts change, as read (no query)."""
    if j := journal_current():
        j.note_entry_rows(rows)
        j.note_seat_rows([(e, tid, s, w) for e, tid, _, s, w in seat_rows])
        j.note_seats(ids)  # known from the rows above: no query
    return j


def _redo_call(busts, by_bust: dict[int, list[int]]) -> dict[str, Any]:
    """How the undo log redoes this elimination (the winners by busted entry, if given)."""
    from tourney.services.bounties import winners_json

    kwargs: dict[str, Any] = {"busts": [list(b) for b in busts]}
    if by_bust:
        kwargs["winners"] = winners_json(by_bust)
    return {"service": "elimination_record", "kwargs": kwargs}


def _quiet_hand(t: Tournament, summary, gone, placed, *, left: int) -> bool:
    """Whether the hand is a quiet one, as most are: nobody waits for a seat (checked by the
    caller), no bounties to move, play goes on, nothing breaks or balances, and the new
    places are below the paid ones."""
    from tables.selectors import settled_after

    return (
        combined_statements()
        and t.bounty_kind == Tournament.BountyKind.NONE
        and t.end_at_players is None  # RULES 10.2: a flight's field is looked at after the busts
        and left > 1
        and settled_after(t, summary, gone)
        and not place_is_paid(t, min(p.place for p in placed), top=summary.top_number)
    )


def _places_shared(earlier: list[Entry], by_entry) -> None:
    """The round's earlier busts share the places anew (RULES 7.3)."""
    for e in earlier:
        p = by_entry[e.pk]
        if (e.place, e.place_to) != (p.place, p.place_to):
            Entry.objects.filter(pk=e.pk).update(place=p.place, place_to=p.place_to)


def _busts_checked(busts: Sequence[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Validate the busts before any read: the entry ids, and those given without a stack."""
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
    return ids, stackless


def _busted_read(t: Tournament, ids: list[int]):
    """The busted entries, checked (each of this tournament and seated), with their seats,
    and the open tables in totals; refused when nobody would be left to win the hand."""
    from tables.models import Seat, Table
    from tables.selectors import SUMMARY_COLUMNS, summary_of, summary_select

    # The entries with their seats and tables, and the open tables in totals, in one
    # read. Every seated entry sits at an open table, each table's count is kept by the
    # seat triggers and the open tables by count by the table triggers: the totals give the
    # players still in, and whether anything is to break or balance after this hand,
    # without reading every table. The tables where players break are counted apart
    # (``open_summary``), from their rows read here.
    totals, totals_params = summary_select(t)
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
    seat_rows = [(e.pk, tid, tn, s, bool(w)) for e, (tid, tn, s, w, *_) in found if tid is not None]
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
    return entries, seat_rows, where, summary, waiting


def _busts_placed(t: Tournament, busts, where, still_in: int):
    """Order the busts into places (RULES 7.1–7.3): the places, the round's earlier busts
    placed anew in hand-for-hand play, and the place lag the places are stored less."""
    # Busted places are stored less ``place_lag`` (RULES 7.1 during late registration):
    # written into the rows first when this hand's could drop below 1 or end the day,
    # and in hand-for-hand play, where the round's earlier busts are placed anew.
    if t.place_lag and (t.hand_for_hand or still_in - len(busts) <= max(t.place_lag, 1)):
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
    return placed, earlier, lag


def _bust_rows(t: Tournament, busts, entries, where, by_entry, lag: int, now: datetime):
    """Each busted entry's row as it was (for the undo) and as it becomes (for the write)."""
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
    return before_rows, bust_rows


def _tables_after(t: Tournament, event: Event, waiting, summary, gone) -> tuple[dict, list]:
    """Rebalance after the busts (RULES 3): alternates seated first, then the breaks and
    balancing moves, if any table needs them."""
    from tables.selectors import settled_after
    from tables.services.balancing import nothing_to_rebalance, rebalance
    from tables.services.seating import seat_alternates

    alternates = seat_alternates(t, event=event, waiting=waiting)
    if not alternates and settled_after(t, summary, gone):
        result = nothing_to_rebalance(t)  # most hands: no table read at all
    else:
        result = rebalance(t, event=event)  # reads the open tables as they are now
    result["moves"] = alternates + result["moves"]
    return result, alternates


def _winner_if_last(t: Tournament, left: int, now: datetime, event, paid: list) -> Entry | None:
    """With one player left, that player wins (place 1), takes their own bounty (RULES 9.8,
    added to ``paid``) and the tournament ends."""
    from tourney.services.bounties import last_player_bounty

    if left > 1:
        return None
    remaining = list(Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).order_by()[:2])
    if len(remaining) != 1:
        return None
    winner = remaining[0]
    if j := journal_current():
        j.note_entries([winner.pk])
    winner.place = winner.place_to = 1
    winner.save(update_fields=["place", "place_to"])
    t.status = Tournament.Status.FINISHED
    Tournament.objects.filter(pk=t.pk).update(status=t.status)
    tournament_end(t, now=now)
    paid += last_player_bounty(t, hand=event.pk, winner=winner)
    return winner


def _prizes_after(t: Tournament, placed, rows_read: list[Entry], winner, dealt, summary) -> None:
    """An elimination changes no money: only the places it gave can change prizes. Far
    from the money (every new place below the paid ones) there is nothing to assign;
    with the prizes frozen, only the entries just placed get theirs."""
    from tourney.services.money import prizes_assign, prizes_assign_placed

    if winner is not None or dealt:
        prizes_assign(t)
    elif place_is_paid(t, min(p.place for p in placed), top=summary.top_number):
        if t.frozen_prizes is not None:
            rows = {e.pk: e for e in rows_read}  # read above
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


def _elimination_payload(busts, placed, before_rows, result, winner, paid) -> dict[str, Any]:
    return {
        "bounties": paid,
        "busts": [list(b) for b in busts],
        "places": [{"entry": p.entry, "place": p.place, "place_to": p.place_to} for p in placed],
        "before": before_rows,
        "moves": [m["id"] for m in result["moves"]],
        "winner": winner.pk if winner else None,
        "seed": result.get("seed"),
    }


def _elimination_answer(placed, entries, result, winner, provisional, paid) -> dict[str, Any]:
    return {
        # RULES 9: who takes what, and where they sit ("pay 150 bounty to seat 4, table 7")
        "bounties": paid,
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
    from tables.services.seats import unseat

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
