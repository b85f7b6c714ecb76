"""Color-ups during a tournament (RULES 5): the odd-chip race at each table, the rack plan for
the chip runner, and taking the removed chips out of play. The race itself is the pure engine
``tourney.engine.chip_race``; which chips may go comes from ``tourney.engine.structure``.

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
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from tables.models import Seat, Table
from tourney import selectors
from tourney.core.event_rows import Counters
from tourney.core.events import record_event
from tourney.core.locking import lock_tournament
from tourney.core.messages import MSG_TOURNAMENT_FINISHED
from tourney.core.rng import next_rng
from tourney.core.rows import load as load_rows
from tourney.engine import chip_race
from tourney.engine import clock as clock_engine
from tourney.engine import structure as structure_engine
from tourney.engine.errors import DomainError
from tourney.models import ChipDenomination, Entry, Event, Player, Tournament
from tourney.selectors import average_stack
from tourney.selectors.clock import anchor_of, structure_items

RACE_KIND = "chip_race"
UNDO_KIND = "chip_race_undone"
FINISH_KIND = "color_up_finished"
FINISH_UNDO_KIND = "color_up_finish_undone"

MAX_COUNTED = 10**6

MSG_TABLE_NOT_FOUND = "No such table."
MSG_TABLE_BROKEN = "This table is broken."
MSG_UNKNOWN_DENOMINATION = "This tournament has no chip of that value."
MSG_NOT_IN_PLAY = "That chip is no longer in play."
MSG_STILL_NEEDED = "A blind or ante from the current level on still needs that chip (RULES 5.1)."
MSG_SMALLER_FIRST = "The smaller chips go first: race them at this table first (RULES 5.2)."
MSG_FINISH_SMALLER_FIRST = "The smaller chips go first: take them out of play too (RULES 5.2)."
MSG_UNKNOWN_SEAT = "Nobody sits in that seat at this table."
MSG_BAD_ODD = (
    "Odd chips are whole numbers from 0 to one less than the number of removed chips that make "
    "one chip of the next denomination (RULES 5.2)."
)
MSG_WHOLE_STACK_NO_ODD = "A seat whose whole stack was odd chips needs at least one odd chip."
MSG_BAD_COUNTED = (
    "The count of the removed chip before the change-up must be at least the odd chips, and "
    "the rest must change up into whole chips."
)
MSG_SEED_AND_CARDS = "Give either the cards the dealer dealt or a seed, not both."
MSG_ALREADY_RACED = "This table has already raced that chip; undo that race first."
MSG_RACE_NOT_FOUND = "This table has no race of that chip to undo."
MSG_UNDO_LATER_FIRST = "Undo the race of the larger chip at this table first."
MSG_TABLES_NOT_RACED = "Some tables with players have not raced that chip yet."
MSG_NOTHING_TO_FINISH = "Name at least one chip to take out of play."


def _bad(code: str, message: str, status: int = 400, **fields: Any) -> DomainError:
    return DomainError(code, message, fields=fields, status=status)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- reading rows


def _clock_index(t: Tournament, now: datetime | None, items=None) -> int:
    if items is None:
        items = structure_items(t)
    return clock_engine.state(items, anchor_of(t), now or timezone.now()).index


def _key_break(items: Sequence[clock_engine.Item], index: int) -> int | None:
    """The color-up break of now: the current item if it is one, else the next one."""
    for i in range(index, len(items)):
        if items[i].kind == clock_engine.BREAK and items[i].color_up:
            return i
    return None


def _removable(
    items: Sequence[clock_engine.Item], index: int, in_play: Sequence[int]
) -> tuple[int, ...]:
    """RULES 5.1 from the current item on: a level in progress still needs its chips. A
    leading placeholder break lets the engine's "after item i" mean "from item i on"."""
    if len(in_play) < 2:
        return ()
    padded = (clock_engine.Item(kind=clock_engine.BREAK, seconds=1), *items)
    after = index if items[index].kind == clock_engine.LEVEL else index + 1
    return structure_engine.removable_denominations(padded, after, in_play)


