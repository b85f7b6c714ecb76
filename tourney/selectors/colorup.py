"""The color-up's reads (RULES 5): what the break's color-up removes, which tables have raced
which chip, and the chip runner's rack plan. The writes (the races, their undo, the finish)
are ``tourney.services.colorup``, which reads the rows through the helpers here too; how the
rules are read is told there.

* **Which chips may go** (RULES 5.1, 4.5): the chips in play that no blind or ante from the
  current item on needs (a level in progress still needs its chips), so the smallest chip left
  divides every later blind. The breaks' ``color_up`` lists say which chips are *pending*.
* **The races of the color-up under way**: the races not undone whose chip has not been
  taken out of play since, one per table and chip (``live_races``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.utils import timezone

from tables.models import Seat, Table
from tourney.core.rows import load as load_rows
from tourney.engine import clock as clock_engine
from tourney.engine import structure as structure_engine
from tourney.models import ChipDenomination, Event, Tournament
from tourney.selectors import average_stack, players_left, total_chips
from tourney.selectors.clock import anchor_of, structure_items

RACE_KIND = "chip_race"
FINISH_KIND = "color_up_finished"


# ---------------------------------------------------------------- reading rows


def current_index(t: Tournament, now: datetime | None, items=None) -> int:
    """The item the clock is in, walked through ``items`` (the structure, read if not given)."""
    if items is None:
        items = structure_items(t)
    return clock_engine.state(items, anchor_of(t), now or timezone.now()).index


def key_break(items: Sequence[clock_engine.Item], index: int) -> int | None:
    """The color-up break of now: the current item if it is one, else the next one."""
    for i in range(index, len(items)):
        if items[i].kind == clock_engine.BREAK and items[i].color_up:
            return i
    return None


def removable_chips(
    items: Sequence[clock_engine.Item], index: int, in_play: Sequence[int]
) -> tuple[int, ...]:
    """RULES 5.1 from the current item on: a level in progress still needs its chips. A
    leading placeholder break lets the engine's "after item i" mean "from item i on"."""
    if len(in_play) < 2:
        return ()
    padded = (clock_engine.Item(kind=clock_engine.BREAK, seconds=1), *items)
    after = index if items[index].kind == clock_engine.LEVEL else index + 1
    return structure_engine.removable_denominations(padded, after, in_play)


def chips_of(t: Tournament) -> dict[int, ChipDenomination]:
    """The tournament's chips by value."""
    # Plain SQL (tourney/core/rows.py): read by every chip race.
    found = load_rows(ChipDenomination, "tournament_id = %s", [t.pk], suffix="ORDER BY value")
    return {c.value: c for c in found}


def in_play_of(chips: Mapping[int, ChipDenomination]) -> list[int]:
    return sorted(v for v, c in chips.items() if c.in_play)


def unit_of(in_play: Sequence[int], remove: int) -> int | None:
    """The chip ``U`` the removed chip changes up into: the next larger one in play."""
    larger = [v for v in in_play if v > remove]
    return larger[0] if larger else None


def seated_by_table(
    t: Tournament, table: int | None = None
) -> dict[int, dict[int, tuple[int, str]]]:
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


def live_races(t: Tournament, table: int | None = None) -> list[Event]:
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


def races_by_table(races: Iterable[Event]) -> dict[int, dict[int, Event]]:
    """{table: {removed chip: its race}}."""
    by_table: dict[int, dict[int, Event]] = {}
    for ev in races:
        by_table.setdefault(ev.payload["table"], {})[ev.payload["remove"]] = ev
    return by_table


def _race_view(ev: Event) -> dict[str, Any]:
    return {**{k: v for k, v in ev.payload.items() if k != "inputs"}, "event": ev.pk}


# ---------------------------------------------------------------- reads


def colorup_pending(t: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """What the color-up of the current (or next) break removes (RULES 5.1), the players per
    open table who report odd chips, which tables have raced which chip, the races so far, and
    the chips in play with the average stack (RULES 5.9)."""
    items = structure_items(t)
    index = current_index(t, now, items)
    key = key_break(items, index)
    chips = chips_of(t)
    in_play = in_play_of(chips)
    races = live_races(t)
    upto = key if key is not None else index
    named = {c for it in items[: upto + 1] if it.kind == clock_engine.BREAK for c in it.color_up}
    pending = sorted((named | {ev.payload["remove"] for ev in races}) & set(in_play))
    removable = set(removable_chips(items, index, in_play))
    by_table = races_by_table(races)
    tables = []
    for number, seats in seated_by_table(t).items():
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
    left = players_left(t)
    total = total_chips(t)
    return {
        "clock_index": index,
        "at_break": items[index].kind == clock_engine.BREAK,
        "break_index": key,
        "in_play": in_play,
        "denominations": [
            {
                "value": d,
                "color": chips[d].color,
                "unit": unit_of(in_play, d),
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
