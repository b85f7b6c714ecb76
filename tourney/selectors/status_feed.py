"""What a tournament's outbound status feeds send (issue 29), and which feeds are due. Reads
only; the sending is tourney/tasks.py's, the writes tourney/services/status_feeds.py's.

Two payloads, built from the reads every screen uses (the clock derived from its anchors,
RULES 4.3; the field and the money as the dashboard counts them):

* ``td_payload``: the field names of the most used director tool's status feed, so that the
  add-ons written for it (overlays, scoreboards, bots) work unchanged. Money there is in
  currency units (``Pot`` 1234.5), chips in chips, times in seconds.
* ``tourney_payload``: our own versioned JSON (``"feed": "tourney.status/1"``); money in the
  smallest unit (cents), as everywhere in the API (docs/api.md, Conventions).

A feed is due (``feeds_due``) when its tournament's ``version`` moved since it last sent
(every write bumps it: a clock start, pause or jump records an event, and so does each level
or break the clock starts, ``clock_announce``) or when its ``every_seconds`` have passed since
its last sending began (a heartbeat, so a receiver knows the feed is alive and its countdown
stays true). A finished tournament's feed sends its last change, then no more heartbeats.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils import timezone

from tourney.engine import clock as clock_engine
from tourney.feed_models import FeedDelivery, StatusFeed
from tourney.models import Entry, Tournament
from tourney.selectors import average_stack, total_chips
from tourney.selectors.clock import clock_read, structure_items
from tourney.selectors.flights import day_screen
from tourney.selectors.money import event_field, money_in, pool_for_paid, prizes_for

FEED_FORMAT = "tourney.status/1"
CHANGE, HEARTBEAT, TEST = "change", "heartbeat", "test"
EVENTS = (CHANGE, HEARTBEAT, TEST)
# The 20 field names of the director tool's status feed, in its order.
TD_FIELDS = (
    "Title",
    "RoundNum",
    "Level",
    "IsBreak",
    "SmallBlind",
    "BigBlind",
    "Ante",
    "NextSmallBlind",
    "SecondsLeft",
    "LevelDuration",
    "ClockPaused",
    "PlayersLeft",
    "Buyins",
    "TotalRebuys",
    "TotalAddons",
    "Pot",
    "ChipCount",
    "InTheMoneyRank",
    "BustsUntilMoney",
    "StateDesc",
)
# StateDesc: short English words (the feed is read by programs and shown as is).
STATE_WORDS = {
    clock_engine.NOT_STARTED: "Not started",
    clock_engine.RUNNING: "Running",
    clock_engine.PAUSED: "Paused",
    clock_engine.FINISHED: "Finished",
}
ON_BREAK = "On break"
DELIVERIES_KEPT = 50


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One reading of a tournament for its feeds: the clock and the field at one instant."""

    tournament: Tournament
    clock: clock_engine.ClockState
    items: tuple[clock_engine.Item, ...]
    now: datetime
    players_left: int
    entries: int
    rebuys: int
    addons: int
    chips: int
    pool: int  # the smallest unit (cents)
    paid_places: int

    @property
    def is_break(self) -> bool:
        return self.clock.item.kind == clock_engine.BREAK

    @property
    def seconds_left(self) -> int:
        """Rounded up, as the display counts down: 0 shows only at the boundary itself."""
        if self.clock.status == clock_engine.FINISHED:
            return 0
        return max(0, -(-int(self.clock.remaining_ms) // 1000))

    @property
    def round_number(self) -> int:
        """The level number as the clock counts it (levels only, from 1); on a break, the
        number of the level played before it (0 before the first level)."""
        if self.clock.level_number is not None:
            return self.clock.level_number
        upto = self.items[: self.clock.index + 1]
        return sum(1 for it in upto if it.kind == clock_engine.LEVEL)

    @property
    def next_level(self) -> clock_engine.Item | None:
        """The next level after the current item, past any break (none once finished)."""
        if self.clock.next_index is None:
            return None
        rest = self.items[self.clock.next_index :]
        return next((it for it in rest if it.kind == clock_engine.LEVEL), None)

    @property
    def next_item(self) -> clock_engine.Item | None:
        j = self.clock.next_index
        return self.items[j] if j is not None else None

    @property
    def busts_until_money(self) -> int:
        return max(0, self.players_left - self.paid_places)

    @property
    def state_words(self) -> str:
        if self.clock.status == clock_engine.RUNNING and self.is_break:
            return ON_BREAK
        return STATE_WORDS.get(self.clock.status, self.clock.status)


def snapshot(t: Tournament, now: datetime | None = None) -> Snapshot:
    """The tournament as its feeds report it: the clock as the dashboard reads it (a day of a
    multi-day event stops where the flight ends, RULES 10.2), players left as the display
    counts them (seated), entries, rebuys, add-ons, chips in play (RULES 5.9), the prize pool
    and the places it pays (RULES 8.1, 8.2). A handful of queries whatever the field size."""
    now = now or timezone.now()
    items = structure_items(t)
    day = day_screen(t, now, items=items)
    clock = clock_read(t, now, items=items) if day is None else day.clock
    money = money_in(
        t,
        seated=Count("id", filter=Q(status=Entry.Status.SEATED)),
        bought=Sum("chips_bought"),
    )
    field = event_field(t) or money  # RULES 10.6: a later day pays the event's prizes
    pool = pool_for_paid(t, field["paid"])
    prizes = prizes_for(t, entries=field["entries"], pool=pool)
    return Snapshot(
        tournament=t,
        clock=clock,
        items=items,
        now=now,
        players_left=money["seated"],
        entries=money["entries"],
        rebuys=money["rebuys"],
        addons=money["addons"],
        chips=total_chips(t, bought=money["bought"]),
        pool=pool,
        paid_places=len(prizes),
    )


def currency_units(cents: int) -> int | float:
    """An amount in the smallest unit as currency units, a JSON number: 123400 -> 1234,
    123450 -> 1234.5 (what an add-on of the director tool expects in ``Pot``)."""
    whole, rest = divmod(int(cents), 100)
    return whole if rest == 0 else round(cents / 100, 2)


def td_payload(t: Tournament, now: datetime | None = None, *, snap: Snapshot | None = None):
    """The director tool's status fields (docs/api.md, "Status feeds"), exactly those 20."""
    s = snap or snapshot(t, now)
    item, nxt = s.clock.item, s.next_level
    level = item.kind == clock_engine.LEVEL
    return {
        "Title": t.name,
        "RoundNum": s.round_number,
        "Level": "Break" if s.is_break else f"Level {s.round_number}",
        "IsBreak": s.is_break,
        "SmallBlind": item.small_blind if level else 0,
        "BigBlind": item.big_blind if level else 0,
        "Ante": (item.big_blind_ante or item.ante) if level else 0,
        "NextSmallBlind": nxt.small_blind if nxt is not None else 0,
        "SecondsLeft": s.seconds_left,
        "LevelDuration": item.seconds,
        "ClockPaused": s.clock.status in (clock_engine.PAUSED, clock_engine.NOT_STARTED),
        "PlayersLeft": s.players_left,
        "Buyins": s.entries,
        "TotalRebuys": s.rebuys,
        "TotalAddons": s.addons,
        "Pot": currency_units(s.pool),
        "ChipCount": s.chips,
        "InTheMoneyRank": s.paid_places,
        "BustsUntilMoney": s.busts_until_money,
        "StateDesc": s.state_words,
    }


def _item(item: clock_engine.Item | None) -> dict[str, Any] | None:
    if item is None:
        return None
    if item.kind == clock_engine.BREAK:
        return {"kind": "break", "seconds": item.seconds, "color_up": list(item.color_up)}
    return {
        "kind": "level",
        "seconds": item.seconds,
        "small_blind": item.small_blind,
        "big_blind": item.big_blind,
        "ante": item.ante,
        "big_blind_ante": item.big_blind_ante,
    }


def tourney_payload(
    t: Tournament,
    now: datetime | None = None,
    *,
    event: str = CHANGE,
    snap: Snapshot | None = None,
) -> dict[str, Any]:
    """Our own feed, ``tourney.status/1`` (docs/api.md, "Status feeds"): money in cents."""
    s = snap or snapshot(t, now)
    item = s.clock.item
    level = item.kind == clock_engine.LEVEL
    return {
        "feed": FEED_FORMAT,
        "event": event,
        "tournament": {"id": t.pk, "name": t.name, "status": t.status},
        "clock": {
            "status": s.clock.status,
            "level_index": s.clock.index,
            "level": s.clock.level_number,
            "is_break": s.is_break,
            "small_blind": item.small_blind if level else 0,
            "big_blind": item.big_blind if level else 0,
            "ante": item.ante if level else 0,
            "big_blind_ante": item.big_blind_ante if level else 0,
            "seconds_left": s.seconds_left,
            "level_seconds": item.seconds,
            "paused": s.clock.status == clock_engine.PAUSED,
            "next": _item(s.next_item),
        },
        "field": {
            "players_left": s.players_left,
            "entries": s.entries,
            "rebuys": s.rebuys,
            "addons": s.addons,
            "chips_in_play": s.chips,
            "average_stack": average_stack(s.chips, s.players_left),
        },
        "money": {
            "pool": s.pool,
            "paid_places": s.paid_places,
            "busts_until_money": s.busts_until_money,
        },
        "version": t.version,
        "sent_at": clock_engine.format_time(s.now),
    }


def feed_payload(
    feed: StatusFeed, t: Tournament, now: datetime | None = None, *, event: str = CHANGE
) -> dict[str, Any]:
    """The body a feed sends, in its kind."""
    if feed.kind == StatusFeed.Kind.TD:
        return td_payload(t, now)
    return tourney_payload(t, now, event=event)


# ---------------------------------------------------------------- which feeds are due


@dataclass(frozen=True, slots=True)
class Due:
    feed_id: int
    event: str  # CHANGE or HEARTBEAT
    version: int  # the tournament's version now (what the claim records as sent)
    sent_version: int  # what the feed last sent (the claim's condition)
    last_attempt_at: datetime | None  # the claim's other condition


def feeds_due(now: datetime | None = None) -> list[Due]:
    """The active feeds with something to send: a change (the tournament's version moved
    since the feed last sent), else a heartbeat (``every_seconds`` since its last sending
    began; none once the tournament is finished). One query."""
    now = now or timezone.now()
    rows = (
        StatusFeed.objects.filter(active=True)
        .order_by("pk")
        .values_list(
            "pk",
            "tournament__version",
            "sent_version",
            "last_attempt_at",
            "every_seconds",
            "tournament__status",
        )
    )
    due: list[Due] = []
    for pk, version, sent, last, every, status in rows:
        if version != sent:
            due.append(Due(pk, CHANGE, version, sent, last))
        elif status != Tournament.Status.FINISHED and (
            last is None or now - last >= timedelta(seconds=every)
        ):
            due.append(Due(pk, HEARTBEAT, version, sent, last))
    return due


# ---------------------------------------------------------------- the screens' reads


def failing(feed: StatusFeed) -> bool:
    """A feed whose last sending failed (its retries may still come)."""
    return feed.failures > 0


def feeds_of(t: Tournament) -> list[StatusFeed]:
    return list(StatusFeed.objects.filter(tournament=t).order_by("pk"))


def deliveries_of(feed: StatusFeed, limit: int = DELIVERIES_KEPT) -> list[FeedDelivery]:
    return list(FeedDelivery.objects.filter(feed=feed).order_by("-id")[:limit])