def _chips(t: Tournament) -> dict[int, ChipDenomination]:
    # Plain SQL (tourney/core/rows.py): read by every chip race.
    found = load_rows(ChipDenomination, "tournament_id = %s", [t.pk], suffix="ORDER BY value")
    return {c.value: c for c in found}


def _in_play(chips: Mapping[int, ChipDenomination]) -> list[int]:
    return sorted(v for v, c in chips.items() if c.in_play)


def _unit(in_play: Sequence[int], remove: int) -> int | None:
    larger = [v for v in in_play if v > remove]
    return larger[0] if larger else None


def _seated(t: Tournament, table: int | None = None) -> dict[int, dict[int, tuple[int, str]]]:
    """Open tables with players: {table: {seat: (entry, name)}}; only ``table`` if given."""
    seated: dict[int, dict[int, tuple[int, str]]] = {}
    rows = Seat.objects.filter(tournament=t, table__status=Table.Status.OPEN)
    if table is not None:
        rows = rows.filter(table__number=table)
    for table_number, seat, entry, name in rows.order_by("table__number", "number").values_list(
        "table__number", "number", "entry_id", "entry__player__name"
    ):
        seated.setdefault(table_number, {})[seat] = (entry, name)
    return seated


def _live_races(t: Tournament, table: int | None = None) -> list[Event]:
    """Races not undone whose chip has not been taken out of play since (one per table and
    chip): the races of the color-up under way; only those of ``table`` if given. One read
    of the finishes and the races together."""
    ev = Event._meta.db_table
    races = f"SELECT id FROM {ev} WHERE tournament_id = %s AND kind = %s AND undone = %s"
    # An undone finish (``colorup_undo_event``) put its chips back in play: it ends nothing.
    params: list[Any] = [t.pk, FINISH_KIND, False, t.pk, RACE_KIND, False]
    if table is not None:
        races += " AND table_number = %s"
        params.append(table)
    finished: dict[int, int] = {}
    found = []
    # Plain SQL (tourney/core/rows.py): read by every chip race. Two index ranges (kind, table)
    # joined by id: with an OR, SQLite read every event of the day for each race.
    events = load_rows(
        Event,
        f"id IN (SELECT id FROM {ev} WHERE tournament_id = %s AND kind = %s AND undone = %s "
        f"UNION ALL {races})",
        params,
        suffix="ORDER BY id",
    )
    for ev in events:
        if ev.kind == FINISH_KIND:
            for d in ev.payload.get("denominations", []):
                finished[d] = max(finished.get(d, 0), ev.pk)
        else:
            found.append(ev)
    return [ev for ev in found if ev.pk > finished.get(ev.payload["remove"], 0)]


def _races_by_table(races: Iterable[Event]) -> dict[int, dict[int, Event]]:
    by_table: dict[int, dict[int, Event]] = {}
    for ev in races:
        by_table.setdefault(ev.payload["table"], {})[ev.payload["remove"]] = ev
    return by_table


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


def _race_view(ev: Event) -> dict[str, Any]:
    return {**{k: v for k, v in ev.payload.items() if k != "inputs"}, "event": ev.pk}


# ---------------------------------------------------------------- reads


