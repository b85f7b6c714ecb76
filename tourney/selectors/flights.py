"""Multi-day events as the screens and the writes read them (RULES 10): where a flight ends
and its clock stops (10.2), the bags of a flight checked, labelled and reported (10.4), the
stacks that go to Day 2 (10.3), the desk's warning (10.3) and the event's money (10.6). Reads
only; the writes are in tourney/services/flights.py, the rules in the engines
(tourney/engine/flights.py, bags.py, event_money.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.db.models import Count, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tourney.engine import bags as bags_engine
from tourney.engine import clock as clock_engine
from tourney.engine import event_money
from tourney.engine import flights as engine
from tourney.engine.structure import item_number_of
from tourney.models import ChipCount, Entry, MultiDayEvent, Player, Tournament
from tourney.selectors import total_chips
from tourney.selectors.clock import anchor_of, clock_read, structure_items

# ---------------------------------------------------------------- RULES 10.2


def is_flight(t: Tournament) -> bool:
    """A Day 1 flight of a multi-day event."""
    return t.multi_day_event_id is not None and t.day == 1


def flight_end_of(t: Tournament) -> engine.FlightEnd | None:
    """The flight's end (RULES 10.2), or None: not a flight, or a flight without an end."""
    if not is_flight(t) or (t.end_at_level is None and t.end_at_players is None):
        return None
    return engine.FlightEnd(last_level=t.end_at_level, players=t.end_at_players)


def flight_last_item(t: Tournament, index: int) -> int:
    """The last item the clock announces (RULES 10.2): ``index``, but never past a flight's
    last level (the clock stops there; the next level is not started)."""
    if not is_flight(t) or t.end_at_level is None:
        return index
    return min(index, t.end_at_level)


def players_still_in(t: Tournament) -> int:
    """The players still in (RULES 7.5): every entry not out, seated or waiting."""
    return Entry.objects.filter(tournament=t).exclude(status=Entry.Status.BUSTED).count()


def _registration_open(t: Tournament, index: int) -> bool:
    # RULES 4.4: registration is closed past its last level even before the sweep says so.
    return t.registration_open and not (t.late_reg_until is not None and index > t.late_reg_until)


def flight_end_reason(
    t: Tournament,
    *,
    now: datetime | None = None,
    items: tuple[clock_engine.Item, ...] | None = None,
    anchor: clock_engine.Anchor | None = None,
) -> str | None:
    """Why the flight has ended (``engine.END_LEVEL`` or ``END_PLAYERS``), or None while it
    plays on, is not started or is no flight (RULES 10.2, the engine's ``flight_end``): read
    from the clock now and the players still in."""
    end = flight_end_of(t)
    anchor = anchor or anchor_of(t)
    if end is None or not anchor.started:
        return None
    items = items or structure_items(t)
    index = clock_engine.state(items, anchor, now or timezone.now()).index
    players = players_still_in(t) if end.players is not None else 0
    return engine.flight_end(
        end,
        level_index=index,
        players_left=players,
        registration_open=_registration_open(t, index),
    )


@dataclass(frozen=True, slots=True)
class FlightStop:
    """Where a running flight's clock stops (RULES 10.2) and why."""

    reason: str
    anchor: clock_engine.Anchor

    def payload(self) -> dict[str, object]:
        at = self.anchor.at.isoformat() if self.anchor.at else None
        return {"reason": self.reason, "index": self.anchor.index, "at": at}


def flight_stop(
    t: Tournament, items: tuple[clock_engine.Item, ...], anchor: clock_engine.Anchor, now: datetime
) -> FlightStop | None:
    """The stopped anchor of a running flight whose end is due (RULES 10.2), else None.

    The level end stops the clock at the end of the last level, when the next item began:
    the anchor says that level with no time left, paused (the next level is never started,
    announced or played). A clock moved past the last level by the director, and the
    field's end, stop where the clock stands now (as the last bust does, ``clock.stop``)."""
    if not anchor.running:
        return None
    reason = flight_end_reason(t, now=now, items=items, anchor=anchor)
    if reason is None:
        return None
    if reason == engine.END_LEVEL and anchor.index <= t.end_at_level:
        assert anchor.at is not None  # a running anchor has its time
        after = anchor.at - timedelta(milliseconds=1)
        for index, at in clock_engine.boundaries(items, anchor, after, now):
            if index == t.end_at_level + 1:
                stopped = clock_engine.Anchor(t.end_at_level, 0, at, running=False, started=True)
                return FlightStop(reason, stopped)
    return FlightStop(reason, clock_engine.stop(items, anchor, now))


