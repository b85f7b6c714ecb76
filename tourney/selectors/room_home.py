"""The director home (issue 28): every event of today and upcoming, one row each, with its
clock, its field, the tables it holds and what needs the director now. Read in a fixed number
of queries however many events the room runs (the tournaments, their structures, their
entries, their open tables and their chips: five), never a query per event.

Readings:

* **Which events.** Unfinished events starting today or later in their own zone, running
  ones whatever their start, and unfinished ones with no start time; then the events
  finished today (by their start, else their last clock anchor, else their creation), at the
  bottom. Every other event is a past one (``past_rows``).
* **Alerts** are reads, nothing is written: a table to break (RULES 3.4: the players fit in
  the open tables less the next in the break order) or tables to balance (RULES 3.1), a
  color-up due (the clock is at a break whose color-up names chips still in play, RULES 5.1),
  and the level about to end (two minutes or less left, the clock running).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import Count, Q
from django.utils import dateformat, formats, timezone
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_noop as N_

from tables.engine import balancing
from tables.models import Table
from tables.selectors import seating_settings
from tourney.engine import clock as clock_engine
from tourney.engine import floor_plan as plan_engine
from tourney.models import ChipDenomination, Entry, Tournament
from tourney.selectors.clock import anchor_of, structures_items
from tourney.selectors.display import duration_display

LEVEL_ENDING_MS = 2 * 60 * 1000
MAX_ROWS = 100
PAST_PAGE = 50
UNFINISHED = (Tournament.Status.SETUP, Tournament.Status.RUNNING)

# Alerts in the active language (the API activates English): templates for gettext.
MSG_TO_BREAK = N_("Table %(table)s to break")
MSG_BALANCE = N_("Tables to balance (%(most)s and %(least)s players)")
MSG_COLORUP = N_("Color-up due: %(chips)s")
MSG_LEVEL_ENDING = N_("Level ends in %(left)s")
# The statuses' words on the screens (the codes stay in ``status``: CSS classes, the API).
STATUS_WORDS = {
    "finished": N_("finished"),
    "bagged": N_("bagged"),
    "registering": N_("registering"),
    "paused": N_("paused"),
    "on break": N_("on break"),
    "running": N_("running"),
}


def _alert(code: str, template: str, **params) -> dict[str, str]:
    return {"code": code, "message": gettext(template) % params}


def _number(value: int) -> str:
    """A count of chips with the active language's thousands separator ("1,000")."""
    return formats.number_format(value, force_grouping=True)


def _local_day(moment: datetime | None, t: Tournament) -> date | None:
    return timezone.localtime(moment, t.zone).date() if moment else None


def _today(t: Tournament, now: datetime) -> date:
    return timezone.localtime(now, t.zone).date()


def _day_of(t: Tournament) -> date | None:
    """The day a finished event belongs to: its start, else its last anchor, else its creation."""
    return _local_day(t.starts_at or t.clock_at or t.created_at, t)


def _on_home(t: Tournament, now: datetime) -> bool:
    today = _today(t, now)
    if t.status == Tournament.Status.FINISHED:
        return _day_of(t) == today
    if t.status == Tournament.Status.RUNNING or t.starts_at is None:
        return True
    return _local_day(t.starts_at, t) >= today


def _order(t: Tournament) -> tuple:
    return (t.status == Tournament.Status.FINISHED, t.starts_at or t.created_at, t.pk)


def home_tournaments(now: datetime) -> list[Tournament]:
    """The events the home lists, in its order (one query)."""
    # Two days back covers every zone's "today"; running and setup ones come whatever their day.
    since = now - timedelta(days=2)
    found = Tournament.objects.filter(
        Q(status__in=UNFINISHED)
        | Q(starts_at__gte=since)
        | Q(clock_at__gte=since)
        | Q(created_at__gte=since)
    ).defer("payout_percentages", "frozen_prizes", "mystery_envelopes")
    return sorted((t for t in found if _on_home(t, now)), key=_order)[:MAX_ROWS]


