"""What the public screens (the TV display and the player phone page) may show. No writes.

Anyone holding a tournament's display token reads this, so it carries the clock, the field
and the money totals, and of each player only the name the director allows
(``Tournament.public_names``) with their table and seat (and in a bounty event the bounty on
their head, ``display_bounties``): no ids, no payments. Places and prizes won, deal amounts
and bounties won included, are announced in the room as players finish: those are shown too
(the results, find-my-seat in ``seat_finder``, the payouts after a deal), with the same
names.

The state endpoint answers most polls with 304 from a cached version string (the ETag) and
builds the state only when the tournament changed: every service write bumps
``Tournament.version`` through ``record_event``, and a clock anchor change is part of the ETag
too. A running clock crosses levels without any write, so the state carries the next items
and the browser rolls over by itself (RULES 4.3: the clock is derived, never counted). Under
the web server each worker keeps its own copies of the version and of the state's bytes, and
answers most polls from them before Django's middleware (``selectors.polled``,
``tourney.polls_wsgi``: issue 30, a thousand screens).

The state is worded in the screen's language (issue 29: the tournament's, or the URL's
``?lang=``): built, cached and tagged per language, the language the ETag's last part, so a
German and an English screen never get each other's answer.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Q, Sum
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import pgettext

from tables.models import Move, Seat, Table
from tourney.core.money_text import money_exact, money_whole
from tourney.engine import clock as clock_engine
from tourney.engine.numbers import ascii_int
from tourney.models import ChipDenomination, Entry, Tournament
from tourney.selectors import average_stack, clock_payload, polled, total_chips
from tourney.selectors.announcements import speech_state
from tourney.selectors.bounties import has_bounties, heads_shown
from tourney.selectors.clock import structure_items
from tourney.selectors.display_bounties import bounty_panel
from tourney.selectors.display_chip_counts import chip_leaders_panel
from tourney.selectors.display_standings import standings_panel
from tourney.selectors.display_words import (  # noqa: F401 - the screens read them here
    ante_text,
    blinds_text,
    chips_text,
    clock_words,
    color_up_text,
    duration_display,
    level_title,
    next_text,
)
from tourney.selectors.flights import DayScreen, day_screen, event_pool_so_far, is_flight
from tourney.selectors.money import pool_of, prizes_of
from tourney.selectors.satellites import prize_words, seats_of

# Bump when the state's shape changes, so browsers holding an old ETag get the new shape
# (3: the bounties, issue 25; 4: the chip leaders, issue 26; 5: a multi-day event's day;
# 6: a season's standings, issue 27; 7: worded in the screen's language, issue 29).
STATE_FORMAT = 7
ETAG_TTL_SECONDS = 1
POLLED_KIND = "display"  # its name among a worker's own copies (selectors.polled)
STATE_TTL_SECONDS = 10
RECENT_MOVES_MINUTES = 10
# RULES 10.6: a Day 1 flight pays no places of its own.
MSG_FLIGHT_PAYOUTS = N_("Places are paid on Day 2, from the pool of every flight.")
UPCOMING_ITEMS = 12
# What models.new_display_token (secrets.token_urlsafe) writes, within the column's 64.
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")


# ---------------------------------------------------------------- names and numbers


def public_name(style: str, name: str, nickname: str = "") -> str:
    """The name as the director allows it on public screens: the full name, the first name and
    the initial of the last, or the nickname (falling back to first name and initial)."""
    words = (name or "").split()
    if style == Tournament.NameStyle.FULL:
        return " ".join(words)
    if style == Tournament.NameStyle.NICKNAME and (nickname or "").strip():
        return " ".join(nickname.split())
    if len(words) <= 1:
        return words[0] if words else ""
    return f"{words[0]} {words[-1][0]}."


def _epoch_ms(moment: datetime) -> int:
    return clock_engine.to_ms(moment)


# ---------------------------------------------------------------- token, version, ETag


@dataclass(frozen=True, slots=True)
class Version:
    """A token's tournament, the ETag of its state in the language the screen speaks (the
    active one), and the tournament's own ``language`` (``core.language`` reads it, so a poll
    answered with 304 reads no tournament row); ``read_at``: when the row was read (epoch
    seconds), so that a worker's own copy of it (``views.polled``) expires with the cache's."""

    tournament_id: int
    etag: str
    language: str = ""
    read_at: float = 0.0


def screen_language() -> str:
    """The active language's code as the public states name it: "en", "de", "es" (issue 29:
    a German and an English screen never share a cached state or an ETag)."""
    code = translation.get_language() or settings.LANGUAGE_CODE
    return code.split("-")[0].lower()


def _cache_key(token: str) -> str:
    return f"display:v{STATE_FORMAT}:etag:{token}"


def _etag(
    version: int, index: int, left_ms: int, at: datetime | None, running: bool, started: bool
):
    at_ms = _epoch_ms(at) if at is not None else 0
    flags = f"{int(running)}{int(started)}"
    return f'"{STATE_FORMAT}.{version}.{index}.{left_ms}.{at_ms}.{flags}.{screen_language()}"'


def _in_language(etag: str, code: str) -> str:
    """An ETag of this module's for the same state in another language."""
    return f'{etag.rsplit(".", 1)[0]}.{code}"'