MSG_FLIGHT_ENDED = (
    "This flight has ended ({why}): its clock stays stopped (RULES 10.2). To replay its last "
    "level, go back to it (previous); to play on past the end, change the flight's end (its "
    "dashboard's clock: change)."
)
WHY = {
    engine.END_LEVEL: "its last level is over",
    engine.END_PLAYERS: "its field is down to its number",
}


def flight_clock_refusal(
    t: Tournament, items: tuple[clock_engine.Item, ...], after: clock_engine.Anchor, now: datetime
) -> str | None:
    """Why a director's clock action is refused on a flight (RULES 10.2), or None: the clock
    it would leave runs on a flight that has ended, or stands past the flight's last level.
    Going back into the flight's levels (``previous``, a ``jump``) and pausing are allowed."""
    reason = flight_end_reason(t, now=now, items=items, anchor=after)
    if reason is None or not (after.running or reason == engine.END_LEVEL):
        return None
    return MSG_FLIGHT_ENDED.format(why=WHY[reason])


def flight_clock(t: Tournament, now: datetime | None = None) -> clock_engine.ClockState:
    """The flight's clock as its screens show it: once the flight has ended (RULES 10.2),
    finished where it stopped (its last level with no time left, or where the field's end
    stopped it); otherwise the clock as ``clock_read`` gives it."""
    now = now or timezone.now()
    items = structure_items(t)
    anchor = anchor_of(t)
    reason = flight_end_reason(t, now=now, items=items, anchor=anchor)
    return _flight_clock(t, now, items, anchor, reason)


def _flight_clock(
    t: Tournament,
    now: datetime,
    items: tuple[clock_engine.Item, ...],
    anchor: clock_engine.Anchor,
    reason: str | None,
) -> clock_engine.ClockState:
    if reason is None:
        return clock_read(t, now, items=items)
    stop = flight_stop(t, items, anchor, now)  # running past the end: not yet written
    if stop is not None:
        anchor = stop.anchor
    state = clock_engine.state(items, anchor, now)
    if anchor.left_ms == 0:  # the end of its last level (the engine reads the next one)
        item = items[anchor.index]
        number = sum(1 for i in items[: anchor.index + 1] if i.kind == clock_engine.LEVEL)
        state = replace(
            state,
            index=anchor.index,
            item=item,
            remaining_ms=0,
            level_number=number if item.kind == clock_engine.LEVEL else None,
        )
    return clock_engine.over(state)


# ---------------------------------------------------------------- RULES 10.2, the screens


def day_name(t: Tournament) -> str:
    """The day as the room calls it: "Day 1B" (a flight: the day and its letter), "Day 2"; in
    the active language (issue 29)."""
    return _("Day %(day)s%(flight)s") % {"day": t.day, "flight": t.flight if t.day == 1 else ""}


def _end_words(t: Tournament, items: tuple[clock_engine.Item, ...]) -> str:
    """Where the flight stops, in words: its last level by the NUMBER the clock shows (levels
    only, not breaks), its field size, or both (whichever comes first, RULES 10.2)."""
    words = []
    if t.end_at_level is not None:
        number = item_number_of(items, clock_engine.LEVEL, t.end_at_level) or 0
        last = items[t.end_at_level] if t.end_at_level < len(items) else None
        if last is not None and last.kind == clock_engine.BREAK:
            words.append(_("bagging at the break after level %(number)s") % {"number": number})
        else:
            words.append(_("bagging at the end of level %(number)s") % {"number": number})
    if t.end_at_players is not None:
        count = t.end_at_players
        if words:
            words.append(
                ngettext("or at %(count)s player", "or at %(count)s players", count)
                % {"count": count}
            )
        else:
            words.append(
                ngettext("plays down to %(count)s player", "plays down to %(count)s players", count)
                % {"count": count}
            )
    return " ".join(words)


def _line(t: Tournament, items: tuple[clock_engine.Item, ...], reason: str | None) -> str:
    if t.multi_day_event_id is None:
        return ""
    name = day_name(t)
    if not is_flight(t):
        return name
    if t.bagged:
        return _("%(day)s — the day is over: the chips are bagged for Day 2") % {"day": name}
    if reason is not None:
        return _("%(day)s — the day is over: bag and tag") % {"day": name}
    ends = _end_words(t, items) if flight_end_of(t) is not None else ""
    return f"{name} — {ends}" if ends else name


