"""Reads shaped for the dashboard's panels (the tables panel's in ``tables_panel``). No writes.
Each panel costs a fixed number of queries whatever the field size (a test compares 20 and
10,000 entries): counts and aggregates in the database."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tables.models import Move, Seat, Table
from tourney import selectors, services
from tourney.engine import clock as clock_engine
from tourney.engine.errors import DomainError
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
from tourney.views.dashboard import log_words, satellite_reads
from tourney.views.dashboard.log_words import (  # noqa: F401 - the log's words, re-exported
    KIND_LABELS,
    _event_words,
    clock_text,
    kind_label,
    ordinal,
    place_words,
)

# A move's reason in words (the model's labels are English: the screens say them here).
REASON_WORDS = {
    Move.Reason.SEAT: gettext_lazy("Seated"),
    Move.Reason.BALANCE: gettext_lazy("Balance"),
    Move.Reason.BREAK: gettext_lazy("Table break"),
    Move.Reason.REDRAW: gettext_lazy("Redraw"),
    Move.Reason.MANUAL: gettext_lazy("Manual"),
}
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


# ---------------------------------------------------------------- clock and header


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
        late_reg = _("closed")
    elif late_level:
        late_reg = _("open until the end of level %(level)s") % {"level": late_level}
    else:
        late_reg = _("open")
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
        return _("Break %(minutes)s min") % {"minutes": it.seconds // 60} + (
            " (" + _("color-up %(chips)s") % {"chips": ", ".join(map(str, it.color_up))} + ")"
            if it.color_up
            else ""
        )
    ante = (
        f" ({it.big_blind_ante})"
        if it.big_blind_ante
        else " " + _("ante %(ante)s") % {"ante": it.ante}
        if it.ante
        else ""
    )
    return _("Level %(n)s") % {"n": number} + f": {it.small_blind}/{it.big_blind}{ante}"


# ---------------------------------------------------------------- eliminations and moves


def _move_rows(moves) -> list[dict[str, Any]]:
    out = []
    for m in moves:
        name = m.entry.player.name
        reason = str(REASON_WORDS.get(m.reason) or m.get_reason_display())
        where = (
            _("table %(table)s seat %(seat)s") % {"table": m.from_table, "seat": m.from_seat}
            if m.from_table
            else _("alternate")
        )
        waits = " (" + _("waits for the button") + ")" if m.waits_for_button else ""
        out.append(
            {
                "id": m.pk,
                "name": name,
                "from_table": m.from_table,
                "from_seat": m.from_seat,
                "to_table": m.to_table,
                "to_seat": m.to_seat,
                "reason": reason,
                "reason_code": m.reason,
                "waits": m.waits_for_button,
                "announced": m.announced,
                "text": _("%(name)s, %(where)s, move to table %(table)s seat %(seat)s")
                % {"name": name, "where": where, "table": m.to_table, "seat": m.to_seat}
                + f" — {reason.lower()}{waits}",
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
            ngettext("Table %(tables)s breaks", "Tables %(tables)s break", len(broken))
            % {"tables": tables}
        )
    if Move.Reason.REDRAW in reasons:
        to = {r["to_table"] for r in rows if r["reason_code"] == Move.Reason.REDRAW}
        parts.append(
            _("Redraw to the final table")
            if len(to) == 1
            else _("Redraw to %(n)s tables") % {"n": len(to)}
        )
    if Move.Reason.BALANCE in reasons:
        parts.append(_("Balancing"))
    if Move.Reason.SEAT in reasons:
        parts.append(_("Alternates seated"))
    if Move.Reason.MANUAL in reasons:
        parts.append(_("Moved by the floor"))
    return " · ".join(parts) or _("Moves")


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


def _next_steps(t: Tournament) -> dict[str, Any]:
    """``services.undo.next_steps``, with why the log cannot undo in the screen's language."""
    from tourney.services.undo import redo_target, undo_target

    try:
        undo, blocked = undo_target(t), ""
    except DomainError as exc:
        undo, blocked = None, log_words.undo_refusal(exc)
    return {"undo_event": undo, "undo_blocked": blocked, "redo_event": redo_target(t)}


def log_panel(t: Tournament, kind: str = "") -> dict[str, Any]:
    events = list(log_events(t, kind)[:LOG_SHOWN])
    steps = _next_steps(t)  # the Undo and Redo buttons say which action they act on
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
                "who": ev.actor.get_username() if ev.actor else _("system"),
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
