"""Color-ups during a tournament (RULES 5): the odd-chip race at each table and taking the
removed chips out of play. The race itself is the pure engine ``tourney.engine.chip_race``;
which chips may go comes from ``tourney.engine.structure``. The reads (what the break's
color-up removes, the rack plan for the chip runner) are ``tourney.selectors.colorup``.

How the rules are read here:

* **Odd chips in, not stacks.** The dealer first changes up directly, at equal value, whatever
  of the removed chip makes whole chips of the next one ``U`` (RULES 5.2), then reports per
  seat the chips of the removed denomination that are left: ``0 <= odd < U / d`` (more is
  refused, 400 ``bad_odd_chips``). Seats not listed have none. ``whole_stack`` names the seats
  whose whole stack was those odd chips: they are the RULES 5.7 players who cannot be raced
  out. Everyone else is given to the engine with one other chip, so it never protects them.
* **Optional ``counted``**: the table's count of the removed chip *before* the direct
  change-up. Then the chips of ``U`` that change-up needs are exact,
  ``(counted - sum of odd chips) / (U / d)``, and the rack plan includes them.
* **One race per table and chip.** While a chip is in play a table races it once; a second
  race is refused (409 ``already_raced``) until the first is undone (``colorup_race_undo``).
  Several chips at one break race one at a time, smallest first (RULES 5.2): the table must
  have raced every smaller chip in play before a larger one (409 ``race_smaller_first``), and
  the dealer counts the larger chip's odd chips after the smaller race was paid.
* **Which chips may go** (RULES 5.1, 4.5): the chips in play that no blind or ante from the
  current item on needs (a level in progress still needs its chips), so the smallest chip left
  divides every later blind. The breaks' ``color_up`` lists say which chips are *pending*.
* **Chips in play** (RULES 5.9): each race adds ``value_added - value_removed`` to
  ``Tournament.chips_color_up_delta`` (an undo subtracts it), and ``selectors.total_chips`` is
  ``sum(chips_bought) + chips_color_up_delta``.
* The race is recorded as an Event ``chip_race`` (inputs, seed or dealt cards, outcome, value
  added and removed); ``colorup_finish`` sets ``ChipDenomination.in_play = False`` once every
  table with players has raced (or when the director forces it).
* Races and finishes keep no undo journal. The dashboard's general undo of the last action
  delegates to ``colorup_undo_event``: a race is undone as by ``colorup_race_undo`` (and the
  draw counter goes back), a finish puts its chips back in play and reopens its races.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils.translation import gettext_noop as N_

from tables.models import Seat, Table
from tourney.core.event_rows import Counters
from tourney.core.events import record_event
from tourney.core.locking import lock_tournament
from tourney.core.messages import MSG_TOURNAMENT_FINISHED
from tourney.core.rng import next_rng
from tourney.engine import chip_race
from tourney.engine.errors import DomainError
from tourney.models import ChipDenomination, Entry, Event, Player, Tournament
from tourney.selectors.clock import structure_items
from tourney.selectors.colorup import (
    FINISH_KIND,
    RACE_KIND,
    chips_of,
    current_index,
    in_play_of,
    key_break,
    live_races,
    races_by_table,
    removable_chips,
    seated_by_table,
    unit_of,
)

UNDO_KIND = "chip_race_undone"
FINISH_UNDO_KIND = "color_up_finish_undone"

MAX_COUNTED = 10**6

MSG_TABLE_NOT_FOUND = N_("No such table.")
MSG_TABLE_BROKEN = N_("This table is broken.")
MSG_UNKNOWN_DENOMINATION = N_("This tournament has no chip of that value.")
MSG_NOT_IN_PLAY = N_("That chip is no longer in play.")
MSG_STILL_NEEDED = N_(
    "A blind or ante from the current level on still needs that chip (RULES 5.1)."
)
MSG_SMALLER_FIRST = N_("The smaller chips go first: race them at this table first (RULES 5.2).")
MSG_FINISH_SMALLER_FIRST = N_("The smaller chips go first: take them out of play too (RULES 5.2).")
MSG_UNKNOWN_SEAT = N_("Nobody sits in that seat at this table.")
MSG_BAD_ODD = N_(
    "Odd chips are whole numbers from 0 to one less than the number of removed chips that make "
    "one chip of the next denomination (RULES 5.2)."
)
MSG_WHOLE_STACK_NO_ODD = N_("A seat whose whole stack was odd chips needs at least one odd chip.")
MSG_BAD_COUNTED = N_(
    "The count of the removed chip before the change-up must be at least the odd chips, and "
    "the rest must change up into whole chips."
)
MSG_SEED_AND_CARDS = N_("Give either the cards the dealer dealt or a seed, not both.")
MSG_ALREADY_RACED = N_("This table has already raced that chip; undo that race first.")
MSG_RACE_NOT_FOUND = N_("This table has no race of that chip to undo.")
MSG_UNDO_LATER_FIRST = N_("Undo the race of the larger chip at this table first.")
MSG_TABLES_NOT_RACED = N_("Some tables with players have not raced that chip yet.")
MSG_NOTHING_TO_FINISH = N_("Name at least one chip to take out of play.")


def _bad(code: str, message: str, status: int = 400, **fields: Any) -> DomainError:
    return DomainError(code, message, fields=fields, status=status)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- reading rows


def _table(t: Tournament, number: int) -> Table:
    row = Table.objects.filter(tournament=t, number=number).first()
    if row is None:
        raise _bad("table_not_found", MSG_TABLE_NOT_FOUND, 404, table=number)
    if row.status != Table.Status.OPEN:
        raise _bad("table_broken", MSG_TABLE_BROKEN, 409, table=number)
    return row


def _table_seated(t: Tournament, number: int) -> dict[int, tuple[int, str]]:
    """``_table`` and ``_seated`` of one table in one read: {seat: (entry, name)}."""
    if not 0 < number < 2**63:  # no such table, and beyond what SQLite's integers hold
        raise _bad("table_not_found", MSG_TABLE_NOT_FOUND, 404, table=number)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT tb.status, s.number, s.entry_id, p.name FROM {Table._meta.db_table} tb "
            f"LEFT JOIN {Seat._meta.db_table} s ON s.table_id = tb.id "
            f"LEFT JOIN {Entry._meta.db_table} e ON e.id = s.entry_id "
            f"LEFT JOIN {Player._meta.db_table} p ON p.id = e.player_id "
            "WHERE tb.tournament_id = %s AND tb.number = %s ORDER BY s.number",
            [t.pk, number],
        )
        rows = cursor.fetchall()
    if not rows:
        raise _bad("table_not_found", MSG_TABLE_NOT_FOUND, 404, table=number)
    if rows[0][0] != Table.Status.OPEN:
        raise _bad("table_broken", MSG_TABLE_BROKEN, 409, table=number)
    return {seat: (entry, name) for _, seat, entry, name in rows if seat is not None}


def _known_in_play(chips: Mapping[int, ChipDenomination], value: object) -> None:
    if not _is_int(value) or value not in chips:
        raise _bad("unknown_denomination", MSG_UNKNOWN_DENOMINATION, remove=value)
    if not chips[value].in_play:
        raise _bad("denomination_not_in_play", MSG_NOT_IN_PLAY, 409, remove=value)


# ---------------------------------------------------------------- writes


@dataclass(frozen=True)
class _Race:
    """What one table's race of one chip starts from, once checked."""

    table: int
    remove: int
    unit: int  # the chip ``U`` the removed chip changes up into
    seats: dict[int, tuple[int, str]]  # {seat: (entry, name)}
    in_play: list[int]
    break_index: int | None