def flight_line(
    t: Tournament,
    now: datetime | None = None,
    *,
    items: tuple[clock_engine.Item, ...] | None = None,
) -> str:
    """The line the clock screens show for a day of a multi-day event (RULES 10.2): a flight
    says where it stops ("Day 1B — bagging at the end of level 12", "Day 1B — plays down to
    40 players", both: "… at the end of level 12 or at 40 players"), and once it has ended
    "Day 1B — the day is over: bag and tag"; a later day says "Day 2". Empty for a
    tournament that is no day of a multi-day event (no read). ``items``: the structure, if
    the caller read it."""
    if t.multi_day_event_id is None:
        return ""
    if is_flight(t):
        items = items or structure_items(t)
    reason = flight_end_reason(t, now=now, items=items) if is_flight(t) else None
    return _line(t, items or (), reason)


@dataclass(frozen=True, slots=True)
class DayScreen:
    """What the clock screens show of a day of a multi-day event (RULES 10.2): its clock (a
    flight's stops at its end, ``flight_clock``), ``line`` (``flight_line``), whether the
    flight has ended, and the item index the flight's clock cannot pass (None: the
    structure's end)."""

    clock: clock_engine.ClockState
    line: str
    ended: bool
    last_index: int | None


def day_screen(
    t: Tournament,
    now: datetime | None = None,
    *,
    items: tuple[clock_engine.Item, ...] | None = None,
) -> DayScreen | None:
    """The clock and the line of a day of a multi-day event, its end read once (a flight with
    a field-size end: one count of the players still in); None, without a read, for a
    tournament that is no part of one."""
    if t.multi_day_event_id is None:
        return None
    now = now or timezone.now()
    items = items or structure_items(t)
    if not is_flight(t):
        return DayScreen(clock_read(t, now, items=items), _line(t, items, None), False, None)
    anchor = anchor_of(t)
    reason = flight_end_reason(t, now=now, items=items, anchor=anchor)
    clock = _flight_clock(t, now, items, anchor, reason)
    return DayScreen(clock, _line(t, items, reason), reason is not None, t.end_at_level)


def flight_warnings(t: Tournament, names: dict[int, str]) -> dict[int, str]:
    """The desk's warnings (RULES 10.3, ``flight_warning``) for several players at once, in
    the room's words, by player id: only those who hold a bag of another flight of the event
    (whose bag, how many chips, which day, and what the event's policy does with a second
    stack). ``names``: the players' names by id. Empty, without a read, when ``t`` is no
    flight. The entry is not refused."""
    if not is_flight(t) or not names:
        return {}
    event = MultiDayEvent.objects.get(pk=t.multi_day_event_id)
    flights = flights_of(event.pk)
    bags: list[engine.Bag] = []
    for number, flight in enumerate(flights, start=1):
        if flight.bagged and flight.pk != t.pk:
            bags.extend(bags_of(flight, number=number))
    out = {}
    for player, name in names.items():
        warning = engine.entry_warning(bags, player=player, policy=event.policy)
        if warning is not None:
            out[player] = _warning_words(t, event, flights, warning, name)
    return out


def _warning_words(
    t: Tournament,
    event: MultiDayEvent,
    flights: list[Tournament],
    warning: engine.EntryWarning,
    name: str,
) -> str:
    bagged = warning.bag.flight
    day = day_name(flights[bagged - 1]) if 0 < bagged <= len(flights) else f"flight {bagged}"
    said = f"{name} already bagged {warning.bag.chips:,} in {day}"
    if event.policy == engine.FIRST:
        return (
            f"{said}: only that first stack goes to Day 2 (any chips bagged in "
            f"{day_name(t)} are forfeited)."
        )
    return f"{said}: only the largest stack goes to Day 2 (the other is forfeited)."


# ---------------------------------------------------------------- RULES 10.4


def flight_number(t: Tournament) -> int:
    """The flight's number in its event (RULES 10: 1 is the first flight played; flights are
    played in the order they were created)."""
    return (
        Tournament.objects.filter(
            multi_day_event_id=t.multi_day_event_id, day=1, pk__lte=t.pk
        ).count()
        or 1
    )


def bags_of(t: Tournament, *, number: int | None = None) -> tuple[engine.Bag, ...]:
    """The flight's bags (RULES 10.4) as the engine takes them, in table and seat order."""
    number = number or flight_number(t)
    rows = (
        ChipCount.objects.filter(tournament=t, bag=True)
        .order_by("table", "seat", "entry_id")
        .values_list("entry__player_id", "entry_id", "chips", "table", "seat")
    )
    return tuple(
        engine.Bag(player, number, entry, chips, table or 0, seat or 0)
        for player, entry, chips, table, seat in rows
    )


