"""Reads shaped for the dashboard's panels (the tables panel's in ``tables_panel``). No writes.
Each panel costs a fixed number of queries whatever the field size (a test compares 20 and
10,000 entries): counts and aggregates in the database."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from tables.models import Move, Seat, Table
from tourney import selectors, services
from tourney.engine import clock as clock_engine
from tourney.engine.money_format import money_exact
from tourney.engine.structure import item_number_of
from tourney.models import Entry, Event, Tournament
from tourney.selectors import average_stack
from tourney.selectors import clock as clock_reads
from tourney.selectors.flights import day_screen
from tourney.selectors.money import (
    deal_amounts,
    deal_quote,
    money_open,
    money_summary,
    pool_of,
    window_passed,
)
from tourney.views.dashboard import bounties as bounty_screens
from tourney.views.dashboard import satellite_reads

MOVES_SHOWN = 100
LOG_SHOWN = 40
# Every recorded move: a seat move is an alternate called to a seat (a new entry's first seat
# is no Move row: the desk hands out its seat card, RULES 3.8).
TO_ANNOUNCE = Q(
    reason__in=[
        Move.Reason.BALANCE,
        Move.Reason.BREAK,
        Move.Reason.REDRAW,
        Move.Reason.MANUAL,
        Move.Reason.SEAT,
    ]
)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def place_words(place: int | None, place_to: int | None) -> str:
    if place is None:
        return ""
    if place_to and place_to != place:
        return f"{ordinal(place)}–{ordinal(place_to)} (tie)"
    return ordinal(place)


# ---------------------------------------------------------------- clock and header


def clock_text(ms: int) -> str:
    """What the countdown shows before the browser takes over: m:ss or h:mm:ss."""
    seconds = max(0, ms) // 1000 + (1 if ms % 1000 else 0)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def clock_panel(t: Tournament, now: datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    items = clock_reads.structure_items(t)
    day = day_screen(t, now, items=items)  # RULES 10.2: None outside multi-day events
    # Finished where it stopped once over (a flight: once it has ended).
    state = clock_reads.clock_read(t, now, items=items) if day is None else day.clock
    nxt = items[state.next_index] if state.next_index is not None else None
    # A flight's last level: its clock stops there, nothing comes next today.
    flight_last = bool(day and day.last_index is not None and state.index >= day.last_index)
    to_break = state.ms_to_next_break
    if day and day.last_index is not None and (state.next_break_index or 0) > day.last_index:
        to_break = None  # the flight stops before that break
    totals = selectors.entry_totals(t)  # one read for the four figures below
    left, entries = totals["seated"], totals["entries"]
    chips = selectors.total_chips(t, bought=totals["chips_bought"])
    late_level = item_number_of(items, clock_engine.LEVEL, t.late_reg_until)
    # RULES 4.4: the window shuts with the clock, before the worker's beat flips the flag.
    passed = window_passed(t.late_reg_until, state.index if t.clock_started else None)
    if not t.registration_open or passed:
        late_reg = "closed"
    elif late_level:
        late_reg = f"open until the end of level {late_level}"
    else:
        late_reg = "open"
    return {
        "tournament": t,
        "items": items,
        "clock": state,
        "item": state.item,
        "next_item": None if flight_last else nxt,
        "flight_line": day.line if day else "",
        "flight_over": bool(day and day.ended),
        "flight_last": flight_last,
        "players_left": left,
        "entries": entries,
        "average_stack": average_stack(chips, left),
        "total_chips": chips,
        "prize_pool": money_exact(pool_of(t, paid=totals["paid"])),
        "late_reg": late_reg,
        "remaining_text": clock_text(state.remaining_ms),
        "break_in_text": clock_text(to_break) if to_break is not None else None,
        "levels": [
            {"index": i, "label": _item_label(it, item_number_of(items, clock_engine.LEVEL, i))}
            for i, it in enumerate(items)
        ],
        "at_colorup_break": state.item.kind == clock_engine.BREAK and bool(state.item.color_up),
        # One player left: the clock stopped; the panel offers the results instead.
        "finished": t.status == Tournament.Status.FINISHED,
        "winner": _winner_name(t) if t.status == Tournament.Status.FINISHED else "",
    }


def _winner_name(t: Tournament) -> str:
    row = (
        Entry.objects.filter(tournament=t, place=1, place_to=1)
        .exclude(status=Entry.Status.BUSTED)
        .values_list("player__name", flat=True)
        .first()
    )
    return row or ""


def _item_label(it: clock_engine.Item, number: int | None) -> str:
    if it.kind == clock_engine.BREAK:
        return f"Break {it.seconds // 60} min" + (
            f" (color-up {', '.join(map(str, it.color_up))})" if it.color_up else ""
        )
    ante = f" ({it.big_blind_ante})" if it.big_blind_ante else f" ante {it.ante}" if it.ante else ""
    return f"Level {number}: {it.small_blind}/{it.big_blind}{ante}"


# ---------------------------------------------------------------- eliminations and moves


def _move_rows(moves) -> list[dict[str, Any]]:
    out = []
    for m in moves:
        name = m.entry.player.name
        where = f"table {m.from_table} seat {m.from_seat}" if m.from_table else "alternate"
        waits = " (waits for the button)" if m.waits_for_button else ""
        out.append(
            {
                "id": m.pk,
                "name": name,
                "from_table": m.from_table,
                "from_seat": m.from_seat,
                "to_table": m.to_table,
                "to_seat": m.to_seat,
                "reason": m.get_reason_display(),
                "reason_code": m.reason,
                "waits": m.waits_for_button,
                "announced": m.announced,
                "text": f"{name}, {where}, move to table {m.to_table} seat {m.to_seat}"
                f" — {m.get_reason_display().lower()}{waits}",
            }
        )
    return out


def last_hand(t: Tournament) -> dict[str, Any] | None:
    """The last recorded elimination: places, prizes, and the moves it caused."""
    ev = (
        Event.objects.filter(tournament=t, kind="elimination", undone=False).order_by("-id").first()
    )
    if ev is None:
        return None
    busted = [b[0] for b in ev.payload.get("busts", [])]
    out = []
    for e in (
        Entry.objects.filter(tournament=t, pk__in=busted)
        .select_related("player")
        .order_by("place", "bust_table", "bust_seat")
    ):
        out.append(
            {
                "name": e.player.name,
                "number": e.number,
                "table": e.bust_table,
                "seat": e.bust_seat,
                "stack": e.bust_stack,
                "place": place_words(*e.places_now(t.place_lag)),
                "prize": money_exact(e.prize) if e.prize else "",
            }
        )
    moves = _move_rows(
        Move.objects.filter(tournament=t, event=ev).select_related("entry__player").order_by("id")
    )
    winner = None
    if ev.payload.get("winner"):
        w = Entry.objects.filter(pk=ev.payload["winner"]).select_related("player").first()
        winner = w.player.name if w else None
    return {
        "event": ev.pk,
        "at": ev.created_at,
        "busted": out,
        "moves": moves,
        "winner": winner,
        # RULES 9: the bounties to pay, and where each winner sat in the hand
        "bounties": bounty_screens.payment_lines(t, ev.payload.get("bounties") or []),
        # docs/rules.md 7.6: entries can still come, each moving the players out one place down
        "provisional": bool(out) and services.places_provisional(t),
    }


def eliminations_panel(t: Tournament) -> dict[str, Any]:
    return {"last": last_hand(t), "tournament": t}


def _batch_title(rows: list[dict[str, Any]]) -> str:
    """What caused a batch of moves, as the floor announces it: "Table 3 breaks", "Redraw to
    the final table", "Balancing", "Alternates seated", "Moved by the floor"."""
    reasons = {r["reason_code"] for r in rows}
    parts = []
    if Move.Reason.BREAK in reasons:
        broken = sorted({r["from_table"] for r in rows if r["reason_code"] == Move.Reason.BREAK})
        tables = ", ".join(map(str, broken))
        parts.append(
            f"Table{'s' if len(broken) > 1 else ''} {tables} break{'' if len(broken) > 1 else 's'}"
        )
    if Move.Reason.REDRAW in reasons:
        to = {r["to_table"] for r in rows if r["reason_code"] == Move.Reason.REDRAW}
        parts.append("Redraw to the final table" if len(to) == 1 else f"Redraw to {len(to)} tables")
    if Move.Reason.BALANCE in reasons:
        parts.append("Balancing")
    if Move.Reason.SEAT in reasons:
        parts.append("Alternates seated")
    if Move.Reason.MANUAL in reasons:
        parts.append("Moved by the floor")
    return " · ".join(parts) or "Moves"