def colorup_race_table(
    *,
    tournament_id: int,
    table_number: int,
    remove: int,
    odd_chips: Mapping[int, int],
    whole_stack: Iterable[int] = (),
    cards: Mapping[int, Sequence[str]] | None = None,
    seed: int | None = None,
    counted: int | None = None,
    actor=None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Race the odd chips of ``remove`` at one table (RULES 5.2-5.8) and record it.

    ``odd_chips`` {seat: chips of ``remove`` left after the direct change-up}; ``whole_stack``
    the seats whose whole stack that was (RULES 5.7); ``cards`` {seat: the cards the dealer
    dealt} (RULES 5.8), else the software deals from ``seed`` or a recorded fresh seed;
    ``counted`` the table's count of ``remove`` before the change-up (for the rack plan).
    Returns the race (the engine's shape, per seat ``chips`` = the chips of ``U`` the seat
    receives) with the table, entries and names; ``chips_delta`` is what the race adds to the
    chips in play."""
    if cards is not None and seed is not None:
        raise _bad("no_deal", MSG_SEED_AND_CARDS)
    whole = set(whole_stack)
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if t.status == Tournament.Status.FINISHED:
            raise _bad("tournament_finished", MSG_TOURNAMENT_FINISHED, 409)
        race = _race_read(t, table_number, remove, now)
        odd, direct_chips = _odd_chips_checked(race, odd_chips, whole, counted)
        _race_order_checked(t, race)
        result, seed, drew = _race_run(t, race, odd, whole, cards, seed)
        body = _race_body(t, race, result, whole, cards, seed, counted, direct_chips)
        inputs = {
            "odd_chips": {str(s): n for s, n in sorted(odd_chips.items())},
            "whole_stack": sorted(whole),
            "cards": None if cards is None else {str(s): list(c) for s, c in cards.items()},
            "seed": seed if cards is None else None,
            # The draw counter this race moved to (None: it drew nothing), so that the
            # general undo can put it back exactly (``colorup_undo_event``).
            "draw_counter": t.draw_counter if drew else None,
        }
        # The event, the chips it adds (RULES 5.9) and the draw counter: one statement.
        event = record_event(
            t,
            RACE_KIND,
            {**body, "inputs": inputs},
            actor,
            table_number=table_number,
            also=Counters(t.pk, 0, t.draw_counter if drew else None, body["chips_delta"]),
        )
    return {**body, "event": event.pk}


def _race_read(t: Tournament, table_number: int, remove: int, now: datetime | None) -> _Race:
    """The table's players, the chips in play and the clock. Refuses a table that is not
    open, a chip unknown, out of play or still needed (RULES 5.1), and a chip the next one
    in play is not a multiple of."""
    seats = _table_seated(t, table_number)
    chips = chips_of(t)
    _known_in_play(chips, remove)
    in_play = in_play_of(chips)
    items = structure_items(t)
    index = current_index(t, now, items)
    if remove not in removable_chips(items, index, in_play):
        raise _bad("denomination_still_needed", MSG_STILL_NEEDED, 409, remove=remove)
    unit = unit_of(in_play, remove)
    assert unit is not None  # the largest chip is never removable
    if unit % remove:
        raise _bad("bad_denominations", chip_race.MSG_NOT_MULTIPLE, remove=remove, unit=unit)
    return _Race(table_number, remove, unit, seats, in_play, key_break(items, index))


def _odd_chips_checked(
    race: _Race, odd_chips: Mapping[int, int], whole: set[int], counted: int | None
) -> tuple[dict[int, int], int | None]:
    """Every seated player's odd chips (none for a seat not listed), checked (RULES 5.2,
    5.7), and the chips of ``U`` the direct change-up needs when the dealer ``counted``."""
    per_unit = race.unit // race.remove
    for seat in [*odd_chips, *whole]:
        if not _is_int(seat) or seat not in race.seats:
            raise _bad("unknown_seat", MSG_UNKNOWN_SEAT, table=race.table, seat=seat)
    for seat, n in odd_chips.items():
        if not _is_int(n) or not 0 <= n < per_unit:
            raise _bad("bad_odd_chips", MSG_BAD_ODD, seat=seat, odd_chips=n, most=per_unit - 1)
    odd = {s: odd_chips.get(s, 0) for s in race.seats}
    for seat in whole:
        if odd[seat] == 0:
            raise _bad("bad_whole_stack", MSG_WHOLE_STACK_NO_ODD, seat=seat)
    direct_chips = None
    if counted is not None:
        rest = counted - sum(odd.values()) if _is_int(counted) else -1
        if not 0 <= rest <= MAX_COUNTED or rest % per_unit:
            raise _bad("bad_counted", MSG_BAD_COUNTED, counted=counted)
        direct_chips = rest // per_unit
    return odd, direct_chips


def _race_order_checked(t: Tournament, race: _Race) -> None:
    """One race per table and chip while it is in play, the smaller chips first (RULES 5.2)."""
    at_table = races_by_table(live_races(t, race.table)).get(race.table, {})
    if race.remove in at_table:
        raise _bad(
            "already_raced",
            MSG_ALREADY_RACED,
            409,
            table=race.table,
            race=at_table[race.remove].pk,
        )
    smaller = [d for d in race.in_play if d < race.remove and d not in at_table]
    if smaller:
        raise _bad("race_smaller_first", MSG_SMALLER_FIRST, 409, race_first=smaller)


def _race_run(
    t: Tournament,
    race: _Race,
    odd: Mapping[int, int],
    whole: set[int],
    cards: Mapping[int, Sequence[str]] | None,
    seed: int | None,
) -> tuple[chip_race.RaceResult, int | None, bool]:
    """The engine's race: from the dealer's ``cards``, else dealt from ``seed`` or a fresh
    recorded seed. Returns the result, the seed dealt from and whether a seed was drawn."""
    remove, unit = race.remove, race.unit
    # RULES 5.7: one chip of U stands for the rest of the stack of a player not in
    # `whole_stack`, so the engine protects only the players whose whole stack was odd.
    players = [
        chip_race.RacePlayer(
            seat=s, chips={remove: odd[s]} if s in whole else {remove: odd[s], unit: 1}
        )
        for s in sorted(race.seats)
    ]
    rng = None
    drew = False
    if cards is None:
        if seed is None:
            rng, seed = next_rng(t, write=False)  # written with the event
            drew = True
        else:
            rng = random.Random(seed)
    result = chip_race.color_up(
        denominations=race.in_play,
        remove=remove,
        players=players,
        threshold=t.race_threshold,
        rng=rng,
        cards=cards,
    )
    return result, seed, drew


def _race_body(
    t: Tournament,
    race: _Race,
    result: chip_race.RaceResult,
    whole: set[int],
    cards: Mapping[int, Sequence[str]] | None,
    seed: int | None,
    counted: int | None,
    direct_chips: int | None,
) -> dict[str, Any]:
    """The race as recorded and returned: the engine's shape with the table, the entries and
    names, and ``chips_delta``, what it adds to the chips in play (RULES 5.9)."""
    seats, unit = race.seats, race.unit
    return {
        "table": race.table,
        "break_index": race.break_index,
        "remove": race.remove,
        "unit": unit,
        "threshold": t.race_threshold,
        "awarded": result.awarded,
        "value_removed": result.value_removed,
        "value_added": result.value_added,
        "chips_delta": result.value_added - result.value_removed,
        "seed": None if cards is not None else seed,
        "cards_given": cards is not None,
        "counted": counted,
        "direct_chips": direct_chips,
        "players": [
            {
                "seat": o.seat,
                "entry": seats[o.seat][0],
                "name": seats[o.seat][1],
                "odd_chips": o.odd_chips,
                "whole_stack": o.seat in whole,
                "cards": list(o.cards),
                "won": o.won,
                "protected": o.protected,
                "chips": ({str(unit): o.won + int(o.protected)} if o.won or o.protected else {}),
            }
            for o in result.players
        ],
    }


def colorup_race_undo(
    *, tournament_id: int, table_number: int, remove: int, actor=None
) -> dict[str, Any]:
    """Take back a table's race of ``remove`` while that chip is still in play: the chips it
    added or removed leave the total again (RULES 5.9) and the table may race again."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        return _race_undo(t, table_number, remove, actor)