def spoken(version: Version) -> Version:
    """The version of the state in the language now active (after the screen's view has
    activated it, ``core.language.activate_screen_language``)."""
    return replace(version, etag=_in_language(version.etag, screen_language()))


def etag_of(t: Tournament) -> str:
    """The ETag of ``t``'s state in the active language."""
    return _etag(
        t.version, t.clock_index, t.clock_left_ms, t.clock_at, t.clock_running, t.clock_started
    )


def display_version(token: str) -> Version | None:
    """The tournament id and ETag behind a display token, or None for a wrong token.

    Cached for a second per token, so a screen polling with an unchanged state costs a cache
    read and no query; a change shows up at most ETAG_TTL_SECONDS late. A token that no
    ``new_display_token`` could have written (a NUL, which PostgreSQL text refuses, a space,
    too long) is wrong without a query."""
    if not isinstance(token, str) or TOKEN_RE.fullmatch(token) is None:
        return None
    key = _cache_key(token)
    hit = cache.get(key)
    if hit is not None:
        return spoken(Version(*hit))
    read_at = time.time()
    row = (
        Tournament.objects.filter(display_token=token)
        .values_list(
            "pk",
            "language",
            "version",
            "clock_index",
            "clock_left_ms",
            "clock_at",
            "clock_running",
            "clock_started",
        )
        .first()
    )
    if row is None:
        return None
    found = Version(row[0], _etag(*row[2:]), row[1], read_at)
    cache.set(key, (found.tournament_id, found.etag, found.language, read_at), ETAG_TTL_SECONDS)
    return found


def _version_number(etag: str, language: str | None = None) -> int | None:
    """The version part of an ETag this module wrote (in ``language``, when given), or None
    for anything else. ASCII digits only: "²".isdigit() is true, but int("²") raises (a
    header may carry any Latin-1 byte)."""
    parts = etag.strip().removeprefix("W/").strip('"').split(".")
    if len(parts) != 7 or parts[0] != str(STATE_FORMAT):
        return None
    if language is not None and parts[6] != language:
        return None
    number = parts[1]
    return ascii_int(number, 20)


def _language_of(etag: str) -> str:
    return etag.strip('"').rsplit(".", 1)[-1]


def is_current(if_none_match: str, version: Version) -> bool:
    """Whether a screen that holds the state named ``if_none_match`` has nothing to fetch.

    Every write bumps the version (clock anchors included), so the version orders states: a
    screen holding a newer state than this worker's cached ETag (another worker built it a
    moment ago) is current too, and never steps back to an older body."""
    if not if_none_match:
        return False
    tags = [tag.strip() for tag in if_none_match.split(",")]
    if version.etag in tags or "*" in tags:
        return True
    ours = _version_number(version.etag)
    language = _language_of(version.etag)  # a newer state in another language is no answer
    return any(
        (v := _version_number(tag, language)) is not None and v > (ours or 0) for tag in tags
    )


def forget_version(token: str) -> None:
    """Drop the cached ETag of a token (tests; a writer that wants screens to update at once),
    and this worker's own copy of it (``selectors.polled``)."""
    cache.delete(_cache_key(token))
    polled.forget(POLLED_KIND, token)


def server_time_ms() -> int:
    return time.time_ns() // 1_000_000


# ---------------------------------------------------------------- the public state