def _fields(ids: Sequence[int]) -> dict[int, dict[str, int]]:
    out = Entry.objects.filter(tournament_id__in=ids).values("tournament_id")
    agg = out.annotate(entries=Count("id"), left=Count("id", filter=~Q(status=Entry.Status.BUSTED)))
    return {r["tournament_id"]: r for r in agg}


def _tables(ids: Sequence[int]) -> dict[int, list[tuple[int, int, int, int]]]:
    """Open tables by tournament: (number, available seats, players, break rank), in the
    break order (RULES 3.5: break rank, then the highest number)."""
    rows = Table.objects.filter(tournament_id__in=ids, status=Table.Status.OPEN).order_by(
        "break_rank", "-number"
    )
    out: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)
    for tid, number, seats, blocked, players, rank in rows.values_list(
        "tournament_id", "number", "seats", "unavailable_seats", "players", "break_rank"
    ):
        out[tid].append((number, seats - len(blocked or ()), players, rank))
    return out


def _chips_in_play(ids: Sequence[int]) -> dict[int, dict[int, str]]:
    out: dict[int, dict[int, str]] = defaultdict(dict)
    rows = ChipDenomination.objects.filter(tournament_id__in=ids, in_play=True)
    for tid, value, color in rows.values_list("tournament_id", "value", "color"):
        out[tid][value] = color
    return out


def _status(t: Tournament, state: clock_engine.ClockState | None) -> str:
    """registering, running, on break, paused, finished (bagged: a flight whose day is over)."""
    if t.status == Tournament.Status.FINISHED:
        return "finished"
    if t.bagged:
        return "bagged"
    if state is None or t.status == Tournament.Status.SETUP or not t.clock_started:
        return "registering"
    if state.status == clock_engine.PAUSED:
        return "paused"
    if state.item.kind == clock_engine.BREAK:
        return "on break"
    return "running"


def _table_alerts(t: Tournament, tables: list[tuple[int, int, int, int]]) -> list[dict]:
    """RULES 3.4 and 3.1 from the open tables' totals (``balancing.settled``'s test)."""
    if len(tables) <= 1:
        return []
    players = sum(p for _, _, p, _ in tables)
    seats = sum(s for _, s, _, _ in tables)
    first_number, first_seats, _, _ = tables[0]
    if players <= seats - first_seats:
        return [_alert("table_to_break", MSG_TO_BREAK, table=first_number)]
    sizes = [p for _, _, p, _ in tables]
    most, least = max(sizes), min(sizes)
    if most - least > balancing.tolerance_for(len(tables), seating_settings(t)):
        message = gettext(MSG_BALANCE) % {"most": most, "least": least}
        return [{"code": "balance", "message": message}]
    return []


def _alerts(
    t: Tournament,
    state: clock_engine.ClockState | None,
    tables: list[tuple[int, int, int, int]],
    chips: dict[int, str],
) -> list[dict[str, str]]:
    if t.status != Tournament.Status.RUNNING or t.bagged or state is None:
        return []
    alerts = _table_alerts(t, tables) if t.clock_started else []
    item = state.item
    if item.kind == clock_engine.BREAK and state.status != clock_engine.NOT_STARTED:
        due = [c for c in item.color_up if c in chips]
        if due:
            names = ", ".join(_number(c) + (f" ({chips[c]})" if chips[c] else "") for c in due)
            alerts.append(_alert("colorup_due", MSG_COLORUP, chips=names))
    if (
        state.status == clock_engine.RUNNING
        and item.kind == clock_engine.LEVEL
        and state.remaining_ms <= LEVEL_ENDING_MS
    ):
        left = duration_display(state.remaining_ms)
        alerts.append(_alert("level_ending", MSG_LEVEL_ENDING, left=left))
    return alerts


def _level(state: clock_engine.ClockState | None) -> dict[str, Any] | None:
    if state is None:
        return None
    item = state.item
    return {
        "kind": item.kind,
        "number": state.level_number,
        "small_blind": item.small_blind,
        "big_blind": item.big_blind,
        "ante": item.ante,
        "big_blind_ante": item.big_blind_ante,
    }