def moves_panel(t: Tournament) -> dict[str, Any]:
    """The moves still to announce, newest batch first (issue 31, live event: the list kept
    every move since the start, oldest first). A batch is the moves one action caused (a
    bust that broke a table, a redraw, alternates seated); its "Announced" button ticks it
    off through ``setup.move_mark_announced`` (a logged bookkeeping event that undo walks
    past). Not a time cut-off: a move nobody called out must stay until it is."""
    pending = Move.objects.filter(tournament=t, announced=False).filter(TO_ANNOUNCE)
    newest = list(pending.select_related("entry__player").order_by("-id")[:MOVES_SHOWN])
    batches: dict[Any, dict[str, Any]] = {}
    for m, row in zip(newest, _move_rows(newest), strict=True):
        key = m.event_id if m.event_id is not None else f"move-{m.pk}"
        batch = batches.setdefault(key, {"key": key, "at": m.created_at, "moves": []})
        batch["moves"].append(row)
    out = []
    for batch in batches.values():  # newest first, as read
        batch["moves"].reverse()  # within a batch, in the order they were made
        batch["title"] = _batch_title(batch["moves"])
        # RULES 3.7: a redraw batch links the printable redraw sheet (issue 31 item 2)
        batch["redraw"] = any(r["reason_code"] == Move.Reason.REDRAW for r in batch["moves"])
        batch["ids"] = [r["id"] for r in batch["moves"]]
        out.append(batch)
    rows = [r for b in out for r in b["moves"]]
    return {
        "moves": rows,
        "move_batches": out,
        "moves_total": pending.count(),
        "redraw_sheet": any(b["redraw"] for b in out),
    }