def _item(item: clock_engine.Item, level_number: int | None) -> dict[str, Any]:
    if item.kind == clock_engine.BREAK:
        return {"kind": "break", "seconds": item.seconds, "color_up": list(item.color_up)}
    return {
        "kind": "level",
        "number": level_number,
        "seconds": item.seconds,
        "small_blind": item.small_blind,
        "big_blind": item.big_blind,
        "ante": item.ante,
        "big_blind_ante": item.big_blind_ante,
    }


def _upcoming(
    items: tuple[clock_engine.Item, ...], index: int, last: int | None = None
) -> tuple[list[dict], bool]:
    """The current item and the ones after it, enough for the browser to roll over by itself
    through several boundaries while no poll is answered; none past ``last``, the item a
    flight's clock stops at (RULES 10.2: the screens stop there, never showing the next)."""
    numbers: list[int | None] = []
    count = 0
    for it in items:
        if it.kind == clock_engine.LEVEL:
            count += 1
            numbers.append(count)
        else:
            numbers.append(None)
    end = len(items) if last is None else max(index, last) + 1
    stop = min(end, index + 1 + UPCOMING_ITEMS)
    return [_item(items[j], numbers[j]) for j in range(index, stop)], stop < end


def _day_clock(day: DayScreen, now: datetime) -> dict[str, Any]:
    """The clock fields of the state for a day of a multi-day event: a flight's clock stops at
    its end (RULES 10.2), so no break beyond its last item is counted down to."""
    s = day.clock
    to_break = s.ms_to_next_break
    if day.last_index is not None and (s.next_break_index or 0) > day.last_index:
        to_break = None
    return {
        "status": s.status,
        "level_index": s.index,
        "remaining_ms": s.remaining_ms,
        "server_time": now.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "ms_to_next_break": to_break,
    }


def _seating(
    t: Tournament, now: datetime, heads: bool = False
) -> tuple[list[list], list[dict[str, Any]], dict[int, tuple]]:
    """Seating rows [name, table, seat, moved_at_ms or 0] alphabetically, and the recent moves
    (RULES 3.8) of players still sitting where the move put them, newest first. With
    ``heads`` (a fixed or progressive bounty event, RULES 9.1) each row ends with the bounty on
    the player's head as text, read in the same query; the seats come back too, (name,
    table, seat, bounty) by entry, for the biggest bounties."""
    style = t.public_names
    fields = ["entry_id", "entry__player__name", "entry__player__nickname", "table__number"]
    fields += ["number", "entry__bounty"] if heads else ["number"]
    seats = {
        entry_id: (public_name(style, name, nick), table, seat, *bounty)
        for entry_id, name, nick, table, seat, *bounty in Seat.objects.filter(
            tournament=t
        ).values_list(*fields)
    }
    since = now - timedelta(minutes=RECENT_MOVES_MINUTES)
    latest: dict[int, dict[str, Any]] = {}
    for entry_id, ft, fs, tt, ts, reason, at in (
        Move.objects.filter(tournament=t, created_at__gte=since, from_table__isnull=False)
        .order_by("id")
        .values_list(
            "entry_id", "from_table", "from_seat", "to_table", "to_seat", "reason", "created_at"
        )
    ):
        here = seats.get(entry_id)
        if here is None or (here[1], here[2]) != (tt, ts):
            latest.pop(entry_id, None)
            continue
        # One move per player and action (``balancing.one_move_each``): a break followed by
        # a redraw is one move from the seat they really sat in (issue 31 item 2).
        latest[entry_id] = {
            "name": here[0],
            "from": [ft, fs],
            "to": [tt, ts],
            "reason": reason,
            "at": _epoch_ms(at),
        }
    rows = [
        [name, table, seat, latest[eid]["at"] if eid in latest else 0]
        + [money_whole(b) for b in bounty]
        for eid, (name, table, seat, *bounty) in seats.items()
    ]
    rows.sort(key=lambda r: (r[0].casefold(), r[1], r[2]))
    moves = sorted(latest.values(), key=lambda m: (-m["at"], m["name"].casefold()))
    return rows, moves, seats


