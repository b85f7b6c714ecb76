"""Multi-day events (RULES 10): the event and its Day 1 flights, a flight's end after the
busts that bring its field to its number (10.2; the clock's own end is in
tourney/services/clock.py), bag and tag (10.4) and the Day 2 built from the bags (10.3,
10.5). The rules are the engines' (tourney/engine/flights.py, bags.py, event_money.py); the
reads are in tourney/selectors/flights.py.

Readings (docs/rules.md section 10):

* A flight is a tournament of its own (``day`` 1, ``flight`` "A", its end); the flights of
  one event are created together with one structure, chip set, payouts and options, and are
  numbered in the order created (flight 1 first).
* Bounty events and events paying on Day 1 are refused for now (their money across days is
  not written yet): the event pays from Day 2 only (RULES 10.7's default).
* Bags are entered table by table once the flight has ended; entering a table again
  replaces its bags. Closing the bags (``flight_bag_close``) needs a count for every player
  still in; a difference with the chips in play is recorded, not corrected (RULES 10.4).
  The players keep their seats in the closed flight: the labels and the report name them,
  and Day 2 seats everyone anew in its own tournament.
* Day 2 is a tournament of its own (``day`` 2): one entry per qualified bag, which paid
  nothing itself (its money is the event's, tourney/selectors/money.py), seated by the seat
  draw from its recorded seed. It is created once; its seating is an action of its own
  (``day2_seat``), undone and redone like any other.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_noop as N_

from tables.engine import model as em
from tables.engine import seat_draw
from tables.models import Seat
from tables.selectors import engine_tables, open_tables
from tables.services.seats import apply_moves, tables_open
from tourney.core.events import record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import lock_tournament, tournament_action
from tourney.core.rng import next_rng
from tourney.engine import bounties as bounty_engine
from tourney.engine import clock as clock_engine
from tourney.engine import flights as engine
from tourney.engine.errors import DomainError
from tourney.models import ChipCount, ChipDenomination, Entry, MultiDayEvent, Tournament
from tourney.selectors.clock import anchor_of, structure_items
from tourney.selectors.flights import (
    bag_status,
    day2_qualifiers,
    day2_start_of,
    event_payouts_of,
    flight_end_reason,
    flights_of,
    is_flight,
)
from tourney.services.clock import flight_clock_stop
from tourney.services.entries import MSG_NAME_REQUIRED
from tourney.services.tournaments import tournament_create

MSG_FLIGHTS = N_("Give the flights their letters, e.g. A, B, C: each once, at most 8 characters.")
MSG_PAYS_ON_DAY1 = N_(
    "Paying places on Day 1 is not supported yet: the event pays from Day 2 only (RULES 10.7)."
)
MSG_NO_BOUNTIES = N_("Bounty events cannot be played in flights yet: pick no bounties.")
MSG_END_LEVEL = N_("The flight's last level must be one of the structure's items.")
MSG_NOT_A_FLIGHT = N_("This tournament is not a Day 1 flight of a multi-day event.")
MSG_FLIGHT_BAGGED = N_("This flight's bags are closed already.")
MSG_NOT_ENDED = N_("Bag and tag comes once the flight has ended (RULES 10.2, 10.4).")
MSG_NO_TABLE = N_("Nobody sits at table %(table)s of this flight.")
MSG_NOT_AT_TABLE = N_(
    "Entry %(entry)s does not sit at table %(table)s: count each table's own players."
)
MSG_BAD_CHIPS = N_("A bag holds at least one chip, as a whole number (a player with none is out).")
MSG_COUNTS_MISSING = N_(
    "%(missing)s player(s) still in have no bag yet: enter their tables' counts first (RULES 10.4)."
)
MSG_NOT_BAGGED = N_("Every flight bags before Day 2 is drawn; not bagged yet: %(flights)s.")
MSG_NOT_DAY2 = N_("This tournament is not a later day of a multi-day event.")
MSG_DAY2_SEATED = N_("Day 2 is seated already.")
MSG_DAY2_EXISTS = N_("This event's Day 2 exists already.")
MSG_NO_EVENT = N_("No such multi-day event.")
MSG_START_LEVEL = N_("Day 2 starts at one of the structure's levels.")

# The settings a Day 2 keeps from its flights (RULES 10.1: one structure, one payout table).
DAY2_COPIED = (
    "guarantee",
    "added_money",
    "rounding_unit",
    "payout_percentages",
    "balance_tolerance",
    "redraw_at_three",
    "redraw_at_two",
    "redraw_at_one",
    "race_threshold",
    "auto_open_tables",
    "public_names",
    "time_zone",
)


def _refuse(code: str, message: str, status: int = 409, **fields: Any) -> DomainError:
    return DomainError(code, message, status=status, fields=fields or None)


# ---------------------------------------------------------------- RULES 10.1


def _unique_event_slug(name: str) -> str:
    base = slugify(name)[:100] or "event"
    slug, n = base, 1
    while MultiDayEvent.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _event_checked(name: str, flights: Sequence[str], policy: str, pays_on_day1: bool) -> list[str]:
    letters = [f.strip() if isinstance(f, str) else "" for f in flights or ()]
    if not letters or any(not f or len(f) > 8 for f in letters) or len(set(letters)) < len(letters):
        raise _refuse("bad_input", MSG_FLIGHTS, 400, flights=MSG_FLIGHTS)
    engine.EventSettings(policy=policy, pays_on_day1=bool(pays_on_day1))  # RULES 10.1
    if pays_on_day1:
        raise _refuse("pays_on_day1", MSG_PAYS_ON_DAY1, 400, pays_on_day1=MSG_PAYS_ON_DAY1)
    if not (name or "").strip():
        raise _refuse("bad_input", MSG_NAME_REQUIRED, 400, name=MSG_NAME_REQUIRED)
    return letters


def event_create(
    *,
    actor,
    name: str,
    flights: Sequence[str],
    policy: str = engine.LARGEST,
    pays_on_day1: bool = False,
    end_at_level: int | None = None,
    end_at_players: int | None = None,
    **create: Any,
) -> MultiDayEvent:
    """A multi-day event and its Day 1 flights (RULES 10.1): one tournament per flight,
    "<name> Day 1A", each made by ``tournament_create`` with the same ``create`` arguments
    (structure, chips, payouts, options), and the flight's end (RULES 10.2: its last level's
    item index, a field size, or both). One transaction: a refusal creates nothing. A
    ``seed`` given is the first flight's; the others' follow it (each draws its own seats)."""
    end = engine.FlightEnd(last_level=end_at_level, players=end_at_players)  # refuses no end
    letters = _event_checked(name, flights, policy, pays_on_day1)
    options = create.pop("options", None) or {}
    if options.get("bounty_kind", bounty_engine.NONE) != bounty_engine.NONE:
        raise _refuse("no_bounties", MSG_NO_BOUNTIES, 400, bounty_kind=MSG_NO_BOUNTIES)
    seed = create.pop("seed", None)
    name = name.strip()
    with transaction.atomic():
        event = MultiDayEvent.objects.create(
            name=name,
            slug=_unique_event_slug(name),
            policy=policy,
            pays_on_day1=False,
            created_by=actor if getattr(actor, "is_authenticated", False) else None,
        )
        for i, letter in enumerate(letters):
            t = tournament_create(
                actor=actor,
                name=f"{name} Day 1{letter}",
                seed=None if seed is None else seed + i,
                options=dict(options),
                **create,
            )
            if end_at_level is not None and end_at_level >= t.levels.count():
                raise _refuse("bad_last_level", MSG_END_LEVEL, 400, end_at_level=MSG_END_LEVEL)
            Tournament.objects.filter(pk=t.pk).update(
                multi_day_event=event,
                day=1,
                flight=letter,
                end_at_level=end.last_level,
                end_at_players=end.players,
            )
    return event


# ---------------------------------------------------------------- RULES 10.2


def flight_end_after_busts(t: Tournament, *, now: datetime, actor=None) -> None:
    """Called by ``elimination_record`` after the busts of a hand, with its lock and journal:
    when they brought a flight's field to its number (registration closed), the clock stops
    where it stands and ``flight_ended`` is recorded (RULES 10.2). The event is listed before
    the elimination's own, which keeps the undo data: undoing the bust puts back the running
    clock, as for the last bust of a tournament (``tournament_end``)."""
    if not is_flight(t) or t.end_at_players is None or t.status == Tournament.Status.FINISHED:
        return
    event = flight_clock_stop(t, structure_items(t), anchor_of(t), now, actor=actor)
    j = journal_current()
    if event is not None and j is not None:
        j.caused(event)


MSG_END_UNCHANGED = N_("The flight already ends there: nothing changed.")


def flight_end_set(
    *,
    tournament_id: int,
    end_at_level: int | None,
    end_at_players: int | None,
    actor=None,
) -> Tournament:
    """Change where a Day 1 flight ends (RULES 10.2): its last level (a structure item index)
    and/or its field size. Allowed until its bags are closed: the director plays on past the
    end (the clock stays stopped until resumed) or stops sooner. One action, undone exactly.
    Refused: not a flight, bagged, no end at all, a last level outside the structure, the
    same end. A last level already over stops a running clock where it stands (``flight_stop``)."""
    end = engine.FlightEnd(last_level=end_at_level, players=end_at_players)  # refuses no end
    call = {
        "service": "flight_end_set",
        "kwargs": {"end_at_level": end.last_level, "end_at_players": end.players},
    }
    with tournament_action(tournament_id, call=call) as t:
        if not is_flight(t):
            raise _refuse("not_a_flight", MSG_NOT_A_FLIGHT)
        if t.bagged:
            raise _refuse("flight_bagged", MSG_FLIGHT_BAGGED)
        items = structure_items(t)
        if end.last_level is not None and end.last_level >= len(items):
            raise _refuse("bad_last_level", MSG_END_LEVEL, 400, end_at_level=MSG_END_LEVEL)
        if (t.end_at_level, t.end_at_players) == (end.last_level, end.players):
            raise _refuse("unchanged", MSG_END_UNCHANGED, 400)
        before = {"end_at_level": t.end_at_level, "end_at_players": t.end_at_players}
        if j := journal_current():
            j.note_tournament(("end_at_level", "end_at_players"))
        t.end_at_level, t.end_at_players = end.last_level, end.players
        Tournament.objects.filter(pk=t.pk).update(
            end_at_level=end.last_level, end_at_players=end.players
        )
        record_event(t, "flight_end_set", {"before": before, **call["kwargs"]}, actor)
    return t


# ---------------------------------------------------------------- RULES 10.4


def _flight_for_bags(t: Tournament) -> None:
    if not is_flight(t):
        raise _refuse("not_a_flight", MSG_NOT_A_FLIGHT)
    if t.bagged:
        raise _refuse("flight_bagged", MSG_FLIGHT_BAGGED)
    if flight_end_reason(t) is None:
        raise _refuse("flight_not_ended", MSG_NOT_ENDED)


def _counts_checked(counts: Mapping[Any, Any]) -> dict[int, int]:
    out: dict[int, int] = {}
    for key, chips in (counts or {}).items():
        try:
            entry = int(key)
        except (TypeError, ValueError):
            raise _refuse("bad_input", MSG_BAD_CHIPS, 400, counts=str(key)) from None
        if type(chips) is not int or chips < 1:
            raise _refuse("bad_count", MSG_BAD_CHIPS, 400, entry=entry)
        out[entry] = chips
    return out


def bags_record(
    *,
    tournament_id: int,
    table: int,
    counts: Mapping[Any, int],
    actor=None,
    now: datetime | None = None,
) -> list[ChipCount]:
    """The bags of one table of an ended flight (RULES 10.4): ``counts`` {entry id: chips}
    for players seated at ``table``; they replace that table's earlier bags (a recount).
    A player of the table without a count shows as missing (``bag_status``)."""
    clean = _counts_checked(counts)
    now = now or timezone.now()
    call = {
        "service": "bags_record",
        "kwargs": {"table": table, "counts": {str(k): v for k, v in clean.items()}},
    }
    with tournament_action(tournament_id, call=call) as t:
        _flight_for_bags(t)
        seats = dict(
            Seat.objects.filter(tournament=t, table__number=table).values_list("entry_id", "number")
        )
        if not seats:
            p = {"table": table}
            raise DomainError("no_table", MSG_NO_TABLE, status=404, fields=p, params=p)
        for entry in clean:
            if entry not in seats:
                p = {"entry": entry, "table": table}
                raise DomainError("not_at_table", MSG_NOT_AT_TABLE, status=409, fields=p, params=p)
        old = ChipCount.objects.filter(tournament=t, bag=True, entry_id__in=list(seats))
        j = journal_current()
        if j is not None:
            j.note_chip_counts_deleted(old)
        old.delete()
        rows = ChipCount.objects.bulk_create(
            ChipCount(
                tournament=t,
                entry_id=entry,
                chips=chips,
                bag=True,
                table=table,
                seat=seats[entry],
                at=now,
                actor=actor if getattr(actor, "is_authenticated", False) else None,
            )
            for entry, chips in sorted(clean.items(), key=lambda kv: seats[kv[0]])
        )
        if j is not None:
            j.note_created("chipcount", [r.pk for r in rows])
        payload = {"table": table, "counts": call["kwargs"]["counts"]}
        record_event(t, "bags_recorded", payload, actor, table_number=table)
    return rows


def flight_bag_close(*, tournament_id: int, actor=None) -> Tournament:
    """Close the flight's bags (RULES 10.4): refused while a player still in has no bag or a
    bag is of an entry not still in; the difference with the chips in play is recorded as it
    is (a recount settles it, nothing is spread). The flight is then ``bagged``: its bags
    can go to Day 2 (RULES 10.3)."""
    with tournament_action(tournament_id, call={"service": "flight_bag_close", "kwargs": {}}) as t:
        _flight_for_bags(t)
        check = bag_status(t)
        if check.missing or check.not_in:
            raise DomainError(
                "counts_missing",
                MSG_COUNTS_MISSING,
                status=409,
                fields={"missing": list(check.missing), "not_in": list(check.not_in)},
                params={"missing": len(check.missing)},
            )
        j = journal_current()
        if j is not None:
            j.note_tournament(("bagged",))
        t.bagged = True
        Tournament.objects.filter(pk=t.pk).update(bagged=True)
        record_event(
            t,
            "flight_bagged",
            {
                "counted": check.counted,
                "chips_in_play": check.chips_in_play,
                "difference": check.difference,
                "tables": [asdict(x) for x in check.tables],
            },
            actor,
        )
    return t


# ---------------------------------------------------------------- RULES 10.3, 10.5, 10.6


def _levels_of(t: Tournament) -> list[dict[str, Any]]:
    return [clock_engine.item_to_dict(i) for i in structure_items(t)]


def _not_bagged(flights: Sequence[Tournament]) -> None:
    waiting = [f.flight or f.name for f in flights if not f.bagged]
    if waiting:
        raise DomainError(
            "flights_not_bagged",
            MSG_NOT_BAGGED,
            status=409,
            fields={"flights": waiting},
            params={"flights": ", ".join(waiting)},
        )


def day2_build(
    *,
    event_id: int,
    tables: int,
    seats_per_table: int = 9,
    start_level: int | None = None,
    actor=None,
) -> Tournament:
    """The event's Day 2 (RULES 10.5, 10.6), once every flight has bagged: a tournament of its
    own (day 2, the flights' structure, chips and payouts, registration closed), created once,
    then seated by ``day2_seat``. Its clock starts at ``start_level`` (an item index of a
    level), by default where Day 1 stopped (``day2_start_of``). One transaction: a refusal
    creates nothing."""
    with transaction.atomic():
        event = MultiDayEvent.objects.filter(pk=event_id).first()
        if event is None:
            raise _refuse("not_found", MSG_NO_EVENT, 404)
        flights = [lock_tournament(f.pk) for f in flights_of(event.pk)]  # in pk order
        _not_bagged(flights)
        if Tournament.objects.filter(multi_day_event=event, day__gte=2).exists():
            raise _refuse("day2_exists", MSG_DAY2_EXISTS)
        first = flights[0]
        chips = ChipDenomination.objects.filter(tournament=first).order_by("value")
        t = tournament_create(
            actor=actor,
            name=f"{event.name} Day 2",
            seats_per_table=seats_per_table,
            tables=tables,
            seed=random.SystemRandom().getrandbits(62),
            levels=_levels_of(first),
            chips=[(c.value, c.color) for c in chips],
            options={f: getattr(first, f) for f in DAY2_COPIED},
            starting_stack=first.starting_stack,
            buy_in=first.buy_in,
            fee=first.fee,
        )
        items = structure_items(t)
        start = day2_start_of(flights, items) if start_level is None else start_level
        if not 0 <= start < len(items) or items[start].kind != clock_engine.LEVEL:
            raise _refuse("bad_start_level", MSG_START_LEVEL, 400, start_level=MSG_START_LEVEL)
        Tournament.objects.filter(pk=t.pk).update(
            multi_day_event=event,
            day=2,
            registration_open=False,
            rebuys_open=False,
            clock_index=start,  # RULES 10.5: where Day 1 stopped; not started
            clock_left_ms=items[start].seconds * 1000,
        )
        day2_seat(tournament_id=t.pk, actor=actor)
        t.refresh_from_db()
    return t


def _day2_payouts_frozen(t: Tournament, money) -> None:
    """RULES 10.6, 8.2: Day 2 pays the event's prizes, the payout table chosen by the whole
    field; every flight's registration has closed, so they are frozen as Day 2 is seated
    (``event_payouts_of`` refused a table paying below the Day 2 field)."""
    if j := journal_current():
        j.note_tournament()
    t.payout_percentages, t.frozen_prizes = list(money.percentages), list(money.prizes)
    Tournament.objects.filter(pk=t.pk).update(
        payout_percentages=t.payout_percentages, frozen_prizes=t.frozen_prizes
    )


def day2_seat(*, tournament_id: int, actor=None) -> list[dict[str, Any]]:
    """Seat Day 2 (RULES 10.5): one entry per bag that goes forward by the event's policy
    (RULES 10.3), with exactly the chips bagged and nothing paid (the money is the event's,
    RULES 10.6), each seat drawn at random from the recorded seed over the tables, filled
    evenly (the engine's ``day2_draw`` with the seating engine's draw). Refused while a flight
    has not bagged, and when the payout table pays more places than Day 2 has players."""
    with tournament_action(tournament_id, call={"service": "day2_seat", "kwargs": {}}) as t:
        if t.multi_day_event_id is None or t.day < 2:
            raise _refuse("not_day2", MSG_NOT_DAY2)
        if Entry.objects.filter(tournament=t).exists():
            raise _refuse("day2_seated", MSG_DAY2_SEATED)
        event = MultiDayEvent.objects.get(pk=t.multi_day_event_id)
        _not_bagged(flights_of(event.pk))
        q = day2_qualifiers(event)
        if q.qualified:
            _day2_payouts_frozen(t, event_payouts_of(event.pk, day2_players=len(q.qualified)))
        rows = open_tables(t)
        need = seat_draw.tables_needed(len(q.qualified), t.seats_per_table)
        if need > len(rows):
            tables_open(t, count=need - len(rows))
            rows = open_tables(t)
        by_number = engine_tables(rows)
        rng, seed = next_rng(t)
        day2 = engine.day2_draw(
            q.qualified,
            lambda ids: seat_draw.draw(ids, [by_number[r.number] for r in rows], rng),
        )
        created = Entry.objects.bulk_create(
            Entry(
                tournament=t,
                player_id=s.player,
                number=n,
                status=Entry.Status.SEATED,
                chips_bought=s.chips,
                carried_from_id=s.entry,
                created_by=actor if getattr(actor, "is_authenticated", False) else None,
            )
            for n, s in enumerate(day2.seats, start=1)
        )
        if j := journal_current():
            j.note_created("entry", [e.pk for e in created])
        event_row = record_event(
            t,
            "day2_seated",
            {
                "entries": len(created),
                "seed": seed,
                "chips_in_play": day2.chips_in_play,
                "forfeited": [f.bag.entry for f in q.forfeited],
            },
            actor,
        )
        moves = [
            em.Move(e.pk, None, None, s.table, s.seat, "seat", False)
            for e, s in zip(created, day2.seats, strict=True)
        ]
        return apply_moves(t, moves, event=event_row)
