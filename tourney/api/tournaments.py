"""Tournaments: create one, read one, and register an entry (RULES 1)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from django.utils.timezone import localtime
from ninja import Field, Router, Schema, Status

from tourney import services
from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import MAX_MONEY, desk_tournament, need_desk, need_director, seat_of
from tourney.engine.clock import LEVEL
from tourney.engine.errors import DomainError
from tourney.engine.numbers import MAX_ID
from tourney.engine.structure import item_number_of
from tourney.models import Tournament
from tourney.selectors.clock import structure_items

router = Router(**out.ROUTER_OPTIONS)


MAX_STAGE = 100_000  # players still in (RULES 9.4)
MAX_ENVELOPES = 10**6  # of one amount
MSG_NAIVE_START = "starts_at needs its offset from UTC: 2026-12-05T19:00:00+01:00."
MSG_ENVELOPE_TWICE = "Give each envelope amount once, with how many envelopes of it."


class EnvelopeIn(Schema):
    amount: int = Field(ge=1, le=MAX_MONEY)
    count: int = Field(ge=1, le=MAX_ENVELOPES)


class TournamentIn(Schema):
    name: str = Field(min_length=1, max_length=120)
    seats_per_table: int = Field(default=9, ge=2, le=12)
    tables: int = Field(default=1, ge=0, le=1000)
    starting_stack: int = Field(default=10000, ge=1, le=10**9)
    buy_in: int = Field(default=0, ge=0, le=MAX_MONEY)
    fee: int = Field(default=0, ge=0, le=MAX_MONEY)
    guarantee: int = Field(default=0, ge=0, le=MAX_MONEY)
    added_money: int = Field(default=0, ge=0, le=MAX_MONEY)
    rounding_unit: int = Field(default=100, ge=1, le=10**9)
    seed: int | None = Field(default=None, ge=0, le=2**62)
    starts_at: datetime | None = None  # issue 28: with its offset, "2026-12-05T19:00:00+01:00"
    levels: list[dict[str, Any]] | None = Field(default=None, max_length=500)  # as PUT levels
    balance_tolerance: int | None = Field(default=None, ge=1, le=9)
    redraw_at_three: bool = True
    redraw_at_two: bool = True
    redraw_at_one: bool = True
    race_threshold: Literal["half_or_more", "more_than_half"] = "half_or_more"
    auto_open_tables: bool = True
    draw_at_registration: bool = True
    late_reg_until: int | None = Field(default=None, ge=0, le=499)
    # RULES 9.1: bounties, paid on top of buy_in (the prize-pool part) and the fee; the
    # service checks the settings together (a bounty type needs a bounty, and so on)
    bounty_kind: out.BountyKind = "none"
    bounty: int = Field(default=0, ge=0, le=MAX_MONEY)
    bounty_cash_percent: int = Field(default=50, ge=0, le=100)
    mystery_from_players: int = Field(default=9, ge=1, le=MAX_STAGE)
    mystery_envelopes: list[EnvelopeIn] | None = Field(default=None, max_length=100)
    # RULES 12.1: a satellite names its target; its seat value (0: the target's full price)
    satellite_target: int | None = Field(default=None, ge=1, le=MAX_ID)
    seat_value: int = Field(default=0, ge=0, le=MAX_MONEY)
    tickets_transferable: bool = False


def envelopes_as_stored(envelopes: list[dict[str, int]]) -> dict[str, int]:
    """The mystery envelopes as the tournament keeps them, ``{"amount": count}`` (RULES 9.4);
    an amount given twice is refused rather than one line silently replacing the other."""
    stored: dict[str, int] = {}
    for e in envelopes:
        key = str(e["amount"])
        if key in stored:
            raise DomainError(
                "bad_input", MSG_ENVELOPE_TWICE, fields={"mystery_envelopes": e["amount"]}
            )
        stored[key] = e["count"]
    return stored


def tournament_dict(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.pk,
        "name": t.name,
        "slug": t.slug,
        "status": t.status,
        "seats_per_table": t.seats_per_table,
        "starting_stack": t.starting_stack,
        "buy_in": t.buy_in,
        "fee": t.fee,
        "guarantee": t.guarantee,
        "seed": t.rng_seed,
        "balance_tolerance": t.balance_tolerance,
        "redraw_at_three": t.redraw_at_three,
        "redraw_at_two": t.redraw_at_two,
        "redraw_at_one": t.redraw_at_one,
        "race_threshold": t.race_threshold,
        "registration_open": t.registration_open,
        "starts_at": localtime(t.starts_at, t.zone).isoformat() if t.starts_at else None,
        "bounty_kind": t.bounty_kind,
        "bounty": t.bounty,
        "bounty_cash_percent": t.bounty_cash_percent,
        "mystery_from_players": t.mystery_from_players,
        **(event_fields(t) if t.multi_day_event_id is not None else {}),
        **(satellite_fields(t) if t.satellite_target_id is not None else {}),
    }


class TournamentOut(out.TournamentOut):
    """The tournament read (``schemas.TournamentOut``) and, for a day of a multi-day event
    only, that day's place in it (RULES 10.1, 10.2): the event, the day, the flight's letter
    (``null`` on Day 2), its end (the last level by its number, levels counted as the clock
    shows them, breaks not; the field size) and whether its bags are closed. A tournament of
    no event answers without these keys, as before. ``starts_at``: when play is to start
    (issue 28), ``null`` when not set."""

    starts_at: str | None
    multi_day_event: int = out.may_be_absent()
    day: int = out.may_be_absent()
    flight: str | None = None
    end_at_level: int | None = None
    end_at_players: int | None = None
    bagged: bool = out.may_be_absent()
    # RULES 12.1: a satellite's target, seat value (0: the target's price) and transferability
    satellite_target: int = out.may_be_absent()
    seat_value: int = out.may_be_absent()
    tickets_transferable: bool = out.may_be_absent()


def satellite_fields(t: Tournament) -> dict[str, Any]:
    """A satellite's settings (RULES 12.1), for ``tournament_dict``; absent for any other."""
    return {
        "satellite_target": t.satellite_target_id,
        "seat_value": t.seat_value,
        "tickets_transferable": t.tickets_transferable,
    }