def _race_undo(
    t: Tournament, table_number: int, remove: int, actor, *, draw_back: bool = False
) -> dict[str, Any]:
    """``colorup_race_undo`` with the tournament row locked. ``draw_back`` (the general undo,
    where the race is the last action): the draw counter goes back to before the race too,
    if the software dealt it and nothing has drawn since."""
    _table(t, table_number)
    chips = chips_of(t)
    _known_in_play(chips, remove)
    at_table = races_by_table(live_races(t, table_number)).get(table_number, {})
    race = at_table.get(remove)
    if race is None:
        raise _bad("race_not_found", MSG_RACE_NOT_FOUND, 404, table=table_number, remove=remove)
    later = sorted(d for d in at_table if d > remove)
    if later:
        raise _bad("undo_later_first", MSG_UNDO_LATER_FIRST, 409, undo_first=later)
    race.undone = True
    race.save(update_fields=["undone"])
    delta = -race.payload["chips_delta"]
    changes: dict[str, Any] = {"chips_color_up_delta": F("chips_color_up_delta") + delta}
    drawn = (race.payload.get("inputs") or {}).get("draw_counter")
    if draw_back and drawn is not None and drawn == t.draw_counter:
        changes["draw_counter"] = t.draw_counter = drawn - 1
    Tournament.objects.filter(pk=t.pk).update(**changes)
    record_event(
        t,
        UNDO_KIND,
        {"race": race.pk, "table": table_number, "remove": remove, "chips_delta": delta},
        actor,
    )
    return {"table": table_number, "remove": remove, "undone": race.pk, "chips_delta": delta}