def colorup_pending(t: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """What the color-up of the current (or next) break removes (RULES 5.1), the players per
    open table who report odd chips, which tables have raced which chip, the races so far, and
    the chips in play with the average stack (RULES 5.9)."""
    items = structure_items(t)
    index = _clock_index(t, now, items)
    key = _key_break(items, index)
    chips = _chips(t)
    in_play = _in_play(chips)
    races = _live_races(t)
    upto = key if key is not None else index
    named = {c for it in items[: upto + 1] if it.kind == clock_engine.BREAK for c in it.color_up}
    pending = sorted((named | {ev.payload["remove"] for ev in races}) & set(in_play))
    removable = set(_removable(items, index, in_play))
    by_table = _races_by_table(races)
    tables = []
    for number, seats in _seated(t).items():
        raced = sorted(by_table.get(number, {}))
        tables.append(
            {
                "table": number,
                "seats": [
                    {"seat": s, "entry": entry, "name": name} for s, (entry, name) in seats.items()
                ],
                "raced": raced,
                "to_race": [d for d in pending if d not in raced],
            }
        )
    # The caller's row may predate a race: read the delta fresh (RULES 5.9).
    t.refresh_from_db(fields=["chips_color_up_delta"])
    left = selectors.players_left(t)
    total = selectors.total_chips(t)
    return {
        "clock_index": index,
        "at_break": items[index].kind == clock_engine.BREAK,
        "break_index": key,
        "in_play": in_play,
        "denominations": [
            {
                "value": d,
                "color": chips[d].color,
                "unit": _unit(in_play, d),
                "removable": d in removable,
            }
            for d in pending
        ],
        "tables": tables,
        "races": [_race_view(ev) for ev in races],
        "total_chips": total,
        "players_left": left,
        "average_stack": average_stack(total, left),
    }


def colorup_rack_plan(t: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """Chips of each race's unit ``U`` each table needs (the chip runner's list).

    A raced table needs its race chips (won and protection chips) plus, when the dealer
    reported ``counted``, the chips of the direct change-up, ``(counted - odd) / (U / d)``;
    ``needed`` adds them (``direct_chips`` is ``None`` when not counted). A table that has not
    raced yet gets ``at_most``: one chip per seated player, as nobody wins more than one chip
    and protection goes only to a player who won none (RULES 5.5, 5.7)."""
    pending = colorup_pending(t, now)
    in_play = pending["in_play"]
    races = {
        (ev["table"], ev["remove"]): ev for ev in pending["races"]
    }  # one live race per table and chip
    denoms = [(d["value"], d["unit"]) for d in pending["denominations"]]
    removed = {d for d, _ in denoms}
    kept = [v for v in in_play if v not in removed]
    totals = {
        d: {
            "remove": d,
            "unit": u,
            "race_chips": 0,
            "direct_chips": 0,
            "needed": 0,
            "tables_not_raced": [],
            "at_most_not_raced": 0,
        }
        for d, u in denoms
    }
    tables = []
    for row in pending["tables"]:
        players = len(row["seats"])
        lines = []
        for d, u in denoms:
            ev = races.get((row["table"], d))
            total = totals[d]
            if ev is None:
                lines.append(
                    {"remove": d, "unit": u, "raced": False, "at_most": players, "needed": None}
                )
                total["tables_not_raced"].append(row["table"])
                total["at_most_not_raced"] += players
                continue
            race_chips = sum(sum(p["chips"].values()) for p in ev["players"])
            direct = ev["direct_chips"]
            needed = race_chips + (direct or 0)
            lines.append(
                {
                    "remove": d,
                    "unit": u,
                    "raced": True,
                    "race_chips": race_chips,
                    "direct_chips": direct,
                    "needed": needed,
                }
            )
            total["race_chips"] += race_chips
            total["direct_chips"] += direct or 0
            total["needed"] += needed
        tables.append({"table": row["table"], "players": players, "races": lines})
    return {
        "break_index": pending["break_index"],
        "new_smallest": kept[0] if kept else None,
        "tables": tables,
        "totals": list(totals.values()),
    }


# ---------------------------------------------------------------- writes


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
        seats = _table_seated(t, table_number)
        chips = _chips(t)
        _known_in_play(chips, remove)
        in_play = _in_play(chips)
        items = structure_items(t)
        index = _clock_index(t, now, items)
        if remove not in _removable(items, index, in_play):
            raise _bad("denomination_still_needed", MSG_STILL_NEEDED, 409, remove=remove)
        unit = _unit(in_play, remove)
        assert unit is not None  # the largest chip is never removable
        if unit % remove:
            raise _bad("bad_denominations", chip_race.MSG_NOT_MULTIPLE, remove=remove, unit=unit)
        per_unit = unit // remove

        for seat in [*odd_chips, *whole]:
            if not _is_int(seat) or seat not in seats:
                raise _bad("unknown_seat", MSG_UNKNOWN_SEAT, table=table_number, seat=seat)
        for seat, n in odd_chips.items():
            if not _is_int(n) or not 0 <= n < per_unit:
                raise _bad("bad_odd_chips", MSG_BAD_ODD, seat=seat, odd_chips=n, most=per_unit - 1)
        odd = {s: odd_chips.get(s, 0) for s in seats}
        for seat in whole:
            if odd[seat] == 0:
                raise _bad("bad_whole_stack", MSG_WHOLE_STACK_NO_ODD, seat=seat)
        direct_chips = None
        if counted is not None:
            rest = counted - sum(odd.values()) if _is_int(counted) else -1
            if not 0 <= rest <= MAX_COUNTED or rest % per_unit:
                raise _bad("bad_counted", MSG_BAD_COUNTED, counted=counted)
            direct_chips = rest // per_unit

        at_table = _races_by_table(_live_races(t, table_number)).get(table_number, {})
        if remove in at_table:
            raise _bad(
                "already_raced",
                MSG_ALREADY_RACED,
                409,
                table=table_number,
                race=at_table[remove].pk,
            )
        smaller = [d for d in in_play if d < remove and d not in at_table]
        if smaller:
            raise _bad("race_smaller_first", MSG_SMALLER_FIRST, 409, race_first=smaller)

        # RULES 5.7: one chip of U stands for the rest of the stack of a player not in
        # `whole_stack`, so the engine protects only the players whose whole stack was odd.
        players = [
            chip_race.RacePlayer(
                seat=s, chips={remove: odd[s]} if s in whole else {remove: odd[s], unit: 1}
            )
            for s in sorted(seats)
        ]
        rng = None
        drew = False
        if cards is None:
            if seed is None:
                rng, seed = next_rng(t, write=False)  # written with the event below
                drew = True
            else:
                rng = random.Random(seed)
        result = chip_race.color_up(
            denominations=in_play,
            remove=remove,
            players=players,
            threshold=t.race_threshold,
            rng=rng,
            cards=cards,
        )
        delta = result.value_added - result.value_removed
        body: dict[str, Any] = {
            "table": table_number,
            "break_index": _key_break(items, index),
            "remove": remove,
            "unit": unit,
            "threshold": t.race_threshold,
            "awarded": result.awarded,
            "value_removed": result.value_removed,
            "value_added": result.value_added,
            "chips_delta": delta,
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
                    "chips": (
                        {str(unit): o.won + int(o.protected)} if o.won or o.protected else {}
                    ),
                }
                for o in result.players
            ],
        }
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
            also=Counters(t.pk, 0, t.draw_counter if drew else None, delta),
        )
    return {**body, "event": event.pk}


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
    chips = _chips(t)
    _known_in_play(chips, remove)
    at_table = _races_by_table(_live_races(t, table_number)).get(table_number, {})
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
        chips = _chips(t)
        for d in denominations:
            _known_in_play(chips, d)
        removing = sorted(set(denominations))
        in_play = _in_play(chips)
        if removing != in_play[: len(removing)]:
            raise _bad("remove_smaller_first", MSG_FINISH_SMALLER_FIRST, 409, in_play=in_play)
        items = structure_items(t)
        removable = _removable(items, _clock_index(t, now, items), in_play)
        needed = [d for d in removing if d not in removable]
        if needed:
            raise _bad("denomination_still_needed", MSG_STILL_NEEDED, 409, remove=needed)
        races = [ev for ev in _live_races(t) if ev.payload["remove"] in removing]
        by_table = _races_by_table(races)
        not_raced = {
            str(d): [n for n in _seated(t) if d not in by_table.get(n, {})] for d in removing
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