def _level_text(level: dict[str, Any] | None) -> tuple[str, str]:
    """("Level 3", "100 / 200 · ante 200"), ("Break", "") or ("", "")."""
    if level is None:
        return "", ""
    if level["kind"] == clock_engine.BREAK:
        return gettext("Break"), ""
    blinds = f"{_number(level['small_blind'])} / {_number(level['big_blind'])}"
    if level["big_blind_ante"]:
        blinds += " · " + gettext("BB ante %(ante)s") % {"ante": _number(level["big_blind_ante"])}
    elif level["ante"]:
        blinds += " · " + pgettext("blinds", "ante %(ante)s") % {"ante": _number(level["ante"])}
    return gettext("Level %(number)s") % {"number": level["number"]}, blinds


def _starts_text(t: Tournament, now: datetime) -> str:
    """The start in the event's zone: "19:00" today, "Thu 3 Dec 19:00" another day."""
    if t.starts_at is None:
        return ""
    local = timezone.localtime(t.starts_at, t.zone)
    if local.date() == _today(t, now):
        return local.strftime("%H:%M")
    return dateformat.format(local, "D j M H:i")  # the day's and month's names translated


def _row(t: Tournament, now: datetime, items, field, tables, chips) -> dict[str, Any]:
    state = None
    if items:
        state = clock_engine.state(items, anchor_of(t), now)
        if t.status == Tournament.Status.FINISHED:
            state = clock_engine.over(state)
    running = state is not None and state.status == clock_engine.RUNNING
    shown = state is not None and t.clock_started and t.status == Tournament.Status.RUNNING
    level = _level(state) if shown else None
    level_text, blinds_text = _level_text(level)
    remaining = state.remaining_ms if shown else None
    return {
        "id": t.pk,
        "name": t.name,
        "display_token": t.display_token,  # the screens' links (the API leaves it out)
        "starts_at": timezone.localtime(t.starts_at, t.zone) if t.starts_at else None,
        "starts_text": _starts_text(t, now),
        "status": _status(t, state),
        "status_text": gettext(STATUS_WORDS[_status(t, state)]),
        "level": level,
        "level_text": level_text,
        "blinds_text": blinds_text,
        "remaining_ms": remaining,
        "remaining_text": duration_display(remaining) if remaining is not None else "",
        "clock_running": running and t.status == Tournament.Status.RUNNING,
        "players_left": field.get("left", 0),
        "entries": field.get("entries", 0),
        "tables": sorted(n for n, *_ in tables),
        "tables_text": plan_engine.compact(n for n, *_ in tables),
        "alerts": _alerts(t, state, tables, chips),
    }


def rows_of(tournaments: Iterable[Tournament], now: datetime) -> list[dict[str, Any]]:
    """One home row per tournament, in the order given: four queries for all of them."""
    ts = list(tournaments)
    ids = [t.pk for t in ts]
    if not ids:
        return []
    levels, fields = structures_items(ids), _fields(ids)
    tables, chips = _tables(ids), _chips_in_play(ids)
    return [
        _row(
            t,
            now,
            levels.get(t.pk, ()),
            fields.get(t.pk, {}),
            tables.get(t.pk, []),
            chips.get(t.pk, {}),
        )
        for t in ts
    ]


def home_rows(now: datetime | None = None) -> list[dict[str, Any]]:
    """The director home's rows: today's and upcoming events, today's finished ones last."""
    now = now or timezone.now()
    return rows_of(home_tournaments(now), now)


def past_rows(now: datetime | None = None, *, page: int = 1) -> tuple[list[dict[str, Any]], bool]:
    """The events not on the home (finished before today, or set up for a day gone by),
    newest first, ``PAST_PAGE`` a page; and whether there is a next page."""
    now = now or timezone.now()
    on_home = {t.pk for t in home_tournaments(now)}
    start = (max(page, 1) - 1) * PAST_PAGE
    found = list(
        Tournament.objects.exclude(pk__in=on_home)
        .defer("payout_percentages", "frozen_prizes", "mystery_envelopes")
        .order_by("-created_at", "-pk")[start : start + PAST_PAGE + 1]
    )
    return rows_of(found[:PAST_PAGE], now), len(found) > PAST_PAGE