def colorup_undo_event(t: Tournament, event: Event, actor=None) -> dict[str, Any]:
    """The general undo of the last action (``tourney.services.undo``) when that action is a chip
    race or a color-up finish, which keep no journal: their own exact undo, with the tournament row
    already locked by the caller. A race: ``_race_undo`` (the chips it added leave the total,
    RULES 5.9, and the draw counter goes back). A finish: its chips are in play again and the
    races it closed are live again; nothing else changed with it."""
    if event.kind == RACE_KIND:
        return _race_undo(t, event.payload["table"], event.payload["remove"], actor, draw_back=True)
    if event.kind != FINISH_KIND:
        raise ValueError(f"not a color-up event: {event.kind}")
    removed = list(event.payload["denominations"])
    ChipDenomination.objects.filter(tournament=t, value__in=removed).update(in_play=True)
    Event.objects.filter(pk=event.pk).update(undone=True)
    record_event(t, FINISH_UNDO_KIND, {"finish": event.pk, "denominations": removed}, actor)
    return {"undone": event.pk, "denominations": removed}


def colorup_finish(
    *,
    tournament_id: int,
    denominations: Sequence[int],
    force: bool = False,
    actor=None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Take ``denominations`` out of play once every open table with players has raced each
    of them; ``force`` (the director's call) finishes without the missing races. Refuses a
    chip that is unknown (400), out of play or still needed (409), or that would leave a
    smaller chip in play (RULES 5.1, 5.2)."""
    if not denominations:
        raise _bad("bad_input", MSG_NOTHING_TO_FINISH, denominations=MSG_NOTHING_TO_FINISH)
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if t.status == Tournament.Status.FINISHED:
            raise _bad("tournament_finished", MSG_TOURNAMENT_FINISHED, 409)
        chips = chips_of(t)
        for d in denominations:
            _known_in_play(chips, d)
        removing = sorted(set(denominations))
        in_play = in_play_of(chips)
        if removing != in_play[: len(removing)]:
            raise _bad("remove_smaller_first", MSG_FINISH_SMALLER_FIRST, 409, in_play=in_play)
        items = structure_items(t)
        removable = removable_chips(items, current_index(t, now, items), in_play)
        needed = [d for d in removing if d not in removable]
        if needed:
            raise _bad("denomination_still_needed", MSG_STILL_NEEDED, 409, remove=needed)
        races = [ev for ev in live_races(t) if ev.payload["remove"] in removing]
        by_table = races_by_table(races)
        not_raced = {
            str(d): [n for n in seated_by_table(t) if d not in by_table.get(n, {})]
            for d in removing
        }
        not_raced = {d: tables for d, tables in not_raced.items() if tables}
        if not_raced and not force:
            raise _bad("tables_not_raced", MSG_TABLES_NOT_RACED, 409, tables=not_raced)
        ChipDenomination.objects.filter(tournament=t, value__in=removing).update(in_play=False)
        left = [v for v in in_play if v not in removing]
        delta = sum(ev.payload["chips_delta"] for ev in races)
        event = record_event(
            t,
            FINISH_KIND,
            {
                "denominations": removing,
                "in_play": left,
                "forced": bool(not_raced),
                "not_raced": not_raced,
                "races": [ev.pk for ev in races],
                "chips_delta": delta,
            },
            actor,
        )
    return {
        "removed": removing,
        "in_play": left,
        "forced": bool(not_raced),
        "not_raced": not_raced,
        "chips_delta": delta,
        "event": event.pk,
    }
