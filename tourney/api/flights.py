"""Multi-day events (RULES 10): an event created with its Day 1 flights, its read (the
flights, the bags going to Day 2 and those forfeited, the money, Day 2), a flight's bags
entered table by table and closed (10.4), and Day 2 built and seated from the bags (10.3,
10.5). The writes are tourney/services/flights.py's; the reads tourney/selectors/flights.py
and event_view.py.

Readings:

* ``end_at_level`` is the flight's last level by its NUMBER, as the clock shows it (levels
  counted, breaks not: "level 12"); it is turned into the structure's item index the service
  keeps, as the setup screen does (``engine.structure.item_index_of``). A number past the
  structure's levels is refused before anything is written.
* ``POST /events/{id}/day2`` builds Day 2 and seats it in one call (``day2_build`` seats it);
  ``POST /tournaments/{id}/day2/seat`` seats it again after that seating was undone.
"""

from __future__ import annotations

from typing import Any, Literal

from django.http import Http404
from ninja import Field, Router, Schema, Status

from tables.models import Seat
from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import (
    MAX_CHIPS,
    desk_tournament,
    director_tournament,
    need_desk,
    need_director,
)
from tourney.api.tournaments import (
    MAX_STAGE,
    TournamentIn,
    TournamentOut,
    create_arguments,
    tournament_dict,
)
from tourney.engine import structure as structure_engine
from tourney.engine.clock import LEVEL
from tourney.engine.errors import DomainError
from tourney.engine.numbers import MAX_ID
from tourney.models import Entry, Tournament
from tourney.selectors import flights as reads
from tourney.selectors.clock import structure_items
from tourney.selectors.event_view import Day2Row, FlightRow, event_summary
from tourney.services import flights as writes
from tourney.services.tournaments import DEFAULT_CHIPS

router = Router(tags=["multi-day events"], **out.ROUTER_OPTIONS)

MAX_FLIGHTS = 26
MAX_LETTERS = 8  # a flight's letters (the service refuses more)
EVENT_NAME_MAX = Tournament._meta.get_field("name").max_length - len(" Day 1") - MAX_LETTERS
MSG_BAG_TWICE = "Give each player's bag once."
# event_summary gives the statuses as the screens show them; the API answers the codes.
STATUS_CODES = {label: value for value, label in Tournament.Status.choices}


# ---------------------------------------------------------------- the answers


class FlightOut(out.Out):
    tournament: int
    letter: str
    name: str
    status: Literal["setup", "running", "finished"]
    entries: int
    players_in: int
    ended: Literal["level", "players"] | None
    bagged: bool
    bags: int
    bagged_chips: int
    qualified: int
    qualified_chips: int


class ForfeitOut(out.Out):
    player: str
    flight: str
    chips: int
    kept_flight: str
    kept_chips: int
    reason: Literal["smaller_stack", "same_stack_later_flight", "later_flight"]
    message: str


class Day2Out(out.Out):
    tournament: int
    name: str
    status: Literal["setup", "running", "finished"]
    players: int
    chips: int


class MultiDayEventOut(out.Out):
    id: int
    name: str
    policy: Literal["largest", "first"]
    pays_on_day1: bool
    end_at_level: int | None
    end_at_players: int | None
    flights: list[FlightOut]
    entries: int
    players_in: int
    all_bagged: bool
    day2_players: int
    day2_chips: int
    forfeited: list[ForfeitOut]
    pool: int
    prizes: list[int] | None
    money_error: str
    day2: Day2Out | None


class TableTotalOut(out.Out):
    table: int
    players: int
    chips: int


class BagStatusOut(out.Out):
    tournament: int
    flight: str
    ended: Literal["level", "players"] | None
    bagged: bool
    tables: list[TableTotalOut]
    counted: int
    chips_in_play: int
    difference: int
    missing: list[int]
    not_in: list[int]


class BagOut(out.Out):
    entry: int
    chips: int
    table: int
    seat: int


class BagsRecordedOut(out.Out):
    recorded: list[BagOut]
    status: BagStatusOut