# ---------------------------------------------------------------- event log


def _end_words(items, p: dict) -> str:
    """Where a flight now ends (RULES 10.2), for the log: "level 12 or 40 players"."""
    parts = []
    if p.get("end_at_level") is not None:
        parts.append(_item_words(items, p.get("end_at_level")))
    if p.get("end_at_players") is not None:
        parts.append(f"{p['end_at_players']} players")
    return " or ".join(parts)


def _item_words(items, index: Any) -> str:
    """A structure item as the director reads it: "level 5", "the break after level 4"
    (issue 31, live event: "item 5" meant nothing)."""
    try:
        i = int(index)
    except (TypeError, ValueError):
        return f"item {index}"
    if not items or not 0 <= i < len(items):
        return f"item {index}"
    level = item_number_of(items, clock_engine.LEVEL, i)
    if items[i].kind == clock_engine.BREAK:
        return f"the break after level {level}" if level else "the opening break"
    return f"level {level}"


def _entry_words(entries: dict[int, tuple[str, int]], entry_id: Any) -> str:
    """An entry named in the log: "Ann Lee (entry 2)"; the id when the row is gone."""
    row = entries.get(entry_id) if isinstance(entry_id, int) else None
    return f"{row[0]} (entry {row[1]})" if row else f"entry {entry_id}"


ITEM_KINDS = ("clock_jump", "level_started", "break_started")  # name a level or a break
ENTRY_KINDS = ("entry_reentered", "move_manual")  # name an entry