def bag_status(t: Tournament) -> bags_engine.BagCheck:
    """The bags against the chips in play (RULES 10.4, the engine's ``bag_check``): table by
    table totals, the difference (above zero: more counted than in play), the players still
    in without a count (``missing``) and counts of entries not still in (``not_in``)."""
    still_in = (
        Entry.objects.filter(tournament=t)
        .exclude(status=Entry.Status.BUSTED)
        .values_list("pk", flat=True)
    )
    return bags_engine.bag_check(
        bags_of(t, number=1), chips_in_play=total_chips(t), players=list(still_in)
    )


def bag_labels_of(t: Tournament) -> tuple[bags_engine.BagLabel, ...]:
    """One label per bag, numbered in table and seat order (RULES 10.4)."""
    return bags_engine.bag_labels(bags_of(t))


def chip_report_of(t: Tournament) -> bags_engine.ChipReport:
    """The chip count report of the bags: biggest first, and table by table (RULES 10.4)."""
    return bags_engine.chip_report(bags_of(t, number=1))


# ---------------------------------------------------------------- RULES 10.3, 10.6


def flights_of(event_id: int) -> list[Tournament]:
    """The event's Day 1 flights, in the order they are played (created)."""
    return list(Tournament.objects.filter(multi_day_event_id=event_id, day=1).order_by("pk"))


def event_bags(event_id: int, *, bagged_only: bool = True) -> tuple[engine.Bag, ...]:
    """Every bag of the event's flights (only those of flights closed, ``bagged_only``)."""
    out: list[engine.Bag] = []
    for number, flight in enumerate(flights_of(event_id), start=1):
        if flight.bagged or not bagged_only:
            out.extend(bags_of(flight, number=number))
    return tuple(out)


def day2_qualifiers(event: MultiDayEvent) -> engine.Qualification:
    """The bags that go to Day 2 and those forfeited, by the event's policy (RULES 10.3)."""
    return engine.qualifiers(event_bags(event.pk), event.policy)


def flight_warning(t: Tournament, player: Player | int) -> engine.EntryWarning | None:
    """The desk's warning when ``player`` enters flight ``t`` while holding a bag of another
    flight of the event (RULES 10.3, the engine's ``entry_warning``); None otherwise. The
    entry is not refused."""
    if not is_flight(t):
        return None
    event = MultiDayEvent.objects.get(pk=t.multi_day_event_id)
    player_id = player if isinstance(player, int) else player.pk
    number = flight_number(t)
    others = [b for b in event_bags(event.pk) if b.flight != number]
    return engine.entry_warning(others, player=player_id, policy=event.policy)


def day2_start_of(flights: list[Tournament], items: tuple[clock_engine.Item, ...]) -> int:
    """The item Day 2 starts at (RULES 10.5, the engine's ``day2_start``): after the furthest
    item a flight played to its end, or that item again where a flight stopped during it."""
    stops = [(f.clock_index, f.clock_started and f.clock_left_ms == 0) for f in flights]
    return engine.day2_start([i.kind for i in items], stops, clock_engine.LEVEL)


def flight_money(event_id: int) -> list[event_money.FlightMoney]:
    """What each flight brought (RULES 10.6), in the order played: its entries, and its
    rebuys' and add-ons' prize-pool money (the money paid in beyond the entries' buy-ins).
    One query."""
    rows = (
        Tournament.objects.filter(multi_day_event_id=event_id, day=1)
        .order_by("pk")
        .annotate(n=Count("entries"), paid=Sum("entries__paid"))
        .values_list("buy_in", "n", "paid")
    )
    return [
        event_money.FlightMoney(n or 0, rebuys=max(0, (paid or 0) - (n or 0) * own))
        for own, n, paid in rows
    ]


def event_pool_so_far(t: Tournament) -> int:
    """The pool of ``t``'s event so far (RULES 10.6): every flight's entries and money, the
    event's added money and guarantee (a flight's settings are the event's, RULES 10.1)."""
    return event_money.event_pool(
        flight_money(t.multi_day_event_id),
        buy_in=t.buy_in,
        added=t.added_money,
        guarantee=t.guarantee,
    )


def event_payouts_of(event_id: int, *, day2_players: int) -> event_money.EventPayouts:
    """The event's pool and payouts (RULES 10.6, the engine's ``event_payouts``): every
    flight's money, the payout table by the whole field; refused (``paid_below_day2``) when it
    pays more places than ``day2_players`` and the event does not pay on Day 1."""
    event = MultiDayEvent.objects.get(pk=event_id)
    first = flights_of(event_id)[0]
    return event_money.event_payouts(
        flight_money(event_id),
        buy_in=first.buy_in,
        day2_players=day2_players,
        pays_on_day1=event.pays_on_day1,
        added=first.added_money,
        guarantee=first.guarantee,
        percentages=first.payout_percentages or None,
        rounding_unit=first.rounding_unit,
    )