class ReportRowOut(out.Out):
    rank: int
    label: int
    entry: int
    number: int
    player: int
    name: str
    table: int
    seat: int
    chips: int


class BagsOut(out.Out):
    status: BagStatusOut
    report: list[ReportRowOut]


class Day2SeatOut(out.Out):
    entry: int
    number: int
    player: int
    name: str
    chips: int
    table: int
    seat: int
    bag_entry: int
    flight: str


class Day2BuiltOut(out.Out):
    tournament: TournamentOut
    seats: list[Day2SeatOut]


# ---------------------------------------------------------------- the event (RULES 10.1)


class EventIn(TournamentIn):
    """``POST /tournaments``'s body, every flight's, and the event's own fields."""

    # room left in each flight's tournament name for " Day 1" and its letters
    name: str = Field(min_length=1, max_length=EVENT_NAME_MAX)
    flights: list[str] = Field(min_length=1, max_length=MAX_FLIGHTS)
    policy: str = Field(default="largest", max_length=20)  # the service names the choices
    pays_on_day1: bool = False
    end_at_level: int | None = Field(default=None, ge=1, le=500)  # a level NUMBER, see above
    end_at_players: int | None = Field(default=None, ge=1, le=MAX_STAGE)


def _items_of(create: dict[str, Any]) -> tuple:
    """The structure the flights will have: the levels given, else the ``regular`` preset
    for the stack and the default chips (as ``tournament_create`` makes them)."""
    if create["levels"]:
        return structure_engine.parse_levels(create["levels"])
    chips = tuple(v for v, _ in DEFAULT_CHIPS)
    return structure_engine.preset(
        "regular", starting_stack=create["starting_stack"], denominations=chips
    )


# The keys of event_summary's rows the answers carry (named: a field added to a row for the
# screens stays out of the API's closed answers until declared there).
FLIGHT_KEYS = tuple(k for k in FlightOut.model_fields if k not in ("tournament", "status"))
FORFEIT_KEYS = tuple(ForfeitOut.model_fields)
DAY2_KEYS = ("name", "players", "chips")


def _flight_row(f: FlightRow) -> dict[str, Any]:
    row = {k: getattr(f, k) for k in FLIGHT_KEYS}
    return {"tournament": f.tournament_id, "status": STATUS_CODES[f.status], **row}


def _day2_row(d: Day2Row | None) -> dict[str, Any] | None:
    if d is None:
        return None
    row = {k: getattr(d, k) for k in DAY2_KEYS}
    return {"tournament": d.tournament_id, "status": STATUS_CODES[d.status], **row}


def event_dict(event_id: int) -> dict[str, Any]:
    """The event's read (``event_summary``) as the API answers it, with the flights' end
    (the last level by its number); 404 for no such event."""
    s = event_summary(event_id)
    if s is None:
        raise Http404
    first = Tournament.objects.filter(multi_day_event_id=event_id, day=1).order_by("pk").first()
    end_level = first.end_at_level if first else None
    items = structure_items(first) if end_level is not None else ()
    return {
        "id": s.event_id,
        "name": s.name,
        "policy": s.policy,
        "pays_on_day1": s.pays_on_day1,
        "end_at_level": structure_engine.item_number_of(items, LEVEL, end_level),
        "end_at_players": first.end_at_players if first else None,
        "flights": [_flight_row(f) for f in s.flights],
        "entries": s.entries,
        "players_in": s.players_in,
        "all_bagged": s.all_bagged,
        "day2_players": s.day2_players,
        "day2_chips": s.day2_chips,
        "forfeited": [{k: getattr(f, k) for k in FORFEIT_KEYS} for f in s.forfeited],
        "pool": s.pool,
        "prizes": list(s.prizes) if s.prizes is not None else None,
        "money_error": s.money_error,
        "day2": _day2_row(s.day2),
    }