def log_lookups(t: Tournament, events) -> dict[str, Any]:
    """What the log's sentences name beyond the payload, read once for a page of events and
    only when one of them needs it: the structure (levels and breaks) and the entries
    re-entered or moved by hand."""
    ids = {(ev.payload or {}).get("entry") for ev in events if ev.kind in ENTRY_KINDS}
    ids = {i for i in ids if isinstance(i, int)}
    entries = {}
    if ids:
        rows = Entry.objects.filter(tournament=t, pk__in=ids).values_list(
            "pk", "player__name", "number"
        )
        entries = {pk: (name, number) for pk, name, number in rows}
    items = clock_reads.structure_items(t) if any(ev.kind in ITEM_KINDS for ev in events) else []
    return {"items": items, "entries": entries}


def _event_words(kind: str, p: dict[str, Any], look: dict[str, Any] | None = None) -> str:
    items = (look or {}).get("items") or []
    entries = (look or {}).get("entries") or {}
    words = {
        "tournament_created": lambda: f"Tournament created ({p.get('tables')} tables)",
        "tournament_copied": lambda: f"Copied from tournament #{p.get('source')}",
        "entry_registered": lambda: f"Entry #{p.get('number')} {p.get('name', '')}",
        "elimination": lambda: (
            "Out: "
            + ", ".join(place_words(x["place"], x["place_to"]) for x in p.get("places", []))
            + (f"; {len(p['moves'])} move(s)" if p.get("moves") else "")
            + bounty_screens.log_words(p.get("bounties"))
        ),
        "button_set": lambda: f"Table {p.get('table')}: button to seat {p.get('after')}",
        "buttons_drawn": lambda: f"Buttons drawn ({len(p.get('buttons', {}))} table(s))",
        "tables_opened": lambda: "Opened table(s) " + ", ".join(map(str, p.get("tables", []))),
        "table_closed": lambda: f"Table {p.get('table')} broken",
        "break_order_set": lambda: "Break order: " + ", ".join(map(str, p.get("after", []))),
        "seat_availability": lambda: (
            f"Table {p.get('table')} seat {p.get('seat')} "
            + ("available" if p.get("available") else "unavailable")
        ),
        "move_manual": lambda: f"Manual move of {_entry_words(entries, p.get('entry'))}",
        "entry_reentered": lambda: (
            f"Re-entry: {_entry_words(entries, p.get('entry'))}"
            + (f", re-entry {p['reentry']}" if p.get("reentry") else "")
        ),
        "moves_announced": lambda: f"{len(p.get('moves', []))} move(s) announced",
        "hand_for_hand": lambda: "Hand for hand " + ("on" if p.get("on") else "off"),
        "hand_for_hand_round": lambda: f"Hand-for-hand round {p.get('round')}",
        "clock_adjust": lambda: f"Clock {int(p.get('seconds') or 0):+d} s",
        "clock_set": lambda: f"Clock set to {clock_text(int(p.get('seconds') or 0) * 1000)} left",
        "clock_jump": lambda: f"Clock jumped to {_item_words(items, p.get('index'))}",
        "level_started": lambda: f"{_item_words(items, p.get('index')).capitalize()} started",
        "break_started": lambda: f"{_item_words(items, p.get('index')).capitalize()} started",
        "chip_race": lambda: f"Chip race at table {p.get('table')}: {p.get('remove')}s",
        "deal_recorded": lambda: (
            f"Deal recorded ({p.get('method')})"
            + ("; the bounties in play included" if p.get("include_bounties") else "")
        ),
        "settings_changed": lambda: f"Settings: {p.get('summary', '')}",
        # RULES 10.4, 10.8: counts and bags; 10.2, 10.5: a flight's end and Day 2's seats
        "chip_counts": lambda: f"Chip counts of {len(p.get('counts', []))} player(s)",
        "bags_recorded": lambda: f"Table {p.get('table')}: {len(p.get('counts', {}))} bag(s)",
        "flight_end_set": lambda: "Flight's end: " + _end_words(items, p),
        "flight_bagged": lambda: f"Flight bagged: {int(p.get('counted') or 0):,} chips",
        "flight_ended": lambda: (
            "Flight ended: "
            + ("the field reached its number" if p.get("reason") == "players" else "last level")
        ),
        "day2_seated": lambda: f"Day 2 seated: {p.get('entries')} stacks drawn",
        **satellite_reads.log_words(p),  # RULES 12: tickets, a satellite's settings and deal
    }
    fn = words.get(kind)
    if fn is not None:
        try:
            return fn()
        except (KeyError, TypeError, ValueError):
            pass
    return kind.replace("_", " ").capitalize()