def event_fields(t: Tournament) -> dict[str, Any]:
    """A day's place in its multi-day event (RULES 10), for ``tournament_dict``."""
    items = structure_items(t) if t.end_at_level is not None else ()
    return {
        "multi_day_event": t.multi_day_event_id,
        "day": t.day,
        "flight": t.flight or None,
        "end_at_level": item_number_of(items, LEVEL, t.end_at_level),
        "end_at_players": t.end_at_players,
        "bagged": t.bagged,
    }


def create_arguments(data: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``services.tournament_create`` from a ``TournamentIn``'s
    fields (``data``, taken apart): the named ones, and the rest as its ``options``."""
    envelopes = data.pop("mystery_envelopes")
    if data.get("starts_at") is not None and data["starts_at"].tzinfo is None:
        raise DomainError("bad_input", MSG_NAIVE_START, fields={"starts_at": MSG_NAIVE_START})
    if envelopes is not None:
        data["mystery_envelopes"] = envelopes_as_stored(envelopes)
    named = ("name", "seats_per_table", "tables", "starting_stack", "buy_in", "fee", "seed")
    return {
        **{key: data.pop(key) for key in named},
        "levels": data.pop("levels"),
        "options": data,
    }


@router.post(
    "/tournaments", auth=api_auth.DIRECTOR, tags=["tournaments"], response={201: TournamentOut}
)
def tournament_create(request, payload: TournamentIn):
    need_director(request)
    t = services.tournament_create(actor=request.user, **create_arguments(payload.dict()))
    return Status(201, tournament_dict(t))


@router.get("/tournaments/{tid}", auth=api_auth.DESK, tags=["tournaments"], response=TournamentOut)
def tournament_get(request, tid: int):
    return tournament_dict(desk_tournament(request, tid))


class EntryIn(Schema):
    name: str = Field(default="", max_length=120)
    player_id: int | None = Field(default=None, ge=1, le=MAX_ID)


@router.post(
    "/tournaments/{tid}/entries",
    auth=api_auth.DESK,
    tags=["registration"],
    response={201: out.EntryOut},
)
def entry_create(request, tid: int, payload: EntryIn):
    need_desk(request)
    entry = services.entry_register(
        tournament_id=tid, name=payload.name, player_id=payload.player_id, actor=request.user
    )
    return Status(
        201,
        {
            "id": entry.pk,
            "number": entry.number,
            "name": entry.player.name,
            "status": entry.status,
            **seat_of(entry),
        },
    )
