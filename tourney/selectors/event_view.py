"""A multi-day event as its page and the API show it (RULES 10): each Day 1 flight with its
field, its players still in and its bags; the bags that go to Day 2 and those forfeited with
their reason (10.3); the event's money (10.6); Day 2 once built. One read for both screens
(tourney/views/dashboard/events.py) and the API (tourney/api/flights.py)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from tourney.engine import flights as engine
from tourney.engine.errors import DomainError
from tourney.models import ChipCount, Entry, MultiDayEvent, Player, Tournament
from tourney.selectors.flights import (
    day2_qualifiers,
    event_payouts_of,
    event_pool_so_far,
    flight_end_reason,
    flights_of,
)


@dataclass(frozen=True, slots=True)
class FlightRow:
    """One Day 1 flight (RULES 10.1, 10.2): ``ended`` is why it ended (``level`` or
    ``players``) or None; ``bags`` and ``bagged_chips`` count its bags entered so far;
    ``qualified`` those of them that go to Day 2 once it is bagged (RULES 10.3)."""

    tournament_id: int
    letter: str
    name: str
    status: str
    entries: int
    players_in: int
    ended: str | None
    bagged: bool
    bags: int
    bagged_chips: int
    qualified: int
    qualified_chips: int


@dataclass(frozen=True, slots=True)
class ForfeitRow:
    """A bag that stays behind (RULES 10.3), with the flight of the stack that goes on."""

    player: str
    flight: str
    chips: int
    kept_flight: str
    kept_chips: int
    reason: str
    message: str


@dataclass(frozen=True, slots=True)
class Day2Row:
    tournament_id: int
    name: str
    status: str
    players: int
    chips: int


@dataclass(frozen=True, slots=True)
class EventSummary:
    """The event (RULES 10): its flights, the totals over them, what goes to Day 2, the money
    (``pool``: every flight's money so far; ``prizes`` None until every flight has bagged,
    or when the table pays more places than Day 2 has players — ``money_error`` says so)."""

    event_id: int
    name: str
    policy: str
    pays_on_day1: bool
    flights: tuple[FlightRow, ...]
    entries: int
    players_in: int
    all_bagged: bool
    day2_players: int
    day2_chips: int
    forfeited: tuple[ForfeitRow, ...]
    pool: int
    prizes: tuple[int, ...] | None
    money_error: str
    day2: Day2Row | None


def _pool(flights: list[Tournament]) -> int:
    """The event's pool so far (RULES 10.6): every flight's entries, rebuys and add-ons."""
    return event_pool_so_far(flights[0]) if flights else 0


def _prizes(event_id: int, players: int) -> tuple[tuple[int, ...] | None, str]:
    if players < 1:
        return None, ""
    try:
        return event_payouts_of(event_id, day2_players=players).prizes, ""
    except DomainError as exc:
        return None, exc.message


def _day2(event: MultiDayEvent) -> Day2Row | None:
    t = Tournament.objects.filter(multi_day_event=event, day__gte=2).order_by("day", "pk").first()
    if t is None:
        return None
    agg = Entry.objects.filter(tournament=t).aggregate(
        n=Count("id", filter=~Q(status=Entry.Status.BUSTED)), chips=Sum("chips_bought")
    )
    return Day2Row(t.pk, t.name, t.get_status_display(), agg["n"] or 0, agg["chips"] or 0)


def _flight_rows(flights: list[Tournament], kept: set[int]) -> list[FlightRow]:
    rows = []
    for f in flights:
        entries = Entry.objects.filter(tournament=f).aggregate(
            n=Count("id"), still=Count("id", filter=~Q(status=Entry.Status.BUSTED))
        )
        bags = list(
            ChipCount.objects.filter(tournament=f, bag=True).values_list("entry_id", "chips")
        )
        going = [c for e, c in bags if e in kept] if f.bagged else []
        rows.append(
            FlightRow(
                tournament_id=f.pk,
                letter=f.flight,
                name=f.name,
                status=f.get_status_display(),
                entries=entries["n"] or 0,
                players_in=entries["still"] or 0,
                ended=flight_end_reason(f),
                bagged=f.bagged,
                bags=len(bags),
                bagged_chips=sum(c for _, c in bags),
                qualified=len(going),
                qualified_chips=sum(going),
            )
        )
    return rows


def event_summary(event_id: int) -> EventSummary | None:
    """The event's page (RULES 10), or None when there is no such event."""
    event = MultiDayEvent.objects.filter(pk=event_id).first()
    if event is None:
        return None
    flights = flights_of(event.pk)
    q = day2_qualifiers(event)  # the bags of the flights bagged so far
    letters = {n: f.flight for n, f in enumerate(flights, start=1)}
    names = dict(
        Player.objects.filter(pk__in={f.bag.player for f in q.forfeited}).values_list("pk", "name")
    )
    forfeited = tuple(
        ForfeitRow(
            player=names.get(f.bag.player, ""),
            flight=letters.get(f.bag.flight, ""),
            chips=f.bag.chips,
            kept_flight=letters.get(f.kept.flight, ""),
            kept_chips=f.kept.chips,
            reason=f.reason,
            message=engine.FORFEIT_REASONS[f.reason],
        )
        for f in q.forfeited
    )
    rows = _flight_rows(flights, {b.entry for b in q.qualified})
    all_bagged = bool(flights) and all(f.bagged for f in flights)
    prizes, money_error = _prizes(event.pk, len(q.qualified)) if all_bagged else (None, "")
    return EventSummary(
        event_id=event.pk,
        name=event.name,
        policy=event.policy,
        pays_on_day1=event.pays_on_day1,
        flights=tuple(rows),
        entries=sum(r.entries for r in rows),
        players_in=sum(r.players_in for r in rows),
        all_bagged=all_bagged,
        day2_players=len(q.qualified),
        day2_chips=q.chips_in_play,
        forfeited=forfeited,
        pool=_pool(flights),
        prizes=prizes,
        money_error=money_error,
        day2=_day2(event),
    )


def events_list() -> list[dict[str, object]]:
    """Every multi-day event, newest first, with its flights' letters (the home page)."""
    out = []
    for event in MultiDayEvent.objects.all():
        letters = list(
            Tournament.objects.filter(multi_day_event=event, day=1)
            .order_by("pk")
            .values_list("flight", flat=True)
        )
        out.append({"id": event.pk, "name": event.name, "flights": letters})
    return out