# The event log's filter, in words (issue 31): the kinds a director filters by, as they say them.
KIND_LABELS = {
    "elimination": "Eliminations",
    "entry_registered": "Registrations",
    "entry_reentered": "Re-entries",
    "entry_rebuy": "Rebuys",
    "entry_addon": "Add-ons",
    "entry_registration_undone": "Registrations undone",
    "alternates_seated": "Alternates seated",
    "seats_drawn": "Seat draw",
    "button_set": "Button moved",
    "buttons_drawn": "Buttons drawn",
    "tables_opened": "Tables opened",
    "table_closed": "Tables broken",
    "break_order_set": "Break order",
    "seat_availability": "Seats closed or reopened",
    "move_manual": "Manual moves",
    "moves_announced": "Moves announced",
    "hand_for_hand": "Hand for hand on/off",
    "hand_for_hand_round": "Hand-for-hand rounds",
    "clock_start": "Clock started",
    "clock_pause": "Clock paused",
    "clock_resume": "Clock resumed",
    "clock_next": "Clock: next level",
    "clock_previous": "Clock: previous level",
    "clock_adjust": "Clock: time added or removed",
    "clock_set": "Clock: time left set",
    "clock_jump": "Clock: jumped to a level",
    "level_started": "Levels started",
    "break_started": "Breaks started",
    "color_up_finished": "Color-ups",
    "chip_race": "Chip races",
    "registration_closed": "Registration closed",
    "payouts_set": "Payout table changed",
    "payouts_frozen": "Payouts frozen",
    "deal_recorded": "Deals",
    "structure_set": "Structure changed",
    "settings_changed": "Settings changed",
    "tournament_created": "Tournament created",
    "tournament_copied": "Tournament copied",
    "tournament_finished": "Tournament finished",
    "display_token_rotated": "Display link rotated",
    "chip_counts": "Chip counts",
    "bags_recorded": "Bags",
    "flight_end_set": "Flight's end changed",
    "flight_bagged": "Flight bagged",
    "flight_ended": "Flight ended",
    "day2_seated": "Day 2 seated",
    "undo": "Undo",
    "redo": "Redo",
    **satellite_reads.KIND_LABELS,
}


def kind_label(kind: str) -> str:
    return KIND_LABELS.get(kind) or kind.replace("_", " ").capitalize()


def log_kinds(t: Tournament) -> list[dict[str, str]]:
    """The kinds this tournament's log holds, as ``{"kind", "label"}``, by label."""
    kinds = set(Event.objects.filter(tournament=t).order_by().values_list("kind", flat=True))
    return sorted(({"kind": k, "label": kind_label(k)} for k in kinds), key=lambda x: x["label"])


def log_events(t: Tournament, kind: str = ""):
    qs = Event.objects.filter(tournament=t).select_related("actor").order_by("-id")
    return qs.filter(kind=kind) if kind else qs


def _step(ev, look: dict[str, Any] | None = None) -> dict[str, Any] | None:
    if ev is None:
        return None
    return {"id": ev.pk, "kind": ev.kind, "words": _event_words(ev.kind, ev.payload or {}, look)}