@router.post(
    "/events",
    auth=api_auth.DIRECTOR,
    response={201: MultiDayEventOut},
    summary="Create a multi-day event and its Day 1 flights (RULES 10.1, 10.2)",
)
def event_create(request, payload: EventIn):
    need_director(request)
    data = payload.dict()
    event = {k: data.pop(k) for k in ("flights", "policy", "pays_on_day1", "end_at_players")}
    level = data.pop("end_at_level")
    create = create_arguments(data)
    # RULES 10.2: "level 12" is the 12th level of the structure, breaks not counted
    items = _items_of(create) if level is not None else ()
    index = structure_engine.item_index_of(items, LEVEL, level, field="end_at_level")
    made = writes.event_create(actor=request.user, end_at_level=index, **event, **create)
    return Status(201, event_dict(made.pk))


@router.get(
    "/events/{event_id}",
    auth=api_auth.DESK,
    response=MultiDayEventOut,
    summary="A multi-day event: its flights, the bags going to Day 2, the money, Day 2",
)
def event_get(request, event_id: int):
    need_desk(request)
    return event_dict(event_id)


# ---------------------------------------------------------------- bag and tag (RULES 10.4)


def _flight(t: Tournament) -> Tournament:
    if not reads.is_flight(t):
        raise DomainError("not_a_flight", writes.MSG_NOT_A_FLIGHT, status=409)
    return t


def bag_status_dict(t: Tournament) -> dict[str, Any]:
    """The flight's bags against its chips in play (``bag_status``): table by table totals,
    the difference (counted minus in play), the players still in without a bag (``missing``)
    and bags of entries no longer in (``not_in``)."""
    check = reads.bag_status(t)
    return {
        "tournament": t.pk,
        "flight": t.flight,
        "ended": reads.flight_end_reason(t),
        "bagged": t.bagged,
        "tables": [
            {"table": x.table, "players": x.players, "chips": x.chips} for x in check.tables
        ],
        "counted": check.counted,
        "chips_in_play": check.chips_in_play,
        "difference": check.difference,
        "missing": list(check.missing),
        "not_in": list(check.not_in),
    }


def chip_report(t: Tournament) -> list[dict[str, Any]]:
    """The chip count report (RULES 10.4): the bags biggest first (equal stacks share a
    rank), each with its label's number (in table and seat order) and the player."""
    labels = {b.entry: b.number for b in reads.bag_labels_of(t)}
    entries = Entry.objects.filter(pk__in=list(labels)).select_related("player").in_bulk()
    return [
        {
            "rank": r.rank,
            "label": labels[r.entry],
            "entry": r.entry,
            "number": entries[r.entry].number,
            "player": entries[r.entry].player_id,
            "name": entries[r.entry].player.name,
            "table": r.table,
            "seat": r.seat,
            "chips": r.chips,
        }
        for r in reads.chip_report_of(t).by_chips
    ]


@router.get(
    "/tournaments/{tid}/bags",
    auth=api_auth.DESK,
    response=BagsOut,
    summary="A flight's bags: the check against the chips in play and the chip count report",
)
def bags_get(request, tid: int):
    t = _flight(desk_tournament(request, tid))
    return {"status": bag_status_dict(t), "report": chip_report(t)}


class BagCountIn(Schema):
    entry: int = Field(ge=1, le=MAX_ID)
    chips: int = Field(ge=0, le=MAX_CHIPS)  # 0 reaches the service, which says why not


class BagsIn(Schema):
    table: int = Field(ge=1, le=1000)
    counts: list[BagCountIn] = Field(min_length=1, max_length=100)


@router.post(
    "/tournaments/{tid}/bags",
    auth=api_auth.DIRECTOR,
    response={201: BagsRecordedOut},
    summary="Bag one table of an ended flight; a table entered again is recounted (RULES 10.4)",
)
def bags_post(request, tid: int, payload: BagsIn):
    director_tournament(request, tid)
    counts: dict[int, int] = {}
    for c in payload.counts:
        if c.entry in counts:
            raise DomainError("duplicate_entry", MSG_BAG_TWICE, fields={"entry": c.entry})
        counts[c.entry] = c.chips
    rows = writes.bags_record(
        tournament_id=tid, table=payload.table, counts=counts, actor=request.user
    )
    recorded = [
        {"entry": r.entry_id, "chips": r.chips, "table": r.table, "seat": r.seat} for r in rows
    ]
    t = Tournament.objects.get(pk=tid)
    return Status(201, {"recorded": recorded, "status": bag_status_dict(t)})