def ordinal(n: int) -> str:
    """A place as the active language writes it: "4th" (English's suffix is a value the
    translation may leave out: German "4.", Spanish "4.º")."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return pgettext("ordinal place: 1st, 2nd", "%(number)s%(suffix)s") % {
        "number": n,
        "suffix": suffix,
    }


def place_text(place: int, place_to: int) -> str:
    """The place in words: "4th", or "4th–5th" for a tie (RULES 7.2)."""
    return ordinal(place) if place_to == place else f"{ordinal(place)}–{ordinal(place_to)}"


def _deal_rows(t: Tournament) -> list[dict[str, Any]]:
    """The recorded deal (RULES 8.3) as payout rows: the players still in first (their
    places are still to play for), biggest amount first, then those out by place."""
    lag = t.place_lag
    rows = sorted(
        Entry.objects.filter(tournament=t, deal_amount__isnull=False).values_list(
            "place", "number", "player__name", "player__nickname", "deal_amount"
        ),
        key=lambda r: (r[0] is not None, r[0] or 0, -r[4], r[1]),
    )
    return [
        {
            "places": pgettext("payouts", "Deal") if place is None else str(place + lag),
            "name": public_name(t.public_names, name, nick),
            "amount": money_whole(amount),
            "deal": True,
        }
        for place, _, name, nick, amount in rows
    ]


# The most finishers the final results carry (the TV shows the top 21, the phone them all;
# the results sheet and CSV on the dashboard have every place of any field).
RESULTS_LIMIT = 200


def _results(t: Tournament) -> list[dict[str, Any]]:
    """The final results, best first: place, public name, prize (deal amounts included, RULES
    8.3) and the bounty money won apart from it (RULES 9.9), the first ``RESULTS_LIMIT``
    places."""
    lag = t.place_lag
    limit = RESULTS_LIMIT
    seats = seats_of(t)  # RULES 12.2
    rows = (
        Entry.objects.filter(tournament=t, place__isnull=False)
        .order_by("place", "bust_table", "bust_seat", "number")
        .values_list(
            "place",
            "place_to",
            "player__name",
            "player__nickname",
            "prize",
            "deal_amount",
            "bounty_won",
        )
    )[:limit]
    return [
        {
            "place": place + lag,
            "place_text": place_text(place + lag, place_to + lag),
            "name": public_name(t.public_names, name, nick),
            "prize": prize_words(prize, place_to + lag, seats, money_exact) if prize else "",
            "deal": deal is not None,
            "bounties": money_exact(won) if won else "",
        }
        for place, place_to, name, nick, prize, deal, won in rows
    ]


def _payouts(t: Tournament) -> list[dict[str, Any]]:
    """Prizes by place, equal neighbours merged: [{"places": "4–6", "amount": "150"}]. After
    a deal (RULES 8.3) its amounts come first, one row per player who agreed (named, "Deal"
    while still playing, the place once out): they replace the top places' prizes, which
    the list then starts below."""
    prizes = prizes_of(t)
    out = _deal_rows(t)
    start = min(len(out), len(prizes))
    seats = seats_of(t)  # RULES 12.2: a satellite's seat places say "Seat"
    for i in range(start + 1, len(prizes) + 1):
        if i == len(prizes) or prizes[i] != prizes[start]:
            places = str(start + 1) if i - start == 1 else f"{start + 1}–{i}"
            amount = prize_words(prizes[start], i, seats, money_whole)
            out.append({"places": places, "amount": amount})
            start = i
    return out


def build_state(t: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """Everything the TV and the phone page show, as one compact JSON-ready dict."""
    now = now or timezone.now()
    items = structure_items(t)
    day = day_screen(t, now, items=items)  # None, without a read, outside multi-day events
    clock = clock_payload(t, now) if day is None else _day_clock(day, now)
    upcoming, more = _upcoming(items, clock["level_index"], day.last_index if day else None)
    counts = Entry.objects.filter(tournament=t).aggregate(
        entries=Count("id"),
        bought=Sum("chips_bought"),
        left=Count("id", filter=Q(status=Entry.Status.SEATED)),
    )
    left = counts["left"]
    chips = total_chips(t, bought=counts["bought"] or 0)  # RULES 5.9
    bounties = has_bounties(t)  # RULES 9: else no bounty column is read, no panel built
    rows, moves, seats = _seating(t, now, heads=bounties and heads_shown(t))
    tables_in_play = (
        Table.objects.filter(tournament=t, status=Table.Status.OPEN, occupied__isnull=False)
        .distinct()
        .count()
    )
    flight = day is not None and is_flight(t)  # RULES 10.6: a flight pays nothing itself
    pool = event_pool_so_far(t) if flight else pool_of(t)
    finished = t.status == Tournament.Status.FINISHED
    state = {
        "format": STATE_FORMAT,
        "etag": etag_of(t),
        "name": t.name,
        "status": clock["status"],
        "level_index": clock["level_index"],
        "remaining_ms": clock["remaining_ms"],
        "server_time": clock["server_time"],
        "server_time_ms": _epoch_ms(now),
        "ms_to_next_break": clock["ms_to_next_break"],
        "items": upcoming,
        "more_items": more,
        "chips": {
            str(v): c
            for v, c in ChipDenomination.objects.filter(tournament=t).values_list("value", "color")
        },
        "players_left": left,
        "entries": counts["entries"],
        "average_stack": average_stack(chips, left),
        "prize_pool": money_whole(pool),
        "payouts": [] if flight else _payouts(t),
        "hand_for_hand": t.hand_for_hand,
        "tables_in_play": tables_in_play,
        "seating": rows,
        "moves": moves,
        "recent_ms": RECENT_MOVES_MINUTES * 60 * 1000,
        # One player left: the winner and the final results replace the clock.
        "finished": finished,
        "results": _results(t) if finished else [],
    }
    if day is not None:  # RULES 10.2: the key only in a multi-day event
        state["flight"] = {"line": day.line, "over": day.ended}
        if flight:  # the pool shown is the event's so far, paid from Day 2 (RULES 10.6)
            state["flight"].update(
                pool_label=pgettext("clock stat", "Event pool"), payouts_note=_(MSG_FLIGHT_PAYOUTS)
            )
    if bounties:  # the key only in a bounty event: a plain event's state stays as it was
        state["bounties"] = bounty_panel(t, list(seats.values()), left)
    # RULES 10.8: the key only once counts exist; its one query takes the place of the
    # players-left count, now read with the entries.
    if leaders := chip_leaders_panel(t, seats):
        state["chip_leaders"] = leaders
    if t.season_id is not None:  # issue 27: the key (and its reads) only in a season
        state["standings"] = standings_panel(
            t, lambda name, nick: public_name(t.public_names, name, nick)
        )
    state["speech"] = speech_state(t, state)  # issue 29: what the TV says, in its language
    return state


def outrun(state: dict[str, Any], now_ms: int) -> bool:
    """Whether a running clock has gone past every item a state holds (RULES 4.3: the clock is
    derived from its anchor, so crossing levels writes nothing and the ETag stays). Without the
    worker announcing levels, such a body would leave the screens at 0:00 on its last item:
    it is built anew instead (the screens ask without If-None-Match when they get there)."""
    at = outrun_at(state)
    return at is not None and now_ms >= at


def outrun_at(state: dict[str, Any]) -> int | None:
    """The time (ms since the epoch) from which ``outrun`` holds of a state, None if never."""
    if state.get("status") != "running" or not state.get("more_items"):
        return None
    held = state["remaining_ms"] + sum(it["seconds"] * 1000 for it in state["items"][1:])
    return state["server_time_ms"] + held


def _state_key(token: str, etag: str) -> str:
    return f"display:v{STATE_FORMAT}:state:{token}:{etag}"


def cached_state(token: str, version: Version) -> dict[str, Any] | None:
    """The state for a token, built once per change and shared by every screen for a few
    seconds. A cached body stays correct: its (server_time, remaining_ms) pair describes the
    same clock anchor the ETag names, and the browser ages recent moves by their times."""
    key = _state_key(token, version.etag)
    state = cache.get(key)
    if state is not None and not outrun(state, server_time_ms()):
        return state
    usable = lambda found: not outrun(found, server_time_ms())  # noqa: E731
    return polled.built_once(key, partial(_built, token, version), usable)


def _built(token: str, version: Version) -> dict[str, Any] | None:
    read_at = time.time()
    t = Tournament.objects.filter(pk=version.tournament_id, display_token=token).first()
    if t is None:
        return None
    state = build_state(t)
    # The body names the ETag of the row it was built from, which may be newer than the cached
    # one: remember it, so the next polls compare against what the screens now hold.
    cache.set(_state_key(token, state["etag"]), state, STATE_TTL_SECONDS)
    if state["etag"] != version.etag:
        read = (t.pk, state["etag"], t.language, read_at)
        cache.set(_cache_key(token), read, ETAG_TTL_SECONDS)
    return state


# How a web worker reads a display's version anew by itself (selectors.polled, issue 30).
polled.register(
    POLLED_KIND,
    polled.Kind(display_version, spoken, cached_state, outrun_at, ETAG_TTL_SECONDS),
)
