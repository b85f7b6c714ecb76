"""What a lobby display shows (issue 28): several events at once, each as a card with its
clock, field and money, and for an event still registering its start, seats left and price.
No writes. Anyone holding the lobby's token reads this, so it carries only what each event's
own public display shows (``tourney.selectors.display``), and no player at all.

Which events, in which order (``lobby_events``):

* The lobby's chosen tournaments, or, when none is chosen, every tournament of today and
  upcoming: its ``starts_at`` falls today or later in the tournament's own zone, or it has no
  start time, or it is running (an evening event plays on past midnight).
* Never a finished one (chosen or not): the lobby is for events still to play.
* Running events first, then those registering (setup), each by start time (those without
  one after those with one), then by creation; the first ``EVENTS_MAX`` of them.

The clock of each card is the one its TV shows, to the millisecond: the same anchors read
through the same selectors (``clock_read``, a multi-day event's ``day_screen`` and the
display's own day clock), carried as ``remaining_ms`` at ``server_time_ms`` with the items
that follow, so the browser counts down and rolls over as the TV's script does (RULES 4.3).
The reads are batched: the structures, entry counts and open seats of every event in one
query each, so a lobby of twelve events costs what one of two does (a multi-day event's day
reads a little more, as on its TV).

Seats left (a registering event, or a running one whose late registration is open): the
empty seats at the event's open tables (a seat marked unavailable is no seat) less the
entries waiting for one: the alternates and, where seats are drawn at the start rather than
at the desk (``draw_at_registration`` off, RULES 1), every entry registered without a seat.
So it is the capacity left at the tables open now; opening tables adds to it. None (not
shown) while the event has no open table.

The state carries one ETag for the whole lobby: a hash of the lobby's settings, the events
shown and each one's version and clock anchor (what each event's display ETag holds). An
unchanged lobby answers a poll with 304 from a cached version (no query); a running clock
crosses levels without a write, so, as on the TV, a cached body the clocks have outrun
(``display.outrun``) is built anew.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Q, Sum
from django.utils import formats, timezone
from django.utils.translation import pgettext

from tables.models import Table
from tables.selectors import blocked_sql
from tourney.core.money_text import money_whole
from tourney.core.rows import kept_cursor
from tourney.engine import clock as clock_engine
from tourney.models import Entry, Lobby, Tournament
from tourney.selectors import average_stack, polled, total_chips
from tourney.selectors import display as public
from tourney.selectors.bounties import buy_in_split
from tourney.selectors.clock import clock_read, structures_items
from tourney.selectors.flights import day_screen, event_pool_so_far, is_flight
from tourney.selectors.money import pool_of

# Bump when the state's shape changes, so screens holding an old ETag get the new shape
# (2: worded in the screen's language, issue 29).
LOBBY_FORMAT = 2
ETAG_TTL_SECONDS = 1
POLLED_KIND = "lobby"  # its name among a worker's own copies (selectors.polled)
STATE_TTL_SECONDS = 10
MSG_NO_LOBBY = "No lobby display has this link."
EVENTS_MAX = 200  # the most events one lobby shows (its first ones, in its order)
# How far back a start time is looked at before its date is read in the event's own zone
# (zones run from UTC-12 to UTC+14).
ZONE_SLACK = timedelta(days=2)
VERSION_FIELDS = (
    "pk",
    "status",
    "starts_at",
    "time_zone",
    "created_at",
    "version",
    "clock_index",
    "clock_left_ms",
    "clock_at",
    "clock_running",
    "clock_started",
)


@dataclass(frozen=True, slots=True)
class LobbyVersion:
    lobby_id: int
    etag: str
    events: tuple[int, ...]  # the tournaments shown, in order
    read_at: float = 0.0  # when the rows were read (epoch seconds), as display.Version's


# ---------------------------------------------------------------- which events


def _is_today_or_later(starts_at: datetime | None, zone_name: str, now: datetime) -> bool:
    if starts_at is None:
        return True
    zone = Tournament(time_zone=zone_name).zone
    return timezone.localtime(starts_at, zone).date() >= timezone.localtime(now, zone).date()


def _order_key(row: dict) -> tuple:
    registering = row["status"] != Tournament.Status.RUNNING
    start = row["starts_at"]
    return (registering, start is None, start or row["created_at"], row["created_at"], row["pk"])


def _event_rows(lobby_id: int, chosen: bool, now: datetime) -> list[dict]:
    """The version fields of the events a lobby shows, in order (the module's readings)."""
    qs = Tournament.objects.exclude(status=Tournament.Status.FINISHED)
    if chosen:
        qs = qs.filter(lobbies=lobby_id)
    else:
        qs = qs.filter(
            Q(starts_at__isnull=True)
            | Q(starts_at__gte=now - ZONE_SLACK)
            | Q(status=Tournament.Status.RUNNING)
        )
    rows = [
        row
        for row in qs.values(*VERSION_FIELDS)
        if chosen
        or row["status"] == Tournament.Status.RUNNING
        or _is_today_or_later(row["starts_at"], row["time_zone"], now)
    ]
    return sorted(rows, key=_order_key)[:EVENTS_MAX]


def lobby_events(lobby: Lobby, now: datetime | None = None) -> list[Tournament]:
    """The tournaments ``lobby`` shows now, in order (the module's readings)."""
    now = now or timezone.now()
    rows = _event_rows(lobby.pk, lobby.tournaments.exists(), now)
    by_pk = Tournament.objects.in_bulk([r["pk"] for r in rows])
    return [by_pk[r["pk"]] for r in rows if r["pk"] in by_pk]


# ---------------------------------------------------------------- token, version, ETag


def _cache_key(token: str) -> str:
    return f"lobby:v{LOBBY_FORMAT}:etag:{token}"


def _etag(settings: tuple, rows: list[dict]) -> str:
    parts = [repr(settings)]
    for r in rows:
        at = clock_engine.to_ms(r["clock_at"]) if r["clock_at"] is not None else 0
        parts.append(
            f"{r['pk']}.{r['version']}.{r['clock_index']}.{r['clock_left_ms']}.{at}."
            f"{int(r['clock_running'])}{int(r['clock_started'])}"
        )
    digest = hashlib.sha1("|".join(parts).encode(), usedforsecurity=False).hexdigest()[:24]
    return f'"L{LOBBY_FORMAT}.{digest}"'


def spoken(version: LobbyVersion) -> LobbyVersion:
    """The version of the lobby's state in the active language (issue 29: the lobby speaks
    the URL's ``?lang=``, else the browser's or the site's; a German and an English screen
    never share a state or an ETag)."""
    etag = f'{version.etag[:-1]}.{public.screen_language()}"'
    return LobbyVersion(version.lobby_id, etag, version.events, version.read_at)


def lobby_version(token: str, now: datetime | None = None) -> LobbyVersion | None:
    """The lobby id, its ETag and the events shown behind a lobby token, or None for a wrong
    token. Cached for a second per token, as the display's (``display.display_version``): a
    screen polling an unchanged lobby costs a cache read and no query."""
    found = unspoken_version(token, now)
    return spoken(found) if found is not None else None


def unspoken_version(token: str, now: datetime | None = None) -> LobbyVersion | None:
    """``lobby_version`` before the language is added to its ETag (what the cache holds)."""
    if not isinstance(token, str) or public.TOKEN_RE.fullmatch(token) is None:
        return None
    key = _cache_key(token)
    hit = cache.get(key)
    if hit is not None:
        return LobbyVersion(hit[0], hit[1], tuple(hit[2]), *hit[3:4])
    read_at = time.time()
    row = (
        Lobby.objects.filter(token=token)
        .annotate(chosen=Count("tournaments"))
        .values_list("pk", "name", "per_page", "page_seconds", "chosen")
        .first()
    )
    if row is None:
        return None
    rows = _event_rows(row[0], row[4] > 0, now or timezone.now())
    found = LobbyVersion(row[0], _etag(row[:4], rows), tuple(r["pk"] for r in rows), read_at)
    cache.set(key, (found.lobby_id, found.etag, list(found.events), read_at), ETAG_TTL_SECONDS)
    return found


def is_current(if_none_match: str, version: LobbyVersion) -> bool:
    """Whether a screen holding the state named ``if_none_match`` has nothing to fetch."""
    tags = [tag.strip() for tag in (if_none_match or "").split(",") if tag.strip()]
    return version.etag in tags or "*" in tags


def forget_version(token: str) -> None:
    """Drop the cached ETag of a lobby token (tests; a writer that wants screens updated),
    and this worker's own copy of it (``selectors.polled``)."""
    cache.delete(_cache_key(token))
    polled.forget(POLLED_KIND, token)


# ---------------------------------------------------------------- the batched reads


def _entry_counts(ids: list[int]) -> dict[int, dict[str, int]]:
    status = Entry.Status
    rows = (
        Entry.objects.filter(tournament_id__in=ids)
        .values("tournament_id")
        .annotate(
            entries=Count("id"),
            left=Count("id", filter=Q(status=status.SEATED)),
            waiting=Count("id", filter=Q(status=status.ALTERNATE)),
            unseated=Count("id", filter=Q(status=status.REGISTERED)),
            bought=Sum("chips_bought"),
            paid=Sum("paid"),
        )
    )
    return {r.pop("tournament_id"): {k: v or 0 for k, v in r.items()} for r in rows}


def _open_seats(ids: list[int]) -> dict[int, int]:
    """Empty seats at each event's open tables (unavailable seats are no seats); an event
    without an open table is missing."""
    if not ids:
        return {}
    _, length = blocked_sql()
    free = f"seats - {length} - players"
    marks = ", ".join(["%s"] * len(ids))
    sql = (
        f"SELECT tournament_id, SUM(CASE WHEN {free} > 0 THEN {free} ELSE 0 END) "
        f"FROM {Table._meta.db_table} WHERE tournament_id IN ({marks}) AND status = %s "
        "GROUP BY tournament_id"
    )
    with kept_cursor() as cursor:
        cursor.execute(sql, [*ids, Table.Status.OPEN.value])
        return {tid: int(n or 0) for tid, n in cursor.fetchall()}


# ---------------------------------------------------------------- one event's card


def _clock(t: Tournament, now: datetime, items) -> tuple[dict[str, Any], Any]:
    """The clock fields as the event's TV has them (``display.build_state``)."""
    day = day_screen(t, now, items=items)  # None, without a read, outside multi-day events
    if day is not None:
        clock = public._day_clock(day, now)  # RULES 10.2: a flight stops at its end
        del clock["server_time"]  # the card carries server_time_ms
        return clock, day
    s = clock_read(t, now, items=items)
    clock = {
        "status": s.status,
        "level_index": s.index,
        "remaining_ms": s.remaining_ms,
        "ms_to_next_break": s.ms_to_next_break,
    }
    return clock, None


def starts_text(t: Tournament, now: datetime) -> str:
    """When the event starts, in its zone: "19:00" today, "Sat 5 Dec 19:00" another day (the
    day and month in the active language's words: "Sa 5 Dez 19:00")."""
    if t.starts_at is None:
        return ""
    local = timezone.localtime(t.starts_at, t.zone)
    if local.date() == timezone.localtime(now, t.zone).date():
        return local.strftime("%H:%M")
    return formats.date_format(local, "D j M H:i")


def _registration(t: Tournament, index: int, counts: dict, free: int | None) -> dict[str, Any]:
    """Start, seats left and price of an event one may still enter (the module's readings):
    registration open, and not past its last level (RULES 4.4); never a later day of a
    multi-day event, whose field is the bags of Day 1 (RULES 10.5)."""
    later_day = t.multi_day_event_id is not None and t.day >= 2
    open_now = (
        t.registration_open
        and not later_day
        and (
            t.status == Tournament.Status.SETUP
            or t.late_reg_until is None
            or index <= t.late_reg_until
        )
    )
    if not open_now:
        return {"registering": False, "seats_left": None, "price": "", "price_parts": ""}
    waiting = counts.get("waiting", 0)
    if not t.draw_at_registration:
        waiting += counts.get("unseated", 0)
    split = buy_in_split(t)  # RULES 9.1: the one place the price is added up
    parts = [split.prize_pool, split.bounty, split.fee]
    return {
        "registering": True,
        "seats_left": None if free is None else max(0, free - waiting),
        "price": money_whole(split.price),
        "price_parts": " + ".join(money_whole(p) for p in parts if p) if sum(parts) else "",
    }


def _card(t: Tournament, now: datetime, items, counts: dict, free: int | None) -> dict[str, Any]:
    clock, day = _clock(t, now, items)
    upcoming, more = public._upcoming(items, clock["level_index"], day.last_index if day else None)
    left = counts.get("left", 0)
    chips = total_chips(t, bought=counts.get("bought", 0))  # RULES 5.9
    flight = day is not None and is_flight(t)  # RULES 10.6: the event's pool so far
    pool = event_pool_so_far(t) if flight else pool_of(t, paid=counts.get("paid", 0))
    card = {
        "token": t.display_token,
        "name": t.name,
        "phase": "running" if t.status == Tournament.Status.RUNNING else "registering",
        **clock,
        "server_time_ms": clock_engine.to_ms(now),
        "items": upcoming,
        "more_items": more,
        "players_left": left,
        "entries": counts.get("entries", 0),
        "average_stack": average_stack(chips, left),
        "prize_pool": money_whole(pool),
        "pool_label": pgettext("clock stat", "Event pool")
        if flight
        else pgettext("clock stat", "Prize pool"),
        "hand_for_hand": t.hand_for_hand,
        "starts_at_ms": clock_engine.to_ms(t.starts_at) if t.starts_at else None,
        "starts_text": starts_text(t, now),
        "flight_line": day.line if day is not None else "",
    }
    card.update(_registration(t, clock["level_index"], counts, free))
    return card


# ---------------------------------------------------------------- the lobby's state


def build_lobby_state(
    lobby: Lobby, events: list[Tournament], etag: str, now: datetime | None = None
) -> dict[str, Any]:
    """Everything the lobby screen shows, as one JSON-ready dict: a card per event in
    ``events`` (``lobby_events``'s order) and how the pages turn."""
    now = now or timezone.now()
    ids = [t.pk for t in events]
    structures = structures_items(ids)
    counts = _entry_counts(ids)
    seats = _open_seats(ids)
    cards = [_card(t, now, structures[t.pk], counts.get(t.pk, {}), seats.get(t.pk)) for t in events]
    return {
        "format": LOBBY_FORMAT,
        "etag": etag,
        "name": lobby.name,
        "per_page": lobby.per_page,
        "page_seconds": lobby.page_seconds,
        "server_time_ms": clock_engine.to_ms(now),
        "events": cards,
    }


def outrun(state: dict[str, Any], now_ms: int) -> bool:
    """Whether a running clock of any card has gone past every item the state holds of it
    (``display.outrun``, card by card)."""
    return any(public.outrun(card, now_ms) for card in state["events"])


def outrun_at(state: dict[str, Any]) -> int | None:
    """The time (ms since the epoch) from which ``outrun`` holds, None if never."""
    times = [t for card in state["events"] if (t := public.outrun_at(card)) is not None]
    return min(times, default=None)


def _state_key(token: str, etag: str) -> str:
    return f"lobby:v{LOBBY_FORMAT}:state:{token}:{etag}"


def cached_state(token: str, version: LobbyVersion) -> dict[str, Any] | None:
    """The state for a lobby token, built once per change and shared by every screen for a
    few seconds (each card's (server_time_ms, remaining_ms) pair describes the anchor the ETag
    names, so a cached body stays right)."""
    key = _state_key(token, version.etag)
    state = cache.get(key)
    if state is not None and not outrun(state, public.server_time_ms()):
        return state
    usable = lambda found: not outrun(found, public.server_time_ms())  # noqa: E731
    return polled.built_once(key, partial(_built, token, version), usable)


def _built(token: str, version: LobbyVersion) -> dict[str, Any] | None:
    key = _state_key(token, version.etag)
    lobby = Lobby.objects.filter(pk=version.lobby_id, token=token).first()
    if lobby is None:
        return None
    by_pk = Tournament.objects.in_bulk(list(version.events))
    events = [by_pk[i] for i in version.events if i in by_pk]
    state = build_lobby_state(lobby, events, version.etag)
    cache.set(key, state, STATE_TTL_SECONDS)
    return state


def lobby_state(token: str) -> tuple[LobbyVersion, dict[str, Any]] | None:
    """The version and the state behind a lobby token, or None for a wrong token."""
    version = lobby_version(token)
    state = cached_state(token, version) if version is not None else None
    return (version, state) if state is not None else None


# How a web worker reads a lobby's version anew by itself (selectors.polled, issue 30).
polled.register(
    POLLED_KIND,
    polled.Kind(unspoken_version, spoken, cached_state, outrun_at, ETAG_TTL_SECONDS),
)