def log_panel(t: Tournament, kind: str = "") -> dict[str, Any]:
    from tourney.services.undo import next_steps

    events = list(log_events(t, kind)[:LOG_SHOWN])
    steps = next_steps(t)  # the Undo and Redo buttons say which action they act on
    look = log_lookups(
        t, [*events, *(ev for ev in (steps["undo_event"], steps["redo_event"]) if ev)]
    )
    return {
        "undo_step": _step(steps["undo_event"], look),
        "undo_blocked": steps["undo_blocked"],
        "redo_step": _step(steps["redo_event"], look),
        "log_kind": kind,
        "log_kinds": log_kinds(t),
        "events": [
            {
                "id": ev.pk,
                "kind": ev.kind,
                "at": ev.created_at,
                "who": ev.actor.get_username() if ev.actor else "system",
                "words": _event_words(ev.kind, ev.payload or {}, look),
                "undone": ev.undone,
            }
            for ev in events
        ],
    }


# ---------------------------------------------------------------- printouts


def seating_sheets(t: Tournament) -> list[dict[str, Any]]:
    rows = list(Table.objects.filter(tournament=t, status=Table.Status.OPEN).order_by("number"))
    seats: dict[int, dict[int, str]] = {}
    for table_id, number, name in Seat.objects.filter(tournament=t).values_list(
        "table_id", "number", "entry__player__name"
    ):
        seats.setdefault(table_id, {})[number] = name
    return [
        {
            "number": r.number,
            "button": r.button_seat,
            "seats": [
                {
                    "seat": s,
                    "name": seats.get(r.pk, {}).get(s, ""),
                    "blocked": s in (r.unavailable_seats or ()),
                }
                for s in range(1, r.seats + 1)
            ],
        }
        for r in rows
    ]


def seating_list(t: Tournament) -> list[dict[str, Any]]:
    return [
        {"name": name, "number": number, "table": tn, "seat": s}
        for name, number, tn, s in Seat.objects.filter(tournament=t)
        .order_by("entry__player__name", "entry__number")
        .values_list("entry__player__name", "entry__number", "table__number", "number")
    ]


# ---------------------------------------------------------------- money

DEAL_PLAYERS_MAX = 10  # the deal form shows from this many players left down
PRIZES_SHOWN = 12


def _url_or_none(name: str, *args) -> str | None:
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def _percent_text(table) -> str:
    """Basis points → "50 30 20" (percent, best first), as the payouts form reads it."""
    return " ".join(f"{bp / 100:g}" for bp in table)


def money_context(t: Tournament) -> dict[str, Any]:
    s = money_summary(t)
    deal_players = None
    if not s["deal"] and 2 <= s["players_left"] <= DEAL_PLAYERS_MAX and s["paid_places"]:
        deal_players = deal_quote(t)["players"]
    dealt = deal_amounts(t) if s["deal"] else []
    for d in dealt:
        d["amount_display"] = money_exact(d["amount"])
    return {
        "money": s,
        "money_pool": money_exact(s["prize_pool"]),
        "money_in": money_exact(s["money_in"]),
        "money_fees": money_exact(s["fees"]),
        "money_overlay": money_exact(s["overlay"]),
        "money_unpaid": money_exact(s["unpaid"]),
        "money_prizes": [
            {"place": p["place"], "prize": money_exact(p["prize"])}
            for p in s["prizes"][:PRIZES_SHOWN]
        ],
        "money_more_places": max(0, len(s["prizes"]) - PRIZES_SHOWN),
        "deal_players": deal_players,
        "deal_rows": dealt,
        # RULES 8.3: a deal waits until no more money can come in (deal_money_open)
        "money_open": money_open(t),
        "can_close_rebuys": t.rebuy_price > 0 and t.rebuys_open,
        "payouts_text": _percent_text(s["percentages"]),
        "rounding_text": money_exact(s["rounding_unit"]),
        "results_print_url": _url_or_none("tourney-results-print", t.pk),
        **bounty_screens.money_bounties(t),  # RULES 9.9: apart from the prize money
        "results_csv_url": _url_or_none("tourney-results-csv", t.pk),
        **satellite_reads.money_satellite(t, s, PRIZES_SHOWN),  # RULES 12: seats, tickets
    }