@router.post(
    "/tournaments/{tid}/bags/close",
    auth=api_auth.DIRECTOR,
    response=BagStatusOut,
    summary="Close a flight's bags once every player still in has one (RULES 10.4)",
)
def bags_close(request, tid: int):
    director_tournament(request, tid)
    return bag_status_dict(writes.flight_bag_close(tournament_id=tid, actor=request.user))


# ---------------------------------------------------------------- Day 2 (RULES 10.3, 10.5)


def day2_dict(t: Tournament) -> dict[str, Any]:
    """Day 2's tournament read and its seats, by the players' names (the seat draw as the
    room posts it), each with the chips of the bag it carries and that bag's flight."""
    where = {
        entry: (table, seat)
        for entry, table, seat in Seat.objects.filter(tournament=t).values_list(
            "entry_id", "table__number", "number"
        )
    }
    entries = (
        Entry.objects.filter(pk__in=list(where))
        .select_related("player", "carried_from__tournament")
        .order_by("player__name", "carried_from_id")
    )
    return {
        "tournament": tournament_dict(t),
        "seats": [
            {
                "entry": e.pk,
                "number": e.number,
                "player": e.player_id,
                "name": e.player.name,
                "chips": e.chips_bought,
                "table": where[e.pk][0],
                "seat": where[e.pk][1],
                "bag_entry": e.carried_from_id,
                "flight": e.carried_from.tournament.flight,
            }
            for e in entries
        ],
    }


class Day2In(Schema):
    tables: int = Field(default=1, ge=0, le=1000)
    seats_per_table: int = Field(default=9, ge=2, le=12)
    start_level: int | None = Field(default=None, ge=1, le=500)  # a level NUMBER


@router.post(
    "/events/{event_id}/day2",
    auth=api_auth.DIRECTOR,
    response={201: Day2BuiltOut},
    summary="Build Day 2 from the bags kept and seat it at random (RULES 10.3, 10.5, 10.6)",
)
def day2_create(request, event_id: int, payload: Day2In):
    need_director(request)
    start = None
    days = reads.flights_of(event_id) if payload.start_level and 0 < event_id <= MAX_ID else ()
    if days:
        items = structure_items(days[0])
        start = structure_engine.item_index_of(
            items, LEVEL, payload.start_level, field="start_level"
        )
    t = writes.day2_build(
        event_id=event_id,
        tables=payload.tables,
        seats_per_table=payload.seats_per_table,
        start_level=start,
        actor=request.user,
    )
    return Status(201, day2_dict(t))


@router.post(
    "/tournaments/{tid}/day2/seat",
    auth=api_auth.DIRECTOR,
    response=Day2BuiltOut,
    summary="Seat Day 2 again after its seating was undone (RULES 10.5)",
)
def day2_seat(request, tid: int):
    director_tournament(request, tid)
    writes.day2_seat(tournament_id=tid, actor=request.user)
    return day2_dict(Tournament.objects.get(pk=tid))


# ---------------------------------------------------------------- a flight's end (RULES 10.2)


class FlightEndIn(Schema):
    end_at_level: int | None = Field(default=None, ge=1, le=500)  # a level NUMBER
    end_at_players: int | None = Field(default=None, ge=1, le=MAX_STAGE)


@router.post(
    "/tournaments/{tid}/flight-end",
    auth=api_auth.DIRECTOR,
    response=TournamentOut,
    summary="Change where a Day 1 flight ends, until its bags are closed (RULES 10.2)",
)
def flight_end(request, tid: int, payload: FlightEndIn):
    t = director_tournament(request, tid)
    index = structure_engine.item_index_of(
        structure_items(t), LEVEL, payload.end_at_level, field="end_at_level"
    )
    t = writes.flight_end_set(
        tournament_id=tid,
        end_at_level=index,
        end_at_players=payload.end_at_players,
        actor=request.user,
    )
    return tournament_dict(t)
